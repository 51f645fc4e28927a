//! What a search and its callers exchange: the endgame-database [`Probe`] a search may consult,
//! the [`SearchControl`] that stops or ponderhits it from another thread, and what a search and an
//! analysis return. Kept apart from [`crate::Engine`] so that the search depends on these and the
//! engine on the search, never the other way round.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use oware_rules::{Game, Move, Position, RuleSet};

/// An endgame-database probe: for a position with no earlier history (right after a capture), the
/// final seed difference (side to move minus opponent, over the seeds *on the board*) under perfect
/// play, or `None` when the databases do not cover it.
pub trait Probe: Send + Sync {
    /// The value of `pos` under `rules`, as the trait describes, or `None` when not covered.
    fn probe(&self, pos: &Position, rules: RuleSet) -> Option<i32>;

    /// Bounds on the value [`Probe::probe`] gives, `(lower, upper)` in the same units, where the
    /// databases cover `pos` but may hold only bounds (abapa boards whose value a cycle touches).
    /// The default: the exact value as both bounds.
    fn bounds(&self, pos: &Position, rules: RuleSet) -> Option<(i32, i32)> {
        self.probe(pos, rules).map(|v| (v, v))
    }

    /// The move to play in `game` straight from the databases, with its value (the final seed
    /// difference over the board, as [`Probe::probe`] gives), where the databases cover the
    /// position and their answer holds whatever the game's history: what [`crate::player`] plays
    /// at full strength without a search. `None` (the default): search.
    fn root_move(&self, game: &Game) -> Option<(Move, i32)> {
        let _ = game;
        None
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

    /// Sets up for a new search (called by [`crate::Engine::search`] unless pondering was asked for).
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

/// One root move's score and line, from [`crate::Engine::analyse`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveScore {
    /// The root move.
    pub mv: Move,
    /// Centiseeds for the side to move at the root.
    pub score: i32,
    /// The line expected after it, starting with it.
    pub pv: Vec<Move>,
}

/// An analysis of every legal move ([`crate::Engine::analyse`]): their scores and how far the search got.
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
