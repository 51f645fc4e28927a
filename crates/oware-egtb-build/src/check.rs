//! Checks and counts over built levels.
//!
//! `verify` re-derives every entry from its successors. A board where the mover cannot move must hold
//! its terminal value. Otherwise:
//!
//! - awari, and abapa boards whose every move leaves the level (a capture, or a board where the game
//!   is over): the entry must be exactly the best of its moves' values (for abapa, each bound the best
//!   of its moves' bounds). This is the fixpoint the retrograde analysis reaches; it catches damaged or
//!   miscomputed entries, though on its own it cannot tell an awari cycle's 0 from a consistent
//!   non-zero loop of values.
//! - abapa boards with a move that stays in the level: after that move the game has a history (this
//!   board), so the move is worth the successor's no-history value only until play comes back here.
//!   With `r` the mover's row here and `lo..=hi` the successor's stored bounds, the move is worth
//!   between `min(k - hi, r)` and `max(k - lo, r)` (see [`abapa_in_level_move`]); the entry's
//!   bounds must meet the range its moves allow. A search that tracks the path settles values inside
//!   that range that the plain fixpoint would reject.
use oware_rules::RuleSet;
use rayon::prelude::*;

use oware_egtb::index::Board;
use oware_egtb::values::{decode, successors, terminal_value, through_move, Bounds};
use oware_egtb::{EgtbError, Levels};

/// An entry that breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEntry {
    /// The entry's position in the level's index.
    pub index: u64,
    /// The board at that index.
    pub board: Board,
    /// The stored bounds, `None` if the byte is not a valid code.
    pub stored: Option<Bounds>,
    /// What the successors say.
    pub derived: Derived,
}

/// The outcome of verifying one level.
#[derive(Debug, Clone)]
pub struct LevelCheck {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// Boards checked.
    pub boards: u64,
    /// Entries that disagree with their successors or are not valid codes.
    pub bad: u64,
    /// The first few bad entries, by index.
    pub examples: Vec<BadEntry>,
}

const EXAMPLES: usize = 5;

/// What the successors of a board say its entry may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Derived {
    /// The range of values the moves allow.
    pub bounds: Bounds,
    /// Whether the entry must equal `bounds` (no move stays in an abapa level, or awari), rather than
    /// only meet it.
    pub fixed: bool,
}

impl Derived {
    /// Whether `stored` agrees with what the successors say.
    pub fn accepts(&self, stored: Bounds) -> bool {
        if self.fixed {
            stored == self.bounds
        } else {
            stored.lo <= self.bounds.hi && self.bounds.lo <= stored.hi
        }
    }
}

/// abapa: what a move from a board of `seeds` seeds, whose mover has `row` seeds in its row, to a
/// board of the same level with stored bounds `after` is worth to the mover, given that the game so
/// far is just the board (no earlier history).
///
/// The successor's mover, following its best play with no history, gets at least `after.lo` unless
/// play comes back to this board with this mover to move, which ends the game with the successor's
/// mover gathering `seeds - row`; any play that never comes back is a play of the no-history game
/// with the same repetitions. So the successor's mover gets at least `min(after.lo, seeds - row)`
/// and, by the same argument for the other side, at most `max(after.hi, seeds - row)`.
pub fn abapa_in_level_move(seeds: usize, row: i8, after: Bounds) -> Bounds {
    let k = seeds as i8;
    Bounds {
        lo: (k - after.hi).min(row),
        hi: (k - after.lo).max(row),
    }
}

/// What the successors of `board` (level `seeds`) say its entry must be.
pub fn derive(levels: &Levels, board: &Board, seeds: usize) -> Derived {
    let rules = levels.rules();
    if let Some(v) = terminal_value(board, rules) {
        return Derived {
            bounds: Bounds::exact(v),
            fixed: true,
        };
    }
    let row: i8 = board[..6].iter().map(|&v| v as i8).sum();
    let mut best: Option<Bounds> = None;
    let mut fixed = true;
    for s in successors(board, rules) {
        let after_seeds = seeds - s.captured as usize;
        let after = levels
            .stored_unguarded(&s.board)
            .expect("a move's board is in the index of a held level");
        let stays =
            rules == RuleSet::Abapa && s.captured == 0 && terminal_value(&s.board, rules).is_none();
        let b = if stays {
            fixed = false;
            abapa_in_level_move(seeds, row, after)
        } else {
            through_move(rules, seeds, after_seeds, after)
        };
        best = Some(best.map_or(b, |x| Bounds {
            lo: x.lo.max(b.lo),
            hi: x.hi.max(b.hi),
        }));
    }
    Derived {
        bounds: best.expect("a board that is not terminal has a move"),
        fixed,
    }
}

/// Verifies level `seeds` (levels below it must be held too). An error if a file read changed during
/// the pass ([`EgtbError::Changed`]): what was read from it is not the file that was checked.
pub fn verify_level(levels: &Levels, seeds: usize) -> Result<LevelCheck, EgtbError> {
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
                if !stored.is_some_and(|b| derived.accepts(b)) {
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
    levels.check_unchanged()?;
    Ok(LevelCheck {
        seeds,
        boards: index.count(),
        bad,
        examples,
    })
}

/// Per-level counts for `stats`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LevelStats {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// Boards in the level.
    pub boards: u64,
    /// The mover wins (awari: gains more than the opponent; abapa: more than half the seeds, for
    /// certain).
    pub wins: u64,
    /// The mover draws, for certain.
    pub draws: u64,
    /// The mover loses, for certain.
    pub losses: u64,
    /// abapa: the bounds straddle a draw, so the result is not known.
    pub unknown: u64,
    /// Entries whose value is exact.
    pub exact: u64,
    /// abapa: the entries left open, by how far apart their bounds are: `hi - lo` = 1, 2, 3 or more
    /// seeds (all zero for awari, whose entries are exact).
    pub open_by_width: [u64; 3],
}

impl LevelStats {
    /// Open entries: those whose bounds have not met.
    pub fn open(&self) -> u64 {
        self.open_by_width.iter().sum()
    }
}

/// Counts wins, draws, losses and exact entries of level `seeds`; an error if its file changed
/// during the count.
pub fn level_stats(levels: &Levels, seeds: usize) -> Result<LevelStats, EgtbError> {
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
                if !b.is_exact() {
                    s.open_by_width[(b.hi - b.lo).min(3) as usize - 1] += 1;
                }
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
            open_by_width: [0, 1, 2].map(|w| a.open_by_width[w] + b.open_by_width[w]),
        });
    stats.seeds = seeds;
    stats.boards = index.count();
    levels.check_unchanged()?;
    Ok(stats)
}
