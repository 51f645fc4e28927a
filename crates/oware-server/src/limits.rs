//! Fair shares for each address: the games it creates, the WebSockets one address may hold open, the analyses and
//! coach requests it may have running or waiting, the time a request's body may take, and a
//! clear close for a WebSocket message over the size limit.
//!
//! The server-wide bounds (`max_connections`, the engine pool's searches) keep the machine alive;
//! these keep one client from taking all of them: without them, one client that opens
//! `max_connections` sockets, or queues sixty analyses, locks every other player out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use axum::extract::Request;
use axum::http::StatusCode;
use futures_util::stream::SplitSink;
use futures_util::SinkExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::analysis::{Permit, PoolError};
use crate::api_error::ApiError;
use crate::app::Shared;

/// What each address holds (open sockets, analyses): at most `at_once` in use and `waiting` more
/// in line for a turn, each address with its own line.
pub struct PerAddress {
    at_once: usize,
    waiting: usize,
    held: Arc<Mutex<HashMap<IpAddr, Held>>>,
}

/// An address's count of shares and the turns they take.
struct Held {
    count: usize,
    turns: Arc<Semaphore>,
}

/// One of an address's shares; given back when dropped.
pub struct AddressShare {
    held: Arc<Mutex<HashMap<IpAddr, Held>>>,
    address: IpAddr,
    turns: Arc<Semaphore>,
}

impl PerAddress {
    /// Each address may hold `at_once` shares in use (at least one) and `waiting` more in line.
    pub fn new(at_once: usize, waiting: usize) -> PerAddress {
        PerAddress {
            at_once: at_once.max(1),
            waiting,
            held: Default::default(),
        }
    }

    /// One more share for `address`, unless it holds all it may already.
    pub fn take(&self, address: IpAddr) -> Option<AddressShare> {
        let mut held = lock(&self.held);
        let entry = held.entry(address).or_insert_with(|| Held {
            count: 0,
            turns: Arc::new(Semaphore::new(self.at_once)),
        });
        if entry.count >= self.at_once + self.waiting {
            return None;
        }
        entry.count += 1;
        Some(AddressShare {
            held: self.held.clone(),
            address,
            turns: entry.turns.clone(),
        })
    }

    /// The shares `address` holds now, in use or waiting.
    pub fn held(&self, address: IpAddr) -> usize {
        lock(&self.held).get(&address).map_or(0, |h| h.count)
    }
}

impl AddressShare {
    /// Waits for one of the address's turns (its shares get them in the order they asked).
    pub async fn turn(&self) -> OwnedSemaphorePermit {
        self.turns
            .clone()
            .acquire_owned()
            .await
            .expect("an address's turns are never closed")
    }
}

impl Drop for AddressShare {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        if let Some(entry) = held.get_mut(&self.address) {
            entry.count -= 1;
            // Addresses holding nothing are forgotten, so the map stays as small as what is open.
            if entry.count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The per-address limits the server keeps.
pub struct AddressLimits {
    /// Open WebSockets.
    pub sockets: PerAddress,
    /// Analysis and coach requests running or waiting for an engine.
    pub analyses: PerAddress,
}

impl AddressLimits {
    /// Limits with the caps the configuration gives.
    pub fn new(config: &crate::Config) -> AddressLimits {
        AddressLimits {
            sockets: PerAddress::new(config.sockets_per_address, 0),
            analyses: PerAddress::new(
                config.analyses_per_address,
                config.analyses_waiting_per_address,
            ),
        }
    }
}

/// The right to run one analysis or coach search for `client`: its address's share, its turn
/// among that address's requests (at most `analyses_per_address` at once, in the order they came),
/// then a search slot of the engine pool; all waited for at most `patience` together. An address
/// with its share all running or waiting is answered 429 at once, with `Retry-After`. The pool
/// serves the requests that reach it in turn, so each address waits behind at most a few of any
/// other's. Keep the answer while the search runs.
pub async fn analysis_permit(
    state: &Shared,
    client: IpAddr,
    patience: Duration,
) -> Result<(AnalysisTurn, Permit), ApiError> {
    let share = state.per_address.analyses.take(client).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many-analyses",
            format!(
                "this address has {} analyses running or waiting, the limit; wait for their answers",
                state.config.analyses_per_address.max(1) + state.config.analyses_waiting_per_address
            ),
        )
        .retry_after(state.config.analysis_time.as_secs().max(1))
    })?;
    let busy = |e: PoolError| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", e.to_string());
    let deadline = tokio::time::Instant::now() + patience;
    let turn = tokio::time::timeout_at(deadline, share.turn())
        .await
        .map_err(|_| busy(PoolError::Busy))?;
    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
    let permit = state.engines.acquire_within(left).await.map_err(busy)?;
    Ok((
        AnalysisTurn {
            _share: share,
            _turn: turn,
        },
        permit,
    ))
}

/// An address's share and turn for one analysis, given back when dropped.
pub struct AnalysisTurn {
    _share: AddressShare,
    _turn: OwnedSemaphorePermit,
}

/// Counts a game `client` creates (a new game or a rematch) against its hourly limit, or refuses
/// it.
pub fn count_creation(state: &Shared, client: IpAddr) -> Result<(), ApiError> {
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

/// The refusal of a WebSocket over its address's share of connections.
pub fn too_many_sockets(state: &Shared) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too-many-sockets",
        format!(
            "this address has {} connections open, the limit; close some pages",
            state.config.sockets_per_address.max(1)
        ),
    )
}

/// The request with its whole body read, if it arrives within `timeout` and fits the API's limit
/// on bodies; a client that stops sending halfway gets 408 instead of holding the connection.
pub async fn read_body_within(request: Request, timeout: Duration) -> Result<Request, ApiError> {
    let (parts, body) = request.into_parts();
    let limit = crate::routes::MAX_BODY;
    match tokio::time::timeout(timeout, axum::body::to_bytes(body, limit)).await {
        Ok(Ok(bytes)) => Ok(Request::from_parts(parts, Body::from(bytes))),
        Ok(Err(_)) => Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too-large",
            format!("the request's body is over {limit} bytes, or broke off"),
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "slow-request",
            format!(
                "the request's body took over {} ms to arrive",
                timeout.as_millis()
            ),
        )),
    }
}

/// Whether a WebSocket read failed on a message over the size limit (answered with close code
/// 1009, "message too big", rather than a dropped connection).
pub fn message_too_big(error: &axum::Error) -> bool {
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
pub const CLOSE_TOO_BIG: u16 = 1009;

/// How long the server waits, having said "message too big", before it lets the socket go.
const CLOSE_LINGER: Duration = Duration::from_millis(200);

/// Closes a WebSocket whose client sent a message over the size limit, with code 1009 and a
/// reason. The rest of that message is still unread: closing the socket at once would reset the
/// connection, and a reset can discard the close frame before it reaches the client, which then
/// sees a dropped connection instead of the reason. A short linger lets the frame go first.
pub async fn close_too_big(sink: &mut SplitSink<WebSocket, Message>) {
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
    fn each_address_holds_its_cap_and_gets_shares_back() {
        let limit = PerAddress::new(2, 0);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = limit.take(a).unwrap();
        let _second = limit.take(a).unwrap();
        assert!(limit.take(a).is_none(), "a third share");
        assert!(limit.take(b).is_some(), "another address is not held back");
        drop(first);
        assert_eq!(limit.held(a), 1);
        assert!(
            limit.take(a).is_some(),
            "a share given back can be taken again"
        );
        assert_eq!(limit.held(b), 0, "b's share was dropped at once");
    }

    use futures_util::FutureExt;

    #[tokio::test]
    async fn shares_past_the_first_wait_in_line_for_a_turn() {
        let limit = PerAddress::new(1, 1);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let (first, second) = (limit.take(a).unwrap(), limit.take(a).unwrap());
        assert!(limit.take(a).is_none(), "one at once, one waiting");
        let turn = first.turn().await;
        let waiting = second.turn();
        tokio::pin!(waiting);
        assert!(
            waiting.as_mut().now_or_never().is_none(),
            "the second waits while the first has the turn"
        );
        drop(turn);
        let _turn = waiting.await;
    }

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
