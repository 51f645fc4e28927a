//! Endgame databases for oware by retrograde analysis, for both rule sets.
//!
//! - [`index`]: every board of `k` seeds, mover to move in houses 0..6, ranked combinatorially (and
//!   the compact index that leaves out boards that cannot follow a move).
//! - [`solve`]: retrograde analysis of one level by thresholds, in parallel (rayon).
//! - [`path_search`]: abapa only, exact values for boards a cycle touches, by path-tracking search.
//! - [`build`]: the level loop, over a [`store::LevelStore`] (files in a directory, or memory).
//! - [`file`]: the file format: header with magic, version, rule set, level, count and CRC-32.
//! - [`Tablebase`]: opening a directory and probing positions and moves.
//! - [`check`]: re-deriving every entry from its successors (`verify`) and counting (`stats`).
//!
//! ```
//! use oware_egtb::{build::build, store::MemoryStore, Tablebase};
//! use oware_rules::{Position, RuleSet};
//! let mut store = MemoryStore::default();
//! let levels = build(&mut store, RuleSet::Awari, 4, &(), |_| {}).unwrap();
//! let tb = Tablebase::from_levels(levels);
//! // South's only move F makes a and b hold 2 each and captures them: North is left with nothing,
//! // and South, having no choice, gets all 4 seeds.
//! let p: Position = "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S".parse().unwrap();
//! let probe = tb.probe(&p).unwrap();
//! assert_eq!((probe.value, probe.exact), (4, true));
//! assert_eq!(tb.best_moves(&p).unwrap()[0].to_string(), "F");
//! ```

use std::path::PathBuf;

use oware_rules::RuleSet;

mod abapa_moves;
pub mod build;
pub mod check;
pub mod file;
pub mod index;
pub mod path_search;
pub mod pn_search;
pub mod solve;
pub mod store;
pub mod tablebase;
pub mod values;

pub use tablebase::{Probe, Tablebase};
pub use values::Bounds;

/// What can go wrong with a database.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: not an oware endgame database file (wrong magic number or too short)", path.display())]
    NotADatabase { path: PathBuf },
    #[error("{}: database format version {found} is not supported (this program reads version {})", path.display(), file::FORMAT_VERSION)]
    UnsupportedVersion { path: PathBuf, found: u32 },
    #[error("{}: expected {expected}, but the file holds {found}", path.display())]
    WrongContents {
        path: PathBuf,
        expected: String,
        found: String,
    },
    #[error("{}: expected {expected} entries, found {found} (truncated or padded file)", path.display())]
    WrongSize {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    #[error("{}: damaged file (checksum mismatch); delete it to rebuild the level", path.display())]
    Damaged { path: PathBuf },
    #[error("{}: no {rules} level {seeds} after saving it", dir.display())]
    MissingLevel {
        dir: PathBuf,
        rules: RuleSet,
        seeds: usize,
    },
    #[error("{}: no {rules} database here (no level 0 file)", dir.display())]
    NoDatabase { dir: PathBuf, rules: RuleSet },
    #[error("{rules} databases go up to {max} seeds, not {seeds}")]
    LevelTooHigh {
        rules: RuleSet,
        seeds: usize,
        max: usize,
    },
}
