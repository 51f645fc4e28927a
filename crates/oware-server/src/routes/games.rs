//! The games API: create a game, take a seat, see a game, download its record.

use std::net::IpAddr;

use axum::body::Bytes;

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};

use oware_rules::{Game, Position, Side};

use super::{parse_body, parse_position, parse_rules};
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::edge::cookie::{cookie_token, over_https, seat_cookie};
use crate::edge::forwarded::ClientAddr;
use crate::game::ids::valid_id;
use crate::game::model::{clean_name, GameMode, GameSetup, GameView, Seat};
use crate::play::room::Room;
use crate::store::record;

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
    /// Minutes per side on the clocks: any whole number from 1 to [`MAX_CLOCK_MINUTES`]; none or
    /// 0 for no clocks.
    #[serde(default)]
    clock: Option<u32>,
    /// Seconds added to a player's clock after each move (0 to 30).
    #[serde(default)]
    increment: Option<u32>,
    /// The creator's name.
    #[serde(default)]
    name: Option<String>,
    /// Days for each move (correspondence: 1, 2, 3 or 7), instead of a clock for the game.
    #[serde(default)]
    days: Option<u32>,
}

/// The days for each move a correspondence game may have.
const DAYS_PER_MOVE: [u32; 4] = [1, 2, 3, 7];

/// The longest clock a game may be created with, in minutes per side (three hours: longer games
/// are better played by correspondence, with days for each move).
const MAX_CLOCK_MINUTES: u32 = 180;

/// The largest increment, in seconds.
const MAX_INCREMENT: u32 = 30;

/// Where a request sits in a game: a player's side and token, or a watcher (both `None`). A
/// player of a friend game whose other seat is free is given the invitation's code to pass on.
#[derive(Serialize)]
struct Seated {
    id: String,
    token: Option<String>,
    side: Option<char>,
    #[serde(skip_serializing_if = "Option::is_none")]
    invite: Option<String>,
}

impl Seated {
    fn player(id: String, token: String, side: Side) -> Seated {
        Seated {
            id,
            token: Some(token),
            side: Some(side.letter()),
            invite: None,
        }
    }

    fn watcher(id: String) -> Seated {
        Seated {
            id,
            token: None,
            side: None,
            invite: None,
        }
    }

    fn with_invite(self, invite: Option<String>) -> Seated {
        Seated { invite, ..self }
    }
}

/// A name a request gives, cleaned (see [`clean_name`]), or a clear error.
fn parse_name(raw: Option<&str>) -> Result<Option<String>, ApiError> {
    clean_name(raw.unwrap_or("")).map_err(|e| ApiError::bad_request("bad-name", e.to_string()))
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

/// A seat in the JSON body and in the seat cookie (`Secure` when served over HTTPS).
fn seated_response(seated: Seated, secure: bool) -> Response {
    match &seated.token {
        Some(token) => ([seat_cookie(&seated.id, token, secure)], Json(seated)).into_response(),
        None => Json(seated).into_response(),
    }
}

pub(super) async fn create_game(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
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
    let rules = parse_rules(req.rules.as_deref())?;
    let name = parse_name(req.name.as_deref())?;
    let start = match req.position.as_deref() {
        None | Some("") => Position::start(),
        Some(p) => parse_position(p)?,
    };
    // A game must have a move to play: a position whose game is already over under these rules
    // (a store past 24, no move for the side to move) would open a finished game.
    if Game::from_position(start, rules).is_over() {
        return Err(ApiError::bad_request(
            "position-over",
            format!("the game is already over in {start} under these rules"),
        ));
    }
    let minute_ms = state.config.clock_minute.as_millis() as u64;
    let clock_ms = match req.clock.unwrap_or(0) {
        0 => None,
        minutes if minutes > MAX_CLOCK_MINUTES => {
            return Err(ApiError::bad_request(
                "bad-clock",
                format!(
                    "clocks give each side from 1 to {MAX_CLOCK_MINUTES} minutes, not {minutes}"
                ),
            ))
        }
        minutes => Some(u64::from(minutes) * minute_ms),
    };
    let increment_ms = match req.increment.unwrap_or(0) {
        0 => 0,
        _ if clock_ms.is_none() => {
            return Err(ApiError::bad_request(
                "bad-clock",
                "an increment needs a clock",
            ))
        }
        seconds if seconds > MAX_INCREMENT => {
            return Err(ApiError::bad_request(
                "bad-clock",
                format!("increments are at most {MAX_INCREMENT} seconds, not {seconds}"),
            ))
        }
        // A clock minute's sixtieth: a second, shortened with the minute in tests.
        seconds => u64::from(seconds) * minute_ms / 60,
    };
    let (clock_ms, per_move) = match req.days {
        None | Some(0) => (clock_ms, false),
        Some(_) if clock_ms.is_some() => {
            return Err(ApiError::bad_request(
                "bad-clock",
                "a game has a clock or days for each move, not both",
            ))
        }
        Some(days) if !DAYS_PER_MOVE.contains(&days) => {
            return Err(ApiError::bad_request(
                "bad-clock",
                format!("correspondence games give 1, 2, 3 or 7 days a move, not {days}"),
            ))
        }
        // A day is 1440 clock minutes (shortened with the minute in tests).
        Some(days) => (Some(u64::from(days) * 1440 * minute_ms), true),
    };
    let setup = GameSetup {
        mode,
        rules,
        start,
        clock_ms,
        increment_ms,
        per_move,
    };
    count_creation(&state, client)?;
    let (id, token, invite) = state.games.create(setup, side, name).await?;
    Ok(seated_response(
        Seated::player(id, token, side).with_invite(invite),
        over_https(&headers, state.config.public_url.as_deref()),
    ))
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct JoinRequest {
    /// A token the page already holds (from its storage or a private link).
    #[serde(default)]
    token: Option<String>,
    /// The invitation's code, from the friend link (`/game/ID#i=CODE`).
    #[serde(default)]
    invite: Option<String>,
    /// The name of a player taking a seat.
    #[serde(default)]
    name: Option<String>,
}

fn join_request(body: &Bytes) -> Result<JoinRequest, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        Ok(JoinRequest::default())
    } else {
        parse_body(body)
    }
}

/// The seat a request proves it holds in `room`: a token in its body (`{"token":..}`, from the
/// page's storage or a private link), else the seat cookie.
fn proven_seat(
    room: &Room,
    headers: &HeaderMap,
    body: &Bytes,
) -> Result<Option<(String, Side)>, ApiError> {
    Ok(seat_of(room, join_request(body)?.token, headers))
}

/// The seat of the first of `offered` (a token a request's body brings) and the seat cookie that
/// seats a player in `room`.
pub(super) fn seat_of(
    room: &Room,
    offered: Option<String>,
    headers: &HeaderMap,
) -> Option<(String, Side)> {
    [offered.filter(|t| valid_id(t)), cookie_token(headers)]
        .into_iter()
        .flatten()
        .find_map(|token| match room.seat(Some(&token)) {
            Seat::Player(side) => Some((token, side)),
            Seat::Watcher => None,
        })
}

/// Gives a player's seat back when the request proves it (a token in the body, from the page's
/// storage or a private "continue on another device" link, or else the seat cookie: a reload that
/// lost its storage, or the creator opening their own invitation), and sets the seat cookie;
/// otherwise takes the free side of a friend game for a request that brings the invitation's
/// code, or seats nobody (a watcher).
pub(super) async fn join_game(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let room = state.games.room(&id).await?;
    let secure = over_https(&headers, state.config.public_url.as_deref());
    if let Some((token, side)) = proven_seat(&room, &headers, &body)? {
        let invite = room.invitation(Some(&token));
        return Ok(seated_response(
            Seated::player(id, token, side).with_invite(invite),
            secure,
        ));
    }
    let req = join_request(&body)?;
    let name = parse_name(req.name.as_deref())?;
    let seated = match state.games.join(&room, req.invite.as_deref(), name).await? {
        Some((token, side)) => Seated::player(id, token, side),
        None => Seated::watcher(id),
    };
    Ok(seated_response(seated, secure))
}

/// A player's seat in the rematch of a finished game, the sides swapped: the first player to ask
/// makes it, the other finds it. The request proves the seat in the old game as a join does (a
/// token in the body, or the seat cookie).
pub(super) async fn rematch(
    State(state): State<Shared>,
    Extension(ClientAddr(client)): Extension<ClientAddr>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let room = state.games.room(&id).await?;
    let token = proven_seat(&room, &headers, &body)?.map(|(token, _)| token);
    // A new game counts like any other; finding the one the other player made does not.
    let view = room.view();
    if token.is_some() && view.end.is_some() && view.rematch.is_none() {
        count_creation(&state, client)?;
    }
    let (new_id, token, side) = state.games.rematch(&room, token.as_deref()).await?;
    Ok(seated_response(
        Seated::player(new_id, token, side),
        over_https(&headers, state.config.public_url.as_deref()),
    ))
}

/// A new invitation to a friend game, asked by one of its players (proven as a join proves a
/// seat): the old link seats nobody from now on, and a friend seated before the first move loses
/// the seat. Answers `{"invite": CODE}`.
pub(super) async fn reinvite(
    State(state): State<Shared>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<serde_json::Value>, ApiError> {
    let room = state.games.room(&id).await?;
    let token = proven_seat(&room, &headers, &body)?.map(|(token, _)| token);
    let invite = state.games.reinvite(&room, token.as_deref()).await?;
    Ok(Json(serde_json::json!({ "invite": invite })))
}

/// What the page needs to know of the server: the public address for friend links.
pub(super) async fn server_info(State(state): State<Shared>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "public_url": state.config.public_url,
        "mail": state.mailer.is_some(),
    }))
}

pub(super) async fn game_view(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(state.games.room(&id).await?.view()))
}

pub(super) async fn game_record(
    State(state): State<Shared>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let room = state.games.room(&id).await?;
    let view = room.view();
    let moves = oware_rules::parse_move_letters(&view.moves).unwrap_or_default();
    let game = Game::replay(room.setup.start, room.setup.rules, &moves)
        .map_err(|e| ApiError::bad_request("damaged", e.to_string()))?;
    let name = |side: Side| match room.setup.mode {
        GameMode::Computer { side: c, level } if c == side => format!("oware level {level}"),
        _ => view.names[side.index()]
            .clone()
            .unwrap_or_else(|| "Player".to_string()),
    };
    // A game the players or a clock ended (a resignation, an agreed draw, a flag) is unfinished
    // by the rules: its record gets that result, and a comment after the last move says how.
    let ended = room.ending().filter(|_| game.end().is_none());
    let text = record::write_record(
        &game,
        &record::RecordInfo {
            south: &name(Side::South),
            north: &name(Side::North),
            created: room.created,
            clock: room.setup.clock_ms.map(|ms| (ms, room.setup.increment_ms)),
            ended,
        },
    );
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

/// Counts a game `client` creates (a new game or a rematch) against its hourly limit, or refuses
/// it.
fn count_creation(state: &Shared, client: IpAddr) -> Result<(), ApiError> {
    if state.creations.allow(client, std::time::Instant::now()) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too-many-games",
        format!(
            "this address has created {} games in the last hour, the limit; wait a while",
            state.config.games_per_address
        ),
    ))
}
