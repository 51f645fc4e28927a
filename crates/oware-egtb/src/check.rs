//! Checks and counts over built levels.
//!
//! `verify` re-derives every entry from its successors: a board where the mover cannot move must hold
//! its terminal value, and any other board must hold the best of its moves' values (for abapa, each
//! bound the best of its moves' bounds). This is the fixpoint the retrograde analysis reaches; it
//! catches damaged or miscomputed entries, though on its own it cannot tell a cycle's 0 from a
//! consistent non-zero loop of values.

use oware_rules::RuleSet;
use rayon::prelude::*;

use crate::index::Board;
use crate::tablebase::Levels;
use crate::values::{decode, successors, terminal_value, through_move, Bounds};

/// An entry that breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEntry {
    pub index: u64,
    pub board: Board,
    /// The stored bounds, `None` if the byte is not a valid code.
    pub stored: Option<Bounds>,
    /// What the successors say.
    pub derived: Bounds,
}

/// The outcome of verifying one level.
#[derive(Debug, Clone)]
pub struct LevelCheck {
    pub seeds: usize,
    pub boards: u64,
    pub bad: u64,
    /// The first few bad entries, by index.
    pub examples: Vec<BadEntry>,
}

const EXAMPLES: usize = 5;

/// What the successors of `board` (level `seeds`) say its entry must be.
pub fn derive(levels: &Levels, board: &Board, seeds: usize) -> Bounds {
    let rules = levels.rules();
    if let Some(v) = terminal_value(board, rules) {
        return Bounds::exact(v);
    }
    let mut best: Option<Bounds> = None;
    for s in successors(board, rules) {
        let after_seeds = seeds - s.captured as usize;
        let after = levels
            .stored(&s.board)
            .expect("a move's board is in the index of a held level");
        let b = through_move(rules, seeds, after_seeds, after);
        best = Some(best.map_or(b, |x| Bounds {
            lo: x.lo.max(b.lo),
            hi: x.hi.max(b.hi),
        }));
    }
    best.expect("a board that is not terminal has a move")
}

/// Verifies level `seeds` (levels below it must be held too).
pub fn verify_level(levels: &Levels, seeds: usize) -> LevelCheck {
    let (index, data) = levels.level(seeds).expect("level held");
    let rules = levels.rules();
    const CHUNK: u64 = 1 << 14;
    let chunks = index.count().div_ceil(CHUNK);
    let mut found: Vec<(u64, Vec<BadEntry>)> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(index.count());
            let mut bad = 0;
            let mut examples = Vec::new();
            for (i, board) in (start..end).zip(index.iter_from(start)) {
                let stored = decode(rules, seeds, data[i as usize]);
                let derived = derive(levels, &board, seeds);
                if stored != Some(derived) {
                    bad += 1;
                    if examples.len() < EXAMPLES {
                        examples.push(BadEntry {
                            index: i,
                            board,
                            stored,
                            derived,
                        });
                    }
                }
            }
            (bad, examples)
        })
        .collect();
    let bad = found.iter().map(|(b, _)| b).sum();
    let examples = found
        .iter_mut()
        .flat_map(|(_, e)| e.drain(..))
        .take(EXAMPLES)
        .collect();
    LevelCheck {
        seeds,
        boards: index.count(),
        bad,
        examples,
    }
}

/// Per-level counts for `stats`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelStats {
    pub seeds: usize,
    pub boards: u64,
    /// The mover wins (awari: gains more than the opponent; abapa: more than half the seeds, for
    /// certain).
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// abapa: the bounds straddle a draw, so the result is not known.
    pub unknown: u64,
    pub exact: u64,
}

/// Counts wins, draws, losses and exact entries of level `seeds`.
pub fn level_stats(levels: &Levels, seeds: usize) -> LevelStats {
    let (index, data) = levels.level(seeds).expect("level held");
    let rules = levels.rules();
    let k = seeds as i32;
    let mut stats = data
        .par_chunks(1 << 16)
        .map(|chunk| {
            let mut s = LevelStats::default();
            for &code in chunk {
                let Some(b) = decode(rules, seeds, code) else {
                    s.unknown += 1;
                    continue;
                };
                // Twice the mover's margin over the opponent, at each bound.
                let (lo, hi) = match rules {
                    RuleSet::Awari => (b.lo as i32, b.hi as i32),
                    RuleSet::Abapa => (2 * b.lo as i32 - k, 2 * b.hi as i32 - k),
                };
                if lo > 0 {
                    s.wins += 1;
                } else if hi < 0 {
                    s.losses += 1;
                } else if lo == 0 && hi == 0 {
                    s.draws += 1;
                } else {
                    s.unknown += 1;
                }
                s.exact += b.is_exact() as u64;
            }
            s
        })
        .reduce(LevelStats::default, |a, b| LevelStats {
            seeds: 0,
            boards: 0,
            wins: a.wins + b.wins,
            draws: a.draws + b.draws,
            losses: a.losses + b.losses,
            unknown: a.unknown + b.unknown,
            exact: a.exact + b.exact,
        });
    stats.seeds = seeds;
    stats.boards = index.count();
    stats
}
