//! Building oware endgame databases by retrograde analysis, for both rule sets; the files it writes
//! are read by the `oware-egtb` crate.
//!
//! - [`solve`]: retrograde analysis of one level by thresholds, in parallel (rayon).
//! - [`refine`]: abapa only, the searches that narrow the bounds a cycle leaves:
//!   [`pn_search`] (proof numbers) and [`path_search`] (path-tracking alpha-beta), both over the
//!   level as [`in_level`] holds it.
//! - [`build`]: the level loop, over a [`store::LevelStore`] (files in a directory, or memory).
//! - [`distributed`]: the level loop spread over the ranks of a job, each holding a slice of every
//!   level and telling the others about their boards by batched messages over a
//!   [`distributed::transport::Transport`] (MPI with the `mpi` feature, threads in one process for tests).
//! - [`home`]: the databases of the user's data directory, checked and built on first use.
//! - [`check`]: re-deriving every entry (or a sample) from its successors (`verify`), solving each
//!   level again to compare it byte for byte (`verify --deep`), and counting (`stats`).
//!
//! ```
//! use oware_egtb::Tablebase;
//! use oware_egtb_build::{build::build, store::MemoryStore};
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

#![warn(missing_docs)]

use oware_egtb::index::Board;
use oware_egtb::values::Bounds;
use oware_egtb::Levels;

pub mod build;
pub mod check;
pub mod distributed;
pub mod home;
pub mod in_level;
mod kernel;
pub mod path_search;
pub mod pn_search;
pub mod refine;
pub mod solve;
pub mod store;

pub use refine::SearchBudget;

/// The values of the levels below the one being built.
pub trait LowerLevels: Sync {
    /// The bounds of `board` (mover in houses 0..6) on the level of `seeds` seeds, below the level
    /// being built.
    fn bounds(&self, seeds: usize, board: &Board) -> Bounds;
}

impl LowerLevels for Levels {
    fn bounds(&self, seeds: usize, board: &Board) -> Bounds {
        debug_assert_eq!(board.iter().map(|&v| v as usize).sum::<usize>(), seeds);
        // Unguarded: the level loop asks whether a file changed once the level is solved.
        self.stored_unguarded(board)
            .expect("a move's board is in the index of a finished lower level")
    }
}

/// Told how much work is done (in the units of [`solve::work_units`]), for progress bars: the
/// library draws nothing itself.
pub trait Progress: Sync {
    /// Adds `boards` work units done.
    fn advance(&self, boards: u64);
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

impl<F: Fn(u64) + Sync> Progress for F {
    fn advance(&self, boards: u64) {
        self(boards)
    }
}
