//! The coach's API: every legal move of a position explained, and a game's review, in the language
//! the page asks for (the words come from `web/coach-messages.json`, which the page loads too).

use axum::body::Bytes;
use axum::extract::State;
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;

use super::coach_json::{explain_answer, parse_player, review, Request, RequestError};

use super::analysis::{analysed, with_analyser};
use super::parse_body;
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::edge::forwarded::ClientAddr;

/// Losses a review lists, in centiseeds (one seed).
const REVIEW_THRESHOLD: i32 = 100;

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

fn refused(e: RequestError) -> ApiError {
    ApiError::bad_request(e.code(), e.to_string())
}

/// Every legal move explained, best first, with the threats on the board: the words of the
/// position's one analysis, the one the analysis table shows.
pub(super) async fn explain(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: CoachRequest = parse_body(&body)?;
    let (game, lang) = req.request().game().map_err(refused)?;
    let analysis = analysed(&state, client, game.clone()).await?;
    Ok(Json(explain_answer(&game, lang, &analysis)))
}

/// A game reviewed with the one analysis of each of its positions: every move's loss, the
/// evaluation over the game, accuracy, and the mistakes (of one player when `player` is given),
/// each with why and the better move. One search slot serves the whole game.
pub(super) async fn review_game(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: CoachRequest = parse_body(&body)?;
    let (game, lang) = req.request().game().map_err(refused)?;
    let player = parse_player(req.player.as_deref()).map_err(refused)?;
    let answer = with_analyser(&state, client, move |analyse| {
        let mut analyse = |g: &oware_rules::Game| analyse(g).as_ref().clone();
        let reviewed = oware_coach::review(&game, player, &mut analyse, REVIEW_THRESHOLD);
        review(&game, &reviewed, lang)
    })
    .await?;
    Ok(Json(answer))
}
