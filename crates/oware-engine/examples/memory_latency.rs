//! Measures how long one random read takes on this machine for working sets of 1 to 64 MiB: each
//! read is a cache line whose address the previous read gave (so none can start early), on 2 MiB
//! pages where Linux grants them, as the transposition table's. This is the price of a table probe
//! that misses the caches, and the size at which a table leaves them. On the shared machines of
//! docs/benchmarks.md reads cost 8–28 ns up to somewhere between 2 and 8 MiB and
//! 100–230 ns beyond, the edge moving with what else runs there: a search whose table grows to 8 MiB
//! pays the higher price, when it does, on nearly every probe the prefetch has not covered.
//!
//! ```text
//! cargo run --release -p oware-engine --example memory_latency
//! ```

use std::time::Instant;

/// Words per 64-byte cache line.
const LINE_WORDS: usize = 8;
/// Reads timed per working set.
const READS: usize = 20_000_000;

fn main() {
    println!("working set   ns per read");
    for mebibytes in [1, 2, 4, 8, 16, 32, 64] {
        let lines = mebibytes * (1 << 20) / (8 * LINE_WORDS);
        let chain = random_cycle(lines);
        let start = Instant::now();
        let mut line = 0;
        for _ in 0..READS {
            line = chain[line * LINE_WORDS] as usize;
        }
        let ns = start.elapsed().as_nanos() as f64 / READS as f64;
        // Printing the last line read keeps the loop from being optimised away.
        println!("{mebibytes:>6} MiB   {ns:>11.1}   (ended on line {line})");
    }
}

/// `lines` cache lines, the first word of each holding the next line of one random cycle through all
/// of them (Sattolo's shuffle, from a fixed seed): following it visits every line once per lap, in an
/// order no hardware prefetcher can guess.
fn random_cycle(lines: usize) -> Vec<u64> {
    let mut words: Vec<u64> = Vec::with_capacity(lines * LINE_WORDS);
    advise_huge_pages(&words);
    words.resize(lines * LINE_WORDS, 0);
    let mut order: Vec<usize> = (0..lines).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for i in (1..lines).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        order.swap(i, (state % i as u64) as usize);
    }
    for (k, &from) in order.iter().enumerate() {
        words[from * LINE_WORDS] = order[(k + 1) % lines] as u64;
    }
    words
}

/// Asks for 2 MiB pages over the vector's reserved memory before it is touched (as the table does;
/// without them, TLB misses would add to every read of a large working set).
#[cfg(target_os = "linux")]
fn advise_huge_pages(words: &Vec<u64>) {
    const PAGE: usize = 4096;
    let start = words.as_ptr() as usize;
    let begin = start.next_multiple_of(PAGE);
    let end = (start + words.capacity() * 8) / PAGE * PAGE;
    if end > begin {
        // SAFETY: the range lies inside the vector's allocation; the advice changes how its pages
        // are backed, never their contents.
        unsafe {
            libc::madvise(begin as *mut libc::c_void, end - begin, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_words: &Vec<u64>) {}
