//! `oware analyse` and `oware bench` as a user runs them.

use std::process::Command;

fn oware(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(args)
        .output()
        .expect("run oware");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn analyse_lists_every_legal_move_of_a_position() {
    let (code, out, _) = oware(&[
        "analyse",
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
        "--movetime",
        "50",
    ]);
    assert_eq!(code, Some(0), "{out}");
    for letter in ["A", "B", "C", "D", "E", "F"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{letter} "))),
            "{letter} in {out}"
        );
    }
    // A forced win is reported as such.
    let (_, out, _) = oware(&["analyse", "0-0-0-1-0-1-1-1-0-0-0-0-23-21-S", "--depth", "4"]);
    assert!(
        out.lines()
            .any(|l| l.starts_with("F ") && l.contains("South wins in 1 move (1 ply)")),
        "{out}"
    );
    // Bad input: status 2 and a reason.
    let (code, _, err) = oware(&["analyse", "4-4-4"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("15 fields"), "{err}");
}

#[test]
fn analyse_gives_the_same_numbers_every_run() {
    // The one analysis: a fixed depth on a cleared table, one thread.
    let moves = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.chars().nth(1) == Some(' '))
            .map(String::from)
            .collect()
    };
    let run = || {
        let (code, out, err) = oware(&["analyse", "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S", "--depth", "8"]);
        assert_eq!(code, Some(0), "{err}");
        moves(&out)
    };
    let first = run();
    assert_eq!(first.len(), 6, "{first:?}");
    assert!(first[0].starts_with("F "), "the seeds' example: {first:?}");
    assert_eq!(first, run());
    let (code, _, err) = oware(&["analyse", "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "--threads", "2"]);
    assert_eq!(code, Some(2), "no --threads: {err}");
}

#[test]
fn analyse_marks_the_losses_of_a_game() {
    let dir = std::env::temp_dir().join(format!("oware-analyse-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, "FfBeBc\n").unwrap();
    let (code, out, err) = oware(&["analyse", file.to_str().unwrap(), "--depth", "4"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with(char::is_numeric))
            .count(),
        6,
        "{out}"
    );
    assert!(out.contains("South: ") && out.contains("North: "), "{out}");
    std::fs::write(&file, "FF\n").unwrap();
    let (code, _, err) = oware(&["analyse", file.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("ply 2"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The value on the line of `out` that starts with `prefix` (`oware bench` prints `nodes 123`).
fn printed<T: std::str::FromStr>(out: &str, prefix: &str) -> T {
    let value = out.lines().find_map(|l| l.strip_prefix(prefix));
    match value.map(str::parse) {
        Some(Ok(v)) => v,
        _ => panic!("no number after {prefix:?} in:\n{out}"),
    }
}

#[test]
fn bench_signature_is_repeatable() {
    let nodes = || {
        let (code, out, _) = oware(&["bench", "--depth", "8", "--hash", "4"]);
        assert_eq!(code, Some(0));
        printed::<u64>(&out, "nodes ")
    };
    let first = nodes();
    assert!(first > 1000);
    assert_eq!(first, nodes());
}

#[test]
fn bench_with_movetime_reports_the_depth_over_positions_not_proven_early() {
    let (code, out, err) = oware(&["bench", "--movetime", "10", "--hash", "4"]);
    assert_eq!(code, Some(0), "{err}");
    let positions: usize = printed(&out, "positions ");
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("average depth not proven early "))
        .expect("the average over positions not proven early");
    // "23.7 (9 positions; 4 proven early)"
    let numbers: Vec<usize> = line
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    let (open, proven) = (numbers[numbers.len() - 2], numbers[numbers.len() - 1]);
    assert_eq!(open + proven, positions, "{line}");
    // At a fixed depth there is no such line (every position is searched to that depth).
    let (_, out, _) = oware(&["bench", "--depth", "4", "--hash", "4"]);
    assert!(!out.contains("not proven early"), "{out}");
}

#[test]
fn bench_searches_the_positions_of_a_suite_of_games() {
    let suite = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../oware-rules/tests/data/master_games.suite"
    );
    let args = [
        "bench", "--suite", suite, "--every", "20", "--depth", "4", "--hash", "4",
    ];
    let (code, out, err) = oware(&args);
    assert_eq!(code, Some(0), "{err}");
    let positions: usize = printed(&out, "positions ");
    // Eight games of 70 to 118 plies, a position every 20 plies up to each game's end.
    assert!((20..=60).contains(&positions), "{positions}");
    assert_eq!(
        out.lines().filter(|l| l.contains(" best ")).count(),
        positions
    );
    // One engine per game: the same positions, searched with what the earlier ones left in the
    // table (so, in general, a different node count).
    let (code, kept, err) = oware(&[&args[..], &["--keep-table"]].concat());
    assert_eq!(code, Some(0), "{err}");
    assert!(kept.contains(&format!("positions {positions}")), "{kept}");
    let (code, _, err) = oware(&["bench", "--keep-table"]);
    assert_eq!(code, Some(2), "--keep-table needs --suite: {err}");

    let dir = std::env::temp_dir().join(format!("oware-suite-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.suite");
    std::fs::write(
        &file,
        "# a comment\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FfXx\n",
    )
    .unwrap();
    let (code, _, err) = oware(&["bench", "--suite", file.to_str().unwrap(), "-d", "2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("line 2") && err.contains("bad moves"), "{err}");
    // South cannot move twice in a row.
    std::fs::write(&file, "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FF\n").unwrap();
    let (code, _, err) = oware(&["bench", "--suite", file.to_str().unwrap(), "-d", "2"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("line 1") && err.contains("ply 2"), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}
