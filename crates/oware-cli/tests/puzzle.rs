//! `oware puzzle` as a user runs it: answers typed on standard input, right or wrong with the
//! coach's reasons, a hint, the solution, the next puzzle, a theme and a language.

mod common;

use common::{oware_with_input, stdout, text};
use oware_coach::puzzle::{with_theme, Theme};
use oware_coach::Lang;
use oware_rules::Move;

/// A legal move of the puzzle that is not its solution.
fn wrong_move(p: &oware_coach::puzzle::Puzzle) -> Move {
    p.game()
        .legal_moves()
        .find(|&m| m != p.solution)
        .expect("every puzzle has two legal moves at least")
}

#[test]
fn a_wrong_answer_a_hint_the_right_one_then_the_solution() {
    let captures: Vec<_> = with_theme(Theme::Capture).collect();
    let (first, second) = (captures[0], captures[1]);
    let wrong = wrong_move(first);
    let input = format!(
        "{wrong}\nhint\nz\n{}\nsolution\nnext\nquit\n",
        first.solution
    );
    let out = oware_with_input(&["puzzle", "--theme", "capture", "--lang", "en"], input);
    assert!(out.status.success(), "{}", text(&out));
    let said = stdout(&out);
    let total = captures.len();
    let expect = [
        first.title(1, total, Lang::En),
        format!("Not {wrong}. {}", first.why(wrong, Lang::En).unwrap()),
        Theme::Capture.hint(Lang::En),
        "Type a move letter (".to_string(),
        format!("Right! {}", first.why(first.solution, Lang::En).unwrap()),
        second.title(2, total, Lang::En),
        format!("The solution is {}.", second.solution),
        format!("Puzzle 3 of {total} (Capture)"),
        format!("Puzzle 4 of {total} (Capture)"),
    ];
    let mut rest = said.as_str();
    for line in expect {
        let at = rest
            .find(&line)
            .unwrap_or_else(|| panic!("{line:?} missing, in order, from:\n{said}"));
        rest = &rest[at + line.len()..];
    }
    // The board is drawn for each puzzle.
    assert_eq!(said.matches("store").count(), 2 * 4, "{said}");
}

#[test]
fn the_language_and_the_start_are_chosen_and_input_may_just_end() {
    let out = oware_with_input(&["puzzle", "--lang", "ca", "--number", "2"], "");
    assert!(out.status.success(), "{}", text(&out));
    let said = stdout(&out);
    assert!(said.contains("Problema 2 de "), "{said}");
    assert!(said.contains("La teva jugada ("), "{said}");
    // The board speaks Catalan too.
    assert!(said.contains("graner"), "{said}");
    assert!(
        said.contains("Sud   |") && said.contains("Nord  |"),
        "{said}"
    );
    assert!(!said.contains("store") && !said.contains("South"), "{said}");
}

#[test]
fn a_bad_theme_or_number_is_refused_with_the_reason() {
    let out = oware_with_input(&["puzzle", "--theme", "fork"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("unknown theme \"fork\""),
        "{}",
        text(&out)
    );
    let out = oware_with_input(&["puzzle", "--number", "0"], "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("--number 0: expected 1 to "),
        "{}",
        text(&out)
    );
}
