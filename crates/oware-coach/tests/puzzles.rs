//! The puzzle set holds to what docs/puzzles.md promises: every puzzle says what it asks, no
//! position comes twice, the themes and goals count as documented, and the small positions agree
//! with abapa endgame databases built here (the set was checked with databases of 16 seeds, which
//! take minutes to build; those of a few seeds take seconds and hold the same values for the
//! positions they cover).

use std::collections::{BTreeMap, BTreeSet};

use oware_coach::puzzle::{self, check_with_databases, DatabaseVerdict, Goal, Theme};
use oware_egtb::Tablebase;
use oware_egtb_build::build::build_in_memory;
use oware_egtb_build::SearchBudget;
use oware_rules::RuleSet;

/// The most seeds on the board of the databases built here.
const SEEDS: usize = 5;

#[test]
fn every_puzzle_has_a_goal_and_its_own_position() {
    let all = puzzle::all();
    assert!(all.len() >= 300, "{} puzzles", all.len());
    let mut positions = BTreeSet::new();
    for p in all {
        assert!(
            positions.insert(format!("{} {}", p.position, p.rules)),
            "position twice: {}",
            p.line()
        );
        // The line of the file names the goal, and reads back to it.
        assert!(
            p.line().split(' ').nth(3) == Some(p.goal.code()),
            "{}",
            p.line()
        );
        assert_eq!(puzzle::parse(&p.line()).unwrap()[0].goal, p.goal);
        // A forced win the search found is a `win` puzzle.
        if oware_coach::engine::decided_in(p.score).is_some_and(|plies| plies > 0) {
            assert_eq!(p.goal, Goal::Win, "{}", p.line());
        }
    }
}

#[test]
fn the_themes_and_goals_count_as_documented() {
    let mut counts: BTreeMap<(Theme, Goal), usize> = BTreeMap::new();
    for p in puzzle::all() {
        *counts.entry((p.theme, p.goal)).or_default() += 1;
    }
    // docs/puzzles.md, "The set": (theme, win, gain).
    let documented = [
        (Theme::Capture, 29, 35),
        (Theme::DoubleAttack, 25, 31),
        (Theme::Kroo, 40, 27),
        (Theme::Feeding, 29, 7),
        (Theme::GrandSlam, 5, 3),
        (Theme::Tempo, 34, 21),
        (Theme::Quiet, 18, 17),
    ];
    for (theme, win, gain) in documented {
        let of = |goal| counts.get(&(theme, goal)).copied().unwrap_or(0);
        assert_eq!(
            (of(Goal::Win), of(Goal::Gain)),
            (win, gain),
            "{theme}: (win, gain)"
        );
    }
}

#[test]
fn small_puzzles_agree_with_abapa_databases() {
    let levels = build_in_memory(RuleSet::Abapa, SEEDS, SearchBudget::Auto(0)).unwrap();
    let tablebase = Tablebase::from_levels(levels);
    let mut checked = 0;
    for p in puzzle::all() {
        let verdict = check_with_databases(&p.position, p.rules, p.solution, p.goal, &tablebase);
        if usize::from(p.position.board_seeds()) > SEEDS {
            assert_eq!(verdict, None, "{}", p.line());
            continue;
        }
        // The solution certainly better than every other move, the game not the same whatever is
        // played, and for a `win` puzzle the one winning move.
        assert_eq!(
            verdict,
            Some(DatabaseVerdict::Holds(p.goal)),
            "{}",
            p.line()
        );
        assert!(p.verified.ends_with("+egtb16"), "{}", p.line());
        checked += 1;
    }
    assert!(checked >= 20, "{checked} puzzles of at most {SEEDS} seeds");
}

#[test]
fn the_check_turns_down_ties_and_positions_without_a_choice() {
    let levels = build_in_memory(RuleSet::Abapa, SEEDS, SearchBudget::Auto(0)).unwrap();
    let tablebase = Tablebase::from_levels(levels);
    let check = |pos: &str, mv: &str, goal| {
        check_with_databases(
            &pos.parse().unwrap(),
            RuleSet::Abapa,
            mv.parse().unwrap(),
            goal,
            &tablebase,
        )
    };
    // North has 24 and wins whatever it plays.
    assert_eq!(
        check("0-0-0-0-0-0-1-1-0-0-0-2-20-24-N", "f", Goal::Win),
        Some(DatabaseVerdict::SameResult)
    );
    // f wins in 3 plies and e later, with the same 2 seeds of the board (docs/puzzles.md).
    assert!(matches!(
        check("0-0-0-0-0-0-1-0-0-0-3-1-20-23-N", "f", Goal::Win),
        Some(DatabaseVerdict::Rival(_))
    ));
    // A puzzle of the set: its solution holds, and any other move asked for has a rival in it.
    let p = puzzle::all()
        .iter()
        .find(|p| usize::from(p.position.board_seeds()) <= SEEDS)
        .expect("a puzzle of few seeds");
    let pos = p.position.to_string();
    assert_eq!(
        check(&pos, &p.solution.to_string(), p.goal),
        Some(DatabaseVerdict::Holds(p.goal))
    );
    let other = p.game().legal_moves().find(|&m| m != p.solution).unwrap();
    assert!(matches!(
        check(&pos, &other.to_string(), Goal::Gain),
        Some(DatabaseVerdict::Rival(_))
    ));
    // More seeds than the databases hold: they say nothing.
    assert_eq!(
        check("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", "F", Goal::Gain),
        None
    );
}
