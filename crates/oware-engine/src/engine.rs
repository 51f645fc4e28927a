//! The engine: its options and the [`Engine`] that keeps a transposition table between searches
//! and lends it to each search or analysis (what they return, the control and the database probe
//! are in [`crate::interface`]).

use std::sync::Arc;

use oware_rules::Game;

use crate::eval::{EvalTable, Weights};
use crate::interface::{Analysis, MoveScore, Probe, SearchControl, SearchResult};
use crate::player::Oversight;
use crate::search::Setup;
use crate::time::Limits;
use crate::tt::Table;

/// How the engine is set up.
#[derive(Clone)]
pub struct EngineOptions {
    /// Transposition table size in MiB: the most it may use (a game starts with 1 MiB in use, and
    /// the part in use grows as the searches need, see [`crate::Table`]; its tags take an eighth
    /// more).
    pub hash_mb: usize,
    /// Search threads. For the best move, lazy SMP: helpers search the same tree and share the
    /// table. For an analysis of every root move ([`Engine::analyse`]), each thread takes the next
    /// root move not yet searched in each iteration.
    pub threads: usize,
    /// The evaluation's weights.
    pub weights: Weights,
    /// Endgame databases, when present.
    pub probe: Option<Arc<dyn Probe>>,
    /// The human mistakes of levels 1–4 ([`crate::player::Oversight`], the coach's model): without
    /// one, those levels play the best move of their depth.
    pub oversight: Option<Arc<dyn Oversight>>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            weights: Weights::DEFAULT,
            probe: None,
            oversight: None,
        }
    }
}

impl std::fmt::Debug for EngineOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineOptions")
            .field("hash_mb", &self.hash_mb)
            .field("threads", &self.threads)
            .field("weights", &self.weights)
            .field("probe", &self.probe.is_some())
            .field("oversight", &self.oversight.is_some())
            .finish()
    }
}

/// The engine: options, the transposition table (kept between searches), and a control handle.
pub struct Engine {
    options: EngineOptions,
    table: Table,
    /// The evaluation of `options.weights`, precomputed (one table per stage of the game: built
    /// when the weights are set, not for every search).
    eval: EvalTable,
    control: Arc<SearchControl>,
}

impl Engine {
    /// An engine with a fresh transposition table of `options.hash_mb`.
    pub fn new(options: EngineOptions) -> Engine {
        Engine {
            table: Table::new(options.hash_mb),
            eval: EvalTable::new(&options.weights),
            options,
            control: SearchControl::new(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// The handle that stops (or ponderhits) this engine's searches from another thread.
    pub fn control(&self) -> Arc<SearchControl> {
        self.control.clone()
    }

    /// The part of the transposition table in use now, in bytes (it grows with the searches of a
    /// game, up to the `Hash` size).
    pub fn table_bytes_in_use(&self) -> usize {
        self.table.bytes_in_use()
    }

    /// Resizes the transposition table (its contents are lost).
    pub fn set_hash(&mut self, megabytes: usize) {
        self.options.hash_mb = megabytes;
        self.table = Table::new(megabytes);
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.options.threads = threads.max(1);
    }

    /// Sets the evaluation's weights; the transposition table is cleared, since its scores came
    /// from the old ones.
    pub fn set_weights(&mut self, weights: Weights) {
        self.eval = EvalTable::new(&weights);
        self.options.weights = weights;
        self.table.clear();
    }

    /// Sets or removes the endgame databases.
    pub fn set_probe(&mut self, probe: Option<Arc<dyn Probe>>) {
        self.options.probe = probe;
    }

    /// Sets or removes the model of the weak levels' mistakes.
    pub fn set_oversight(&mut self, oversight: Option<Arc<dyn Oversight>>) {
        self.options.oversight = oversight;
    }

    /// Forgets what earlier searches learned (a new game).
    pub fn new_game(&mut self) {
        self.table.clear();
    }

    /// Searches the current position of `game` (with its history since the last capture, for
    /// repetitions) within `limits`, calling `progress` after each completed iteration.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        self.control.reset(false);
        self.search_controlled(game, limits, progress)
    }

    /// Like [`Engine::search`], but does not reset the control: the caller has called
    /// [`SearchControl::reset`] (e.g. with pondering on) and may stop it at any time.
    pub fn search_controlled(
        &mut self,
        game: &Game,
        limits: &Limits,
        progress: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        self.run(game, limits, false, progress).0
    }

    /// Scores every legal move of the current position (each searched with a full window), best
    /// first, within `limits`.
    pub fn analyse(&mut self, game: &Game, limits: &Limits) -> Analysis {
        self.control.reset(false);
        self.analyse_controlled(game, limits)
    }

    /// Like [`Engine::analyse`], without resetting the control (see [`Engine::search_controlled`]).
    pub fn analyse_controlled(&mut self, game: &Game, limits: &Limits) -> Analysis {
        let (result, moves) = self.run(game, limits, true, &mut |_| {});
        Analysis {
            moves,
            depth: result.depth,
            nodes: result.nodes,
            time: result.time,
        }
    }

    fn run(
        &mut self,
        game: &Game,
        limits: &Limits,
        all_moves: bool,
        progress: &mut dyn FnMut(&SearchResult),
    ) -> (SearchResult, Vec<MoveScore>) {
        let setup = Setup {
            table: &self.table,
            control: &self.control,
            eval: &self.eval,
            probe: self.options.probe.as_deref(),
            threads: self.options.threads,
        };
        crate::search::run(setup, game, limits, all_moves, progress)
    }
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(EngineOptions::default())
    }
}
