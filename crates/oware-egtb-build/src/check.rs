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
//!
//! What this check cannot see: an entry changed to a value its moves still allow. An awari cycle's 0
//! and a consistent loop of other values both satisfy every board's equation, and an abapa board with
//! a move in the level only has to meet a range, usually wider than its entry (a forged exact value
//! inside it passes). [`verify_entries`] can also check a sample of each level, evenly spaced and
//! the same on every run.
//!
//! [`deep_verify_level`] sees those too: it solves the level again in memory from the levels below
//! it (as stored: checked the same way first, from level 0 up) and compares the result byte for
//! byte. It costs as much as building the level. For abapa the comparison holds only against a
//! rebuild with the search budget the level was built with (the searches settle more boards with
//! more nodes); the files do not record it, so the caller must give it.
use oware_rules::RuleSet;
use rayon::prelude::*;

use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{
    decode, index_kind, successors, terminal_value, through_move, Bounds, Codes,
};
use oware_egtb::{EgtbError, Levels};

use crate::refine::{refine_level, SearchBudget};
use crate::solve::solve_level_as;
use crate::Progress;

/// An entry that breaks the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEntry {
    /// The entry's position in the level's index.
    pub index: u64,
    /// The board at that index.
    pub board: Board,
    /// The stored bounds, `None` if the byte is not a valid code.
    pub stored: Option<Bounds>,
    /// What the successors say (the plain check), or the entry of the level solved again (the deep
    /// check, always `fixed`).
    pub derived: Derived,
}

/// The outcome of verifying one level.
#[derive(Debug, Clone)]
pub struct LevelCheck {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// Boards checked.
    pub boards: u64,
    /// Entries that disagree with their successors (the deep check: with the level solved again) or
    /// are not valid codes.
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

/// Which entries of a level [`verify_entries`] checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entries {
    /// Every entry.
    All,
    /// At most this many, evenly spaced over the level from its first entry: the same ones on every
    /// run, so that a run can be repeated (and a forger who knows this can avoid them).
    Sample(u64),
}

/// Verifies every entry of level `seeds` (levels below it must be held too). An error if a file read
/// changed during the pass ([`EgtbError::Changed`]): what was read from it is not the file that was
/// checked.
pub fn verify_level(levels: &Levels, seeds: usize) -> Result<LevelCheck, EgtbError> {
    verify_entries(levels, seeds, Entries::All)
}

/// [`verify_level`] on the entries `which` says; [`LevelCheck::boards`] counts those checked.
pub fn verify_entries(
    levels: &Levels,
    seeds: usize,
    which: Entries,
) -> Result<LevelCheck, EgtbError> {
    let (index, data) = levels.codes(seeds).expect("level held");
    let rules = levels.rules();
    let count = index.count();
    let checked = match which {
        Entries::All => count,
        Entries::Sample(n) => n.min(count),
    };
    // The `j`-th entry checked: all of them in order, or evenly spaced.
    let entry = |j: u64| match which {
        Entries::All => j,
        Entries::Sample(_) => (j as u128 * count as u128 / checked as u128) as u64,
    };
    const CHUNK: u64 = 1 << 14;
    let chunks = checked.div_ceil(CHUNK);
    let found = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let start = c * CHUNK;
            let end = (start + CHUNK).min(checked);
            let mut bad = 0;
            let mut examples = Vec::new();
            let mut check = |i: u64, board: Board| {
                let stored = decode(rules, seeds, data.get(i as usize));
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
            };
            match which {
                Entries::All => {
                    for (i, board) in (start..end).zip(index.iter_from(start)) {
                        check(i, board);
                    }
                }
                Entries::Sample(_) => {
                    for i in (start..end).map(entry) {
                        check(i, index.unrank(i).expect("an index below the count"));
                    }
                }
            }
            (bad, examples)
        })
        .collect();
    levels.check_unchanged()?;
    Ok(gather(seeds, checked, found))
}

/// One level's check from its chunks' counts and examples, in index order.
fn gather(seeds: usize, boards: u64, mut found: Vec<(u64, Vec<BadEntry>)>) -> LevelCheck {
    let bad = found.iter().map(|(b, _)| b).sum();
    let examples = found
        .iter_mut()
        .flat_map(|(_, e)| e.drain(..))
        .take(EXAMPLES)
        .collect();
    LevelCheck {
        seeds,
        boards,
        bad,
        examples,
    }
}

/// Solves level `seeds` again in memory from the levels below it in `levels` (abapa: refined with
/// `search`, which must be the budget the level was built with; in entries as wide as the stored
/// ones), and compares every entry with the stored one: [`LevelCheck::bad`] counts those that
/// differ, and the examples give the stored entry and the one solved again (as a `fixed`
/// [`Derived`]). Takes the memory and time of building the level, on the current rayon pool. An
/// error if a file read changed during the pass.
pub fn deep_verify_level(
    levels: &Levels,
    seeds: usize,
    search: SearchBudget,
    progress: &dyn Progress,
) -> Result<LevelCheck, EgtbError> {
    let (_, data) = levels.codes(seeds).expect("level held");
    let rules = levels.rules();
    let index = LevelIndex::new(seeds, index_kind(rules));
    // The solver reads only the levels below (the boards after a capture).
    let mut solved = solve_level_as(rules, &index, levels, progress, data.width());
    if rules == RuleSet::Abapa {
        refine_level(&index, levels, &mut solved, search);
    }
    let solved = Codes::new(&solved, data.width());
    const CHUNK: usize = 1 << 16;
    let found = (0..data.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let range = c * CHUNK..(c * CHUNK + CHUNK).min(data.len());
            let (stored, solved) = (data.slice(range.clone()), solved.slice(range));
            let mut bad = 0;
            let mut examples = Vec::new();
            for (j, (stored, solved)) in stored.iter().zip(solved.iter()).enumerate() {
                if stored == solved {
                    continue;
                }
                bad += 1;
                if examples.len() < EXAMPLES {
                    let i = (c * CHUNK + j) as u64;
                    examples.push(BadEntry {
                        index: i,
                        board: index.unrank(i).expect("an index below the count"),
                        stored: decode(rules, seeds, stored),
                        derived: Derived {
                            bounds: decode(rules, seeds, solved).expect("the solver's own code"),
                            fixed: true,
                        },
                    });
                }
            }
            (bad, examples)
        })
        .collect();
    levels.check_unchanged()?;
    Ok(gather(seeds, index.count(), found))
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
    let (index, data) = levels.codes(seeds).expect("level held");
    let rules = levels.rules();
    let k = seeds as i32;
    const CHUNK: usize = 1 << 16;
    let mut stats = (0..data.len().div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut s = LevelStats::default();
            for code in data
                .slice(c * CHUNK..(c * CHUNK + CHUNK).min(data.len()))
                .iter()
            {
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
