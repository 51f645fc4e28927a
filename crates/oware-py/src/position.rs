//! `oware.Position` and `oware.perft`.

use numpy::PyArray1;
use oware_rules::{end_without_history, Position, RuleSet, Side};
use pyo3::prelude::*;
use pyo3::types::PyAny;

use crate::convert::{
    letters, move_of, observation, position_of_observation, rules_of, side_name, value_error,
};

/// A position under a rule set: twelve houses, two stores, the side to move.
///
/// ``Position(text, rules="abapa")`` reads the project's position string
/// ``h0-h1-...-h11-southStore-northStore-T`` (``T`` is ``S`` or ``N``); a malformed string raises
/// ``ValueError`` with the reason. Positions are immutable and hashable: ``play`` returns a new one.
/// A position knows no history, so it cannot see a repetition: use ``Game`` for whole games.
#[pyclass(frozen, eq, hash, name = "Position", module = "oware")]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct PyPosition {
    pub position: Position,
    pub rules: RuleSet,
}

impl PyPosition {
    pub fn new_from(position: Position, rules: RuleSet) -> PyPosition {
        PyPosition { position, rules }
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (text, rules = "abapa"))]
    fn new(text: &str, rules: &str) -> PyResult<PyPosition> {
        Ok(PyPosition {
            position: text.parse().map_err(value_error)?,
            rules: rules_of(rules)?,
        })
    }

    /// The starting position (four seeds in every house, South to move) under ``rules``.
    #[staticmethod]
    #[pyo3(signature = (rules = "abapa"))]
    fn initial(rules: &str) -> PyResult<PyPosition> {
        Ok(PyPosition {
            position: Position::start(),
            rules: rules_of(rules)?,
        })
    }

    /// The position an observation array describes: 12 houses, 2 stores, side to move (0 South,
    /// 1 North), as ``to_array`` and the environments give them.
    #[staticmethod]
    #[pyo3(signature = (values, rules = "abapa"))]
    fn from_array(values: Vec<i64>, rules: &str) -> PyResult<PyPosition> {
        let row: Vec<i8> = values
            .iter()
            .map(|&v| i8::try_from(v).unwrap_or(-1))
            .collect();
        Ok(PyPosition {
            position: position_of_observation(&row).map_err(value_error)?,
            rules: rules_of(rules)?,
        })
    }

    /// The rule set: ``"abapa"`` or ``"awari"``.
    #[getter]
    fn rules(&self) -> &'static str {
        self.rules.name()
    }

    /// Seeds in each house: South's ``A``-``F`` (0-5), then North's ``a``-``f`` (6-11).
    #[getter]
    fn houses(&self) -> Vec<u32> {
        // Numbers, not `bytes` (PyO3's conversion of a `Vec<u8>`).
        self.position
            .houses()
            .iter()
            .map(|&h| u32::from(h))
            .collect()
    }

    /// Seeds in the stores, ``(south, north)``.
    #[getter]
    fn stores(&self) -> (u8, u8) {
        (
            self.position.store(Side::South),
            self.position.store(Side::North),
        )
    }

    /// The side to move: ``"south"`` or ``"north"``.
    #[getter(to_move)]
    fn side_to_move(&self) -> &'static str {
        side_name(self.position.side_to_move())
    }

    /// Seeds on the board (not in the stores).
    #[getter]
    fn board_seeds(&self) -> u8 {
        self.position.board_seeds()
    }

    /// The legal moves, as letters in house order (``["A", ..., "F"]`` at the start).
    fn legal_moves(&self) -> Vec<String> {
        letters(self.position.legal_moves(self.rules))
    }

    /// The position after ``move`` (a letter, or a column 0-5 of the mover's row). An illegal move
    /// raises ``ValueError`` with the rules' reason.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
        let mv = move_of(r#move, self.position.side_to_move())?;
        let played = self.position.play(mv, self.rules).map_err(value_error)?;
        Ok(PyPosition::new_from(played.position, self.rules))
    }

    /// Whether the game is over here: a store above 24, both at 24, or no legal move. A repetition
    /// needs the game's history: see ``Game.is_over``.
    fn is_terminal(&self) -> bool {
        end_without_history(&self.position, self.rules).is_some()
    }

    /// The final score ``(south, north)`` in seeds when the game is over here (judged without
    /// history, as ``is_terminal``), else ``None``.
    fn final_score(&self) -> Option<(f64, f64)> {
        end_without_history(&self.position, self.rules)
            .map(|end| (end.score.of(Side::South), end.score.of(Side::North)))
    }

    /// The observation array: 12 houses, South's and North's stores, side to move (0 South,
    /// 1 North), as ``int8``.
    #[pyo3(name = "to_array")]
    fn as_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        PyArray1::from_slice(py, &observation(&self.position))
    }

    /// A board diagram, as the ``oware show`` command draws it: North on top, the stores beside
    /// their rows, an arrow at the side to move.
    fn diagram(&self) -> String {
        let text = oware_rules::diagram::diagram(&self.position);
        text.trim_end_matches('\n').to_string()
    }

    fn __str__(&self) -> String {
        self.position.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Position('{}', rules='{}')",
            self.position,
            self.rules.name()
        )
    }
}

/// The number of move paths of ``depth`` plies from ``position`` (the standard check of a move
/// generator), under the position's rules. Runs without the GIL.
#[pyfunction]
pub fn perft(py: Python<'_>, position: PyRef<'_, PyPosition>, depth: u32) -> u64 {
    let (pos, rules) = (position.position, position.rules);
    py.detach(move || oware_rules::perft::perft(&pos, rules, depth))
}
