//! The analysis board's API: replay a record or position (`/api/replay`), evaluate a position with
//! the engine (`/api/evaluate`).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::OwnedSemaphorePermit;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;

use oware_coach::PositionAnalysis;
use oware_rules::{Game, GameText, GameTextErrorKind, Side};

use super::{parse_body, parse_position, parse_rules};
use crate::analysis::engines::{analysis_of, evaluation, Evaluation};
use crate::analysis::engines::{Permit, PoolError};
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::edge::forwarded::ClientAddr;
use crate::edge::shares::AddressShare;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayRequest {
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
pub(super) async fn replay(body: Bytes) -> Result<Json<serde_json::Value>, ApiError> {
    let req: ReplayRequest = parse_body(&body)?;
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
            "winner": e.score.winner().map(Side::letter)})),
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
const ANALYSIS_PATIENCE: Duration = Duration::from_secs(3);

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
    with_analyser(state, client, move |analyse| analyse(&game)).await
}

/// Runs `work` off the async runtime on a search slot of the pool, taken in the client's share of
/// them (see [`analysis_permit`]); `work` gets an analyser that answers kept analyses at once and
/// keeps the new ones. Every route that analyses goes through here, so all of them wait their turn
/// the same way and share one cache.
pub(super) async fn with_analyser<T: Send + 'static>(
    state: &Shared,
    client: IpAddr,
    work: impl FnOnce(&mut dyn FnMut(&Game) -> Arc<PositionAnalysis>) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let (share, permit) = analysis_permit(state, client, ANALYSIS_PATIENCE).await?;
    let cache = state.analyses.clone();
    let limits = state.analysis_budget();
    tokio::task::spawn_blocking(move || {
        let _share = share;
        let mut analyse =
            |game: &Game| permit.with_engine(|engine| analysis_of(&cache, engine, game, limits));
        work(&mut analyse)
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))
}

/// The right to run one analysis or coach search for `client`: its address's share, its turn
/// among that address's requests (at most `analyses_per_address` at once, in the order they came),
/// then a search slot of the engine pool; all waited for at most `patience` together. An address
/// with its share all running or waiting is answered 429 at once, with `Retry-After`. The pool
/// serves the requests that reach it in turn, so each address waits behind at most a few of any
/// other's. Keep the answer while the search runs.
async fn analysis_permit(
    state: &Shared,
    client: IpAddr,
    patience: Duration,
) -> Result<(AnalysisTurn, Permit), ApiError> {
    let share = state.shares.analyses.take(client).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many-analyses",
            format!(
                "this address has {} analyses running or waiting, the limit; wait for their answers",
                state.config.analyses_per_address.max(1) + state.config.analyses_waiting_per_address
            ),
        )
        .retry_after(state.config.analysis_time.as_secs().max(1))
    })?;
    let busy = |e: PoolError| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", e.to_string());
    let deadline = tokio::time::Instant::now() + patience;
    let turn = tokio::time::timeout_at(deadline, share.turn())
        .await
        .map_err(|_| busy(PoolError::Busy))?;
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    let permit = state.engines.acquire_within(left).await.map_err(busy)?;
    Ok((
        AnalysisTurn {
            _share: share,
            _turn: turn,
        },
        permit,
    ))
}

/// An address's share and turn for one analysis, given back when dropped.
struct AnalysisTurn {
    _share: AddressShare,
    _turn: OwnedSemaphorePermit,
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
