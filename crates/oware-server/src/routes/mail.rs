//! E-mail for the game page: a seated player of a correspondence game gives an address
//! (`POST`), which is sent one confirmation mail; the confirmation page sends its code back; the
//! player, or the unsubscribe link of any mail, stops it. The seat is proven as for push (a token
//! in the body, or the seat cookie), and the edge has checked the Origin, except on the one-click
//! unsubscribe, which a mail client posts (RFC 8058) and whose token is the proof.

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::json;

use super::push::{remove_seats_subscriptions, seat};
use super::{parse_body, parse_lang};
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::edge::forwarded::ClientAddr;
use crate::game::clock::now_ms;
use crate::game::ids::{new_token, valid_id};
use crate::notify::mail::{parse_address, Mailer, CODE_VALID};
use crate::play::room::GameError;
use crate::store::{MailRequest, NewAddress, Store};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SubscribeRequest {
    email: String,
    /// The language of the mails.
    #[serde(default)]
    lang: Option<String>,
    /// The seat's token, when the page has it (the seat cookie proves it otherwise).
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ConfirmRequest {
    code: String,
}

/// The unsubscribe link's query.
#[derive(Deserialize)]
pub(super) struct UnsubscribeLink {
    t: String,
}

/// The mail queue, or the refusal of a server that sends no mail.
fn mailer(state: &Shared) -> Result<&Mailer, ApiError> {
    state.mailer.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_IMPLEMENTED,
            "mail-off",
            "this server sends no e-mail (it was started without --smtp)",
        )
    })
}

fn too_many(what: &str) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too-many-mails",
        format!("{what} has asked for too many confirmation mails in the last hour; wait a while"),
    )
    .retry_after(3600)
}

/// Sends the address given one confirmation mail, unless it is confirmed already for the seat:
/// `{"status": "sent"}` or `{"status": "confirmed"}`.
pub(super) async fn subscribe(
    State(state): State<Shared>,
    Path(id): Path<String>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let mailer = mailer(&state)?.clone();
    let req: SubscribeRequest = parse_body(&body)?;
    let room = state.games.room(&id).await?;
    let side = seat(&room, req.token, &headers)?;
    if !room.setup.per_move {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not-correspondence",
            "e-mail tells of moves in correspondence games (days for each move) only",
        ));
    }
    // An empty language is none: the page sends what it has.
    let lang = parse_lang(req.lang.as_deref().filter(|l| !l.is_empty()))?;
    let address = parse_address(&req.email).ok_or_else(|| {
        ApiError::bad_request(
            "bad-email",
            "the e-mail address is not one mail can be sent to",
        )
    })?;
    let now = std::time::Instant::now();
    if !state.mail_requests.allow(client, now) {
        return Err(too_many("this client address"));
    }
    if !state
        .mail_confirmations
        .allow(address.to_string().to_lowercase(), now)
    {
        return Err(too_many("this e-mail address"));
    }
    let (text, code, unsubscribe) = (address.to_string(), new_token(), new_token());
    let (now, expires) = (now_ms(), now_ms() + CODE_VALID.as_millis() as u64);
    let stored = state
        .games
        .store()
        .run(move |s| {
            let new = NewAddress {
                address: &text,
                lang: lang.code(),
                code: &code,
                unsubscribe: &unsubscribe,
            };
            s.request_mail(&id, side, new, now, expires)
        })
        .await
        .map_err(GameError::from)?;
    Ok(match stored {
        MailRequest::Confirm { code } => {
            mailer.confirm(address, lang, code);
            (StatusCode::ACCEPTED, Json(json!({ "status": "sent" }))).into_response()
        }
        MailRequest::Confirmed => Json(json!({ "status": "confirmed" })).into_response(),
    })
}

/// Sends the seat's player no more mail, at any address.
pub(super) async fn unsubscribe(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<StatusCode, ApiError> {
    remove_seats_subscriptions(state, id, &headers, &body, Store::remove_mail_subscriptions).await
}

/// The confirmation page's code: the address is told from now on. `{"game": id}`.
pub(super) async fn confirm(
    State(state): State<Shared>,
    body: Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    mailer(&state)?;
    let req: ConfirmRequest = parse_body(&body)?;
    let bad_code = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "bad-code",
            "this confirmation link is unknown, used or expired: ask for a new mail on the game's page",
        )
    };
    if !valid_id(&req.code) {
        return Err(bad_code());
    }
    let now = now_ms();
    let game = state
        .games
        .store()
        .run(move |s| s.confirm_mail(&req.code, now))
        .await
        .map_err(GameError::from)?
        .ok_or_else(bad_code)?;
    Ok(Json(json!({ "game": game })))
}

/// The unsubscribe link, posted by a mail client (one-click, RFC 8058) or by the unsubscribe
/// page: the address gets no more mail of that game. Answered 200 whether or not the token is
/// still known, since a mail client may post it twice.
pub(super) async fn one_click(
    State(state): State<Shared>,
    Query(link): Query<UnsubscribeLink>,
) -> Result<Json<serde_json::Value>, ApiError> {
    if !valid_id(&link.t) {
        return Err(ApiError::bad_request(
            "bad-code",
            "this unsubscribe link is damaged",
        ));
    }
    let removed = state
        .games
        .store()
        .run(move |s| s.unsubscribe_mail(&link.t))
        .await
        .map_err(GameError::from)?;
    Ok(Json(json!({ "removed": removed })))
}

/// The unsubscribe link opened in a browser: its page, which asks before it posts (a link
/// checker that opens every link of a mail must not unsubscribe anyone).
pub(super) async fn unsubscribe_page(Query(link): Query<UnsubscribeLink>) -> Response {
    let token: String = link
        .t
        .chars()
        .filter(char::is_ascii_hexdigit)
        .take(32)
        .collect();
    (
        StatusCode::SEE_OTHER,
        [(header::LOCATION, format!("/email/unsubscribe#t={token}"))],
    )
        .into_response()
}
