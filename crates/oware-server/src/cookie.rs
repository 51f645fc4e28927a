//! The seat cookie: a player's token, kept by the browser for the game's API folder.

use axum::http::{header, HeaderMap, HeaderValue};

use crate::ids::valid_id;

/// The cookie that holds a player's token. Its path is the game's API folder, so each game has its
/// own (under one name) and the browser sends it only with that game's requests, the WebSocket at
/// `/api/games/{id}/ws` included. HttpOnly keeps it from scripts; SameSite=Lax from other sites'
/// requests.
pub const SEAT_COOKIE: &str = "oware_seat";

/// How long a browser keeps a seat cookie: a year, long enough for a slow game by mail.
pub const SEAT_COOKIE_AGE: u32 = 365 * 24 * 3600;

pub fn seat_cookie(id: &str, token: &str) -> (header::HeaderName, HeaderValue) {
    let value = format!(
        "{SEAT_COOKIE}={token}; Path=/api/games/{id}; Max-Age={SEAT_COOKIE_AGE}; HttpOnly; SameSite=Lax"
    );
    (
        header::SET_COOKIE,
        HeaderValue::from_str(&value).expect("ids and tokens are hex digits"),
    )
}

/// The seat token in the request's cookies, if one is there and well formed.
pub fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == SEAT_COOKIE && valid_id(value))
        .map(|(_, value)| value.to_string())
}
