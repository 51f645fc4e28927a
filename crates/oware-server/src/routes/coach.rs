//! The coach's API: every legal move of a position explained, and a game's review, in the language
//! the page asks for (the words come from `web/coach-messages.json`, which the page loads too).

use std::net::IpAddr;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;

use oware_coach::json::{answer_explain, answer_review, Request};

use super::parse_body;
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::forwarded::ClientAddr;
use crate::limits::analysis_permit;

/// The depth the coach searches every move to: a fixed depth, so that a position is explained the
/// same way every time; a position takes milliseconds, a whole game well under a second.
const DEPTH: u32 = oware_coach::DEFAULT_DEPTH;

/// Losses a review lists, in centiseeds (one seed).
const REVIEW_THRESHOLD: i32 = 100;

/// How long a request waits for a free search slot before the answer is "busy".
const PATIENCE: Duration = Duration::from_secs(3);

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CoachRequest {
    /// The start position (the usual start when absent).
    #[serde(default)]
    position: Option<String>,
    /// The moves played from it, as letters.
    #[serde(default)]
    moves: Option<String>,
    #[serde(default)]
    rules: Option<String>,
    /// `ca`, `es`, `en` or `fr`.
    #[serde(default)]
    lang: Option<String>,
    /// For a review: `S` or `N` (both players when absent).
    #[serde(default)]
    player: Option<String>,
}

impl CoachRequest {
    fn request(&self) -> Request {
        Request {
            position: self.position.clone(),
            moves: self.moves.clone().unwrap_or_default(),
            rules: self.rules.clone(),
            lang: self.lang.clone(),
        }
    }
}

/// Runs the coach on a search slot of the server's engine pool, so that coaching shares the
/// bound on concurrent searches with the analysis board.
async fn coached(
    state: &Shared,
    client: IpAddr,
    work: impl FnOnce() -> Result<Value, String> + Send + 'static,
) -> Result<Json<Value>, ApiError> {
    let (share, permit) = analysis_permit(state, client, PATIENCE).await?;
    let answer = tokio::task::spawn_blocking(move || {
        let answer = work();
        drop((permit, share));
        answer
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()))?;
    answer
        .map(Json)
        .map_err(|e| ApiError::bad_request("bad-request", e))
}

/// Every legal move explained, best first, with the threats on the board.
pub(super) async fn explain(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: CoachRequest = parse_body(&body)?;
    let request = req.request();
    coached(&state, client, move || answer_explain(&request, DEPTH)).await
}

/// The mistakes of a game (of one player when `player` is given), each with why and the better
/// move.
pub(super) async fn review(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: CoachRequest = parse_body(&body)?;
    let request = req.request();
    let player = req.player;
    coached(&state, client, move || {
        answer_review(&request, player.as_deref(), DEPTH, REVIEW_THRESHOLD)
    })
    .await
}
