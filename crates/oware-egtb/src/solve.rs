//! Retrograde analysis of one level, by thresholds.
//!
//! For a threshold `t`, `A_t` is the set of boards where the mover can force the game to leave the
//! level (by a capture, or into a board where the game is over) with a value of at least `t`, and
//! `B_t` the set where the opponent can force the mover's value down to `neg(t)` or below (`-t` in
//! awari's seed difference, `k - t` in abapa's seeds). Both are reachability games, so cycles never
//! count for either side:
//!
//! - P is in `A_t` if a move leaves the level with at least `t`, or leads to a board in `B_t`;
//! - P is in `B_t` if every move leaving the level gives at most `neg(t)` and every move staying in
//!   it leads to a board in `A_t`.
//!
//! Thresholds go from `k` down to 1, so each set only grows, and the classic counting method applies:
//! each board keeps the count of its moves within the level whose board is not yet in `A`. When a board
//! joins `A`, its predecessors' counts drop; when a board joins `B`, its predecessors join `A`.
//! Boards that join at a sweep are flagged and handled at the next sweep over the (dirty parts of the)
//! level, so no queue is needed: the working memory is the value byte and one byte of count and flags
//! (awari), plus one byte for abapa's second bound.
//!
//! awari: the value is `t` for a board that joins `A` at `t`, `-t` for one that joins `B`, and 0 (a
//! cycle) for the rest. abapa: `lo` is the threshold at which the board joined `A` (0 if never) and
//! `hi` is `k - t` for `B` (`k` if never); a board's value with no earlier history lies between them,
//! since following the attractor strategy never repeats a position.

use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use oware_rules::RuleSet;
use rayon::prelude::*;

use crate::index::{Board, LevelIndex};
use crate::values::{encode, predecessors, successors, terminal_value, through_move, Bounds};

/// Boards per unit of parallel work and of dirty tracking.
const CHUNK: u64 = 1 << 12;

const COUNT_MASK: u8 = 0b111;
const NEW_A: [u8; 2] = [1 << 3, 1 << 4];
const NEW_B: [u8; 2] = [1 << 5, 1 << 6];

/// The finished lower levels a level's captures lead to.
pub trait LowerLevels: Sync {
    /// The bounds of `board` (mover in houses 0..6) on the level of `seeds` seeds, below the level
    /// being built.
    fn bounds(&self, seeds: usize, board: &Board) -> Bounds;
}

/// Told how much work is done, for progress bars.
pub trait Progress: Sync {
    fn advance(&self, boards: u64);
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

impl Progress for indicatif::ProgressBar {
    fn advance(&self, boards: u64) {
        self.inc(boards);
    }
}

/// Work units a level reports to [`Progress`]: one pass to set up and one per threshold.
pub fn work_units(index: &LevelIndex) -> u64 {
    index.count() * (1 + index.seeds() as u64)
}

/// Where the per-board state lives; the two rule sets pack it differently.
trait Scheme: Sync {
    fn set_terminal(&self, i: usize, v: i8);
    fn set_open(&self, i: usize, exit: Option<Bounds>);
    fn a_open(&self, i: usize) -> bool;
    fn b_open(&self, i: usize) -> bool;
    fn exit_lo(&self, i: usize) -> Option<i8>;
    fn exit_hi(&self, i: usize) -> Option<i8>;
    fn join_a(&self, i: usize, t: i8) -> bool;
    fn join_b(&self, i: usize, t: i8) -> bool;
    /// The value a board gets below `t` on the other side of `B_t`.
    fn neg(&self, t: i8) -> i8;
    fn finish(self) -> Vec<u8>;
}

const JOINED: u8 = 0x80;

/// abapa's safe regions: the row condition still holds (A / B side), a good exit exists; the count of
/// moves into B's region sits in bits 3..6.
const SAFE_A: u8 = 1;
const SAFE_B: u8 = 2;
const GOOD_EXIT: u8 = 4;

/// abapa: at most this many alternations of safe region and attractor per threshold (each costs a
/// pass over the level's moves).
const SAFE_REGION_ROUNDS: usize = 4;

/// awari: one byte, `JOINED | (v + 64)` once solved, else the best exit `+ 64` (0: none).
struct AwariScheme {
    state: Vec<AtomicU8>,
}

impl AwariScheme {
    fn join(&self, i: usize, v: i8) -> bool {
        let code = JOINED | (v + 64) as u8;
        self.state[i]
            .fetch_update(Relaxed, Relaxed, |s| (s & JOINED == 0).then_some(code))
            .is_ok()
    }
}

impl Scheme for AwariScheme {
    fn set_terminal(&self, i: usize, v: i8) {
        self.state[i].store(JOINED | (v + 64) as u8, Relaxed);
    }
    fn set_open(&self, i: usize, exit: Option<Bounds>) {
        self.state[i].store(exit.map_or(0, |e| (e.lo + 64) as u8), Relaxed);
    }
    fn a_open(&self, i: usize) -> bool {
        self.state[i].load(Relaxed) & JOINED == 0
    }
    fn b_open(&self, i: usize) -> bool {
        self.state[i].load(Relaxed) & JOINED == 0
    }
    fn exit_lo(&self, i: usize) -> Option<i8> {
        let s = self.state[i].load(Relaxed);
        (s != 0).then(|| (s & !JOINED) as i8 - 64)
    }
    fn exit_hi(&self, i: usize) -> Option<i8> {
        self.exit_lo(i)
    }
    fn join_a(&self, i: usize, t: i8) -> bool {
        self.join(i, t)
    }
    fn join_b(&self, i: usize, t: i8) -> bool {
        self.join(i, -t)
    }
    fn neg(&self, t: i8) -> i8 {
        -t
    }
    fn finish(self) -> Vec<u8> {
        self.state
            .into_iter()
            .map(|s| {
                let s = s.into_inner();
                let v = if s & JOINED != 0 {
                    (s & !JOINED) as i8 - 64
                } else {
                    0
                };
                encode(RuleSet::Awari, Bounds::exact(v))
            })
            .collect()
    }
}

/// abapa: a byte per bound, `JOINED | t` once joined, else the best exit bound `+ 1` (0: none).
struct AbapaScheme {
    seeds: i8,
    lo: Vec<AtomicU8>,
    hi: Vec<AtomicU8>,
}

fn join_byte(byte: &AtomicU8, t: i8) -> bool {
    byte.fetch_update(Relaxed, Relaxed, |s| {
        (s & JOINED == 0).then_some(JOINED | t as u8)
    })
    .is_ok()
}

fn exit_of(byte: &AtomicU8) -> Option<i8> {
    let s = byte.load(Relaxed);
    (s & JOINED == 0 && s != 0).then(|| s as i8 - 1)
}

impl Scheme for AbapaScheme {
    fn set_terminal(&self, i: usize, v: i8) {
        self.lo[i].store(JOINED | v as u8, Relaxed);
        self.hi[i].store(JOINED | (self.seeds - v) as u8, Relaxed);
    }
    fn set_open(&self, i: usize, exit: Option<Bounds>) {
        self.lo[i].store(exit.map_or(0, |e| (e.lo + 1) as u8), Relaxed);
        self.hi[i].store(exit.map_or(0, |e| (e.hi + 1) as u8), Relaxed);
    }
    fn a_open(&self, i: usize) -> bool {
        self.lo[i].load(Relaxed) & JOINED == 0
    }
    fn b_open(&self, i: usize) -> bool {
        self.hi[i].load(Relaxed) & JOINED == 0
    }
    fn exit_lo(&self, i: usize) -> Option<i8> {
        exit_of(&self.lo[i])
    }
    fn exit_hi(&self, i: usize) -> Option<i8> {
        exit_of(&self.hi[i])
    }
    fn join_a(&self, i: usize, t: i8) -> bool {
        join_byte(&self.lo[i], t)
    }
    fn join_b(&self, i: usize, t: i8) -> bool {
        join_byte(&self.hi[i], t)
    }
    fn neg(&self, t: i8) -> i8 {
        self.seeds - t
    }
    fn finish(self) -> Vec<u8> {
        let k = self.seeds;
        self.lo
            .into_iter()
            .zip(self.hi)
            .map(|(lo, hi)| {
                let (lo, hi) = (lo.into_inner(), hi.into_inner());
                let lo = if lo & JOINED != 0 {
                    (lo & !JOINED) as i8
                } else {
                    0
                };
                let hi = if hi & JOINED != 0 {
                    k - (hi & !JOINED) as i8
                } else {
                    k
                };
                encode(RuleSet::Abapa, Bounds { lo, hi })
            })
            .collect()
    }
}

struct Solver<'a, S: Scheme> {
    rules: RuleSet,
    index: &'a LevelIndex,
    scheme: S,
    /// Per board: the count of moves within the level to boards not yet in `A`, and the flags of
    /// boards that joined a set at the current sweep.
    work: Vec<AtomicU8>,
    /// Per chunk and sweep parity: whether any board in it carries a flag.
    dirty: [Vec<AtomicBool>; 2],
    progress: &'a dyn Progress,
}

/// Solves the level described by `index` under `rules`, given its lower levels; returns one byte per
/// board in index order (see [`crate::values::encode`]). Runs on the current rayon pool.
///
/// abapa: with `search_nodes > 0`, boards left with bounds are then searched with path tracking
/// ([`crate::path_search`]), up to that many nodes per board and pass; ignored for awari.
pub fn solve_level(
    rules: RuleSet,
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    progress: &dyn Progress,
    search_nodes: u64,
) -> Vec<u8> {
    let n = index.count() as usize;
    let atomics = |n: usize| (0..n).map(|_| AtomicU8::new(0)).collect::<Vec<_>>();
    match rules {
        RuleSet::Awari => {
            let scheme = AwariScheme { state: atomics(n) };
            Solver::new(rules, index, scheme, progress).run(lower)
        }
        RuleSet::Abapa => {
            let scheme = AbapaScheme {
                seeds: index.seeds() as i8,
                lo: atomics(n),
                hi: atomics(n),
            };
            let mut entries = Solver::new(rules, index, scheme, progress).run(lower);
            if search_nodes > 0 {
                crate::path_search::refine_level(index, lower, &mut entries, search_nodes);
            }
            entries
        }
    }
}

impl<'a, S: Scheme> Solver<'a, S> {
    fn new(rules: RuleSet, index: &'a LevelIndex, scheme: S, progress: &'a dyn Progress) -> Self {
        let n = index.count() as usize;
        let chunks = n.div_ceil(CHUNK as usize);
        let flags = |c: usize| (0..c).map(|_| AtomicBool::new(false)).collect::<Vec<_>>();
        Solver {
            rules,
            index,
            scheme,
            work: (0..n).map(|_| AtomicU8::new(0)).collect(),
            dirty: [flags(chunks), flags(chunks)],
            progress,
        }
    }

    fn chunks(&self) -> usize {
        self.dirty[0].len()
    }

    /// The boards of chunk `c` with their indices.
    fn chunk_boards(&self, c: usize) -> impl Iterator<Item = (usize, Board)> + '_ {
        let start = c as u64 * CHUNK;
        let end = (start + CHUNK).min(self.index.count());
        (start as usize..end as usize).zip(self.index.iter_from(start))
    }

    fn flag(&self, i: usize, bit: u8, parity: usize) {
        self.work[i].fetch_or(bit, Relaxed);
        self.dirty[parity][i / CHUNK as usize].store(true, Relaxed);
    }

    fn run(self, lower: &dyn LowerLevels) -> Vec<u8> {
        let k = self.index.seeds();
        (0..self.chunks()).into_par_iter().for_each(|c| {
            let mut done = 0;
            for (i, board) in self.chunk_boards(c) {
                self.set_up(i, &board, lower);
                done += 1;
            }
            self.progress.advance(done);
        });
        for t in (1..=k as i8).rev() {
            self.threshold(t);
            if self.rules == RuleSet::Abapa {
                // Safe regions and attractors feed each other: alternate while they grow.
                for _ in 0..SAFE_REGION_ROUNDS {
                    if self.seed_safe_region(t, lower) == 0 {
                        break;
                    }
                    self.propagate(t);
                }
            }
        }
        self.scheme.finish()
    }

    /// Terminal value, or the best exits and the count of moves staying in the level.
    fn set_up(&self, i: usize, board: &Board, lower: &dyn LowerLevels) {
        if let Some(v) = terminal_value(board, self.rules) {
            self.scheme.set_terminal(i, v);
            return;
        }
        let k = self.index.seeds();
        let mut best: Option<Bounds> = None;
        let mut inside = 0u8;
        for s in successors(board, self.rules) {
            let after_seeds = k - s.captured as usize;
            let after = if s.captured > 0 {
                lower.bounds(after_seeds, &s.board)
            } else if let Some(v) = terminal_value(&s.board, self.rules) {
                Bounds::exact(v)
            } else {
                inside += 1;
                continue;
            };
            let exit = through_move(self.rules, k, after_seeds, after);
            best = Some(match best {
                None => exit,
                Some(b) => Bounds {
                    lo: b.lo.max(exit.lo),
                    hi: b.hi.max(exit.hi),
                },
            });
        }
        self.scheme.set_open(i, best);
        self.work[i].store(inside, Relaxed);
    }

    /// abapa: seeds `A_t` and `B_t` with the boards where one side can keep the play, until it leaves
    /// the level well, on boards where a repetition would give it at least `t` (see the module notes).
    ///
    /// Boards already in `A_t` or `B_t` count as good exits: play that enters them never comes back
    /// to the boards joining now, so a repetition can only happen inside one region, where every
    /// board meets the row condition. Returns how many boards joined.
    fn seed_safe_region(&self, t: i8, lower: &dyn LowerLevels) -> u64 {
        let k = self.index.seeds() as i8;
        let n = self.index.count() as usize;
        let safe: Vec<AtomicU8> = (0..n).map(|_| AtomicU8::new(0)).collect();
        // Row conditions, good exits, and the count of moves into boards meeting B's row condition.
        let mut removals: Vec<(usize, u8)> = (0..self.chunks())
            .into_par_iter()
            .flat_map_iter(|c| {
                let mut out = Vec::new();
                for (i, board) in self.chunk_boards(c) {
                    let row: i8 = board[..6].iter().map(|&v| v as i8).sum();
                    let row_a = row >= t && self.scheme.a_open(i);
                    let row_b = row <= k - t && self.scheme.b_open(i);
                    if !(row_a || row_b) || terminal_value(&board, self.rules).is_some() {
                        continue;
                    }
                    let (mut good_a, mut bad_b, mut into_b) = (false, false, 0u8);
                    for s in successors(&board, self.rules) {
                        let after_seeds = k as usize - s.captured as usize;
                        let after = if s.captured > 0 {
                            lower.bounds(after_seeds, &s.board)
                        } else if let Some(v) = terminal_value(&s.board, self.rules) {
                            Bounds::exact(v)
                        } else {
                            // Boards already won for one side count as good exits; the others must
                            // meet the row condition to be in the other side's region.
                            let j = self
                                .index
                                .rank(&s.board)
                                .expect("a move's board is indexed");
                            let j = j as usize;
                            let q_row: i8 = s.board[..6].iter().map(|&v| v as i8).sum();
                            if !self.scheme.b_open(j) {
                                good_a = true;
                            } else if q_row <= k - t {
                                into_b += 1;
                            }
                            bad_b |= self.scheme.a_open(j) && q_row < t;
                            continue;
                        };
                        let e = through_move(self.rules, k as usize, after_seeds, after);
                        good_a |= e.lo >= t;
                        bad_b |= e.hi > k - t;
                    }
                    let bits = (row_a as u8 * SAFE_A)
                        | (row_b as u8 * SAFE_B)
                        | (good_a as u8 * GOOD_EXIT)
                        | (into_b << 3);
                    safe[i].store(bits, Relaxed);
                    if row_a && into_b == 0 && !good_a {
                        out.push((i, SAFE_A));
                    }
                    if row_b && bad_b {
                        out.push((i, SAFE_B));
                    }
                }
                out
            })
            .collect();
        // Take out boards that cannot stay, and with them what depended on them.
        while let Some((i, which)) = removals.pop() {
            let before = safe[i].fetch_and(!which, Relaxed);
            if before & which == 0 {
                continue;
            }
            let board = self.index.unrank(i as u64).expect("index in range");
            predecessors(&board, self.rules, |p| {
                let Some(j) = self.index.rank(&p) else { return };
                let j = j as usize;
                let w = safe[j].load(Relaxed);
                if which == SAFE_B && w & SAFE_A != 0 {
                    // One fewer move into B's region.
                    let w = safe[j].fetch_sub(1 << 3, Relaxed) - (1 << 3);
                    if w >> 3 == 0 && w & GOOD_EXIT == 0 {
                        removals.push((j, SAFE_A));
                    }
                } else if which == SAFE_A && w & SAFE_B != 0 {
                    removals.push((j, SAFE_B));
                }
            });
        }
        (0..self.chunks())
            .into_par_iter()
            .map(|c| {
                let start = c * CHUNK as usize;
                let end = (start + CHUNK as usize).min(n);
                let mut joined = 0;
                for (i, w) in safe.iter().enumerate().take(end).skip(start) {
                    let w = w.load(Relaxed);
                    if w & SAFE_A != 0 && self.scheme.a_open(i) && self.scheme.join_a(i, t) {
                        self.flag(i, NEW_A[0], 0);
                        joined += 1;
                    }
                    if w & SAFE_B != 0 && self.scheme.b_open(i) && self.scheme.join_b(i, t) {
                        self.flag(i, NEW_B[0], 0);
                        joined += 1;
                    }
                }
                joined
            })
            .sum()
    }

    fn b_ready(&self, i: usize, t: i8) -> bool {
        self.scheme
            .exit_hi(i)
            .is_none_or(|e| e <= self.scheme.neg(t))
    }

    fn threshold(&self, t: i8) {
        // Boards that join by their exits alone, or whose moves in the level all lead into A already.
        (0..self.chunks()).into_par_iter().for_each(|c| {
            let start = c * CHUNK as usize;
            let end = (start + CHUNK as usize).min(self.work.len());
            let done = (end - start) as u64;
            for i in start..end {
                if self.scheme.a_open(i)
                    && self.scheme.exit_lo(i).is_some_and(|e| e >= t)
                    && self.scheme.join_a(i, t)
                {
                    self.flag(i, NEW_A[0], 0);
                }
                if self.scheme.b_open(i)
                    && self.work[i].load(Relaxed) & COUNT_MASK == 0
                    && self.b_ready(i, t)
                    && self.scheme.join_b(i, t)
                {
                    self.flag(i, NEW_B[0], 0);
                }
            }
            self.progress.advance(done);
        });
        self.propagate(t);
    }

    /// Spreads the news of flagged boards backwards, one sweep per move of depth.
    fn propagate(&self, t: i8) {
        let mut parity = 0;
        loop {
            let dirty: Vec<usize> = (0..self.chunks())
                .filter(|&c| self.dirty[parity][c].swap(false, Relaxed))
                .collect();
            if dirty.is_empty() {
                break;
            }
            let next = parity ^ 1;
            let mask = NEW_A[parity] | NEW_B[parity];
            dirty.into_par_iter().for_each(|c| {
                let start = c * CHUNK as usize;
                let end = (start + CHUNK as usize).min(self.work.len());
                let flagged: Vec<usize> = (start..end)
                    .filter(|&i| self.work[i].load(Relaxed) & mask != 0)
                    .collect();
                // Few flags: unrank each; many: walk the chunk in order, which is cheaper per board.
                let boards: Vec<(usize, Board)> = if flagged.len() < CHUNK as usize / 16 {
                    flagged
                        .iter()
                        .map(|&i| (i, self.index.unrank(i as u64).expect("index in range")))
                        .collect()
                } else {
                    self.chunk_boards(c)
                        .filter(|(i, _)| self.work[*i].load(Relaxed) & mask != 0)
                        .collect()
                };
                for (i, board) in boards {
                    let w = self.work[i].fetch_and(!mask, Relaxed);
                    if w & NEW_A[parity] != 0 {
                        predecessors(&board, self.rules, |p| {
                            let Some(j) = self.index.rank(&p) else { return };
                            let j = j as usize;
                            if !self.scheme.b_open(j) {
                                return;
                            }
                            let before = self.work[j].fetch_sub(1, Relaxed);
                            debug_assert!(before & COUNT_MASK > 0, "move count underflow");
                            if before & COUNT_MASK == 1
                                && self.b_ready(j, t)
                                && self.scheme.join_b(j, t)
                            {
                                self.flag(j, NEW_B[next], next);
                            }
                        });
                    }
                    if w & NEW_B[parity] != 0 {
                        predecessors(&board, self.rules, |p| {
                            let Some(j) = self.index.rank(&p) else { return };
                            let j = j as usize;
                            if self.scheme.a_open(j) && self.scheme.join_a(j, t) {
                                self.flag(j, NEW_A[next], next);
                            }
                        });
                    }
                }
            });
            parity = next;
        }
    }
}
