//! The awari databases against a second solver written independently of the crate's own.
//!
//! Awari values are meant to be exactly Romein & Bal's. Their files cannot be fetched from here, but
//! their values are the game's values under the awari rules, and those can be computed a second way:
//! this file does so with nothing from the crate's solver (no index, no move generation, no threshold
//! propagation by counters): boards are enumerated as compositions, moves and game ends come from the
//! rules crate, and each threshold is settled by plain sweeps over the level until nothing changes.
//! Slow and simple on purpose; the databases must agree with it on every board.
//!
//! Why thresholds give the value: under awari a repetition is worth 0 wherever it happens, so the
//! value of a board is that of the game where endless play is worth 0. The mover is sure of at least
//! `t > 0` exactly when it can force, in finitely many moves, an end worth `t` or more (endless play
//! gives 0 < t); that set is the least fixpoint of "some move reaches such an end, or a board where
//! the opponent is held to `-t` or less". The same holds from the other side for `-t`.
//!
//! `OWARE_INDEPENDENT_AWARI_MAX=N` checks levels up to N seeds (default 10, about 2 s in release).

use std::collections::HashMap;

use oware_egtb::Tablebase;
use oware_egtb_build::build::build_in_memory;
use oware_egtb_build::SearchBudget;
use oware_rules::{Position, RuleSet, Side, HOUSES};

type Houses = [u8; HOUSES];

/// Every board of `seeds` seeds (South to move), in no particular order.
fn boards(seeds: u8) -> Vec<Houses> {
    fn fill(house: usize, left: u8, board: &mut Houses, out: &mut Vec<Houses>) {
        if house == HOUSES - 1 {
            board[house] = left;
            out.push(*board);
            return;
        }
        for v in 0..=left {
            board[house] = v;
            fill(house + 1, left - v, board, out);
        }
    }
    let mut out = Vec::new();
    fill(0, seeds, &mut [0; HOUSES], &mut out);
    out
}

/// The board as its side to move sees it (that side's houses first).
fn as_mover_sees(pos: &Position) -> Houses {
    let mut h = *pos.houses();
    if pos.side_to_move() == Side::North {
        h.rotate_left(6);
    }
    h
}

/// What one move leads to, for the mover: a value already known (the move captured, so the rest is
/// a smaller level), or a board of the same level (by its number in the level).
#[derive(Clone, Copy)]
enum Next {
    Known(i32),
    Board(u32),
}

/// A level's boards: a game end's value (seed difference for the mover), or where each move goes.
enum Node {
    End(i32),
    Moves(Vec<Next>),
}

/// The value of every board of each level up to `max` seeds, level by level.
fn solve(max: u8) -> Vec<HashMap<Houses, i32>> {
    let mut values: Vec<HashMap<Houses, i32>> = Vec::new();
    for seeds in 0..=max {
        let all = boards(seeds);
        let number: HashMap<Houses, u32> = all
            .iter()
            .enumerate()
            .map(|(i, b)| (*b, i as u32))
            .collect();
        let nodes: Vec<Node> = all
            .iter()
            .map(|board| {
                let pos = Position::from_board(*board, Side::South).expect("a valid board");
                let moves = pos.moves_ignoring_stores(RuleSet::Awari);
                if moves.is_empty() {
                    // The game is over (the stores play no part in a database: they are left out of
                    // the value): each side takes the seeds on its own row.
                    let taken = pos.gathered();
                    let gain = |side| taken.store(side) as i32 - pos.store(side) as i32;
                    return Node::End(gain(Side::South) - gain(Side::North));
                }
                let moves = moves
                    .map(|mv| {
                        let played = pos.play_unchecked(mv, RuleSet::Awari);
                        let child = as_mover_sees(&played.position);
                        if played.captured > 0 {
                            let rest = seeds - played.captured;
                            Next::Known(played.captured as i32 - values[rest as usize][&child])
                        } else {
                            Next::Board(number[&child])
                        }
                    })
                    .collect();
                Node::Moves(moves)
            })
            .collect();
        let value = solve_level(&nodes, seeds as i32);
        values.push(all.into_iter().zip(value).collect());
    }
    values
}

/// The values of one level's boards (see the module notes).
fn solve_level(nodes: &[Node], seeds: i32) -> Vec<i32> {
    let mut value = vec![0; nodes.len()];
    for t in 1..=seeds {
        // at_least[i]: the mover of board i can force t or more; at_most: the opponent can hold it to
        // -t or less.
        let mut at_least = vec![false; nodes.len()];
        let mut at_most = vec![false; nodes.len()];
        loop {
            let mut changed = false;
            for (i, node) in nodes.iter().enumerate() {
                let (wins, loses) = match node {
                    Node::End(v) => (*v >= t, *v <= -t),
                    Node::Moves(moves) => (
                        moves.iter().any(|m| match *m {
                            Next::Known(v) => v >= t,
                            Next::Board(j) => at_most[j as usize],
                        }),
                        moves.iter().all(|m| match *m {
                            Next::Known(v) => v <= -t,
                            Next::Board(j) => at_least[j as usize],
                        }),
                    ),
                };
                if wins && !at_least[i] {
                    at_least[i] = true;
                    changed = true;
                }
                if loses && !at_most[i] {
                    at_most[i] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for i in 0..nodes.len() {
            if at_least[i] {
                value[i] = t;
            } else if at_most[i] {
                value[i] = -t;
            }
        }
    }
    value
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn awari_databases_agree_with_an_independent_solver() {
    let max: u8 = std::env::var("OWARE_INDEPENDENT_AWARI_MAX")
        .ok()
        .map(|v| {
            v.parse()
                .expect("OWARE_INDEPENDENT_AWARI_MAX: a number of seeds")
        })
        .unwrap_or(10);
    let expected = solve(max);
    let tb = Tablebase::from_levels(
        build_in_memory(RuleSet::Awari, max as usize, SearchBudget::Fixed(0)).unwrap(),
    );
    for (seeds, values) in expected.iter().enumerate() {
        let mut compared = 0;
        let mut wrong = Vec::new();
        for (board, &value) in values {
            // The compact index leaves out boards where the side that has just moved (North) has no
            // empty house: no game reaches them.
            if seeds > 0 && board[6..].iter().all(|&v| v > 0) {
                continue;
            }
            let pos = Position::from_board(*board, Side::South).unwrap();
            let probe = tb.probe(&pos).expect("the level is built");
            assert!(probe.exact, "awari entries are exact: {pos}");
            compared += 1;
            if probe.value as i32 != value {
                wrong.push(format!(
                    "{pos}: database {}, independent {value}",
                    probe.value
                ));
            }
        }
        let s = seeds as u64;
        let reachable = if seeds == 0 {
            1
        } else {
            binomial(s + 11, 11) - binomial(s + 5, 11)
        };
        assert_eq!(compared, reachable, "level {seeds}: boards compared");
        assert!(
            wrong.is_empty(),
            "level {seeds}: {} differ, e.g. {:?}",
            wrong.len(),
            &wrong[..wrong.len().min(5)]
        );
        eprintln!("level {seeds}: {compared} boards agree");
    }
}

/// The independent solver on its own, on boards small enough to count by hand.
#[test]
fn the_independent_solver_knows_small_boards() {
    let values = solve(2);
    assert_eq!(values[0][&[0; HOUSES]], 0);
    // One seed in South's house A: South sows it to B, North has no seeds and cannot move, so South
    // takes the seed: +1.
    let mut one = [0; HOUSES];
    one[0] = 1;
    assert_eq!(values[1][&one], 1);
    // One seed on North's side, South to move with an empty row: South cannot move, North takes it.
    let mut theirs = [0; HOUSES];
    theirs[6] = 1;
    assert_eq!(values[1][&theirs], -1);
}
