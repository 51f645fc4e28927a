//! Running the built `oware` binary from integration tests.
#![allow(dead_code)] // each test file uses a different part

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `oware ARGS` with no input.
pub fn oware(args: &[&str]) -> Output {
    oware_with_input(args, "")
}

/// Runs `oware ARGS` with `input` (text, or any bytes) on its standard input.
pub fn oware_with_input(args: &[&str], input: impl AsRef<[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run oware");
    // The program may exit before reading its input (a refused record): a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(input.as_ref());
    child.wait_with_output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Standard output then standard error.
pub fn text(o: &Output) -> String {
    format!("{}{}", stdout(o), stderr(o))
}

/// Awari databases up to `seeds` seeds, built by `oware egtb build` in a fresh directory.
pub fn awari_databases(seeds: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let seeds = seeds.to_string();
    let d = dir.path().to_str().unwrap();
    let args = [
        "egtb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        &seeds,
        "--dir",
        d,
    ];
    let built = oware(&args);
    assert!(built.status.success(), "{}", text(&built));
    dir
}
