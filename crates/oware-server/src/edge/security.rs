//! The server's edge: what every request passes through before a handler sees it, and every
//! response on its way out.
//!
//! - The client's address ([`ClientAddr`]), the forwarding headers of untrusted peers removed
//!   (see [`crate::edge::forwarded`]).
//! - Hosts: a request must name the server by an address it serves (the `Host` header, or the
//!   authority of an absolute request URI): an IP address, `localhost`, the public address's host
//!   (`--public-url`) or a name allowed by `--allowed-host`. Any other is answered 421, in the
//!   reader's language: a page on another site whose name is made to resolve to this server (DNS
//!   rebinding) must not be able to talk to it as if it were its own origin.
//! - Cross-site requests: a request that can change something (any method but GET, HEAD, OPTIONS)
//!   and every WebSocket handshake are refused with 403 when their `Origin` is not the server's
//!   own: the address the browser used (the `Host` header) or the public address
//!   (`--public-url`). Requests without `Origin` (curl, scripts) pass: browsers always send it on
//!   the requests another site could forge, and such tools hold no one's cookies. The one
//!   exception is the one-click unsubscribe of the mails ([`ONE_CLICK_UNSUBSCRIBE`]): a mail
//!   client posts it from its own origin, with a form body (RFC 8058), and the secret token in its
//!   address is the proof; it changes nothing but that address's subscription.
//! - Bodies: a body must be JSON, said so by `Content-Type: application/json` (415 otherwise:
//!   a foreign page's `text/plain` form post is not read), and must arrive within the read
//!   timeout (408), so that a client that stops halfway does not hold the connection.
//! - Headers on every response: a Content-Security-Policy that lets the page load only the
//!   server's own scripts, styles, images and connections (no inline script or style, no
//!   framing), `nosniff`, `Referrer-Policy: same-origin`, and HSTS when the public address is
//!   `https://`. The errors that the HTTP layer writes itself, for a request it cannot read (400,
//!   414, 431), get the same headers on their way out (see [`crate::edge::accept`]).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use oware_coach::Lang;

use crate::api_error::ApiError;
use crate::config::Config;
use crate::edge::forwarded::{self, ClientAddr};

/// What the page may load: its own scripts, styles, images and connections (WebSockets to the
/// same host included: CSP Level 3's `'self'` covers `ws:` and `wss:`), nothing inline, no
/// plugins, and no page may frame it (a framed game page would let another site trick a click on
/// "resign").
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; manifest-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The address of the mails' one-click unsubscribe, which passes the Origin and JSON checks.
pub const ONE_CLICK_UNSUBSCRIBE: &str = "/api/email/unsubscribe";

/// HSTS's duration: a year, as browsers' preload lists expect.
const HSTS: &str = "max-age=31536000";

/// The middleware every request goes through (see the module's documentation).
pub async fn edge(State(config): State<Arc<Config>>, mut request: Request, next: Next) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0.ip());
    let trusted = &config.trusted_proxies;
    forwarded::drop_untrusted_headers(peer, request.headers_mut(), trusted);
    let client = forwarded::client_address(peer, request.headers(), trusted);
    request.extensions_mut().insert(ClientAddr(client));
    let mut response = match misdirected(&config, &request) {
        Some(refusal) => refusal,
        None => match screen(&config, request).await {
            Ok(request) => next.run(request).await,
            Err(refusal) => refusal.into_response(),
        },
    };
    for (name, value) in security_headers(config.public_url.as_deref()) {
        response.headers_mut().insert(name, value);
    }
    response
}

/// The refusal of a request that names another host than this server's (see the module's
/// documentation), or `None` when it names this one.
fn misdirected(config: &Config, request: &Request) -> Option<Response> {
    let named = request.uri().authority().map(|a| a.as_str()).or_else(|| {
        request
            .headers()
            .get(header::HOST)
            .map(|h| h.to_str().unwrap_or("\u{fffd}"))
    });
    // A request without a host (HTTP/1.0) comes from no browser: rebinding needs one.
    let host = named?;
    if is_own_host(host, config.public_url.as_deref(), &config.allowed_hosts) {
        return None;
    }
    let lang = request_language(request.headers());
    let shown: String = host.chars().take(60).collect();
    let message = unknown_host_message(lang, &shown);
    let wants_page = request
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"));
    let mut response = if wants_page {
        let page = format!(
            "<!doctype html><html lang=\"{}\"><meta charset=\"utf-8\"><title>Oware</title><p>{}</p></html>\n",
            lang.code(),
            escape_html(&message)
        );
        ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response()
    } else {
        ApiError::new(StatusCode::MISDIRECTED_REQUEST, "unknown-host", message).into_response()
    };
    *response.status_mut() = StatusCode::MISDIRECTED_REQUEST;
    Some(response)
}

/// The reader's language, as the request's `Accept-Language` says it (see [`language_of`]).
pub(crate) fn request_language(headers: &HeaderMap) -> Lang {
    headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok())
        .map_or(Lang::En, language_of)
}

/// The first of the reader's languages (an `Accept-Language` header, in its order of preference)
/// that the app speaks; English when none is.
fn language_of(accept_language: &str) -> Lang {
    accept_language
        .split(',')
        .filter_map(|item| Lang::from_locale(item.split(';').next()?.trim()))
        .next()
        .unwrap_or_default()
}

/// Why a host is refused, and the way out, in `lang`.
fn unknown_host_message(lang: Lang, host: &str) -> String {
    match lang {
        Lang::Ca => format!("Aquest servidor no respon al nom {host:?}. Obre'l a la seva adreça IP (com ara http://127.0.0.1:8080) o a la seva adreça pública, o engega'l amb --allowed-host {host}."),
        Lang::Es => format!("Este servidor no responde al nombre {host:?}. Ábrelo en su dirección IP (como http://127.0.0.1:8080) o en su dirección pública, o inícialo con --allowed-host {host}."),
        Lang::En => format!("This server does not answer to the name {host:?}. Open it at its IP address (such as http://127.0.0.1:8080) or its public address, or start it with --allowed-host {host}."),
        Lang::Fr => format!("Ce serveur ne répond pas au nom {host:?}. Ouvrez-le à son adresse IP (comme http://127.0.0.1:8080) ou à son adresse publique, ou démarrez-le avec --allowed-host {host}."),
    }
}

fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Whether `authority` (`host[:port]`) names this server: an IP address, `localhost` or a name
/// under it (RFC 6761 keeps them on this machine), the public address's host, or an allowed name
/// (compared without case, and without a final dot).
fn is_own_host(authority: &str, public_url: Option<&str>, allowed: &[String]) -> bool {
    let Some((host, _)) = split_authority(authority) else {
        return false;
    };
    let host = host.strip_suffix('.').unwrap_or(&host);
    let bare = host
        .strip_prefix('[')
        .and_then(|h| h.strip_suffix(']'))
        .unwrap_or(host);
    if bare.parse::<IpAddr>().is_ok() || host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    if public_url
        .and_then(Origin::parse)
        .is_some_and(|o| o.host == host)
    {
        return true;
    }
    allowed.iter().any(|a| {
        let a = a.strip_suffix('.').unwrap_or(a);
        a.eq_ignore_ascii_case(host)
    })
}

/// The request, its body read, if it may go on to its handler.
async fn screen(config: &Config, request: Request) -> Result<Request, ApiError> {
    let unsafe_method = !matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    );
    if request.uri().path() == ONE_CLICK_UNSUBSCRIBE {
        // Its handler reads no body and no cookie.
        return Ok(request);
    }
    if unsafe_method || is_websocket_handshake(request.headers()) {
        check_origin(request.headers(), config.public_url.as_deref())?;
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
    crate::edge::body::read_body_within(request, config.request_read_timeout).await
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
pub fn security_headers(public_url: Option<&str>) -> Vec<(header::HeaderName, HeaderValue)> {
    let mut headers = vec![
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
    if public_url.is_some_and(|u| u.starts_with("https://")) {
        headers.push((
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(HSTS),
        ));
    }
    headers
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
    fn own_hosts_are_addresses_localhost_the_public_one_and_the_allowed() {
        let public = Some("https://oware.example.org");
        let allowed = ["family-pc.local".to_string()];
        for own in [
            "127.0.0.1:8080",
            "192.168.1.20:8080",
            "[::1]:8080",
            "[fe80::1]",
            "localhost:8080",
            "LOCALHOST",
            "localhost.",
            "app.localhost:8080",
            "oware.example.org",
            "Oware.Example.Org:443",
            "family-pc.local:8080",
            "FAMILY-PC.local.",
        ] {
            assert!(is_own_host(own, public, &allowed), "{own}");
        }
        for foreign in [
            "rebind.example",
            "rebind.example:8080",
            "127.0.0.1.rebind.example",
            "localhost.rebind.example",
            "oware.example.org.evil",
            "evil-oware.example.org",
            "user@127.0.0.1",
            "",
            "[::1",
        ] {
            assert!(!is_own_host(foreign, public, &allowed), "{foreign}");
        }
        assert!(!is_own_host("oware.example.org", None, &[]));
    }

    #[test]
    fn the_refusal_speaks_the_readers_language() {
        assert_eq!(language_of("fr-FR,fr;q=0.9,en;q=0.8"), Lang::Fr);
        assert_eq!(language_of("de-DE, ca;q=0.5"), Lang::Ca);
        assert_eq!(language_of("de"), Lang::En);
        assert!(unknown_host_message(Lang::Es, "x.example").contains("--allowed-host x.example"));
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
