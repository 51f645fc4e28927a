//! The server's edge: security headers, cross-site requests, proxies' headers and each address's
//! fair share (games, sockets, analyses, connections that send nothing, messages too big).
//! A second client address is 127.0.0.2, which Linux routes to the loopback interface like
//! 127.0.0.1.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// A TCP connection to `addr` from the loopback address `from`.
async fn connect_from(addr: SocketAddr, from: &str) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

/// An HTTP response: status, header block (lower case) and body.
struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    fn code(&self) -> String {
        self.json()["error"]["code"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|line| {
            let (n, v) = line.split_once(':')?;
            (n.trim() == name).then(|| v.trim().to_string())
        })
    }
}

/// A whole HTTP response, as read.
fn reply(response: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(response).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("a response");
    Reply {
        status: head[9..12].parse().unwrap(),
        head: head.to_ascii_lowercase(),
        body: body.to_string(),
    }
}

/// Sends `method path` from the loopback address `from` with the header lines `extra` (each
/// ending in CRLF) and `body`; reads the response to the end (`Connection: close`).
async fn request_from(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    extra: &str,
    body: &str,
) -> Reply {
    let mut stream = connect_from(addr, from).await;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut response))
        .await
        .expect("an answer")
        .unwrap();
    reply(&response)
}

async fn request(addr: SocketAddr, method: &str, path: &str, extra: &str, body: &str) -> Reply {
    request_from(addr, "127.0.0.1", method, path, extra, body).await
}

const JSON: &str = "Content-Type: application/json\r\n";

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let server = TestServer::start(quick_config()).await;
    let page = request(server.addr, "GET", "/", "", "").await;
    for reply in [
        &page,
        &request(server.addr, "GET", "/static/app.js", "", "").await,
        &request(server.addr, "GET", "/api/nothing", "", "").await,
        &request(server.addr, "POST", "/api/games", JSON, "{").await,
    ] {
        let csp = reply.header("content-security-policy").expect(&reply.head);
        for directive in [
            "default-src 'none'",
            "script-src 'self'",
            "style-src 'self'",
            "connect-src 'self'",
            "frame-ancestors 'none'",
        ] {
            assert!(csp.contains(directive), "{directive}: {csp}");
        }
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(
            reply.header("x-content-type-options").as_deref(),
            Some("nosniff")
        );
        assert_eq!(reply.header("x-frame-options").as_deref(), Some("deny"));
        assert_eq!(
            reply.header("referrer-policy").as_deref(),
            Some("same-origin")
        );
        assert_eq!(
            reply.header("strict-transport-security"),
            None,
            "plain HTTP"
        );
    }
    // The page itself lives within that policy: no inline script, no style attributes.
    assert_eq!(
        page.body.matches("<script").count(),
        page.body
            .matches("<script type=\"module\" src=\"/static/")
            .count(),
        "{}",
        page.body
    );
    assert!(!page.body.contains("style="), "{}", page.body);
    server.stop().await;
    // Served over HTTPS, browsers are told to keep to it.
    let public = TestServer::start(oware_server::Config {
        public_url: Some("https://oware.example.org".into()),
        ..quick_config()
    })
    .await;
    let reply = request(public.addr, "GET", "/", "", "").await;
    let hsts = reply
        .header("strict-transport-security")
        .expect(&reply.head);
    assert!(hsts.starts_with("max-age="), "{hsts}");
    public.stop().await;
}

/// Sends `raw` bytes as they are and reads the answer to the end.
async fn raw_request(addr: SocketAddr, raw: impl AsRef<[u8]>) -> Reply {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // A server may answer and close before reading all of a request too large for it.
    let _ = stream.write_all(raw.as_ref()).await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(20), stream.read_to_end(&mut response)).await;
    reply(&response)
}

#[tokio::test]
async fn requests_the_http_layer_cannot_read_are_answered_with_the_security_headers() {
    let server = TestServer::start(oware_server::Config {
        public_url: Some("https://oware.example.org".into()),
        ..quick_config()
    })
    .await;
    let long_path = format!(
        "GET /{} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        "a".repeat(70_000)
    );
    // More header lines than hyper takes (100): small, so that the whole request is read and
    // the connection is not reset under the answer.
    let many_headers = format!(
        "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n{}\r\n",
        (0..150)
            .map(|i| format!("X-{i}: {i}\r\n"))
            .collect::<String>()
    );
    for (raw, status) in [
        (&b"GARBAGE\r\n\r\n"[..], 400),
        (b"GET / HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n", 400),
        (
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n",
            400,
        ),
        (long_path.as_bytes(), 414),
        (many_headers.as_bytes(), 431),
    ] {
        let reply = raw_request(server.addr, raw).await;
        assert_eq!(
            reply.status,
            status,
            "{:?}: {}",
            String::from_utf8_lossy(&raw[..raw.len().min(60)]),
            reply.head
        );
        let csp = reply.header("content-security-policy").expect(&reply.head);
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        for (name, value) in [
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "deny"),
            ("referrer-policy", "same-origin"),
        ] {
            assert_eq!(reply.header(name).as_deref(), Some(value), "{}", reply.head);
        }
        assert!(
            reply.header("strict-transport-security").is_some(),
            "{}",
            reply.head
        );
    }
    // The connection still serves the next one.
    assert_eq!(request(server.addr, "GET", "/", "", "").await.status, 200);
    server.stop().await;
}

#[tokio::test]
async fn a_page_of_another_name_cannot_reach_the_server_by_rebinding_its_dns() {
    let server = TestServer::start(oware_server::Config {
        public_url: Some("https://oware.example.org".into()),
        allowed_hosts: vec!["family-pc.local".into()],
        ..quick_config()
    })
    .await;
    let port = server.addr.port();
    let send = |host: String,
                method: &'static str,
                path: &'static str,
                extra: String,
                body: &'static str| {
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        raw_request(server.addr, request.into_bytes())
    };
    // The attacker's page, same-origin with itself, posts to "its" server.
    let rebound = format!("rebind.example:{port}");
    let extra = format!("{JSON}Origin: http://{rebound}\r\n");
    let game = r#"{"mode":"friend"}"#;
    let reply = send(rebound.clone(), "POST", "/api/games", extra, game).await;
    assert_eq!(reply.status, 421, "{}", reply.body);
    assert_eq!(reply.code(), "unknown-host");
    assert!(reply.header("content-security-policy").is_some());
    // Reading is refused too (a rebound page could read the games), and a person who typed a
    // name the server does not know is told in their language how to get in.
    let extra = "Accept: text/html\r\nAccept-Language: fr-FR,fr;q=0.9\r\n".to_string();
    let reply = send(rebound.clone(), "GET", "/", extra, "").await;
    assert_eq!(reply.status, 421);
    assert!(
        reply.body.contains("ne répond pas au nom")
            && reply.body.contains("--allowed-host rebind.example"),
        "{}",
        reply.body
    );
    let reply = send(rebound.clone(), "GET", "/api/server", String::new(), "").await;
    assert_eq!(reply.status, 421, "{}", reply.body);
    // A WebSocket handshake.
    let ws = "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n".to_string();
    let reply = send(
        rebound.clone(),
        "GET",
        "/api/games/0123456789abcdef0123456789abcdef/ws",
        ws,
        "",
    )
    .await;
    assert_eq!(reply.status, 421);
    // A hostile name in an absolute request URI, whatever the Host header says.
    let reply = raw_request(
        server.addr,
        b"GET http://rebind.example/api/server HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
    )
    .await;
    assert_eq!(reply.status, 421, "{}", reply.body);
    // The server's own names all work.
    for host in [
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        "oware.example.org".to_string(),
        format!("family-pc.local:{port}"),
    ] {
        let reply = send(host.clone(), "GET", "/api/server", String::new(), "").await;
        assert_eq!(reply.status, 200, "{host}: {}", reply.body);
    }
    server.stop().await;
}

#[tokio::test]
async fn foreign_sites_cannot_post_or_send_anything_but_json() {
    let server = TestServer::start(quick_config()).await;
    let game = r#"{"mode":"friend"}"#;
    let evil = "Origin: https://evil.example\r\n";
    let reply = request(
        server.addr,
        "POST",
        "/api/games",
        &format!("{JSON}{evil}"),
        game,
    )
    .await;
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (403, "foreign-origin"),
        "{}",
        reply.body
    );
    // A `text/plain` post (which a foreign page may send without asking) is not read, even
    // without an Origin.
    for content_type in ["text/plain", "application/x-www-form-urlencoded"] {
        let extra = format!("Content-Type: {content_type}\r\n");
        let reply = request(server.addr, "POST", "/api/games", &extra, game).await;
        assert_eq!(
            (reply.status, reply.code().as_str()),
            (415, "not-json"),
            "{}",
            reply.body
        );
    }
    let reply = request(server.addr, "POST", "/api/games", "", game).await;
    assert_eq!(reply.status, 415, "no Content-Type: {}", reply.body);
    // The page's own origin, and tools that send none, are served; so is a body-less join.
    let own = format!("Origin: http://{}\r\n", server.addr);
    let reply = request(
        server.addr,
        "POST",
        "/api/games",
        &format!("{JSON}{own}"),
        game,
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let id = reply.json()["id"].as_str().unwrap().to_string();
    let reply = request(
        server.addr,
        "POST",
        &format!("/api/games/{id}/join"),
        &own,
        "",
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let reply = request(
        server.addr,
        "POST",
        &format!("/api/games/{id}/join"),
        evil,
        "",
    )
    .await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    // Reading stays open to anyone (a shared link opened from anywhere).
    let reply = request(server.addr, "GET", &format!("/api/games/{id}"), evil, "").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    server.stop().await;
}

#[tokio::test]
async fn the_public_address_is_an_own_origin() {
    let server = TestServer::start(oware_server::Config {
        public_url: Some("https://oware.example.org".into()),
        ..quick_config()
    })
    .await;
    let game = r#"{"mode":"friend"}"#;
    // A proxy that passes its own address as Host: the public address is still the page's.
    let extra = format!("{JSON}Origin: https://oware.example.org\r\n");
    let reply = request(server.addr, "POST", "/api/games", &extra, game).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let extra = format!("{JSON}Origin: http://oware.example.org\r\n");
    let reply = request(server.addr, "POST", "/api/games", &extra, game).await;
    assert_eq!(reply.status, 403, "{}", reply.body);
    server.stop().await;
}

/// The seat cookie a create or join answer sets, as a `Cookie` header's value.
fn seat_cookie(reply: &Reply) -> String {
    let set = reply.header("set-cookie").expect(&reply.head);
    set.split(';').next().unwrap().to_string()
}

#[tokio::test]
async fn a_foreign_page_cannot_play_with_the_seat_cookie() {
    let server = TestServer::start(quick_config()).await;
    let reply = request(
        server.addr,
        "POST",
        "/api/games",
        JSON,
        r#"{"mode":"friend"}"#,
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let id = reply.json()["id"].as_str().unwrap().to_string();
    let cookie = seat_cookie(&reply);
    let open = |origin: String| {
        let mut request = format!("ws://{}/api/games/{id}/ws", server.addr)
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("Cookie", cookie.parse().unwrap());
        request
            .headers_mut()
            .insert("Origin", origin.parse().unwrap());
        tokio_tungstenite::connect_async(request)
    };
    match open("https://evil.example".into()).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403)
        }
        Err(e) => panic!("refused another way: {e}"),
        Ok(_) => panic!("a foreign page's WebSocket was let in"),
    }
    // The page itself gets its seat.
    let (mut socket, _) = open(format!("http://{}", server.addr))
        .await
        .expect("own origin");
    let welcome = tokio::time::timeout(Duration::from_secs(10), socket.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    let welcome: Value = serde_json::from_str(welcome.to_text().unwrap()).unwrap();
    assert_eq!(welcome["you"], "S", "{welcome}");
    let _ = socket.close(None).await;
    server.stop().await;
}

#[tokio::test]
async fn forwarding_headers_count_only_from_trusted_proxies() {
    let config = oware_server::Config {
        games_per_address: 1,
        ..quick_config()
    };
    let game = r#"{"mode":"friend"}"#;
    let server = TestServer::start(config.clone()).await;
    let reply = request(server.addr, "POST", "/api/games", JSON, game).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    // Any client can write these headers: without a trusted proxy they change nothing.
    let forged = format!("{JSON}X-Forwarded-For: 203.0.113.9\r\nX-Forwarded-Proto: https\r\n");
    let reply = request(server.addr, "POST", "/api/games", &forged, game).await;
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (429, "too-many-games"),
        "{}",
        reply.body
    );
    let reply = request_from(
        server.addr,
        "127.0.0.2",
        "POST",
        "/api/games",
        &forged,
        game,
    )
    .await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let cookie = reply.header("set-cookie").unwrap();
    assert!(!cookie.contains("secure"), "{cookie}");
    server.stop().await;
    // Behind a trusted proxy, each client it names has its own count, and its word on HTTPS holds.
    let server = TestServer::start(oware_server::Config {
        trusted_proxies: vec!["127.0.0.1".parse().unwrap()],
        ..config
    })
    .await;
    for _ in 0..2 {
        let reply = request(server.addr, "POST", "/api/games", &forged, game).await;
        let cookie = reply.header("set-cookie").unwrap_or_default();
        if reply.status == 200 {
            assert!(cookie.contains("; secure"), "{cookie}");
        } else {
            assert_eq!(reply.code(), "too-many-games", "{}", reply.body);
        }
    }
    let other = format!("{JSON}X-Forwarded-For: 203.0.113.10\r\n");
    let reply = request(server.addr, "POST", "/api/games", &other, game).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    // 127.0.0.2 is not the proxy: its headers are ignored.
    let reply = request_from(server.addr, "127.0.0.2", "POST", "/api/games", &other, game).await;
    assert_eq!(reply.status, 200, "its own first game: {}", reply.body);
    let reply = request_from(server.addr, "127.0.0.2", "POST", "/api/games", &other, game).await;
    assert_eq!(reply.status, 429, "{}", reply.body);
    server.stop().await;
}

/// Resigns `client`'s game and waits until it is over.
async fn resign(client: &mut Client) {
    client.send_text(r#"{"type":"resign"}"#).await;
    client.wait_for(|g| !g["end"].is_null()).await;
}

#[tokio::test]
async fn rematches_count_against_the_hourly_limit() {
    let server = TestServer::start(oware_server::Config {
        games_per_address: 3,
        ..quick_config()
    })
    .await;
    let (friends_game, south_token, _) = create(server.addr, json!({"mode":"friend"})).await;
    let (north_token, _) = join_friend(server.addr, &friends_game).await;
    let (computer_game, token, _) = create(server.addr, json!({"mode":"computer"})).await;
    for (id, token) in [(&friends_game, &south_token), (&computer_game, &token)] {
        let mut client = Client::connect(server.addr, id, Some(token)).await;
        resign(&mut client).await;
        client.close().await;
    }
    let rematch = |id: String, token: String| {
        let body = json!({ "token": token }).to_string();
        async move {
            request(
                server.addr,
                "POST",
                &format!("/api/games/{id}/rematch"),
                JSON,
                &body,
            )
            .await
        }
    };
    // The third game of the hour; the friend finds it, which creates nothing.
    let reply = rematch(friends_game.clone(), south_token.clone()).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let reply = rematch(friends_game.clone(), north_token).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    // A fourth is one too many.
    let reply = rematch(computer_game, token).await;
    assert_eq!(
        (reply.status, reply.code().as_str()),
        (429, "too-many-games"),
        "{}",
        reply.body
    );
    server.stop().await;
}

/// Opens a WebSocket to game `id` from the loopback address `from`; when refused, the
/// handshake's status and error code.
async fn socket_from(addr: SocketAddr, from: &str, id: &str) -> Result<Client, (u16, String)> {
    let stream = connect_from(addr, from).await;
    let request = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    match tokio_tungstenite::client_async(request, tokio_tungstenite::MaybeTlsStream::Plain(stream))
        .await
    {
        Ok((socket, _)) => {
            let mut client = Client {
                socket,
                you: None,
                game: Value::Null,
            };
            assert_eq!(client.next().await["type"], "welcome");
            Ok(client)
        }
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            let body: Value =
                serde_json::from_slice(response.body().as_deref().unwrap_or_default())
                    .unwrap_or(Value::Null);
            let code = body["error"]["code"].as_str().unwrap_or("").to_string();
            Err((response.status().as_u16(), code))
        }
        Err(e) => panic!("handshake failed: {e}"),
    }
}

#[tokio::test]
async fn one_address_cannot_hold_every_socket() {
    let server = TestServer::start(oware_server::Config {
        sockets_per_address: 2,
        ..quick_config()
    })
    .await;
    let (id, _, _) = create(server.addr, json!({"mode":"friend"})).await;
    let first = socket_from(server.addr, "127.0.0.1", &id)
        .await
        .expect("first");
    let _second = socket_from(server.addr, "127.0.0.1", &id)
        .await
        .expect("second");
    assert_eq!(
        socket_from(server.addr, "127.0.0.1", &id).await.err(),
        Some((429, "too-many-sockets".to_string()))
    );
    // Another address is not held back.
    let other = socket_from(server.addr, "127.0.0.2", &id)
        .await
        .expect("another address");
    // A closed socket gives its share back (once the server has seen it close).
    first.close().await;
    let mut reopened = None;
    for _ in 0..100 {
        if let Ok(client) = socket_from(server.addr, "127.0.0.1", &id).await {
            reopened = Some(client);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(reopened.is_some(), "the share came back");
    other.close().await;
    server.stop().await;
}

#[tokio::test]
async fn connections_that_send_nothing_are_closed() {
    // The header deadline is what is tested: short here, and the test waits far longer for the
    // close (a loaded machine may be slow to run the timer, never early).
    let deadline = Duration::from_millis(300);
    let server = TestServer::start(oware_server::Config {
        request_read_timeout: deadline,
        ..quick_config()
    })
    .await;
    let patience = Duration::from_secs(10);
    // Silent, half a request's headers, half a body: each is closed, the last with 408.
    let silent = TcpStream::connect(server.addr).await.unwrap();
    let mut half_head = TcpStream::connect(server.addr).await.unwrap();
    half_head
        .write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .await
        .unwrap();
    let mut half_body = TcpStream::connect(server.addr).await.unwrap();
    half_body
        .write_all(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"mode\"")
        .await
        .unwrap();
    // Idle between requests.
    let mut idle = TcpStream::connect(server.addr).await.unwrap();
    idle.write_all(b"GET /api/server HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    for (what, mut stream) in [
        ("silent", silent),
        ("half a head", half_head),
        ("half a body", half_body),
        ("idle", idle),
    ] {
        let mut seen = Vec::new();
        let read = tokio::time::timeout(patience, stream.read_to_end(&mut seen)).await;
        assert!(read.is_ok(), "{what}: still open after {patience:?}");
        let text = String::from_utf8_lossy(&seen);
        match what {
            "half a body" => assert!(text.starts_with("HTTP/1.1 408"), "{what}: {text}"),
            "idle" => assert!(text.starts_with("HTTP/1.1 200"), "{what}: {text}"),
            _ => {}
        }
    }
    // WebSockets are not requests: they stay open well past the deadline.
    let (id, token, _) = create(server.addr, json!({"mode":"friend"})).await;
    let mut client = Client::connect(server.addr, &id, Some(&token)).await;
    tokio::time::sleep(deadline * 3).await;
    client.send_text(r#"{"type":"ping"}"#).await;
    assert_eq!(client.next().await["type"], "pong");
    client.close().await;
    server.stop().await;
}

#[tokio::test]
async fn analyses_are_shared_fairly_between_addresses() {
    let server = TestServer::start(oware_server::Config {
        searches: 1,
        analyses_per_address: 1,
        analyses_waiting_per_address: 2,
        analysis_time: Duration::from_millis(400),
        ..quick_config()
    })
    .await;
    let evaluate = |from: &'static str| {
        let addr = server.addr;
        tokio::spawn(async move {
            let body = r#"{"position":"4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"}"#;
            request_from(addr, from, "POST", "/api/evaluate", JSON, body).await
        })
    };
    // One client asks for ten at once (one runs, two wait, the others are refused), then another
    // client for one: it waits behind one of the first client's, not nine.
    let flood: Vec<_> = (0..10).map(|_| evaluate("127.0.0.1")).collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    let other = evaluate("127.0.0.2").await.unwrap();
    assert_eq!(
        other.status, 200,
        "the other client was starved: {}",
        other.body
    );
    let mut refused = 0;
    for reply in flood {
        let reply = reply.await.unwrap();
        match reply.status {
            200 => {}
            429 => {
                refused += 1;
                assert_eq!(reply.code(), "too-many-analyses", "{}", reply.body);
                assert!(reply.header("retry-after").is_some(), "{}", reply.head);
            }
            _ => panic!("{}: {}", reply.status, reply.body),
        }
    }
    assert!(
        refused >= 1,
        "ten analyses at once from one address were all taken"
    );
    // The coach draws on the same share.
    let body = r#"{"moves":"FfEa","lang":"en"}"#;
    let reply = request(server.addr, "POST", "/api/coach/explain", JSON, body).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    server.stop().await;
}

#[tokio::test]
async fn a_message_too_big_gets_a_close_frame_that_says_so() {
    let server = TestServer::start(quick_config()).await;
    let (id, token, _) = create(server.addr, json!({"mode":"friend"})).await;
    let mut client = Client::connect(server.addr, &id, Some(&token)).await;
    let big = "x".repeat(64 * 1024);
    client.socket.send(Message::Text(big.into())).await.unwrap();
    let frame = loop {
        let message = tokio::time::timeout(Duration::from_secs(10), client.socket.next())
            .await
            .expect("an answer within 10 s")
            .expect("a close frame, not the end of the stream")
            .expect("a close frame, not a broken connection");
        if let Message::Close(frame) = message {
            break frame.expect("a close code");
        }
    };
    assert_eq!(u16::from(frame.code), 1009);
    assert_eq!(frame.reason.as_str(), "message too big");
    server.stop().await;
}

/// The error codes the server's source sends: the first string literal given to
/// `ApiError::new` (after the status), `ApiError::bad_request` and `ServerMessage::error`, and
/// the arms of `GameError::code`.
fn error_codes_in_source() -> std::collections::BTreeSet<String> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.clone()];
    let mut codes = std::collections::BTreeSet::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let mut starts = Vec::new();
        for (call, skip_an_argument) in [
            ("ApiError::new(", true),
            ("bad_request(", false),
            ("ServerMessage::error(", false),
        ] {
            for (i, _) in text.match_indices(call) {
                let mut rest = &text[i + call.len()..];
                if skip_an_argument {
                    rest = &rest[rest.find(',').unwrap() + 1..];
                }
                starts.push(rest);
            }
        }
        if let Some(i) = text.find("pub fn code(&self) -> &'static str") {
            let body = &text[i..];
            let body = &body[..body.find("\n    }\n").unwrap()];
            starts.extend(body.match_indices("=> \"").map(|(j, _)| &body[j + 3..]));
        }
        for rest in starts {
            let rest = rest.trim_start();
            let Some(literal) = rest.strip_prefix('"') else {
                continue; // a code held in a variable
            };
            let code = &literal[..literal.find('"').unwrap()];
            if !code.is_empty() && code.chars().all(|c| c.is_ascii_lowercase() || c == '-') {
                codes.insert(code.to_string());
            }
        }
    }
    codes
}

#[test]
fn every_error_code_the_server_sends_is_translated() {
    let i18n = include_str!("../../../web/lib/i18n.js");
    let codes = error_codes_in_source();
    for code in [
        "foreign-origin",
        "not-json",
        "too-many-analyses",
        "too-many-sockets",
    ] {
        assert!(codes.contains(code), "{code} was not found in the source");
    }
    for code in &codes {
        assert_eq!(
            i18n.matches(&format!("'err.{code}':")).count(),
            4,
            "err.{code} in each of the four languages"
        );
    }
}
