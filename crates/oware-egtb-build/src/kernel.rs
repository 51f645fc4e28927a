//! The retrograde kernel of one level, by thresholds: the per-board state, the steps that decide
//! when a board joins a set, and the moves taken backwards. The one-process solver (`crate::solve`)
//! and the slice solver of a distributed build (`crate::distributed`) both run it; they differ in
//! how news reaches a board's predecessors (directly, or in batches to the ranks that own them).
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
//! Boards that join at a sweep are flagged and handled at a later sweep over the (dirty parts of the)
//! level, so no queue is needed. Working memory: two bytes per board for both rule sets (see
//! `AwariScheme` and `AbapaScheme` for how they are packed), plus, for abapa's safe regions, a list
//! of the boards taken out of a region that are still to be handled.
//!
//! awari: the value is `t` for a board that joins `A` at `t`, `-t` for one that joins `B`, and 0 (a
//! cycle) for the rest. abapa: `lo` is the threshold at which the board joined `A` (0 if never) and
//! `hi` is `k - t` for `B` (`k` if never); a board's value with no earlier history lies between them,
//! since following the attractor strategy never repeats a position.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering::Relaxed};

use oware_egtb::index::{rotate, Board, LevelIndex};
use oware_egtb::values::{encode, write_code, Bounds};
use oware_rules::{Move, Position, RuleSet, Side};

use crate::Progress;

/// Boards per unit of parallel work and of dirty tracking.
pub(crate) const CHUNK: u64 = 1 << 12;

/// The flags of a board that joined a set and whose predecessors are still to be told. Each scheme
/// keeps them in two bits of its own.
pub(crate) const NEW_A: u8 = 1;
pub(crate) const NEW_B: u8 = 2;

/// abapa's safe regions, while they are worked out (no board carries a flag then, so they share the
/// flags' bits): the board still meets A's (B's) conditions.
pub(crate) const SAFE_A: u8 = NEW_A;
pub(crate) const SAFE_B: u8 = NEW_B;

/// Where the per-board state lives; the two rule sets pack it differently.
pub(crate) trait Scheme: Sync {
    fn set_terminal(&self, i: usize, v: i8);
    /// A board that can move: its best exits, and its count of moves that stay in the level.
    fn set_open(&self, i: usize, exit: Option<Bounds>, inside: u8);
    /// At the start of threshold `t`: whether the board joins `A_t` by an exit of at least `t` (it is
    /// then in `A_t` and must be flagged).
    fn joins_a_by_exit(&self, i: usize, t: i8) -> bool;
    /// Not in `A_t` (during threshold `t`, after its first scan).
    fn a_open(&self, i: usize, t: i8) -> bool;
    fn b_open(&self, i: usize) -> bool;
    fn exit_hi(&self, i: usize) -> Option<i8>;
    fn join_a(&self, i: usize, t: i8) -> bool;
    fn join_b(&self, i: usize, t: i8) -> bool;
    /// The value a board gets below `t` on the other side of `B_t`.
    fn neg(&self, t: i8) -> i8;
    /// The count of moves in the level to boards not yet in `A`.
    fn count(&self, i: usize) -> u8;
    /// Lowers the count by one; returns the count before.
    fn decrement(&self, i: usize) -> u8;
    /// Sets flags (`NEW_A`, `NEW_B`, or the safe-region bits that share them).
    fn set_flags(&self, i: usize, flags: u8);
    fn flags(&self, i: usize) -> u8;
    /// Clears the flags in `mask`, returning all flags as they were.
    fn clear_flags(&self, i: usize, mask: u8) -> u8;
    /// The entries, `width` bytes per board (see [`oware_egtb::values::write_code`]).
    fn finish(self, width: usize) -> Vec<u8>;
}

const JOINED: u8 = 0x80;
const COUNT_MASK: u8 = 0b111;

/// abapa: at most this many alternations of safe region and attractor per threshold (each costs a
/// pass over the level's moves).
pub(crate) const SAFE_REGION_ROUNDS: usize = 4;

/// awari, two bytes per board: the value, `JOINED | (v + 64)` once solved, else the best exit `+ 64`
/// (0: none); and the count of moves in the level (bits 0..3) with the flags (bits 3..5).
pub(crate) struct AwariScheme {
    state: Vec<AtomicU8>,
    work: Vec<AtomicU8>,
}

const AWARI_FLAGS_SHIFT: u32 = 3;

impl AwariScheme {
    /// The state of `n` boards, all still to be set up.
    pub(crate) fn new(n: usize) -> AwariScheme {
        AwariScheme {
            state: atomics(n),
            work: atomics(n),
        }
    }

    fn join(&self, i: usize, v: i8) -> bool {
        let code = JOINED | (v + 64) as u8;
        self.state[i]
            .fetch_update(Relaxed, Relaxed, |s| (s & JOINED == 0).then_some(code))
            .is_ok()
    }

    fn exit_lo(&self, i: usize) -> Option<i8> {
        let s = self.state[i].load(Relaxed);
        (s != 0).then(|| (s & !JOINED) as i8 - 64)
    }
}

impl Scheme for AwariScheme {
    fn set_terminal(&self, i: usize, v: i8) {
        self.state[i].store(JOINED | (v + 64) as u8, Relaxed);
    }
    fn set_open(&self, i: usize, exit: Option<Bounds>, inside: u8) {
        self.state[i].store(exit.map_or(0, |e| (e.lo + 64) as u8), Relaxed);
        self.work[i].store(inside, Relaxed);
    }
    fn joins_a_by_exit(&self, i: usize, t: i8) -> bool {
        self.a_open(i, t) && self.exit_lo(i).is_some_and(|e| e >= t) && self.join(i, t)
    }
    fn a_open(&self, i: usize, _: i8) -> bool {
        self.state[i].load(Relaxed) & JOINED == 0
    }
    fn b_open(&self, i: usize) -> bool {
        self.state[i].load(Relaxed) & JOINED == 0
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
    fn count(&self, i: usize) -> u8 {
        self.work[i].load(Relaxed) & COUNT_MASK
    }
    fn decrement(&self, i: usize) -> u8 {
        self.work[i].fetch_sub(1, Relaxed) & COUNT_MASK
    }
    fn set_flags(&self, i: usize, flags: u8) {
        self.work[i].fetch_or(flags << AWARI_FLAGS_SHIFT, Relaxed);
    }
    fn flags(&self, i: usize) -> u8 {
        self.work[i].load(Relaxed) >> AWARI_FLAGS_SHIFT
    }
    fn clear_flags(&self, i: usize, mask: u8) -> u8 {
        self.work[i].fetch_and(!(mask << AWARI_FLAGS_SHIFT), Relaxed) >> AWARI_FLAGS_SHIFT
    }
    fn finish(self, width: usize) -> Vec<u8> {
        assert_eq!(width, 1, "awari entries are one byte");
        drop(self.work);
        // In place: the value bytes become the entries.
        self.state
            .into_iter()
            .map(|s| {
                let s = s.into_inner();
                let v = if s & JOINED != 0 {
                    (s & !JOINED) as i8 - 64
                } else {
                    0
                };
                encode(RuleSet::Awari, Bounds::exact(v)) as u8
            })
            .collect()
    }
}

/// abapa, two bytes per board, side by side (a board's two are read together, and at the end they
/// become its entry in place, whether of one byte or two).
///
/// The highest level it can solve is [`ABAPA_SCHEME_MAX_SEEDS`]: bounds and thresholds take 5 bits.
///
/// `low`: the count of moves in the level (bits 0..3; 7 marks a board where the game is over) and the
/// lower bound (bits 3..8). The lower bound needs no "joined" mark: thresholds only go down, and a
/// board joins `A_t` at the latest at `t` = its best exit's lower bound, so during threshold `t` a
/// stored value of at least `t` is the threshold it joined at, and one below `t` is its best exit
/// still waiting (0: none, or none that matters).
///
/// `high`: `HI_JOINED | t` once in `B_t`, else the best exit's upper bound `+ 1` (0: none), in bits
/// 0..6, and the flags in bits 6..8.
pub(crate) struct AbapaScheme {
    seeds: i8,
    /// `[low, high]` of each board.
    cells: Vec<[AtomicU8; 2]>,
}

/// The highest abapa level [`AbapaScheme`] and the safe regions hold: a bound's `+ 1` must stay
/// below `HI_JOINED` (30 seeds), and a board's number fit the 31 bits of a removal list's entry
/// beside [`REMOVE_B`] (level 28 has 1.68 billion boards, level 29 2.31 billion).
pub(crate) const ABAPA_SCHEME_MAX_SEEDS: usize = 28;

const LO_SHIFT: u32 = 3;
const TERMINAL_COUNT: u8 = 7;
const HI_JOINED: u8 = 0x20;
const HI_MASK: u8 = 0x3f;
const ABAPA_FLAGS_SHIFT: u32 = 6;

impl AbapaScheme {
    /// The state of `n` boards of the level of `seeds` seeds, all still to be set up.
    pub(crate) fn new(seeds: usize, n: usize) -> AbapaScheme {
        assert!(seeds <= ABAPA_SCHEME_MAX_SEEDS, "abapa level {seeds}");
        AbapaScheme {
            seeds: seeds as i8,
            cells: (0..n)
                .map(|_| [AtomicU8::new(0), AtomicU8::new(0)])
                .collect(),
        }
    }

    #[inline]
    fn low(&self, i: usize) -> &AtomicU8 {
        &self.cells[i][0]
    }

    #[inline]
    fn high(&self, i: usize) -> &AtomicU8 {
        &self.cells[i][1]
    }

    fn lo(&self, i: usize) -> i8 {
        (self.low(i).load(Relaxed) >> LO_SHIFT) as i8
    }
}

/// The bounds a board's `[low, high]` stand for at the end, on a level of `k` seeds.
fn final_bounds(k: i8, low: u8, high: u8) -> Bounds {
    let hi = if high & HI_JOINED != 0 {
        k - (high & HI_MASK & !HI_JOINED) as i8
    } else {
        k
    };
    Bounds {
        lo: (low >> LO_SHIFT) as i8,
        hi,
    }
}

impl Scheme for AbapaScheme {
    fn set_terminal(&self, i: usize, v: i8) {
        self.low(i)
            .store(((v as u8) << LO_SHIFT) | TERMINAL_COUNT, Relaxed);
        self.high(i)
            .store(HI_JOINED | (self.seeds - v) as u8, Relaxed);
    }
    fn set_open(&self, i: usize, exit: Option<Bounds>, inside: u8) {
        let lo = exit.map_or(0, |e| e.lo as u8);
        self.low(i).store((lo << LO_SHIFT) | inside, Relaxed);
        self.high(i)
            .store(exit.map_or(0, |e| (e.hi + 1) as u8), Relaxed);
    }
    fn joins_a_by_exit(&self, i: usize, t: i8) -> bool {
        // Exits above `t` joined at their own thresholds.
        let w = self.low(i).load(Relaxed);
        (w >> LO_SHIFT) as i8 == t && w & COUNT_MASK != TERMINAL_COUNT
    }
    fn a_open(&self, i: usize, t: i8) -> bool {
        self.lo(i) < t
    }
    fn b_open(&self, i: usize) -> bool {
        self.high(i).load(Relaxed) & HI_JOINED == 0
    }
    fn exit_hi(&self, i: usize) -> Option<i8> {
        let s = self.high(i).load(Relaxed) & HI_MASK;
        (s & HI_JOINED == 0 && s != 0).then(|| s as i8 - 1)
    }
    fn join_a(&self, i: usize, t: i8) -> bool {
        self.low(i)
            .fetch_update(Relaxed, Relaxed, |w| {
                ((w >> LO_SHIFT) < t as u8).then_some(((t as u8) << LO_SHIFT) | (w & COUNT_MASK))
            })
            .is_ok()
    }
    fn join_b(&self, i: usize, t: i8) -> bool {
        self.high(i)
            .fetch_update(Relaxed, Relaxed, |w| {
                (w & HI_JOINED == 0).then_some((w & !HI_MASK) | HI_JOINED | t as u8)
            })
            .is_ok()
    }
    fn neg(&self, t: i8) -> i8 {
        self.seeds - t
    }
    fn count(&self, i: usize) -> u8 {
        self.low(i).load(Relaxed) & COUNT_MASK
    }
    fn decrement(&self, i: usize) -> u8 {
        self.low(i).fetch_sub(1, Relaxed) & COUNT_MASK
    }
    fn set_flags(&self, i: usize, flags: u8) {
        self.high(i).fetch_or(flags << ABAPA_FLAGS_SHIFT, Relaxed);
    }
    fn flags(&self, i: usize) -> u8 {
        self.high(i).load(Relaxed) >> ABAPA_FLAGS_SHIFT
    }
    fn clear_flags(&self, i: usize, mask: u8) -> u8 {
        self.high(i)
            .fetch_and(!(mask << ABAPA_FLAGS_SHIFT), Relaxed)
            >> ABAPA_FLAGS_SHIFT
    }
    fn finish(self, width: usize) -> Vec<u8> {
        assert!((1..=2).contains(&width), "entries of {width} bytes");
        let k = self.seeds;
        let n = self.cells.len();
        let mut cells = std::mem::ManuallyDrop::new(self.cells);
        // SAFETY: `[AtomicU8; 2]` has the size and alignment of `[u8; 2]` (an `AtomicU8` has the
        // in-memory representation of a `u8`), so the allocation of `cells` is one of twice its
        // capacity in bytes, aligned to 1, which is what a `Vec<u8>` of that capacity owns; `cells`
        // is not used or dropped again.
        let mut bytes = unsafe {
            Vec::from_raw_parts(cells.as_mut_ptr().cast::<u8>(), 2 * n, 2 * cells.capacity())
        };
        // In place, in order: board `i`'s entry takes bytes `width * i..`, never past its own two
        // (`2 * i..2 * i + 2`), so no board's state is overwritten before it is read.
        for i in 0..n {
            let b = final_bounds(k, bytes[2 * i], bytes[2 * i + 1]);
            write_code(
                &mut bytes[width * i..width * (i + 1)],
                encode(RuleSet::Abapa, b),
            );
        }
        bytes.truncate(width * n);
        bytes.shrink_to_fit();
        bytes
    }
}

pub(crate) fn atomics(n: usize) -> Vec<AtomicU8> {
    (0..n).map(|_| AtomicU8::new(0)).collect()
}

/// The best of two exits: each bound the higher of the two.
pub(crate) fn widen(best: Option<Bounds>, exit: Bounds) -> Option<Bounds> {
    Some(match best {
        None => exit,
        Some(b) => Bounds {
            lo: b.lo.max(exit.lo),
            hi: b.hi.max(exit.hi),
        },
    })
}

/// The state of `n` boards (a level, or a rank's slice of one) while they are solved: the scheme's
/// bytes per board, and per chunk of [`CHUNK`] boards whether any board in it carries a flag.
pub(crate) struct LevelState<S: Scheme> {
    pub(crate) scheme: S,
    dirty: Vec<AtomicBool>,
    n: usize,
}

impl<S: Scheme> LevelState<S> {
    pub(crate) fn new(scheme: S, n: usize) -> Self {
        LevelState {
            scheme,
            dirty: (0..n.div_ceil(CHUNK as usize))
                .map(|_| AtomicBool::new(false))
                .collect(),
            n,
        }
    }

    pub(crate) fn chunks(&self) -> usize {
        self.dirty.len()
    }

    pub(crate) fn chunk_range(&self, c: usize) -> Range<usize> {
        let start = c * CHUNK as usize;
        start..(start + CHUNK as usize).min(self.n)
    }

    /// Sets `flags` on board `i` and marks its chunk dirty.
    pub(crate) fn flag(&self, i: usize, flags: u8) {
        self.scheme.set_flags(i, flags);
        self.dirty[i / CHUNK as usize].store(true, Relaxed);
    }

    /// Whether chunk `c` was dirty; it is clean afterwards.
    pub(crate) fn take_dirty(&self, c: usize) -> bool {
        self.dirty[c].swap(false, Relaxed)
    }

    /// How many chunks are dirty.
    pub(crate) fn dirty_chunks(&self) -> usize {
        self.dirty.iter().filter(|d| d.load(Relaxed)).count()
    }

    /// Flags the boards that join at the start of threshold `t` by their exits alone, or whose moves
    /// in the level all lead into A already.
    pub(crate) fn scan(&self, t: i8, progress: &dyn Progress) {
        use rayon::prelude::*;
        (0..self.chunks()).into_par_iter().for_each(|c| {
            let range = self.chunk_range(c);
            let done = range.len() as u64;
            for i in range {
                let new = joins_by_scan(&self.scheme, i, t);
                if new != 0 {
                    self.flag(i, new);
                }
            }
            progress.advance(done);
        });
    }

    /// Board `i` is told that a successor in the level joined A (`b_news` false) or B, and is
    /// flagged if it joins a set by that news.
    pub(crate) fn tell(&self, i: usize, t: i8, b_news: bool) {
        let new = told(&self.scheme, i, t, b_news);
        if new != 0 {
            self.flag(i, new);
        }
    }

    /// abapa, the end of a safe region: the boards left in A's (B's) region join `A_t` (`B_t`) and
    /// are flagged, and every board's safe-region bits are cleared. Returns how many boards joined.
    pub(crate) fn join_safe_regions(&self, t: i8) -> u64 {
        use rayon::prelude::*;
        (0..self.chunks())
            .into_par_iter()
            .map(|c| {
                let mut joined = 0;
                for i in self.chunk_range(c) {
                    let safe = self.scheme.clear_flags(i, SAFE_A | SAFE_B);
                    let mut new = 0;
                    if safe & SAFE_A != 0 && self.scheme.a_open(i, t) && self.scheme.join_a(i, t) {
                        new |= NEW_A;
                    }
                    if safe & SAFE_B != 0 && self.scheme.b_open(i) && self.scheme.join_b(i, t) {
                        new |= NEW_B;
                    }
                    if new != 0 {
                        self.flag(i, new);
                        joined += new.count_ones() as u64;
                    }
                }
                joined
            })
            .sum()
    }

    /// The entries, `width` bytes per board (see [`oware_egtb::values::encode`]).
    pub(crate) fn finish(self, width: usize) -> Vec<u8> {
        let LevelState { scheme, dirty, .. } = self;
        drop(dirty);
        scheme.finish(width)
    }
}

/// The sets board `i` joins at the start of threshold `t`, as flags: A by its exits alone, B when
/// its exits are low enough and all its moves in the level lead into A already.
pub(crate) fn joins_by_scan<S: Scheme>(scheme: &S, i: usize, t: i8) -> u8 {
    let mut new = 0;
    if scheme.joins_a_by_exit(i, t) {
        new |= NEW_A;
    }
    if scheme.b_open(i) && scheme.count(i) == 0 && b_ready(scheme, i, t) && scheme.join_b(i, t) {
        new |= NEW_B;
    }
    new
}

/// Whether board `i`'s exits let it join `B_t` once its moves in the level all lead into A.
pub(crate) fn b_ready<S: Scheme>(scheme: &S, i: usize, t: i8) -> bool {
    scheme.exit_hi(i).is_none_or(|e| e <= scheme.neg(t))
}

/// Board `i` is told that a successor in the level joined A (`b_news` false) or B; returns the
/// flag of the set it joins by that news (0: none).
pub(crate) fn told<S: Scheme>(scheme: &S, i: usize, t: i8, b_news: bool) -> u8 {
    if b_news {
        if scheme.a_open(i, t) && scheme.join_a(i, t) {
            return NEW_A;
        }
    } else if scheme.b_open(i) {
        let before = scheme.decrement(i);
        debug_assert!(before > 0, "move count underflow");
        if before == 1 && b_ready(scheme, i, t) && scheme.join_b(i, t) {
            return NEW_B;
        }
    }
    0
}

/// The boards of `range` (indices into the scheme; the level's index is `first +` that) that carry
/// news, with their boards. Few flags: unrank each; many: walk the range in order, which is cheaper
/// per board.
pub(crate) fn flagged_boards<S: Scheme>(
    scheme: &S,
    index: &LevelIndex,
    range: Range<usize>,
    first: u64,
) -> Vec<(usize, Board)> {
    let flagged = |i: &usize| scheme.flags(*i) & (NEW_A | NEW_B) != 0;
    let few: Vec<usize> = range.clone().filter(flagged).collect();
    if few.len() < CHUNK as usize / 16 {
        few.iter()
            .map(|&i| (i, index.unrank(first + i as u64).expect("index in range")))
            .collect()
    } else {
        range
            .clone()
            .zip(index.iter_from(first + range.start as u64))
            .filter(|(i, _)| flagged(i))
            .collect()
    }
}

/// In a removal list entry: the board leaves B's safe region (else A's). Board indices of abapa
/// levels stay far below 2^31.
pub(crate) const REMOVE_B: u32 = 1 << 31;

/// A removal list entry's board index, and the safe region it leaves ([`SAFE_A`] or [`SAFE_B`]).
pub(crate) fn removal(entry: u32) -> (usize, u8) {
    let which = if entry & REMOVE_B != 0 {
        SAFE_B
    } else {
        SAFE_A
    };
    ((entry & !REMOVE_B) as usize, which)
}

/// Every board from which the opponent's non-capturing move leads to `board` (the mover's view, the
/// board the mover sees), calling `found` with each predecessor seen by its own mover.
///
/// The opponent's move sowed from an empty house of its row (houses 6..12): take the seeds back one
/// house at a time, and keep each candidate that really plays to `board` without a capture. Legality
/// needs no check when the mover of `board` can move: then the move fed the mover's row.
#[inline]
pub fn predecessors(board: &Board, rules: RuleSet, mut found: impl FnMut(Board)) {
    for house in 6..12 {
        if board[house] != 0 {
            continue;
        }
        let mut taken = *board;
        let mut at = house;
        let mut sown = 0u8;
        loop {
            at = if at == 11 { 0 } else { at + 1 };
            if at == house {
                at = if at == 11 { 0 } else { at + 1 };
            }
            if taken[at] == 0 {
                break;
            }
            taken[at] -= 1;
            sown += 1;
            let mut before = taken;
            before[house] = sown;
            let position =
                Position::from_board(before, Side::North).expect("a level holds at most 48 seeds");
            let played = position.play_unchecked(Move::new(house).expect("house below 12"), rules);
            if played.captured == 0 && played.position.houses() == board {
                found(rotate(&before));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_egtb::index::IndexKind;
    use oware_egtb::values::{successors, terminal_value};

    /// Every non-capturing move into a non-terminal board is found backwards, exactly once.
    #[test]
    fn predecessors_invert_non_capturing_moves() {
        for rules in [RuleSet::Abapa, RuleSet::Awari] {
            for k in 0..=6 {
                let index = LevelIndex::new(k, IndexKind::Full);
                let mut forward = Vec::new();
                for p in index.iter_from(0) {
                    if terminal_value(&p, rules).is_some() {
                        continue;
                    }
                    for s in successors(&p, rules) {
                        if s.captured == 0 && terminal_value(&s.board, rules).is_none() {
                            forward.push((s.board, p));
                        }
                    }
                }
                let mut backward = Vec::new();
                for q in index.iter_from(0) {
                    if terminal_value(&q, rules).is_some() {
                        continue;
                    }
                    predecessors(&q, rules, |p| backward.push((q, p)));
                }
                forward.sort();
                backward.sort();
                assert_eq!(forward, backward, "{rules} k={k}");
            }
        }
    }
}
