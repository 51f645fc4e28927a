//! The computer player. This first version is a plain fixed-depth negamax so that other crates can
//! build on the public entry point [`choose_move`]; the real search replaces it (issue 3).

use std::time::Duration;

use oware_rules::{Game, Move, Side};

/// Lowest and highest playing level accepted by [`choose_move`].
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// Picks a move for the side to move in `game` at `level` (1 = beginner .. 10 = full strength),
/// thinking for at most about `max_time`. `None` when the game is over.
pub fn choose_move(game: &Game, level: u8, max_time: Duration) -> Option<Move> {
    let _ = max_time;
    let depth = u32::from(level.clamp(*LEVELS.start(), *LEVELS.end()));
    let me = game.position().side_to_move();
    game.legal_moves().max_by_key(|&mv| {
        let mut child = game.clone();
        child.play(mv).ok();
        -negamax(&child, depth.min(6) - 1, me.opponent())
    })
}

fn negamax(game: &Game, depth: u32, side: Side) -> i32 {
    let pos = game.position();
    let material = pos.store(side) as i32 - pos.store(side.opponent()) as i32;
    if let Some(end) = game.end() {
        return (end.score.halves(side) as i32 - end.score.halves(side.opponent()) as i32) * 50;
    }
    if depth == 0 {
        return material * 100;
    }
    game.legal_moves()
        .map(|mv| {
            let mut child = game.clone();
            child.play(mv).ok();
            -negamax(&child, depth - 1, side.opponent())
        })
        .max()
        .unwrap_or(material * 100)
}
