//! abapa's searches across ranks: after the slice solver, every rank gathers the whole level as the
//! solver left it (one byte per board) and searches the open boards of every `ranks`-th block of
//! [`SEARCH_BLOCK`](crate::in_level::SEARCH_BLOCK) boards (open boards crowd into parts of the index, so slices would share the
//! work badly), with the lower levels it holds whole (mapped or replicated); after each pass the
//! ranks send each other the entries that changed, so every rank reads the same level in the next
//! pass, and every decision between passes is taken on the whole level
//! ([`crate::refine::refine_shared`]).

use std::sync::Mutex;

use oware_egtb::index::LevelIndex;

use super::transport::{
    all_gather, all_max, read_ref, Outbox, Slices, Transport, TransportError, REF_BYTES,
};
use crate::in_level::Share;
use crate::refine::{refine_shared, SearchBudget};
use crate::LowerLevels;

/// Bytes of its slice a rank sends per exchange while the level is gathered: well under the 2 GiB
/// an MPI message can carry, and a bound on the buffers held at once.
const GATHER_PIECE: usize = 1 << 26;

/// Narrows the open entries of the level `index` by the searches `search` asks for, with the other
/// ranks, from this rank's slice `mine` as the solver left it; returns the slice's entries.
/// Collective.
pub(super) fn refine_slice(
    t: &dyn Transport,
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    mine: Vec<u8>,
    search: SearchBudget,
) -> Result<Vec<u8>, TransportError> {
    let slices = Slices::new(index.count(), t.size());
    let range = slices.range(t.rank());
    let mut entries = gather(t, &slices, &mine)?;
    drop(mine);
    let share = Ranks {
        t,
        before: Mutex::new(Vec::new()),
    };
    refine_shared(index, lower, &mut entries, search, &share)?;
    entries.truncate(range.end as usize);
    entries.drain(..range.start as usize);
    Ok(entries)
}

/// The whole level on every rank, from each rank's slice, a piece of each slice per exchange.
fn gather(t: &dyn Transport, slices: &Slices, mine: &[u8]) -> Result<Vec<u8>, TransportError> {
    let count = slices.range(slices.ranks() - 1).end as usize;
    let mut level = vec![0u8; count];
    let pieces = all_max(t, mine.len().div_ceil(GATHER_PIECE) as u64)? as usize;
    for p in 0..pieces {
        let from = (p * GATHER_PIECE).min(mine.len());
        let to = (from + GATHER_PIECE).min(mine.len());
        for (r, got) in all_gather(t, &mine[from..to])?.into_iter().enumerate() {
            let start = slices.range(r).start as usize + p * GATHER_PIECE;
            let end = start + got.len();
            if end > slices.range(r).end as usize {
                return Err(TransportError(format!(
                    "rank {r} sent more of its slice than it holds"
                )));
            }
            level[start..end].copy_from_slice(&got);
        }
    }
    Ok(level)
}

/// The ranks of a job sharing the search of a level.
struct Ranks<'a> {
    t: &'a dyn Transport,
    /// The level at the start of the pass.
    before: Mutex<Vec<u8>>,
}

impl Share for Ranks<'_> {
    type Error = TransportError;

    fn part(&self) -> (usize, usize) {
        (self.t.rank(), self.t.size())
    }

    fn before_pass(&self, entries: &[u8]) {
        *self.before.lock().expect("nothing panics holding it") = entries.to_vec();
    }

    /// Every rank sends every other its counts (16 bytes) and the entries it changed (the board's
    /// index in the level, [`REF_BYTES`] bytes, then the code).
    fn after_pass(
        &self,
        entries: &mut [u8],
        (exact, changed): (u64, u64),
    ) -> Result<(u64, u64), TransportError> {
        let before = std::mem::take(&mut *self.before.lock().expect("nothing panics holding it"));
        let mut out = Outbox::new(1);
        out.push_bytes(0, &exact.to_le_bytes());
        out.push_bytes(0, &changed.to_le_bytes());
        // Only this rank's boards changed here.
        for (i, (&now, &was)) in entries.iter().zip(&before).enumerate() {
            if now != was {
                out.push(0, i as u64, false);
                out.push_bytes(0, &[now]);
            }
        }
        let mine = out.into_buffers().swap_remove(0);
        let (mut all_exact, mut all_changed) = (0, 0);
        for (r, got) in all_gather(self.t, &mine)?.into_iter().enumerate() {
            let Some((counts, codes)) = got.split_first_chunk::<16>() else {
                return Err(TransportError(format!("rank {r} sent no counts")));
            };
            all_exact += u64::from_le_bytes(counts[..8].try_into().expect("8 bytes"));
            all_changed += u64::from_le_bytes(counts[8..].try_into().expect("8 bytes"));
            if r == self.t.rank() {
                continue;
            }
            if codes.len() % (REF_BYTES + 1) != 0 {
                return Err(TransportError("a truncated batch of entries".into()));
            }
            for item in codes.chunks(REF_BYTES + 1) {
                let (i, _) = read_ref(item);
                let slot = entries.get_mut(i as usize).ok_or_else(|| {
                    TransportError(format!("rank {r} sent an entry for board {i}"))
                })?;
                *slot = item[REF_BYTES];
            }
        }
        Ok((all_exact, all_changed))
    }
}
