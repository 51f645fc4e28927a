//! Drives the built `oware engine` binary through the UCI-style protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

use oware_rules::{Game, Move, Position, RuleSet};

struct Engine {
    child: Child,
    /// `None` once closed (end of input).
    input: Option<ChildStdin>,
    lines: Receiver<String>,
}

/// A test that fails mid-search must not leave its engine searching for ever.
impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
            .args(["engine", "--no-egtb"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("start oware engine");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            input: Some(input),
            lines,
        }
    }

    fn send(&mut self, text: &str) {
        self.send_bytes(text.as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let input = self.input.as_mut().expect("input still open");
        input.write_all(bytes).unwrap();
        input.write_all(b"\n").unwrap();
        input.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {prefix:?} line; got {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn bestmove(&mut self) -> String {
        let lines = self.until("bestmove");
        lines
            .last()
            .unwrap()
            .split_whitespace()
            .nth(1)
            .unwrap()
            .to_string()
    }
}

fn legal_in(moves: &str, best: &str) -> bool {
    let game = Game::replay(
        Position::start(),
        RuleSet::Abapa,
        &oware_rules::parse_move_letters(moves).unwrap(),
    )
    .unwrap();
    best.parse::<Move>()
        .is_ok_and(|m| game.legal_moves().contains(m))
}

#[test]
fn handshake_search_and_errors() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(lines.iter().any(|l| l.starts_with("id name ")));
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for name in ["Hash", "Threads", "Level", "Rules"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {name} type "))),
            "{name} in {lines:?}"
        );
    }
    e.send("isready");
    e.until("readyok");

    e.send("ucinewgame");
    e.send("position startpos moves FfEa");
    e.send("go depth 6");
    let lines = e.until("bestmove");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth 6 "))
        .expect("an info line for depth 6");
    for word in [" score cp ", " nodes ", " nps ", " time ", " pv "] {
        assert!(info.contains(word), "{info}");
    }
    let best = lines.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(legal_in("FfEa", best), "{best}");

    // Bad input is answered with an error and changes nothing.
    for bad in [
        "position startpos moves FF",
        "position startpos moves Fz",
        "position fen 4-4-4-4",
        "position fen 4-4-4-4-4-4-4-4-4-4-4-4-0-1-S",
        "go depth x",
        "go sideways",
        "setoption name Hash value 0",
        "setoption name Rules value kalah",
        "setoption name Colour value red",
        "setoption name MoveOverhead value -1",
        "setoption name Move Overhead value 5001",
        "go wtime 1000 btime 1000 movestogo 0",
        "frobnicate",
    ] {
        e.send(bad);
        let line = e.until("info string error: ");
        assert_eq!(line.len(), 1, "{bad}: {line:?}");
    }
    e.send_bytes(b"\xff\xfe garbage \x00");
    e.until("info string error: ");
    e.send_bytes(&[b'x'; 100_000]);
    e.until("info string error: line too long");
    e.send("go depth 3");
    assert!(
        legal_in("FfEa", &e.bestmove()),
        "the position is still FfEa"
    );

    // A finished game: bestmove 0000.
    e.send("position fen 4-4-4-4-4-3-0-0-0-0-0-0-25-0-N");
    e.send("go depth 3");
    assert_eq!(e.bestmove(), "0000");

    // Other rules and a lower level still give legal moves.
    e.send("setoption name Rules value awari");
    e.send("setoption name Level value 2");
    e.send("position startpos moves Ff");
    e.send("go movetime 50");
    assert!(legal_in("Ff", &e.bestmove()));

    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

/// The deepest iteration an answer's info lines report.
fn deepest(lines: &[String]) -> u32 {
    lines
        .iter()
        .filter_map(|l| {
            l.strip_prefix("info depth ")?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .max()
        .unwrap_or(0)
}

#[test]
fn the_move_overhead_comes_off_the_clock() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    assert!(
        lines
            .iter()
            .any(|l| l == "option name MoveOverhead type spin default 30 min 0 max 5000"),
        "{lines:?}"
    );
    e.send("position startpos moves FfEa");
    // With a second on the clock and the default overhead the engine thinks a few dozen
    // milliseconds, many plies deep.
    e.send("go wtime 1000 btime 1000");
    let normal = e.until("bestmove");
    assert!(deepest(&normal) >= 4, "{normal:?}");
    // When every move loses a second on its way to the clock, a second leaves nothing to think
    // with: the engine answers its first iteration's move.
    e.send("setoption name MoveOverhead value 1000");
    e.send("go wtime 1000 btime 1000");
    let hurried = e.until("bestmove");
    assert!(deepest(&hurried) <= 1, "{hurried:?}");
    let best = hurried.last().unwrap().split_whitespace().nth(1).unwrap();
    assert!(legal_in("FfEa", best), "{best}");
    // The overhead is for clocks only: a fixed time per move is searched in full.
    e.send("go movetime 100");
    assert!(deepest(&e.until("bestmove")) >= 4);
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn isready_and_stop_during_an_infinite_search() {
    let mut e = Engine::start();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    // While it searches, the position cannot change.
    e.send("position startpos moves F");
    e.until("info string error: ");
    e.send("stop");
    assert!(legal_in("", &e.bestmove()));

    // A `go` with no limit (here, an increment without a clock) is as unbounded as `go infinite`:
    // it is refused, not waited for, so the `stop` that ends it can still be read. (Waiting for it
    // hung the engine.) Likewise a ponder search with no limit after its `ponderhit`.
    for go in ["go", "go winc 100 binc 100", "go ponder"] {
        e.send("position startpos moves F");
        e.send(go);
        if go == "go ponder" {
            e.send("ponderhit");
        }
        e.send("position startpos moves Fa");
        e.until("info string error: position: not allowed");
        e.send("isready");
        e.until("readyok");
        e.send("stop");
        assert!(legal_in("F", &e.bestmove()), "{go}");
    }

    // Pondering: no bestmove until ponderhit, then one within the time given.
    e.send("position startpos moves Ff");
    e.send("go ponder movetime 100");
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    std::thread::sleep(Duration::from_millis(200));
    e.send("isready");
    let lines = e.until("readyok");
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    e.send("ponderhit");
    assert!(legal_in("Ff", &e.bestmove()));
    e.send("ponderhit");
    e.until("info string error: ");

    // Clocks: South (wtime) to move with little time left still answers in time.
    e.send("position startpos");
    e.send("go wtime 300 btime 100000 winc 0 binc 0");
    assert!(legal_in("", &e.bestmove()));
    e.input = None;
    let status = e.child.wait().unwrap();
    assert!(status.success(), "end of input ends the engine");
}

/// How long the engine takes to exit, waiting at most `limit` (then it is killed).
fn time_to_exit(e: &mut Engine, since: Instant, limit: Duration) -> Duration {
    while since.elapsed() < limit {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success());
            return since.elapsed();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    since.elapsed()
}

/// `stop` and `quit` act at once, whatever is queued before them, even behind a command that waits
/// for a limited search (`position`, `setoption`, `ucinewgame`, `go`): the lines behind it must be
/// read while it waits, or the quit would wait for the whole search, here 20 s.
#[test]
fn stop_and_quit_act_at_once_behind_a_waiting_command() {
    // The protocol deadline is "at once"; 5 s is far from the 20 s search and leaves a loaded
    // machine seconds to start a process and stop a search.
    let limit = Duration::from_secs(5);
    for (waiting, end) in [
        ("position startpos", "stop"),
        ("position startpos", "quit"),
        ("setoption name Hash value 4", "stop"),
        ("ucinewgame", "quit"),
        ("go depth 3", "quit"),
    ] {
        let mut e = Engine::start();
        let asked = Instant::now();
        e.send("position startpos moves FfEa");
        e.send("go movetime 20000");
        e.send(waiting);
        e.send(end);
        if end == "stop" {
            assert!(legal_in("FfEa", &e.bestmove()), "{waiting}");
            // The waiting command was then done: the position is the new one.
            e.send("go depth 2");
            let expected = if waiting.starts_with("position") {
                ""
            } else {
                "FfEa"
            };
            assert!(legal_in(expected, &e.bestmove()), "{waiting}");
            e.send("quit");
        }
        let took = time_to_exit(&mut e, asked, Duration::from_secs(25));
        assert!(took < limit, "{waiting} then {end}: {took:?}");
    }
}

/// Absurd times and node counts (the largest 64-bit number, and numbers past it) start a search
/// that `stop` ends, as "no hurry" means; an absurd depth is refused. Nothing panics.
#[test]
fn absurd_go_numbers_are_clamped_or_refused() {
    let mut e = Engine::start();
    e.send("position startpos moves FfEa");
    for huge in [
        "18446744073709551615",
        "18446744073709551616",
        &"9".repeat(30),
    ] {
        for go in [
            format!("go movetime {huge}"),
            format!("go wtime {huge} btime {huge} winc {huge} binc {huge}"),
            format!("go wtime {huge} btime 10 winc {huge} binc 0 movestogo 1"),
            format!("go nodes {huge}"),
            format!("go depth 3 movetime {huge} nodes {huge}"),
        ] {
            e.send(&go);
            e.send("isready");
            let lines = e.until("readyok");
            assert!(
                !lines.iter().any(|l| l.contains("error")),
                "{go}: {lines:?}"
            );
            // A search with a depth may end before `isready` is read: its answer then came first.
            let answered = lines.iter().find(|l| l.starts_with("bestmove"));
            let best = match answered {
                Some(line) => line.split_whitespace().nth(1).unwrap().to_string(),
                None => {
                    e.send("stop");
                    e.bestmove()
                }
            };
            assert!(legal_in("FfEa", &best), "{go}");
        }
        e.send(&format!("go depth {huge}"));
        let refused = e.until("info string error: go depth");
        assert_eq!(refused.len(), 1, "{refused:?}");
    }
    e.send("quit");
    assert!(e.child.wait().unwrap().success());
}

/// The `wtime` and `movestogo` of each `go` in an engine's input log.
fn go_clocks(log: &std::path::Path) -> Vec<(u64, Option<u64>)> {
    let text = std::fs::read_to_string(log).unwrap();
    let gos = text.lines().filter(|l| l.starts_with("go "));
    gos.map(|l| {
        let words: Vec<&str> = l.split_whitespace().collect();
        let after = |key: &str| {
            let at = words.iter().position(|w| *w == key)?;
            words.get(at + 1)?.parse::<u64>().ok()
        };
        (after("wtime").unwrap(), after("movestogo"))
    })
    .collect()
}

/// Runs `oware match` between two engine commands with `args`, writing the games to `out`.
fn oware_match(engines: [&str; 2], args: &[&str], out: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["match", "--engine", engines[0], "--engine", engines[1]])
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

#[test]
fn a_short_match_between_two_engines() {
    let dir = std::env::temp_dir().join(format!("oware-match-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\nFf\nCa\n").unwrap();
    let out = dir.join("games.ogn");
    let engine = format!("{} engine --no-egtb", env!("CARGO_BIN_EXE_oware"));
    let result = oware_match(
        [&engine, &engine],
        &[
            "--games",
            "2",
            "--movetime",
            "5",
            "--option",
            "Hash=4",
            "--openings",
            openings.to_str().unwrap(),
        ],
        &out,
    );
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(result.status.success(), "{stdout}");
    assert!(stdout.contains("games 2 "), "{stdout}");
    assert!(stdout.contains("elo difference"), "{stdout}");
    let progress = String::from_utf8_lossy(&result.stderr);
    assert!(progress.contains("game   2/2"), "{progress}");
    // Every game is a valid OGN record that replays to a finished game from the opening.
    let text = std::fs::read_to_string(&out).unwrap();
    let records: Vec<&str> = text.split("\n\n[").collect();
    assert_eq!(records.len(), 2, "{text}");
    for (i, chunk) in records.iter().enumerate() {
        let chunk = if i == 0 {
            chunk.to_string()
        } else {
            format!("[{chunk}")
        };
        let record: oware_rules::ogn::Record = chunk.parse().unwrap();
        let game = record.game().unwrap();
        assert!(game.is_over());
        assert_eq!(format!("{}", game.moves()[0]), "F");
    }
    // A bad engine command is an error, not a hang.
    let result = oware_match(
        ["exit 3", &engine],
        &["--games", "1"],
        &dir.join("none.ogn"),
    );
    assert!(!result.status.success());

    // An engine that refuses a position (here: every `position fen`, as an adapter that can only
    // replay from the start would) stops the match with its words; it is not scored as a forfeit.
    let refuser = format!("sed -u 's/^position fen .*/position fen bogus/' | {engine}");
    std::fs::write(&openings, "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a\n").unwrap();
    let result = oware_match(
        [&engine, &refuser],
        &[
            "--games",
            "2",
            "--movetime",
            "5",
            "--openings",
            openings.to_str().unwrap(),
        ],
        &dir.join("refused.ogn"),
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success(), "{stderr}");
    assert!(stderr.contains("refused `position fen"), "{stderr}");
    // So does an option an engine does not know.
    let result = oware_match(
        [&engine, &engine],
        &["--games", "1", "--option", "NoSuchOption=1"],
        &dir.join("none.ogn"),
    );
    assert!(!result.status.success());
    assert!(String::from_utf8_lossy(&result.stderr).contains("refused the match's options"));

    // Options for one engine only: each engine is wrapped to log what it is sent.
    let log1 = dir.join("first.log");
    let log2 = dir.join("second.log");
    let logged = |log: &std::path::Path| format!("tee {} | {engine}", log.display());
    let result = oware_match(
        [&logged(&log1), &logged(&log2)],
        &[
            "--games",
            "1",
            "--movetime",
            "5",
            "--option",
            "Hash=4",
            "--option1",
            "Level=3",
            "--option2",
            "Hash=2",
        ],
        &dir.join("per-engine.ogn"),
    );
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let first = std::fs::read_to_string(&log1).unwrap();
    let second = std::fs::read_to_string(&log2).unwrap();
    for log in [&first, &second] {
        assert!(log.contains("setoption name Hash value 4\n"), "{log}");
    }
    assert!(first.contains("setoption name Level value 3\n"), "{first}");
    assert!(!first.contains("Hash value 2"), "{first}");
    assert!(second.contains("setoption name Hash value 2\n"), "{second}");
    assert!(!second.contains("Level"), "{second}");
    // A refused option for the second engine stops the match, naming that engine.
    let result = oware_match(
        [&engine, &logged(&log2)],
        &["--games", "1", "--option2", "NoSuchOption=1"],
        &dir.join("none.ogn"),
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(!result.status.success());
    assert!(stderr.contains("refused the match's options"), "{stderr}");
    assert!(
        stderr.contains("tee"),
        "the second engine is named: {stderr}"
    );

    // On clocks, the referee sends both clocks with each `go`, keeps them, and writes the time
    // control into the records. (The margin is for a loaded machine's scheduling: at the end of
    // this game each engine has about 30 ms left, and thinks about 10 ms a move.)
    let clock_game = |engines: [&str; 2], time_control: &str| {
        let args = [
            "--games",
            "1",
            "--option",
            "Hash=4",
            "--tc",
            time_control,
            "--time-margin",
            "100",
        ];
        oware_match(engines, &args, &out)
    };
    let result = clock_game([&logged(&log1), &engine], "0.5+0.01");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(
        stderr.contains("clocks of 0.5+0.01 s (margin 100 ms)"),
        "{stderr}"
    );
    assert!(!stderr.contains("out of time"), "{stderr}");
    assert!(
        stderr.contains("| clocks "),
        "the time left is shown: {stderr}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[TimeControl \"0.5+0.01\"]"), "{text}");
    // The first engine, South in the only game, never has more than its start and increments.
    for (i, (wtime, _)) in go_clocks(&log1).into_iter().enumerate() {
        assert!(wtime <= 500 + 10 * i as u64, "move {i}: {wtime} ms");
    }
    // An engine that thinks past its clock loses on time, however good its move.
    let sleeper = "while read -r line; do case \"$line\" in \
        uci) echo 'id name sleeper'; echo uciok;; isready) echo readyok;; \
        go*) sleep 1; echo 'bestmove A';; quit) exit;; esac; done";
    let result = oware_match([sleeper, &engine], &["--games", "1", "--tc", "0.3"], &out);
    let stdout = String::from_utf8_lossy(&result.stdout);
    assert!(result.status.success(), "{stdout}");
    assert!(stdout.contains("losses 1"), "{stdout}");
    let progress = String::from_utf8_lossy(&result.stderr);
    assert!(progress.contains("| clocks 0.0 s, 0.3 s"), "{progress}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("South forfeits: out of time"), "{text}");
    // With a time margin of 1.5 s, the same answers come in time (the clock then stands at zero);
    // the sleeper loses only when its second `A` is illegal.
    let result = oware_match(
        [sleeper, &engine],
        &["--games", "1", "--tc", "0.3", "--time-margin", "1500"],
        &out,
    );
    let progress = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{progress}");
    assert!(
        progress.contains("clocks of 0.3 s (margin 1500 ms)"),
        "{progress}"
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("South forfeits: A: "), "{text}");
    assert!(!text.contains("out of time"), "{text}");
    // An engine that writes a line of 300,000 bytes before each answer: the referee drops it
    // without holding it whole, and still finds the answer after it.
    let flooder = "flood() { head -c 300000 /dev/zero | tr '\\0' x; echo; }; \
        while read -r line; do case \"$line\" in \
        uci) flood; echo 'id name flooder'; echo uciok;; isready) echo readyok;; \
        go*) flood; echo 'bestmove A';; quit) exit;; esac; done";
    let result = oware_match(
        [flooder, &engine],
        &["--games", "1", "--movetime", "5"],
        &out,
    );
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[South \"flooder\"]"), "{text}");
    assert!(text.contains("South forfeits: A: "), "{text}");

    // A repeating control: 3 moves in 0.15 s, again and again. Each `go` says how many moves are
    // left in the mover's period, and after its third move the clock gains the period's time.
    let result = clock_game([&logged(&log1), &engine], "3/0.15");
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    assert!(stderr.contains("clocks of 3/0.15 s"), "{stderr}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains("[TimeControl \"3/0.15\"]"), "{text}");
    assert!(!text.contains("out of time"), "{text}");
    // The first engine plays South in the only game: its `go` lines carry its clock as `wtime`,
    // and the moves to go run 3, 2, 1, 3, 2, 1, …
    let gos = go_clocks(&log1);
    assert!(gos.len() >= 4, "{gos:?}");
    for (i, &(wtime, to_go)) in gos.iter().enumerate() {
        assert_eq!(to_go, Some(3 - (i as u64 % 3)), "{gos:?}");
        // A period's first move starts with more than the 150 ms less what the last period's
        // moves thought beyond it: at least the new period's time.
        if to_go == Some(3) {
            assert!(wtime >= 150, "{gos:?}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `oware match --ladder` plays each level against the next in this process and prints a table of
/// the steps; the games are written as a match's are.
#[test]
fn the_level_ladder_plays_each_level_against_the_next() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("ladder.ogn");
    let result = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args([
            "match",
            "--ladder",
            "1-3",
            "--games",
            "2",
            "--movetime",
            "50",
        ])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&result.stdout);
    let stderr = String::from_utf8_lossy(&result.stderr);
    // Two games a step may well miss the 60% the ladder asks for: then it says where, status 1.
    match result.status.code() {
        Some(0) => {}
        Some(1) => assert!(stderr.contains("scored 60% or less at"), "{stderr}"),
        other => panic!("status {other:?}: {stderr}"),
    }
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains(" vs ")).collect();
    assert_eq!(rows.len(), 2, "{stdout}");
    assert!(rows[0].starts_with("| 2 vs 1 | 2 |"), "{stdout}");
    assert!(rows[1].starts_with("| 3 vs 2 | 2 |"), "{stdout}");
    let games = records(&out);
    assert_eq!(games.len(), 4);
    // The stronger level has South in the first game of each step, North in the second.
    let tag = |i: usize, name: &str| games[i].tag(name).unwrap_or_default().to_string();
    assert_eq!(
        (tag(0, "South"), tag(0, "North")),
        ("level 2".into(), "level 1".into())
    );
    assert_eq!(
        (tag(1, "South"), tag(1, "North")),
        ("level 1".into(), "level 2".into())
    );
    assert_eq!(tag(2, "South"), "level 3");
    // A bad range is refused before anything is played.
    let refused = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["match", "--ladder", "4-4"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("FROM-TO"));
}

/// The records of an OGN file written by `oware match`.
fn records(path: &std::path::Path) -> Vec<oware_rules::ogn::Record> {
    let text = std::fs::read_to_string(path).unwrap();
    text.split("\n\n[")
        .enumerate()
        .map(|(i, chunk)| {
            let chunk = if i == 0 {
                chunk.to_string()
            } else {
                format!("[{chunk}")
            };
            chunk.parse().unwrap()
        })
        .collect()
}

/// The referee reads the pv whether an engine writes it as one run of letters (ours, the Aualé
/// dialect) or one letter per word (UCI's way with chess moves), and writes each move's report
/// into the record after the move.
#[test]
fn the_referee_reads_either_form_of_the_pv() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("{} engine --no-egtb", env!("CARGO_BIN_EXE_oware"));
    // Our engine with a space put between the letters of its pv.
    let spaced = format!(
        "{engine} | sed -u -E -e ':a' -e 's/( pv [a-fA-F ]*[a-fA-F])([a-fA-F])/\\1 \\2/' -e 'ta'"
    );
    let out = dir.path().join("games.ogn");
    let result = oware_match(
        [&engine, &spaced],
        &["--games", "2", "--movetime", "20", "--option", "Hash=4"],
        &out,
    );
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    for record in records(&out) {
        let game = record.game().unwrap();
        // Every move of either engine (the two plies of the opening aside) has its report.
        let mut long_lines = [0, 0];
        for ply in 2..game.ply_count() {
            let comment = record
                .comments
                .iter()
                .find(|(at, _)| *at == ply + 1)
                .map(|(_, c)| c.as_str())
                .unwrap_or_else(|| panic!("no report after ply {}: {record}", ply + 1));
            assert!(comment.starts_with("depth "), "{comment}");
            if let Some((_, pv)) = comment.split_once(" pv ") {
                if oware_rules::parse_move_letters(pv).unwrap().len() > 1 {
                    long_lines[ply % 2] += 1;
                }
            }
        }
        // Lines longer than one move from both engines: the spaced pv was read whole.
        assert!(
            long_lines.iter().all(|&n| n > 2),
            "{long_lines:?}: {record}"
        );
    }
}

/// A small deterministic generator (splitmix64), so that a failing stream can be replayed.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        oware_rules::random::SplitMix64::step(&mut self.0)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of the words of `words`, separated by spaces; in a word `_` stands for a space, and
    /// alone for the empty word.
    fn pick(&mut self, words: &str) -> String {
        let words: Vec<&str> = words.split(' ').collect();
        words[self.below(words.len())]
            .replace('_', " ")
            .trim()
            .to_string()
    }

    /// A number for a command: mostly small and valid, sometimes out of range or no number.
    fn number(&mut self) -> String {
        match self.below(8) {
            0 => self.pick("0 -1 x _ 3.5 18446744073709551616 119 111"),
            _ => self.below(40).to_string(),
        }
    }

    /// A protocol line: mostly well-formed commands with values in and out of range, some
    /// malformed ones, and some bytes that are no command at all.
    fn command(&mut self) -> Vec<u8> {
        let line = match self.below(20) {
            0..=3 => {
                let start = match self.below(5) {
                    0 => "fen 4-4-4-4-4-0-5-5-5-5-4-4-0-0-N".to_string(),
                    1 => {
                        let fields: Vec<String> =
                            (0..self.below(16)).map(|_| self.number()).collect();
                        format!("fen {}", fields.join("-"))
                    }
                    2 => self.pick("fen _ sideways"),
                    _ => "startpos".into(),
                };
                let moves: String = (0..self.below(12))
                    .map(|_| self.pick("A B C D E F a b c d e f z"))
                    .collect();
                format!("position {start} moves {moves}")
            }
            4..=8 => {
                let mut words = vec!["go".to_string()];
                for _ in 0..1 + self.below(3) {
                    let key =
                        self.pick("depth depth movetime wtime btime winc binc movestogo nodes");
                    let value = match key.as_str() {
                        "depth" if self.below(5) > 0 => (1 + self.below(8)).to_string(),
                        "nodes" if self.below(5) > 0 => self.below(5_000).to_string(),
                        _ => self.number(),
                    };
                    words.extend([key, value]);
                }
                // Now and then a search that only `stop` ends, or a word no `go` has.
                words.push(self.pick("_ _ _ _ _ _ _ _ infinite ponder mate"));
                words.join(" ")
            }
            9..=11 => {
                let name = self
                    .pick("Hash Threads Level Rules Ponder OwnBook Eval Weights EGTB MoveOverhead Move_Overhead Colour");
                let value = match name.as_str() {
                    // Small tables and few threads: the test is about input, not memory.
                    "Hash" => self.pick("1 2 8 0 x 4097"),
                    "Threads" => self.pick("1 2 3 0 257"),
                    _ => self.pick("abapa awari true material threat=5 kroo=x /nonexistent <empty> _ 3 0 5001 -1"),
                };
                match self.below(4) {
                    0 => format!("setoption name {name}"),
                    1 => format!("setoption {name} {value}"),
                    _ => format!("setoption name {name} value {value}"),
                }
            }
            12..=15 => self.pick("stop stop ponderhit isready ucinewgame uci go_depth_3 go"),
            _ => {
                let mut bytes: Vec<u8> = (0..self.below(30)).map(|_| self.next() as u8).collect();
                bytes.retain(|&b| b != b'\n');
                return bytes;
            }
        };
        line.into_bytes()
    }
}

#[test]
fn random_command_streams_never_stop_the_engine() {
    for seed in 1..=4 {
        let mut random = Random(seed);
        let mut e = Engine::start();
        let mut sent = Vec::new();
        for _ in 0..250 {
            let line = random.command();
            sent.push(String::from_utf8_lossy(&line).into_owned());
            e.send_bytes(&line);
        }
        // Whatever came before, a `stop` ends any search and the engine is still there to say so:
        // every `isready` is answered, the last one after every search's `bestmove`.
        e.send("stop");
        e.send("isready");
        let asked = sent.iter().filter(|l| l.trim() == "isready").count() + 1;
        let mut lines = Vec::new();
        for _ in 0..asked {
            lines.extend(e.until("readyok"));
        }
        assert!(
            !lines.iter().any(|l| l.contains("search failed")),
            "seed {seed}: {lines:?}"
        );
        let answered = lines.iter().filter(|l| l.starts_with("bestmove")).count();
        assert!(answered >= 5, "seed {seed}: only {answered} searches");
        e.send("position startpos moves FfEa");
        e.send("setoption name Level value 10");
        e.send("go depth 4");
        assert!(
            legal_in("FfEa", &e.bestmove()),
            "seed {seed}, after {sent:?}"
        );
        e.send("quit");
        assert!(e.child.wait().unwrap().success(), "seed {seed}: {sent:?}");
    }
}

/// The side to move after a `position` command of the protocol.
fn side_to_move(command: &str) -> oware_rules::Side {
    let words: Vec<&str> = command.split_whitespace().collect();
    let (start, rest) = match &words[1..] {
        ["startpos", rest @ ..] => (Position::start(), rest),
        ["fen", fen, rest @ ..] => (fen.parse().unwrap(), rest),
        other => panic!("not a position command: {other:?}"),
    };
    let moves = match rest {
        ["moves", letters @ ..] => oware_rules::parse_move_letters(&letters.concat()).unwrap(),
        _ => Vec::new(),
    };
    let game = Game::replay(start, RuleSet::Abapa, &moves).unwrap();
    game.position().side_to_move()
}

#[test]
fn the_referee_tells_an_engine_that_offers_engine_turn_its_side() {
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("{} engine --no-egtb", env!("CARGO_BIN_EXE_oware"));
    let offering = dir.path().join("offering.log");
    let silent = dir.path().join("silent.log");
    // The second engine hides the option from the referee, as an engine without it would.
    let result = oware_match(
        [
            &format!("tee {} | {engine}", offering.display()),
            &format!(
                "tee {} | {engine} | grep --line-buffered -v '^option name EngineTurn'",
                silent.display()
            ),
        ],
        &["--games", "2", "--movetime", "5", "--option", "Hash=4"],
        &dir.path().join("games.ogn"),
    );
    assert!(
        result.status.success(),
        "{}",
        String::from_utf8_lossy(&result.stderr)
    );
    let log = std::fs::read_to_string(&offering).unwrap();
    let (mut told, mut position, mut searches) = (None, None, 0);
    let mut sides = std::collections::HashSet::new();
    for line in log.lines() {
        if let Some(side) = line.strip_prefix("setoption name EngineTurn value ") {
            told = Some(side.to_string());
        } else if line.starts_with("position ") {
            position = Some(side_to_move(line));
        } else if line.starts_with("go ") {
            let side = position.expect("a position before go");
            let expected = side.to_string().to_ascii_lowercase();
            assert_eq!(told.take().as_deref(), Some(expected.as_str()), "{log}");
            sides.insert(expected);
            searches += 1;
        }
    }
    assert!(searches > 4, "{log}");
    assert_eq!(sides.len(), 2, "it played both sides: {log}");
    let log = std::fs::read_to_string(&silent).unwrap();
    assert!(log.contains("go "), "{log}");
    assert!(!log.contains("EngineTurn"), "{log}");
}

/// A line of the engine's output as the Aualé GUI reads it. Its reader knows six first words and,
/// after them, a set of keys each with the shape of its value; a word that is no key, or a key
/// whose value does not have that shape, is skipped (the next word is then read as a key). What it
/// cannot read at all it rejects ("Unknown UCI response"), and an empty line ends its reading.
#[derive(Debug, Default)]
struct GuiLine {
    order: String,
    /// Each key read and its value (`string`: the rest of the line).
    values: std::collections::HashMap<String, String>,
}

impl GuiLine {
    fn get(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }
}

/// Reads `line` as the GUI does; `Err` with the reason where it rejects the line.
fn read_as_the_gui(line: &str) -> Result<GuiLine, String> {
    let number = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
    let integer = |w: &str| number(w.strip_prefix(['-', '+']).unwrap_or(w));
    let moves = |w: &str| !w.is_empty() && w.chars().all(|c| matches!(c, 'a'..='f' | 'A'..='F'));
    let one_move = |w: &str| w.len() == 1 && moves(w);
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some((&order, rest)) = words.split_first() else {
        return Err("an empty line (the GUI stops reading there)".into());
    };
    let mut read = GuiLine {
        order: order.to_string(),
        ..GuiLine::default()
    };
    // The keys of each first word, and what their values look like.
    type Shape<'a> = &'a dyn Fn(&str) -> bool;
    let keys: Vec<(&str, Shape)> = match order {
        "uciok" | "readyok" => Vec::new(),
        "id" => Vec::new(),
        "bestmove" => vec![("ponder", &one_move)],
        "option" => vec![
            ("name", &|_| true),
            ("type", &|w| {
                matches!(w, "check" | "spin" | "combo" | "button" | "string")
            }),
            ("min", &integer),
            ("max", &integer),
            ("var", &|_| true),
            ("default", &|_| true),
        ],
        "info" => vec![
            ("depth", &number),
            ("seldepth", &number),
            ("time", &number),
            ("nodes", &number),
            ("pv", &moves),
            ("multipv", &number),
            ("currmove", &one_move),
            ("currmovenumber", &number),
            ("hashfull", &number),
            ("nps", &number),
            ("tbhits", &number),
            ("sbhits", &number),
            ("cpuload", &number),
            ("refutation", &moves),
        ],
        other => return Err(format!("unknown first word {other:?}")),
    };
    let mut i = 0;
    if order == "bestmove" {
        match rest.first() {
            Some(w) if one_move(w) => read.values.insert("move".into(), w.to_string()),
            _ => return Err("bestmove without a move letter".into()),
        };
        i = 1;
    }
    if order == "id" {
        // `id name …` and `id author …` take the rest of the line.
        if let Some((key, value)) = rest.split_first() {
            read.values.insert(key.to_string(), value.join(" "));
        }
        return Ok(read);
    }
    while i < rest.len() {
        let word = rest[i];
        if order == "info" && word == "string" && i + 1 < rest.len() {
            read.values.insert("string".into(), rest[i + 1..].join(" "));
            break;
        }
        if order == "info" && word == "score" {
            // One or more of `cp N`, `mate N`, `lowerbound`, `upperbound`.
            let mut j = i + 1;
            loop {
                match (rest.get(j).copied(), rest.get(j + 1).copied()) {
                    (Some(kind @ ("cp" | "mate")), Some(value)) if integer(value) => {
                        read.values.insert(kind.into(), value.into());
                        j += 2;
                    }
                    (Some(bound @ ("lowerbound" | "upperbound")), _) => {
                        read.values.insert(bound.into(), String::new());
                        j += 1;
                    }
                    _ => break,
                }
            }
            i = if j > i + 1 { j } else { i + 1 };
            continue;
        }
        match (keys.iter().find(|(key, _)| *key == word), rest.get(i + 1)) {
            (Some((key, shape)), Some(value)) if shape(value) => {
                read.values.insert(key.to_string(), value.to_string());
                i += 2;
            }
            // Not a key, or a key without its value: skipped.
            _ => i += 1,
        }
    }
    Ok(read)
}

#[test]
fn the_gui_reader_reads_as_the_facts_say() {
    let aalina = read_as_the_gui("info depth 17 score cp -25 pv DfAbCaBcAbCcB").unwrap();
    assert_eq!(aalina.get("pv"), Some("DfAbCaBcAbCcB"));
    assert_eq!(
        (aalina.get("depth"), aalina.get("cp")),
        (Some("17"), Some("-25"))
    );
    // One letter per word: the GUI sees a line one move long.
    let spaced = read_as_the_gui("info depth 3 score cp 5 pv C d B").unwrap();
    assert_eq!(spaced.get("pv"), Some("C"));
    let option = read_as_the_gui("option name Move Overhead type spin default 30").unwrap();
    assert_eq!(option.get("name"), Some("Move"));
    assert_eq!(option.get("type"), Some("spin"));
    let bounds = read_as_the_gui("info score lowerbound cp 12 nodes 9 string a b").unwrap();
    assert_eq!(bounds.get("cp"), Some("12"));
    assert!(bounds.get("lowerbound").is_some());
    assert_eq!(
        (bounds.get("nodes"), bounds.get("string")),
        (Some("9"), Some("a b"))
    );
    for rejected in ["", "bestmove 0000", "frobnicate", "bestmove"] {
        assert!(read_as_the_gui(rejected).is_err(), "{rejected:?}");
    }
}

/// The `position` command the GUI sends for `game`: from the position after the last capture (or
/// the start), with the moves since.
fn gui_position(game: &Game) -> String {
    let last_capture = game.captures().iter().rposition(|&c| c > 0);
    let (from, moves) = match last_capture {
        Some(ply) => (ply + 1, &game.moves()[ply + 1..]),
        None => (0, game.moves()),
    };
    let start = game.positions()[from];
    let mut command = if start == Position::start() {
        "position startpos".to_string()
    } else {
        format!("position fen {start}")
    };
    if !moves.is_empty() {
        command += &format!(" moves {}", oware_rules::format_move_letters(moves));
    }
    command
}

/// Every line the engine sent, read as the GUI reads it: none rejected, no error, every option name
/// one word, every pv read whole and playable from `game`. The `bestmove` at the end, as a move.
fn check_as_the_gui(lines: &[String], game: &Game) -> Option<Move> {
    let mut best = None;
    for line in lines {
        let read = read_as_the_gui(line).unwrap_or_else(|why| panic!("{line:?}: {why}"));
        assert!(!line.contains("error"), "{line}");
        match read.order.as_str() {
            "option" => {
                let written = line.split_once(" name ").unwrap().1;
                let written = written.split_once(" type ").unwrap().0;
                assert_eq!(read.get("name"), Some(written), "{line}");
                assert!(read.get("type").is_some(), "{line}");
            }
            "info" if line.contains(" pv ") => {
                // The whole pv as written: every word of letters after `pv`.
                let after = line.split_once(" pv ").unwrap().1;
                let written: String = after
                    .split_whitespace()
                    .take_while(|w| w.chars().all(|c| "abcdefABCDEF".contains(c)))
                    .collect();
                assert_eq!(read.get("pv"), Some(written.as_str()), "{line}");
                assert!(
                    read.get("depth").is_some() && read.get("cp").is_some(),
                    "{line}"
                );
                let pv = oware_rules::parse_move_letters(&written).unwrap();
                let mut g = game.clone();
                for mv in pv {
                    assert!(g.play(mv).is_ok(), "{line} from {}", game.position());
                }
            }
            "bestmove" => {
                let mv: Move = read.get("move").unwrap().parse().unwrap();
                assert!(game.legal_moves().contains(mv), "{line}");
                best = Some(mv);
            }
            _ => {}
        }
    }
    best
}

/// The Aualé GUI's whole conversation with an engine, at each of its four strength levels, against
/// the real `oware engine`, every line of the answers read as the GUI reads them. The timed
/// assertions are the GUI's own deadlines: 8 s for `uciok`, `readyok`, the `bestmove` after
/// `stop` and the end after `quit`; the easy level's 0.6 s (`go depth 2 movetime 600`: two plies
/// take well under a millisecond, the rest is the pipe and the scheduler).
#[test]
fn the_auale_gui_conversation_at_each_level() {
    let gui_limit = Duration::from_secs(8);
    // depth, movetime, the OwnBook the GUI sets with the level.
    let levels = [
        (Some(2), 600, false),
        (Some(6), 1200, false),
        (Some(16), 2400, true),
        (None, 3600, true),
    ];
    // The game so far: moves that capture where they can, until a capture has been made, so that
    // the GUI sends `position fen` with the position after it.
    let mut opening = Game::new(RuleSet::Abapa);
    while opening.captures().iter().all(|&c| c == 0) {
        let moves: Vec<Move> = opening.legal_moves().collect();
        let capturing = moves.iter().find(|&&mv| {
            let mut g = opening.clone();
            g.play(mv).unwrap();
            g.captures().last() > Some(&0)
        });
        opening.play(*capturing.unwrap_or(&moves[0])).unwrap();
    }
    for (depth, movetime, own_book) in levels {
        let level = format!("depth {depth:?} movetime {movetime}");
        let mut e = Engine::start();
        let asked = Instant::now();
        e.send("uci");
        let lines = e.until("uciok");
        assert!(asked.elapsed() < gui_limit, "{level}: uciok");
        check_as_the_gui(&lines, &opening);
        assert!(lines.iter().any(|l| l.starts_with("option ")), "{lines:?}");
        e.send(&format!("setoption name OwnBook value {own_book}"));
        e.send("ucinewgame");
        let asked = Instant::now();
        e.send("isready");
        let lines = e.until("readyok");
        assert!(asked.elapsed() < gui_limit, "{level}: readyok");
        check_as_the_gui(&lines, &opening);

        let mut game = opening.clone();
        for turn in 0..2 {
            // The engine's move.
            e.send(&gui_position(&game));
            let go = match depth {
                Some(d) => format!("go depth {d} movetime {movetime}"),
                None => format!("go movetime {movetime}"),
            };
            let asked = Instant::now();
            e.send(&go);
            let lines = e.until("bestmove");
            let took = asked.elapsed();
            if depth == Some(2) {
                assert!(took < Duration::from_millis(600), "{go}: {took:?}");
            } else {
                // A move's time, and seconds for a loaded machine (the GUI itself waits).
                assert!(
                    took < Duration::from_millis(movetime + 3000),
                    "{go}: {took:?}"
                );
            }
            assert!(
                lines.iter().filter(|l| l.contains(" pv ")).count() >= 1,
                "{go}: {lines:?}"
            );
            let best = check_as_the_gui(&lines, &game).expect("a bestmove");
            game.play(best).unwrap();
            if game.is_over() {
                break;
            }
            // The engine ponders while the person thinks; their move ends the pondering.
            e.send(&gui_position(&game));
            e.send("go ponder");
            std::thread::sleep(Duration::from_millis(100 + 100 * turn));
            let asked = Instant::now();
            e.send("stop");
            let lines = e.until("bestmove");
            // "At once": a stopped search answers in milliseconds; a second is for the scheduler.
            assert!(asked.elapsed() < Duration::from_secs(1), "{level}: stop");
            check_as_the_gui(&lines, &game);
            let reply = game.legal_moves().last().unwrap();
            game.play(reply).unwrap();
            if game.is_over() {
                break;
            }
        }
        let asked = Instant::now();
        e.send("quit");
        let took = time_to_exit(&mut e, asked, gui_limit + Duration::from_secs(2));
        assert!(took < gui_limit, "{level}: quit took {took:?}");
    }
}
