//! E-mail from the player's side, through a real SMTP server on the loopback (Python's aiosmtpd,
//! `scripts/lib/smtp-sink.py`, which writes each message it receives to a folder): a player of a
//! correspondence game gives an address, which gets one confirmation mail and nothing else until
//! it is confirmed; then the other player's moves reach it while the player's page is closed, in
//! their language, until its one-click unsubscribe is posted. A relay that is down or refuses never
//! holds a move.
//!
//! Without python3 and aiosmtpd these tests say so loudly and pass; `scripts/test.d/mail.sh`
//! installs aiosmtpd and sets `OWARE_REQUIRE_AIOSMTPD=1`, under which they fail instead.

mod common;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;
use oware_server::{Config, MailConfig};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const SITE: &str = "http://oware.test";

/// The Python that runs the SMTP server: `OWARE_PYTHON`, or `python3`.
fn python() -> String {
    std::env::var("OWARE_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

/// Whether aiosmtpd can run here; when it cannot, says so (or fails, when the test script asks
/// for it to be there).
fn smtp_available() -> bool {
    let ok = Command::new(python())
        .args(["-c", "import aiosmtpd"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        if std::env::var("OWARE_REQUIRE_AIOSMTPD").is_ok_and(|v| v == "1") {
            panic!(
                "{} cannot import aiosmtpd, and OWARE_REQUIRE_AIOSMTPD=1",
                python()
            );
        }
        eprintln!(
            "\n*** SKIPPED: the mail tests need {} with aiosmtpd (pip install aiosmtpd, or run scripts/test.d/mail.sh) ***\n",
            python()
        );
    }
    ok
}

/// A real SMTP server on the loopback.
struct Sink {
    child: Child,
    dir: PathBuf,
    port: u16,
}

impl Sink {
    /// Starts one writing to `dir`, on `port` (0: any), refusing every recipient if `refuse`.
    fn start(dir: &Path, port: u16, refuse: bool) -> Sink {
        let script = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../scripts/lib/smtp-sink.py"
        );
        let mut args = vec![
            script.to_string(),
            dir.display().to_string(),
            port.to_string(),
        ];
        if refuse {
            args.push("refuse".to_string());
        }
        let mut child = Command::new(python())
            .args(&args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("python starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = line.trim().parse().expect("the sink says its port");
        Sink {
            child,
            dir: dir.to_path_buf(),
            port,
        }
    }

    fn files(&self, suffix: &str) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.to_string_lossy().ends_with(suffix))
            .collect();
        found.sort();
        found
    }

    /// Every message received so far, oldest first.
    fn messages(&self) -> Vec<Value> {
        self.files(".json")
            .iter()
            .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
            .collect()
    }

    /// Waits until `count` messages have arrived.
    async fn wait_for(&self, count: usize) -> Vec<Value> {
        for _ in 0..400 {
            let got = self.messages();
            if got.len() >= count {
                return got;
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("{} messages, not {count}", self.messages().len());
    }

    fn refused(&self) -> usize {
        self.files(".refused").len()
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn mail_config(port: u16) -> Config {
    let relay = format!("smtp://127.0.0.1:{port}");
    Config {
        public_url: Some(SITE.to_string()),
        mail: Some(MailConfig {
            first_retry: Duration::from_millis(300),
            ..MailConfig::new(&relay, "Oware <oware@example.org>").unwrap()
        }),
        ..quick_config()
    }
}

fn header(message: &Value, name: &str) -> Option<String> {
    message["headers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h[0].as_str().unwrap().eq_ignore_ascii_case(name))
        .map(|h| h[1].as_str().unwrap().to_string())
}

async fn ask_for_mail(
    addr: std::net::SocketAddr,
    id: &str,
    token: &str,
    email: &str,
) -> (u16, Value) {
    post_json(
        addr,
        &format!("/api/games/{id}/email"),
        json!({ "email": email, "lang": "fr", "token": token }),
    )
    .await
}

/// The confirmation code in a confirmation mail's link.
fn code_in(message: &Value) -> String {
    let text = message["text"].as_str().unwrap();
    let start = text.find("/email/confirm#c=").expect("a confirmation link") + 17;
    text[start..start + 32].to_string()
}

/// A correspondence game between South (named `south_name`) and North, both seated: its id and
/// the tokens.
async fn correspondence_game(
    addr: std::net::SocketAddr,
    south_name: &str,
) -> (String, String, String) {
    let (id, south, _) = create(
        addr,
        json!({"mode": "friend", "side": "S", "days": 2, "name": south_name}),
    )
    .await;
    let (north, _) = join_friend(addr, &id).await;
    (id, south, north)
}

/// The player of `token` connects, plays their first legal move and goes away again; returns how
/// long the move took to be answered.
async fn move_and_leave(addr: std::net::SocketAddr, id: &str, token: &str) -> Duration {
    let mut page = Client::connect(addr, id, Some(token)).await;
    let mv = page
        .legal()
        .chars()
        .next()
        .expect("a legal move")
        .to_string();
    let asked = Instant::now();
    let answer = page.play(&mv).await;
    let took = asked.elapsed();
    assert_eq!(answer["type"], "state", "{answer}");
    page.close().await;
    // The server counts the page gone once its socket ends.
    tokio::time::sleep(Duration::from_millis(150)).await;
    took
}

/// Posts as a mail client does (RFC 8058): a form body, another site's Origin, no cookie.
async fn one_click(addr: std::net::SocketAddr, path: &str) -> u16 {
    let body = "List-Unsubscribe=One-Click";
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nOrigin: https://mail.example.com\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    String::from_utf8_lossy(&response)[9..12].parse().unwrap()
}

#[tokio::test]
async fn a_confirmed_address_is_told_of_moves_until_it_unsubscribes_in_one_click() {
    if !smtp_available() {
        return;
    }
    let sink = Sink::start(&temp_dir("mail-sink"), 0, false);
    let server = TestServer::start(mail_config(sink.port)).await;
    let (_, info) = http(server.addr, "GET", "/api/server", None).await;
    assert_eq!(serde_json::from_str::<Value>(&info).unwrap()["mail"], true);
    let hostile = "<script>alert(1)</script> Rosa";
    let (id, south, north) = correspondence_game(server.addr, hostile).await;
    let (status, v) = ask_for_mail(server.addr, &id, &north, "north@example.org").await;
    assert_eq!((status, &v["status"]), (202, &json!("sent")), "{v}");

    // One confirmation mail: the code in the link's fragment, no token, no unsubscribe.
    let got = sink.wait_for(1).await;
    let confirmation = &got[0];
    assert_eq!(confirmation["to"], json!(["north@example.org"]));
    assert_eq!(
        header(confirmation, "From").as_deref(),
        Some("Oware <oware@example.org>")
    );
    let code = code_in(confirmation);
    let text = confirmation["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("{SITE}/email/confirm#c={code}")),
        "{text}"
    );
    assert!(text.contains("ignorez ce message"), "in French: {text}");
    let whole = confirmation.to_string();
    assert!(
        !whole.contains(&south) && !whole.contains(&north),
        "no token"
    );
    assert!(header(confirmation, "List-Unsubscribe").is_none());

    // Before the confirmation, a move tells the address nothing.
    move_and_leave(server.addr, &id, &south).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sink.messages().len(), 1, "nothing before the confirmation");

    let (status, v) = post_json(server.addr, "/api/email/confirm", json!({ "code": code })).await;
    assert_eq!((status, &v["game"]), (200, &json!(id)), "{v}");
    let (status, v) = post_json(server.addr, "/api/email/confirm", json!({ "code": code })).await;
    assert_eq!((status, &v["error"]["code"]), (404, &json!("bad-code")));
    // Asked again once confirmed: no second confirmation.
    let (status, v) = ask_for_mail(server.addr, &id, &north, "north@example.org").await;
    assert_eq!((status, &v["status"]), (200, &json!("confirmed")), "{v}");

    // North answers and leaves; South moves: North is told, in French, with the board.
    move_and_leave(server.addr, &id, &north).await;
    move_and_leave(server.addr, &id, &south).await;
    let got = sink.wait_for(2).await;
    let told = &got[1];
    assert_eq!(told["to"], json!(["north@example.org"]));
    assert_eq!(told["content_type"], "multipart/alternative");
    let subject = header(told, "Subject").unwrap();
    assert!(subject.contains("à vous de jouer"), "{subject}");
    let text = told["text"].as_str().unwrap();
    assert!(text.contains(&format!("{hostile} a joué")), "{text}");
    assert!(text.contains("Nord") && text.contains("Sud") && text.contains("+----+"));
    assert!(text.contains(&format!("{SITE}/game/{id}")), "{text}");
    let html = told["html"].as_str().unwrap();
    assert!(!html.contains("<script>"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt; Rosa"),
        "{html}"
    );
    let whole = told.to_string();
    assert!(
        !whole.contains(&south) && !whole.contains(&north),
        "no token"
    );
    let unsubscribe = header(told, "List-Unsubscribe").unwrap();
    let prefix = format!("<{SITE}/api/email/unsubscribe?t=");
    assert!(unsubscribe.starts_with(&prefix), "{unsubscribe}");
    assert_eq!(
        header(told, "List-Unsubscribe-Post").as_deref(),
        Some("List-Unsubscribe=One-Click")
    );

    // The mail client's one-click POST stops it: no mail follows.
    let path = unsubscribe
        .trim_start_matches('<')
        .trim_end_matches('>')
        .strip_prefix(SITE)
        .unwrap()
        .to_string();
    // Opened in a browser, the address leads to the page that asks first.
    let (status, head, _) = http_with_headers(server.addr, "GET", &path, None, "").await;
    assert_eq!(status, 303);
    let token = &path[path.find("?t=").unwrap() + 3..];
    assert!(
        head.contains(&format!("/email/unsubscribe#t={token}")),
        "{head}"
    );
    assert_eq!(one_click(server.addr, &path).await, 200);
    assert_eq!(one_click(server.addr, &path).await, 200, "twice is fine");
    move_and_leave(server.addr, &id, &north).await;
    move_and_leave(server.addr, &id, &south).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(sink.messages().len(), 2, "nothing after the unsubscribe");
    server.stop().await;
}

#[tokio::test]
async fn confirmations_are_limited_and_only_players_of_correspondence_games_ask() {
    if !smtp_available() {
        return;
    }
    let sink = Sink::start(&temp_dir("mail-limits"), 0, false);
    let server = TestServer::start(mail_config(sink.port)).await;
    let (id, _, north) = correspondence_game(server.addr, "Rosa").await;
    for _ in 0..3 {
        let (status, v) = ask_for_mail(server.addr, &id, &north, "target@example.org").await;
        assert_eq!(status, 202, "{v}");
    }
    let (status, v) = ask_for_mail(server.addr, &id, &north, "Target@example.org").await;
    assert_eq!(
        (status, &v["error"]["code"]),
        (429, &json!("too-many-mails")),
        "the fourth in an hour"
    );
    sink.wait_for(3).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(sink.messages().len(), 3);

    // Another site's page cannot ask, even with the player's cookie.
    let body = json!({ "email": "a@example.org", "token": north }).to_string();
    let (status, _, answer) = http_with_headers(
        server.addr,
        "POST",
        &format!("/api/games/{id}/email"),
        Some(&body),
        "Origin: https://evil.example\r\n",
    )
    .await;
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("foreign-origin"), "{answer}");
    let (status, v) = ask_for_mail(server.addr, &id, "0123456789abcdef", "a@example.org").await;
    assert_eq!((status, &v["error"]["code"]), (403, &json!("not-a-player")));
    for bad in [
        "not an address",
        "a@",
        &format!("{}@example.org", "a".repeat(260)),
    ] {
        let (status, v) = ask_for_mail(server.addr, &id, &north, bad).await;
        assert_eq!((status, &v["error"]["code"]), (400, &json!("bad-email")));
    }
    let (untimed, south, _) = create(server.addr, json!({"mode": "friend", "side": "S"})).await;
    let (status, v) = ask_for_mail(server.addr, &untimed, &south, "a@example.org").await;
    assert_eq!(
        (status, &v["error"]["code"]),
        (409, &json!("not-correspondence"))
    );
    let (status, _) = http(
        server.addr,
        "DELETE",
        &format!("/api/games/{id}/email"),
        Some(&json!({ "token": north }).to_string()),
    )
    .await;
    assert_eq!(status, 204);
    let (status, v) = post_json(
        server.addr,
        "/api/email/confirm",
        json!({ "code": "0123456789abcdef0123456789abcdef" }),
    )
    .await;
    assert_eq!((status, &v["error"]["code"]), (404, &json!("bad-code")));
    server.stop().await;

    // A server without a relay offers no mail.
    let server = TestServer::start(quick_config()).await;
    let (_, info) = http(server.addr, "GET", "/api/server", None).await;
    assert_eq!(serde_json::from_str::<Value>(&info).unwrap()["mail"], false);
    let (id, _, north) = correspondence_game(server.addr, "Rosa").await;
    let (status, v) = ask_for_mail(server.addr, &id, &north, "a@example.org").await;
    assert_eq!((status, &v["error"]["code"]), (501, &json!("mail-off")));
    server.stop().await;
}

#[tokio::test]
async fn a_relay_that_is_down_or_refuses_never_holds_a_move() {
    if !smtp_available() {
        return;
    }
    let dir = temp_dir("mail-down");
    let sink = Sink::start(&dir, 0, false);
    let port = sink.port;
    let server = TestServer::start(mail_config(port)).await;
    let (id, south, north) = correspondence_game(server.addr, "Rosa").await;
    ask_for_mail(server.addr, &id, &north, "north@example.org").await;
    let code = code_in(&sink.wait_for(1).await[0]);
    let (status, _) = post_json(server.addr, "/api/email/confirm", json!({ "code": code })).await;
    assert_eq!(status, 200);

    // The relay goes down: the move is answered at once, and the mail follows once it is back.
    drop(sink);
    let took = move_and_leave(server.addr, &id, &south).await;
    assert!(took < Duration::from_secs(1), "the move took {took:?}");
    tokio::time::sleep(Duration::from_millis(500)).await;
    let sink = Sink::start(&dir, port, false);
    let got = sink.wait_for(2).await;
    assert!(header(&got[1], "Subject")
        .unwrap()
        .contains("à vous de jouer"));

    // The relay refuses for good: said once, not tried again, and the move is not held.
    drop(sink);
    let refusing = Sink::start(&dir, port, true);
    move_and_leave(server.addr, &id, &north).await;
    let took = move_and_leave(server.addr, &id, &south).await;
    assert!(took < Duration::from_secs(1), "the move took {took:?}");
    for _ in 0..100 {
        if refusing.refused() > 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(refusing.refused(), 1, "a refusal for good is not retried");
    server.stop().await;
}

#[tokio::test]
async fn a_day_before_the_time_runs_out_the_player_is_reminded_once() {
    if !smtp_available() {
        return;
    }
    let sink = Sink::start(&temp_dir("mail-reminder"), 0, false);
    // A day of the clocks lasts 2.9 s: two days a move are 5.8 s.
    let server = TestServer::start(Config {
        clock_minute: Duration::from_millis(2),
        ..mail_config(sink.port)
    })
    .await;
    let (id, south, north) = correspondence_game(server.addr, "Rosa").await;
    ask_for_mail(server.addr, &id, &north, "north@example.org").await;
    let code = code_in(&sink.wait_for(1).await[0]);
    post_json(server.addr, "/api/email/confirm", json!({ "code": code })).await;
    let moved = Instant::now();
    move_and_leave(server.addr, &id, &south).await;
    let got = sink.wait_for(3).await;
    let reminded = moved.elapsed();
    assert!(header(&got[1], "Subject")
        .unwrap()
        .contains("à vous de jouer"));
    let reminder = &got[2];
    assert!(
        header(reminder, "Subject")
            .unwrap()
            .contains("plus qu’un jour"),
        "{reminder}"
    );
    assert!(reminder["text"]
        .as_str()
        .unwrap()
        .contains("Il vous reste un jour"));
    assert!(
        reminded >= Duration::from_millis(2500),
        "a day before the end of two: {reminded:?}"
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(sink.messages().len(), 3, "reminded once");
    server.stop().await;
}

#[tokio::test]
async fn a_confirmed_address_survives_a_restart() {
    if !smtp_available() {
        return;
    }
    let sink = Sink::start(&temp_dir("mail-restart"), 0, false);
    let data = temp_dir("mail-restart-data").join("games.sqlite");
    let config = || Config {
        data: Some(data.clone()),
        ..mail_config(sink.port)
    };
    let server = TestServer::start(config()).await;
    let (id, south, north) = correspondence_game(server.addr, "Rosa").await;
    ask_for_mail(server.addr, &id, &north, "north@example.org").await;
    let code = code_in(&sink.wait_for(1).await[0]);
    post_json(server.addr, "/api/email/confirm", json!({ "code": code })).await;
    server.stop().await;

    let server = TestServer::start(config()).await;
    move_and_leave(server.addr, &id, &south).await;
    let got = sink.wait_for(2).await;
    assert_eq!(got[1]["to"], json!(["north@example.org"]));
    assert!(header(&got[1], "Subject")
        .unwrap()
        .contains("à vous de jouer"));
    server.stop().await;
}
