//! `oware analyse --explain` as a user runs it: every move explained, in the language asked for or
//! the environment's, and a game's mistakes reviewed.

mod common;

use std::process::{Command, Output};

fn explain(args: &[&str], envs: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_oware"));
    command
        .args(["analyse", "--explain", "--depth", "4"])
        .args(args)
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env_remove("LANG");
    for (name, value) in envs {
        command.env(name, value);
    }
    command.output().expect("run oware")
}

const SEEDS_EXAMPLE: &str = "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S";

#[test]
fn every_move_of_a_position_is_explained_in_english_by_default() {
    let out = explain(&[SEEDS_EXAMPLE], &[]);
    assert!(out.status.success(), "{}", common::text(&out));
    let text = common::stdout(&out);
    assert!(
        text.contains("South to move; why each move (engine depth 4):"),
        "{text}"
    );
    let f = text
        .lines()
        .find(|l| l.starts_with("F "))
        .expect("a line for F");
    assert!(
        f.contains("F sows 3 seeds and takes b and c: 5 seeds."),
        "{f}"
    );
    // One line per legal move, after the two header lines.
    assert_eq!(text.lines().count(), 2 + 6, "{text}");
}

#[test]
fn the_language_comes_from_the_option_or_the_locale() {
    let out = explain(&[SEEDS_EXAMPLE, "--lang", "ca"], &[("LANG", "fr_FR.UTF-8")]);
    let text = common::stdout(&out);
    assert!(
        text.contains("F sembra 3 llavors i captura b i c: 5 llavors."),
        "{text}"
    );
    let out = explain(&[SEEDS_EXAMPLE], &[("LANG", "fr_FR.UTF-8")]);
    let text = common::stdout(&out);
    assert!(text.contains("Sud joue"), "{text}");
    assert!(
        text.contains("F sème 3 graines et prend b et c\u{a0}: 5 graines."),
        "{text}"
    );
    let out = explain(
        &[SEEDS_EXAMPLE],
        &[("LANG", "es_ES.UTF-8"), ("LC_ALL", "de_DE")],
    );
    assert!(
        common::stdout(&out).contains("F sows 3 seeds"),
        "LC_ALL decides"
    );
    let out = explain(&[SEEDS_EXAMPLE, "--lang", "de"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("expected ca, es, en or fr"));
}

#[test]
fn a_move_list_gives_the_position_after_it() {
    let out = explain(&["FfEa", "--lang", "es"], &[]);
    assert!(out.status.success(), "{}", common::text(&out));
    let text = common::stdout(&out);
    assert!(
        text.starts_with("position 6-5-5-5-0-1-0-7-7-6-5-1-0-0-S (abapa)\n"),
        "{text}"
    );
    assert!(text.contains("Juega Sur;"), "{text}");
    let out = explain(&["FFx"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = explain(&["FF"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("ply 2"),
        "{}",
        common::text(&out)
    );
}

#[test]
fn a_game_is_reviewed_with_its_mistakes() {
    let dir = std::env::temp_dir().join(format!("oware-coach-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.ogn");
    // South leaves A (one seed) to North's c and f; North takes it with c, the engine's choice.
    std::fs::write(
        &file,
        "[FEN \"1-4-4-4-4-4-4-4-4-4-4-1-3-3-S\"]\n[Result \"*\"]\n\n1. B c+2 *\n",
    )
    .unwrap();
    let out = explain(&[file.to_str().unwrap()], &[]);
    std::fs::remove_dir_all(&dir).ok();
    assert!(out.status.success(), "{}", common::text(&out));
    let text = common::stdout(&out);
    assert!(text.contains("1. B gives away"), "{text}");
    // Why: the reply the engine expects and what it takes.
    assert!(text.contains(", North plays "), "{text}");
    assert!(text.contains(" and takes A: "), "{text}");
    assert!(
        text.contains("No move of North gives away 1 seed or more."),
        "{text}"
    );
}

#[test]
fn why_in_play_explains_a_move_or_the_last_one() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_oware"))
        .args(["play", "--no-egtb", "--position", SEEDS_EXAMPLE])
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .env("LANG", "ca_ES.UTF-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"why\nwhy F\nE\nwhy\nwhy Z\nwhy A\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = common::stdout(&out);
    assert!(text.contains("No move yet"), "{text}");
    assert!(
        text.contains("F sembra 3 llavors i captura b i c: 5 llavors."),
        "{text}"
    );
    // After South's E, `why` speaks of E in the position it was played from.
    assert!(
        text.contains("E sembra 4 llavors i captura b i c: 5 llavors."),
        "{text}"
    );
    assert!(text.contains("why takes a house letter"), "{text}");
    assert!(
        text.contains("illegal move A: that house belongs to the other player"),
        "{text}"
    );
}
