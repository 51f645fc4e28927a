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

use crate::analysis::Permit;
use crate::api_error::ApiError;
use crate::app::Shared;

/// A count of what each address holds (open sockets, analyses), with a cap.
pub struct PerAddress {
    cap: usize,
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One of an address's shares; given back when dropped.
pub struct AddressShare {
    held: Arc<Mutex<HashMap<IpAddr, usize>>>,
    address: IpAddr,
}

impl PerAddress {
    /// Each address may hold `cap` shares at once (at least one).
    pub fn new(cap: usize) -> PerAddress {
        PerAddress {
            cap: cap.max(1),
            held: Default::default(),
        }
    }

    /// One more share for `address`, unless it holds its cap already.
    pub fn take(&self, address: IpAddr) -> Option<AddressShare> {
        let mut held = lock(&self.held);
        let count = held.entry(address).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(AddressShare {
            held: self.held.clone(),
            address,
        })
    }

    /// The shares `address` holds now.
    pub fn held(&self, address: IpAddr) -> usize {
        lock(&self.held).get(&address).copied().unwrap_or(0)
    }
}

impl Drop for AddressShare {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        if let Some(count) = held.get_mut(&self.address) {
            *count -= 1;
            // Addresses holding nothing are forgotten, so the map stays as small as what is open.
            if *count == 0 {
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
            sockets: PerAddress::new(config.sockets_per_address),
            analyses: PerAddress::new(config.analyses_per_address),
        }
    }
}

/// The right to run one analysis or coach search for `client`: a share of the client's
/// analyses, then a search slot of the engine pool, waited for at most `patience`. An address
/// with its analyses all running or waiting is answered 429 at once, with `Retry-After`; the pool
/// serves the waiting requests in turn, so each address waits behind at most a few of any
/// other's. Keep both while the search runs.
pub async fn analysis_permit(
    state: &Shared,
    client: IpAddr,
    patience: Duration,
) -> Result<(AddressShare, Permit), ApiError> {
    let share = state.per_address.analyses.take(client).ok_or_else(|| {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many-analyses",
            format!(
                "this address has {} analyses running or waiting, the limit; wait for their answers",
                state.config.analyses_per_address.max(1)
            ),
        )
        .retry_after(state.config.analysis_time.as_secs().max(1))
    })?;
    let permit = state
        .engines
        .acquire_within(patience)
        .await
        .map_err(|e| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", e.to_string()))?;
    Ok((share, permit))
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
        let limit = PerAddress::new(2);
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
