//! `oware serve` after faults of its disk, injected with strace into the thread that writes the
//! game database (`oware-store`) of a running server, then lifted: the server must find its feet
//! again by itself, and say what happened. And a damaged database file: the server starts and
//! says what it ignored, or refuses to start and names the damage.
//!
//! The fault tests need strace (`scripts/test.sh` installs it) and the right to trace a process
//! of one's own.

mod common;

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use common::{friend_game, http, next_state, random_move, serve, Served, Socket};
use serde_json::{json, Value};
use tungstenite::Message;

/// A running `oware serve`, and what it says on standard error.
struct Server {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
}

impl Server {
    fn start(data: &Path) -> Server {
        let Served { child, addr, log } = serve(data);
        Server { child, addr, log }
    }

    /// Whether a line of the log contains `text`.
    fn said(&self, text: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(text))
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().join("\n")
    }

    /// The id of the thread that writes the database. On a loaded machine the server may answer
    /// before that thread has named itself, so it is looked for again for a while.
    fn store_thread(&self) -> String {
        let tasks = format!("/proc/{}/task", self.child.id());
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            for entry in std::fs::read_dir(&tasks).unwrap() {
                let path = entry.unwrap().path();
                let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
                if comm.trim() == "oware-store" {
                    return path.file_name().unwrap().to_string_lossy().into_owned();
                }
            }
            assert!(
                Instant::now() < deadline,
                "no oware-store thread in {tasks}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Injects `fault` (strace's `-e inject=` argument) into the database writer's system calls
    /// until the returned guard is dropped.
    fn inject(&self, fault: &str) -> Injection {
        let thread = self.store_thread();
        let syscalls = fault.split(':').next().unwrap();
        let strace = Command::new("strace")
            .args(["-qq", "-o", "/dev/null", "-e"])
            .arg(format!("trace={syscalls}"))
            .arg("-e")
            .arg(format!("inject={fault}"))
            .args(["-p", &thread])
            .spawn()
            .expect("strace (apt-get install strace)");
        // Attached once the thread names its tracer.
        let status = format!("/proc/{}/task/{thread}/status", self.child.id());
        let deadline = Instant::now() + Duration::from_secs(10);
        while !std::fs::read_to_string(&status)
            .unwrap_or_default()
            .lines()
            .any(|l| l.starts_with("TracerPid:") && l.split_whitespace().nth(1) != Some("0"))
        {
            assert!(Instant::now() < deadline, "strace did not attach");
            std::thread::sleep(Duration::from_millis(20));
        }
        Injection { strace }
    }

    /// Creates a friend game; the status and the answer.
    fn create_game(&self) -> (u16, Value) {
        http(
            self.addr,
            "POST",
            "/api/games",
            Some(json!({"mode":"friend","side":"S"})),
        )
    }

    /// Waits until `text` is in the log, at most `patience`.
    fn wait_for(&self, text: &str, patience: Duration) -> bool {
        let deadline = Instant::now() + patience;
        while Instant::now() < deadline {
            if self.said(text) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// strace at work; dropping it detaches it, and the system calls work again.
struct Injection {
    strace: Child,
}

impl Drop for Injection {
    fn drop(&mut self) {
        let _ = self.strace.kill();
        let _ = self.strace.wait();
    }
}

#[test]
fn a_connection_left_stuck_by_a_failed_lock_release_is_opened_again() {
    let dir = tempfile::tempdir().unwrap();
    let server = Server::start(&dir.path().join("games.sqlite"));
    assert_eq!(server.create_game().0, 200);
    {
        // Every lock and unlock of the database's files fails for a while: the writes then
        // fail, and SQLite's own view of its locks no longer matches the system's.
        let _fault = server.inject("fcntl:error=EIO");
        for _ in 0..3 {
            let (status, answer) = server.create_game();
            assert_eq!(status, 500, "{answer}");
            assert_eq!(answer["error"]["code"], "storage", "{answer}");
        }
    }
    // The disk works again: so must the server, without a restart (it used to answer "database
    // is locked" to every write from then on).
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let (status, answer) = server.create_game();
        if status == 200 {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "still failing after the fault was lifted: {answer}\n{}",
            server.log()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    assert!(
        server.said("its connection was closed and opened again"),
        "{}",
        server.log()
    );
    for _ in 0..3 {
        assert_eq!(server.create_game().0, 200);
    }
}

/// Plays random legal moves in a new friend game until it ends or `stop` says so; returns the
/// number of moves played.
fn play_a_game(addr: SocketAddr, mut seed: u64, stop: &dyn Fn() -> bool) -> usize {
    let (id, tokens) = friend_game(addr);
    let mut sockets: Vec<Socket> = Vec::new();
    let mut view = Value::Null;
    for token in &tokens {
        let (mut socket, _) =
            tungstenite::connect(format!("ws://{addr}/api/games/{id}/ws")).unwrap();
        let seat = json!({"type":"seat","token":token}).to_string();
        socket.send(Message::Text(seat.into())).unwrap();
        view = next_state(&mut socket).expect("the game's state");
        sockets.push(socket);
    }
    let mut played = 0;
    while view["end"].is_null() && !stop() {
        let (message, ply, mover) = random_move(&view, &mut seed);
        sockets[mover].send(message).unwrap();
        loop {
            let state = next_state(&mut sockets[mover]).expect("the server took the move");
            if state["moves"].as_str().unwrap().len() > ply {
                view = state;
                break;
            }
        }
        played += 1;
        // Within the server's limit of moves a second in one game.
        std::thread::sleep(Duration::from_millis(105));
    }
    played
}

/// Plays games on `threads` threads until `done` holds.
fn play_until(addr: SocketAddr, threads: u64, done: impl Fn() -> bool + Send + Sync + 'static) {
    let done = Arc::new(done);
    let players: Vec<_> = (0..threads)
        .map(|i| {
            let done = done.clone();
            std::thread::spawn(move || {
                let mut seed = 0x9e37_79b9_7f4a_7c15_u64.wrapping_mul(i + 1) | 1;
                while !done() {
                    seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1) | 1;
                    play_a_game(addr, seed, &*done);
                }
            })
        })
        .collect();
    for player in players {
        player.join().unwrap();
    }
}

#[test]
fn a_disk_that_refuses_to_flush_is_reported_and_the_log_flushed_once_it_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.sqlite");
    let server = Server::start(&data);
    let wal = dir.path().join("games.sqlite-wal");
    let log = server.log.clone();
    let said = move |text: &str| log.lock().unwrap().iter().any(|l| l.contains(text));
    let give_up = Instant::now() + Duration::from_secs(120);
    {
        // Every flush to the disk fails: moves go on being stored, but a power cut would lose
        // them. That must be said, not left silent while the log grows.
        let _fault = server.inject("fsync,fdatasync:error=EIO");
        let said = said.clone();
        play_until(server.addr, 8, move || {
            said("cannot be flushed to the disk") || Instant::now() > give_up
        });
        assert!(
            server.said("cannot be flushed to the disk"),
            "nothing said after two minutes of failing flushes\n{}",
            server.log()
        );
    }
    // Flushes work again: the next checkpoint empties the log, and says so.
    let said_flushed = said.clone();
    play_until(server.addr, 8, move || {
        said_flushed("reaches the disk again") || Instant::now() > give_up
    });
    assert!(server.said("reaches the disk again"), "{}", server.log());
    let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
    assert!(
        wal_bytes < 1024 * 1024,
        "the log still holds {wal_bytes} bytes"
    );
    // Reported once, not once a move.
    let reports = server
        .log
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("cannot be flushed"))
        .count();
    assert_eq!(reports, 1, "{}", server.log());
}

/// A database file with a game in it, made by a server that then stopped.
fn database_with_a_game(data: &Path) -> String {
    let server = Server::start(data);
    let (status, created) = server.create_game();
    assert_eq!(status, 200, "{created}");
    // The server notes that it is alive as it starts, and every two seconds.
    std::thread::sleep(Duration::from_millis(300));
    created["id"].as_str().unwrap().to_string()
}

/// Changes the database file as someone editing it by hand would.
fn sqlite(data: &Path, sql: &str) {
    rusqlite::Connection::open(data)
        .unwrap()
        .execute_batch(sql)
        .unwrap();
}

#[test]
fn a_damaged_note_of_life_is_ignored_and_the_games_load() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.sqlite");
    let id = database_with_a_game(&data);
    sqlite(&data, "UPDATE alive SET at_ms = 'abc'");
    let server = Server::start(&data);
    assert!(
        server.wait_for("last sign of life is damaged", Duration::from_secs(5)),
        "{}",
        server.log()
    );
    let (status, view) = http(server.addr, "GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200, "{view}");
}

#[test]
fn a_missing_table_of_moves_refuses_the_start_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("games.sqlite");
    database_with_a_game(&data);
    sqlite(&data, "DROP TABLE moves");
    let out = common::oware(&[
        "serve",
        "--no-egtb",
        "--addr",
        "127.0.0.1:0",
        "--data",
        data.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let said = common::stderr(&out);
    assert!(
        said.contains("table moves is missing") && said.contains("backup"),
        "{said}"
    );
}
