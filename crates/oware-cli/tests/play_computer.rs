//! `oware play` against the computer: it answers moves, hints, evaluates, and undo takes back its
//! reply as well.

use std::io::Write;
use std::process::{Command, Stdio};

fn play(args: &[&str], input: &str) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["play", "--no-egtb"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run oware play");
    // The program may stop reading early (e.g. on a bad option); that is not this test's failure.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_computer_answers_and_undo_takes_back_both_moves() {
    let (ok, text) = play(
        &["--computer", "north", "--level", "2", "--movetime", "50"],
        "hint\nF\nundo\nmoves\nquit\n",
    );
    assert!(ok, "{text}");
    assert!(
        text.contains("you play South against the computer (level 2)"),
        "{text}"
    );
    assert!(text.contains("Hint: "), "{text}");
    assert!(
        text.contains("The computer (North, level 2) is thinking"),
        "{text}"
    );
    assert!(text.contains("North plays "), "{text}");
    assert!(text.contains("Took back F."), "{text}");
}

#[test]
fn the_computer_can_open_and_evaluate() {
    let (ok, text) = play(
        &["--computer", "south", "--level", "10", "--movetime", "30"],
        "eval\nlevel 11\ncomputer sideways\nquit\n",
    );
    assert!(ok, "{text}");
    assert!(
        text.contains("South plays "),
        "the computer moves first: {text}"
    );
    assert!(text.contains("Evaluation: "), "{text}");
    assert!(text.contains("level takes a number from 1 to 10"), "{text}");
    assert!(
        text.contains("computer takes south, north or off"),
        "{text}"
    );
    let (ok, _) = play(&["--computer", "east"], "quit\n");
    assert!(!ok);
}

#[test]
fn the_computer_can_think_on_several_threads() {
    let (ok, text) = play(
        &[
            "--computer",
            "north",
            "--level",
            "10",
            "--movetime",
            "50",
            "--threads",
            "2",
        ],
        "F\nhint\nquit\n",
    );
    assert!(ok, "{text}");
    assert!(text.contains("North plays "), "{text}");
    assert!(text.contains("Hint: "), "{text}");
    for bad in ["0", "257", "two"] {
        let (ok, _) = play(&["--computer", "north", "--threads", bad], "quit\n");
        assert!(!ok, "--threads {bad} must be refused");
    }
}
