//! The engine's interface: its options, the [`Engine`] that keeps a transposition table between
//! searches, what a search and an analysis return, the control that stops or ponderhits a search
//! from another thread, and the endgame-database [`Probe`] it may consult.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oware_rules::{Game, Move, Position, RuleSet};

use crate::eval::{EvalTable, Weights};
use crate::search::Setup;
use crate::time::Limits;
use crate::tt::Table;

/// An endgame-database probe: for a position with no earlier history (right after a capture), the
/// final seed difference (side to move minus opponent, over the seeds *on the board*) under perfect
/// play, or `None` when the databases do not cover it.
pub trait Probe: Send + Sync {
    /// The value of `pos` under `rules`, as the trait describes, or `None` when not covered.
    fn probe(&self, pos: &Position, rules: RuleSet) -> Option<i32>;

    /// The move to play in `game` straight from the databases, with its value (the final seed
    /// difference over the board, as [`Probe::probe`] gives), where the databases cover the
    /// position and their answer holds whatever the game's history: what [`crate::player`] plays
    /// at full strength without a search. `None` (the default): search.
    fn root_move(&self, game: &Game) -> Option<(Move, i32)> {
        let _ = game;
        None
    }
}

/// How the engine is set up.
#[derive(Clone)]
pub struct EngineOptions {
    /// Transposition table size in MiB: the most it may use (a game starts with 1 MiB in use, and
    /// the part in use grows as the searches need, see [`crate::Table`]; its tags take an eighth
    /// more).
    pub hash_mb: usize,
    /// Search threads. For the best move, lazy SMP: helpers search the same tree and share the
    /// table. For an analysis of every root move ([`Engine::analyze`]), each thread takes the next
    /// root move not yet searched in each iteration.
    pub threads: usize,
    /// The evaluation's weights.
    pub weights: Weights,
    /// Endgame databases, when present.
    pub probe: Option<Arc<dyn Probe>>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            hash_mb: 64,
            threads: 1,
            weights: Weights::DEFAULT,
            probe: None,
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
            .finish()
    }
}

/// Starts, stops and "ponderhits" a search from another thread.
#[derive(Debug, Default)]
pub struct SearchControl {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When the clock started for this search (at `go`, or at `ponderhit` when pondering).
    clock_start: Mutex<Option<Instant>>,
}

impl SearchControl {
    /// A control with no search stopped or pondering.
    pub fn new() -> Arc<SearchControl> {
        Arc::new(SearchControl::default())
    }

    /// Asks the running search to stop as soon as it can; it then returns its best move so far.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether [`SearchControl::stop`] was called since the search began.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Sets up for a new search (called by [`Engine::search`] unless pondering was asked for).
    pub fn reset(&self, pondering: bool) {
        self.stop.store(false, Ordering::Relaxed);
        self.pondering.store(pondering, Ordering::Relaxed);
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
    }

    /// The opponent played the expected move: the ponder search becomes a normal timed search, its
    /// clock starting now.
    pub fn ponderhit(&self) {
        *self.clock_start.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Whether the search is pondering (its clock not yet running).
    pub fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    pub(crate) fn elapsed(&self) -> Duration {
        self.clock_start
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map_or(Duration::ZERO, |t| t.elapsed())
    }
}

/// The outcome of a search (also sent after each completed iteration as progress).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the game is over.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Centiseeds for the side to move; beyond [`crate::WIN_THRESHOLD`] a decided game.
    pub score: i32,
    /// Depth of the last completed iteration, in plies.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub time: Duration,
    /// The principal variation: the best line, from the move to play.
    pub pv: Vec<Move>,
    /// Transposition table use, permille.
    pub hashfull: u32,
}

impl SearchResult {
    /// Nodes a second over the search.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// One root move's score and line, from [`Engine::analyze`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveScore {
    /// The root move.
    pub mv: Move,
    /// Centiseeds for the side to move at the root.
    pub score: i32,
    /// The line expected after it, starting with it.
    pub pv: Vec<Move>,
}

/// An analysis of every legal move ([`Engine::analyze`]): their scores and how far the search got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    /// Every legal move, best first (none when the game is over).
    pub moves: Vec<MoveScore>,
    /// The last iteration completed for every move, in plies (its scores are the ones given).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the analysis took.
    pub time: Duration,
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
    pub fn analyze(&mut self, game: &Game, limits: &Limits) -> Analysis {
        self.control.reset(false);
        self.analyze_controlled(game, limits)
    }

    /// Like [`Engine::analyze`], without resetting the control (see [`Engine::search_controlled`]).
    pub fn analyze_controlled(&mut self, game: &Game, limits: &Limits) -> Analysis {
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
