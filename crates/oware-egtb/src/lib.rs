//! Endgame databases for oware, as their users probe them: the index of every level, the value codes,
//! the file format, and the memory-mapped [`Tablebase`]. Building them (retrograde analysis, the
//! searches, verification) is the job of the `oware-egtb-build` crate.
//!
//! - [`index`]: every board of `k` seeds, mover to move in houses 0..6, ranked combinatorially (and
//!   the compact index that leaves out boards that cannot follow a move).
//! - [`values`]: the one-byte codes of values and bounds, and the moves between boards.
//! - [`file`]: the file format: header with magic, version, rule set, level, count and CRC-32.
//! - [`Tablebase`]: opening a directory and probing positions and moves.
//!
//! ```
//! use oware_egtb::tablebase::{LevelData, Levels};
//! use oware_egtb::Tablebase;
//! use oware_rules::{Position, RuleSet};
//! // Level 0 of awari has one board, the empty one, worth 0.
//! let mut levels = Levels::new(RuleSet::Awari);
//! levels.push(LevelData::Memory(vec![oware_egtb::values::encode(
//!     RuleSet::Awari,
//!     oware_egtb::Bounds::exact(0),
//! )].into()));
//! let tb = Tablebase::from_levels(levels);
//! let p: Position = "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S".parse().unwrap();
//! assert_eq!(tb.probe(&p).unwrap().value, 0);
//! ```

use std::path::PathBuf;

use oware_rules::RuleSet;

pub mod file;
pub mod index;
pub mod tablebase;
pub mod values;

pub use tablebase::{LevelData, Levels, Probe, Tablebase};
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
