//! abapa: exact values for boards whose value a cycle touches, by a search that tracks the path.
//!
//! With no earlier history, an abapa game inside one level is a finite game tree: it ends by leaving
//! the level (a capture, whose value the lower levels give with no history, or a board where the game
//! is over) or at the first repeated position, where each side gathers its own row. An alpha-beta
//! search of that tree from the board, with the stored bounds as its root window, is exact when it
//! finishes within its node budget and every exit it relied on is exact. It runs once with the exits'
//! lower bounds and once with their upper bounds: each result bounds the true value, and when they
//! meet the value is exact.
//!
//! # Pruning with the level's bounds
//!
//! Inside the level the search prunes with the level's bounds on no-history values. A board
//! reached by path `h` is worth at least `min(lo, least row of the mover along h)` and at most
//! `max(hi, most row along h)` (rows as the mover of that board gathers them): let the mover follow
//! its best play for no history; a play that never comes back to a board of `h` (with the same side
//! to move) is a play of the no-history game with the same repetitions, and one that does ends there
//! with the mover gathering its row. This holds for any sound bounds, the solver's or the ones
//! searches settled earlier. Each node's search is kept inside those widened bounds `lo'..=hi'` (its
//! window narrowed to them, its result clamped to them, and a node whose `lo' == hi'` not expanded):
//! a pass's value at a node lies between the true value and the bound on the far side, so it lies in
//! `lo'..=hi'` already, and the clamp changes no claim the search makes.
//!
//! # Every node a root's search finishes is a result for that board too
//!
//! A search from one root visits many boards of the level. Take a node `u` at depth `d` of the path
//! `h` (`h[d] = u`, `d >= 1`) and the game that starts at `u` with no history. The subtree the search
//! explored below `u` uses the path above `u` in two places only:
//!
//! - (a) a repetition: a move to a board equal to `h[j]` (same side to move) ends the game. In `u`'s
//!   own game, whose history starts at `u`, the same move ends it exactly when some such `j >= d`, so
//!   the latest matching `j` decides: the outcome is the same in both games when `j >= d`, and a
//!   repetition back to `u` itself is part of `u`'s own game.
//! - (b) widening: at a node `x` below `u`, the pruning interval `lo'..=hi'` takes in the rows of
//!   the whole path, boards above `u` included. This needs no tracking: the path from `u` to `x` is
//!   part of the path from the root, so the interval `u`'s own game would give `x` lies inside the
//!   one used, and a wider interval that holds the true value is as sound as a narrower one (the
//!   rule above holds for any sound bounds). It prunes less, never wrongly.
//!
//! So each call returns, with its value, the lowest index `j` of a board that a repetition in its
//! explored subtree went back to (none: `FREE`). When that is `>= d`, every claim the subtree makes
//! holds in `u`'s own game too, by induction from the leaves up: exits, boards where the game is over
//! and repetitions (all to `j >= d`) are worth the same there; a node's interval holds its value there
//! by (b); and alpha-beta derives a node's claim from its children's claims and its interval in the
//! same way in both games. So the result at `u` bounds `u`'s no-history value, read fail-hard in the
//! pass's sense at `u`:
//!
//! - lower sense (the exits counted with their lower bounds at `u`'s ply): a result `r > alpha`
//!   means the value is at least `min(r, beta)`;
//! - upper sense: a result `r < beta` means the value is at most `max(r, alpha)`.
//!
//! (The search also prunes `u` itself with its interval, which in `u`'s own game is just its stored
//! bounds: sound no-history bounds, so the result stays between them and the value.)
//!
//! Those bounds tighten `u`'s entry in a table shared by every root of the level ([`LevelBounds`],
//! one atomic byte per board that only ever narrows). Later searches prune with the narrower bounds,
//! boards whose bounds meet become exact without a search of their own, and a root search that runs
//! out of nodes still leaves the subtrees it finished. Reads race with writes from other threads, but
//! every value a thread can read is a sound bound, and the argument above holds for any sound bounds
//! read at any node; only the order of the work, and so which boards end up exact, depends on the
//! threads (with one thread the result is the same from run to run).

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

use oware_rules::RuleSet;
use rayon::prelude::*;

use crate::index::{Board, LevelIndex};
use crate::solve::LowerLevels;
use crate::values::{decode, encode, successors, terminal_value, through_move, Bounds};

/// The no-history bounds of every board of an abapa level, shared by all the searches of the level:
/// one code per board (see [`crate::values::encode`]) that is only ever narrowed.
pub struct LevelBounds {
    seeds: usize,
    codes: Vec<AtomicU8>,
}

impl LevelBounds {
    /// The table for a level of `seeds` seeds, starting from its `entries`.
    pub fn new(seeds: usize, entries: Vec<u8>) -> LevelBounds {
        LevelBounds {
            seeds,
            codes: entries.into_iter().map(AtomicU8::new).collect(),
        }
    }

    /// The bounds of the board of index `i`; `None` for an invalid code (a damaged entry) or an index
    /// out of range.
    pub fn get(&self, i: usize) -> Option<Bounds> {
        decode(RuleSet::Abapa, self.seeds, self.codes.get(i)?.load(Relaxed))
    }

    /// Narrows the bounds of board `i` to their meet with `found`; returns whether they changed. Two
    /// sound bounds always meet; should they not (a bug), the entry is left as it is.
    pub fn tighten(&self, i: usize, found: Bounds) -> bool {
        let Some(code) = self.codes.get(i) else {
            return false;
        };
        let seeds = self.seeds;
        code.fetch_update(Relaxed, Relaxed, |c| {
            let b = decode(RuleSet::Abapa, seeds, c)?;
            let met = Bounds {
                lo: b.lo.max(found.lo),
                hi: b.hi.min(found.hi),
            };
            debug_assert!(met.lo <= met.hi, "bounds {b:?} and {found:?} do not meet");
            (met != b && met.lo <= met.hi).then(|| encode(RuleSet::Abapa, met))
        })
        .is_ok()
    }

    /// The codes, one per board.
    pub fn into_entries(self) -> Vec<u8> {
        self.codes.into_iter().map(AtomicU8::into_inner).collect()
    }

    fn snapshot(&self) -> Vec<u8> {
        self.codes.iter().map(|c| c.load(Relaxed)).collect()
    }
}

/// The level being searched with the bounds known on it.
#[derive(Clone, Copy)]
pub struct InLevel<'a> {
    pub index: &'a LevelIndex,
    pub bounds: &'a LevelBounds,
}

/// No board of the path: what a call that depends on no board above it reports.
const FREE: usize = usize::MAX;

/// Where playing to `next` after `history` (boards since the last capture, the current board last)
/// repeats a position: the latest index of `history` that holds the same position, or `None`. A
/// position is the houses *and the side to move*: boards are seen by their mover, so `next` repeats
/// an earlier board only at an even distance, when the same side is to move. (The same board seen by
/// the other side is a different position; from 4 seeds on, the in-level graph has cycles of odd
/// length, so this is not a formality.)
fn repeats_at(history: &[Board], next: &Board) -> Option<usize> {
    (0..history.len())
        .rev()
        .skip(1)
        .step_by(2)
        .find(|&j| history[j] == *next)
}

fn row(board: &Board) -> i8 {
    board[..6].iter().map(|&v| v as i8).sum()
}

struct Search<'a> {
    seeds: usize,
    lower: &'a dyn LowerLevels,
    level: Option<InLevel<'a>>,
    /// Whether results below the root tighten the level's table.
    record: bool,
    nodes_left: u64,
}

/// A value with the lowest index of the path it depended on (see the module notes).
type Found = (i8, usize);

impl Search<'_> {
    /// The mover's seeds from `board` with `history` (boards since the last capture, `board` last),
    /// within `alpha..beta` (fail-hard), with the lowest index of `history` the result depends on;
    /// `None` when the node budget runs out. With `upper`, the result bounds the mover's value from
    /// above (exits count with their upper bounds), else from below; the sense flips at each ply, so
    /// that a pass bounds the root's value from one side. Results that depend on no board above
    /// `board` tighten its entry in the level's table.
    fn value(
        &mut self,
        upper: bool,
        board: &Board,
        history: &mut Vec<Board>,
        path_rows: (i8, i8),
        alpha: i8,
        beta: i8,
    ) -> Option<Found> {
        if self.nodes_left == 0 {
            return None;
        }
        self.nodes_left -= 1;
        if let Some(v) = terminal_value(board, RuleSet::Abapa) {
            return Some((v, FREE));
        }
        let depth = history.len() - 1;
        let known = match self.level {
            Some(level) if depth > 0 => level
                .index
                .rank(board)
                .and_then(|i| Some((i as usize, level.bounds.get(i as usize)?))),
            _ => None,
        };
        let Some((i, b)) = known else {
            return self.expand(upper, board, history, path_rows, alpha, beta);
        };
        // The bounds with the path so far (see the module notes).
        let (lo, hi) = (b.lo.min(path_rows.0), b.hi.max(path_rows.1));
        if lo == hi || lo >= beta || hi <= alpha {
            return Some((if upper { hi } else { lo }, FREE));
        }
        let (r, below) = self.expand(
            upper,
            board,
            history,
            path_rows,
            alpha.max(lo - 1),
            beta.min(hi + 1),
        )?;
        let r = r.clamp(lo, hi);
        if self.record && below >= depth {
            let found = if upper {
                (r < beta).then(|| Bounds {
                    lo: 0,
                    hi: r.max(alpha),
                })
            } else {
                (r > alpha).then(|| Bounds {
                    lo: r.min(beta),
                    hi: self.seeds as i8,
                })
            };
            if let (Some(found), Some(level)) = (found, self.level) {
                level.bounds.tighten(i, found);
            }
        }
        Some((r, below))
    }

    fn expand(
        &mut self,
        upper: bool,
        board: &Board,
        history: &mut Vec<Board>,
        path_rows: (i8, i8),
        mut alpha: i8,
        beta: i8,
    ) -> Option<Found> {
        let k = self.seeds as i8;
        let mut best = -1;
        let mut dep = FREE;
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
            best = best.max(if upper { e.hi } else { e.lo });
        }
        alpha = alpha.max(best);
        if alpha >= beta {
            return Some((best, dep));
        }
        // The likeliest best moves first, by the known bounds for the opponent (lowest first).
        let mut order: [(i8, usize); 6] = [(i8::MAX, 6); 6];
        for (n, q) in inside.iter().enumerate() {
            if let Some(q) = q {
                let key = self
                    .level
                    .and_then(|l| l.bounds.get(l.index.rank(q)? as usize))
                    .map_or(k, |b| b.lo + b.hi);
                order[n] = (key, n);
            }
        }
        order.sort_unstable();
        // The child's mover gathers `k - r` where this mover gathers `r`.
        let r = row(board);
        let child_rows = (k - path_rows.1.max(r), k - path_rows.0.min(r));
        for q in order
            .iter()
            .take_while(|&&(_, n)| n < 6)
            .filter_map(|&(_, n)| inside[n])
        {
            let v = if let Some(j) = repeats_at(history, &q) {
                // The first repetition: the mover gathers its own row, which is the far row of `q`.
                dep = dep.min(j);
                q[6..].iter().map(|&v| v as i8).sum()
            } else {
                history.push(q);
                let after = self.value(!upper, &q, history, child_rows, k - beta, k - alpha);
                history.pop();
                let (after, below) = after?;
                dep = dep.min(below);
                k - after
            };
            best = best.max(v);
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        Some((best, dep))
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
    search_bounds_in(seeds, board, lower, None, known, budget)
}

/// [`search_bounds`], pruning inside the level with fixed bounds `entries` (one code per board of
/// `index`) and recording nothing it finds below the root: the search as it was before boards shared
/// their results, kept as a reference for tests.
pub fn search_bounds_fixed(
    board: &Board,
    lower: &dyn LowerLevels,
    index: &LevelIndex,
    entries: &[u8],
    known: Bounds,
    budget: u64,
) -> Option<Bounds> {
    let seeds = index.seeds();
    let bounds = LevelBounds::new(seeds, entries.to_vec());
    let level = Some(InLevel {
        index,
        bounds: &bounds,
    });
    let (lo, hi) = search_passes(seeds, board, lower, level, false, known, budget);
    let (lo, hi) = (lo?, hi?);
    Some(Bounds {
        lo: lo.min(hi),
        hi: hi.max(lo),
    })
}

/// [`search_bounds`], pruning with the known bounds on the level being searched, and tightening them
/// with what the search finds on the way (see the module notes).
pub fn search_bounds_in(
    seeds: usize,
    board: &Board,
    lower: &dyn LowerLevels,
    level: Option<InLevel>,
    known: Bounds,
    budget: u64,
) -> Option<Bounds> {
    let (lo, hi) = search_passes(seeds, board, lower, level, true, known, budget);
    let (lo, hi) = (lo?, hi?);
    Some(Bounds {
        lo: lo.min(hi),
        hi: hi.max(lo),
    })
}

/// Both passes from `board`, each on its own budget: the lower and the upper bound they find within
/// `known`, `None` for a pass that ran out of nodes (what it finished below the root is in the
/// level's table all the same).
fn search_passes(
    seeds: usize,
    board: &Board,
    lower: &dyn LowerLevels,
    level: Option<InLevel>,
    record: bool,
    known: Bounds,
    budget: u64,
) -> (Option<i8>, Option<i8>) {
    let pass = |upper: bool| {
        let mut s = Search {
            seeds,
            lower,
            level,
            record,
            nodes_left: budget,
        };
        // A window one wider than the known bounds, so that results at its edges are exact.
        let k = seeds as i8;
        let (v, _) = s.value(
            upper,
            board,
            &mut vec![*board],
            (k, 0),
            known.lo - 1,
            known.hi + 1,
        )?;
        Some(v.clamp(known.lo, known.hi))
    };
    // The upper pass is not tried after a lower one that ran out: it would most likely run out too
    // (trying it anyway cost about twice the time and settled nothing more at levels 6..=10).
    match pass(false) {
        Some(lo) => (Some(lo), pass(true)),
        None => (None, None),
    }
}

/// At most this many passes of [`refine_level`].
const REFINE_PASSES: usize = 4;

/// Tightens the non-exact entries of an abapa level in place by path-tracking search, pass after
/// pass while a pass changes something: every search prunes with the bounds all the searches so far
/// left (see the module notes), and a later pass gives the boards settled late in a pass to the
/// searches of the boards before them; returns how many became exact.
pub fn refine_level(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    entries: &mut Vec<u8>,
    budget: u64,
) -> u64 {
    let seeds = index.seeds();
    let exact = |entries: &[u8]| {
        entries
            .iter()
            .filter(|&&c| decode(RuleSet::Abapa, seeds, c).is_some_and(|b| b.is_exact()))
            .count() as u64
    };
    let exact_before = exact(entries);
    let table = LevelBounds::new(seeds, std::mem::take(entries));
    for _ in 0..REFINE_PASSES {
        let before = table.snapshot();
        refine_pass(index, lower, &table, budget);
        if table
            .codes
            .iter()
            .zip(&before)
            .all(|(c, &b)| c.load(Relaxed) == b)
        {
            break;
        }
    }
    *entries = table.into_entries();
    exact(entries) - exact_before
}

/// One pass of [`refine_level`]: searches every board of the level not exact yet.
fn refine_pass(index: &LevelIndex, lower: &dyn LowerLevels, table: &LevelBounds, budget: u64) {
    let seeds = index.seeds();
    const CHUNK: usize = 1 << 12;
    let level = Some(InLevel {
        index,
        bounds: table,
    });
    let chunks = (index.count() as usize).div_ceil(CHUNK);
    (0..chunks).into_par_iter().for_each(|c| {
        let start = c * CHUNK;
        let end = (start + CHUNK).min(index.count() as usize);
        for (i, board) in (start..end).zip(index.iter_from(start as u64)) {
            // Read now: searches of other boards may have narrowed it since the pass began.
            let Some(known) = table.get(i) else {
                continue;
            };
            if known.is_exact() {
                continue;
            }
            let (lo, hi) = search_passes(seeds, &board, lower, level, true, known, budget);
            table.tighten(
                i,
                Bounds {
                    lo: lo.unwrap_or(0),
                    hi: hi.unwrap_or(seeds as i8),
                },
            );
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board seen by its mover repeats a position only when the same side is to move again: at an
    /// even distance back along the history; the latest such board counts.
    #[test]
    fn a_repetition_needs_the_same_side_to_move() {
        let a: Board = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
        let b: Board = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0];
        let c: Board = [0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0];
        // history a b c, next a: three plies after a, the other side is to move.
        assert_eq!(repeats_at(&[a, b, c], &a), None);
        // history a b c b, next a: four plies, the same side.
        assert_eq!(repeats_at(&[a, b, c, b], &a), Some(0));
        // next b after a b c: two plies after b.
        assert_eq!(repeats_at(&[a, b, c], &b), Some(1));
        // next c right after c: one ply, the other side.
        assert_eq!(repeats_at(&[a, b, c], &c), None);
        assert_eq!(repeats_at(&[a], &a), None);
        // b twice at even distances: the later one.
        assert_eq!(repeats_at(&[b, a, b, c], &b), Some(2));
    }

    #[test]
    fn level_bounds_only_narrow() {
        let entries = vec![encode(RuleSet::Abapa, Bounds { lo: 1, hi: 5 }); 3];
        let t = LevelBounds::new(6, entries);
        assert!(t.tighten(0, Bounds { lo: 2, hi: 6 }));
        assert_eq!(t.get(0), Some(Bounds { lo: 2, hi: 5 }));
        assert!(!t.tighten(0, Bounds { lo: 0, hi: 6 }));
        assert!(t.tighten(0, Bounds { lo: 0, hi: 2 }));
        assert_eq!(t.get(0), Some(Bounds::exact(2)));
        assert!(!t.tighten(7, Bounds::exact(1)));
        assert_eq!(t.get(7), None);
        assert_eq!(t.get(1), Some(Bounds { lo: 1, hi: 5 }));
    }
}
