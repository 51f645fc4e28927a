//! The slice solver: one rank's part of an awari level, solved with the other ranks by the
//! threshold method of [`crate::solve`], news for boards of other ranks sent in batches.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{successors, terminal_value, through_move, Bounds};
use oware_rules::RuleSet;
use rayon::prelude::*;

use super::RankLevels;
use crate::solve::{
    flagged_boards, joins_by_scan, predecessors, told, AwariScheme, Scheme, CHUNK, NEW_A, NEW_B,
};
use crate::transport::{all_max, read_ref, Outbox, Slices, Transport, TransportError, REF_BYTES};
use crate::Progress;

/// Boards set up per round of lower-level questions.
const SETUP_BLOCK: u64 = 1 << 16;
/// Dirty chunks a rank handles per round of updates: bounds the batches (a chunk's boards have at
/// most about 6 predecessors each, [`REF_BYTES`] bytes per update).
const ROUND_CHUNKS: usize = 1024;

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

fn widen(best: Option<Bounds>, exit: Bounds) -> Option<Bounds> {
    Some(match best {
        None => exit,
        Some(b) => Bounds {
            lo: b.lo.max(exit.lo),
            hi: b.hi.max(exit.hi),
        },
    })
}

/// This rank's part of an awari level: solves its slice of the level described by `index` with the
/// other ranks, returns its entries (the slice of the file's entries). Collective.
pub fn solve_slice(
    t: &dyn Transport,
    index: &LevelIndex,
    lower: &RankLevels,
    progress: &dyn Progress,
) -> Result<Vec<u8>, TransportError> {
    let rules = RuleSet::Awari;
    let slices = Slices::new(index.count(), t.size());
    let me = t.rank();
    let mine = slices.range(me);
    let lo = mine.start;
    let n = (mine.end - mine.start) as usize;
    let k = index.seeds();
    let state = SliceState {
        scheme: AwariScheme::new(n),
        dirty: (0..n.div_ceil(CHUNK as usize))
            .map(|_| AtomicBool::new(false))
            .collect(),
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
                        state.scheme.set_terminal(i, v);
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
            state.scheme.set_open(p.i, best, p.inside);
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
        state.scan(threshold);
        progress.advance(n as u64);
        state.propagate(t, index, &slices, lo, threshold)?;
    }
    Ok(state.scheme.finish())
}

/// A rank's working state for its slice (local indices `0..n`).
struct SliceState {
    scheme: AwariScheme,
    dirty: Vec<AtomicBool>,
    n: usize,
}

impl SliceState {
    fn flag(&self, i: usize, flags: u8) {
        self.scheme.set_flags(i, flags);
        self.dirty[i / CHUNK as usize].store(true, Relaxed);
    }

    fn chunk_range(&self, c: usize) -> std::ops::Range<usize> {
        let start = c * CHUNK as usize;
        start..(start + CHUNK as usize).min(self.n)
    }

    /// Boards that join at threshold `t` by their exits alone, or whose moves in the level all lead
    /// into A already.
    fn scan(&self, t: i8) {
        (0..self.dirty.len()).into_par_iter().for_each(|c| {
            for i in self.chunk_range(c) {
                let new = joins_by_scan(&self.scheme, i, t);
                if new != 0 {
                    self.flag(i, new);
                }
            }
        });
    }

    /// News for board `i` of this slice: a successor joined A (`b_news` false), or joined B.
    fn apply(&self, i: usize, b_news: bool, t: i8) {
        let new = told(&self.scheme, i, t, b_news);
        if new != 0 {
            self.flag(i, new);
        }
    }

    /// Rounds of news until no rank has any: each round handles up to [`ROUND_CHUNKS`] dirty
    /// chunks, tells predecessors on this rank at once and batches the others per owner. While
    /// this rank has a whole round of dirty chunks left, a round's batches travel while the next
    /// round is computed (at most two exchanges in flight); with less it waits for the news at
    /// once: most rounds of a threshold are small, and delaying their news would lengthen every
    /// chain of news that crosses ranks by a round (overlapping every round took 1,535 exchanges
    /// instead of 904 for level 16 on two ranks, and 7-20% longer).
    fn propagate(
        &self,
        t: &dyn Transport,
        index: &LevelIndex,
        slices: &Slices,
        lo: u64,
        threshold: i8,
    ) -> Result<(), TransportError> {
        let mut cursor = 0;
        let mut in_flight = VecDeque::with_capacity(2);
        // Whether the last finished exchange carried no work from any rank.
        let mut quiet = false;
        loop {
            // Behind: an earlier exchange's news is not applied yet when this one is sent.
            let behind = !in_flight.is_empty();
            let (mut buffers, dirty) = self.round(t, index, slices, lo, threshold, &mut cursor);
            // The header of every batch: this rank's count of work left (dirty chunks, batches
            // with updates) shifted left by one, and whether it is behind in bit 0.
            let left = dirty + buffers.iter().filter(|b| !b.is_empty()).count();
            let header = (left as u64) << 1 | behind as u64;
            for b in &mut buffers {
                b.splice(0..0, header.to_le_bytes());
            }
            in_flight.push_back(t.start(buffers)?);
            if in_flight.len() < 2 && dirty >= ROUND_CHUNKS {
                continue;
            }
            let oldest = in_flight.pop_front().expect("an exchange was just started");
            let (busy, any_behind) = self.receive(t.finish(oldest)?, threshold)?;
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
                    let (left, _) = self.receive(t.finish(last)?, threshold)?;
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
    fn round(
        &self,
        t: &dyn Transport,
        index: &LevelIndex,
        slices: &Slices,
        lo: u64,
        threshold: i8,
        cursor: &mut usize,
    ) -> (Vec<Vec<u8>>, usize) {
        let me = t.rank();
        let ranks = t.size();
        let total = self.dirty.len();
        let mut chunks = Vec::new();
        let mut seen = 0;
        while seen < total && chunks.len() < ROUND_CHUNKS {
            let c = (*cursor + seen) % total;
            if self.dirty[c].swap(false, Relaxed) {
                chunks.push(c);
            }
            seen += 1;
        }
        *cursor = (*cursor + seen) % total.max(1);
        let out = chunks
            .into_par_iter()
            .map(|c| {
                let mut out = Outbox::new(ranks);
                let boards = flagged_boards(&self.scheme, index, self.chunk_range(c), lo);
                for (i, board) in boards {
                    let w = self.scheme.clear_flags(i, NEW_A | NEW_B);
                    for (bit, b_news) in [(NEW_A, false), (NEW_B, true)] {
                        if w & bit == 0 {
                            continue;
                        }
                        predecessors(&board, RuleSet::Awari, |p| {
                            let Some(j) = index.rank(&p) else { return };
                            let owner = slices.owner(j);
                            let offset = j - slices.range(owner).start;
                            if owner == me {
                                self.apply(offset as usize, b_news, threshold);
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
        let dirty = self.dirty.iter().filter(|d| d.load(Relaxed)).count();
        (out.into_buffers(), dirty)
    }

    /// Applies the news of one exchange; returns the sum of the senders' counts of work left and
    /// whether any sender was behind.
    fn receive(
        &self,
        incoming: Vec<Vec<u8>>,
        threshold: i8,
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
                let (offset, b_news) = read_ref(item);
                if offset as usize >= self.n {
                    return Err(TransportError(format!(
                        "an update for board {offset} of a slice of {}",
                        self.n
                    )));
                }
                self.apply(offset as usize, b_news, threshold);
                Ok(())
            })?;
        }
        Ok((busy, any_behind))
    }
}
