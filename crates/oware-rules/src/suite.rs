//! Suite files: games written one to a line, `<position> moves <letters>`, such as the master games
//! the tests and `oware bench --suite` read.

use std::fmt;
use std::str::FromStr;

use crate::{
    format_move_letters, parse_move_letters, InvalidMoveLetter, Move, Position, PositionError,
};

/// One line of a suite file: a start position and the moves played from it, written as
/// `<position> moves <letters>` (the letters concatenated, as the engine protocol writes them).
/// The moves are not checked against the position: play them through a [`crate::Game`] for that.
///
/// ```
/// use oware_rules::{GameLine, Position};
/// let line: GameLine = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FfBe".parse()?;
/// assert_eq!(line.start, Position::start());
/// assert_eq!(line.moves.len(), 4);
/// assert_eq!(line.to_string(), "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FfBe");
/// # Ok::<(), oware_rules::GameLineError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLine {
    /// The position the moves start from.
    pub start: Position,
    /// The moves, in order, unchecked.
    pub moves: Vec<Move>,
}

/// What is wrong with a suite line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameLineError {
    /// The line has no ` moves ` between the position and the letters.
    NoMoves,
    /// The position before ` moves ` is not a position string.
    Position(PositionError),
    /// The text after ` moves ` is not move letters.
    Moves(InvalidMoveLetter),
}

impl fmt::Display for GameLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameLineError::NoMoves => write!(f, "expected `<position> moves <letters>`"),
            GameLineError::Position(e) => write!(f, "bad position: {e}"),
            GameLineError::Moves(e) => write!(f, "bad moves: {e}"),
        }
    }
}

impl std::error::Error for GameLineError {}

impl FromStr for GameLine {
    type Err = GameLineError;

    /// Parses a line; whitespace around the position and the letters is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (position, letters) = s.split_once(" moves ").ok_or(GameLineError::NoMoves)?;
        Ok(GameLine {
            start: position.trim().parse().map_err(GameLineError::Position)?,
            moves: parse_move_letters(letters.trim()).map_err(GameLineError::Moves)?,
        })
    }
}

impl fmt::Display for GameLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} moves {}",
            self.start,
            format_move_letters(&self.moves)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let err = |s: &str| s.parse::<GameLine>().unwrap_err();
        assert_eq!(
            err("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S FfBe"),
            GameLineError::NoMoves
        );
        assert!(matches!(err("4-4-4 moves Ff"), GameLineError::Position(_)));
        assert!(matches!(
            err("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FfXx"),
            GameLineError::Moves(_)
        ));
    }

    #[test]
    fn the_master_games_read_and_write_back() {
        for text in include_str!("../tests/data/master_games.suite")
            .lines()
            .filter(|l| !l.trim().is_empty())
        {
            let line: GameLine = text.parse().unwrap();
            assert_eq!(line.to_string(), text.trim());
        }
    }
}
