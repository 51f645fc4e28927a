//! The server's edge: what every request passes through before a handler sees it, and every
//! response on its way out.
//!
//! - The client's address ([`ClientAddr`]), the forwarding headers of untrusted peers removed
//!   (see [`crate::forwarded`]).
//! - Cross-site requests: a request that can change something (any method but GET, HEAD, OPTIONS)
//!   and every WebSocket handshake are refused with 403 when their `Origin` is not the server's
//!   own: the address the browser used (the `Host` header) or the public address
//!   (`--public-url`). Requests without `Origin` (curl, scripts) pass: browsers always send it on
//!   the requests another site could forge, and such tools hold no one's cookies.
//! - Bodies: a body must be JSON, said so by `Content-Type: application/json` (415 otherwise:
//!   a foreign page's `text/plain` form post is not read), and must arrive within the read
//!   timeout (408), so that a client that stops halfway does not hold the connection.
//! - Headers on every response: a Content-Security-Policy that lets the page load only the
//!   server's own scripts, styles, images and connections (no inline script or style, no
//!   framing), `nosniff`, `Referrer-Policy: same-origin`, and HSTS when the public address is
//!   `https://`.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::api_error::ApiError;
use crate::app::Shared;
use crate::forwarded::{self, ClientAddr};

/// What the page may load: its own scripts, styles, images and connections (WebSockets to the
/// same host included: CSP Level 3's `'self'` covers `ws:` and `wss:`), nothing inline, no
/// plugins, and no page may frame it (a framed game page would let another site trick a click on
/// "resign").
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// HSTS's duration: a year, as browsers' preload lists expect.
const HSTS: &str = "max-age=31536000";

/// The middleware every request goes through (see the module's documentation).
pub async fn edge(State(state): State<Shared>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    let trusted = &state.config.trusted_proxies;
    forwarded::drop_untrusted_headers(peer, request.headers_mut(), trusted);
    let client = forwarded::client_address(peer, request.headers(), trusted);
    request.extensions_mut().insert(ClientAddr(client));
    let mut response = match screen(&state, request).await {
        Ok(request) => next.run(request).await,
        Err(refusal) => refusal.into_response(),
    };
    add_headers(response.headers_mut(), state.config.public_url.as_deref());
    response
}

/// The request, its body read, if it may go on to its handler.
async fn screen(state: &Shared, request: Request) -> Result<Request, ApiError> {
    let unsafe_method = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if unsafe_method || is_websocket_handshake(request.headers()) {
        check_origin(request.headers(), state.config.public_url.as_deref())?;
    }
    if !unsafe_method || !has_body(request.headers()) {
        return Ok(request);
    }
    if !is_json(request.headers()) {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "not-json",
            "send the request's body as JSON, with Content-Type: application/json",
        ));
    }
    crate::limits::read_body_within(request, state.config.request_read_timeout).await
}

fn is_websocket_handshake(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

fn has_body(headers: &HeaderMap) -> bool {
    headers.contains_key(header::TRANSFER_ENCODING)
        || headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim() != "0")
}

/// Whether the body is declared JSON (`application/json`, parameters such as a charset allowed).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}

/// Refuses a request whose `Origin` is neither the address it was sent to nor the public one.
fn check_origin(headers: &HeaderMap, public_url: Option<&str>) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or("");
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    if is_own_origin(origin, host, public_url) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::FORBIDDEN,
        "foreign-origin",
        format!(
            "requests from other sites are refused: {:?} is not this server's address",
            origin.chars().take(100).collect::<String>()
        ),
    ))
}

/// An origin as compared: the scheme, the host in lower case and the port (the scheme's default
/// when none is written).
#[derive(Debug, PartialEq, Eq)]
struct Origin {
    scheme: &'static str,
    host: String,
    port: u16,
}

impl Origin {
    /// Reads `scheme://host[:port]` (anything after the host and port, such as the path of a
    /// public address, is left out). Only `http` and `https` origins can be the server's.
    fn parse(text: &str) -> Option<Origin> {
        let (scheme, rest) = text.split_once("://")?;
        let scheme = match scheme.to_ascii_lowercase().as_str() {
            "http" => "http",
            "https" => "https",
            _ => return None,
        };
        let authority = rest.split(['/', '?', '#']).next()?;
        let (host, port) = split_authority(authority)?;
        Some(Origin {
            scheme,
            host,
            port: port.unwrap_or(default_port(scheme)),
        })
    }
}

fn default_port(scheme: &str) -> u16 {
    if scheme == "https" {
        443
    } else {
        80
    }
}

/// `host[:port]` (an IPv6 host in brackets) as the lower-case host and the port, if written.
fn split_authority(authority: &str) -> Option<(String, Option<u16>)> {
    if authority.is_empty() || authority.contains('@') {
        return None;
    }
    let (host, port) = match authority.rfind(':') {
        Some(i) if !authority[i..].contains(']') => (&authority[..i], Some(&authority[i + 1..])),
        _ => (authority, None),
    };
    let port = match port {
        None => None,
        Some(p) => Some(p.parse::<u16>().ok()?),
    };
    (!host.is_empty()).then(|| (host.to_ascii_lowercase(), port))
}

/// Whether `origin` is the server's own: the public address's origin exactly, or the host and
/// port the request was sent to (the `Host` header). The scheme is not compared with the `Host`
/// header's, which does not say it: behind a proxy that terminates HTTPS the page is `https://`
/// while the server hears plain HTTP, and the same host and port is the same server either way.
fn is_own_origin(origin: &str, host: Option<&str>, public_url: Option<&str>) -> bool {
    let Some(origin) = Origin::parse(origin) else {
        return false;
    };
    if public_url.and_then(Origin::parse).as_ref() == Some(&origin) {
        return true;
    }
    host.and_then(split_authority).is_some_and(|(host, port)| {
        host == origin.host && port.unwrap_or(default_port(origin.scheme)) == origin.port
    })
}

/// The security headers every response carries.
fn add_headers(headers: &mut HeaderMap, public_url: Option<&str>) {
    let fixed = [
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        // For browsers older than `frame-ancestors`.
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ),
    ];
    for (name, value) in fixed {
        headers.insert(name, value);
    }
    if public_url.is_some_and(|u| u.starts_with("https://")) {
        headers.insert(
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_origins_are_the_host_and_the_public_address() {
        let host = Some("127.0.0.1:8080");
        assert!(is_own_origin("http://127.0.0.1:8080", host, None));
        // Behind a proxy that terminates HTTPS and passes the Host header on.
        assert!(is_own_origin(
            "https://oware.example.org",
            Some("oware.example.org"),
            None
        ));
        assert!(is_own_origin(
            "http://Oware.Example.org:80",
            Some("oware.example.org"),
            None
        ));
        assert!(is_own_origin("http://[::1]:8080", Some("[::1]:8080"), None));
        // A proxy that rewrites Host: the public address.
        let public = Some("https://oware.example.org/");
        assert!(is_own_origin("https://oware.example.org", host, public));
        assert!(is_own_origin("https://oware.example.org:443", host, public));
        for foreign in [
            "https://evil.example",
            "http://127.0.0.1:8081",
            "http://127.0.0.1",
            "null",
            "",
            "file://",
            "http://oware.example.org",
            "https://oware.example.org.evil.example",
            "https://user@oware.example.org",
        ] {
            assert!(!is_own_origin(foreign, host, public), "{foreign}");
        }
        assert!(!is_own_origin("http://127.0.0.1:8080", None, None));
    }

    #[test]
    fn json_is_told_by_its_content_type() {
        let mut h = HeaderMap::new();
        assert!(!is_json(&h));
        for (value, json) in [
            ("application/json", true),
            ("Application/JSON; charset=utf-8", true),
            ("text/plain", false),
            ("application/x-www-form-urlencoded", false),
            ("application/jsonx", false),
        ] {
            h.insert(header::CONTENT_TYPE, value.parse().unwrap());
            assert_eq!(is_json(&h), json, "{value}");
        }
    }
}
