//! Request bodies: the largest the API reads, and the time one may take to arrive.

use std::time::Duration;

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;

use crate::api_error::ApiError;

/// The largest request body the API reads.
pub(crate) const MAX_BODY: usize = 80 * 1024;

/// The request with its whole body read, if it arrives within `timeout` and fits the API's limit
/// on bodies; a client that stops sending halfway gets 408 instead of holding the connection.
pub async fn read_body_within(request: Request, timeout: Duration) -> Result<Request, ApiError> {
    let (parts, body) = request.into_parts();
    let limit = MAX_BODY;
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
