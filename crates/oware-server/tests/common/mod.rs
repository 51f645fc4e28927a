//! Helpers for the server tests: a server on a loopback ephemeral port, a tiny HTTP client and a
//! WebSocket client that waits for the messages a test expects.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use oware_server::{AppState, Config};

pub struct TestServer {
    pub addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<()>,
}

impl TestServer {
    pub async fn start(config: Config) -> TestServer {
        let state = AppState::new(config).expect("server state");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            oware_server::serve(listener, state, async {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        TestServer {
            addr,
            stop: Some(stop),
            task,
        }
    }

    /// Stops the server and waits until it has let go of everything (the database included).
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Open WebSockets keep a graceful shutdown waiting; the test closes its own first.
        tokio::time::timeout(Duration::from_secs(10), &mut self.task)
            .await
            .expect("server stops")
            .unwrap();
    }
}

pub fn quick_config() -> Config {
    Config {
        computer_time: Duration::from_millis(30),
        analysis_time: Duration::from_millis(200),
        // Test clients play as fast as the server answers.
        messages_per_second: 10_000,
        moves_per_second: 10_000,
        // Test clients reconnect at once.
        reconnect_grace: Duration::ZERO,
        ..Config::default()
    }
}

/// A fresh folder under the system's temporary folder.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "oware-server-test-{name}-{}",
        oware_server::new_token()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Sends one HTTP request and returns the status and the body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, _, body) = http_with_headers(addr, method, path, body, "").await;
    (status, body)
}

/// Sends one HTTP request with `extra` header lines (each ending in CRLF); returns the status,
/// the response's header block and the body.
pub async fn http_with_headers(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    extra: &str,
) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).to_string();
    let status: u16 = text[9..12].parse().unwrap();
    let (head, rest) = text.split_once("\r\n\r\n").unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    (status, head.to_string(), body)
}

fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        text = &rest[n + 2..];
    }
    out
}

pub async fn post_json(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let (status, text) = http(addr, "POST", path, Some(&body.to_string())).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The invitation codes of the friend games [`create`] made, by game id.
static INVITES: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// The invitation code of a friend game [`create`] made.
pub fn invite_of(id: &str) -> String {
    INVITES
        .lock()
        .unwrap()
        .iter()
        .find(|(game, _)| game == id)
        .map(|(_, code)| code.clone())
        .expect("a friend game made by create()")
}

/// Creates a game; returns (id, token, side letter). A friend game's invitation code is kept
/// for [`invite_of`].
pub async fn create(addr: SocketAddr, body: Value) -> (String, String, String) {
    let (status, v) = post_json(addr, "/api/games", body).await;
    assert_eq!(status, 200, "{v}");
    if let (Some(id), Some(code)) = (v["id"].as_str(), v["invite"].as_str()) {
        INVITES
            .lock()
            .unwrap()
            .push((id.to_string(), code.to_string()));
    }
    (
        v["id"].as_str().unwrap().to_string(),
        v["token"].as_str().unwrap().to_string(),
        v["side"].as_str().unwrap().to_string(),
    )
}

/// The friend opens a friend game's invitation: the free side is theirs. Returns their token and
/// side.
pub async fn join_friend(addr: SocketAddr, id: &str) -> (String, String) {
    let (status, v) = post_json(
        addr,
        &format!("/api/games/{id}/join"),
        serde_json::json!({ "invite": invite_of(id) }),
    )
    .await;
    assert_eq!(status, 200, "{v}");
    (
        v["token"].as_str().expect("a seat was free").to_string(),
        v["side"].as_str().unwrap().to_string(),
    )
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

pub struct Client {
    pub socket: Socket,
    /// The side this client plays, from the welcome message.
    pub you: Option<String>,
    /// The newest game state received.
    pub game: Value,
}

impl Client {
    /// Connects as a program does: no cookie; a player's token goes in a `seat` message (tokens
    /// are never put in the address).
    pub async fn connect(addr: SocketAddr, id: &str, token: Option<&str>) -> Client {
        let url = format!("ws://{addr}/api/games/{id}/ws");
        let mut client = Client::open(url.into_client_request().unwrap()).await;
        if let Some(token) = token {
            let seat = serde_json::json!({"type": "seat", "token": token});
            client.send_text(&seat.to_string()).await;
            let welcome = client.next().await;
            assert_eq!(welcome["type"], "welcome", "{welcome}");
            client.you = welcome["you"].as_str().map(str::to_string);
        }
        client
    }

    /// Connects to `url` as it is.
    pub async fn open_url(url: &str) -> Client {
        Client::open(url.into_client_request().unwrap()).await
    }

    /// Connects the way a browser does: to the game's own WebSocket path, with a `Cookie` header.
    pub async fn connect_with_cookie(addr: SocketAddr, id: &str, cookie: &str) -> Client {
        let mut request = format!("ws://{addr}/api/games/{id}/ws")
            .into_client_request()
            .unwrap();
        request
            .headers_mut()
            .insert("Cookie", cookie.parse().unwrap());
        Client::open(request).await
    }

    async fn open(request: tokio_tungstenite::tungstenite::handshake::client::Request) -> Client {
        let (socket, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("ws connect");
        let mut client = Client {
            socket,
            you: None,
            game: Value::Null,
        };
        let welcome = client.next().await;
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client.you = welcome["you"].as_str().map(str::to_string);
        let state = client.next().await;
        assert_eq!(state["type"], "state");
        client.game = state["game"].clone();
        client
    }

    /// The next message (states also update `game`).
    pub async fn next(&mut self) -> Value {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(10), self.socket.next())
                .await
                .expect("a message within 10 s")
                .expect("socket open")
                .expect("socket ok");
            if let Message::Text(text) = msg {
                let v: Value = serde_json::from_str(&text).unwrap();
                if v["type"] == "state" {
                    self.game = v["game"].clone();
                }
                return v;
            }
        }
    }

    pub async fn send_text(&mut self, text: &str) {
        self.socket.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a move and returns the server's first answer to this client.
    pub async fn play(&mut self, mv: &str) -> Value {
        let ply = self.moves().len();
        self.send_text(&serde_json::json!({"type":"move","move":mv,"ply":ply}).to_string())
            .await;
        self.next().await
    }

    /// Waits for a state that satisfies `f`.
    pub async fn wait_for(&mut self, f: impl Fn(&Value) -> bool) {
        while !f(&self.game) {
            self.next().await;
        }
    }

    pub fn moves(&self) -> String {
        self.game["moves"].as_str().unwrap_or("").to_string()
    }

    pub fn legal(&self) -> String {
        self.game["legal"].as_str().unwrap_or("").to_string()
    }

    pub fn over(&self) -> bool {
        !self.game["end"].is_null()
    }

    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
