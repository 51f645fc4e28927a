//! Load benchmark for `oware serve`: many concurrent friend games over WebSocket on loopback, two
//! clients per game, random legal moves. Reports moves per second, the move round trip (send to
//! the mover's confirmation) at p50/p99, and any legal move that was rejected or never confirmed
//! to both players.
//!
//! By default it starts its own server in this process on 127.0.0.1 (an ephemeral port, a
//! temporary SQLite file); `--addr` points it at a running server instead, loopback only.
//!
//! `--push-endpoint-delay-ms MS` measures what Web Push costs the move path. A push is sent only
//! to a player with no page open on the game, so in this mode each player connects for its own
//! move and leaves once the move is confirmed: at every move the other player is away and is due
//! a push. The tool runs its own push service on the loopback, which answers every message after
//! MS milliseconds, and plays rounds of the same shape, each against a fresh server: without
//! subscriptions (the reference), and with both players of every game subscribed before play, in
//! `--pairs` pairs whose order alternates. It prints every round, the medians of each kind and
//! their ratio, and how many pushes the service received. (With `--addr`, every round plays on
//! that server, which must run with `--push-allow-http`.)
//!
//! ```text
//! cargo run --release -p oware-server --example oware-load -- --games 500 --plies 60 --seconds 120
//! cargo run --release -p oware-server --example oware-load -- --games 500 --think-ms 200 \
//!     --push-endpoint-delay-ms 2000
//! ```

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use futures_util::{SinkExt, StreamExt};
use p256::elliptic_curve::sec1::ToEncodedPoint;
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
    /// How long the tool's push service takes to answer; `None`: no push rounds.
    push_delay: Option<Duration>,
    /// Pairs of rounds (without push, with push) when comparing.
    pairs: usize,
}

const USAGE: &str = "usage: oware-load [--games N (500, at most 2000)] [--plies N (60)] [--seconds S (120, at most 600)] [--think-ms MS (0)] [--push-endpoint-delay-ms MS [--pairs N (2)]] [--addr 127.0.0.1:PORT]";

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        games: 500,
        plies: 60,
        seconds: 120,
        addr: None,
        think: Duration::ZERO,
        push_delay: None,
        pairs: 2,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        let mut number = |name: &str| -> Result<u64, String> {
            value(name)?.parse().map_err(|e| format!("{name}: {e}"))
        };
        match a.as_str() {
            "--games" => o.games = number("--games")? as usize,
            "--plies" => o.plies = number("--plies")? as usize,
            "--seconds" => o.seconds = number("--seconds")?,
            "--think-ms" => o.think = Duration::from_millis(number("--think-ms")?.min(10_000)),
            "--push-endpoint-delay-ms" => {
                let ms = number("--push-endpoint-delay-ms")?.min(60_000);
                o.push_delay = Some(Duration::from_millis(ms));
            }
            "--pairs" => o.pairs = (number("--pairs")? as usize).clamp(1, 10),
            "--addr" => {
                let addr: SocketAddr = value("--addr")?
                    .parse()
                    .map_err(|e| format!("--addr: {e}"))?;
                if !addr.ip().is_loopback() {
                    return Err("--addr must be a loopback address (127.0.0.1 or ::1)".into());
                }
                o.addr = Some(addr);
            }
            "--help" | "-h" => return Err(USAGE.into()),
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

/// How the players of a game are connected while it is played.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Both players keep their page open for the whole game.
    Together,
    /// Each player connects for its own move and leaves once it is confirmed, so the other
    /// player is away at every move (and due a push, if subscribed).
    TakingTurns,
}

/// One round of games, as the games are told to play it.
#[derive(Clone)]
struct Round {
    addr: SocketAddr,
    plies: usize,
    think: Duration,
    shape: Shape,
    /// The push service's base address, when the players subscribe.
    push: Option<String>,
}

#[derive(Default)]
struct Stats {
    latencies: Vec<Duration>,
    rejected: usize,
    lost: usize,
    finished: usize,
    failed_setup: usize,
}

impl Stats {
    fn add(&mut self, other: Stats) {
        self.latencies.extend(other.latencies);
        self.rejected += other.rejected;
        self.lost += other.lost;
        self.finished += other.finished;
        self.failed_setup += other.failed_setup;
    }
}

/// A plain HTTP/1.1 POST of a JSON body: the status and the body's text.
async fn post(addr: SocketAddr, path: &str, body: &str) -> Result<(u16, String), String> {
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
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no body")?;
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    Ok((status, body.to_string()))
}

async fn post_json(addr: SocketAddr, path: &str, body: &str) -> Result<Value, String> {
    let (_, body) = post(addr, path, body).await?;
    serde_json::from_str(&body).map_err(|e| format!("{e}: {body}"))
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

/// Opens the game's WebSocket, takes the seat of `token`, and waits for a state with at least
/// `plies` moves: the moves made while the player was away must all be there.
async fn sit(
    addr: SocketAddr,
    id: &str,
    token: &str,
    plies: usize,
    game: &mut Value,
) -> Result<Socket, String> {
    let (mut s, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{id}/ws"))
        .await
        .map_err(|e| e.to_string())?;
    let seat = json!({"type": "seat", "token": token}).to_string();
    s.send(Message::Text(seat.into()))
        .await
        .map_err(|e| e.to_string())?;
    wait_state(&mut s, plies, game)
        .await
        .map_err(|_| format!("no state with {plies} moves"))?;
    Ok(s)
}

/// A browser's Web Push subscription to `endpoint`: a real P-256 key and auth secret, so that the
/// server encrypts every message as it would for a browser.
fn subscription(endpoint: &str) -> Value {
    let secret = p256::SecretKey::from_slice(&[7; 32]).expect("a valid scalar");
    let public = secret.public_key().to_encoded_point(false);
    json!({
        "endpoint": endpoint,
        "keys": {
            "p256dh": URL_SAFE_NO_PAD.encode(public.as_bytes()),
            "auth": URL_SAFE_NO_PAD.encode([9u8; 16]),
        }
    })
}

/// A friend game ready to play: its id and the seats' tokens, South first.
struct Table {
    id: String,
    tokens: [String; 2],
}

/// Creates a friend game, joins it, and subscribes both players when the round pushes.
async fn set_up(round: &Round) -> Result<Table, String> {
    let addr = round.addr;
    let created = post_json(addr, "/api/games", r#"{"mode":"friend","side":"S"}"#).await?;
    let id = created["id"].as_str().ok_or("no id")?.to_string();
    let south = created["token"].as_str().ok_or("no token")?.to_string();
    let invite = json!({ "invite": created["invite"] }).to_string();
    let joined = post_json(addr, &format!("/api/games/{id}/join"), &invite).await?;
    let north = joined["token"].as_str().ok_or("no seat")?.to_string();
    let tokens = [south, north];
    if let Some(base) = &round.push {
        for (side, token) in ["south", "north"].iter().zip(&tokens) {
            let body = json!({
                "subscription": subscription(&format!("{base}/push/{id}/{side}")),
                "token": token,
            });
            let (status, text) =
                post(addr, &format!("/api/games/{id}/push"), &body.to_string()).await?;
            if status != 204 {
                return Err(format!("subscription refused: {status} {text}"));
            }
        }
    }
    Ok(Table { id, tokens })
}

async fn play_game(round: Round, table: Table, seed: u64) -> Result<Stats, String> {
    let Table { id, tokens } = table;
    let addr = round.addr;
    let mut game = Value::Null;
    let mut sockets: [Option<Socket>; 2] = [None, None];
    for (socket, token) in sockets.iter_mut().zip(&tokens) {
        *socket = Some(sit(addr, &id, token, 0, &mut game).await?);
    }
    let mut stats = Stats::default();
    let mut rng = seed | 1;
    let mut ply = game["moves"].as_str().map_or(0, str::len);
    let mut other_game = Value::Null;
    while ply < round.plies && game["end"].is_null() {
        let mover = usize::from(game["to_move"] == "N");
        if round.shape == Shape::TakingTurns {
            if let Some(mut away) = sockets[1 - mover].take() {
                let _ = away.close(None).await;
            }
            if sockets[mover].is_none() {
                match sit(addr, &id, &tokens[mover], ply, &mut game).await {
                    Ok(s) => sockets[mover] = Some(s),
                    Err(_) => {
                        stats.lost += 1;
                        break;
                    }
                }
            }
        }
        let legal: Vec<char> = game["legal"].as_str().unwrap_or("").chars().collect();
        if legal.is_empty() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = legal[(rng % legal.len() as u64) as usize];
        if !round.think.is_zero() {
            // Spread the pauses so the games do not move in lockstep.
            tokio::time::sleep(round.think.mul_f64(0.5 + (rng % 1000) as f64 / 1000.0)).await;
        }
        let socket = sockets[mover].as_mut().expect("the mover is connected");
        let msg = json!({"type":"move","move":mv.to_string(),"ply":ply}).to_string();
        let start = Instant::now();
        socket
            .send(Message::Text(msg.into()))
            .await
            .map_err(|e| e.to_string())?;
        match wait_state(socket, ply + 1, &mut game).await {
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
        // The other player must see the move too: at once if connected, or when it comes back.
        if let Some(other) = sockets[1 - mover].as_mut() {
            if wait_state(other, ply + 1, &mut other_game).await.is_err() {
                stats.lost += 1;
                break;
            }
        }
        ply += 1;
    }
    // Taking turns, the player who was away at the last move comes back to see it.
    if stats.rejected + stats.lost == 0 {
        for (socket, token) in sockets.iter_mut().zip(&tokens) {
            if socket.is_none() {
                match sit(addr, &id, token, ply, &mut other_game).await {
                    Ok(s) => *socket = Some(s),
                    Err(_) => stats.lost += 1,
                }
            }
        }
    }
    stats.finished = 1;
    for mut s in sockets.into_iter().flatten() {
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

/// A server in this process on an ephemeral loopback port, with its data in a temporary folder.
/// It runs on a Tokio runtime of its own, as it would in its own process, so that dropping this
/// stops all of it at once: a round's pushes still queued must not go on being sent during the
/// next round.
struct LocalServer {
    addr: SocketAddr,
    dir: PathBuf,
    runtime: Option<tokio::runtime::Runtime>,
}

impl LocalServer {
    fn start(games: usize) -> LocalServer {
        let dir = std::env::temp_dir().join(format!("oware-load-{}", oware_server::new_token()));
        std::fs::create_dir_all(&dir).expect("temporary folder");
        let config = oware_server::Config {
            data: Some(dir.join("load.sqlite")),
            max_connections: games * 2 + 16,
            // Load clients answer at machine speed, faster than any person, and create all
            // their games from one address; the limits are for hostile clients, not for this
            // measurement.
            messages_per_second: 10_000,
            moves_per_second: 10_000,
            games_per_address: 100_000,
            sockets_per_address: games * 2 + 16,
            // The tool's push service listens on the loopback, over plain HTTP.
            push_allow_http: true,
            ..oware_server::Config::default()
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .expect("a Tokio runtime");
        let _in_runtime = runtime.enter();
        let state = oware_server::AppState::new(config).expect("server state");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener
            .set_nonblocking(true)
            .expect("a non-blocking socket");
        let addr = listener.local_addr().unwrap();
        let listener = tokio::net::TcpListener::from_std(listener).expect("a Tokio listener");
        runtime.spawn(oware_server::serve(listener, state, std::future::pending()));
        LocalServer {
            addr,
            dir,
            runtime: Some(runtime),
        }
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A push service on the loopback that answers every message `201 Created` after `delay`, as a
/// slow one would, and counts the messages it received.
async fn start_push_service(delay: Duration) -> (String, Arc<AtomicU64>) {
    let received = Arc::new(AtomicU64::new(0));
    let count = received.clone();
    let answer = move || {
        let count = count.clone();
        async move {
            count.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(delay).await;
            axum::http::StatusCode::CREATED
        }
    };
    let app = axum::Router::new().fallback(axum::routing::post(answer));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (base, received)
}

/// What one round measured.
struct Report {
    stats: Stats,
    elapsed: Duration,
    /// The CPU time the process used meanwhile, where the system tells it.
    cpu: Option<Duration>,
    timed_out: bool,
}

impl Report {
    fn moves_per_second(&self) -> f64 {
        self.stats.latencies.len() as f64 / self.elapsed.as_secs_f64()
    }

    fn p(&self, p: f64) -> Duration {
        percentile(&self.stats.latencies, p)
    }

    /// CPU microseconds a confirmed move: what the work costs, whatever share of the machine
    /// the process got (on a machine shared with other work, moves/s and the latencies follow
    /// that share).
    fn cpu_per_move(&self) -> Option<f64> {
        let moves = self.stats.latencies.len();
        (moves > 0).then_some(self.cpu?.as_secs_f64() * 1e6 / moves as f64)
    }

    fn failed(&self) -> bool {
        self.stats.rejected + self.stats.lost + self.stats.failed_setup > 0 || self.timed_out
    }

    fn print(&self, games: usize) {
        let s = &self.stats;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "games finished:   {} of {games}{}",
            s.finished,
            if self.timed_out {
                " (time limit reached)"
            } else {
                ""
            }
        );
        println!(
            "moves confirmed:  {} in {:.2} s = {:.0} moves/s",
            s.latencies.len(),
            self.elapsed.as_secs_f64(),
            self.moves_per_second()
        );
        println!(
            "move round trip:  p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(self.p(0.50)),
            ms(self.p(0.99)),
            ms(s.latencies.last().copied().unwrap_or_default())
        );
        if let (Some(cpu), Some(per_move)) = (self.cpu, self.cpu_per_move()) {
            println!(
                "CPU time:         {:.2} s (the clients, and the server unless --addr) = {per_move:.0} us a move",
                cpu.as_secs_f64()
            );
        }
        println!(
            "legal moves rejected: {}, lost: {}, games that failed to start: {}",
            s.rejected, s.lost, s.failed_setup
        );
    }
}

/// The CPU time (user and system) this process has used, where Linux tells it.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command's name, which is in parentheses and may hold spaces: the
    // first is field 3 of proc_pid_stat(5), so utime and stime (14 and 15) are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // Clock ticks, 100 a second on Linux.
    Some(Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
}

/// Sets up `games` games of `round`, then plays them all at once for at most `seconds`: the
/// figures are for the play alone.
async fn play_round(round: &Round, games: usize, seconds: u64) -> Report {
    let mut stats = Stats::default();
    let mut setting_up = tokio::task::JoinSet::new();
    for g in 0..games {
        let round = round.clone();
        setting_up.spawn(async move { (g, set_up(&round).await) });
    }
    let mut tables = Vec::new();
    while let Some(done) = setting_up.join_next().await {
        match done.map_err(|e| e.to_string()) {
            Ok((g, Ok(table))) => tables.push((g, table)),
            Ok((_, Err(e))) | Err(e) => {
                stats.failed_setup += 1;
                eprintln!("game setup failed: {e}");
            }
        }
    }
    let (start, cpu_at_start) = (Instant::now(), cpu_time());
    let mut tasks = tokio::task::JoinSet::new();
    for (g, table) in tables {
        let seed = 0x9e37_79b9_7f4a_7c15 ^ (g as u64 * 0x1234_5678_9abc);
        tasks.spawn(play_game(round.clone(), table, seed));
    }
    let deadline = tokio::time::sleep(Duration::from_secs(seconds));
    tokio::pin!(deadline);
    let mut timed_out = false;
    loop {
        tokio::select! {
            next = tasks.join_next() => match next {
                Some(Ok(Ok(s))) => stats.add(s),
                Some(Ok(Err(e))) => { stats.failed_setup += 1; eprintln!("game failed to start: {e}"); }
                Some(Err(e)) => { stats.failed_setup += 1; eprintln!("game task failed: {e}"); }
                None => break,
            },
            _ = &mut deadline => { timed_out = true; tasks.abort_all(); break; }
        }
    }
    stats.latencies.sort();
    let cpu = cpu_time()
        .zip(cpu_at_start)
        .map(|(now, then)| now.saturating_sub(then));
    Report {
        stats,
        elapsed: start.elapsed(),
        cpu,
        timed_out,
    }
}

/// Runs one round against `--addr`, or against a fresh server of its own.
async fn run_round(options: &Options, shape: Shape, push: Option<String>) -> Report {
    let local = match options.addr {
        Some(_) => None,
        None => Some(LocalServer::start(options.games)),
    };
    let addr = options
        .addr
        .or(local.as_ref().map(|s| s.addr))
        .expect("a server");
    println!(
        "oware-load: {} games x 2 clients{}, up to {} plies each, think {} ms, at most {} s, server {addr}",
        options.games,
        match (shape, &push) {
            (Shape::Together, _) => "",
            (Shape::TakingTurns, None) => " taking turns (each connects for its own move), no push",
            (Shape::TakingTurns, Some(_)) => " taking turns (each connects for its own move), all subscribed to push",
        },
        options.plies,
        options.think.as_millis(),
        options.seconds
    );
    let round = Round {
        addr,
        plies: options.plies,
        think: options.think,
        shape,
        push,
    };
    let report = play_round(&round, options.games, options.seconds).await;
    report.print(options.games);
    report
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// Rounds without and with push subscriptions, in pairs whose order alternates (so that
/// neither kind always runs first on a machine whose load drifts), and the medians of each
/// kind compared. Whether every round went without a fault and pushes were sent.
async fn compare_push(options: &Options, delay: Duration) -> bool {
    let (base, received) = start_push_service(delay).await;
    // Reports without push subscriptions, then with.
    let mut reports: [Vec<Report>; 2] = [Vec::new(), Vec::new()];
    let (mut pushes, mut due) = (0, 0);
    for pair in 0..options.pairs {
        let order = if pair % 2 == 0 { [0, 1] } else { [1, 0] };
        for kind in order {
            let push = (kind == 1).then(|| base.clone());
            let before = received.load(Ordering::Relaxed);
            let report = run_round(options, Shape::TakingTurns, push).await;
            if kind == 1 {
                let got = received.load(Ordering::Relaxed) - before;
                println!(
                    "push service: {got} messages received during the round, for {} moves each due one",
                    report.stats.latencies.len()
                );
                pushes += got;
                due += report.stats.latencies.len();
            }
            println!();
            reports[kind].push(report);
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let figures = |reports: &[Report]| {
        [
            median(reports.iter().map(Report::moves_per_second).collect()),
            median(reports.iter().map(|r| ms(r.p(0.50))).collect()),
            median(reports.iter().map(|r| ms(r.p(0.99))).collect()),
            median(
                reports
                    .iter()
                    .map(|r| r.cpu_per_move().unwrap_or(f64::NAN))
                    .collect(),
            ),
        ]
    };
    let (without, with) = (figures(&reports[0]), figures(&reports[1]));
    println!(
        "medians of {} round(s) each, the push service answering after {} ms:",
        options.pairs,
        delay.as_millis()
    );
    println!("                 moves/s    p50 ms    p99 ms  CPU us/move");
    for (name, f) in [("without push", without), ("with push", with)] {
        println!(
            "{name:<14} {:>9.0} {:>9.2} {:>9.2} {:>12.0}",
            f[0], f[1], f[2], f[3]
        );
    }
    println!(
        "with / without {:>9.3} {:>9.3} {:>9.3} {:>12.3}",
        with[0] / without[0],
        with[1] / without[1],
        with[2] / without[2],
        with[3] / without[3]
    );
    println!("pushes received: {pushes}, for {due} moves each due one");
    let faults = reports.iter().flatten().any(Report::failed);
    !faults && pushes > 0
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
    let passed = match options.push_delay {
        None => !run_round(&options, Shape::Together, None).await.failed(),
        Some(delay) => compare_push(&options, delay).await,
    };
    if passed {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}
