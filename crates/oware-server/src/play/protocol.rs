//! The WebSocket protocol: JSON messages, one per text frame.
//!
//! Client to server: `{"type":"move","move":"F","ply":12}` (`ply`, the number of moves the client
//! saw, is optional but lets the server refuse a move meant for an older position),
//! `{"type":"undo"}` (against the computer), `{"type":"resign"}`, `{"type":"abort"}` (before the
//! player's first move: the game ends with no result),
//! `{"type":"offer","what":"draw"|"takeback"}` and `{"type":"answer","accept":true|false}` (between
//! friends; the one who offered withdraws with either answer),
//! `{"type":"say","what":"good-luck"|"your-move"|"well-played"|"thank-you"|"good-game"}` (a quick
//! message to the other friend), `{"type":"ping"}`, and
//! `{"type":"seat","token":".."}` (a player's token, from a client that cannot send the seat
//! cookie; tokens are never put in the WebSocket's address).
//!
//! Server to client: `{"type":"welcome","you":"S"|"N"|null}` on connecting (and again after a
//! `seat` message), then
//! `{"type":"state","game":{...}}` after every change, `{"type":"said","by":"S"|"N","what":..}`
//! for a quick message (to everyone connected, its sender too),
//! `{"type":"error","code":..,"message":..}` for a refused request, `{"type":"pong"}`.

use serde::{Deserialize, Serialize};

use crate::game::model::GameView;

/// The largest message a client may send; anything longer is refused with an error.
pub const MAX_CLIENT_MESSAGE: usize = 1024;

/// A message from a client, as the module's documentation lists them.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    /// Play a move.
    Move {
        /// The move's letter.
        #[serde(rename = "move")]
        mv: String,
        /// The number of moves the client saw, so that a move meant for an older position is
        /// refused.
        #[serde(default)]
        ply: Option<usize>,
    },
    /// Take back the player's last move and the computer's answer (against the computer).
    Undo,
    /// Resign the game.
    Resign,
    /// Call the game off before one's first move.
    Abort,
    /// Offer the other player something (between friends).
    Offer {
        /// `draw` or `takeback`.
        what: String,
    },
    /// Answer the other player's offer, or withdraw one's own.
    Answer {
        /// Whether the offer is accepted.
        accept: bool,
    },
    /// A quick message to the other player (between friends).
    Say {
        /// The message's code (see [`crate::game::model::QuickMessage`]).
        what: String,
    },
    /// Keep the connection alive; answered with [`ServerMessage::Pong`].
    Ping,
    /// Take a seat by its token, for a client that cannot send the seat cookie; answered with a
    /// new [`ServerMessage::Welcome`] naming the side, or an error if the token seats nobody.
    Seat {
        /// The player's token.
        token: String,
    },
}

/// A message to a client.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    /// Sent once on connecting: the side the client plays, or none for a watcher.
    Welcome {
        /// `S`, `N` or none.
        you: Option<char>,
    },
    /// The whole game, after every change.
    State {
        /// The game as every client sees it.
        game: Box<GameView>,
    },
    /// A player's quick message.
    Said {
        /// `S` or `N`: who sent it.
        by: char,
        /// The message's code.
        what: &'static str,
    },
    /// A request was refused.
    Error {
        /// A short machine-readable reason.
        code: String,
        /// What went wrong, for people.
        message: String,
    },
    /// The answer to [`ClientMessage::Ping`].
    Pong,
}

impl ServerMessage {
    /// An error message with `code` and `message`.
    pub fn error(code: &str, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code: code.to_string(),
            message: message.into(),
        }
    }

    /// The message as the JSON text of one WebSocket frame.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("server messages always serialise")
    }
}

/// Parses a client message, or says what is wrong with it as an error message to send back.
pub fn parse_client_message(text: &str) -> Result<ClientMessage, ServerMessage> {
    if text.len() > MAX_CLIENT_MESSAGE {
        return Err(ServerMessage::error(
            "too-large",
            format!(
                "messages are at most {MAX_CLIENT_MESSAGE} bytes, this one has {}",
                text.len()
            ),
        ));
    }
    serde_json::from_str(text).map_err(|e| {
        ServerMessage::error(
            "bad-message",
            format!(
                "not a valid message ({e}); expected e.g. {{\"type\":\"move\",\"move\":\"F\"}}"
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_moves_and_rejects_junk() {
        assert_eq!(
            parse_client_message(r#"{"type":"move","move":"F","ply":3}"#).unwrap(),
            ClientMessage::Move {
                mv: "F".into(),
                ply: Some(3)
            }
        );
        assert_eq!(
            parse_client_message(r#"{"type":"undo"}"#).unwrap(),
            ClientMessage::Undo
        );
        for junk in [
            "",
            "{",
            "[]",
            r#"{"type":"fly"}"#,
            r#"{"type":"move"}"#,
            "null",
        ] {
            assert!(parse_client_message(junk).is_err(), "{junk:?}");
        }
        let big = format!(r#"{{"type":"move","move":"{}"}}"#, "F".repeat(2000));
        match parse_client_message(&big) {
            Err(ServerMessage::Error { code, .. }) => assert_eq!(code, "too-large"),
            other => panic!("{other:?}"),
        }
    }
}
