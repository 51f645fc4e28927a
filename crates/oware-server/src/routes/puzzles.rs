//! The puzzle set for the web app's puzzle page: `GET /api/puzzles?theme=..&lang=..` gives every
//! puzzle (of one theme when asked), each with its hint and the coach's answer to every legal move in
//! the language asked for, so that the page needs no further request while solving.

use std::sync::OnceLock;

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use oware_coach::puzzle::{self, Puzzle, Theme};
use oware_coach::Lang;

use super::parse_lang;
use crate::api_error::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PuzzleQuery {
    /// A theme's code (every puzzle when absent).
    #[serde(default)]
    theme: Option<String>,
    /// `ca`, `es`, `en` or `fr` (English when absent).
    #[serde(default)]
    lang: Option<String>,
}

/// One puzzle as the page reads it.
fn puzzle_json(p: &Puzzle, lang: Lang) -> Value {
    let answers: serde_json::Map<String, Value> = p
        .game()
        .legal_moves()
        .map(|mv| {
            let feedback = p.answer(mv, lang);
            (
                mv.to_string(),
                json!({ "right": feedback.is_right(), "text": feedback.text() }),
            )
        })
        .collect();
    json!({
        "id": p.id,
        "position": p.position.to_string(),
        "rules": p.rules.to_string(),
        "goal": p.goal.code(),
        "theme": p.theme.code(),
        "themeName": p.theme.name(lang),
        "hint": p.theme.hint(lang),
        "source": p.source,
        "verified": p.verified,
        "solution": p.solution.to_string(),
        "after": p.position.play_unchecked(p.solution, p.rules).position.to_string(),
        "answers": answers,
        "reveal": p.reveal(lang),
    })
}

/// Every puzzle in one language, made once: the set is fixed and the coach's words are pure.
fn every_puzzle(lang: Lang) -> &'static [Value] {
    static MADE: [OnceLock<Vec<Value>>; 4] = [const { OnceLock::new() }; 4];
    let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
    MADE[slot].get_or_init(|| puzzle::all().iter().map(|p| puzzle_json(p, lang)).collect())
}

/// The puzzles (of one theme when `theme` is given) and every theme with its name and count.
pub(super) async fn puzzles(
    query: Result<Query<PuzzleQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request("bad-request", e.body_text()))?;
    let lang = parse_lang(query.lang.as_deref())?;
    let theme: Option<Theme> = match query.theme.as_deref() {
        None | Some("") => None,
        Some(code) => Some(
            code.parse()
                .map_err(|e| ApiError::bad_request("bad-theme", format!("{e}")))?,
        ),
    };
    let themes: Vec<Value> = Theme::ALL
        .iter()
        .map(|&t| {
            json!({
                "theme": t.code(),
                "name": t.name(lang),
                "count": puzzle::with_theme(t).count(),
            })
        })
        .collect();
    let puzzles: Vec<&Value> = every_puzzle(lang)
        .iter()
        .zip(puzzle::all())
        .filter(|(_, p)| theme.is_none_or(|t| p.theme == t))
        .map(|(v, _)| v)
        .collect();
    Ok(Json(json!({ "themes": themes, "puzzles": puzzles })))
}
