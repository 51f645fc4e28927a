//! The transposition table: a fixed-size hash table of search results, shared by all search threads
//! without locks.
//!
//! Each bucket holds two slots: the first is *depth-preferred* (kept unless the new result is at least
//! as deep, or the old one is from an earlier search), the second is *always-replace* (takes whatever
//! the first refused, so recent results are not lost). A slot is one `AtomicU64`: the result in its
//! low 36 bits and 28 bits of the position's key above them, written and read whole, so two threads
//! writing at once never leave a slot that mixes two positions. Eight bytes a slot (a 16-byte bucket)
//! keep twice the results of a 16-byte slot in the same memory, and in the same cache.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use oware_rules::Move;

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (the search failed high).
    Lower,
    /// The true value is at most this (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub score: i16,
    pub depth: u8,
    pub mv: Option<Move>,
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    pub fn new(score: i16, depth: u8, mv: Option<Move>, bound: Bound) -> Entry {
        Entry {
            score,
            depth,
            mv,
            bound,
            generation: 0,
        }
    }

    // Layout: score 0..16, depth 16..24, move 24..28 (15 = none), bound 28..30, generation 30..36;
    // the key's check bits above (see `Slot`).
    fn pack(self) -> u64 {
        let mv = self.mv.map_or(15, |m| m.house() as u64);
        let bound = match self.bound {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        (self.score as u16 as u64)
            | (self.depth as u64) << 16
            | mv << 24
            | bound << 28
            | ((self.generation & 63) as u64) << 30
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 28) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None, // an empty slot
        };
        Some(Entry {
            score: data as u16 as i16,
            depth: (data >> 16) as u8,
            mv: Move::new(((data >> 24) & 15) as usize),
            bound,
            generation: ((data >> 30) & 63) as u8,
        })
    }
}

/// One result and the check bits of its key in one word (an empty slot is 0: no bound).
#[derive(Default)]
struct Slot(AtomicU64);

/// The result's bits in a slot; the rest check the key.
const DATA_BITS: u32 = 36;

impl Slot {
    /// The key bits a slot keeps: the low ones (the bucket is chosen by the high ones).
    #[inline]
    fn check(key: u64) -> u64 {
        key << DATA_BITS
    }

    #[inline]
    fn get(&self) -> (u64, u64) {
        let word = self.0.load(Ordering::Relaxed);
        (
            word >> DATA_BITS << DATA_BITS,
            word & ((1 << DATA_BITS) - 1),
        )
    }

    #[inline]
    fn read(&self, key: u64) -> Option<Entry> {
        let (check, data) = self.get();
        if check == Self::check(key) {
            Entry::unpack(data)
        } else {
            None
        }
    }

    #[inline]
    fn write(&self, check: u64, entry: Entry) {
        self.0.store(check | entry.pack(), Ordering::Relaxed);
    }
}

/// Bytes per bucket (two slots of one `u64`).
const BUCKET_BYTES: usize = 16;

/// The two slots of a bucket, aligned to their size so that a bucket never straddles two cache lines
/// (a large allocation starts 16 bytes past a page boundary: unaligned, some buckets would cost two
/// cache misses, and the prefetch would load only one of their lines).
#[derive(Default)]
#[repr(C, align(16))]
struct Bucket([Slot; 2]);

const _: () = assert!(std::mem::size_of::<Bucket>() == BUCKET_BYTES);

/// A transposition table of a given size.
pub struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    generation: AtomicU8,
}

impl Table {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets; at least 1 bucket).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.saturating_mul(1 << 20).max(BUCKET_BYTES);
        let mut count = 1usize << (usize::BITS - 1 - (bytes / BUCKET_BYTES).leading_zeros());
        let mut buckets: Vec<Bucket> = Vec::new();
        // Memory that cannot be had gives a smaller table, never an abort.
        while buckets.try_reserve_exact(count).is_err() && count > 1 {
            count /= 2;
        }
        advise_huge_pages(buckets.as_ptr() as usize, count * BUCKET_BYTES);
        buckets.resize_with(count, Default::default);
        // Zeroed memory may be mapped lazily; touch every page now so that the first search does not
        // pay the page faults (and timings measure the search).
        for bucket in buckets.iter().step_by(4096 / BUCKET_BYTES) {
            bucket.0[0].0.store(0, Ordering::Relaxed);
        }
        Table {
            buckets,
            mask: count - 1,
            generation: AtomicU8::new(0),
        }
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Default::default();
        }
        self.generation.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search: older entries become first candidates for replacement.
    pub fn new_search(&self) {
        // Six bits are enough to tell "this search" from "an earlier one".
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot; 2] {
        // The high bits pick the bucket, the low ones are checked in the slot: no bit does both.
        &self.buckets[(key >> 32) as usize & self.mask].0
    }

    /// Starts loading the bucket of `key` into the cache (a hint; no effect on results).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let bucket: *const [Slot; 2] = self.bucket(key);
            // SAFETY: a prefetch never faults and reads nothing observable; the pointer is valid.
            unsafe {
                std::arch::x86_64::_mm_prefetch(
                    bucket as *const i8,
                    std::arch::x86_64::_MM_HINT_T0,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored result for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [deep, recent] = self.bucket(key);
        deep.read(key).or_else(|| recent.read(key))
    }

    /// Stores a result for `key`.
    pub fn store(&self, key: u64, mut entry: Entry) {
        let generation = self.generation.load(Ordering::Relaxed);
        entry.generation = generation;
        let [deep, recent] = self.bucket(key);
        let check = Slot::check(key);
        let (deep_check, data) = deep.get();
        let same = deep_check == check;
        let old = Entry::unpack(data);
        let replace_deep = match old {
            None => true,
            Some(old) => {
                old.generation != generation
                    || entry.depth >= old.depth
                    || (same && entry.bound == Bound::Exact)
            }
        };
        if replace_deep {
            if same && entry.mv.is_none() {
                entry.mv = old.and_then(|o| o.mv);
            }
            // A different deep result pushed out goes to the always-replace slot rather than vanish.
            if let (false, Some(old)) = (same, old) {
                if old.generation == generation {
                    recent.write(deep_check, old);
                }
            }
            deep.write(check, entry);
        } else {
            recent.write(check, entry);
        }
    }

    /// Roughly how full the table is, in permille (sampled from the first buckets), as engines report.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(500);
        let generation = self.generation.load(Ordering::Relaxed);
        let used = self.buckets[..n]
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|s| Entry::unpack(s.get().1).is_some_and(|e| e.generation == generation))
            .count();
        (used * 1000 / (2 * n)) as u32
    }
}

/// Asks Linux to back the table with 2 MiB pages where it can: random probes over a large table
/// otherwise miss the TLB on nearly every access. Only a hint; nothing changes if it is refused.
#[cfg(target_os = "linux")]
fn advise_huge_pages(start: usize, len: usize) {
    const PAGE: usize = 4096;
    let begin = start.next_multiple_of(PAGE);
    let end = (start + len) / PAGE * PAGE;
    if end > begin {
        // SAFETY: the range lies inside the allocation just reserved (rounded inwards to whole
        // pages); MADV_HUGEPAGE changes how pages are backed, never their contents.
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pack_and_unpack() {
        for (score, mv, bound) in [
            (-30000i16, None, Bound::Upper),
            (123, Move::new(11), Bound::Exact),
            (-1, Move::new(0), Bound::Lower),
        ] {
            let e = Entry::new(score, 17, mv, bound);
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
        assert_eq!(Entry::unpack(0), None);
    }

    #[test]
    fn probe_finds_what_was_stored_and_nothing_else() {
        let table = Table::new(1);
        assert_eq!(table.bytes(), 1 << 20);
        let e = Entry::new(50, 4, Move::new(3), Bound::Exact);
        table.store(0xdead_beef_1234, e);
        assert_eq!(table.probe(0xdead_beef_1234), Some(e));
        assert_eq!(table.probe(0xdead_beef_1235), None);
    }

    #[test]
    fn deep_results_survive_shallow_ones_in_the_same_bucket() {
        let table = Table::new(0); // a single bucket: every key collides
        let deep = Entry::new(10, 12, Move::new(1), Bound::Exact);
        table.store(1, deep);
        table.store(2, Entry::new(20, 3, None, Bound::Lower));
        table.store(3, Entry::new(30, 2, None, Bound::Lower));
        assert_eq!(table.probe(1), Some(deep));
        assert_eq!(table.probe(3).unwrap().score, 30, "always-replace slot");
        assert_eq!(table.probe(2), None);
        // A new search ages the deep entry: the next result replaces it and it moves aside... only
        // within the same search; from an older search it is simply dropped.
        table.new_search();
        table.store(4, Entry::new(40, 1, None, Bound::Upper));
        assert_eq!(table.probe(4).unwrap().score, 40);
        assert_eq!(table.probe(1), None);
    }
}
