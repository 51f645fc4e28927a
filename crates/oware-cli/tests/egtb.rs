//! `oware egtb` end to end: build, probe (text and JSON), verify, stats, and a damaged file.

mod common;

use common::*;

#[test]
fn build_probe_verify_stats() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    for rules in ["awari", "abapa"] {
        let out = oware(&[
            "egtb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            "6",
            "--dir",
            d,
            "--threads",
            "2",
        ]);
        assert!(out.status.success(), "{}", text(&out));
        assert!(text(&out).contains("level  6"), "{}", text(&out));
        let out = oware(&["egtb", "verify", "--rules", rules, "--dir", d]);
        assert!(out.status.success(), "{}", text(&out));
        assert!(text(&out).contains("all 7 levels verified"));
        let out = oware(&["egtb", "stats", "--rules", rules, "--dir", d]);
        assert!(out.status.success(), "{}", text(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 8);
    }
    // South's only move F captures a and b and starves North: all 4 seeds (awari +4, abapa: F is a
    // grand slam, so nothing is captured, and the position goes on).
    let out = oware(&[
        "egtb",
        "probe",
        "--rules",
        "awari",
        "--dir",
        d,
        "--json",
        "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"seeds": 4, "value": 4, "exact": true, "moves": {"F": 4}}"#
    );
    let out = oware(&[
        "egtb",
        "probe",
        "--rules",
        "abapa",
        "--dir",
        d,
        "--json",
        "0-0-0-0-0-1-0-0-0-0-0-0-23-24-N",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    // North cannot move: each side gathers its own row, so North (the mover) gets 0.
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"seeds": 1, "value": 0, "exact": true, "moves": {}}"#
    );
    // Beyond the levels built.
    let out = oware(&[
        "egtb",
        "probe",
        "--rules",
        "awari",
        "--dir",
        d,
        "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("covers up to 6"), "{}", text(&out));
    // A malformed position is an input error.
    let out = oware(&["egtb", "probe", "--rules", "awari", "--dir", d, "1-2-3"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // A damaged file is refused with a clear message.
    let path = dir.path().join("awari-03.oegtb");
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    let out = oware(&["egtb", "verify", "--rules", "awari", "--dir", d]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("awari-03.oegtb: damaged file"),
        "{}",
        text(&out)
    );
}

/// A forged entry with a right checksum: abapa level 6's entry 492 (bounds 0..3, on a board with a
/// move that stays in the level) made an exact 0, which its moves allow, so the plain check passes
/// it; `--deep` solves the level again and names it, with the board as a position, and fails.
#[test]
fn verify_deep_names_a_forged_entry_the_plain_check_passes() {
    let dir = common::databases("abapa", 6);
    let d = dir.path().to_str().unwrap();
    let verify = |extra: &[&str]| {
        let mut args = vec!["egtb", "verify", "--rules", "abapa", "--dir", d];
        args.extend_from_slice(extra);
        oware(&args)
    };
    let out = verify(&["--deep"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        stdout(&out).contains("all 7 levels verified, each identical when solved again"),
        "{}",
        text(&out)
    );

    let path = dir.path().join("abapa-06.oegtb");
    let mut bytes = std::fs::read(&path).unwrap();
    // Code 2 is 0..1, code 6 is 0..3 (abapa's triangular code), code 0 an exact 0.
    assert_eq!(bytes[32 + 492], 6, "the level's entry 492 is 0..3");
    bytes[32 + 492] = 0;
    let crc = crc32fast::hash(&bytes[32..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, bytes).unwrap();

    let out = verify(&[]);
    assert!(out.status.success(), "{}", text(&out));
    let out = verify(&["--deep"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let t = text(&out);
    assert!(
        t.contains(
            "level  6:        12376 positions, 1 entry differing from the level solved again"
        ),
        "{t}"
    );
    assert!(
        t.contains(
            "level 6 entry 492 (position 0-0-0-0-0-1-0-0-2-0-1-2-21-21-S): stored 0, solved again 0..3"
        ),
        "{t}"
    );
    assert!(t.contains("solved again with --search-nodes 0"), "{t}");
    // Levels 0-5 are still identical.
    assert_eq!(
        t.matches("ok, identical when solved again").count(),
        6,
        "{t}"
    );

    // A sample of entries, and the options that do not go together.
    let out = verify(&["--sample", "50"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        stdout(&out).contains("50 of 12376 positions, ok"),
        "{}",
        text(&out)
    );
    assert_eq!(verify(&["--sample", "0"]).status.code(), Some(2));
    assert_eq!(verify(&["--sample", "5", "--deep"]).status.code(), Some(2));
    assert_eq!(verify(&["--search-nodes", "5"]).status.code(), Some(2));
}

/// A level beyond the rule set's highest is bad input, refused before anything is written.
#[test]
fn a_level_too_high_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("db");
    let out = oware(&[
        "egtb",
        "build",
        "--rules",
        "awari",
        "--max-seeds",
        "49",
        "--dir",
        d.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        stderr(&out).contains("awari databases go up to"),
        "{}",
        text(&out)
    );
    assert!(!d.exists());
}

#[test]
fn bench_perfect_with_a_node_budget_repeats_itself() {
    let dir = awari_databases(8);
    let d = dir.path().to_str().unwrap();
    let positions = dir.path().join("positions.txt");
    // The README's example (F wins, D loses) and an eight-seed board.
    std::fs::write(
        &positions,
        "# two positions\n0-0-0-1-0-2-0-2-0-0-0-0-22-21-S\n1-0-2-0-1-0-0-2-0-1-0-1-20-20-S\n",
    )
    .unwrap();
    let p = positions.to_str().unwrap();
    let args = [
        "bench",
        "--perfect",
        d,
        "--rules",
        "awari",
        "--positions",
        p,
        "--nodes",
        "3000",
        "--misses",
    ];
    let first = oware(&args);
    assert!(first.status.success(), "{}", text(&first));
    let report = String::from_utf8_lossy(&first.stdout).into_owned();
    assert!(report.contains("3000 nodes a move"), "{report}");
    // Both positions judged, without the databases and with them; with them every result is kept,
    // so no line says one was lost after the "on" row.
    let rows: Vec<&str> = report.lines().filter(|l| l.starts_with("o")).collect();
    assert_eq!(rows.len(), 2, "{report}");
    assert!(
        rows[0].starts_with("off") && rows[0].contains("     2  "),
        "{report}"
    );
    assert!(
        rows[1].starts_with("on") && rows[1].contains("2 (100.00%)"),
        "{report}"
    );
    let after_on = report.split_once("\non ").unwrap().1;
    assert!(!after_on.contains("result lost"), "{report}");
    // A node budget, not the clock, ends each search: the same moves again.
    let second = oware(&args);
    assert_eq!(String::from_utf8_lossy(&second.stdout), report);

    for (bad, why) in [
        (vec!["--nodes", "0"], "at least 1"),
        (
            vec!["--nodes", "10", "--movetime", "10"],
            "cannot be used with",
        ),
    ] {
        let out = oware(&[&["bench", "--perfect", d, "--positions", p][..], &bad[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{}", text(&out));
        assert!(text(&out).contains(why), "{}", text(&out));
    }
}

#[test]
fn bench_perfect_can_play_with_fewer_levels_than_it_judges_with() {
    let judge = awari_databases(8);
    let own = awari_databases(4);
    let empty = tempfile::tempdir().unwrap();
    let positions = judge.path().join("positions.txt");
    std::fs::write(
        &positions,
        "1-0-2-0-1-0-0-2-0-1-0-1-20-20-S
",
    )
    .unwrap();
    let args = |engine_dir: &std::path::Path| {
        oware(&[
            "bench",
            "--perfect",
            judge.path().to_str().unwrap(),
            "--positions",
            positions.to_str().unwrap(),
            "--nodes",
            "3000",
            "--engine-egtb",
            engine_dir.to_str().unwrap(),
        ])
    };
    let out = args(own.path());
    assert!(out.status.success(), "{}", text(&out));
    let report = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        report.contains("within the databases' 8 seeds")
            && report.contains("the engine's databases: levels 0-4 of"),
        "{report}"
    );
    let out = args(empty.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("--engine-egtb: ") && text(&out).contains("no awari database"),
        "{}",
        text(&out)
    );
}
