//! `oware serve` at start: a game database it cannot use is refused with one line that names the
//! file and says why, once.

mod common;

use common::*;

#[test]
fn a_file_that_is_no_database_is_named_once_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    std::fs::write(
        &path,
        "these are not the games you are looking for\n".repeat(20),
    )
    .unwrap();
    let out = oware(&[
        "serve",
        "--no-egtb",
        "--addr",
        "127.0.0.1:0",
        "--data",
        path.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert_eq!(err.matches(path.to_str().unwrap()).count(), 1, "{err}");
    assert_eq!(err.matches("not a database").count(), 1, "{err}");
}

/// SQLite takes an empty file for a new database; an empty file where games were kept means they
/// were lost before the server started, so the server says what it does with it.
#[test]
fn an_empty_file_is_reported_before_it_becomes_a_new_database() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    std::fs::write(&path, "").unwrap();
    let mut server = std::process::Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["serve", "--no-egtb", "--addr", "127.0.0.1:0", "--data"])
        .arg(&path)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let second = lines.next().unwrap().unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(
        first.contains(path.to_str().unwrap()) && first.contains("is empty"),
        "{first}"
    );
    assert!(second.contains("open http://"), "{second}");
}

/// A service manager stops the server with SIGTERM: it stops cleanly (exit 0) and notes the time,
/// which the next start gives back to the clocks, as after Ctrl-C.
#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_cleanly_and_notes_the_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite");
    let mut served = serve(&path);
    // SAFETY: sends a signal to the child this test started; no memory is touched.
    let sent = unsafe { libc::kill(served.child.id() as libc::pid_t, libc::SIGTERM) };
    assert_eq!(sent, 0);
    let status = served.child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let conn = rusqlite::Connection::open(&path).unwrap();
    let noted: i64 = conn
        .query_row("SELECT at_ms FROM alive WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!((now - noted).abs() < 10_000, "noted {noted}, now {now}");
}
