//! A differential test of `oware-rules` against an independent implementation of abapa: OpenSpiel's
//! `oware` game (DeepMind's open-source game framework, in C++).
//!
//! `tests/oracle/openspiel_traces.py` plays random games in OpenSpiel and writes, ply by ply, what
//! OpenSpiel shows (board, stores, player to move, legal actions, the end and the returns);
//! [`trace`] reads those files and [`check`] replays each game with [`oware_rules::Game`] and reports
//! the first disagreement precisely. The integration test `tests/openspiel.rs` runs it over a
//! committed sample, or over the file named by `OWARE_OPENSPIEL_TRACES` (what
//! `scripts/test.d/openspiel.sh` generates: thousands of games).
//!
//! The two implementations differ in presentation only, and the checker normalises that:
//! - OpenSpiel gathers the seeds left on the board into the stores at *every* end, including a
//!   capture above 24, where our abapa scores the stores alone (see [`check::openspiel_final_stores`]);
//! - OpenSpiel does not say why a game ended, so our reason is checked against what its states imply;
//! - OpenSpiel stops any game at 1000 plies (a framework cap, not a rule): such a game is compared
//!   that far.

#![warn(missing_docs)]

pub mod check;
pub mod trace;

pub use check::{check_game, Coverage, Mismatch, MismatchKind};
pub use trace::{parse_traces, GameTrace, OsState, ToMove, TraceError, TraceHeader, Traces};
