//! A coach for oware: it finds the ideas the strategy texts teach in a position and says why a move
//! is good or bad, in Catalan, Spanish, English or French.
//!
//! - [`detect`]: the detectors, each a pure function of a position: captures and threats, houses of
//!   one or two seeds the opponent reaches, double attacks, the kroo and the moves that overload it,
//!   the feeding rules, tempo, weak neighbouring houses (a "bomb"), repetitions ahead.
//! - [`explain`](mod@explain): the facts about a move and the engine's verdict, in one or two
//!   sentences.
//! - [`review`](mod@review): a game reviewed: every move's loss, the evaluation over the game,
//!   accuracy, and the mistakes over a threshold of seeds, with why and the better move.
//! - [`oversight`]: the weak levels' human mistakes ([`HumanMistakes`]: a double attack, a threat on
//!   a house of one or two seeds, the opponent's kroo overlooked), for the engine's player.
//! - [`lesson`]: the lessons of the seeds' strategy, step by step.
//! - [`puzzle`]: the puzzle set, each puzzle with its theme, and the classifier that tags them.
//! - [`messages`]: the words, from the catalogue the web app shares (`web/coach-messages.json`).
//! - [`engine`]: the one module that asks the engine: the one analysis of a position (every move's
//!   score and line at one fixed depth) that every view of the position shows.
//!
//! ```
//! use oware_coach::{explain, Lang};
//! use oware_rules::{Game, Position, RuleSet};
//! let pos: Position = "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S".parse().unwrap();
//! let game = Game::from_position(pos, RuleSet::Abapa);
//! let why = explain(&game, "F".parse().unwrap(), &[]).unwrap();
//! assert_eq!(why.render(Lang::En), "F sows 3 seeds and takes b and c: 5 seeds.");
//! ```

#![warn(missing_docs)]

pub mod detect;
pub mod engine;
pub mod explain;
pub mod lesson;
pub mod messages;
pub mod oversight;
pub mod puzzle;
pub mod review;

pub use engine::{analyse, Analyst, PositionAnalysis, ScoredMove, DEPTH, HASH_MB};
pub use explain::{explain, explain_all, Explanation, Fact, Judgement};
pub use messages::Lang;
pub use oversight::HumanMistakes;
pub use review::{review, Mark, Mistake, Review};
