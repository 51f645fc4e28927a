//! Load benchmark for `oware serve`: many concurrent friend games over WebSocket on loopback, two
//! clients per game, random legal moves. Reports moves per second, the move round trip (send to
//! the mover's confirmation) at p50/p99, and any legal move that was rejected or never confirmed
//! to both players.
//!
//! By default it starts its own server in this process on 127.0.0.1 (an ephemeral port, a
//! temporary SQLite file); `--addr` points it at a running server instead, loopback only.
//!
//! ```text
//! cargo run --release -p oware-server --example oware-load -- --games 500 --plies 60 --seconds 120
//! ```

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

struct Options {
    games: usize,
    plies: usize,
    seconds: u64,
    addr: Option<SocketAddr>,
    /// Pause before each move, as a person would; 0 sends every move as soon as the last is seen.
    think: Duration,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        games: 500,
        plies: 60,
        seconds: 120,
        addr: None,
        think: Duration::ZERO,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--games" => o.games = value("--games")?.parse().map_err(|e| format!("--games: {e}"))?,
            "--plies" => o.plies = value("--plies")?.parse().map_err(|e| format!("--plies: {e}"))?,
            "--seconds" => {
                o.seconds = value("--seconds")?.parse().map_err(|e| format!("--seconds: {e}"))?
            }
            "--addr" => {
                let addr: SocketAddr = value("--addr")?.parse().map_err(|e| format!("--addr: {e}"))?;
                if !addr.ip().is_loopback() {
                    return Err("--addr must be a loopback address (127.0.0.1 or ::1)".into());
                }
                o.addr = Some(addr);
            }
            "--think-ms" => {
                let ms: u64 = value("--think-ms")?.parse().map_err(|e| format!("--think-ms: {e}"))?;
                o.think = Duration::from_millis(ms.min(10_000));
            }
            "--help" | "-h" => {
                return Err("usage: oware-load [--games N (500, at most 2000)] [--plies N (60)] [--seconds S (120, at most 600)] [--think-ms MS (0)] [--addr 127.0.0.1:PORT]".into())
            }
            other => return Err(format!("unknown option {other:?} (try --help)")),
        }
    }
    if o.games == 0 || o.games > 2000 {
        return Err("--games must be from 1 to 2000".into());
    }
    o.seconds = o.seconds.clamp(1, 600);
    o.plies = o.plies.clamp(1, 400);
    Ok(o)
}

#[derive(Default)]
struct Stats {
    latencies: Vec<Duration>,
    rejected: usize,
    lost: usize,
    finished: usize,
    failed_setup: usize,
}

async fn post(addr: SocketAddr, path: &str, body: &str) -> Result<Value, String> {
    let mut s = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&out);
    let (_, body) = text.split_once("\r\n\r\n").ok_or("no body")?;
    serde_json::from_str(body).map_err(|e| format!("{e}: {body}"))
}

type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<TcpStream>>;

/// Reads messages until a state with `plies` moves (Ok), or an error message (Err(true)), or a
/// timeout / closed socket (Err(false)).
async fn wait_state(socket: &mut Socket, plies: usize, game: &mut Value) -> Result<(), bool> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), socket.next()).await;
        let Ok(Some(Ok(Message::Text(text)))) = msg else {
            if let Ok(Some(Ok(_))) = msg {
                continue;
            }
            return Err(false);
        };
        let v: Value = serde_json::from_str(&text).map_err(|_| false)?;
        match v["type"].as_str() {
            Some("state") => {
                *game = v["game"].clone();
                if game["moves"].as_str().map_or(0, str::len) >= plies {
                    return Ok(());
                }
            }
            Some("error") => return Err(true),
            _ => {}
        }
    }
}

async fn play_game(
    addr: SocketAddr,
    seed: u64,
    max_plies: usize,
    think: Duration,
) -> Result<Stats, String> {
    let created = post(addr, "/api/games", r#"{"mode":"friend","side":"S"}"#).await?;
    let id = created["id"].as_str().ok_or("no id")?.to_string();
    let south = created["token"].as_str().ok_or("no token")?.to_string();
    let invite = serde_json::json!({ "invite": created["invite"] }).to_string();
    let joined = post(addr, &format!("/api/games/{id}/join"), &invite).await?;
    let north = joined["token"].as_str().ok_or("no seat")?.to_string();
    let mut sockets = Vec::new();
    let mut game = Value::Null;
    for token in [&south, &north] {
        let (mut s, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
            .await
            .map_err(|e| e.to_string())?;
        let seat = serde_json::json!({"type": "seat", "token": token}).to_string();
        s.send(Message::Text(seat.into()))
            .await
            .map_err(|e| e.to_string())?;
        let mut g = Value::Null;
        wait_state(&mut s, 0, &mut g)
            .await
            .map_err(|_| "no state")?;
        game = g;
        sockets.push(s);
    }
    let mut stats = Stats::default();
    let mut rng = seed | 1;
    let mut ply = game["moves"].as_str().map_or(0, str::len);
    let mut other_game = Value::Null;
    while ply < max_plies && game["end"].is_null() {
        let legal: Vec<char> = game["legal"].as_str().unwrap_or("").chars().collect();
        if legal.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = legal[(rng % legal.len() as u64) as usize];
        let mover = usize::from(game["to_move"] == "N");
        if !think.is_zero() {
            // Spread the pauses so the games do not move in lockstep.
            tokio::time::sleep(think.mul_f64(0.5 + (rng % 1000) as f64 / 1000.0)).await;
        }
        let msg = json!({"type":"move","move":mv.to_string(),"ply":ply}).to_string();
        let start = Instant::now();
        sockets[mover]
            .send(Message::Text(msg.into()))
            .await
            .map_err(|e| e.to_string())?;
        match wait_state(&mut sockets[mover], ply + 1, &mut game).await {
            Ok(()) => stats.latencies.push(start.elapsed()),
            Err(true) => {
                stats.rejected += 1;
                break;
            }
            Err(false) => {
                stats.lost += 1;
                break;
            }
        }
        // The other player must see the move too.
        if wait_state(&mut sockets[1 - mover], ply + 1, &mut other_game)
            .await
            .is_err()
        {
            stats.lost += 1;
            break;
        }
        ply += 1;
    }
    stats.finished = 1;
    for mut s in sockets {
        let _ = s.close(None).await;
    }
    Ok(stats)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let options = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("oware-load: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let mut temp = None;
    let addr = match options.addr {
        Some(a) => a,
        None => {
            let dir =
                std::env::temp_dir().join(format!("oware-load-{}", oware_server::new_token()));
            std::fs::create_dir_all(&dir).expect("temporary folder");
            let config = oware_server::Config {
                data: Some(dir.join("load.sqlite")),
                max_connections: options.games * 2 + 16,
                // Load clients answer at machine speed, faster than any person, and create all
                // their games from one address; the limits are for hostile clients, not for this
                // measurement.
                messages_per_second: 10_000,
                moves_per_second: 10_000,
                games_per_address: 100_000,
                sockets_per_address: options.games * 2 + 16,
                ..oware_server::Config::default()
            };
            let state = oware_server::AppState::new(config).expect("server state");
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind loopback");
            let addr = listener.local_addr().unwrap();
            tokio::spawn(oware_server::serve(listener, state, std::future::pending()));
            temp = Some(dir);
            addr
        }
    };
    println!(
        "oware-load: {} games x 2 clients, up to {} plies each, think {} ms, at most {} s, server {addr}",
        options.games,
        options.plies,
        options.think.as_millis(),
        options.seconds
    );
    let start = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for g in 0..options.games {
        let plies = options.plies;
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (g as u64 * 0x1234_5678_9abc);
        tasks.spawn(play_game(addr, seed, plies, options.think));
    }
    let mut total = Stats::default();
    let deadline = tokio::time::sleep(Duration::from_secs(options.seconds));
    tokio::pin!(deadline);
    let mut timed_out = false;
    loop {
        tokio::select! {
            next = tasks.join_next() => match next {
                Some(Ok(Ok(s))) => {
                    total.latencies.extend(s.latencies);
                    total.rejected += s.rejected;
                    total.lost += s.lost;
                    total.finished += s.finished;
                }
                Some(Ok(Err(e))) => { total.failed_setup += 1; eprintln!("game setup failed: {e}"); }
                Some(Err(e)) => { total.failed_setup += 1; eprintln!("game task failed: {e}"); }
                None => break,
            },
            _ = &mut deadline => { timed_out = true; tasks.abort_all(); break; }
        }
    }
    let elapsed = start.elapsed();
    let mut lat = total.latencies;
    lat.sort();
    let moves = lat.len();
    println!(
        "games finished:   {} of {}{}",
        total.finished,
        options.games,
        if timed_out {
            " (time limit reached)"
        } else {
            ""
        }
    );
    println!(
        "moves confirmed:  {moves} in {:.2} s = {:.0} moves/s",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64()
    );
    println!(
        "move round trip:  p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&lat, 0.50).as_secs_f64() * 1e3,
        percentile(&lat, 0.99).as_secs_f64() * 1e3,
        lat.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    println!(
        "legal moves rejected: {}, lost: {}, games that failed to start: {}",
        total.rejected, total.lost, total.failed_setup
    );
    if let Some(dir) = temp {
        let _ = std::fs::remove_dir_all(dir);
    }
    if total.rejected + total.lost + total.failed_setup > 0 || timed_out {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
