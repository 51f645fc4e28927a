//! `oware serve` killed with SIGKILL while friends play: every move the server acknowledged is
//! there after the restart. Several games play random legal moves over WebSockets; each round the
//! server is killed at a random moment and started again on the same file, and every game's stored
//! moves must begin with the moves its players saw confirmed.
//!
//! `OWARE_CRASH_ROUNDS=N` (default 6) sets the number of kills; the test prints the totals.

mod common;

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{friend_game, http, next_state, random_move, serve, Served};
use serde_json::{json, Value};
use tungstenite::Message;

/// A friend game with both seats taken.
struct Friends {
    id: String,
    tokens: [String; 2],
    /// The moves the players saw confirmed.
    acknowledged: String,
    over: bool,
}

fn new_game(addr: SocketAddr) -> Friends {
    let (id, tokens) = friend_game(addr);
    Friends {
        id,
        tokens,
        acknowledged: String::new(),
        over: false,
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
        let (message, ply, mover) = random_move(&view, &mut seed);
        if sockets[mover].send(message).is_err() {
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
        let Served {
            child: mut server,
            addr,
            ..
        } = serve(&data);
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
