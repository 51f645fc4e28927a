//! Exact rules of oware in two rule sets, *abapa* (international rules, the default) and *awari*
//! (the research rules under which the game was solved), with the notations players and programs use.
//!
//! - [`Position`]: twelve houses, two stores, side to move; parse and print the position string
//!   `h0-…-h11-south-north-T`; legal moves and playing a move.
//! - [`PackedPosition`]: the same position in one 128-bit word, for search and database builds.
//! - [`Game`]: a start position and the moves played, with the history needed to decide repetitions,
//!   undo, and the end of the game with its reason and score.
//! - [`GameText`]: a game written as text in any common form (an OGN record, a position, a move
//!   list, the engine protocol's `startpos moves FfEa`), read with line numbers in its errors.
//! - [`ogn`]: game records in the PGN-like OGN format, read strictly and written canonically.
//! - [`perft`]: move-path enumeration, the standard check of a move generator.
//! - [`GameLine`]: a game on one line of a suite file, `<position> moves <letters>`.
//!
//! ```
//! use oware_rules::{Game, Move, RuleSet, EndReason};
//! let mut game = Game::new(RuleSet::Abapa);
//! let outcome = game.play(Move::from_letter('F').unwrap()).unwrap();
//! assert_eq!(outcome.captured, 0);
//! assert_eq!(game.position().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
//! assert_eq!(game.legal_moves().to_string(), "abcdef");
//! ```

#![warn(missing_docs)]

pub mod diagram;
mod game;
pub mod ogn;
mod packed;
pub mod perft;
mod position;
pub mod random;
mod suite;
mod text;
mod types;

pub use game::{
    end_without_history, repetition_end, EndReason, Ending, Game, GameEnd, PlayError, PlyOutcome,
    ReplayError, Score,
};
pub use packed::PackedPosition;
pub use position::{
    last_sown, sowing, sowing_change, IllegalMove, IllegalMoveReason, Played, Position,
    PositionError,
};
pub use suite::{GameLine, GameLineError};
pub use text::{GameText, GameTextError, GameTextErrorKind};
pub use types::{
    format_move_letters, parse_move_letters, quoted, InvalidMoveLetter, Move, MoveSet, Quoted,
    RuleSet, Side, UnknownRuleSet, UnknownSide, HALF_SEEDS, HOUSES, QUOTED_CHARS, TOTAL_SEEDS,
};
