//! The slice solver: one rank's part of a level, solved with the other ranks by the threshold
//! method of the retrograde kernel (`crate::kernel`), news for boards of other ranks sent in batches.
//!
//! abapa's safe regions are worked out across ranks too. The one-process solver takes a board out
//! of A's region by looking at its successors again; here a successor may live on another rank,
//! so each board of the regions counts its moves once, from two bits per board of the whole level
//! that every rank gathers at the start (whether the move keeps it in A's region, whether it puts
//! it out of B's), and boards taken out then tell their predecessors by batched news (a board of
//! A's region leaves when its count falls to zero). The regions are the largest sets that meet
//! their conditions whatever the order of removals, so they are the one-process regions.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{successors, terminal_value, through_move, Bounds};
use oware_rules::RuleSet;
use rayon::prelude::*;

use super::transport::{
    all_gather, all_max, all_sum, read_ref, Outbox, Slices, Transport, TransportError, REF_BYTES,
};
use super::RankLevels;
use crate::in_level::row;
use crate::kernel::{
    atomics, b_ready, flagged_boards, predecessors, removal, widen, AbapaScheme, AwariScheme,
    LevelState, Scheme, CHUNK, NEW_A, NEW_B, REMOVE_B, SAFE_A, SAFE_B, SAFE_REGION_ROUNDS,
};
use crate::Progress;

/// Boards set up per round of lower-level questions.
const SETUP_BLOCK: u64 = 1 << 16;
/// Dirty chunks a rank handles per round of updates: bounds the batches (a chunk's boards have at
/// most about 6 predecessors each, [`REF_BYTES`] bytes per update).
const ROUND_CHUNKS: usize = 1024;
/// Boards taken out of a safe region per round of removals.
const ROUND_REMOVALS: usize = 1 << 16;
/// abapa's news for predecessors while a safe region is worked out: the move to this board keeps a
/// board in A's region (the board is in B, or in B's region)...
const KEEPS_A: u8 = 1;
/// ... or puts it out of B's region (the board is not in A, nor in A's region).
const ENDS_B: u8 = 2;

/// Boards of lower levels whose values a rank needs, with their levels.
type Queries = Vec<(usize, Board)>;

/// A block of the set-up between its preparation and its answers: its boards still open, and the
/// lower-level boards their captures lead to (`captures` of them for each open board, in order).
struct SetupBlock {
    boards: u64,
    pending: Vec<Pending>,
    queries: Queries,
}

/// What a board needs once its capture values are known.
struct Pending {
    i: usize,
    best: Option<Bounds>,
    inside: u8,
    captures: u8,
}

/// This rank's part of a level under `rules`: solves its slice of the level described by `index`
/// with the other ranks, returns its entries (the slice of the file's entries), as the threshold
/// solver leaves them (abapa: before any search). Collective.
pub fn solve_slice(
    t: &dyn Transport,
    rules: RuleSet,
    index: &LevelIndex,
    lower: &RankLevels,
    progress: &dyn Progress,
) -> Result<Vec<u8>, TransportError> {
    let slices = Slices::new(index.count(), t.size());
    let mine = slices.range(t.rank());
    let n = (mine.end - mine.start) as usize;
    match rules {
        RuleSet::Awari => solve_with(t, rules, index, lower, progress, AwariScheme::new(n)),
        RuleSet::Abapa => solve_with(
            t,
            rules,
            index,
            lower,
            progress,
            AbapaScheme::new(index.seeds(), n),
        ),
    }
}

fn solve_with<S: Scheme>(
    t: &dyn Transport,
    rules: RuleSet,
    index: &LevelIndex,
    lower: &RankLevels,
    progress: &dyn Progress,
    scheme: S,
) -> Result<Vec<u8>, TransportError> {
    let slices = Slices::new(index.count(), t.size());
    let me = t.rank();
    let mine = slices.range(me);
    let lo = mine.start;
    let n = (mine.end - mine.start) as usize;
    let k = index.seeds();
    let state = SliceState {
        rules,
        index,
        slices: &slices,
        lo,
        me,
        level: LevelState::new(scheme, n),
        n,
    };

    // Set-up, a block at a time: the values of the boards captures lead to are asked together. The
    // questions and answers travel while the next block is prepared: in each step block b is
    // prepared and its questions sent, block b-1's questions are answered, and block b-2 is settled
    // with its answers.
    let rounds = all_max(t, (n as u64).div_ceil(SETUP_BLOCK))?;
    let prepare = |b: u64| {
        let start = (b * SETUP_BLOCK).min(n as u64) as usize;
        let end = (start + SETUP_BLOCK as usize).min(n);
        let parts: Vec<(Vec<Pending>, Queries)> = (start..end)
            .step_by(CHUNK as usize)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|from| {
                let to = (from + CHUNK as usize).min(end);
                let (mut pending, mut queries) = (Vec::new(), Vec::new());
                for (i, board) in (from..to).zip(index.iter_from(lo + from as u64)) {
                    if let Some(v) = terminal_value(&board, rules) {
                        state.level.scheme.set_terminal(i, v);
                        continue;
                    }
                    let mut p = Pending {
                        i,
                        best: None,
                        inside: 0,
                        captures: 0,
                    };
                    for s in successors(&board, rules) {
                        if s.captured > 0 {
                            queries.push((k - s.captured as usize, s.board));
                            p.captures += 1;
                        } else if let Some(v) = terminal_value(&s.board, rules) {
                            p.best = widen(p.best, through_move(rules, k, k, Bounds::exact(v)));
                        } else {
                            p.inside += 1;
                        }
                    }
                    pending.push(p);
                }
                (pending, queries)
            })
            .collect();
        let (pending, queries): (Vec<_>, Vec<_>) = parts.into_iter().unzip();
        SetupBlock {
            boards: (end - start) as u64,
            pending: pending.into_iter().flatten().collect(),
            queries: queries.into_iter().flatten().collect(),
        }
    };
    let settle = |block: SetupBlock, values: Vec<Bounds>| {
        let mut at = 0;
        for p in &block.pending {
            let mut best = p.best;
            for (v, (seeds, _)) in values[at..at + p.captures as usize]
                .iter()
                .zip(&block.queries[at..])
            {
                best = widen(best, through_move(rules, k, *seeds, *v));
            }
            at += p.captures as usize;
            state.level.scheme.set_open(p.i, best, p.inside);
        }
        progress.advance(block.boards);
    };
    let mut asked = None;
    let mut answering = None;
    for b in 0..rounds + 2 {
        let next = if b < rounds {
            let block = prepare(b);
            let questions = lower.ask(t, &block.queries)?;
            Some((block, questions))
        } else {
            None
        };
        let ready = answering.take();
        if let Some((block, questions)) = std::mem::replace(&mut asked, next) {
            answering = Some((block, lower.answer(t, questions)?));
        }
        if let Some((block, answers)) = ready {
            settle(block, lower.values(t, answers)?);
        }
    }

    for threshold in (1..=k as i8).rev() {
        state.level.scan(threshold, progress);
        state.propagate(
            t,
            &Updates {
                state: &state,
                threshold,
            },
        )?;
        if rules == RuleSet::Abapa {
            // As in the one-process solver: safe regions and attractors feed each other.
            for _ in 0..SAFE_REGION_ROUNDS {
                if state.seed_safe_region(t, threshold)? == 0 {
                    break;
                }
                state.propagate(
                    t,
                    &Updates {
                        state: &state,
                        threshold,
                    },
                )?;
            }
        }
    }
    Ok(state.level.scheme.finish(1))
}

/// A rank's working state for its slice (local indices `0..n`, `lo + i` in the level).
struct SliceState<'a, S: Scheme> {
    rules: RuleSet,
    index: &'a LevelIndex,
    slices: &'a Slices,
    lo: u64,
    me: usize,
    level: LevelState<S>,
    n: usize,
}

/// One kind of news that ranks spread by rounds of batched references to boards until no rank has
/// any left ([`SliceState::propagate`]).
trait Phase: Sync {
    /// One round: this rank's news of up to a round of its work, told at once to boards of this
    /// rank and batched per owner for the others. Returns the batches, the work this rank has left,
    /// and whether that is a whole round or more.
    fn round(&self, t: &dyn Transport, cursor: &mut usize) -> (Vec<Vec<u8>>, usize, bool);
    /// A reference from another rank's batch: board `i` of this slice, and its flag.
    fn apply(&self, i: usize, flag: bool);
}

/// The news of boards that joined A or B at a threshold: the flag says B.
struct Updates<'s, 'a, S: Scheme> {
    state: &'s SliceState<'a, S>,
    threshold: i8,
}

impl<S: Scheme> Phase for Updates<'_, '_, S> {
    fn round(&self, t: &dyn Transport, cursor: &mut usize) -> (Vec<Vec<u8>>, usize, bool) {
        let (buffers, dirty) = self.state.round(t, self.threshold, cursor);
        (buffers, dirty, dirty >= ROUND_CHUNKS)
    }
    fn apply(&self, i: usize, b_news: bool) {
        self.state.level.tell(i, self.threshold, b_news);
    }
}

/// abapa: boards taken out of a safe region at a threshold, their predecessors told: that a
/// successor left B's region (one move fewer keeps a board in A's region) or, flagged, A's (a board
/// of B's region with such a move leaves it).
struct Removals<'s, 'a, S: Scheme> {
    state: &'s SliceState<'a, S>,
    /// Per board of A's region: its moves that keep it in.
    keep_a: Vec<AtomicU8>,
    /// Boards to take out, `REMOVE_B` set for B's region.
    pending: Mutex<Vec<u32>>,
}

impl<S: Scheme> Removals<'_, '_, S> {
    fn remove(&self, entry: u32) {
        self.pending
            .lock()
            .expect("no removal panics while holding the list")
            .push(entry);
    }
}

impl<S: Scheme> Phase for Removals<'_, '_, S> {
    fn round(&self, t: &dyn Transport, _: &mut usize) -> (Vec<Vec<u8>>, usize, bool) {
        let state = self.state;
        let batch: Vec<u32> = {
            let mut pending = self.pending.lock().expect("no removal panics");
            let from = pending.len().saturating_sub(ROUND_REMOVALS);
            pending.split_off(from)
        };
        let mut out = Outbox::new(t.size());
        for entry in batch {
            let (i, which) = removal(entry);
            if state.level.scheme.clear_flags(i, which) & which == 0 {
                continue;
            }
            let board = state
                .index
                .unrank(state.lo + i as u64)
                .expect("index in range");
            state.to_predecessors(&board, |to, offset| {
                if to == state.me {
                    self.apply(offset as usize, which == SAFE_A);
                } else {
                    out.push(to, offset, which == SAFE_A);
                }
            });
        }
        let left = self.pending.lock().expect("no removal panics").len();
        (out.into_buffers(), left, left >= ROUND_REMOVALS)
    }
    fn apply(&self, i: usize, left_a: bool) {
        let flags = self.state.level.scheme.flags(i);
        if left_a {
            if flags & SAFE_B != 0 {
                self.remove(i as u32 | REMOVE_B);
            }
        } else if flags & SAFE_A != 0 {
            let before = self.keep_a[i].fetch_sub(1, Relaxed);
            debug_assert!(before > 0, "a move kept in A's region was not counted");
            if before == 1 {
                self.remove(i as u32);
            }
        }
    }
}

impl<S: Scheme> SliceState<'_, S> {
    /// Calls `found` with the owner of each predecessor of `board` (a board of this level) and the
    /// predecessor's offset in the owner's slice.
    fn to_predecessors(&self, board: &Board, mut found: impl FnMut(usize, u64)) {
        predecessors(board, self.rules, |p| {
            let Some(j) = self.index.rank(&p) else { return };
            let owner = self.slices.owner(j);
            found(owner, j - self.slices.range(owner).start);
        });
    }

    /// abapa, at the start of a safe region: for every board of the level, two bits of news for its
    /// predecessors ([`KEEPS_A`], [`ENDS_B`]), four boards a byte in index order, each rank's from
    /// its slice. Collective.
    fn gather_news(&self, t: &dyn Transport, threshold: i8) -> Result<Vec<u8>, TransportError> {
        let k = self.index.seeds() as i8;
        let bits_of = |i: usize, board: &Board| {
            if terminal_value(board, self.rules).is_some() {
                return 0;
            }
            let r = row(board);
            let keeps_a = !self.level.scheme.b_open(i) || r <= k - threshold;
            let ends_b = self.level.scheme.a_open(i, threshold) && r < threshold;
            (keeps_a as u8 * KEEPS_A) | (ends_b as u8 * ENDS_B)
        };
        // Chunks hold a multiple of four boards, so each packs into whole bytes.
        let mine: Vec<u8> = (0..self.level.chunks())
            .into_par_iter()
            .flat_map_iter(|c| {
                let range = self.chunk_range(c);
                let first = self.lo + range.start as u64;
                let mut packed = vec![0u8; range.len().div_ceil(4)];
                for (i, board) in range.clone().zip(self.index.iter_from(first)) {
                    let at = i - range.start;
                    packed[at / 4] |= bits_of(i, &board) << (2 * (at % 4));
                }
                packed
            })
            .collect();
        let count = self.index.count() as usize;
        let mut news = vec![0u8; count.div_ceil(4)];
        for (r, got) in all_gather(t, &mine)?.into_iter().enumerate() {
            let range = self.slices.range(r);
            let len = (range.end - range.start) as usize;
            if got.len() != len.div_ceil(4) {
                return Err(TransportError(format!(
                    "rank {r} sent news of {} bytes for {len} boards",
                    got.len()
                )));
            }
            for at in 0..len {
                let g = range.start as usize + at;
                news[g / 4] |= (got[at / 4] >> (2 * (at % 4)) & 3) << (2 * (g % 4));
            }
        }
        Ok(news)
    }

    /// abapa: seeds `A_t` and `B_t` (`t` = `threshold`) with this rank's boards of the safe
    /// regions, worked out with the other ranks (the one-process solver's `seed_safe_region`, with
    /// counts, see the module notes); returns how many boards joined on all ranks. Collective.
    fn seed_safe_region(&self, t: &dyn Transport, threshold: i8) -> Result<u64, TransportError> {
        let k = self.index.seeds() as i8;
        let removals = Removals {
            state: self,
            keep_a: atomics(self.n),
            pending: Mutex::new(Vec::new()),
        };
        // Row conditions, marked with the flag bits; a board whose exits are too good for the
        // opponent cannot stay in B's region.
        let candidates: u64 = (0..self.level.chunks())
            .into_par_iter()
            .map(|c| {
                let range = self.chunk_range(c);
                let first = self.lo + range.start as u64;
                let mut found = 0;
                for (i, board) in range.zip(self.index.iter_from(first)) {
                    let r = row(&board);
                    let row_a = r >= threshold && self.level.scheme.a_open(i, threshold);
                    let row_b = r <= k - threshold && self.level.scheme.b_open(i);
                    if !(row_a || row_b) || terminal_value(&board, self.rules).is_some() {
                        continue;
                    }
                    self.level
                        .scheme
                        .set_flags(i, (row_a as u8 * SAFE_A) | (row_b as u8 * SAFE_B));
                    found += 1;
                    if row_b && !b_ready(&self.level.scheme, i, threshold) {
                        removals.remove(i as u32 | REMOVE_B);
                    }
                }
                found
            })
            .sum();
        if all_sum(t, candidates)? == 0 {
            return Ok(0);
        }
        // Counting, as the one-process solver looks at successors: every rank gathers two bits per
        // board of the whole level (the move to it keeps a board in A's region: it is in B, or in
        // B's region; it puts a board out of B's: it is not in A, nor in A's region), then counts
        // the moves of its own boards of the regions.
        let news = self.gather_news(t, threshold)?;
        let chunks = self.level.chunks();
        (0..chunks).into_par_iter().for_each(|c| {
            let range = self.chunk_range(c);
            let first = self.lo + range.start as u64;
            for (i, board) in range.zip(self.index.iter_from(first)) {
                let flags = self.level.scheme.flags(i);
                if flags == 0 {
                    continue;
                }
                let (mut keep, mut ends_b) = (0u8, false);
                for s in successors(&board, self.rules) {
                    if s.captured > 0 || terminal_value(&s.board, self.rules).is_some() {
                        continue;
                    }
                    let j = self
                        .index
                        .rank(&s.board)
                        .expect("a move's board is indexed");
                    let bits = news[j as usize / 4] >> (2 * (j % 4)) & 3;
                    keep += bits & KEEPS_A;
                    ends_b |= bits & ENDS_B != 0;
                }
                if flags & SAFE_A != 0 {
                    removals.keep_a[i].store(keep, Relaxed);
                    if keep == 0 {
                        removals.remove(i as u32);
                    }
                }
                if flags & SAFE_B != 0 && ends_b {
                    removals.remove(i as u32 | REMOVE_B);
                }
            }
        });
        drop(news);
        // Boards that cannot stay leave their regions, then what depended on them, across ranks.
        self.propagate(t, &removals)?;
        drop(removals);
        let joined = self.level.join_safe_regions(threshold);
        all_sum(t, joined)
    }

    fn chunk_range(&self, c: usize) -> std::ops::Range<usize> {
        self.level.chunk_range(c)
    }

    /// Rounds of news until no rank has any: each round handles up to a round of work (for
    /// updates, [`ROUND_CHUNKS`] dirty chunks), tells boards on this rank at once and batches the
    /// others per owner. While this rank has a whole round of work left, a round's batches travel
    /// while the next round is computed (at most two exchanges in flight); with less it waits for
    /// the news at once: most rounds of a threshold are small, and delaying their news would
    /// lengthen every chain of news that crosses ranks by a round (overlapping every round took
    /// 1,535 exchanges instead of 904 for level 16 on two ranks, and 7-20% longer).
    fn propagate(&self, t: &dyn Transport, phase: &dyn Phase) -> Result<(), TransportError> {
        let mut cursor = 0;
        let mut in_flight = VecDeque::with_capacity(2);
        // Whether the last finished exchange carried no work from any rank.
        let mut quiet = false;
        loop {
            // Behind: an earlier exchange's news is not applied yet when this one is sent.
            let behind = !in_flight.is_empty();
            let (mut buffers, work, full) = phase.round(t, &mut cursor);
            // The header of every batch: this rank's count of work left (dirty chunks or boards
            // to take out, batches with news) shifted left by one, and whether it is behind in
            // bit 0.
            let left = work + buffers.iter().filter(|b| !b.is_empty()).count();
            let header = (left as u64) << 1 | behind as u64;
            for b in &mut buffers {
                b.splice(0..0, header.to_le_bytes());
            }
            in_flight.push_back(t.start(buffers)?);
            if in_flight.len() < 2 && full {
                continue;
            }
            let oldest = in_flight.pop_front().expect("an exchange was just started");
            let (busy, any_behind) = self.receive(t.finish(oldest)?, phase)?;
            // Exchange r without work anywhere, no rank behind: every rank had applied all news,
            // had nothing dirty and sent nothing, so nothing is left, and no rank has started r+1
            // (only a rank that was behind or had a round of work left computes again before
            // finishing r). With ranks behind, it also takes r-1 without work (`quiet`): at most two
            // exchanges are in flight, so r-1's news was all that was unapplied. Those ranks
            // have started r+1, which carries nothing, so the others start it too and every rank
            // finishes it. The counts are everyone's, so every rank decides alike at the same
            // exchange.
            if busy == 0 && (!any_behind || quiet) {
                if any_behind && in_flight.is_empty() {
                    let nothing = vec![0u64.to_le_bytes().to_vec(); t.size()];
                    in_flight.push_back(t.start(nothing)?);
                }
                for last in in_flight {
                    let (left, _) = self.receive(t.finish(last)?, phase)?;
                    debug_assert_eq!(left, 0, "work after the threshold's quiet exchange");
                }
                return Ok(());
            }
            quiet = busy == 0;
        }
    }

    /// One round: up to [`ROUND_CHUNKS`] dirty chunks from `cursor` on, going round the slice from
    /// where the last round stopped, as the one-process solver's sweeps do (starting each round
    /// from the first dirty chunk would visit the low chunks again and again for a flag or two
    /// each). Returns the batches for the other ranks and the number of dirty chunks left.
    fn round(&self, t: &dyn Transport, threshold: i8, cursor: &mut usize) -> (Vec<Vec<u8>>, usize) {
        let ranks = t.size();
        let total = self.level.chunks();
        let mut chunks = Vec::new();
        let mut seen = 0;
        while seen < total && chunks.len() < ROUND_CHUNKS {
            let c = (*cursor + seen) % total;
            if self.level.take_dirty(c) {
                chunks.push(c);
            }
            seen += 1;
        }
        *cursor = (*cursor + seen) % total.max(1);
        let out = chunks
            .into_par_iter()
            .map(|c| {
                let mut out = Outbox::new(ranks);
                let boards =
                    flagged_boards(&self.level.scheme, self.index, self.chunk_range(c), self.lo);
                for (i, board) in boards {
                    let w = self.level.scheme.clear_flags(i, NEW_A | NEW_B);
                    for (bit, b_news) in [(NEW_A, false), (NEW_B, true)] {
                        if w & bit == 0 {
                            continue;
                        }
                        self.to_predecessors(&board, |owner, offset| {
                            if owner == self.me {
                                self.level.tell(offset as usize, threshold, b_news);
                            } else {
                                out.push(owner, offset, b_news);
                            }
                        });
                    }
                }
                out
            })
            .reduce(
                || Outbox::new(ranks),
                |mut a, b| {
                    a.append(b);
                    a
                },
            );
        let dirty = self.level.dirty_chunks();
        (out.into_buffers(), dirty)
    }

    /// Applies the news of one exchange; returns the sum of the senders' counts of work left and
    /// whether any sender was behind.
    fn receive(
        &self,
        incoming: Vec<Vec<u8>>,
        phase: &dyn Phase,
    ) -> Result<(u64, bool), TransportError> {
        let (mut busy, mut any_behind) = (0u64, false);
        for buffer in &incoming {
            let Some((header, updates)) = buffer.split_first_chunk::<8>() else {
                return Err(TransportError("a batch without its header".into()));
            };
            let header = u64::from_le_bytes(*header);
            busy += header >> 1;
            any_behind |= header & 1 != 0;
            if updates.len() % REF_BYTES != 0 {
                return Err(TransportError("a truncated batch of updates".into()));
            }
            updates.par_chunks(REF_BYTES).try_for_each(|item| {
                let (offset, flag) = read_ref(item);
                if offset as usize >= self.n {
                    return Err(TransportError(format!(
                        "an update for board {offset} of a slice of {}",
                        self.n
                    )));
                }
                phase.apply(offset as usize, flag);
                Ok(())
            })?;
        }
        Ok((busy, any_behind))
    }
}
