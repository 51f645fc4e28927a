//! The lessons for the web app's Learn page: `GET /api/lessons?lang=..` gives every lesson with its
//! steps, each with its text and the coach's answer to every legal move in the language asked for,
//! so that the page needs no further request while the learner works through them.

use std::sync::OnceLock;

use axum::extract::rejection::QueryRejection;
use axum::extract::Query;
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use oware_coach::lesson::{self, Lesson};
use oware_coach::Lang;

use super::parse_lang;
use crate::api_error::ApiError;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct LessonQuery {
    /// `ca`, `es`, `en` or `fr` (English when absent).
    #[serde(default)]
    lang: Option<String>,
}

/// One lesson as the page reads it.
fn lesson_json(lesson: &Lesson, lang: Lang) -> Value {
    let steps: Vec<Value> = lesson
        .steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let answers: serde_json::Map<String, Value> = step
                .game()
                .legal_moves()
                .map(|mv| {
                    let feedback = step.answer(mv, lang);
                    let mut answer =
                        json!({ "right": feedback.is_right(), "text": feedback.text() });
                    if feedback.is_right() {
                        // The position after it, for the page to sow the move on the board.
                        answer["after"] = json!(step
                            .position
                            .play_unchecked(mv, step.rules)
                            .position
                            .to_string());
                    }
                    (mv.to_string(), answer)
                })
                .collect();
            json!({
                "position": step.position.to_string(),
                "text": lesson.text(i, lang),
                "moves": step.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                "answers": answers,
            })
        })
        .collect();
    json!({
        "id": lesson.id,
        "theme": lesson.theme.code(),
        "title": lesson.title(lang),
        "rules": lesson.rules.to_string(),
        "steps": steps,
    })
}

/// Every lesson in one language, made once: the lessons are fixed and the coach's words are pure.
fn every_lesson(lang: Lang) -> &'static Value {
    static MADE: [OnceLock<Value>; 4] = [const { OnceLock::new() }; 4];
    let slot = Lang::ALL.iter().position(|&l| l == lang).unwrap_or(0);
    MADE[slot].get_or_init(|| {
        let lessons: Vec<Value> = lesson::all().iter().map(|l| lesson_json(l, lang)).collect();
        json!({ "lessons": lessons })
    })
}

/// The lessons, in the language asked for.
pub(super) async fn lessons(
    query: Result<Query<LessonQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request("bad-request", e.body_text()))?;
    Ok(Json(
        every_lesson(parse_lang(query.lang.as_deref())?).clone(),
    ))
}
