//! What a game is, independent of where it lives: how it was set up, the seats a token gives, and
//! the view every client is sent. The storage, the rooms and the protocol all speak these types,
//! so none of them depends on another for them.

use serde::Serialize;

use oware_rules::{Position, RuleSet, Side};

use crate::clock::ClockView;

/// Who plays the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameMode {
    /// One person against the engine, which plays `side` at `level`.
    Computer { side: Side, level: u8 },
    /// Two people, each with their own token.
    Friend,
}

/// How a game was set up; fixed for its whole life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSetup {
    pub mode: GameMode,
    pub rules: RuleSet,
    pub start: Position,
    /// Time per side in milliseconds, in games played with clocks (friend games only).
    pub clock_ms: Option<u64>,
}

/// The seat a token gives in a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Player(Side),
    Watcher,
}

/// `S` or `N`, as the API and the protocol write a side.
pub(crate) fn side_letter(side: Side) -> char {
    side.letter()
}

/// What every client is told after each change: the whole game, so a client that missed
/// something is never out of step.
#[derive(Debug, Clone, Serialize)]
pub struct GameView {
    pub id: String,
    pub mode: &'static str,
    pub rules: &'static str,
    pub start: String,
    pub moves: String,
    pub captures: Vec<u8>,
    pub position: String,
    pub to_move: char,
    pub legal: String,
    /// `S` or `N` for the computer's side, in games against it.
    pub computer: Option<char>,
    pub level: Option<u8>,
    /// Which sides have a player (the computer counts).
    pub seated: [bool; 2],
    pub end: Option<EndView>,
    /// Set while the computer is thinking about its move.
    pub thinking: bool,
    /// The clocks, in games played with them.
    pub clock: Option<ClockView>,
}

/// How a finished game ended.
#[derive(Debug, Clone, Serialize)]
pub struct EndView {
    /// The rules' reason (`capture`, `repetition`, …), or `time` when a flag fell.
    pub reason: &'static str,
    /// `25-23`, South first.
    pub score: String,
    /// `S`, `N`, or `null` for a draw.
    pub winner: Option<char>,
}
