//! Running the built `oware` binary from integration tests.
#![allow(dead_code)] // each test file uses a different part

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

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

/// One HTTP request; the status and the JSON body.
pub fn http(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let mut stream = TcpStream::connect(addr).unwrap();
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer[9..12].parse().unwrap();
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    // The body may come in chunks: the JSON is between the first '{' and the last '}'.
    let json = match (body.find('{'), body.rfind('}')) {
        (Some(a), Some(b)) => serde_json::from_str(&body[a..=b]).unwrap_or(Value::Null),
        _ => Value::Null,
    };
    (status, json)
}
