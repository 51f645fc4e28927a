//! The analysis board's API: read a record or position, evaluate a position with the engine.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use oware_rules::Game;

use super::{parse_body, parse_position, parse_rules};
use crate::analysis::Evaluation;
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::model::side_letter;
use crate::record;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    text: String,
    #[serde(default)]
    rules: Option<String>,
}

/// Reads a record or position for the analysis board and replays it: every position, capture and
/// the end if the record reaches it. An illegal move stops the replay with an error that says
/// where.
pub(super) async fn analyse(body: Bytes) -> Result<Json<serde_json::Value>, ApiError> {
    let req: AnalyseRequest = parse_body(&body)?;
    let rules = parse_rules(req.rules.as_deref())?;
    let rec = record::read_record(&req.text, rules)
        .map_err(|e| ApiError::bad_request("bad-record", e.0))?;
    let mut game = Game::from_position(rec.start, rec.rules);
    let mut error = None;
    for (ply, &mv) in rec.moves.iter().enumerate() {
        if let Err(e) = game.play(mv) {
            error = Some(format!(
                "{}: {e}",
                oware_rules::describe_ply(rec.start.side_to_move(), ply, mv)
            ));
            break;
        }
    }
    Ok(Json(json!({
        "rules": rec.rules.name(),
        "start": rec.start.to_string(),
        "moves": oware_rules::format_move_letters(game.moves()),
        "captures": game.captures(),
        "positions": game.positions().iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "end": game.end().map(|e| json!({"reason": e.reason.word(), "score": e.score.to_string(),
            "winner": e.score.winner().map(side_letter)})),
        "error": error,
    })))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EvaluateRequest {
    /// The position, or the start of the game when `moves` follow.
    position: String,
    /// Moves played from `position` (letters): the engine then sees the history, so repetitions
    /// count.
    #[serde(default)]
    moves: Option<String>,
    #[serde(default)]
    rules: Option<String>,
}

/// How long an analysis request waits for a free engine before the answer is "busy".
const ANALYSIS_PATIENCE: Duration = Duration::from_secs(3);

/// The engine's value and best line for every legal move of a position (or of the position
/// reached by a game), within the server's analysis time.
pub(super) async fn evaluate(
    State(state): State<Shared>,
    body: Bytes,
) -> Result<Json<Evaluation>, ApiError> {
    let req: EvaluateRequest = parse_body(&body)?;
    let rules = parse_rules(req.rules.as_deref())?;
    let pos = parse_position(&req.position)?;
    let moves = oware_rules::parse_move_letters(req.moves.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::bad_request("bad-move", format!("bad moves: {e}")))?;
    let game = Game::replay(pos, rules, &moves).map_err(|(ply, e)| {
        ApiError::bad_request(
            "illegal-move",
            oware_rules::describe_ply(pos.side_to_move(), ply, moves[ply]) + &format!(": {e}"),
        )
    })?;
    let permit = state
        .engines
        .acquire_within(ANALYSIS_PATIENCE)
        .await
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", e.to_string()))?;
    let budget = state.config.analysis_time;
    let databases = state.config.databases.clone();
    let eval = tokio::task::spawn_blocking(move || {
        permit
            .with_engine(|engine| crate::analysis::evaluate(engine, &game, budget, 40, &databases))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?;
    Ok(Json(eval))
}
