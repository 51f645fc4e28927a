//! A build spread over the ranks of a job (MPI on a cluster, see `mpi_transport`; threads in
//! one process for tests, see [`transport::LocalTransport`]), for both rule sets.
//!
//! Each rank owns a contiguous slice of every level ([`Slices`](transport::Slices)) and holds only
//! the working state of its slice (the solver's two bytes per board). The level is solved by the
//! retrograde kernel that [`crate::solve`] runs too, with the same per-board state (`AwariScheme`,
//! `AbapaScheme`): a board that joins a set tells its predecessors, and predecessors owned by other
//! ranks are told by batched messages, one buffer per destination per round
//! ([`Outbox`](transport::Outbox)), exchanged all-to-all until no rank has news left.
//! The sets a threshold ends with are the least fixpoints of their rules whatever the order of the
//! news (and abapa's safe regions the greatest sets that meet theirs), so the entries are those of
//! the one-process build, byte for byte, for any number of ranks.
//!
//! abapa's searches (`searches`) then run on every rank over the open boards of its share of the
//! level (interleaved blocks of 64 boards), with the whole level gathered on every rank and the
//! entries that change sent to all after each pass.
//!
//! Values of lower levels (the boards a capture leads to) come from [`RankLevels`], as
//! [`LowerMode`] says: the files memory-mapped on a shared file system, read whole into every rank,
//! or only each rank's slice, the rest asked of its owner by batched questions.
//!
//! Files: each rank writes its slice to a part file; rank 0, once every rank has reported its part
//! (length and CRC-32), streams the parts into a temporary file under the header, checks each part
//! against its report, renames it to the level's name and opens it with the usual checks. A level's
//! file therefore appears complete or not at all, and a stopped run resumes from the last finished
//! level with any number of ranks.
//!
//! One module per job: `lower` (the lower levels a rank holds), `slice` (the slice solver),
//! `searches` (abapa's searches across ranks), `parts` (part files and their assembly), `levels`
//! (the level loop, each step decided by rank 0), [`transport`] with `mpi_transport` (how the
//! ranks exchange their batches), and [`job`] (one rank of an MPI job around the level loop).

use oware_egtb::EgtbError;
use oware_rules::RuleSet;

use crate::build::check_max_seeds;
use oware_egtb::values::{entry_width, ABAPA_NARROW_MAX};
use transport::TransportError;

pub mod job;
mod levels;
mod lower;
#[cfg(feature = "mpi")]
pub mod mpi_transport;
mod parts;
mod searches;
mod slice;
pub mod transport;

pub use levels::build_distributed;
pub use lower::RankLevels;
pub use slice::solve_slice;

/// How a rank reads the value of a lower-level board it does not own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowerMode {
    /// Every rank memory-maps the finished files (a shared file system; pages load on demand).
    Mapped,
    /// Every rank reads the finished files whole into memory (they fit on each node).
    Replicated,
    /// Every rank holds its own slice of each lower level and asks the owners of the others, in
    /// batches (levels too large for one node).
    Messages,
}

/// The mode's name, as [`LowerMode::from_str`](std::str::FromStr) reads it.
impl std::fmt::Display for LowerMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LowerMode::Mapped => "mapped",
            LowerMode::Replicated => "replicated",
            LowerMode::Messages => "messages",
        })
    }
}

impl std::str::FromStr for LowerMode {
    type Err = String;
    fn from_str(s: &str) -> Result<LowerMode, String> {
        match s {
            "mapped" => Ok(LowerMode::Mapped),
            "replicated" => Ok(LowerMode::Replicated),
            "messages" => Ok(LowerMode::Messages),
            _ => Err(format!(
                "unknown lower-level mode {s:?} (mapped, replicated or messages)"
            )),
        }
    }
}

/// What can stop a distributed build.
#[derive(Debug, thiserror::Error)]
pub enum DistributedError {
    /// A database file could not be read or written.
    #[error(transparent)]
    Egtb(#[from] EgtbError),
    /// Exchanging data with the other ranks failed while building a level (the message includes
    /// the transport's error, so it is not also the error's `source`).
    #[error("level {seeds}: {error}")]
    Transport {
        /// The level being built.
        seeds: usize,
        /// What the transport reported.
        error: TransportError,
    },
    /// Another rank reported an error while building a level.
    #[error("level {seeds}: rank {rank} failed: {message}")]
    Rank {
        /// The level being built.
        seeds: usize,
        /// The rank that failed.
        rank: usize,
        /// Its error, as text.
        message: String,
    },
    /// The rule set cannot be built with lower levels read this way.
    #[error("{rules} levels cannot be built with lower levels asked of their owners (--lower messages): their searches read lower levels at random; use --lower mapped or --lower replicated")]
    LowerModeUnsupported {
        /// The rule set asked for.
        rules: RuleSet,
        /// The way of reading lower levels asked for.
        mode: LowerMode,
    },
    /// A level of two-byte entries: the ranks ship entries and slices of files as single bytes.
    #[error("{rules} level {seeds} has two-byte entries, which a distributed build does not handle yet: build levels above {} in one process (without --mpi)", ABAPA_NARROW_MAX)]
    WideLevel {
        /// The rule set asked for.
        rules: RuleSet,
        /// The first level of two-byte entries asked for.
        seeds: usize,
    },
}

/// Whether levels `0..=max_seeds` of `rules` can be built across ranks with lower levels read as
/// `mode` says: up to the rule set's highest level ([`check_max_seeds`]); abapa's searches read
/// lower levels at random, so abapa needs them whole on every rank (not [`LowerMode::Messages`]);
/// and only levels of one-byte entries ([`entry_width`]).
/// [`build_distributed`] checks it first; callers may check it before they start a job.
pub fn check_request(
    rules: RuleSet,
    max_seeds: usize,
    mode: LowerMode,
) -> Result<(), DistributedError> {
    if rules == RuleSet::Abapa && mode == LowerMode::Messages {
        return Err(DistributedError::LowerModeUnsupported { rules, mode });
    }
    check_max_seeds(rules, max_seeds)?;
    if let Some(seeds) = (0..=max_seeds).find(|&s| entry_width(rules, s) > 1) {
        return Err(DistributedError::WideLevel { rules, seeds });
    }
    Ok(())
}

/// What building (or finding) one level gave, the same on every rank.
#[derive(Debug, Clone, PartialEq)]
pub struct DistributedLevelReport {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// Boards in the level's index.
    pub boards: u64,
    /// Found already built (resumed), not built now.
    pub reused: bool,
    /// Wall-clock seconds spent on the level.
    pub seconds: f64,
    /// Ranks in the job.
    pub ranks: usize,
    /// Bytes all ranks sent to others while building the level.
    pub bytes_exchanged: u64,
    /// All-to-all exchanges the level took (each one a synchronisation of all ranks).
    pub exchanges: u64,
    /// Seconds a rank spent waiting for exchanges to finish, on average over the ranks: the part
    /// of the communication (and of the other ranks' lateness) that computation did not hide.
    pub waited: f64,
}

/// Events of the level loop, for progress output (rank 0's) and test hooks.
pub enum LevelEvent<'a> {
    /// Building level `seeds` starts; this rank will report `work` units to its
    /// [`Progress`](crate::Progress).
    Started {
        /// The level starting.
        seeds: usize,
        /// Work units this rank will report.
        work: u64,
    },
    /// The level is done (or was found already built).
    Finished(&'a DistributedLevelReport),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_modes_read_back_as_written() {
        for mode in [
            LowerMode::Mapped,
            LowerMode::Replicated,
            LowerMode::Messages,
        ] {
            assert_eq!(mode.to_string().parse(), Ok(mode));
        }
        assert!("shared".parse::<LowerMode>().is_err());
    }
}
