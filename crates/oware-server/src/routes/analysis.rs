//! The analysis board's API: read a record or position, evaluate a position with the engine.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;

use oware_coach::PositionAnalysis;
use oware_rules::{Game, GameText, GameTextErrorKind};

use super::{parse_body, parse_position, parse_rules};
use crate::analysis::{analysis_of, evaluation, Evaluation};
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::forwarded::ClientAddr;
use crate::limits::analysis_permit;
use crate::model::side_letter;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    text: String,
    #[serde(default)]
    rules: Option<String>,
}

/// The longest text the analysis board reads, in bytes.
pub const MAX_TEXT: usize = 64 * 1024;

/// Reads a game as text for the analysis board ([`GameText`]: a record, a position, a move list or
/// a position and moves) and replays it: every position, capture and the end if the game reaches
/// it. An illegal move stops the replay with an error that says where, and the board shows the
/// game up to it (`+N` capture marks are not checked: pasted records are read as far as they go).
pub(super) async fn analyse(body: Bytes) -> Result<Json<serde_json::Value>, ApiError> {
    let req: AnalyseRequest = parse_body(&body)?;
    let rules = parse_rules(req.rules.as_deref())?;
    if req.text.len() > MAX_TEXT {
        return Err(ApiError::bad_request(
            "bad-record",
            format!(
                "the text is too long ({} bytes, at most {MAX_TEXT})",
                req.text.len()
            ),
        ));
    }
    let text = GameText::parse(&req.text).map_err(|e| {
        // A bad position is told apart from a bad move list, so that the page can say which.
        let code = match e.kind {
            GameTextErrorKind::BadPosition(_) => "bad-position",
            _ => "bad-record",
        };
        ApiError::bad_request(code, e.to_string())
    })?;
    let (start, rules) = (text.start_or_default(), text.rules.unwrap_or(rules));
    let (game, error) = Game::replay_until_illegal(start, rules, &text.moves);
    Ok(Json(json!({
        "rules": rules.name(),
        "start": start.to_string(),
        "moves": oware_rules::format_move_letters(game.moves()),
        "captures": game.captures(),
        "positions": game.positions().iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "end": game.end().map(|e| json!({"reason": e.reason.word(), "score": e.score.to_string(),
            "winner": e.score.winner().map(side_letter)})),
        "error": error.map(|e| e.to_string()),
        // The number of the refused move (1 for the first), for a message in the reader's language.
        "error_ply": error.map(|e| e.ply + 1),
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
pub(super) const ANALYSIS_PATIENCE: Duration = Duration::from_secs(3);

/// The analysis of the game's current position, the one every view shows: the kept one, or a new
/// one on a search slot of the pool (in the client's share of them), then kept.
pub(super) async fn analysed(
    state: &Shared,
    client: IpAddr,
    game: Game,
) -> Result<Arc<PositionAnalysis>, ApiError> {
    if let Some(kept) = state.analyses.get(&game) {
        return Ok(kept);
    }
    let (share, permit) = analysis_permit(state, client, ANALYSIS_PATIENCE).await?;
    let cache = state.analyses.clone();
    let limits = state.analysis_limits();
    tokio::task::spawn_blocking(move || {
        let _share = share;
        permit.with_engine(|engine| analysis_of(&cache, engine, &game, limits))
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))
}

/// The engine's value, loss against the best and line for every legal move of a position (or of
/// the position reached by a game): the position's one analysis.
pub(super) async fn evaluate(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    body: Bytes,
) -> Result<Json<Evaluation>, ApiError> {
    let req: EvaluateRequest = parse_body(&body)?;
    let rules = parse_rules(req.rules.as_deref())?;
    let pos = parse_position(&req.position)?;
    let moves = oware_rules::parse_move_letters(req.moves.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::bad_request("bad-move", format!("bad moves: {e}")))?;
    let game = Game::replay(pos, rules, &moves)
        .map_err(|e| ApiError::bad_request("illegal-move", e.to_string()))?;
    let analysis = analysed(&state, client, game.clone()).await?;
    Ok(Json(evaluation(&game, &analysis, &state.config.databases)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::AppState;
    use crate::config::Config;
    use oware_rules::RuleSet;

    #[tokio::test]
    async fn a_kept_analysis_is_answered_without_an_engine() {
        let state = AppState::new(Config {
            searches: 1,
            ..Config::default()
        })
        .unwrap();
        let game = Game::new(RuleSet::Abapa);
        let kept = state.analyses.insert(
            &game,
            PositionAnalysis {
                depth: 7,
                values: Vec::new(),
            },
        );
        // Every engine is busy: the kept analysis is still the answer, at once.
        let _held = state.engines.acquire().await;
        let client: IpAddr = "192.0.2.1".parse().unwrap();
        let answer = tokio::time::timeout(
            Duration::from_secs(1),
            analysed(&state, client, game.clone()),
        )
        .await
        .expect("no wait for an engine");
        assert!(answer.is_ok_and(|a| Arc::ptr_eq(&a, &kept)));
    }
}
