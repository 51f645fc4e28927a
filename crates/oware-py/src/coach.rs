//! `oware.coach.explain` and `oware.coach.Explanation`.

use oware_coach::explain::render_score;
use oware_coach::{explain, explain_all, Analyst, Lang};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyAny;

use crate::convert::{move_list, move_of, value_error};
use crate::engine::game_of;

/// The coach's word on one move: ``text`` (one or two sentences: what the move does, then the
/// engine's verdict), ``facts`` (the first sentence alone), and the verdict's figures: ``score``
/// and ``best_score`` (centiseeds for the mover), ``best_move``, ``loss`` (centiseeds given away
/// against the best move, 0 for the best), ``line`` (the expected line, the move first, letters)
/// and ``score_text``.
#[pyclass(frozen, get_all, name = "Explanation", module = "oware.coach")]
pub struct PyExplanation {
    r#move: String,
    text: String,
    facts: String,
    score: Option<i32>,
    score_text: Option<String>,
    best_move: Option<String>,
    best_score: Option<i32>,
    loss: Option<i32>,
    line: Vec<String>,
}

#[pymethods]
impl PyExplanation {
    fn __str__(&self) -> String {
        self.text.clone()
    }

    fn __repr__(&self) -> String {
        format!("Explanation(move='{}', text={:?})", self.r#move, self.text)
    }
}

/// The coach's explanations of the legal moves of ``target`` (a ``Game``, a ``Position`` or a
/// position string), best first, in ``lang`` (``ca``, ``es``, ``en`` or ``fr``), from an analysis
/// of every move to ``depth`` plies; only ``move``'s when it is given. Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (target, lang = "en", r#move = None, depth = oware_coach::DEPTH))]
pub fn coach_explain(
    py: Python<'_>,
    target: &Bound<'_, PyAny>,
    lang: &str,
    r#move: Option<&Bound<'_, PyAny>>,
    depth: u32,
) -> PyResult<Vec<PyExplanation>> {
    let lang: Lang = lang.parse().map_err(value_error)?;
    let game = game_of(target)?;
    let only = r#move
        .map(|m| move_of(m, game.position().side_to_move()))
        .transpose()?;
    if let Some(mv) = only {
        game.check_move(mv).map_err(value_error)?;
    }
    let explanations = py.detach(|| {
        let mut analyst = Analyst::new(depth);
        match only {
            None => explain_all(&game, &analyst.analysis(&game)),
            Some(mv) => explain(&game, mv, &analyst.values(&game))
                .into_iter()
                .collect(),
        }
    });
    if explanations.is_empty() && only.is_some() {
        return Err(PyValueError::new_err(
            "the coach has nothing to say on that move",
        ));
    }
    Ok(explanations
        .into_iter()
        .map(|e| {
            let verdict = e.verdict.as_ref();
            PyExplanation {
                r#move: e.mv.letter().to_string(),
                text: e.render(lang),
                facts: e.render_facts(lang),
                score: verdict.map(|v| v.score),
                score_text: verdict.map(|v| render_score(v.score, v.by_database, e.mover, lang)),
                best_move: verdict.map(|v| v.best.letter().to_string()),
                best_score: verdict.map(|v| v.best_score),
                loss: verdict.map(|v| v.loss),
                line: verdict.map_or_else(Vec::new, |v| move_list(&v.line)),
            }
        })
        .collect())
}
