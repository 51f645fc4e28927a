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
//! Inside the level the search prunes with the level's stored bounds on no-history values. A board
//! reached by path `h` is worth at least `min(lo, least row of the mover along h)` and at most
//! `max(hi, most row along h)` (rows as the mover of that board gathers them): let the mover follow
//! its best play for no history; a play that never comes back to a board of `h` (with the same side
//! to move) is a play of the no-history game with the same repetitions, and one that does ends there
//! with the mover gathering its row. This holds for any sound bounds, the solver's or the ones an
//! earlier pass of this search settled. Folding those bounds into each node (`L = max(node's lower
//! bound, search)`, and the same for the upper pass) keeps each pass a bound on the true value.

use oware_rules::RuleSet;

use crate::in_level::{row, shared_pass, InLevel, Share};
use crate::LowerLevels;
use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{successors, terminal_value, through_move, Bounds};

/// Whether playing to `next` after `history` (boards since the last capture, the current board last)
/// repeats a position. A position is the houses *and the side to move*: boards are seen by their
/// mover, so `next` repeats an earlier board only at an even distance, when the same side is to move.
/// (The same board seen by the other side is a different position; from 4 seeds on, the in-level
/// graph has cycles of odd length, so this is not a formality.)
fn repeats(history: &[Board], next: &Board) -> bool {
    history.iter().rev().skip(1).step_by(2).any(|b| b == next)
}

/// Buckets of [`Path`]'s filter, per side to move.
const FILTER_BUCKETS: usize = 1 << 10;

/// The boards of the path from the root (the history of the search), with a counting filter that
/// answers most [`repeats`] questions without scanning the path: how many boards of the path fall in
/// each bucket of a hash, apart for the two sides to move (a board's index parity on the path).
struct Path {
    boards: Vec<Board>,
    counts: Box<[[u32; FILTER_BUCKETS]; 2]>,
}

impl Path {
    fn new(root: &Board) -> Path {
        let mut path = Path {
            boards: Vec::with_capacity(64),
            counts: Box::new([[0; FILTER_BUCKETS]; 2]),
        };
        path.push(*root);
        path
    }

    #[inline]
    fn bucket(board: &Board) -> usize {
        let lo = u64::from_le_bytes(board[..8].try_into().expect("8 bytes"));
        let hi = u32::from_le_bytes(board[8..].try_into().expect("4 bytes")) as u64;
        let h = (lo ^ hi.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (h >> (64 - FILTER_BUCKETS.trailing_zeros())) as usize
    }

    #[inline]
    fn push(&mut self, board: Board) {
        self.counts[self.boards.len() & 1][Self::bucket(&board)] += 1;
        self.boards.push(board);
    }

    #[inline]
    fn pop(&mut self) {
        let board = self.boards.pop().expect("never pops the root");
        self.counts[self.boards.len() & 1][Self::bucket(&board)] -= 1;
    }

    /// [`repeats`] for `next` played after the path: `next` would sit at index `len`, so it repeats
    /// a board at an index of the same parity.
    #[inline]
    fn repeats(&self, next: &Board) -> bool {
        self.counts[self.boards.len() & 1][Self::bucket(next)] != 0 && repeats(&self.boards, next)
    }
}

struct Search<'a> {
    seeds: usize,
    lower: &'a dyn LowerLevels,
    level: Option<InLevel<'a>>,
    nodes_left: u64,
}

impl Search<'_> {
    /// The mover's seeds from `board` with the path `history` (boards since the last capture,
    /// `board` last), within `alpha..beta` (fail-hard); `None` when the node budget runs out.
    /// `bounds` are the level's stored bounds on `board` (`None` without them, or at the root, where
    /// they are the window), which the caller has already looked up. `path_rows` is the least and the
    /// most the mover gathers at the boards of the history before `board` (`(k, 0)` when there are
    /// none). With `upper`, the result bounds the mover's value from above (exits count with their
    /// upper bounds), else from below; the sense flips at each ply, so that a pass bounds the root's
    /// value from one side. `board` is not over (the caller checked).
    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        upper: bool,
        board: &Board,
        bounds: Option<Bounds>,
        history: &mut Path,
        path_rows: (i8, i8),
        mut alpha: i8,
        beta: i8,
    ) -> Option<i8> {
        if self.nodes_left == 0 {
            return None;
        }
        self.nodes_left -= 1;
        // The solver's strategies, with the path so far (see the module notes).
        let mut floor = -1;
        if let Some(b) = bounds {
            let (lo, hi) = (b.lo.min(path_rows.0), b.hi.max(path_rows.1));
            if lo >= beta || hi <= alpha {
                return Some(if upper { hi } else { lo });
            }
            if upper {
                // U = min(hi, search): a search result above `hi` is cut to it below.
                return self
                    .expand(upper, board, history, path_rows, alpha, beta.min(hi + 1))
                    .map(|v| v.min(hi));
            }
            floor = lo;
            alpha = alpha.max(lo - 1);
        }
        self.expand(upper, board, history, path_rows, alpha, beta)
            .map(|v| v.max(floor))
    }

    fn expand(
        &mut self,
        upper: bool,
        board: &Board,
        history: &mut Path,
        path_rows: (i8, i8),
        mut alpha: i8,
        beta: i8,
    ) -> Option<i8> {
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
            best = best.max(if upper { e.hi } else { e.lo });
        }
        alpha = alpha.max(best);
        if alpha >= beta {
            return Some(best);
        }
        // The likeliest best moves first, by the solver's bounds for the opponent (lowest first);
        // the bounds looked up here are the child's own pruning bounds below.
        let mut order: [(i8, usize); 6] = [(i8::MAX, 6); 6];
        let mut child_bounds: [Option<Bounds>; 6] = [None; 6];
        for (n, q) in inside.iter().enumerate() {
            if let Some(q) = q {
                child_bounds[n] = self.level.and_then(|l| l.bounds(q));
                order[n] = (child_bounds[n].map_or(k, |b| b.lo + b.hi), n);
            }
        }
        order.sort_unstable();
        for &(_, n) in order.iter().take_while(|&&(_, n)| n < 6) {
            let Some(q) = inside[n] else { continue };
            let v = if history.repeats(&q) {
                // The first repetition: the mover gathers its own row, which is the far row of `q`.
                q[6..].iter().map(|&v| v as i8).sum()
            } else {
                // The child's mover gathers `k - r` where this mover gathers `r`.
                let r = row(board);
                let child_rows = (k - path_rows.1.max(r), k - path_rows.0.min(r));
                history.push(q);
                let after = self.value(
                    !upper,
                    &q,
                    child_bounds[n],
                    history,
                    child_rows,
                    k - beta,
                    k - alpha,
                );
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
    search_bounds_in(seeds, board, lower, None, known, budget)
}

/// [`search_bounds`], pruning with the solver's bounds on the level being searched.
pub fn search_bounds_in(
    seeds: usize,
    board: &Board,
    lower: &dyn LowerLevels,
    level: Option<InLevel>,
    known: Bounds,
    budget: u64,
) -> Option<Bounds> {
    let pass = |upper: bool| {
        let mut s = Search {
            seeds,
            lower,
            level,
            nodes_left: budget,
        };
        // A window one wider than the known bounds, so that results at its edges are exact.
        let k = seeds as i8;
        let v = if s.nodes_left == 0 {
            return None;
        } else if let Some(v) = terminal_value(board, RuleSet::Abapa) {
            v
        } else {
            // The root prunes with its window alone: no stored bounds.
            s.value(
                upper,
                board,
                None,
                &mut Path::new(board),
                (k, 0),
                known.lo - 1,
                known.hi + 1,
            )?
        };
        Some(v.clamp(known.lo, known.hi))
    };
    let lo = pass(false)?;
    let hi = pass(true)?;
    Some(Bounds {
        lo: lo.min(hi),
        hi: hi.max(lo),
    })
}

/// At most this many passes of [`refine_by_path_search`]; at levels 4..=9 with 2,000 nodes a third
/// pass already settles nothing new.
const REFINE_PASSES: usize = 4;

/// Tightens the non-exact entries of an abapa level in place by path-tracking search with `nodes`
/// nodes per board and pass (0: nothing; see [`crate::refine::SearchBudget::nodes_for`]), pass after pass while a
/// pass changes something: each pass prunes with the bounds the previous one left, so boards
/// settled late in a pass help the next; `share` says which boards this process searches (see
/// [`Share`]). Returns how many became exact.
pub fn refine_by_path_search<S: Share>(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    entries: &mut [u8],
    nodes: u64,
    share: &S,
) -> Result<u64, S::Error> {
    if nodes == 0 {
        return Ok(0);
    }
    let mut resolved = 0;
    for _ in 0..REFINE_PASSES {
        let (exact, changed) = refine_pass(index, lower, entries, nodes, share)?;
        resolved += exact;
        if changed == 0 {
            break;
        }
    }
    Ok(resolved)
}

/// One pass of [`refine_by_path_search`], pruning with the entries as they were at its start;
/// returns how many entries became exact and how many changed.
fn refine_pass<S: Share>(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    entries: &mut [u8],
    budget: u64,
    share: &S,
) -> Result<(u64, u64), S::Error> {
    let seeds = index.seeds();
    let before = entries.to_vec();
    let level = Some(InLevel::new(index, &before));
    shared_pass(index, entries, share, |board, known| {
        search_bounds_in(seeds, board, lower, level, known, budget)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board seen by its mover repeats a position only when the same side is to move again: at an
    /// even distance back along the history.
    #[test]
    fn a_repetition_needs_the_same_side_to_move() {
        let a: Board = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1];
        let b: Board = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0];
        let c: Board = [0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0];
        // history a b c, next a: three plies after a, the other side is to move.
        assert!(!repeats(&[a, b, c], &a));
        // history a b c d, next a: four plies, the same side.
        assert!(repeats(&[a, b, c, b], &a));
        // next b after a b c: two plies after b.
        assert!(repeats(&[a, b, c], &b));
        // next c right after c: one ply, the other side.
        assert!(!repeats(&[a, b, c], &c));
        assert!(!repeats(&[a], &a));
    }

    /// The filtered answer is the scanning one, whatever the path: random walks of pushes and pops
    /// over a few boards, pushing only boards that do not repeat, as the search does (repetitions at
    /// both parities are common).
    #[test]
    fn the_path_filter_answers_as_the_scan() {
        let boards: Vec<Board> = (0..5u8)
            .map(|i| [i, 1, 0, 0, 2, 0, 0, 0, i % 2, 0, 0, 1])
            .collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut path = Path::new(&boards[0]);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..20_000 {
            let q = boards[(next() % 5) as usize];
            let expected = repeats(&path.boards, &q);
            assert_eq!(path.repeats(&q), expected, "{:?} then {q:?}", path.boards);
            if expected {
                yes += 1;
            } else {
                no += 1;
            }
            // As the search does: a board that repeats is not pushed.
            if path.boards.len() > 1 && (expected || next() % 3 == 0) {
                path.pop();
            } else if !expected {
                path.push(q);
            }
        }
        assert!(yes > 1000 && no > 1000, "{yes} repeats, {no} not");
    }
}
