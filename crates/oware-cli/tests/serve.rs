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
