//! Perft: counting the move paths of a given length, the standard check of a move generator.
//!
//! Convention (the one in `docs/rules.md`): a game that ends before depth `d` contributes nothing; one
//! that ends exactly at depth `d` counts as a leaf. Ends include repetitions: the positions since the
//! last capture are tracked along every path.
//!
//! ```
//! use oware_rules::{perft, Position, RuleSet};
//! assert_eq!(perft::perft(&Position::start(), RuleSet::Abapa, 4), 1014);
//! ```

use crate::game::Game;
use crate::position::Position;
use crate::types::{Move, RuleSet};

/// A capture-free cycle needs at least this many plies, so shorter histories cannot hold a repeat.
const SHORTEST_CYCLE: usize = 12;

/// The number of leaves at `depth` below `position`, with no earlier history.
pub fn perft(position: &Position, rules: RuleSet, depth: u32) -> u64 {
    perft_game(&Game::from_position(*position, rules), depth)
}

/// The number of leaves at `depth` below the current position of `game`, using its history since the
/// last capture for repetitions.
pub fn perft_game(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let mut walker = Walker::new(game);
    walker.count(*game.position(), depth)
}

/// The leaf count under each legal first move, in house order.
pub fn perft_divide(game: &Game, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    if depth == 0 || game.is_over() {
        return out;
    }
    for mv in game.legal_moves() {
        let mut child = game.clone();
        child.play(mv).expect("legal move");
        out.push((mv, perft_game(&child, depth - 1)));
    }
    out
}

/// Depth-first enumeration with the path kept on a stack; `history[since..]` are the positions since
/// the last capture.
struct Walker {
    rules: RuleSet,
    history: Vec<Position>,
    since: usize,
}

impl Walker {
    fn new(game: &Game) -> Walker {
        let mut history = Vec::with_capacity(64);
        history.extend_from_slice(game.history_since_capture());
        Walker {
            rules: game.rules(),
            history,
            since: 0,
        }
    }

    /// Whether `next`, reached without a capture, repeats a position since the last capture.
    #[inline]
    fn repeats(&self, next: &Position) -> bool {
        let recent = &self.history[self.since..];
        recent.len() >= SHORTEST_CYCLE && recent.contains(next)
    }

    /// Leaves at `depth` (>= 1) below `pos`, which is the top of the history and not a finished game.
    fn count(&mut self, pos: Position, depth: u32) -> u64 {
        let moves = pos.legal_moves(self.rules);
        if depth == 1 {
            // Every legal move ends exactly at depth 1 and counts, whatever it leads to.
            return moves.len() as u64;
        }
        let mut total = 0;
        for mv in moves {
            let played = pos.play_unchecked(mv, self.rules);
            let child = played.position;
            // A child with no legal moves (or decided by its stores) ended the game before depth.
            let child_moves = child.legal_moves(self.rules);
            if child_moves.is_empty() {
                continue;
            }
            let saved_since = self.since;
            if played.captured > 0 {
                // Earlier positions are unreachable after a capture: the history starts anew.
                self.since = self.history.len();
            } else if self.repeats(&child) {
                continue;
            }
            self.history.push(child);
            total += if depth == 2 {
                child_moves.len() as u64
            } else {
                self.count(child, depth - 1)
            };
            self.history.pop();
            self.since = saved_since;
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Move;

    /// A literal enumeration through [`Game`], the reference the fast walker must agree with.
    fn naive(game: &Game, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut total = 0;
        for mv in game.legal_moves() {
            let mut child = game.clone();
            child.play(mv).unwrap();
            if depth == 1 {
                total += 1;
            } else if !child.is_over() {
                total += naive(&child, depth - 1);
            }
        }
        total
    }

    #[test]
    fn start_position_small_depths() {
        let expected = [1, 6, 36, 190, 1014, 5219, 27332];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(
                perft(&Position::start(), RuleSet::Abapa, d as u32),
                n,
                "depth {d}"
            );
        }
    }

    #[test]
    fn walker_agrees_with_literal_game_enumeration_through_cycles() {
        // Sparse boards where capture-free cycles happen within 14 plies.
        for (text, depth) in [
            ("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", 14),
            ("1-0-0-0-1-0-0-1-0-0-0-1-22-22-S", 14),
            ("0-2-0-0-0-1-0-0-1-0-0-1-21-22-N", 13),
            ("1-1-0-0-0-0-1-0-0-0-0-0-22-23-S", 14),
        ] {
            let pos: Position = text.parse().unwrap();
            for rules in [RuleSet::Abapa, RuleSet::Awari] {
                let game = Game::from_position(pos, rules);
                for d in [1, 2, 5, depth] {
                    assert_eq!(
                        perft_game(&game, d),
                        naive(&game, d),
                        "{text} {rules} depth {d}"
                    );
                }
            }
        }
    }

    #[test]
    fn divide_sums_to_total() {
        let game = Game::new(RuleSet::Abapa);
        let parts = perft_divide(&game, 5);
        assert_eq!(parts.len(), 6);
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 5219);
        assert_eq!(parts[0].0, Move::from_letter('A').unwrap());
    }

    #[test]
    fn history_of_the_game_counts() {
        // After 11 plies of the one-seed cycle, the 12th ply repeats the start: that path ends.
        let start: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S".parse().unwrap();
        let mut game = Game::from_position(start, RuleSet::Abapa);
        for _ in 0..10 {
            let mv = game.legal_moves().next().unwrap();
            game.play(mv).unwrap();
        }
        assert_eq!(perft_game(&game, 3), naive(&game, 3));
    }
}
