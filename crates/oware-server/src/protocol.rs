//! The WebSocket protocol: JSON messages, one per text frame.
//!
//! Client to server: `{"type":"move","move":"F","ply":12}` (`ply`, the number of moves the client
//! saw, is optional but lets the server refuse a move meant for an older position),
//! `{"type":"undo"}` (against the computer), `{"type":"resign"}`,
//! `{"type":"offer","what":"draw"|"takeback"}` and `{"type":"answer","accept":true|false}` (between
//! friends; the one who offered withdraws with either answer), `{"type":"ping"}`.
//!
//! Server to client: `{"type":"welcome","you":"S"|"N"|null}` once, then
//! `{"type":"state","game":{...}}` after every change, `{"type":"error","code":..,"message":..}`
//! for a refused request, `{"type":"pong"}`.

use serde::{Deserialize, Serialize};

use crate::model::GameView;

/// The largest message a client may send; anything longer is refused with an error.
pub const MAX_CLIENT_MESSAGE: usize = 1024;

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum ClientMessage {
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        ply: Option<usize>,
    },
    Undo,
    Resign,
    Offer {
        what: String,
    },
    Answer {
        accept: bool,
    },
    Ping,
}

#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMessage {
    Welcome { you: Option<char> },
    State { game: Box<GameView> },
    Error { code: String, message: String },
    Pong,
}

impl ServerMessage {
    pub fn error(code: &str, message: impl Into<String>) -> ServerMessage {
        ServerMessage::Error {
            code: code.to_string(),
            message: message.into(),
        }
    }

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
