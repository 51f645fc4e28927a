//! abapa: exact values for boards whose value a cycle touches, by a search that tracks the path.
//!
//! With no earlier history, an abapa game inside one level is a finite game tree: it ends by leaving
//! the level (a capture, whose value the lower levels give with no history, or a board where the game
//! is over) or at the first repeated position, where each side gathers its own row. An alpha-beta
//! search of that tree from the board, with the stored bounds as its root window, is exact when it
//! finishes within its node budget and every exit it relied on is exact. It runs once with the exits'
//! lower bounds and once with their upper bounds: each result bounds the true value, and when they
//! meet the value is exact.

use oware_rules::RuleSet;
use rayon::prelude::*;

use crate::index::{Board, LevelIndex};
use crate::solve::LowerLevels;
use crate::values::{decode, encode, successors, terminal_value, through_move, Bounds};

struct Search<'a> {
    seeds: usize,
    lower: &'a dyn LowerLevels,
    /// Use the exits' upper bounds (else their lower bounds).
    upper: bool,
    nodes_left: u64,
}

impl Search<'_> {
    /// The mover's seeds from `board` with `history` (boards since the last capture, `board` last),
    /// within `alpha..beta` (fail-hard); `None` when the node budget runs out.
    fn value(
        &mut self,
        board: &Board,
        history: &mut Vec<Board>,
        mut alpha: i8,
        beta: i8,
    ) -> Option<i8> {
        if self.nodes_left == 0 {
            return None;
        }
        self.nodes_left -= 1;
        if let Some(v) = terminal_value(board, RuleSet::Abapa) {
            return Some(v);
        }
        let k = self.seeds as i8;
        let mut best = -1;
        // Moves that leave the level first: they are cheap and often decide the window.
        let mut inside: [Option<Board>; 6] = [None; 6];
        for (n, s) in successors(board, RuleSet::Abapa).enumerate() {
            let after_seeds = self.seeds - s.captured as usize;
            let after = if s.captured > 0 {
                self.lower.bounds(after_seeds, &s.board)
            } else if let Some(v) = terminal_value(&s.board, RuleSet::Abapa) {
                Bounds::exact(v)
            } else {
                inside[n] = Some(s.board);
                continue;
            };
            let e = through_move(RuleSet::Abapa, self.seeds, after_seeds, after);
            best = best.max(if self.upper { e.hi } else { e.lo });
        }
        alpha = alpha.max(best);
        if alpha >= beta {
            return Some(best);
        }
        for q in inside.into_iter().flatten() {
            let v = if history.contains(&q) {
                // The first repetition: the mover gathers its own row, which is the far row of `q`.
                q[6..].iter().map(|&v| v as i8).sum()
            } else {
                history.push(q);
                let after = self.value(&q, history, k - beta, k - alpha);
                history.pop();
                k - after?
            };
            best = best.max(v);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// The value of `board` with no history, searched within `known` with `budget` nodes per pass;
/// `None` when a pass runs out of nodes.
pub fn search_bounds(
    seeds: usize,
    board: &Board,
    lower: &dyn LowerLevels,
    known: Bounds,
    budget: u64,
) -> Option<Bounds> {
    let pass = |upper: bool| {
        let mut s = Search {
            seeds,
            lower,
            upper,
            nodes_left: budget,
        };
        // A window one wider than the known bounds, so that results at its edges are exact.
        let v = s.value(board, &mut vec![*board], known.lo - 1, known.hi + 1)?;
        Some(v.clamp(known.lo, known.hi))
    };
    let lo = pass(false)?;
    let hi = pass(true)?;
    Some(Bounds {
        lo: lo.min(hi),
        hi: hi.max(lo),
    })
}

/// Tightens the non-exact entries of an abapa level in place by path-tracking search; returns how
/// many became exact.
pub fn refine_level(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    entries: &mut [u8],
    budget: u64,
) -> u64 {
    let seeds = index.seeds();
    const CHUNK: usize = 1 << 12;
    entries
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(c, chunk)| {
            let start = (c * CHUNK) as u64;
            let mut resolved = 0;
            for (code, board) in chunk.iter_mut().zip(index.iter_from(start)) {
                let Some(known) = decode(RuleSet::Abapa, seeds, *code) else {
                    continue;
                };
                if known.is_exact() {
                    continue;
                }
                if let Some(b) = search_bounds(seeds, &board, lower, known, budget) {
                    if b != known {
                        *code = encode(RuleSet::Abapa, b);
                        resolved += b.is_exact() as u64;
                    }
                }
            }
            resolved
        })
        .sum()
}
