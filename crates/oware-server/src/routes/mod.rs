//! The routes: the pages (one HTML shell; the script draws the page the path names), the embedded
//! static files, the manifest and the service worker, the JSON API by area, and the WebSocket
//! endpoint; and the API's errors.

mod analysis;
mod app_shell;
mod coach;
mod coach_json;
mod games;
mod lessons;
mod mail;
mod pages;
mod push;
mod puzzles;
mod ws;

use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::Router;

use oware_coach::Lang;
use oware_rules::{Position, RuleSet};

use crate::api_error::ApiError;
use crate::app::Shared;
use crate::edge::body::MAX_BODY;
use crate::play::room::GameError;

/// Every route of the server (pages, assets, the JSON API, the WebSocket) over `state`.
pub fn router(state: Shared) -> Router {
    Router::new()
        .route("/", get(pages::index))
        .route("/game/{id}", get(pages::game))
        .route("/analysis", get(pages::index))
        .route("/rules", get(pages::index))
        .route("/puzzles", get(pages::index))
        .route("/learn", get(pages::index))
        .route("/email/confirm", get(pages::index))
        .route("/email/unsubscribe", get(pages::index))
        .route("/static/{*path}", get(pages::static_file))
        .route(app_shell::MANIFEST_PATH, get(app_shell::web_manifest))
        .route("/sw.js", get(app_shell::service_worker))
        .route("/api/games", post(games::create_game))
        .route("/api/games/{id}", get(games::game_view))
        .route("/api/games/{id}/join", post(games::join_game))
        .route("/api/games/{id}/record", get(games::game_record))
        .route("/api/games/{id}/rematch", post(games::rematch))
        .route("/api/games/{id}/invitation", post(games::reinvite))
        .route("/api/server", get(games::server_info))
        .route("/api/games/{id}/ws", get(ws::websocket))
        .route(
            "/api/games/{id}/push",
            post(push::subscribe).delete(push::unsubscribe),
        )
        .route("/api/push/key", get(push::key))
        .route(
            "/api/games/{id}/email",
            post(mail::subscribe).delete(mail::unsubscribe),
        )
        .route("/api/email/confirm", post(mail::confirm))
        .route(
            crate::edge::security::ONE_CLICK_UNSUBSCRIBE,
            post(mail::one_click).get(mail::unsubscribe_page),
        )
        .route("/api/replay", post(analysis::replay))
        .route("/api/evaluate", post(analysis::evaluate))
        .route("/api/coach/explain", post(coach::explain))
        .route("/api/coach/review", post(coach::review_game))
        .route("/api/puzzles", get(puzzles::puzzles))
        .route("/api/lessons", get(lessons::lessons))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.config.clone(),
            crate::edge::security::edge,
        ))
        .with_state(state)
}

/// Reads a JSON body, answering malformed input with a clear API error.
fn parse_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request("bad-request", format!("malformed request: {e}")))
}

/// The rule set a request names, Abapa when it names none.
fn parse_rules(rules: Option<&str>) -> Result<RuleSet, ApiError> {
    match rules {
        None => Ok(RuleSet::Abapa),
        Some(r) => r
            .parse()
            .map_err(|e| ApiError::bad_request("bad-rules", format!("{e}"))),
    }
}

/// The language a request names, English when it names none.
fn parse_lang(lang: Option<&str>) -> Result<Lang, ApiError> {
    match lang {
        None => Ok(Lang::En),
        Some(code) => code
            .parse()
            .map_err(|e| ApiError::bad_request("bad-lang", format!("{e}"))),
    }
}

/// A position a request gives.
fn parse_position(text: &str) -> Result<Position, ApiError> {
    text.parse()
        .map_err(|e| ApiError::bad_request("bad-position", format!("bad position: {e}")))
}

/// An unknown address: the API answers in JSON; any other path gets the app's page with a 404
/// status, and the page says, in the reader's language, that there is nothing there.
async fn not_found(uri: axum::http::Uri) -> axum::response::Response {
    use axum::response::IntoResponse;
    let path = uri.path();
    if path.starts_with("/api/") || path.starts_with("/static/") {
        api_not_found().into_response()
    } else {
        pages::missing().into_response()
    }
}

fn api_not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not-found", "no such page")
}

/// A game's refusal as the API says it: the status tells a missing game, a fault of the
/// server's and a refused move apart.
impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let status = match e {
            GameError::UnknownGame(_) => StatusCode::NOT_FOUND,
            GameError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
            GameError::ShuttingDown => StatusCode::SERVICE_UNAVAILABLE,
            GameError::TooFast(_) => StatusCode::TOO_MANY_REQUESTS,
            _ => StatusCode::CONFLICT,
        };
        ApiError::new(status, e.code(), e.to_string())
    }
}
