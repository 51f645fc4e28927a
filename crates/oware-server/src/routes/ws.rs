//! The WebSocket of a game: the welcome and every state to each client, the clients' messages to
//! the game, pings to find vanished peers, and the limits that keep one client from taking more
//! than its share.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::Extension;
use futures_util::stream::SplitSink;
use futures_util::{SinkExt, StreamExt};

use oware_rules::Move;

use crate::api_error::ApiError;
use crate::app::Shared;
use crate::edge::cookie::cookie_token;
use crate::edge::forwarded::ClientAddr;
use crate::edge::rate_limit::TokenBucket;
use crate::game::model::{OfferKind, QuickMessage, Seat};
use crate::play::protocol::{
    parse_client_message, ClientMessage, ServerMessage, MAX_CLIENT_MESSAGE,
};
use crate::play::room::{Connected, Room};

/// Counts an open WebSocket; the count goes down when this is dropped.
struct ConnectionSlot(Shared);

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Opens a game's WebSocket, within the server's limit on open connections.
pub async fn websocket(
    State(state): State<Shared>,
    Path(id): Path<String>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = state.games.room(&id).await?;
    let open = state.connections.fetch_add(1, Ordering::SeqCst);
    let slot = ConnectionSlot(state.clone());
    if open >= state.config.max_connections {
        return Err(ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too-many-connections",
            format!("the server has {open} connections open, its limit; try again later"),
        ));
    }
    let share = state
        .shares
        .sockets
        .take(client)
        .ok_or_else(|| too_many_sockets(&state))?;
    // The seat cookie (sent only to `/api/games/{id}/ws`) proves a seat. Tokens never travel in
    // the address, where proxies' logs and browsers' histories keep them: a client without the
    // cookie sends its token in a `seat` message instead.
    let token = cookie_token(&headers);
    Ok(upgrade
        // Messages a little over the protocol's limit get a clear error from the protocol
        // layer; far larger ones are cut off by the WebSocket layer itself.
        .max_message_size(MAX_CLIENT_MESSAGE * 16)
        .max_frame_size(MAX_CLIENT_MESSAGE * 16)
        .on_upgrade(move |socket| async move {
            let _slots = (slot, share);
            play_over_socket(socket, state, room, token).await;
        }))
}

async fn play_over_socket(
    socket: WebSocket,
    state: Shared,
    room: Arc<Room>,
    mut token: Option<String>,
) {
    let (mut sink, mut stream) = socket.split();
    let mut updates = room.subscribe();
    let you = match room.seat(token.as_deref()) {
        Seat::Player(side) => Some(side.letter()),
        Seat::Watcher => None,
    };
    // While this connection lasts, its player is told of nothing by push: the page shows it.
    let mut _connected = seat_connection(&room, token.as_deref());
    let hello = [
        ServerMessage::Welcome { you }.to_json(),
        ServerMessage::State {
            game: Box::new(room.view()),
        }
        .to_json(),
    ];
    for text in hello {
        if !send_within(
            &mut sink,
            Message::Text(text.into()),
            state.config.idle_timeout,
        )
        .await
        {
            return;
        }
    }
    let idle_timeout = state.config.idle_timeout.max(Duration::from_millis(10));
    let mut pings = tokio::time::interval(idle_timeout / 3);
    pings.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    pings.tick().await; // the first tick is immediate
    let mut last_heard = tokio::time::Instant::now();
    let mut limit = TokenBucket::new(state.config.messages_per_second, std::time::Instant::now());
    loop {
        tokio::select! {
            incoming = stream.next() => {
                last_heard = tokio::time::Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        let reply = ServerMessage::error("bad-message", "send JSON text messages, not binary ones");
                        if !send_within(&mut sink, Message::Text(reply.to_json().into()), idle_timeout).await { return; }
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Err(e)) if message_too_big(&e) => {
                        close_too_big(&mut sink).await;
                        return;
                    }
                    Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return,
                };
                if !limit.allow(std::time::Instant::now()) {
                    if limit.should_disconnect() {
                        send_within(&mut sink, close_frame(1008, "too many messages"), Duration::from_secs(1)).await;
                        return;
                    }
                    let reply = ServerMessage::error("rate-limited", format!(
                        "too many messages: at most {} a second; this one was dropped",
                        state.config.messages_per_second));
                    if !send_within(&mut sink, Message::Text(reply.to_json().into()), idle_timeout).await { return; }
                    continue;
                }
                let was = token.clone();
                if let Some(reply) = handle_message(&state, &room, &mut token, text.as_str()).await {
                    if !send_within(&mut sink, Message::Text(reply.to_json().into()), idle_timeout).await { return; }
                }
                if token != was {
                    _connected = seat_connection(&room, token.as_deref());
                }
            }
            update = updates.recv() => {
                let text: String = match update {
                    Ok(text) => text.to_string(),
                    // Too slow to keep up: send the whole current state instead of the backlog.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) =>
                        ServerMessage::State { game: Box::new(room.view()) }.to_json(),
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => return,
                };
                if !send_within(&mut sink, Message::Text(text.into()), idle_timeout).await { return; }
            }
            _ = pings.tick() => {
                // Silent for too long (a vanished peer, or a client that never reads): close it,
                // so it does not hold a connection slot.
                if last_heard.elapsed() >= idle_timeout {
                    send_within(&mut sink, close_frame(1001, "idle"), Duration::from_secs(1)).await;
                    return;
                }
                if !send_within(&mut sink, Message::Ping(Bytes::new()), idle_timeout).await { return; }
            }
        }
    }
}

/// Sends `message`, giving up after `within` (a client that never reads must not hold this task).
async fn send_within(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    message: Message,
    within: Duration,
) -> bool {
    matches!(
        tokio::time::timeout(within, sink.send(message)).await,
        Ok(Ok(()))
    )
}

fn close_frame(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(axum::extract::ws::CloseFrame {
        code,
        reason: reason.into(),
    }))
}

/// Acts on one client message from the holder of `seat` (a player's token, or none: a
/// watcher, until a `seat` message proves one); the reply, if any, goes to that client only (changes go to
/// everyone through the room's broadcast).
async fn handle_message(
    state: &Shared,
    room: &Arc<Room>,
    seat: &mut Option<String>,
    text: &str,
) -> Option<ServerMessage> {
    let message = match parse_client_message(text) {
        Ok(m) => m,
        Err(reply) => return Some(reply),
    };
    let result = match message {
        ClientMessage::Seat { token: offered } => {
            // A token that seats a player in this game makes this connection that player's; any
            // other is refused, and the connection keeps the seat it had.
            return Some(match room.seat(Some(&offered)) {
                Seat::Player(side) => {
                    *seat = Some(offered);
                    ServerMessage::Welcome {
                        you: Some(side.letter()),
                    }
                }
                Seat::Watcher => {
                    let e = crate::play::room::GameError::NotAPlayer;
                    ServerMessage::error(e.code(), e.to_string())
                }
            });
        }
        ClientMessage::Ping => return Some(ServerMessage::Pong),
        ClientMessage::Move { mv, ply } => {
            let Ok(mv) = mv.parse::<Move>() else {
                return Some(ServerMessage::error(
                    "bad-move",
                    format!(
                        "{:?} is not a move: a move is one letter, A-F or a-f",
                        mv.chars().take(20).collect::<String>()
                    ),
                ));
            };
            state.games.play(room, seat.as_deref(), mv, ply).await
        }
        ClientMessage::Undo => state.games.undo(room, seat.as_deref()).await,
        ClientMessage::Resign => state.games.resign(room, seat.as_deref()).await,
        ClientMessage::Abort => state.games.abort(room, seat.as_deref()).await,
        ClientMessage::Offer { what } => match OfferKind::parse(&what) {
            Some(kind) => room.offer(seat.as_deref(), kind),
            None => {
                return Some(ServerMessage::error(
                    "bad-message",
                    format!(
                        "{:?} is not an offer: offer a draw or a takeback",
                        what.chars().take(20).collect::<String>()
                    ),
                ))
            }
        },
        ClientMessage::Answer { accept } => state.games.answer(room, seat.as_deref(), accept).await,
        ClientMessage::Say { what } => match QuickMessage::parse(&what) {
            Some(message) => room.say(seat.as_deref(), message),
            None => {
                return Some(ServerMessage::error(
                    "bad-message",
                    format!(
                        "{:?} is not a quick message: send good-luck, your-move, well-played, thank-you or good-game",
                        what.chars().take(20).collect::<String>()
                    ),
                ))
            }
        },
    };
    result
        .err()
        .map(|e| ServerMessage::error(e.code(), e.to_string()))
}

/// The refusal of a WebSocket over its address's share of connections.
/// The count of the player's open connections that this connection holds, if it holds a seat.
fn seat_connection(room: &Room, token: Option<&str>) -> Option<Connected> {
    match room.seat(token) {
        Seat::Player(side) => Some(room.connect(side)),
        Seat::Watcher => None,
    }
}

fn too_many_sockets(state: &Shared) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too-many-sockets",
        format!(
            "this address has {} connections open, the limit; close some pages",
            state.config.sockets_per_address.max(1)
        ),
    )
}

/// Whether a WebSocket read failed on a message over the size limit (answered with close code
/// 1009, "message too big", rather than a dropped connection).
fn message_too_big(error: &axum::Error) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = source {
        if let Some(tungstenite::Error::Capacity(_)) = e.downcast_ref::<tungstenite::Error>() {
            return true;
        }
        source = e.source();
    }
    false
}

/// The close code for a message too big to handle (RFC 6455, 7.4.1).
const CLOSE_TOO_BIG: u16 = 1009;

/// How long the server waits, having said "message too big", before it lets the socket go.
const CLOSE_LINGER: Duration = Duration::from_millis(200);

/// Closes a WebSocket whose client sent a message over the size limit, with code 1009 and a
/// reason. The rest of that message is still unread: closing the socket at once would reset the
/// connection, and a reset can discard the close frame before it reaches the client, which then
/// sees a dropped connection instead of the reason. A short linger lets the frame go first.
async fn close_too_big(sink: &mut SplitSink<WebSocket, Message>) {
    let close = Message::Close(Some(CloseFrame {
        code: CLOSE_TOO_BIG,
        reason: "message too big".into(),
    }));
    if let Ok(Ok(())) = tokio::time::timeout(Duration::from_secs(1), sink.send(close)).await {
        tokio::time::sleep(CLOSE_LINGER).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacity_errors_are_told_apart() {
        let too_long =
            tungstenite::Error::Capacity(tungstenite::error::CapacityError::MessageTooLong {
                size: 20,
                max_size: 10,
            });
        assert!(message_too_big(&axum::Error::new(too_long)));
        assert!(!message_too_big(&axum::Error::new(
            tungstenite::Error::ConnectionClosed
        )));
    }
}
