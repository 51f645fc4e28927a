//! The routes: the pages (one HTML shell; the script draws the page the path names), the embedded
//! static files, the JSON API and the WebSocket endpoint.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use serde_json::json;

use oware_rules::{Game, Move, Position, RuleSet, Side};

use crate::games::{side_letter, GameError, GameMode, GameSetup, Room, Seat};
use crate::protocol::{
    parse_client_message, ClientMessage, RateLimit, ServerMessage, MAX_CLIENT_MESSAGE,
};
use crate::{assets, record, Shared};

/// The largest request body the API reads.
const MAX_BODY: usize = 80 * 1024;

pub fn router(state: Shared) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/game/{id}", get(index))
        .route("/analysis", get(index))
        .route("/rules", get(index))
        .route("/static/{name}", get(static_file))
        .route("/api/games", post(create_game))
        .route("/api/games/{id}", get(game_view))
        .route("/api/games/{id}/join", post(join_game))
        .route("/api/games/{id}/record", get(game_record))
        .route("/api/games/{id}/ws", get(websocket))
        .route("/api/analyse", post(analyse))
        .route("/api/evaluate", post(evaluate))
        .route("/ws/{id}", get(websocket))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// An API error: a status and a JSON body `{"error":{"code":..,"message":..}}`.
pub struct ApiError {
    status: StatusCode,
    code: String,
    message: String,
}

impl ApiError {
    fn bad_request(code: &str, message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            code: code.to_string(),
            message: message.into(),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let status = match e {
            GameError::UnknownGame(_) => StatusCode::NOT_FOUND,
            GameError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
            _ => StatusCode::CONFLICT,
        };
        ApiError {
            status,
            code: e.code().to_string(),
            message: e.to_string(),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(json!({"error": {"code": self.code, "message": self.message}})),
        )
            .into_response()
    }
}

/// Reads a JSON body, answering malformed input with a clear API error.
fn parse_body<T: serde::de::DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body)
        .map_err(|e| ApiError::bad_request("bad-request", format!("malformed request: {e}")))
}

async fn index() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, assets::INDEX.content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        assets::INDEX.bytes,
    )
}

async fn static_file(Path(name): Path<String>) -> Response {
    match assets::find(&name) {
        Some(a) => (
            [
                (header::CONTENT_TYPE, a.content_type),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            a.bytes,
        )
            .into_response(),
        None => not_found().await.into_response(),
    }
}

async fn not_found() -> impl IntoResponse {
    ApiError {
        status: StatusCode::NOT_FOUND,
        code: "not-found".into(),
        message: "no such page".into(),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateGame {
    mode: String,
    /// The creator's side: `S`, `N` or `random`.
    #[serde(default)]
    side: Option<String>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    rules: Option<String>,
    #[serde(default)]
    position: Option<String>,
    /// Minutes per side on the clocks (friend games): 5, 10 or 20; none or 0 for no clocks.
    #[serde(default)]
    clock: Option<u32>,
}

/// The clock times a friend game may be created with, in minutes per side.
const CLOCK_MINUTES: [u32; 3] = [5, 10, 20];

#[derive(Serialize)]
struct Seated {
    id: String,
    token: Option<String>,
    side: Option<char>,
}

fn random_side() -> Side {
    let mut b = [0u8; 1];
    getrandom::fill(&mut b).expect("the operating system's random source works");
    if b[0] & 1 == 0 {
        Side::South
    } else {
        Side::North
    }
}

/// The cookie that holds a player's token. Its path is the game's API folder, so each game has its
/// own (under one name) and the browser sends it only with that game's requests, the WebSocket at
/// `/api/games/{id}/ws` included. HttpOnly keeps it from scripts; SameSite=Lax from other sites'
/// requests.
const SEAT_COOKIE: &str = "oware_seat";

/// How long a browser keeps a seat cookie: a year, long enough for a slow game by mail.
const SEAT_COOKIE_AGE: u32 = 365 * 24 * 3600;

fn seat_cookie(id: &str, token: &str) -> (header::HeaderName, HeaderValue) {
    let value = format!(
        "{SEAT_COOKIE}={token}; Path=/api/games/{id}; Max-Age={SEAT_COOKIE_AGE}; HttpOnly; SameSite=Lax"
    );
    (
        header::SET_COOKIE,
        HeaderValue::from_str(&value).expect("ids and tokens are hex digits"),
    )
}

/// The seat token in the request's cookies, if one is there and well formed.
fn cookie_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, value)| *name == SEAT_COOKIE && crate::valid_id(value))
        .map(|(_, value)| value.to_string())
}

/// A seat in the JSON body and in the seat cookie.
fn seated_response(seated: Seated) -> Response {
    match &seated.token {
        Some(token) => ([seat_cookie(&seated.id, token)], Json(seated)).into_response(),
        None => Json(seated).into_response(),
    }
}

async fn create_game(State(state): State<Shared>, body: Bytes) -> Result<Response, ApiError> {
    let req: CreateGame = parse_body(&body)?;
    let side = match req.side.as_deref().unwrap_or("S") {
        "S" | "s" | "south" => Side::South,
        "N" | "n" | "north" => Side::North,
        "random" => random_side(),
        other => {
            return Err(ApiError::bad_request(
                "bad-side",
                format!("side must be S, N or random, not {other:?}"),
            ))
        }
    };
    let mode = match req.mode.as_str() {
        "computer" => {
            let level = req.level.unwrap_or(3);
            if !oware_engine::LEVELS.contains(&level) {
                return Err(ApiError::bad_request(
                    "bad-level",
                    format!("the level must be from 1 to 10, not {level}"),
                ));
            }
            GameMode::Computer {
                side: side.opponent(),
                level,
            }
        }
        "friend" => GameMode::Friend,
        other => {
            return Err(ApiError::bad_request(
                "bad-mode",
                format!("mode must be \"computer\" or \"friend\", not {other:?}"),
            ))
        }
    };
    let rules: RuleSet = match req.rules.as_deref() {
        None => RuleSet::Abapa,
        Some(r) => r
            .parse()
            .map_err(|e| ApiError::bad_request("bad-rules", format!("{e}")))?,
    };
    let start: Position = match req.position.as_deref() {
        None | Some("") => Position::start(),
        Some(p) => p
            .parse()
            .map_err(|e| ApiError::bad_request("bad-position", format!("bad position: {e}")))?,
    };
    let clock_ms = match req.clock.unwrap_or(0) {
        0 => None,
        minutes if !CLOCK_MINUTES.contains(&minutes) => {
            return Err(ApiError::bad_request(
                "bad-clock",
                format!("clocks give each side 5, 10 or 20 minutes, not {minutes}"),
            ))
        }
        _ if mode != GameMode::Friend => {
            return Err(ApiError::bad_request(
                "bad-clock",
                "clocks are for games between friends",
            ))
        }
        minutes => Some(u64::from(minutes) * state.config.clock_minute.as_millis() as u64),
    };
    let setup = GameSetup {
        mode,
        rules,
        start,
        clock_ms,
    };
    let id = crate::new_token();
    let token = crate::new_token();
    crate::games::lock_store(&state.store)
        .create_game(&id, &setup, Some((&token, side)))
        .map_err(GameError::from)?;
    // Loading the room starts the computer if it moves first.
    state.room(&id)?;
    Ok(seated_response(Seated {
        id,
        token: Some(token),
        side: Some(side_letter(side)),
    }))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    /// A token the page already holds (from its storage or a private link).
    #[serde(default)]
    token: Option<String>,
}

/// Gives a player's seat back when the request proves it (a token in the body, from the page's
/// storage or a private "continue on another device" link, or else the seat cookie: a reload that
/// lost its storage), and sets the seat cookie; otherwise takes the free side of a friend game,
/// or seats nobody (a watcher).
async fn join_game(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: JoinRequest = if body.iter().all(u8::is_ascii_whitespace) {
        JoinRequest::default()
    } else {
        parse_body(&body)?
    };
    let room = state.room(&id)?;
    let offered = req.token.filter(|t| crate::valid_id(t));
    for token in [offered, cookie_token(&headers)].into_iter().flatten() {
        if let Seat::Player(side) = room.seat(Some(&token)) {
            return Ok(seated_response(Seated {
                id,
                token: Some(token),
                side: Some(side_letter(side)),
            }));
        }
    }
    let seat = room.join(&state.store)?;
    Ok(seated_response(Seated {
        id,
        token: seat.as_ref().map(|(t, _)| t.clone()),
        side: seat.map(|(_, s)| side_letter(s)),
    }))
}

async fn game_view(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<crate::games::GameView>, ApiError> {
    Ok(Json(state.room(&id)?.view()))
}

async fn game_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let room = state.room(&id)?;
    let view = room.view();
    let moves = oware_rules::parse_move_letters(&view.moves).unwrap_or_default();
    let game = Game::replay(room.setup.start, room.setup.rules, &moves)
        .map_err(|(_, e)| ApiError::bad_request("damaged", e.to_string()))?;
    let name = |side: Side| match room.setup.mode {
        GameMode::Computer { side: c, level } if c == side => format!("oware level {level}"),
        _ => "Player".to_string(),
    };
    let text = record::write_record(&game, &name(Side::South), &name(Side::North));
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"oware-{}.ogn\"", &id[..8]),
            ),
        ],
        text,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnalyseRequest {
    text: String,
    #[serde(default)]
    rules: Option<String>,
}

/// Reads a record or position for the analysis board and replays it: every position, capture and
/// the end if the record reaches it. An illegal move stops the replay with an error that says
/// where.
async fn analyse(body: Bytes) -> Result<Json<serde_json::Value>, ApiError> {
    let req: AnalyseRequest = parse_body(&body)?;
    let rules: RuleSet = match req.rules.as_deref() {
        None => RuleSet::Abapa,
        Some(r) => r
            .parse()
            .map_err(|e| ApiError::bad_request("bad-rules", format!("{e}")))?,
    };
    let rec = record::read_record(&req.text, rules)
        .map_err(|e| ApiError::bad_request("bad-record", e.0))?;
    let mut game = Game::from_position(rec.start, rec.rules);
    let mut error = None;
    for (ply, &mv) in rec.moves.iter().enumerate() {
        if let Err(e) = game.play(mv) {
            error = Some(format!(
                "{}: {e}",
                oware_rules::describe_ply(rec.start.side_to_move(), ply, mv)
            ));
            break;
        }
    }
    Ok(Json(json!({
        "rules": rec.rules.name(),
        "start": rec.start.to_string(),
        "moves": oware_rules::format_move_letters(game.moves()),
        "captures": game.captures(),
        "positions": game.positions().iter().map(|p| p.to_string()).collect::<Vec<_>>(),
        "end": game.end().map(|e| json!({"reason": e.reason.word(), "score": e.score.to_string(),
            "winner": e.score.winner().map(side_letter)})),
        "error": error,
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

/// The engine's value and best line for every legal move of a position (or of the position
/// reached by a game), within the server's analysis time.
async fn evaluate(
    State(state): State<Shared>,
    body: Bytes,
) -> Result<Json<crate::analysis::Evaluation>, ApiError> {
    let req: EvaluateRequest = parse_body(&body)?;
    let rules: RuleSet = match req.rules.as_deref() {
        None => RuleSet::Abapa,
        Some(r) => r
            .parse()
            .map_err(|e| ApiError::bad_request("bad-rules", format!("{e}")))?,
    };
    let pos: Position = req
        .position
        .parse()
        .map_err(|e| ApiError::bad_request("bad-position", format!("bad position: {e}")))?;
    let moves = oware_rules::parse_move_letters(req.moves.as_deref().unwrap_or(""))
        .map_err(|e| ApiError::bad_request("bad-move", format!("bad moves: {e}")))?;
    let game = Game::replay(pos, rules, &moves).map_err(|(ply, e)| {
        ApiError::bad_request(
            "illegal-move",
            oware_rules::describe_ply(pos.side_to_move(), ply, moves[ply]) + &format!(": {e}"),
        )
    })?;
    let permit = state
        .engines
        .acquire_within(ANALYSIS_PATIENCE)
        .await
        .map_err(|e| ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: "busy".into(),
            message: e.to_string(),
        })?;
    let budget = state.config.analysis_time;
    let databases = state.config.databases.clone();
    let eval = tokio::task::spawn_blocking(move || {
        permit
            .with_engine(|engine| crate::analysis::evaluate(engine, &game, budget, 40, &databases))
    })
    .await
    .map_err(|e| ApiError {
        status: StatusCode::INTERNAL_SERVER_ERROR,
        code: "internal".into(),
        message: e.to_string(),
    })?;
    Ok(Json(eval))
}

#[derive(Deserialize)]
struct WsQuery {
    token: Option<String>,
}

/// Counts an open WebSocket; the count goes down when this is dropped.
struct ConnectionSlot(Shared);

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        self.0.connections.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn websocket(
    State(state): State<Shared>,
    Path(id): Path<String>,
    Query(query): Query<WsQuery>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    let room = state.room(&id)?;
    let open = state.connections.fetch_add(1, Ordering::SeqCst);
    let slot = ConnectionSlot(state.clone());
    if open >= state.config.max_connections {
        return Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            code: "too-many-connections".into(),
            message: format!(
                "the server has {} connections open, its limit; try again later",
                open
            ),
        });
    }
    // The token in the link if it seats a player, else the seat cookie's (sent only to
    // `/api/games/{id}/ws`).
    let token = query
        .token
        .filter(|t| t.len() <= 64)
        .filter(|t| matches!(room.seat(Some(t)), Seat::Player(_)))
        .or_else(|| cookie_token(&headers));
    Ok(upgrade
        // Messages a little over the protocol's limit get a clear error from the protocol
        // layer; far larger ones are cut off by the WebSocket layer itself.
        .max_message_size(MAX_CLIENT_MESSAGE * 16)
        .max_frame_size(MAX_CLIENT_MESSAGE * 16)
        .on_upgrade(move |socket| async move {
            let _slot = slot;
            play_over_socket(socket, state, room, token).await;
        }))
}

async fn play_over_socket(
    socket: WebSocket,
    state: Shared,
    room: Arc<Room>,
    token: Option<String>,
) {
    let (mut sink, mut stream) = socket.split();
    let mut updates = room.subscribe();
    let you = match room.seat(token.as_deref()) {
        Seat::Player(side) => Some(side_letter(side)),
        Seat::Watcher => None,
    };
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
    let mut limit = RateLimit::new(state.config.messages_per_second, std::time::Instant::now());
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
                if let Some(reply) = handle_message(&state, &room, token.as_deref(), text.as_str()) {
                    if !send_within(&mut sink, Message::Text(reply.to_json().into()), idle_timeout).await { return; }
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

/// Acts on one client message; the reply, if any, goes to that client only (changes go to
/// everyone through the room's broadcast).
fn handle_message(
    state: &Shared,
    room: &Arc<Room>,
    token: Option<&str>,
    text: &str,
) -> Option<ServerMessage> {
    let message = match parse_client_message(text) {
        Ok(m) => m,
        Err(reply) => return Some(reply),
    };
    let result = match message {
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
            room.play(&state.store, token, mv, ply).map(|turn| {
                if let Some(turn) = turn {
                    state.spawn_computer(room.clone(), turn);
                }
                state.watch_clock(room.clone());
            })
        }
        ClientMessage::Undo => room.undo(&state.store, token),
    };
    result
        .err()
        .map(|e| ServerMessage::error(e.code(), e.to_string()))
}
