//! Running the built `oware` binary from integration tests.
#![allow(dead_code)] // each test file uses a different part

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tungstenite::Message;

/// Runs `oware ARGS` with no input.
pub fn oware(args: &[&str]) -> Output {
    oware_with_input(args, "")
}

/// Runs `oware ARGS` with `input` (text, or any bytes) on its standard input.
pub fn oware_with_input(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run oware");
    // The program may exit before reading its input (a refused record): a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output then standard error.
pub fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// Awari databases up to `seeds` seeds, built by `oware egtb build` in a fresh directory.
pub fn awari_databases(seeds: u32) -> tempfile::TempDir {
    databases("awari", seeds)
}

/// The databases of `rules` up to `seeds` seeds, built by `oware egtb build` in a fresh
/// directory.
pub fn databases(rules: &str, seeds: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let seeds = seeds.to_string();
    let d = dir.path().to_str().unwrap();
    let args = [
        "egtb",
        "build",
        "--rules",
        rules,
        "--max-seeds",
        &seeds,
        "--dir",
        d,
    ];
    let built = oware(&args);
    assert!(built.status.success(), "{}", text(&built));
    dir
}

/// One HTTP request; the status and the JSON body.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    // The body may come in chunks: the JSON is between the first '{' and the last '}'.
    let json = match (body.find('{'), body.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&body[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}

/// `oware serve --no-egtb` on the game database `data`, listening on a free port of 127.0.0.1.
pub struct Served {
    pub child: Child,
    pub addr: SocketAddr,
    /// What it says on standard error, line by line, read as it comes (so that it never blocks on
    /// a full pipe).
    pub log: Arc<Mutex<Vec<String>>>,
}

pub fn serve(data: &Path) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["serve", "--no-egtb", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start oware serve");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let log = Arc::new(Mutex::new(Vec::new()));
    let addr = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .unwrap();
        let found = line
            .split("open http://")
            .nth(1)
            .map(|rest| rest.split('/').next().unwrap().parse().unwrap());
        log.lock().unwrap().push(line);
        if let Some(addr) = found {
            break addr;
        }
    };
    let kept = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            kept.lock().unwrap().push(line);
        }
    });
    Served { child, addr, log }
}

/// A new friend game with both seats taken: its id and the tokens of South and North.
pub fn friend_game(addr: SocketAddr) -> (String, [String; 2]) {
    let (status, created) = http(
        addr,
        "POST",
        "/api/games",
        Some(json!({"mode":"friend","side":"S"})),
    );
    assert_eq!(status, 200, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let invite = json!({ "invite": created["invite"] });
    let (status, joined) = http(addr, "POST", &format!("/api/games/{id}/join"), Some(invite));
    assert_eq!(status, 200, "{joined}");
    let token = |v: &Value| v["token"].as_str().unwrap().to_string();
    (id, [token(&created), token(&joined)])
}

pub type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// The next state message on `socket`, or `None` when the connection is gone or the server
/// refused something.
pub fn next_state(socket: &mut Socket) -> Option<Value> {
    loop {
        let Message::Text(text) = socket.read().ok()? else {
            continue;
        };
        let message: Value = serde_json::from_str(&text).ok()?;
        match message["type"].as_str() {
            Some("state") => return Some(message["game"].clone()),
            Some("error") => return None,
            _ => {}
        }
    }
}

/// A random legal move in the game `view` shows, by a xorshift step of `seed`: the move message
/// to send, the ply it is for, and the mover's seat (0 for South, 1 for North).
pub fn random_move(view: &Value, seed: &mut u64) -> (Message, usize, usize) {
    let legal: Vec<char> = view["legal"].as_str().unwrap().chars().collect();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let mv = legal[(*seed % legal.len() as u64) as usize];
    let ply = view["moves"].as_str().unwrap().len();
    let mover = usize::from(view["to_move"] == "N");
    let message = json!({"type":"move","move":mv.to_string(),"ply":ply}).to_string();
    (Message::Text(message.into()), ply, mover)
}
