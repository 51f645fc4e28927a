//! Endgame databases in use: `oware engine` (the `EGTB` option and `--egtb`), `oware play --egtb`
//! and `oware analyse --egtb` play and show database values where a database covers the position.

mod common;

use common::*;

/// South to move with 5 seeds on the board: F captures 3 (the database's best, +1 over the board);
/// D gives North the better of the ending (-5).
const POSITION: &str = "0-0-0-1-0-2-0-2-0-0-0-0-22-21-S";

#[test]
fn engine_and_analyse_use_the_databases() {
    let dir = awari_databases(6);
    let d = dir.path().to_str().unwrap();

    let session = format!(
        "uci\nsetoption name Rules value awari\nsetoption name EGTB value {d}\n\
         position fen {POSITION}\ngo depth 3\nisready\nquit\n"
    );
    let out = oware_with_input(&["engine", "--no-egtb"], &session);
    let t = text(&out);
    assert!(t.contains("option name EGTB type string"), "{t}");
    assert!(
        t.contains("info string endgame databases: awari up to 6 seeds"),
        "{t}"
    );
    assert!(t.contains("string endgame database"), "{t}");
    assert!(t.contains("bestmove F"), "{t}");

    // `--egtb` on the command line; a directory without databases is an error on the protocol,
    // and the engine plays on without them.
    let out = oware_with_input(
        &["engine", "--egtb", "/nonexistent-oware-egtb"],
        "isready\nquit\n",
    );
    let t = text(&out);
    assert!(t.contains("info string error: setoption EGTB"), "{t}");
    assert!(t.contains("readyok"), "{t}");

    let out = oware(&[
        "analyse",
        "--rules",
        "awari",
        "--egtb",
        d,
        "--movetime",
        "50",
        POSITION,
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("database: 1 (exact"), "{t}");
    let d_line = t
        .lines()
        .find(|l| l.starts_with("D "))
        .expect("a line for D");
    assert!(d_line.split_whitespace().any(|w| w == "-5"), "{d_line}");

    let out = oware(&["analyse", "--egtb", "/nonexistent-oware-egtb", POSITION]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

/// Awari, South to move, 3 seeds on the board: C and D both win, D with all three seeds (the
/// database's best move, which a search that probes the databases as it goes finds too).
const COVERED: &str = "0-0-1-1-0-0-0-0-0-0-1-0-23-22-S";

#[test]
fn the_protocol_and_play_choose_the_same_database_move() {
    let dir = awari_databases(4);
    let d = dir.path().to_str().unwrap();

    let session = format!(
        "setoption name Rules value awari\nposition fen {COVERED}\ngo movetime 200\nquit\n"
    );
    let out = oware_with_input(&["engine", "--egtb", d], &session);
    assert!(text(&out).contains("bestmove D"), "{}", text(&out));

    let play = |egtb: &[&str], input: &str| {
        let mut args = vec![
            "play",
            "--rules",
            "awari",
            "--position",
            COVERED,
            "--computer",
            "south",
            "--level",
            "10",
            "--movetime",
            "200",
        ];
        args.extend(egtb);
        text(&oware_with_input(&args, input))
    };
    let t = play(&["--egtb", d], "quit\n");
    assert!(t.contains("South plays D.\n"), "{t}");
    // The hint is the position's one analysis, the analysis table's best: C and D both reach
    // positions the databases prove South wins, the game not over yet, and of two equal scores
    // the table lists the first house first.
    let t = play(&["--egtb", d], "computer off\nundo\nhint\nquit\n");
    assert!(t.contains("Hint: C (South wins (endgame database))"), "{t}");
    // A directory without databases is refused before the game starts.
    let t = play(&["--egtb", "/nonexistent-oware-egtb"], "quit\n");
    assert!(
        t.contains("--egtb: /nonexistent-oware-egtb: no awari database"),
        "{t}"
    );
}
