//! Conversions shared by the bindings: rule sets, moves and positions from Python values, the
//! observation layout of the environments and the batched API, and errors as Python exceptions.

use std::fmt::Display;

use oware_rules::{end_without_history, GameEnd, Move, MoveSet, Position, RuleSet, Side, HOUSES};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Values in an observation: the 12 houses (South's `A`–`F`, then North's `a`–`f`), South's and
/// North's stores, and the side to move (0 South, 1 North).
pub const OBSERVATION_SIZE: usize = HOUSES + 3;

/// One observation.
pub type Observation = [i8; OBSERVATION_SIZE];

/// A `ValueError` carrying `error`'s message.
pub fn value_error(error: impl Display) -> PyErr {
    PyValueError::new_err(error.to_string())
}

/// The rule set named `name` (`abapa` or `awari`).
pub fn rules_of(name: &str) -> PyResult<RuleSet> {
    name.parse().map_err(value_error)
}

/// The side's name in Python: `"south"` or `"north"`.
pub fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

/// The letters of a move set, in house order.
pub fn letters(moves: MoveSet) -> Vec<String> {
    moves.map(|m| m.letter().to_string()).collect()
}

/// The letters of a list of moves.
pub fn move_list(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.letter().to_string()).collect()
}

/// A move given as a letter (`"F"`, `"f"`) or as a column of the mover's row (0..6, as the
/// environments' actions and OpenSpiel's), for a position where `mover` is to move.
pub fn move_of(value: &Bound<'_, PyAny>, mover: Side) -> PyResult<Move> {
    if value.is_instance_of::<PyString>() {
        let text: String = value.extract()?;
        return text.parse::<Move>().map_err(value_error);
    }
    let column: i64 = value.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "a move is a letter (A-F, a-f) or a column 0-5 of the mover's row, not {}",
            value
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string())
        ))
    })?;
    usize::try_from(column)
        .ok()
        .and_then(|c| Move::for_side(mover, c))
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "a move's column is 0 to 5 (the mover's own houses), not {column}"
            ))
        })
}

/// A position as an observation.
pub fn observation(position: &Position) -> Observation {
    let mut out = [0i8; OBSERVATION_SIZE];
    for (o, &h) in out.iter_mut().zip(position.houses()) {
        *o = h as i8;
    }
    out[HOUSES] = position.store(Side::South) as i8;
    out[HOUSES + 1] = position.store(Side::North) as i8;
    out[HOUSES + 2] = position.side_to_move().index() as i8;
    out
}

/// What is wrong with an observation row, if anything, as a message.
pub fn position_of_observation(row: &[i8]) -> Result<Position, String> {
    if row.len() != OBSERVATION_SIZE {
        return Err(format!(
            "a position has {OBSERVATION_SIZE} values (12 houses, 2 stores, side to move), found {}",
            row.len()
        ));
    }
    if let Some((i, v)) = row[..HOUSES + 2].iter().enumerate().find(|(_, &v)| v < 0) {
        return Err(format!("value {i} is negative ({v})"));
    }
    let side = match row[HOUSES + 2] {
        0 => Side::South,
        1 => Side::North,
        other => {
            return Err(format!(
                "the side to move is 0 (South) or 1 (North), not {other}"
            ))
        }
    };
    let mut houses = [0u8; HOUSES];
    for (h, &v) in houses.iter_mut().zip(row) {
        *h = v as u8;
    }
    Position::new(houses, [row[HOUSES] as u8, row[HOUSES + 1] as u8], side)
        .map_err(|e| e.to_string())
}

/// The legal moves of `position`'s mover as six flags, one per column of their row.
pub fn mask(moves: MoveSet) -> [bool; 6] {
    let mut out = [false; 6];
    for mv in moves {
        out[mv.column()] = true;
    }
    out
}

/// The final seed difference for `side` at the end of a game (half seeds under awari's even
/// split of a repetition).
pub fn reward(end: &GameEnd, side: Side) -> f32 {
    (f32::from(end.score.halves(side)) - f32::from(end.score.halves(side.opponent()))) / 2.0
}

/// The final seed difference for `side`, when the game ends in `position` without history.
pub fn history_free_reward(position: &Position, rules: RuleSet, side: Side) -> Option<f32> {
    end_without_history(position, rules).map(|end| reward(&end, side))
}
