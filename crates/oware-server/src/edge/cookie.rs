//! The seat cookie: a player's token, kept by the browser for the game's API folder.

use axum::http::{header, HeaderMap, HeaderValue};

use crate::game::ids::valid_id;

/// The cookie that holds a player's token. Its path is the game's API folder, so each game has its
/// own (under one name) and the browser sends it only with that game's requests, the WebSocket at
/// `/api/games/{id}/ws` included. HttpOnly keeps it from scripts; SameSite=Lax from other sites'
/// requests.
pub const SEAT_COOKIE: &str = "oware_seat";

/// How long a browser keeps a seat cookie: a year, long enough for a slow game by mail.
pub const SEAT_COOKIE_AGE: u32 = 365 * 24 * 3600;

/// The seat cookie; `secure` (the page is served over HTTPS) keeps it off plain HTTP.
pub fn seat_cookie(id: &str, token: &str, secure: bool) -> (header::HeaderName, HeaderValue) {
    let secure = if secure { "; Secure" } else { "" };
    let value = format!(
        "{SEAT_COOKIE}={token}; Path=/api/games/{id}; Max-Age={SEAT_COOKIE_AGE}; HttpOnly; SameSite=Lax{secure}"
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

/// Whether the request came over HTTPS: the server's public address is `https://`, or the reverse
/// proxy in front says so (`X-Forwarded-Proto: https`).
pub fn over_https(headers: &HeaderMap, public_url: Option<&str>) -> bool {
    public_url.is_some_and(|u| u.starts_with("https://"))
        || headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.eq_ignore_ascii_case("https"))
}
