//! A build spread over the ranks of a job (MPI on a cluster, see `crate::mpi_transport`; threads in
//! one process for tests, see [`crate::transport::LocalTransport`]).
//!
//! Each rank owns a contiguous slice of every level ([`Slices`]) and holds only the working state of
//! its slice (the awari solver's two bytes per board). The level is solved by the threshold method of
//! [`crate::solve`], with the same per-board state (`AwariScheme`): a board that joins a set tells
//! its predecessors, and predecessors owned by other ranks are told by batched messages, one buffer
//! per destination per round ([`Outbox`]), exchanged all-to-all until no rank has news left. The
//! sets a threshold ends with are the least fixpoints of their rules whatever the order of the news,
//! so the entries are those of the one-process build, byte for byte, for any number of ranks.
//!
//! Values of lower levels (the boards a capture leads to) come from [`RankLevels`], as
//! [`LowerMode`] says: the files memory-mapped on a shared file system, read whole into every rank,
//! or only each rank's slice, the rest asked of its owner by batched questions.
//!
//! Files: each rank writes its slice to a part file; rank 0, once every rank has reported its part
//! (length and CRC-32), streams the parts into a temporary file under the header, checks each part
//! against its report, renames it to the level's name and opens it with the usual checks. A level's
//! file therefore appears complete or not at all, and a stopped run resumes from the last finished
//! level with any number of ranks.

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Instant;

use oware_egtb::file::{file_name, header_for, open_level, HEADER_LEN};
use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{
    index_kind, max_level, stored_bounds, successors, terminal_value, through_move, Bounds,
};
use oware_egtb::{EgtbError, LevelData, Levels};
use oware_rules::RuleSet;
use rayon::prelude::*;

use crate::solve::{
    flagged_boards, joins_by_scan, predecessors, told, AwariScheme, Scheme, CHUNK, NEW_A, NEW_B,
};
use crate::transport::{
    all_max, all_sum, broadcast, read_ref, Counted, Outbox, Slices, Ticket, Transport,
    TransportError, REF_BYTES,
};
use crate::{LowerLevels, Progress};

/// How a rank reads the value of a lower-level board it does not own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LowerMode {
    /// Every rank memory-maps the finished files (a shared file system; pages load on demand).
    Mapped,
    /// Every rank reads the finished files whole into memory (they fit on each node).
    Replicated,
    /// Every rank holds its own slice of each lower level and asks the owners of the others, in
    /// batches (levels too large for one node).
    Messages,
}

impl std::str::FromStr for LowerMode {
    type Err = String;
    fn from_str(s: &str) -> Result<LowerMode, String> {
        match s {
            "mapped" => Ok(LowerMode::Mapped),
            "replicated" => Ok(LowerMode::Replicated),
            "messages" => Ok(LowerMode::Messages),
            _ => Err(format!(
                "unknown lower-level mode {s:?} (mapped, replicated or messages)"
            )),
        }
    }
}

/// What can stop a distributed build.
#[derive(Debug, thiserror::Error)]
pub enum DistributedError {
    /// A database file could not be read or written.
    #[error(transparent)]
    Egtb(#[from] EgtbError),
    /// Exchanging data with the other ranks failed while building a level (the message includes
    /// the transport's error, so it is not also the error's `source`).
    #[error("level {seeds}: {error}")]
    Transport {
        /// The level being built.
        seeds: usize,
        /// What the transport reported.
        error: TransportError,
    },
    /// Another rank reported an error while building a level.
    #[error("level {seeds}: rank {rank} failed: {message}")]
    Rank {
        /// The level being built.
        seeds: usize,
        /// The rank that failed.
        rank: usize,
        /// Its error, as text.
        message: String,
    },
    /// The rule set cannot be built across ranks.
    #[error("{rules} levels are built in one process only (their path searches need the whole level): build them without --mpi")]
    SingleProcessOnly {
        /// The rule set asked for.
        rules: RuleSet,
    },
}

/// The levels below the one being built, as one rank holds them.
pub enum RankLevels {
    /// Whole levels at hand (memory-mapped or in memory).
    Whole(Levels),
    /// This rank's slice of each level; values of other boards are asked of their owners.
    Sliced {
        /// The rule set of the levels.
        rules: RuleSet,
        /// Each level's index with this rank's slice of its entries.
        levels: Vec<(LevelIndex, Vec<u8>)>,
    },
}

impl RankLevels {
    /// No levels yet; held whole or sliced according to `mode`.
    pub fn new(rules: RuleSet, mode: LowerMode) -> RankLevels {
        match mode {
            LowerMode::Messages => RankLevels::Sliced {
                rules,
                levels: Vec::new(),
            },
            _ => RankLevels::Whole(Levels::new(rules)),
        }
    }

    /// Number of levels held (levels `0..len()`).
    pub fn len(&self) -> usize {
        match self {
            RankLevels::Whole(l) => l.len(),
            RankLevels::Sliced { levels, .. } => levels.len(),
        }
    }

    /// Whether no level is held, not even level 0.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Collective for sliced levels: the bounds of each `(seeds, board)` asked, in order. Every rank
    /// must call it as often as the others (with nothing to ask, if need be).
    pub fn resolve(
        &self,
        t: &dyn Transport,
        queries: &[(usize, Board)],
    ) -> Result<Vec<Bounds>, TransportError> {
        let asked = self.ask(t, queries)?;
        let answering = self.answer(t, asked)?;
        self.values(t, answering)
    }

    /// The first step of [`RankLevels::resolve`], started: the questions go to the owners of the
    /// boards (values at hand are looked up at once). Collective, like the two steps after it,
    /// [`RankLevels::answer`] and [`RankLevels::values`]; other work may go on between them.
    fn ask(&self, t: &dyn Transport, queries: &[(usize, Board)]) -> Result<Asked, TransportError> {
        let levels = match self {
            RankLevels::Whole(levels) => {
                return Ok(Asked::AtHand(
                    queries
                        .iter()
                        .map(|(seeds, board)| levels.bounds(*seeds, board))
                        .collect(),
                ))
            }
            RankLevels::Sliced { levels, .. } => levels,
        };
        let ranks = t.size();
        let slices: Vec<Slices> = levels
            .iter()
            .map(|(index, _)| Slices::new(index.count(), ranks))
            .collect();
        // Questions: the board's offset in its owner's slice, then its level.
        let mut out = Outbox::new(ranks);
        let mut asked = vec![0usize; ranks];
        let mut route = Vec::with_capacity(queries.len());
        for (seeds, board) in queries {
            let (index, _) = levels
                .get(*seeds)
                .ok_or_else(|| TransportError(format!("level {seeds} is not built yet")))?;
            let i = index.rank(board).ok_or_else(|| {
                TransportError(format!("a board of level {seeds} is not in its index"))
            })?;
            let slices = &slices[*seeds];
            let owner = slices.owner(i);
            out.push(owner, i - slices.range(owner).start, false);
            out.push_bytes(owner, &[*seeds as u8]);
            // Where the answer will be: the owner's reply, at this question's place in it.
            route.push((owner, asked[owner], *seeds));
            asked[owner] += 1;
        }
        Ok(Asked::Sent {
            questions: t.start(out.into_buffers())?,
            route,
        })
    }

    /// The second step: this rank's answers to the questions it was asked go back, started.
    fn answer(&self, t: &dyn Transport, asked: Asked) -> Result<Answering, TransportError> {
        let (questions, route) = match asked {
            Asked::AtHand(values) => return Ok(Answering::AtHand(values)),
            Asked::Sent { questions, route } => (questions, route),
        };
        // Questions come only with sliced levels; whole levels hold no slice to answer from.
        let levels = match self {
            RankLevels::Sliced { levels, .. } => levels.as_slice(),
            RankLevels::Whole(_) => &[],
        };
        let questions = t.finish(questions)?;
        let me = t.rank();
        let answers: Vec<Vec<u8>> = questions
            .iter()
            .map(|q| {
                q.chunks(REF_BYTES + 1)
                    .map(|item| {
                        if item.len() != REF_BYTES + 1 {
                            return Err(TransportError("a truncated question".into()));
                        }
                        let (offset, _) = read_ref(item);
                        let seeds = item[REF_BYTES] as usize;
                        levels
                            .get(seeds)
                            .and_then(|(_, entries)| entries.get(offset as usize))
                            .copied()
                            .ok_or_else(|| {
                                TransportError(format!(
                                    "rank {me} holds no entry {offset} of level {seeds}"
                                ))
                            })
                    })
                    .collect()
            })
            .collect::<Result<_, _>>()?;
        Ok(Answering::Sent {
            replies: t.start(answers)?,
            route,
        })
    }

    /// The last step: the values asked for, in the order of the questions.
    fn values(
        &self,
        t: &dyn Transport,
        answering: Answering,
    ) -> Result<Vec<Bounds>, TransportError> {
        let (replies, route) = match answering {
            Answering::AtHand(values) => return Ok(values),
            Answering::Sent { replies, route } => (replies, route),
        };
        let rules = match self {
            RankLevels::Whole(levels) => levels.rules(),
            RankLevels::Sliced { rules, .. } => *rules,
        };
        let replies = t.finish(replies)?;
        route
            .iter()
            .map(|&(owner, k, seeds)| {
                replies[owner]
                    .get(k)
                    .map(|&code| stored_bounds(rules, seeds, code))
                    .ok_or_else(|| TransportError(format!("rank {owner} answered too little")))
            })
            .collect()
    }

    /// `Err(EgtbError::Changed)` if a mapped level's file changed since it was checked.
    fn check_unchanged(&self) -> Result<(), EgtbError> {
        match self {
            RankLevels::Whole(levels) => levels.check_unchanged(),
            RankLevels::Sliced { .. } => Ok(()),
        }
    }

    /// Adds the next level: the whole file (mapped or read as `mode` says) or this rank's slice.
    fn push(
        &mut self,
        mode: LowerMode,
        file: Option<oware_egtb::file::LevelFile>,
        slice: Option<Vec<u8>>,
        range: std::ops::Range<u64>,
    ) {
        match self {
            RankLevels::Whole(levels) => {
                let file = file.expect("whole levels come from their files");
                levels.push(match mode {
                    LowerMode::Replicated => LevelData::Memory(Arc::from(file.entries())),
                    _ => LevelData::File(file),
                });
            }
            RankLevels::Sliced { rules, levels } => {
                let seeds = levels.len();
                let entries = slice.unwrap_or_else(|| {
                    let file = file.expect("a slice comes from the solver or the file");
                    file.entries()[range.start as usize..range.end as usize].to_vec()
                });
                levels.push((LevelIndex::new(seeds, index_kind(*rules)), entries));
            }
        }
    }
}

/// Where each answer to a rank's questions will be: the owner asked, the question's place among
/// those sent to it, and the level asked about (to decode the answer).
type Route = Vec<(usize, usize, usize)>;

/// Questions about lower-level boards after [`RankLevels::ask`].
enum Asked {
    /// The values, looked up at once (whole levels).
    AtHand(Vec<Bounds>),
    /// Sent to the owners.
    Sent { questions: Ticket, route: Route },
}

/// Questions after [`RankLevels::answer`].
enum Answering {
    /// The values, looked up at once (whole levels).
    AtHand(Vec<Bounds>),
    /// The owners' answers on their way.
    Sent { replies: Ticket, route: Route },
}

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

/// What building (or finding) one level gave, the same on every rank.
#[derive(Debug, Clone, PartialEq)]
pub struct DistributedLevelReport {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// Boards in the level's index.
    pub boards: u64,
    /// Found already built (resumed), not built now.
    pub reused: bool,
    /// Wall-clock seconds spent on the level.
    pub seconds: f64,
    /// Ranks in the job.
    pub ranks: usize,
    /// Bytes all ranks sent to others while building the level.
    pub bytes_exchanged: u64,
    /// All-to-all exchanges the level took (each one a synchronisation of all ranks).
    pub exchanges: u64,
    /// Seconds a rank spent waiting for exchanges to finish, on average over the ranks: the part
    /// of the communication (and of the other ranks' lateness) that computation did not hide.
    pub waited: f64,
}

/// Events of the level loop, for progress output (rank 0's) and test hooks.
pub enum LevelEvent<'a> {
    /// Building level `seeds` starts; this rank will report `work` units to its [`Progress`].
    Started {
        /// The level starting.
        seeds: usize,
        /// Work units this rank will report.
        work: u64,
    },
    /// The level is done (or was found already built).
    Finished(&'a DistributedLevelReport),
}

/// The part file of rank `rank` of `ranks` for a level.
fn part_path(dir: &Path, rules: RuleSet, seeds: usize, rank: usize, ranks: usize) -> PathBuf {
    dir.join(format!(
        "{}.part-{rank}-of-{ranks}",
        file_name(rules, seeds)
    ))
}

fn io_error(path: &Path, error: std::io::Error) -> EgtbError {
    EgtbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Writes this rank's slice; returns its CRC-32.
fn write_part(path: &Path, entries: &[u8]) -> Result<u32, EgtbError> {
    let write = || -> std::io::Result<()> {
        let mut f = File::create(path)?;
        f.write_all(entries)?;
        f.sync_all()
    };
    write().map_err(|e| io_error(path, e))?;
    Ok(crc32fast::hash(entries))
}

/// Rank 0: the level's file from the parts, each checked against what its rank reported, through a
/// temporary name; the parts are removed.
fn assemble(
    dir: &Path,
    rules: RuleSet,
    seeds: usize,
    count: u64,
    parts: &[(u64, u32)],
) -> Result<(), EgtbError> {
    let path = dir.join(file_name(rules, seeds));
    let tmp = path.with_extension("oegtb.partial");
    let ranks = parts.len();
    let mut out = File::create(&tmp).map_err(|e| io_error(&tmp, e))?;
    out.write_all(&[0u8; HEADER_LEN])
        .map_err(|e| io_error(&tmp, e))?;
    let mut whole = crc32fast::Hasher::new();
    let mut buffer = vec![0u8; 1 << 20];
    for (rank, &(len, crc)) in parts.iter().enumerate() {
        let part = part_path(dir, rules, seeds, rank, ranks);
        let mut f = File::open(&part).map_err(|e| io_error(&part, e))?;
        let mut hasher = crc32fast::Hasher::new();
        let mut read = 0u64;
        loop {
            let got = f.read(&mut buffer).map_err(|e| io_error(&part, e))?;
            if got == 0 {
                break;
            }
            hasher.update(&buffer[..got]);
            whole.update(&buffer[..got]);
            out.write_all(&buffer[..got])
                .map_err(|e| io_error(&tmp, e))?;
            read += got as u64;
        }
        if read != len || hasher.finalize() != crc {
            let _ = fs::remove_file(&tmp);
            return Err(EgtbError::Damaged { path: part });
        }
    }
    let finish = || -> std::io::Result<()> {
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&header_for(rules, seeds, count, whole.finalize()))?;
        out.sync_all()?;
        fs::rename(&tmp, &path)
    };
    finish().map_err(|e| io_error(&path, e))?;
    for rank in 0..ranks {
        let _ = fs::remove_file(part_path(dir, rules, seeds, rank, ranks));
    }
    Ok(())
}

/// Rank 0, before anything: part files and temporary files a stopped run of `rules` left in `dir`.
fn remove_leftovers(dir: &Path, rules: RuleSet) -> Result<(), EgtbError> {
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let prefix = format!("{}-", rules.name());
    for entry in fs::read_dir(dir).map_err(|e| io_error(dir, e))? {
        let entry = entry.map_err(|e| io_error(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with(&prefix)
            && (name.contains(".oegtb.part-") || name.ends_with(".partial"))
        {
            fs::remove_file(entry.path()).map_err(|e| io_error(&entry.path(), e))?;
        }
    }
    Ok(())
}

/// Status words sent to rank 0 and back.
const OK: u8 = 0;
const FAILED: u8 = 1;

fn status(result: &Result<Vec<u8>, String>) -> Vec<u8> {
    match result {
        Ok(payload) => [&[OK][..], payload].concat(),
        Err(message) => [&[FAILED][..], message.as_bytes()].concat(),
    }
}

/// Collective: rank 0's outcome of a step on every rank; an error names the level.
fn decided_by_root(
    t: &dyn Transport,
    seeds: usize,
    outcome: Result<Vec<u8>, EgtbError>,
) -> Result<Vec<u8>, DistributedError> {
    let wire = broadcast(
        t,
        &status(
            &outcome
                .as_ref()
                .map(Clone::clone)
                .map_err(|e| e.to_string()),
        ),
    )
    .map_err(|error| DistributedError::Transport { seeds, error })?;
    match (t.rank(), outcome) {
        (0, Err(e)) => Err(e.into()),
        _ if wire.first() == Some(&OK) => Ok(wire[1..].to_vec()),
        _ => Err(DistributedError::Rank {
            seeds,
            rank: 0,
            message: String::from_utf8_lossy(wire.get(1..).unwrap_or_default()).into_owned(),
        }),
    }
}

/// Builds levels `0..=max_seeds` of `rules` into `dir` with the ranks of `t`, each holding its
/// slice; levels already in `dir` are reused (whatever number of ranks built them). Collective:
/// every rank calls it with the same arguments; every rank sees the same events.
pub fn build_distributed(
    t: &dyn Transport,
    dir: &Path,
    rules: RuleSet,
    max_seeds: usize,
    mode: LowerMode,
    progress: &dyn Progress,
    mut on_event: impl FnMut(LevelEvent),
) -> Result<(), DistributedError> {
    if max_seeds > max_level(rules) {
        return Err(EgtbError::LevelTooHigh {
            rules,
            seeds: max_seeds,
            max: max_level(rules),
        }
        .into());
    }
    let t = Counted::new(t);
    let me = t.rank();
    let ranks = t.size();
    let leftovers = if me == 0 {
        remove_leftovers(dir, rules).map(|()| Vec::new())
    } else {
        Ok(Vec::new())
    };
    decided_by_root(&t, 0, leftovers)?;
    let mut lower = RankLevels::new(rules, mode);
    for seeds in 0..=max_seeds {
        let started = Instant::now();
        let (sent_before, exchanges_before, waited_before) = (t.sent(), t.exchanges(), t.waited());
        let index = LevelIndex::new(seeds, index_kind(rules));
        let slices = Slices::new(index.count(), ranks);
        let transport_error = |error| DistributedError::Transport { seeds, error };
        // Whether the level is there: rank 0 opens (and checks) it, everyone learns the answer.
        let found = if me == 0 {
            open_level(dir, rules, seeds).map(|f| vec![f.is_some() as u8])
        } else {
            Ok(Vec::new())
        };
        let reused = decided_by_root(&t, seeds, found)? == [1];
        let mut slice = None;
        if !reused {
            if rules != RuleSet::Awari {
                return Err(DistributedError::SingleProcessOnly { rules });
            }
            let work = (slices.range(me).end - slices.range(me).start) * (1 + seeds as u64);
            on_event(LevelEvent::Started { seeds, work });
            let entries = solve_slice(&t, &index, &lower, progress).map_err(transport_error)?;
            // Every rank reports its part to rank 0, which writes the file only if all succeeded.
            let part = part_path(dir, rules, seeds, me, ranks);
            // A mapped lower level whose file changed meanwhile was read as zeros: this part is
            // not written, so the level is not assembled from it.
            let report = lower
                .check_unchanged()
                .and_then(|()| write_part(&part, &entries))
                .map(|crc| {
                    let mut r = (entries.len() as u64).to_le_bytes().to_vec();
                    r.extend_from_slice(&crc.to_le_bytes());
                    r
                })
                .map_err(|e| e.to_string());
            let mut outgoing = vec![Vec::new(); ranks];
            outgoing[0] = status(&report);
            let reports = t.exchange(outgoing).map_err(transport_error)?;
            let assembled = if me == 0 {
                let mut parts = Vec::with_capacity(ranks);
                let mut failed = None;
                for (rank, r) in reports.iter().enumerate() {
                    match (r.first(), r.len()) {
                        (Some(&OK), 13) => parts.push((
                            u64::from_le_bytes(r[1..9].try_into().expect("8 bytes")),
                            u32::from_le_bytes(r[9..13].try_into().expect("4 bytes")),
                        )),
                        _ => {
                            failed.get_or_insert_with(|| {
                                format!(
                                    "rank {rank} could not write its part: {}",
                                    String::from_utf8_lossy(r.get(1..).unwrap_or_default())
                                )
                            });
                        }
                    }
                }
                match failed {
                    Some(message) => Err(EgtbError::Io {
                        path: dir.to_path_buf(),
                        error: std::io::Error::other(message),
                    }),
                    None => assemble(dir, rules, seeds, index.count(), &parts)
                        .and_then(|()| open_level(dir, rules, seeds).map(|_| Vec::new())),
                }
            } else {
                Ok(Vec::new())
            };
            decided_by_root(&t, seeds, assembled)?;
            slice = Some(entries);
        }
        let file = match (&lower, &slice) {
            (RankLevels::Sliced { .. }, Some(_)) => None,
            _ => Some(
                open_level(dir, rules, seeds)?.ok_or_else(|| EgtbError::MissingLevel {
                    dir: dir.to_path_buf(),
                    rules,
                    seeds,
                })?,
            ),
        };
        lower.push(mode, file, slice, slices.range(me));
        let exchanges = t.exchanges() - exchanges_before;
        let bytes_exchanged = all_sum(&t, t.sent() - sent_before).map_err(transport_error)?;
        let waited_ns = (t.waited() - waited_before).as_nanos() as u64;
        let waited = all_sum(&t, waited_ns).map_err(transport_error)? as f64 / 1e9 / ranks as f64;
        on_event(LevelEvent::Finished(&DistributedLevelReport {
            seeds,
            boards: index.count(),
            reused,
            seconds: started.elapsed().as_secs_f64(),
            ranks,
            bytes_exchanged,
            exchanges,
            waited,
        }));
    }
    Ok(())
}
