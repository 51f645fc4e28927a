//! The `oware` binary as a user runs it: perft, replay, show, play.

mod common;

use common::*;

#[test]
fn perft_prints_one_line_per_depth() {
    let o = oware(&["perft", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 5);
    assert!(
        lines[4].starts_with("depth=5 leaves=5219 time_ms="),
        "{}",
        lines[4]
    );
}

/// `oware perft 11 | head -1`: the reader closes the pipe after one line; the command stops without a
/// panic message.
#[test]
fn a_report_stops_quietly_when_its_reader_goes() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["perft", "11"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run oware");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("depth=1 "), "{first}");
    // The reader is dropped here: the next line meets a closed pipe.
    let o = child.wait_with_output().unwrap();
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn perft_divide_lists_first_moves() {
    let o = oware(&["perft", "3", "--divide"]);
    let text = stdout(&o);
    let divide: Vec<&str> = text.lines().skip(3).collect();
    assert_eq!(divide.len(), 6);
    let sum: u64 = divide
        .iter()
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(sum, 190);
}

#[test]
fn perft_with_position_and_rules() {
    let o = oware(&[
        "perft",
        "2",
        "--position",
        "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S",
        "--rules",
        "awari",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("depth=1 leaves=1 "));
}

#[test]
fn replay_prints_positions_and_the_result() {
    let o = oware(&["replay", "FfEa"]);
    assert!(o.status.success());
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[4], "result 0-0 ongoing");
}

#[test]
fn replay_reports_the_end() {
    let o = oware(&[
        "replay",
        "--position",
        "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S",
        "F",
    ]);
    assert_eq!(stdout(&o).lines().last(), Some("result 25-22 capture"));
    let o = oware(&[
        "replay",
        "--position",
        "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S",
        "FfAaBbCcDdEe",
    ]);
    assert_eq!(
        stdout(&o).lines().last(),
        Some("result 24-24 repetition"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn replay_refuses_illegal_moves_with_status_2() {
    let o = oware(&["replay", "FF"]);
    assert_eq!(o.status.code(), Some(2));
    // The message README.md shows.
    assert_eq!(
        stderr(&o).trim(),
        "oware: ply 2 (North's move F) is illegal: that house belongs to the other player"
    );
    // A move after the end.
    let o = oware(&[
        "replay",
        "--position",
        "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S",
        "Fb",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("ply 2 (North's move b)"),
        "{}",
        stderr(&o)
    );
    // Not a letter at all.
    let o = oware(&["replay", "Fz"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let o = oware(&["show", "4-4-4-4-4-4-4-4-4-4-4-4-0-0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("15 fields"), "{}", stderr(&o));
    let o = oware(&["replay", "--position", "4-4-4-4-4-4-4-4-4-4-4-5-0-0-S", "F"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("48 seeds"), "{}", stderr(&o));
}

#[test]
fn show_draws_the_board() {
    let o = oware(&["show", "1-2-3-4-5-6-7-8-9-1-1-0-1-0-S"]);
    let text = stdout(&o);
    assert!(
        text.contains("North |  0 |  1 |  1 |  9 |  8 |  7 |  store  0"),
        "{text}"
    );
    assert!(
        text.contains("South |  1 |  2 |  3 |  4 |  5 |  6 |  store  1  <- to move"),
        "{text}"
    );
}

#[test]
fn play_two_people_with_undo_save_and_load() {
    let dir = std::env::temp_dir().join(format!("oware-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.ogn");
    let file = file.to_str().unwrap();
    let script = format!("F\nF\nf\nE\nundo\nE\nsave {file}\nquit\n");
    let o = oware_with_input(&["play", "--no-egtb"], &script);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("F is not allowed: that house belongs to the other player"),
        "{text}"
    );
    assert!(text.contains("Took back E."), "{text}");
    let saved = std::fs::read_to_string(file).unwrap();
    assert!(saved.contains("1. F f 2. E *"), "{saved}");

    // Load it back and finish with a capture-free move.
    let o = oware_with_input(&["play", "--no-egtb", "--load", file], "moves\nquit\n");
    assert!(stdout(&o).contains("1. F f 2. E *"), "{}", stdout(&o));
    // A damaged record is refused with a reason and status 2.
    std::fs::write(file, "[Variant \"abapa\"]\n\n1. F F *\n").unwrap();
    let o = oware_with_input(&["play", "--no-egtb", "--load", file], "quit\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ply 2"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn play_goes_on_after_input_that_is_no_text() {
    // Bytes that are not UTF-8 (a terminal set to Latin-1) and a line of 100,000 bytes: each is
    // refused on its own, and the game goes on where it was.
    let mut input = b"F\nload \xe9t\xe9.ogn\n\xff\n".to_vec();
    input.extend(vec![b'x'; 100_000]);
    input.extend(b"\nmoves\nquit\n");
    let o = oware_with_input(&["play", "--no-egtb"], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("could not read \u{fffd}t\u{fffd}.ogn"),
        "{text}"
    );
    assert!(text.contains("\"\u{fffd}\" is not a house"), "{text}");
    assert!(text.contains("that line is too long"), "{text}");
    assert!(text.contains("1. F *"), "the move is still there: {text}");
}

#[test]
fn play_announces_the_end() {
    let o = oware_with_input(
        &[
            "play",
            "--no-egtb",
            "--position",
            "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S",
        ],
        "F\nb\n",
    );
    let text = stdout(&o);
    assert!(text.contains("South plays F and captures 2."), "{text}");
    assert!(
        text.contains("Game over: South wins 25-22 (a store holds more than 24 seeds)."),
        "{text}"
    );
    assert!(text.contains("The game is over"), "{text}");
}
