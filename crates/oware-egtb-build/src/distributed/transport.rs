//! How the ranks of a distributed build talk: one collective primitive, an all-to-all exchange of
//! byte buffers, that MPI provides (`MPI_Alltoallv`, see `super::mpi_transport`) and that
//! [`LocalTransport`] mirrors with threads in one process for tests. Everything else (sums,
//! broadcasts, batched updates of boards owned by other ranks) is built on it here, once.
//!
//! An exchange is started and finished in two steps ([`Transport::start`], [`Transport::finish`])
//! so that a rank can go on computing while its batches travel: the solver sends one round's
//! updates and works on the next round before it reads what the others sent.
//!
//! Which rank owns which board of a level is [`Slices`]: contiguous index ranges of near-equal size.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A failed exchange (a peer gone, a buffer too large for one message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransportError(pub String);

impl std::fmt::Display for TransportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TransportError {}

/// An exchange that was started and is not finished yet: its number among this rank's exchanges.
/// Not `Clone`: an exchange is finished once.
#[derive(Debug, PartialEq, Eq)]
#[must_use = "an exchange that is started must be finished"]
pub struct Ticket(pub u64);

/// The ranks of a job, as one of them sees them.
pub trait Transport {
    /// This rank's number, `0..size()`.
    fn rank(&self) -> usize;
    /// Ranks in the job.
    fn size(&self) -> usize;
    /// Starts a collective exchange (every rank starts the same exchanges in the same order):
    /// sends `outgoing[d]` to rank `d` (`outgoing` has [`Transport::size`] buffers, this rank's
    /// own included) and returns at once. A rank may start more exchanges before it finishes this
    /// one.
    fn start(&self, outgoing: Vec<Vec<u8>>) -> Result<Ticket, TransportError>;
    /// Waits for the exchange `ticket` to end; returns the buffer each rank sent to this one in it,
    /// by source rank.
    fn finish(&self, ticket: Ticket) -> Result<Vec<Vec<u8>>, TransportError>;
    /// Starts an exchange and waits for it.
    fn exchange(&self, outgoing: Vec<Vec<u8>>) -> Result<Vec<Vec<u8>>, TransportError> {
        let ticket = self.start(outgoing)?;
        self.finish(ticket)
    }
}

/// A transport that counts the bytes this rank sends to others (its own buffer is not traffic),
/// the exchanges, and the time spent waiting for them to finish.
pub struct Counted<'a> {
    inner: &'a dyn Transport,
    sent: AtomicU64,
    exchanges: AtomicU64,
    waited_ns: AtomicU64,
}

impl<'a> Counted<'a> {
    /// Counts what goes through `inner`.
    pub fn new(inner: &'a dyn Transport) -> Counted<'a> {
        Counted {
            inner,
            sent: AtomicU64::new(0),
            exchanges: AtomicU64::new(0),
            waited_ns: AtomicU64::new(0),
        }
    }

    /// Bytes sent to other ranks so far.
    pub fn sent(&self) -> u64 {
        self.sent.load(Relaxed)
    }

    /// Exchanges so far (each one a synchronisation of all ranks).
    pub fn exchanges(&self) -> u64 {
        self.exchanges.load(Relaxed)
    }

    /// Time spent so far in [`Transport::finish`]: waiting for other ranks and for the bytes, the
    /// part of the exchanges that computation did not hide.
    pub fn waited(&self) -> Duration {
        Duration::from_nanos(self.waited_ns.load(Relaxed))
    }
}

impl Transport for Counted<'_> {
    fn rank(&self) -> usize {
        self.inner.rank()
    }
    fn size(&self) -> usize {
        self.inner.size()
    }
    fn start(&self, outgoing: Vec<Vec<u8>>) -> Result<Ticket, TransportError> {
        let me = self.rank();
        let bytes: usize = outgoing
            .iter()
            .enumerate()
            .filter(|&(d, _)| d != me)
            .map(|(_, b)| b.len())
            .sum();
        self.sent.fetch_add(bytes as u64, Relaxed);
        self.exchanges.fetch_add(1, Relaxed);
        self.inner.start(outgoing)
    }
    fn finish(&self, ticket: Ticket) -> Result<Vec<Vec<u8>>, TransportError> {
        let waiting = Instant::now();
        let got = self.inner.finish(ticket);
        self.waited_ns
            .fetch_add(waiting.elapsed().as_nanos() as u64, Relaxed);
        got
    }
}

/// Collective: the same `bytes` from every rank to every rank; returns what each sent.
pub fn all_gather(t: &dyn Transport, bytes: &[u8]) -> Result<Vec<Vec<u8>>, TransportError> {
    t.exchange(vec![bytes.to_vec(); t.size()])
}

fn u64s(buffers: &[Vec<u8>]) -> Result<Vec<u64>, TransportError> {
    buffers
        .iter()
        .map(|b| {
            b.as_slice()
                .try_into()
                .map(u64::from_le_bytes)
                .map_err(|_| TransportError(format!("expected 8 bytes, got {}", b.len())))
        })
        .collect()
}

/// Collective: the sum of `x` over the ranks.
pub fn all_sum(t: &dyn Transport, x: u64) -> Result<u64, TransportError> {
    Ok(u64s(&all_gather(t, &x.to_le_bytes())?)?.iter().sum())
}

/// Collective: the largest `x` over the ranks.
pub fn all_max(t: &dyn Transport, x: u64) -> Result<u64, TransportError> {
    Ok(u64s(&all_gather(t, &x.to_le_bytes())?)?
        .into_iter()
        .max()
        .unwrap_or(x))
}

/// Collective: rank 0's `bytes` on every rank (the others' `bytes` are ignored).
pub fn broadcast(t: &dyn Transport, bytes: &[u8]) -> Result<Vec<u8>, TransportError> {
    let outgoing = if t.rank() == 0 {
        vec![bytes.to_vec(); t.size()]
    } else {
        vec![Vec::new(); t.size()]
    };
    Ok(t.exchange(outgoing)?.swap_remove(0))
}

/// Which rank owns which board of a level of `count` boards: rank `r` owns the contiguous range
/// `count * r / ranks .. count * (r + 1) / ranks`, so slices differ by at most one board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slices {
    /// Where each rank's range starts, and `count` last.
    starts: Vec<u64>,
}

impl Slices {
    /// Slices of `count` boards among `ranks` ranks (at least one).
    pub fn new(count: u64, ranks: usize) -> Slices {
        assert!(ranks > 0, "a job has at least one rank");
        let start = |r: usize| (count as u128 * r as u128 / ranks as u128) as u64;
        Slices {
            starts: (0..=ranks).map(start).collect(),
        }
    }

    /// Ranks that share the level.
    pub fn ranks(&self) -> usize {
        self.starts.len() - 1
    }

    /// The boards of rank `r`.
    pub fn range(&self, r: usize) -> Range<u64> {
        self.starts[r]..self.starts[r + 1]
    }

    /// The rank that owns board `i` (`i < count`).
    #[inline]
    pub fn owner(&self, i: u64) -> usize {
        self.starts.partition_point(|&s| s <= i) - 1
    }
}

/// Bytes per board reference in a batch: 40 bits, enough for the offset of a board in any slice of
/// any level (level 48 has fewer than 2^38 boards) with a flag bit above it.
pub const REF_BYTES: usize = 5;
/// The flag bit of a board reference.
pub const REF_FLAG: u64 = 1 << 39;

/// Updates or questions about boards, batched per destination rank: each reference is the board's
/// offset in its owner's slice ([`REF_BYTES`] bytes, little-endian), with an optional flag and
/// optional extra bytes the caller appends.
pub struct Outbox {
    buffers: Vec<Vec<u8>>,
}

impl Outbox {
    /// Empty batches for `ranks` ranks.
    pub fn new(ranks: usize) -> Outbox {
        Outbox {
            buffers: vec![Vec::new(); ranks],
        }
    }

    /// Appends a reference to board `offset` (in `to`'s slice), with `flag`, to `to`'s batch.
    pub fn push(&mut self, to: usize, offset: u64, flag: bool) {
        debug_assert!(offset < REF_FLAG);
        let word = offset | if flag { REF_FLAG } else { 0 };
        self.buffers[to].extend_from_slice(&word.to_le_bytes()[..REF_BYTES]);
    }

    /// Appends raw bytes to `to`'s batch (after a reference, for questions that carry more).
    pub fn push_bytes(&mut self, to: usize, bytes: &[u8]) {
        self.buffers[to].extend_from_slice(bytes);
    }

    /// Appends every batch of `other`.
    pub fn append(&mut self, other: Outbox) {
        for (mine, theirs) in self.buffers.iter_mut().zip(other.buffers) {
            mine.extend_from_slice(&theirs);
        }
    }

    /// The batches, by destination rank, as [`Transport::exchange`] takes them.
    pub fn into_buffers(self) -> Vec<Vec<u8>> {
        self.buffers
    }
}

/// Reads one reference: the offset and the flag.
pub fn read_ref(bytes: &[u8]) -> (u64, bool) {
    let mut word = [0u8; 8];
    word[..REF_BYTES].copy_from_slice(&bytes[..REF_BYTES]);
    let word = u64::from_le_bytes(word);
    (word & (REF_FLAG - 1), word & REF_FLAG != 0)
}

/// Buffers by exchange number and source rank.
type EarlyBuffers = HashMap<(u64, usize), Vec<u8>>;

/// The ranks of a job as threads of one process, over channels: what the MPI transport does, for
/// tests. [`LocalTransport::job`] makes the endpoints; each thread uses one.
pub struct LocalTransport {
    rank: usize,
    peers: Vec<Sender<(u64, usize, Vec<u8>)>>,
    inbox: Receiver<(u64, usize, Vec<u8>)>,
    /// Buffers of exchanges this rank has not finished yet that arrived early (a fast rank may be
    /// exchanges ahead), and the number of this rank's next exchange.
    early: Mutex<(u64, EarlyBuffers)>,
}

impl LocalTransport {
    /// The endpoints of a job of `ranks` ranks.
    pub fn job(ranks: usize) -> Vec<LocalTransport> {
        let (senders, receivers): (Vec<_>, Vec<_>) = (0..ranks).map(|_| channel()).unzip();
        receivers
            .into_iter()
            .enumerate()
            .map(|(rank, inbox)| LocalTransport {
                rank,
                peers: senders.clone(),
                inbox,
                early: Mutex::new((0, HashMap::new())),
            })
            .collect()
    }
}

impl LocalTransport {
    fn gone() -> TransportError {
        TransportError("a rank of the in-process job is gone".into())
    }
}

impl Transport for LocalTransport {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.peers.len()
    }
    fn start(&self, outgoing: Vec<Vec<u8>>) -> Result<Ticket, TransportError> {
        if outgoing.len() != self.size() {
            return Err(TransportError(format!(
                "{} buffers for {} ranks",
                outgoing.len(),
                self.size()
            )));
        }
        let mut early = self.early.lock().map_err(|_| Self::gone())?;
        let round = early.0;
        early.0 += 1;
        for (peer, buffer) in self.peers.iter().zip(outgoing) {
            peer.send((round, self.rank, buffer))
                .map_err(|_| Self::gone())?;
        }
        Ok(Ticket(round))
    }
    fn finish(&self, ticket: Ticket) -> Result<Vec<Vec<u8>>, TransportError> {
        let round = ticket.0;
        let mut early = self.early.lock().map_err(|_| Self::gone())?;
        let mut got: Vec<Option<Vec<u8>>> = vec![None; self.size()];
        for (from, slot) in got.iter_mut().enumerate() {
            *slot = early.1.remove(&(round, from));
        }
        while got.iter().any(Option::is_none) {
            let (r, from, buffer) = self.inbox.recv().map_err(|_| Self::gone())?;
            if r == round {
                got[from] = Some(buffer);
            } else {
                early.1.insert((r, from), buffer);
            }
        }
        Ok(got.into_iter().map(Option::unwrap_or_default).collect())
    }
}

/// Runs `work` on every rank of an in-process job of `ranks` ranks, each on its own thread, and
/// returns the results by rank.
pub fn run_local<T: Send>(ranks: usize, work: impl Fn(&LocalTransport) -> T + Sync) -> Vec<T> {
    let endpoints = LocalTransport::job(ranks);
    std::thread::scope(|s| {
        let handles: Vec<_> = endpoints
            .into_iter()
            .map(|t| {
                let work = &work;
                s.spawn(move || work(&t))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank's thread panicked"))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board has exactly one owner, the ranges tile the level in order, and slices differ by
    /// at most one board, for awkward counts and more ranks than boards.
    #[test]
    fn slices_tile_the_level() {
        for count in [0u64, 1, 2, 7, 100, 4097, 1_000_003] {
            for ranks in 1..=9 {
                let s = Slices::new(count, ranks);
                let mut next = 0;
                for r in 0..ranks {
                    let range = s.range(r);
                    assert_eq!(range.start, next);
                    next = range.end;
                    let len = range.end - range.start;
                    assert!(len.abs_diff(count / ranks as u64) <= 1);
                    for i in [range.start, range.end.wrapping_sub(1)] {
                        if range.contains(&i) {
                            assert_eq!(s.owner(i), r, "count {count} ranks {ranks} board {i}");
                        }
                    }
                }
                assert_eq!(next, count);
                if count <= 4097 {
                    for i in 0..count {
                        assert!(s.range(s.owner(i)).contains(&i));
                    }
                }
            }
        }
    }

    /// References keep offset and flag through the batch, in order, per destination.
    #[test]
    fn batches_keep_references_in_order() {
        let mut out = Outbox::new(3);
        let refs = [
            (2, 0, false),
            (0, REF_FLAG - 1, true),
            (2, 12345, true),
            (1, 7, false),
        ];
        for &(to, offset, flag) in &refs {
            out.push(to, offset, flag);
        }
        let mut other = Outbox::new(3);
        other.push(2, 99, false);
        out.append(other);
        let buffers = out.into_buffers();
        let read = |b: &[u8]| {
            b.chunks(REF_BYTES)
                .map(read_ref)
                .collect::<Vec<(u64, bool)>>()
        };
        assert_eq!(read(&buffers[0]), vec![(REF_FLAG - 1, true)]);
        assert_eq!(read(&buffers[1]), vec![(7, false)]);
        assert_eq!(
            read(&buffers[2]),
            vec![(0, false), (12345, true), (99, false)]
        );
    }

    /// The in-process job delivers each buffer to its destination, by source, over many rounds in a
    /// row (ranks running ahead of each other) and with several exchanges in flight, and the
    /// collectives built on it agree.
    #[test]
    fn the_local_job_exchanges_and_reduces() {
        let results = run_local(4, |t| {
            let me = t.rank();
            let mut seen = Vec::new();
            for round in 0..50u8 {
                let outgoing = (0..t.size())
                    .map(|d| vec![me as u8, d as u8, round])
                    .collect();
                let got = t.exchange(outgoing).unwrap();
                for (from, b) in got.iter().enumerate() {
                    assert_eq!(b, &vec![from as u8, me as u8, round]);
                }
                seen.push(got.len());
            }
            // Started exchanges in flight while later ones start, finished in order.
            let tickets: Vec<Ticket> = (0..3u8)
                .map(|k| t.start(vec![vec![me as u8, k]; t.size()]).unwrap())
                .collect();
            for (k, ticket) in tickets.into_iter().enumerate() {
                let got = t.finish(ticket).unwrap();
                for (from, b) in got.iter().enumerate() {
                    assert_eq!(b, &vec![from as u8, k as u8]);
                }
            }
            let sum = all_sum(t, me as u64 + 1).unwrap();
            let max = all_max(t, me as u64 * 10).unwrap();
            let b = broadcast(t, &[me as u8 + 100]).unwrap();
            (seen.len(), sum, max, b)
        });
        for r in results {
            assert_eq!(r, (50, 10, 30, vec![100]));
        }
    }
}
