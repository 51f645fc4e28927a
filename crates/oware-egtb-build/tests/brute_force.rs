//! The databases against a separate brute-force search that follows the rules literally: a full game
//! tree from each board with the history since the last capture, a repetition ending the game the first
//! time a position recurs (scored by `oware_rules::repetition_end`), and no transposition shortcuts.

use oware_egtb::index::{Board, IndexKind, LevelIndex};
use oware_egtb::Tablebase;
use oware_egtb_build::build::build_in_memory;
use oware_egtb_build::SearchBudget;
use oware_rules::{repetition_end, Position, RuleSet, Side};

/// What the mover of `pos` gets from the seeds on the board, in the rule set's units (awari: seed
/// difference; abapa: seeds), playing perfectly from `pos` with `history` (positions since the last
/// capture, `pos` last).
fn search(
    pos: &Position,
    rules: RuleSet,
    history: &mut Vec<Position>,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let me = pos.side_to_move();
    let on_board = pos.board_seeds() as i32;
    let moves = pos.moves_ignoring_stores(rules);
    if moves.is_empty() {
        // The mover cannot move: under awari the opponent takes what is left (the mover's row is
        // empty); under abapa each side gathers its own row.
        return match rules {
            RuleSet::Awari => -on_board,
            RuleSet::Abapa => pos.row_seeds(me) as i32,
        };
    }
    // Plain alpha-beta over the whole game tree: exact at the root. `alpha`/`beta` are in the mover's
    // units; the child's window is mapped through the same transform as its value.
    let flip = |v: i32| match rules {
        RuleSet::Awari => -v,
        RuleSet::Abapa => on_board - v,
    };
    let mut best = i32::MIN;
    for mv in moves {
        let played = pos.play_unchecked(mv, rules);
        let next = played.position;
        let captured = played.captured as i32;
        let value = if captured > 0 {
            // After a capture: the child's window, shifted by what was captured.
            let (lo, hi) = match rules {
                RuleSet::Awari => (captured - beta, captured - alpha),
                RuleSet::Abapa => (on_board - beta, on_board - alpha),
            };
            let after = search(&next, rules, &mut vec![next], lo, hi);
            match rules {
                RuleSet::Awari => captured - after,
                RuleSet::Abapa => on_board - after,
            }
        } else if history.contains(&next) {
            let end = repetition_end(&next, rules).score;
            let mine = end.halves(me) as i32 - 2 * next.store(me) as i32;
            let theirs = end.halves(me.opponent()) as i32 - 2 * next.store(me.opponent()) as i32;
            match rules {
                RuleSet::Awari => (mine - theirs) / 2,
                RuleSet::Abapa => mine / 2,
            }
        } else {
            history.push(next);
            let after = search(&next, rules, history, flip(beta), flip(alpha));
            history.pop();
            flip(after)
        };
        best = best.max(value);
        alpha = alpha.max(best);
        if alpha >= beta {
            break;
        }
    }
    best
}

fn brute_force(board: &Board, rules: RuleSet) -> i32 {
    let pos = Position::from_board(*board, Side::South).unwrap();
    let k = pos.board_seeds() as i32;
    let (lo, hi) = match rules {
        RuleSet::Awari => (-k - 1, k + 1),
        RuleSet::Abapa => (-1, k + 1),
    };
    search(&pos, rules, &mut vec![pos], lo, hi)
}

fn tablebase(rules: RuleSet, max_seeds: usize) -> Tablebase {
    Tablebase::from_levels(build_in_memory(rules, max_seeds, SearchBudget::Fixed(0)).unwrap())
}

#[test]
fn awari_matches_brute_force_on_every_board() {
    let max = 3;
    let tb = tablebase(RuleSet::Awari, max);
    for k in 0..=max {
        for board in LevelIndex::new(k, IndexKind::Full).iter_from(0) {
            let expected = brute_force(&board, RuleSet::Awari);
            for side in [Side::South, Side::North] {
                let houses = if side == Side::South {
                    board
                } else {
                    oware_egtb::index::rotate(&board)
                };
                let pos = Position::from_board(houses, side).unwrap();
                let probe = tb.probe(&pos).unwrap();
                assert!(probe.exact);
                assert_eq!(probe.value as i32, expected, "{pos}");
            }
        }
    }
}

#[test]
fn abapa_bounds_hold_the_brute_force_value() {
    let max = 3;
    // With and without the path-tracking search: every bound must hold, every exact value be right.
    // Small budgets leave boards for later passes, which prune with what earlier passes settled; a
    // budget of 10 makes almost every root search run out, which must leave its bounds as they were.
    let budgets = [0, 10, 50, 300, 2_000, 1_000_000].map(SearchBudget::Fixed);
    for search in budgets.into_iter().chain([SearchBudget::Auto(0)]) {
        let levels = build_in_memory(RuleSet::Abapa, max, search).unwrap();
        check_abapa(&Tablebase::from_levels(levels), max);
    }
}

fn check_abapa(tb: &Tablebase, max: usize) {
    for k in 0..=max {
        let (mut exact, mut total) = (0, 0);
        for board in LevelIndex::new(k, IndexKind::Full).iter_from(0) {
            let expected = brute_force(&board, RuleSet::Abapa);
            let pos = Position::from_board(board, Side::South).unwrap();
            let probe = tb.probe(&pos).unwrap();
            assert!(
                (probe.lower as i32..=probe.upper as i32).contains(&expected),
                "{pos}: {expected} not in {probe:?}"
            );
            if probe.exact {
                assert_eq!(probe.value as i32, expected, "{pos}");
                exact += 1;
            }
            total += 1;
        }
        eprintln!("abapa level {k}: {exact}/{total} exact");
    }
}

/// On levels too big for the brute force, the bounds must contain every value that a full-window
/// path-tracking search (itself checked against the brute force above) manages to settle.
#[test]
fn abapa_bounds_hold_the_path_search_value_on_larger_levels() {
    use oware_egtb::Bounds;
    use oware_egtb_build::path_search::search_bounds;
    let max = 5;
    let levels = build_in_memory(RuleSet::Abapa, max, SearchBudget::Fixed(0)).unwrap();
    let mut settled = 0;
    for k in 4..=max {
        for (i, board) in LevelIndex::new(k, IndexKind::Full).iter_from(0).enumerate() {
            if i % 5 != 0 {
                continue;
            }
            let stored = levels.stored(&board).unwrap();
            let widest = Bounds { lo: 0, hi: k as i8 };
            let Some(found) = search_bounds(k, &board, &levels, widest, 5_000) else {
                continue;
            };
            assert!(
                found.lo <= stored.hi && stored.lo <= found.hi,
                "level {k} {board:?}: stored {stored:?}, search {found:?}"
            );
            if found.is_exact() {
                assert!(stored.lo <= found.lo && found.lo <= stored.hi);
                settled += 1;
            }
        }
    }
    eprintln!("{settled} boards settled by the search");
    assert!(settled > 100, "only {settled} boards settled by the search");
}

/// The path search that prunes with the solver's bounds inside the level must settle boards to the
/// same values as the plain path search (checked against the brute force above), and may only settle
/// more of them; the default build's search (up to 10 million nodes on levels with few open boards)
/// settles every board of levels 4 and 5.
#[test]
fn pruned_path_search_agrees_with_the_plain_one() {
    use oware_egtb::Bounds;
    use oware_egtb_build::path_search::search_bounds;
    let max = 5;
    let plain = build_in_memory(RuleSet::Abapa, max, SearchBudget::Fixed(0)).unwrap();
    for search in [SearchBudget::Fixed(2_000), SearchBudget::Auto(0)] {
        let pruned = build_in_memory(RuleSet::Abapa, max, search).unwrap();
        let (mut checked, mut exact_plain, mut exact_pruned, mut boards) = (0, 0, 0, 0);
        for k in 4..=max {
            for (i, board) in LevelIndex::new(k, IndexKind::Full).iter_from(0).enumerate() {
                let before = plain.stored(&board).unwrap();
                let after = pruned.stored(&board).unwrap();
                boards += 1;
                exact_plain += before.is_exact() as u32;
                exact_pruned += after.is_exact() as u32;
                // The search only narrows the solver's bounds.
                assert!(
                    before.lo <= after.lo && after.hi <= before.hi,
                    "level {k} {board:?}: solver {before:?}, after search {after:?}"
                );
                if i % 2 != 0 || !after.is_exact() || before.is_exact() {
                    continue;
                }
                // The plain search, given the same lower levels.
                let widest = Bounds { lo: 0, hi: k as i8 };
                if let Some(found) = search_bounds(k, &board, &pruned, widest, 200_000) {
                    assert!(
                        found.lo <= after.lo && after.lo <= found.hi,
                        "level {k} {board:?}: pruned search {after:?}, plain search {found:?}"
                    );
                    checked += found.is_exact() as u32;
                }
            }
        }
        eprintln!("{search:?}: exact on levels 4..={max}: {exact_plain} by the solver, {exact_pruned} with the pruned search; {checked} checked against the plain search");
        assert!(exact_pruned > exact_plain);
        assert!(checked > 15, "only {checked} boards checked");
        if search == SearchBudget::Auto(0) {
            assert_eq!(exact_pruned, boards, "levels 4..={max} all exact");
        }
    }
}

/// The proof-number search answers every threshold question as the brute force (levels 1–3) or the
/// plain full-window path search (checked against the brute force above; levels 4 and 5) does, with
/// no stored bounds at its leaves, with the solver's bounds folded along the path, and with the
/// solver's bounds transferred through the solid positions of the path. The level searched has the
/// threshold solver's bounds alone (a build with no search), so that many of its boards are open.
#[test]
fn proof_number_search_agrees_with_the_plain_path_search() {
    use oware_egtb::Bounds;
    use oware_egtb_build::in_level::InLevel;
    use oware_egtb_build::path_search::search_bounds;
    use oware_egtb_build::pn_search::{at_least, narrow, ThresholdAnswer};
    let max = 5;
    // Exact lower levels (the default build settles every board up to 5 seeds), and the solver's
    // bounds alone on the level searched.
    let levels = build_in_memory(RuleSet::Abapa, max, SearchBudget::Auto(0)).unwrap();
    let solver = build_in_memory(RuleSet::Abapa, max, SearchBudget::Fixed(0)).unwrap();
    let (mut answered, mut open_settled, mut open, mut plain_checked) = (0, 0, 0, 0);
    for k in 1..=max {
        let (index, entries) = solver.level(k).unwrap();
        let level = Some(InLevel::new(index, entries));
        for (i, board) in index.iter_from(0).enumerate() {
            let stored = solver.stored(&board).unwrap();
            if stored.is_exact() && i % 7 != 0 {
                continue;
            }
            // The value: the brute force's, or the default build's (held to the plain search by
            // the tests above), which the plain search must agree with wherever it finishes.
            let v = if k <= 3 {
                brute_force(&board, RuleSet::Abapa) as i8
            } else {
                let v = levels.stored(&board).unwrap();
                assert!(v.is_exact(), "level {k} {board:?}: {v:?}");
                let widest = Bounds { lo: 0, hi: k as i8 };
                if let Some(plain) = search_bounds(k, &board, &levels, widest, 100_000) {
                    assert_eq!(plain, v, "level {k} {board:?}");
                    plain_checked += 1;
                }
                v.lo
            };
            for t in 1..=k as i8 {
                for (in_level, solid) in [(None, None), (level, None), (level, level)] {
                    let outcome = at_least(k, &board, &levels, in_level, solid, t, 100_000);
                    let expected = if v >= t {
                        ThresholdAnswer::Proved
                    } else {
                        ThresholdAnswer::Disproved
                    };
                    assert!(
                        outcome == expected || outcome == ThresholdAnswer::Unknown,
                        "level {k} {board:?} (value {v}): at least {t}? {outcome:?}"
                    );
                    answered += (outcome != ThresholdAnswer::Unknown) as u32;
                }
            }
            let narrowed = narrow(k, &board, &levels, level, level, stored, 100_000);
            assert!(
                narrowed.lo <= v && v <= narrowed.hi,
                "level {k} {board:?}: {narrowed:?}, value {v}"
            );
            open += !stored.is_exact() as u32;
            open_settled += (!stored.is_exact() && narrowed.is_exact()) as u32;
        }
    }
    eprintln!(
        "{answered} threshold questions answered, {open_settled} of {open} open boards settled, \
         {plain_checked} values checked against the plain search"
    );
    assert!(
        plain_checked > 200,
        "only {plain_checked} checked against the plain search"
    );
    assert!(
        answered > 3000 && open_settled * 10 > open * 9,
        "{answered} answered, {open_settled} of {open} settled"
    );
}
