//! `oware serve` killed with SIGKILL while friends play: every move the server acknowledged is
//! there after the restart. Several games play random legal moves over WebSockets; each round the
//! server is killed at a random moment and started again on the same file, and every game's stored
//! moves must begin with the moves its players saw confirmed.
//!
//! `OWARE_CRASH_ROUNDS=N` (default 6) sets the number of kills; the test prints the totals.

mod common;

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::http;
use serde_json::{json, Value};
use tungstenite::Message;

/// A server started on `data`, and the address it listens on.
fn start(data: &Path) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["serve", "--no-egtb", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .stderr(Stdio::piped())
        .spawn()
        .expect("start oware serve");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines
            .next()
            .expect("the server says where it listens")
            .unwrap();
        if let Some(rest) = line.split("open http://").nth(1) {
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    // Keep reading what it says, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (child, addr)
}

/// A friend game with both seats taken.
struct Friends {
    id: String,
    tokens: [String; 2],
    /// The moves the players saw confirmed.
    acknowledged: String,
    over: bool,
}

fn new_game(addr: SocketAddr) -> Friends {
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
    Friends {
        tokens: [
            created["token"].as_str().unwrap().to_string(),
            joined["token"].as_str().unwrap().to_string(),
        ],
        id,
        acknowledged: String::new(),
        over: false,
    }
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// The next state message on `socket`, or `None` when the connection is gone or the server
/// refused something.
fn next_state(socket: &mut Socket) -> Option<Value> {
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

/// Plays random legal moves in `game` until the connection breaks (the server was killed) or
/// the game ends, noting each move the mover saw confirmed.
fn play(addr: SocketAddr, game: Arc<Mutex<Friends>>, mut seed: u64) {
    let (id, tokens) = {
        let g = game.lock().unwrap();
        (g.id.clone(), g.tokens.clone())
    };
    let mut sockets = Vec::new();
    let mut view = Value::Null;
    for token in &tokens {
        let Ok((mut socket, _)) = tungstenite::connect(format!("ws://{addr}/api/games/{id}/ws"))
        else {
            return;
        };
        let seat = json!({"type":"seat","token":token}).to_string();
        if socket.send(Message::Text(seat.into())).is_err() {
            return;
        }
        let Some(state) = next_state(&mut socket) else {
            return;
        };
        view = state;
        sockets.push(socket);
    }
    loop {
        if !view["end"].is_null() {
            game.lock().unwrap().over = true;
            return;
        }
        let legal: Vec<char> = view["legal"].as_str().unwrap().chars().collect();
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let mv = legal[(seed % legal.len() as u64) as usize];
        let ply = view["moves"].as_str().unwrap().len();
        let mover = usize::from(view["to_move"] == "N");
        let message = json!({"type":"move","move":mv.to_string(),"ply":ply}).to_string();
        if sockets[mover].send(Message::Text(message.into())).is_err() {
            return;
        }
        loop {
            let Some(state) = next_state(&mut sockets[mover]) else {
                return;
            };
            if state["moves"].as_str().unwrap().len() > ply {
                view = state;
                break;
            }
        }
        game.lock().unwrap().acknowledged = view["moves"].as_str().unwrap().to_string();
        // About as fast as the server's per-game limit allows (10 moves a second).
        std::thread::sleep(Duration::from_millis(110));
    }
}

#[test]
fn no_acknowledged_move_is_lost_when_the_server_is_killed() {
    let rounds: usize = std::env::var("OWARE_CRASH_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.sqlite");
    let mut games: Vec<Arc<Mutex<Friends>>> = Vec::new();
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for round in 0..=rounds {
        let (mut server, addr) = start(&data);
        // Every game's stored moves begin with what its players saw confirmed.
        for game in &games {
            let g = game.lock().unwrap();
            let (status, view) = http(addr, "GET", &format!("/api/games/{}", g.id), None);
            assert_eq!(status, 200, "game {} after kill {round}: {view}", g.id);
            let stored = view["moves"].as_str().unwrap();
            assert!(
                stored.starts_with(&g.acknowledged),
                "game {} lost moves: confirmed {:?}, kept {stored:?}",
                g.id,
                g.acknowledged
            );
        }
        if round == rounds {
            server.kill().unwrap();
            server.wait().unwrap();
            break;
        }
        while games.iter().filter(|g| !g.lock().unwrap().over).count() < 4 {
            games.push(Arc::new(Mutex::new(new_game(addr))));
        }
        let players: Vec<_> = games
            .iter()
            .filter(|g| !g.lock().unwrap().over)
            .map(|game| {
                let game = game.clone();
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let s = seed | 1;
                std::thread::spawn(move || play(addr, game, s))
            })
            .collect();
        // Killed at a moment that falls anywhere in the play (moves are in flight all the time).
        std::thread::sleep(Duration::from_millis(300 + seed % 700));
        server.kill().unwrap();
        server.wait().unwrap();
        for player in players {
            player.join().unwrap();
        }
    }
    let acknowledged: usize = games
        .iter()
        .map(|g| g.lock().unwrap().acknowledged.len())
        .sum();
    eprintln!(
        "{rounds} kills during play: {acknowledged} acknowledged moves in {} games, all kept",
        games.len()
    );
    assert!(acknowledged > 0, "no move was played");
}
