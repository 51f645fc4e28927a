//! The computer player: an iterative-deepening PVS alpha-beta search with a transposition table over
//! the exact rules of [`oware_rules`], an evaluation that knows the game, and playing levels.
//!
//! - [`choose_move`]: the simple entry point (a game, a level 1..=10, a time); [`player`]: the one
//!   path every caller takes to choose a move (endgame databases, levels).
//! - [`Engine`]: the full interface: options (table size, threads, evaluation weights, an endgame
//!   database probe), [`Engine::search`] with [`Limits`] returning a [`SearchResult`] (best move,
//!   ponder move, score, depth, nodes, principal variation), [`Engine::analyse`] scoring every move,
//!   and a [`SearchControl`] to stop or ponderhit a search from another thread.
//!
//! ```
//! use std::time::Duration;
//! use oware_rules::{Game, RuleSet};
//! let game = Game::new(RuleSet::Abapa);
//! let mv = oware_engine::choose_move(&game, 3, Duration::from_millis(50)).unwrap();
//! assert!(game.legal_moves().contains(mv));
//! ```

#![warn(missing_docs)]

pub mod bench;
mod engine;
mod eval;
mod hash;
pub mod input;
mod interface;
mod ordering;
pub mod perfect;
pub mod player;
mod probe_set;
pub mod protocol;
mod search;
pub mod tablebase;
mod time;
mod tt;

pub use bench::{bench_games, games_along};
pub use engine::{Engine, EngineOptions};
pub use eval::{
    evaluate, features, house_index, EvalTable, Weights, BOARD_TERMS, ENDGAME_SEEDS, HOUSE_TERMS,
    SIZE_TERMS, TERMS,
};
pub use hash::key as position_key;
pub use interface::{Analysis, MoveScore, Probe, SearchControl, SearchResult};
pub use player::{choose_move, Oversight, Strength, HUMAN_LEVELS, LEVELS};
pub use probe_set::{ProbeSet, ProbeSetError};
pub use search::{plies_to_end, INFINITY, MAX_PLY, PROOF_PREMIUM, WIN, WIN_THRESHOLD};
pub use time::{Clock, Limits, DEFAULT_MOVE_OVERHEAD};
pub use tt::{Bound, Entry, Table};

/// A score as players read it: seeds with one decimal (`+1.5`), or `win in N` / `loss in N` plies.
pub fn describe_score(score: i32) -> String {
    match plies_to_end(score) {
        Some(p) if p > 0 => format!("win in {p}"),
        Some(p) => format!("loss in {}", -p),
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}
