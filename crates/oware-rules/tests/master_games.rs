//! The eight master games of `tests/data/master_games.suite` (real abapa games) as test data.

use oware_rules::{perft, EndReason, Game, GameLine, Position, RuleSet};

fn games() -> Vec<(Position, Vec<oware_rules::Move>)> {
    include_str!("data/master_games.suite")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let GameLine { start, moves } = line.parse().unwrap();
            (start, moves)
        })
        .collect()
}

/// Every recorded move is legal by sowing and feeding. Where the players went on after a store passed
/// 24, the rules end the game there (`Capture`), and the moves after it are still legal sowings.
#[test]
fn every_recorded_move_is_legal_and_the_end_comes_where_the_rules_say() {
    let mut ended_by_capture = 0;
    for (start, moves) in games() {
        let mut game = Game::from_position(start, RuleSet::Abapa);
        let mut board = start;
        for (ply, &mv) in moves.iter().enumerate() {
            assert!(
                board.moves_ignoring_stores(RuleSet::Abapa).contains(mv),
                "ply {} {mv} in {board}",
                ply + 1
            );
            board = board.play_unchecked(mv, RuleSet::Abapa).position;
            if !game.is_over() {
                game.play(mv).unwrap();
                if let Some(end) = game.end() {
                    if ply + 1 < moves.len() {
                        assert_eq!(
                            end.reason,
                            EndReason::Capture,
                            "only a capture over 24 ends early"
                        );
                        ended_by_capture += 1;
                    }
                }
            }
        }
    }
    assert_eq!(ended_by_capture, 5);
}

/// A quick perft from positions deep in real games, checked against a literal count through `Game`.
#[test]
fn perft_from_real_middle_games_matches_literal_counting() {
    fn literal(game: &Game, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        game.legal_moves()
            .map(|mv| {
                let mut child = game.clone();
                child.play(mv).unwrap();
                if depth == 1 {
                    1
                } else if child.is_over() {
                    0
                } else {
                    literal(&child, depth - 1)
                }
            })
            .sum()
    }
    for (start, moves) in games() {
        let mut game = Game::from_position(start, RuleSet::Abapa);
        for &mv in moves.iter().take(40) {
            game.play(mv).unwrap();
        }
        for rules in [RuleSet::Abapa, RuleSet::Awari] {
            let g = Game::from_position(*game.position(), rules);
            assert_eq!(
                perft::perft_game(&g, 5),
                literal(&g, 5),
                "{} {rules}",
                game.position()
            );
        }
    }
}
