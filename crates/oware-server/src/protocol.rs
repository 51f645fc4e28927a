//! The WebSocket protocol: JSON messages, one per text frame.
//!
//! Client to server: `{"type":"move","move":"F","ply":12}` (`ply`, the number of moves the client
//! saw, is optional but lets the server refuse a move meant for an older position),
//! `{"type":"undo"}`, `{"type":"ping"}`.
//!
//! Server to client: `{"type":"welcome","you":"S"|"N"|null}` once, then
//! `{"type":"state","game":{...}}` after every change, `{"type":"error","code":..,"message":..}`
//! for a refused request, `{"type":"pong"}`.

use serde::{Deserialize, Serialize};

use crate::games::GameView;

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

/// A per-connection message budget (a token bucket): `rate` messages a second on average, bursts
/// of up to `burst`. A client over it gets an error for each message dropped; one that keeps on
/// is disconnected (see [`RateLimit::should_disconnect`]).
#[derive(Debug, Clone)]
pub struct RateLimit {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: std::time::Instant,
    /// Messages dropped since the last one accepted.
    dropped_in_a_row: u32,
}

/// Dropped messages in a row after which a connection is closed: no honest page sends that many.
pub const MAX_DROPPED_IN_A_ROW: u32 = 50;

impl RateLimit {
    pub fn new(rate: u32, now: std::time::Instant) -> RateLimit {
        let rate = f64::from(rate.max(1));
        RateLimit {
            rate,
            burst: rate * 2.0,
            tokens: rate * 2.0,
            last: now,
            dropped_in_a_row: 0,
        }
    }

    /// Whether a message arriving at `now` may be handled.
    pub fn allow(&mut self, now: std::time::Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.dropped_in_a_row = 0;
            true
        } else {
            self.dropped_in_a_row += 1;
            false
        }
    }

    pub fn should_disconnect(&self) -> bool {
        self.dropped_in_a_row >= MAX_DROPPED_IN_A_ROW
    }
}

#[cfg(test)]
mod rate_tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn bursts_then_the_rate_then_disconnect() {
        let t0 = Instant::now();
        let mut limit = RateLimit::new(5, t0);
        let allowed = (0..30).filter(|_| limit.allow(t0)).count();
        assert_eq!(allowed, 10, "a burst of twice the rate");
        assert!(!limit.should_disconnect());
        // One second later, five more.
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!((0..30).filter(|_| limit.allow(t1)).count(), 5);
        assert!(!limit.should_disconnect(), "the 5 accepted reset the count");
        assert_eq!((0..25).filter(|_| limit.allow(t1)).count(), 0);
        assert!(limit.should_disconnect(), "25 + 25 dropped in a row");
        // An accepted message resets the count.
        assert!(limit.allow(t1 + Duration::from_secs(1)));
        assert!(!limit.should_disconnect());
    }
}
