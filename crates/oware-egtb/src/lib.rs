//! Endgame databases for oware, as their users probe them: the index of every level, the value codes,
//! the file format, and the memory-mapped [`Tablebase`]. Building them (retrograde analysis, the
//! searches, verification) is the job of the `oware-egtb-build` crate.
//!
//! - [`index`]: every board of `k` seeds, mover to move in houses 0..6, ranked combinatorially (and
//!   the compact index that leaves out boards that cannot follow a move).
//! - [`values`]: the codes of values and bounds (one byte an entry, two for abapa above 21 seeds),
//!   and the moves between boards.
//! - [`file`](mod@file): the file format: header with magic, version, rule set, level, width of the
//!   entries, count and CRC-32; and how a file that changes while mapped (truncated, rewritten in
//!   place) is noticed.
//! - [`Tablebase`]: opening a directory and probing positions and moves.
//!
//! ```
//! use oware_egtb::tablebase::{LevelData, Levels};
//! use oware_egtb::Tablebase;
//! use oware_rules::{Position, RuleSet};
//! // Level 0 of awari has one board, the empty one, worth 0.
//! let mut levels = Levels::new(RuleSet::Awari);
//! let code = oware_egtb::values::encode(RuleSet::Awari, oware_egtb::Bounds::exact(0));
//! levels.push(LevelData::Memory(vec![code as u8].into()));
//! let tb = Tablebase::from_levels(levels);
//! let p: Position = "0-0-0-0-0-0-0-0-0-0-0-0-24-24-S".parse().unwrap();
//! assert_eq!(tb.probe(&p).unwrap().value, 0);
//! ```

#![warn(missing_docs)]

use std::path::PathBuf;

use oware_rules::RuleSet;

pub mod file;
mod guard;
pub mod index;
pub mod tablebase;
pub mod values;

pub use tablebase::{LevelData, Levels, OnChange, ProbeValue, Tablebase, UnusedLevels};
pub use values::Bounds;

/// What can go wrong with a database.
#[derive(Debug, thiserror::Error)]
pub enum EgtbError {
    /// Reading or writing a file failed. The message includes the operating system's error, which
    /// is therefore not also given as the error's `source` (a chain printer would repeat it).
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The file changed (it shrank, or was rewritten in place) after it was opened and checked: its
    /// level is no longer read.
    #[error("{}: the file changed while in use (truncated or rewritten in place); its level is no longer used, restart to open it again", path.display())]
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// The file does not start with the database magic number.
    #[error("{}: not an oware endgame database file (wrong magic number or too short)", path.display())]
    NotADatabase {
        /// The file.
        path: PathBuf,
    },
    /// The file was written in a format version this program does not read.
    #[error("{}: database format version {found} is not supported (this program reads versions {} to {})", path.display(), file::NARROW_FORMAT_VERSION, file::FORMAT_VERSION)]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version in its header.
        found: u32,
    },
    /// The header gives a width of entries this program does not read (1 and 2 bytes are known).
    #[error("{}: entries of {width} bytes are not supported (this program reads entries of 1 or 2 bytes)", path.display())]
    UnsupportedWidth {
        /// The file.
        path: PathBuf,
        /// The width in its header.
        width: u8,
    },
    /// Entries narrower than the level's codes: such a file was never written by a build.
    #[error("{}: {rules} level {seeds} needs entries of {needed} bytes, not {width}", path.display())]
    TooNarrow {
        /// The file.
        path: PathBuf,
        /// The rule set of the level.
        rules: RuleSet,
        /// The level: seeds on the board.
        seeds: usize,
        /// The width of its entries.
        width: usize,
        /// The width its codes need.
        needed: usize,
    },
    /// The header names another rule set, index kind or level than the one asked for.
    #[error("{}: expected {expected}, but the file holds {found}", path.display())]
    WrongContents {
        /// The file.
        path: PathBuf,
        /// The rule set and level asked for.
        expected: String,
        /// What the header names.
        found: String,
    },
    /// The number of entries differs from the size of the level's index.
    #[error("{}: expected {expected} entries, found {found} (truncated or padded file)", path.display())]
    WrongSize {
        /// The file.
        path: PathBuf,
        /// Entries the index needs.
        expected: u64,
        /// Entries in the file.
        found: u64,
    },
    /// The checksum of the entries does not match the header's.
    #[error("{}: damaged file (checksum mismatch); delete it to rebuild the level", path.display())]
    Damaged {
        /// The file.
        path: PathBuf,
    },
    /// A level just saved cannot be found again.
    #[error("{}: no {rules} level {seeds} after saving it", dir.display())]
    MissingLevel {
        /// The database directory.
        dir: PathBuf,
        /// The rule set of the level.
        rules: RuleSet,
        /// The level: seeds on the board.
        seeds: usize,
    },
    /// The directory holds no database of this rule set: no level 0 file.
    #[error("{}: no {rules} database here (no level 0 file{})", dir.display(), unused_without_level_0(unused))]
    NoDatabase {
        /// The directory searched.
        dir: PathBuf,
        /// The rule set asked for.
        rules: RuleSet,
        /// Files of higher levels found there, unusable without level 0.
        unused: Vec<usize>,
    },
    /// A level the solver cannot build: its working state does not hold the level's values or
    /// board numbers.
    #[error(
        "{rules} level {seeds} cannot be built: the solver holds {rules} levels up to {max} seeds"
    )]
    BeyondSolver {
        /// The rule set.
        rules: RuleSet,
        /// The level asked for.
        seeds: usize,
        /// The highest level the solver holds.
        max: usize,
    },
    /// Building the level would take more memory than the machine has available now.
    #[error("{rules} level {seeds} needs about {} MiB of memory to build, and {} MiB are available; the levels below it are built (a machine with more memory can go on from them)", needed >> 20, available >> 20)]
    OutOfMemory {
        /// The rule set.
        rules: RuleSet,
        /// The level that was not started.
        seeds: usize,
        /// Bytes the build of the level would take, about.
        needed: u64,
        /// Bytes available (`MemAvailable` on Linux).
        available: u64,
    },
    /// A level beyond the largest the value codes can express for this rule set.
    #[error("{rules} databases go up to {max} seeds, not {seeds}")]
    LevelTooHigh {
        /// The rule set.
        rules: RuleSet,
        /// The level asked for.
        seeds: usize,
        /// The highest level of the rule set.
        max: usize,
    },
}

fn unused_without_level_0(unused: &[usize]) -> String {
    match unused {
        [] => String::new(),
        [one] => format!("; level {one} is there but not used without it"),
        more => format!(
            "; levels {} are there but not used without it",
            tablebase::list_levels(more)
        ),
    }
}
