//! Database files on the command line: levels left unused above a missing one are reported (and
//! `verify` does not call such a database verified), and a file truncated under a running engine
//! is said once, with its path, while the engine plays on.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use common::*;

/// South to move with 5 seeds on the board (F captures 3, the database's best).
const POSITION: &str = "0-0-0-1-0-2-0-2-0-0-0-0-22-21-S";

#[test]
fn levels_above_a_missing_one_are_reported() {
    let dir = awari_databases(11);
    let d = dir.path().to_str().unwrap();
    for seeds in 8..=10 {
        std::fs::remove_file(dir.path().join(format!("awari-{seeds:02}.oegtb"))).unwrap();
    }
    let unused = format!(
        "{d}: awari level 11 is not used because level 8 is missing; the database is used for \
         levels 0-7"
    );

    let out = oware(&["egtb", "verify", "--rules", "awari", "--dir", d]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(stdout(&out).contains("level  7:"), "{t}");
    assert!(!t.contains("all 8 levels verified"), "{t}");
    assert!(
        t.contains(&format!("levels 0-7 verified, but {unused}")),
        "{t}"
    );
    assert_eq!(t.matches(&unused).count(), 1, "said once: {t}");

    let out = oware(&["egtb", "stats", "--rules", "awari", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        stderr(&out).contains(&format!("warning: {unused}")),
        "{}",
        text(&out)
    );

    let out = oware(&[
        "analyse", "--rules", "awari", "--egtb", d, "--depth", "2", POSITION,
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(stderr(&out).matches(&unused).count(), 1, "{}", text(&out));

    let session = "setoption name Rules value awari\nisready\nquit\n";
    let out = oware_with_input(&["engine", "--egtb", d], session);
    let t = text(&out);
    assert!(
        t.contains("info string endgame databases: awari up to 7 seeds"),
        "{t}"
    );
    assert!(t.contains(&format!("info string warning: {unused}")), "{t}");
}

/// `oware engine --egtb DIR`: a level file truncated between two searches that need it. The second
/// search still answers, the engine says once (with the path) that the file changed, and it exits
/// normally at `quit` instead of dying of SIGBUS.
#[test]
fn a_file_truncated_under_the_engine_is_said_once() {
    engine_survives_a_change(|path| {
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .unwrap()
            .set_len(0)
            .unwrap();
    });
}

/// The same for a file rewritten in place with its own bytes (same size, valid contents, only its
/// modification time new): the engine notices within about a second, says so once and goes on.
#[test]
fn a_file_rewritten_in_place_under_the_engine_is_said_once() {
    engine_survives_a_change(|path| {
        let bytes = std::fs::read(path).unwrap();
        let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        f.write_all(&bytes).unwrap();
    });
}

/// Runs two searches that need level 5 of a small awari database, changes its file with `change`,
/// then searches until the engine says the file changed (a truncation is seen at the next probe, a
/// rewrite at the next look, about a second later).
fn engine_survives_a_change(change: fn(&std::path::Path)) {
    let dir = awari_databases(6);
    let d = dir.path().to_str().unwrap();
    let path = dir.path().join("awari-05.oegtb");
    // An old modification time: a rewrite then always gets a new one, however soon after the build.
    let day_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(86_400);
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_modified(day_ago).unwrap();
    drop(file);
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["engine", "--egtb", d])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start oware engine");
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    // Sends `commands` and reads the replies up to the `searches`-th `bestmove`.
    let mut exchange = |commands: &str, searches: usize| -> Vec<String> {
        input.write_all(commands.as_bytes()).unwrap();
        input.flush().unwrap();
        let mut lines = Vec::new();
        while lines
            .iter()
            .filter(|l: &&String| l.starts_with("bestmove"))
            .count()
            < searches
        {
            let mut line = String::new();
            let read = output.read_line(&mut line).unwrap();
            assert!(read > 0, "the engine stopped; it said {seen:?} {lines:?}");
            lines.push(line.trim_end().to_string());
        }
        seen.extend(lines.clone());
        lines
    };
    let search = format!("position fen {POSITION}\ngo depth 4\n");
    let first = exchange(&format!("setoption name Rules value awari\n{search}"), 1);
    assert!(first.iter().any(|l| l == "bestmove F"), "{first:?}");
    assert!(!first.iter().any(|l| l.contains("changed")), "{first:?}");

    change(&path);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let mut after = Vec::new();
    while !after.iter().any(|l: &String| l.contains("error")) {
        assert!(
            std::time::Instant::now() < deadline,
            "the change was never noticed: {after:?}"
        );
        after.extend(exchange(&search, 1));
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    // Searches after it still answer, and nothing more is said.
    after.extend(exchange(&format!("{search}{search}"), 2));
    assert!(
        after.iter().filter(|l| l.starts_with("bestmove")).count() >= 3,
        "{after:?}"
    );
    let said = format!(
        "info string error: {}: the file changed while in use",
        path.display()
    );
    let errors: Vec<_> = after.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 1, "{after:?}");
    assert!(errors[0].starts_with(&said), "{after:?}");

    input.write_all(b"quit\n").unwrap();
    drop(input);
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
}
