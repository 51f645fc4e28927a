//! The transposition table: a fixed-size hash table of search results, shared by all search threads
//! without locks.
//!
//! Each bucket holds two slots: the first is *depth-preferred* (kept unless the new result is at least
//! as deep, or the old one is from an earlier search), the second is *always-replace* (takes whatever
//! the first refused, so recent results are not lost). A slot is one `AtomicU64`: the result in its
//! low 36 bits and 28 bits of the position's key above them, written and read whole, so two threads
//! writing at once never leave a slot that mixes two positions. Eight bytes a slot (a 16-byte bucket)
//! keep twice the results of a 16-byte slot in the same memory, and in the same cache.
//!
//! A game starts with only the first mebibyte of the table in use, and the part in use doubles
//! whenever a search loses many of its own results to lack of room (see [`Table::grow_if_crowded`]).
//! A short search fills a small part of any table; spread over all of a large one, its results would
//! each sit on a cache line of their own, and nearly every probe would be a trip to memory. Kept
//! together, they stay in the processor's caches.
//!
//! Beside the buckets, two bytes per bucket hold eight key bits of each of its two slots (their
//! *tags*). Most probes find nothing, and the tags, an eighth of the table, stay in the caches:
//! a probe whose key's tag matches neither slot is answered from them, without waiting for the
//! bucket to come from memory (a key that is not there matches a tag about once in 128 probes).
//! The tags add an eighth to the table's memory.

use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, AtomicUsize, Ordering};

use oware_rules::Move;

/// What a stored score says about the true value.
// The discriminants are the slot's two bound bits (0 marks an empty slot), so that reading a slot
// takes no jump table: one indexed by bits of a random slot mispredicted more often than not (about
// 0.4 indirect mispredictions a node, by `valgrind --tool=callgrind --branch-sim=yes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// The true value.
    Exact = 1,
    /// The true value is at least this (the search failed high).
    Lower = 2,
    /// The true value is at most this (the search failed low).
    Upper = 3,
}

/// The bound of each value of a slot's two bound bits; 0 (an empty slot) is never looked up.
const BOUNDS: [Bound; 4] = [Bound::Exact, Bound::Exact, Bound::Lower, Bound::Upper];

/// One stored search result.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The score found, in centiseeds for the side to move.
    pub score: i16,
    /// The depth searched, in plies.
    pub depth: u8,
    /// The best move found, if any.
    pub mv: Option<Move>,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
    generation: u8,
}

impl Entry {
    /// An entry to store; the table stamps it with the current search's generation.
    pub fn new(score: i16, depth: u8, mv: Option<Move>, bound: Bound) -> Entry {
        Entry {
            score,
            depth,
            mv,
            bound,
            generation: 0,
        }
    }

    // Layout: score 0..16, depth 16..24, move 24..28 (`NO_MOVE` = none), bound 28..30, generation
    // 30..36 (the `*_SHIFT` constants); the key's check bits above (see `Slot`).
    fn pack(self) -> u64 {
        let mv = self.mv.map_or(NO_MOVE, |m| m.house() as u64);
        (self.score as u16 as u64)
            | (self.depth as u64) << DEPTH_SHIFT
            | mv << MOVE_SHIFT
            | (self.bound as u64) << BOUND_SHIFT
            | ((self.generation & 63) as u64) << GENERATION_SHIFT
    }

    fn unpack(data: u64) -> Option<Entry> {
        if !is_used(data) {
            return None; // an empty slot
        }
        Some(Entry {
            score: data as u16 as i16,
            depth: depth_of(data),
            mv: Move::new(((data >> MOVE_SHIFT) & NO_MOVE) as usize),
            bound: BOUNDS[bound_bits(data)],
            generation: generation_of(data),
        })
    }
}

/// One result and the check bits of its key in one word (an empty slot is 0: no bound).
#[derive(Default)]
struct Slot(AtomicU64);

/// The result's bits in a slot; the rest check the key.
const DATA_BITS: u32 = 36;
/// A slot's key check bits, in place.
const CHECK_MASK: u64 = !((1 << DATA_BITS) - 1);
/// Where a slot's fields start (see [`Entry::pack`]; the score is the low 16 bits).
const DEPTH_SHIFT: u32 = 16;
const MOVE_SHIFT: u32 = 24;
const BOUND_SHIFT: u32 = 28;
const GENERATION_SHIFT: u32 = 30;
/// The move field's value for "no move": all four bits set (houses are 0..12), so it is also the
/// field's mask.
const NO_MOVE: u64 = 15;
/// A slot's move bits.
const MOVE_MASK: u64 = NO_MOVE << MOVE_SHIFT;

/// A key's tag: eight of the bits a slot checks (its low ones), so that a slot's word tells its
/// key's tag too.
#[inline]
fn tag(key: u64) -> u8 {
    key as u8
}

/// The tags of a bucket's two slots, the first slot's in the low byte (an empty slot's word reads as
/// tag 0).
#[inline]
fn bucket_tags(deep: u64, recent: u64) -> u16 {
    u16::from(tag(deep >> DATA_BITS)) | u16::from(tag(recent >> DATA_BITS)) << 8
}

// A slot's fields read from its word (see `Entry::pack`), shared by `Entry::unpack` and the
// store, which decides on the raw words.

/// A slot's two bound bits (0: an empty slot).
#[inline]
fn bound_bits(word: u64) -> usize {
    (word >> BOUND_SHIFT) as usize & 3
}

/// A slot's depth.
#[inline]
fn depth_of(word: u64) -> u8 {
    (word >> DEPTH_SHIFT) as u8
}

/// A slot's search generation.
#[inline]
fn generation_of(word: u64) -> u8 {
    (word >> GENERATION_SHIFT) as u8 & 63
}

/// Whether a slot's word holds a result (an empty slot has no bound bits).
#[inline]
fn is_used(word: u64) -> bool {
    bound_bits(word) != 0
}

/// Whether a slot's word holds a result of search `generation`.
#[inline]
fn is_current(word: u64, generation: u8) -> bool {
    is_used(word) && generation_of(word) == generation
}

/// The bucket is chosen by the key's bits from 32 up, as many as the part in use needs:
/// `START_BUCKET_BITS` at the start of a game, up to `MAX_BUCKET_BITS` for the largest table.
const BUCKET_SHIFT: u32 = 32;
const START_BUCKET_BITS: u32 = 16;
const MAX_BUCKET_BITS: u32 = 28;
/// A slot keeps the key's low 16 bits and its bits `BUCKET_SHIFT + START_BUCKET_BITS ..
/// BUCKET_SHIFT + MAX_BUCKET_BITS`: the bucket bits that the part in use may come to need, so that
/// growing can move each result to its new bucket. The bits the current bucket already implies check
/// nothing, so a table of 2^n buckets checks 16 + (28 - n) bits (22 at 64 MiB; Stockfish checks 16).
const LOW_CHECK_BITS: u32 = 16;

impl Slot {
    /// The key bits a slot keeps, in place.
    #[inline]
    fn check(key: u64) -> u64 {
        let low = key & ((1 << LOW_CHECK_BITS) - 1);
        let growth = (key >> (BUCKET_SHIFT + START_BUCKET_BITS))
            & ((1 << (MAX_BUCKET_BITS - START_BUCKET_BITS)) - 1);
        (low | growth << LOW_CHECK_BITS) << DATA_BITS
    }

    /// Where a slot keeps the key's bucket bit `BUCKET_SHIFT + n` (for `n` from `START_BUCKET_BITS`).
    fn bucket_bit(n: u32) -> u32 {
        DATA_BITS + LOW_CHECK_BITS + n - START_BUCKET_BITS
    }

    #[inline]
    fn get(&self) -> (u64, u64) {
        let word = self.0.load(Ordering::Relaxed);
        (word & CHECK_MASK, word & !CHECK_MASK)
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

impl Bucket {
    /// The tags of the two slots as they are now.
    fn tags(&self) -> u16 {
        let [deep, recent] = &self.0;
        bucket_tags(
            deep.0.load(Ordering::Relaxed),
            recent.0.load(Ordering::Relaxed),
        )
    }
}

/// A transposition table of a given size.
pub struct Table {
    buckets: Vec<Bucket>,
    /// Two bytes per bucket: the tags (see [`tag`]) of its two slots, so that a probe for a key
    /// that neither slot can hold is answered without loading the bucket. An eighth of the
    /// table's size, it stays in the caches where the buckets do not.
    tags: Vec<AtomicU16>,
    /// The buckets in use, less one: a power of two of them, the first ones of `buckets`. Grows
    /// during a game and goes back to the start at [`Table::clear`].
    mask: AtomicUsize,
    generation: AtomicU8,
}

/// A search that loses results of its own to lack of room, as many as this fraction of the slots in
/// use, doubles them (see [`Table::grow_if_crowded`]).
const CROWDED_DIVISOR: u64 = 8;

impl Table {
    /// A table of at most `megabytes` MiB (rounded down to a power of two buckets; at least 1 bucket,
    /// at most 4 GiB).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.saturating_mul(1 << 20).max(BUCKET_BYTES);
        let mut count = (1usize << (usize::BITS - 1 - (bytes / BUCKET_BYTES).leading_zeros()))
            .min(1 << MAX_BUCKET_BITS);
        let mut buckets: Vec<Bucket> = Vec::new();
        let mut tags: Vec<AtomicU16> = Vec::new();
        // Memory that cannot be had gives a smaller table, never an abort.
        while (buckets.try_reserve_exact(count).is_err() || tags.try_reserve_exact(count).is_err())
            && count > 1
        {
            count /= 2;
        }
        advise_huge_pages(buckets.as_ptr() as usize, count * BUCKET_BYTES);
        buckets.resize_with(count, Default::default);
        // Zeroed memory may be mapped lazily; touch every page now so that the first search does not
        // pay the page faults (and timings measure the search).
        for bucket in buckets.iter().step_by(4096 / BUCKET_BYTES) {
            bucket.0[0].0.store(0, Ordering::Relaxed);
        }
        tags.resize_with(count, Default::default);
        Table {
            mask: AtomicUsize::new(Self::start_mask(count)),
            buckets,
            tags,
            generation: AtomicU8::new(0),
        }
    }

    fn start_mask(count: usize) -> usize {
        count.min(1 << START_BUCKET_BITS) - 1
    }

    /// Size in bytes (all of it, in use or not).
    pub fn bytes(&self) -> usize {
        self.buckets.len() * BUCKET_BYTES
    }

    /// Bytes in use now.
    pub fn bytes_in_use(&self) -> usize {
        (self.mask.load(Ordering::Relaxed) + 1) * BUCKET_BYTES
    }

    /// Forgets everything (a new game); only the first part of the table is in use again.
    pub fn clear(&mut self) {
        // Only the part in use was ever written since the table was made or last cleared.
        let in_use = *self.mask.get_mut() + 1;
        for bucket in &mut self.buckets[..in_use] {
            *bucket = Default::default();
        }
        for tags in &mut self.tags[..in_use] {
            *tags.get_mut() = 0;
        }
        self.generation.store(0, Ordering::Relaxed);
        *self.mask.get_mut() = Self::start_mask(self.buckets.len());
    }

    /// Doubles the part of the table in use (up to all of it) when a search has lost `lost` results
    /// of its own (see [`Table::store`]) to lack of room: an eighth as many as the slots in use.
    /// Returns whether the table grew (by this call, or by another thread's at the same moment),
    /// after which the caller counts its losses from zero. Each result moves
    /// to the bucket the larger part gives its key (a slot keeps the key bit that says which).
    pub fn grow_if_crowded(&self, lost: u64) -> bool {
        let mask = self.mask.load(Ordering::Relaxed);
        let slots = 2 * (mask as u64 + 1);
        if lost < slots / CROWDED_DIVISOR || mask + 1 == self.buckets.len() {
            return false;
        }
        // Two threads may both find the table crowded: only one doubles it. Another thread's
        // store into a bucket being moved may be lost or left where no probe looks: a result
        // missing, never a wrong one (the slot checks its key).
        if self
            .mask
            .compare_exchange(mask, 2 * mask + 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
        {
            let half = mask + 1;
            let moves_up = 1 << Slot::bucket_bit(half.trailing_zeros());
            let (lower, upper) = self.buckets.split_at(half);
            for (k, (from, to)) in lower.iter().zip(upper).enumerate() {
                for (slot, target) in from.0.iter().zip(&to.0) {
                    // Both words written, each the result or 0, by a mask rather than a branch:
                    // whether a result moves is its key's bit, a coin toss the branch mispredicted
                    // half the time. (The upper half is empty: nothing there is overwritten.)
                    let word = slot.0.load(Ordering::Relaxed);
                    let up = 0u64.wrapping_sub(u64::from(word & moves_up != 0));
                    target.0.store(word & up, Ordering::Relaxed);
                    slot.0.store(word & !up, Ordering::Relaxed);
                }
                self.tags[k].store(from.tags(), Ordering::Relaxed);
                self.tags[half + k].store(to.tags(), Ordering::Relaxed);
            }
        }
        true
    }

    /// Marks the start of a new search: older entries become first candidates for replacement.
    pub fn new_search(&self) {
        // Six bits are enough to tell "this search" from "an earlier one".
        let g = self.generation.load(Ordering::Relaxed);
        self.generation.store((g + 1) & 63, Ordering::Relaxed);
    }

    /// The bucket of `key` in the part in use.
    #[inline]
    fn index(&self, key: u64) -> usize {
        (key >> BUCKET_SHIFT) as usize & self.mask.load(Ordering::Relaxed)
    }

    /// The bucket of `key` and its tags, without bounds checks: the hot path makes three of these
    /// lookups a node (prefetch, probe, store), and the checks were two compares and branches each.
    #[inline]
    fn slot_of(&self, key: u64) -> (&Bucket, &AtomicU16) {
        let index = self.index(key);
        debug_assert!(index < self.buckets.len() && index < self.tags.len());
        // SAFETY: `mask` is always one less than a power of two no greater than the number of
        // buckets (set from `start_mask`, or doubled plus one only while the part in use is less
        // than all of it), so `index` is below it; `tags` has one entry per bucket.
        unsafe {
            (
                self.buckets.get_unchecked(index),
                self.tags.get_unchecked(index),
            )
        }
    }

    /// Starts loading the bucket of `key` and its tags into the cache (a hint; no effect on results).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let (bucket, tags) = self.slot_of(key);
            let bucket: *const Bucket = bucket;
            let tags: *const AtomicU16 = tags;
            // SAFETY: a prefetch never faults and reads nothing observable; the pointers are valid.
            unsafe {
                _mm_prefetch(tags as *const i8, _MM_HINT_T0);
                _mm_prefetch(bucket as *const i8, _MM_HINT_T0);
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The stored result for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let (bucket, tags) = self.slot_of(key);
        let tags = tags.load(Ordering::Relaxed);
        let tag = tag(key);
        if tags as u8 != tag && (tags >> 8) as u8 != tag {
            return None;
        }
        let [deep, recent] = &bucket.0;
        deep.read(key).or_else(|| recent.read(key))
    }

    /// Stores a result for `key`. Returns whether a result of this search for another position was
    /// lost to make room (the measure of a table too small for the search).
    ///
    /// The first slot keeps a result of this search unless the new one is at least as deep (or an
    /// exact value for the same position); what it refuses, or a different result of this search it
    /// pushes out, goes to the second. Both slots are written whole every time, each with its old
    /// word or its new one chosen by selects rather than branches: which way a store goes depends on
    /// a random old entry, and branches on it mispredicted.
    pub fn store(&self, key: u64, mut entry: Entry) -> bool {
        let generation = self.generation.load(Ordering::Relaxed);
        entry.generation = generation;
        let (bucket, tags) = self.slot_of(key);
        let [deep, recent] = &bucket.0;
        let check = Slot::check(key);
        let old_deep = deep.0.load(Ordering::Relaxed);
        let old_recent = recent.0.load(Ordering::Relaxed);
        let same = old_deep & CHECK_MASK == check;
        let deep_current = is_current(old_deep, generation);
        let replace_deep = !deep_current
            || entry.depth >= depth_of(old_deep)
            || (same && entry.bound == Bound::Exact);
        let mut new = check | entry.pack();
        if same && entry.mv.is_none() && is_used(old_deep) {
            // A result without a move keeps the one the position had.
            new = (new & !MOVE_MASK) | (old_deep & MOVE_MASK);
        }
        let push_aside = replace_deep && deep_current && !same;
        let (deep_word, recent_word, incoming_check) = if replace_deep {
            let recent_word = if push_aside { old_deep } else { old_recent };
            (new, recent_word, old_deep & CHECK_MASK)
        } else {
            (old_deep, new, check)
        };
        deep.0.store(deep_word, Ordering::Relaxed);
        recent.0.store(recent_word, Ordering::Relaxed);
        tags.store(bucket_tags(deep_word, recent_word), Ordering::Relaxed);
        (push_aside || !replace_deep)
            && is_current(old_recent, generation)
            && old_recent & CHECK_MASK != incoming_check
    }

    /// Roughly how full the part in use is, in permille (sampled from the first buckets), as engines
    /// report.
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

    #[test]
    fn growing_keeps_every_result_where_probes_find_it() {
        let mut table = Table::new(8);
        assert_eq!(
            table.bytes_in_use(),
            1 << 20,
            "a game starts with 1 MiB in use"
        );
        // Keys spread over all bucket bits (a multiplicative sequence).
        let keys: Vec<u64> = (1..=2000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let entry = |i: usize| Entry::new(i as i16, 5, Move::new(i % 6), Bound::Lower);
        for (i, &k) in keys.iter().enumerate() {
            table.store(k, entry(i));
        }
        let found = |t: &Table| {
            keys.iter()
                .enumerate()
                .filter(|&(i, &k)| t.probe(k) == Some(entry(i)))
                .count()
        };
        let before = found(&table);
        assert!(before > 1900, "{before}");
        assert!(!table.grow_if_crowded(10), "not crowded");
        assert!(table.grow_if_crowded(u64::MAX));
        assert_eq!(table.bytes_in_use(), 2 << 20);
        assert_eq!(
            found(&table),
            before,
            "every result moved to its new bucket"
        );
        assert!(table.grow_if_crowded(u64::MAX));
        assert!(table.grow_if_crowded(u64::MAX));
        assert_eq!(table.bytes_in_use(), 8 << 20);
        assert!(!table.grow_if_crowded(u64::MAX), "all of it is in use");
        assert_eq!(found(&table), before);
        table.clear();
        assert_eq!(table.bytes_in_use(), 1 << 20);
        assert_eq!(found(&table), 0);
    }
}
