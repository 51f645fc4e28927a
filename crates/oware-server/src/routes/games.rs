//! The games API: create a game, take a seat, see a game, download its record.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};

use oware_rules::{Game, Position, Side};

use super::{parse_body, parse_position, parse_rules};
use crate::api_error::ApiError;
use crate::app::Shared;
use crate::cookie::{cookie_token, seat_cookie};
use crate::ids::valid_id;
use crate::model::{side_letter, GameMode, GameSetup, GameView, Seat};
use crate::record;

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

/// A seat in the JSON body and in the seat cookie.
fn seated_response(seated: Seated) -> Response {
    match &seated.token {
        Some(token) => ([seat_cookie(&seated.id, token)], Json(seated)).into_response(),
        None => Json(seated).into_response(),
    }
}

pub(super) async fn create_game(
    State(state): State<Shared>,
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
    let start = match req.position.as_deref() {
        None | Some("") => Position::start(),
        Some(p) => parse_position(p)?,
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
    let (id, token) = state.games.create(setup, side).await?;
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
pub(super) async fn join_game(
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
    let room = state.games.room(&id).await?;
    let offered = req.token.filter(|t| valid_id(t));
    for token in [offered, cookie_token(&headers)].into_iter().flatten() {
        if let Seat::Player(side) = room.seat(Some(&token)) {
            return Ok(seated_response(Seated {
                id,
                token: Some(token),
                side: Some(side_letter(side)),
            }));
        }
    }
    let seat = state.games.join(&room).await?;
    Ok(seated_response(Seated {
        id,
        token: seat.as_ref().map(|(t, _)| t.clone()),
        side: seat.map(|(_, s)| side_letter(s)),
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
