//! The endgame databases of the user's data directory, which `oware serve`, `play` and `engine` use
//! by default: built in the background on first use and used as they come, a damaged file rebuilt,
//! nothing built with `--no-egtb`, and two starts at once sharing the work. Each test has its own
//! `XDG_DATA_HOME` and builds small levels (`OWARE_EGTB_FIRST_USE`), so it runs in seconds.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use common::*;
use serde_json::json;

/// Levels built by these tests: awari only, up to 6 seeds (well under a second in a debug build).
const LEVELS: &str = "awari=6";
/// Said once levels 0-6 are in use.
const IN_USE: &str = "the computer uses the awari endgame databases up to 6 seeds";
/// An awari position of 3 seeds: C and D both win, D with all three seeds; the database's move is D.
const COVERED: &str = "0-0-1-1-0-0-0-0-0-0-1-0-23-22-S";
/// An awari position of 6 seeds that North wins, far from the end: 32 plies, as a search without
/// databases finds; with them, the search stops at the positions they answer, a ply from here.
const NORTH_WINS: &str = "0-0-1-1-1-0-1-1-0-0-1-0-21-21-S";
/// How long a test waits for a line the program is expected to write. Builds of levels 0-6 take
/// well under a second; the margin is for a machine busy with other builds.
const PATIENCE: Duration = Duration::from_secs(120);

/// A fresh data home, and the databases' directory in it.
fn data_home() -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("oware").join("egtb");
    (home, dir)
}

/// `oware ARGS` started with `home` as its data home, its standard error read line by line.
struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: Receiver<String>,
    said: Vec<String>,
}

impl Running {
    fn start(home: &Path, args: &[&str]) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
            .args(args)
            .env("XDG_DATA_HOME", home)
            .env("OWARE_EGTB_FIRST_USE", LEVELS)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start oware");
        let (tx, stderr) = channel();
        let lines = BufReader::new(child.stderr.take().unwrap()).lines();
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
        Running {
            stdin: child.stdin.take(),
            child,
            stderr,
            said: Vec::new(),
        }
    }

    /// The first line of standard error that contains `text`, said already or waited for.
    fn wait_for(&mut self, text: &str) -> String {
        if let Some(line) = self.said.iter().find(|l| l.contains(text)) {
            return line.clone();
        }
        loop {
            match self.stderr.recv_timeout(PATIENCE) {
                Ok(line) => {
                    self.said.push(line.clone());
                    if line.contains(text) {
                        return line;
                    }
                }
                Err(_) => panic!("no {text:?} on standard error; it said {:#?}", self.said),
            }
        }
    }

    /// Sends `input`, closes standard input and returns standard output, once the program ends.
    fn finish(&mut self, input: &str) -> String {
        let mut stdin = self.stdin.take().unwrap();
        stdin.write_all(input.as_bytes()).unwrap();
        drop(stdin);
        let mut out = String::new();
        self.child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let status = self.child.wait().unwrap();
        // The reader thread ends with the program's standard error.
        self.said.extend(self.stderr.iter());
        assert!(status.success(), "{:#?}", self.said);
        out
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The engine's answer to a `go` in the covered position, under awari.
const ASK: &str = "uci\nsetoption name Rules value awari\nposition fen 0-0-1-1-0-0-0-0-0-0-1-0-23-22-S\ngo depth 4\nisready\nquit\n";
const FROM_DATABASE: &str = "info depth 0 score cp 400 pv D string endgame database\nbestmove D\n";

/// Every level file of `dir` opens (header, size and checksum), levels 0-6.
fn assert_levels_intact(dir: &Path) {
    let out = oware(&[
        "egtb",
        "verify",
        "--rules",
        "awari",
        "--dir",
        dir.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    for seeds in 0..=6 {
        assert!(dir.join(format!("awari-{seeds:02}.oegtb")).exists());
    }
    let partial: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".partial"))
        .collect();
    assert!(partial.is_empty(), "{partial:?}");
}

#[test]
fn the_engine_builds_them_on_first_use_then_uses_them() {
    let (home, dir) = data_home();
    let mut engine = Running::start(home.path(), &["engine"]);
    engine.wait_for("building the awari endgame databases (levels 0-6)");
    engine.wait_for(IN_USE);
    engine.wait_for("the endgame databases are built: awari up to 6 seeds");
    let out = engine.finish(ASK);
    assert!(out.contains(FROM_DATABASE), "{out}");
    // The protocol's output carries no word of the build: standard error does.
    for line in out.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(
            ["id", "option", "uciok", "readyok", "info", "bestmove"].contains(&first),
            "{line:?} in {out}"
        );
    }
    assert_levels_intact(&dir);

    // The next start finds them checked and builds nothing.
    let mut engine = Running::start(home.path(), &["engine"]);
    engine.wait_for(IN_USE);
    let out = engine.finish(ASK);
    assert!(out.contains(FROM_DATABASE), "{out}");
    assert!(
        !engine.said.iter().any(|l| l.contains("building")),
        "nothing to build the second time: {:#?}",
        engine.said
    );
}

#[test]
fn play_builds_its_rule_set_and_its_hints_use_them() {
    let (home, dir) = data_home();
    let mut play = Running::start(
        home.path(),
        &["play", "--rules", "awari", "--position", NORTH_WINS],
    );
    play.wait_for("the endgame databases are built: awari up to 6 seeds");
    let out = play.finish("hint\nquit\n");
    // The hint's analysis used the databases: who wins is theirs, and no distance is made up.
    assert!(out.contains("(North wins (endgame database))"), "{out}");
    // A terminal: the start and the end of the build are said, not each level.
    assert_eq!(play.said.len(), 2, "{:#?}", play.said);
    assert!(
        !dir.join("abapa-00.oegtb").exists(),
        "only the game's rule set"
    );
    assert_levels_intact(&dir);

    let out = Running::start(
        home.path(),
        &[
            "play",
            "--no-egtb",
            "--rules",
            "awari",
            "--position",
            NORTH_WINS,
        ],
    )
    .finish("hint\nquit\n");
    // Without them the search proves the loss itself. Every move loses all six seeds (the
    // databases say so), and among losses by the same margin the search plays the slowest it
    // proves.
    assert!(out.contains("(North wins in 20 moves (40 plies))"), "{out}");
}

#[test]
fn damaged_and_truncated_files_are_removed_and_rebuilt() {
    let (home, dir) = data_home();
    let mut first = Running::start(home.path(), &["engine"]);
    first.wait_for("the endgame databases are built");
    first.finish("quit\n");

    let flipped = dir.join("awari-04.oegtb");
    let mut bytes = std::fs::read(&flipped).unwrap();
    let middle = bytes.len() - 10;
    bytes[middle] ^= 0x40;
    std::fs::write(&flipped, bytes).unwrap();
    let truncated = dir.join("awari-05.oegtb");
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() - 100]).unwrap();
    // What a build killed mid-level leaves.
    std::fs::write(dir.join("awari-06.oegtb.partial"), b"half").unwrap();

    let mut engine = Running::start(home.path(), &["engine"]);
    engine.wait_for("the endgame databases are built: awari up to 6 seeds");
    let out = engine.finish(ASK);
    let said = engine.said.join("\n");
    for name in ["awari-04.oegtb", "awari-05.oegtb"] {
        assert!(
            said.lines()
                .any(|l| l.contains("removed a damaged endgame database file") && l.contains(name)),
            "{name} is not named: {said}"
        );
    }
    assert!(said.contains("(levels 4-6)"), "{said}");
    // Levels 0-3 were usable before the rebuild.
    assert!(
        said.find("up to 3 seeds").unwrap() < said.find("building").unwrap(),
        "{said}"
    );
    assert!(out.contains(FROM_DATABASE), "{out}");
    assert_levels_intact(&dir);
}

#[test]
fn no_egtb_builds_nothing_and_egtb_dir_builds_nothing_either() {
    let (home, dir) = data_home();
    for args in [
        &["engine", "--no-egtb"][..],
        &["play", "--no-egtb", "--rules", "awari"][..],
    ] {
        let out = Running::start(home.path(), args).finish("quit\n");
        assert!(!out.contains("endgame database"), "{args:?}: {out}");
    }
    assert!(!home.path().join("oware").exists(), "{}", dir.display());

    // A directory named: used, and nothing built in the data home.
    let named = awari_databases(4);
    let d = named.path().to_str().unwrap();
    let out = Running::start(home.path(), &["engine", "--egtb", d]).finish(ASK);
    assert!(out.contains(FROM_DATABASE), "{out}");
    assert!(!home.path().join("oware").exists());
    // Both at once make no sense.
    let out = oware(&["engine", "--egtb", d, "--no-egtb"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn two_starts_at_once_take_turns_and_leave_intact_files() {
    let (home, dir) = data_home();
    let mut a = Running::start(home.path(), &["engine"]);
    let mut b = Running::start(home.path(), &["engine"]);
    a.wait_for(IN_USE);
    b.wait_for(IN_USE);
    let (out_a, out_b) = (a.finish(ASK), b.finish(ASK));
    assert!(out_a.contains(FROM_DATABASE), "{out_a}");
    assert!(out_b.contains(FROM_DATABASE), "{out_b}");
    assert_levels_intact(&dir);
}

#[test]
fn the_server_says_when_its_computer_starts_using_them() {
    let (home, _dir) = data_home();
    let data = home.path().join("games.sqlite");
    let mut server = Running::start(
        home.path(),
        &[
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--data",
            data.to_str().unwrap(),
        ],
    );
    let line = server.wait_for("open http://");
    server.wait_for(IN_USE);
    let addr = line
        .split("open http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap()
        .parse()
        .unwrap();
    let (status, v) = http(
        addr,
        "POST",
        "/api/evaluate",
        Some(json!({"position": COVERED, "rules": "awari"})),
    );
    assert_eq!(status, 200, "{v}");
    let d = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["move"] == "D")
        .expect("D is legal");
    assert_eq!(d["database"]["exact"], true, "{v}");
}
