//! Web Push for the game page: the server's public key to subscribe with, and a seated player's
//! subscription to their game's events (`POST`), or its end (`DELETE`). The seat is proven as a
//! join proves it (a token in the body, or the seat cookie); the edge has checked the Origin.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};

use oware_rules::Side;

use super::games::seat_of;
use super::{parse_body, parse_lang};
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::game::clock::now_ms;
use crate::notify::push::valid_endpoint;
use crate::notify::webpush::BrowserKeys;
use crate::play::room::Room;
use crate::store::{PushSubscription, Store, StoreError};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubscribeRequest {
    /// `PushSubscription.toJSON()`.
    subscription: BrowserSubscription,
    /// The language of the messages.
    #[serde(default)]
    lang: Option<String>,
    /// The seat's token, when the page has it (the seat cookie proves it otherwise).
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
struct BrowserSubscription {
    endpoint: String,
    keys: SubscriptionKeys,
}

#[derive(Deserialize)]
struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct UnsubscribeRequest {
    #[serde(default)]
    token: Option<String>,
}

/// The server's VAPID public key, the `applicationServerKey` browsers subscribe with.
pub(super) async fn key(State(state): State<Shared>) -> Json<Value> {
    Json(json!({ "key": state.push_key }))
}

/// The seat a request proves in `room`, or a refusal.
pub(super) fn seat(
    room: &Room,
    offered: Option<String>,
    headers: &HeaderMap,
) -> Result<Side, ApiError> {
    seat_of(room, offered, headers)
        .map(|(_, side)| side)
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::FORBIDDEN,
                "not-a-player",
                "only a player of this game may ask to be told of its moves",
            )
        })
}

/// Tells the seat's player of the game's events in this browser from now on.
pub(super) async fn subscribe(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    let req: SubscribeRequest = parse_body(&body)?;
    let room = state.games.room(&id).await?;
    let side = seat(&room, req.token, &headers)?;
    // An empty language is none: the page sends what it has.
    let lang = parse_lang(req.lang.as_deref().filter(|l| !l.is_empty()))?;
    let endpoint = req.subscription.endpoint;
    if !valid_endpoint(&endpoint, state.config.push_allow_http) {
        return Err(ApiError::bad_request(
            "bad-subscription",
            "the subscription's endpoint is not an https:// address",
        ));
    }
    let keys = BrowserKeys::from_base64(&req.subscription.keys.p256dh, &req.subscription.keys.auth)
        .map_err(|e| ApiError::bad_request("bad-subscription", e.to_string()))?;
    let subscription = PushSubscription {
        endpoint,
        p256dh: keys.p256dh,
        auth: keys.auth,
        lang: lang.code().to_string(),
    };
    let now = now_ms();
    state
        .games
        .store()
        .run(move |s| s.add_push_subscription(&id, side, &subscription, now))
        .await
        .map_err(crate::play::room::GameError::from)?;
    Ok(StatusCode::NO_CONTENT)
}

/// Tells the seat's player nothing more, in any browser.
pub(super) async fn unsubscribe(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    remove_seats_subscriptions(state, id, &headers, &body, Store::remove_push_subscriptions).await
}

/// The unsubscribing of push and of mail alike: the seat is proven by the body's token (the body
/// may be empty) or the seat cookie, then `remove` forgets that seat's subscriptions.
pub(super) async fn remove_seats_subscriptions(
    state: Shared,
    id: String,
    headers: &HeaderMap,
    body: &Bytes,
    remove: fn(&mut Store, &str, Side) -> Result<(), StoreError>,
) -> Result<StatusCode, ApiError> {
    let req: UnsubscribeRequest = if body.is_empty() {
        UnsubscribeRequest::default()
    } else {
        parse_body(body)?
    };
    let room = state.games.room(&id).await?;
    let side = seat(&room, req.token, headers)?;
    state
        .games
        .store()
        .run(move |s| remove(s, &id, side))
        .await
        .map_err(crate::play::room::GameError::from)?;
    Ok(StatusCode::NO_CONTENT)
}
