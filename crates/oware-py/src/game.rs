//! `oware.Game` and `oware.GameEnd`.

use oware_rules::ogn::{Record, ROSTER};
use oware_rules::{Game, GameEnd, GameText, Position, RuleSet, Side};
use pyo3::prelude::*;
use pyo3::types::PyAny;

use crate::convert::{letters, move_list, move_of, rules_of, side_name, value_error};
use crate::position::PyPosition;

/// How a game ended: ``reason`` (``"capture"``, ``"draw"``, ``"no-moves"`` or ``"repetition"``),
/// the final ``score`` ``(south, north)`` in seeds (halves under awari's even split of a
/// repetition), and the ``winner`` (``"south"``, ``"north"``, or ``None`` for a draw).
#[pyclass(frozen, get_all, name = "GameEnd", module = "oware")]
pub struct PyGameEnd {
    reason: &'static str,
    score: (f64, f64),
    winner: Option<&'static str>,
}

impl From<GameEnd> for PyGameEnd {
    fn from(end: GameEnd) -> PyGameEnd {
        PyGameEnd {
            reason: end.reason.word(),
            score: (end.score.of(Side::South), end.score.of(Side::North)),
            winner: end.score.winner().map(side_name),
        }
    }
}

#[pymethods]
impl PyGameEnd {
    fn __repr__(&self) -> String {
        format!(
            "GameEnd(reason='{}', score={:?}, winner={})",
            self.reason,
            self.score,
            self.winner.map_or("None".to_string(), |w| format!("'{w}'"))
        )
    }
}

/// A game: a start position and the moves played, with the history that decides repetitions.
///
/// ``Game(rules="abapa", start=None)`` starts from the usual start or from ``start`` (a
/// ``Position`` or a position string). ``Game.from_record(text)`` reads a game the way the ``oware``
/// command does (an OGN record, a position string and moves, a move list such as ``FfEa``); ``str``
/// gives the game as an OGN record (the tags and comments read are kept).
#[pyclass(name = "Game", module = "oware")]
#[derive(Clone)]
pub struct PyGame {
    pub game: Game,
    /// Tags read from a record, written back by `__str__` (those the writer does not own).
    tags: Vec<(String, String)>,
    /// Comments read from a record, each with the number of moves before it.
    comments: Vec<(usize, String)>,
}

impl PyGame {
    pub fn from_game(game: Game) -> PyGame {
        PyGame {
            game,
            tags: Vec::new(),
            comments: Vec::new(),
        }
    }
}

/// A start position given as a `Position` (whose rules are then the game's unless `rules` names
/// others) or a position string.
fn start_of(value: &Bound<'_, PyAny>) -> PyResult<(Position, Option<RuleSet>)> {
    if let Ok(p) = value.extract::<PyRef<'_, PyPosition>>() {
        return Ok((p.position, Some(p.rules)));
    }
    let text: String = value.extract()?;
    Ok((text.parse().map_err(value_error)?, None))
}

#[pymethods]
impl PyGame {
    #[new]
    #[pyo3(signature = (rules = None, start = None))]
    fn new(rules: Option<&str>, start: Option<&Bound<'_, PyAny>>) -> PyResult<PyGame> {
        let rules = rules.map(rules_of).transpose()?;
        let (start, start_rules) = match start {
            Some(s) => start_of(s)?,
            None => (Position::start(), None),
        };
        let rules = rules.or(start_rules).unwrap_or_default();
        Ok(PyGame::from_game(Game::from_position(start, rules)))
    }

    /// Reads a game as the ``oware`` command does: an OGN record (its ``Variant`` tag names the
    /// rules), a position string followed by moves, or a move list (``FfEa``) from the start.
    /// ``rules`` applies when the text names none. A malformed text or an illegal move raises
    /// ``ValueError`` naming the line and the ply.
    #[staticmethod]
    #[pyo3(signature = (text, rules = "abapa"))]
    fn from_record(text: &str, rules: &str) -> PyResult<PyGame> {
        let rules = rules_of(rules)?;
        let parsed = GameText::parse(text).map_err(value_error)?;
        let game = parsed.game(rules).map_err(value_error)?;
        Ok(PyGame {
            game,
            tags: parsed.tags,
            comments: parsed.comments,
        })
    }

    /// The rule set: ``"abapa"`` or ``"awari"``.
    #[getter]
    fn rules(&self) -> &'static str {
        self.game.rules().name()
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition::new_from(*self.game.position(), self.game.rules())
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition::new_from(*self.game.start(), self.game.rules())
    }

    /// Every position of the game, the start first.
    #[getter]
    fn positions(&self) -> Vec<PyPosition> {
        let rules = self.game.rules();
        self.game
            .positions()
            .iter()
            .map(|&p| PyPosition::new_from(p, rules))
            .collect()
    }

    /// The moves played, as letters.
    #[getter]
    fn moves(&self) -> Vec<String> {
        move_list(self.game.moves())
    }

    /// Seeds each move captured.
    #[getter]
    fn captures(&self) -> Vec<u32> {
        // Numbers, not `bytes` (PyO3's conversion of a `Vec<u8>`).
        self.game.captures().iter().map(|&c| u32::from(c)).collect()
    }

    /// How the game ended, or ``None`` while it goes on.
    #[getter]
    fn end(&self) -> Option<PyGameEnd> {
        self.game.end().map(PyGameEnd::from)
    }

    /// The legal moves (none once the game is over), as letters.
    fn legal_moves(&self) -> Vec<String> {
        letters(self.game.legal_moves())
    }

    /// Whether the game is over (repetitions included).
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// Plays ``move`` (a letter, or a column 0-5 of the mover's row) and returns the seeds it
    /// captured. An illegal move, or a move after the end, raises ``ValueError`` with the reason.
    #[pyo3(signature = (r#move))]
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<u8> {
        let mv = move_of(r#move, self.game.position().side_to_move())?;
        let outcome = self.game.play(mv).map_err(value_error)?;
        Ok(outcome.captured)
    }

    /// Takes back the last move and returns it, or ``None`` at the start.
    fn undo(&mut self) -> Option<String> {
        let mv = self.game.undo()?;
        self.comments.retain(|(at, _)| *at <= self.game.ply_count());
        Some(mv.letter().to_string())
    }

    /// A copy of the game.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    /// A game holds no Python objects, so a deep copy is a copy (`copy.deepcopy`: OpenSpiel
    /// clones the states of Python games that way).
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __len__(&self) -> usize {
        self.game.ply_count()
    }

    /// The game as an OGN record.
    fn __str__(&self) -> String {
        let mut record = Record::from_game(&self.game);
        for (name, value) in &self.tags {
            let owned = ["Variant", "FEN", "Result"]
                .iter()
                .any(|t| t.eq_ignore_ascii_case(name));
            if !owned {
                let name = ROSTER
                    .iter()
                    .find(|r| r.eq_ignore_ascii_case(name))
                    .map_or(name.as_str(), |r| r);
                record.set_tag(name, value.clone());
            }
        }
        record.comments = self
            .comments
            .iter()
            .filter(|(at, _)| *at <= self.game.ply_count())
            .cloned()
            .collect();
        record.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(rules='{}', start='{}', moves='{}')",
            self.game.rules().name(),
            self.game.start(),
            self.moves().concat()
        )
    }
}
