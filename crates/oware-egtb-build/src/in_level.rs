//! abapa: the level being searched, as both searches ([`crate::path_search`] and
//! [`crate::pn_search`]) read it and narrow it: the solver's codes with the few that searches changed.

use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{decode, encode, read_code, width_of, write_code, Bounds, Code, Codes};
use oware_rules::RuleSet;
use rayon::prelude::*;

/// The level being searched with the bounds the threshold solver left on it (one code per board, see
/// [`oware_egtb::values::encode`]).
#[derive(Clone, Copy)]
pub struct InLevel<'a> {
    /// The level's index.
    pub index: &'a LevelIndex,
    /// One code per board of the index, as the threshold solver left them.
    pub entries: Codes<'a>,
    /// Codes that replace some of `entries` (most often none).
    pub changed: Option<&'a Overlay>,
}

impl<'a> InLevel<'a> {
    /// The level as the solver left it (`entries`: one or two bytes per board of `index`), with no
    /// changed codes.
    pub fn new(index: &'a LevelIndex, entries: &'a [u8]) -> InLevel<'a> {
        InLevel {
            index,
            entries: codes_of(index, entries),
            changed: None,
        }
    }

    /// The code of the board of index `rank`.
    #[inline]
    pub(crate) fn code(&self, rank: u64) -> Code {
        self.changed
            .and_then(|o| o.get(rank))
            .unwrap_or_else(|| self.entries.get(rank as usize))
    }

    pub(crate) fn bounds(&self, board: &Board) -> Option<Bounds> {
        let i = self.index.rank(board)?;
        decode(RuleSet::Abapa, self.index.seeds(), self.code(i))
    }
}

/// The entries of a level that differ from another version of it, found in constant time: a bit per
/// board says whether it has a code here, and a running count per 64 boards says where it is. A few
/// changed entries cost about 0.2 bytes per board, much less than a second copy of the level.
pub struct Overlay {
    bits: Vec<u64>,
    /// Codes before each word of `bits`.
    before: Vec<u32>,
    codes: Vec<Code>,
}

/// The entries of a level of `index` as codes: one or two bytes per board, as their length says.
pub fn codes_of<'a>(index: &LevelIndex, entries: &'a [u8]) -> Codes<'a> {
    let width = width_of(entries.len(), index.count()).unwrap_or_else(|| {
        panic!(
            "{} bytes of entries for the {} boards of level {}",
            entries.len(),
            index.count(),
            index.seeds()
        )
    });
    Codes::new(entries, width)
}

impl Overlay {
    /// The entries of `now` that differ from `base` (two versions of one level, of one width).
    pub fn diff(now: Codes, base: Codes) -> Overlay {
        assert_eq!(now.len(), base.len(), "two versions of one level");
        let words = now.len().div_ceil(64);
        let mut bits = vec![0u64; words];
        let mut before = Vec::with_capacity(words);
        let mut codes = Vec::new();
        for (w, word) in bits.iter_mut().enumerate() {
            before.push(codes.len() as u32);
            let range = w * 64..(w * 64 + 64).min(now.len());
            for (b, (n, o)) in now
                .slice(range.clone())
                .iter()
                .zip(base.slice(range).iter())
                .enumerate()
            {
                if n != o {
                    *word |= 1 << b;
                    codes.push(n);
                }
            }
        }
        Overlay {
            bits,
            before,
            codes,
        }
    }

    #[inline]
    pub(crate) fn get(&self, rank: u64) -> Option<Code> {
        let (w, b) = ((rank / 64) as usize, rank % 64);
        let word = self.bits[w];
        if word >> b & 1 == 0 {
            return None;
        }
        let below = (word & ((1u64 << b) - 1)).count_ones() as usize;
        Some(self.codes[self.before[w] as usize + below])
    }
}

/// The seeds on the mover's row (South's houses: boards are seen by their mover).
pub(crate) fn row(board: &Board) -> i8 {
    board[..6].iter().map(|&v| v as i8).sum()
}

/// How many of a level's entries are not exact.
pub fn open_entries(seeds: usize, entries: Codes) -> u64 {
    entries
        .iter()
        .filter(|&code| decode(RuleSet::Abapa, seeds, code).is_some_and(|b| !b.is_exact()))
        .count() as u64
}

/// How the processes that search a level share the work: each narrows the boards of every n-th
/// block of [`SEARCH_BLOCK`] boards (open boards crowd into parts of a level, so interleaved blocks
/// share the work more evenly than ranges) and, after each pass, learns what the others narrowed. Each search reads the level as it was at
/// the start of the pass, and a board's result depends only on that and the board, so the entries
/// do not depend on how the boards are split.
pub trait Share {
    /// What can stop the sharing.
    type Error;
    /// `(i, n)`: this process narrows the boards of the blocks `b` with `b % n == i` (block `b`
    /// holds the boards `b * SEARCH_BLOCK` on).
    fn part(&self) -> (usize, usize);
    /// Called before each pass with the whole level.
    fn before_pass(&self, entries: &[u8]);
    /// Called after each pass with the whole level, this process's boards narrowed, and its counts
    /// of entries that became exact and that changed: brings the other processes' boards up to
    /// date and returns the counts of all processes together.
    fn after_pass(&self, entries: &mut [u8], counts: (u64, u64))
        -> Result<(u64, u64), Self::Error>;
}

/// One process searches the whole level.
pub struct WholeLevel;

impl Share for WholeLevel {
    type Error = std::convert::Infallible;
    fn part(&self) -> (usize, usize) {
        (0, 1)
    }
    fn before_pass(&self, _: &[u8]) {}
    fn after_pass(&self, _: &mut [u8], counts: (u64, u64)) -> Result<(u64, u64), Self::Error> {
        Ok(counts)
    }
}

/// One pass over the entries that `share` gives this process: [`narrow_open_entries`] between
/// [`Share::before_pass`] and [`Share::after_pass`]; returns the counts of all processes.
pub fn shared_pass<S: Share>(
    index: &LevelIndex,
    entries: &mut [u8],
    share: &S,
    narrow: impl Fn(&Board, Bounds) -> Option<Bounds> + Sync,
) -> Result<(u64, u64), S::Error> {
    share.before_pass(entries);
    let (i, n) = share.part();
    let counts = narrow_open_entries(index, entries, |block| block % n == i, narrow);
    share.after_pass(entries, counts)
}

/// Boards per block of the searches: small, since a few boards of a level can take most of its
/// time, both for the threads of a process and for the processes sharing a level.
pub const SEARCH_BLOCK: usize = 1 << 6;

/// Hands every entry of the level's `entries` that is not exact and lies in a block of
/// [`SEARCH_BLOCK`] boards that `mine` accepts, with its bounds, to `narrow`, in parallel, and
/// stores the narrower bounds it returns; returns how many entries became exact and how many
/// changed. (The searches read the level through a copy taken before the pass, since the entries
/// change under them.)
pub fn narrow_open_entries(
    index: &LevelIndex,
    entries: &mut [u8],
    mine: impl Fn(usize) -> bool + Sync,
    narrow: impl Fn(&Board, Bounds) -> Option<Bounds> + Sync,
) -> (u64, u64) {
    let seeds = index.seeds();
    let width = codes_of(index, entries).width();
    entries
        .par_chunks_mut(SEARCH_BLOCK * width)
        .enumerate()
        .filter(|(c, _)| mine(*c))
        .map(|(c, chunk)| {
            let start = (c * SEARCH_BLOCK) as u64;
            let (mut exact, mut changed) = (0, 0);
            for (entry, board) in chunk.chunks_exact_mut(width).zip(index.iter_from(start)) {
                let Some(known) = decode(RuleSet::Abapa, seeds, read_code(entry)) else {
                    continue;
                };
                if known.is_exact() {
                    continue;
                }
                if let Some(b) = narrow(&board, known) {
                    if b != known {
                        write_code(entry, encode(RuleSet::Abapa, b));
                        exact += b.is_exact() as u64;
                        changed += 1;
                    }
                }
            }
            (exact, changed)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An overlay hands back the newer version's code wherever the two versions differ, and nothing
    /// elsewhere, across word boundaries and a ragged last word, for entries of either width.
    #[test]
    fn an_overlay_finds_every_changed_entry() {
        for (width, high) in [(1, 200), (2, 1000)] {
            let base: Vec<Code> = (0..1000).map(|i| i * 7 % 13).collect();
            let mut now = base.clone();
            for r in [0, 1, 63, 64, 65, 127, 500, 998, 999] {
                now[r] = high + (r % 50) as Code;
            }
            let bytes = |codes: &[Code]| {
                let mut b = vec![0u8; codes.len() * width];
                for (e, &c) in b.chunks_exact_mut(width).zip(codes) {
                    write_code(e, c);
                }
                b
            };
            let (now_bytes, base_bytes) = (bytes(&now), bytes(&base));
            let overlay = Overlay::diff(
                Codes::new(&now_bytes, width),
                Codes::new(&base_bytes, width),
            );
            for (r, (&n, &b)) in now.iter().zip(&base).enumerate() {
                assert_eq!(overlay.get(r as u64), (n != b).then_some(n), "rank {r}");
            }
        }
    }
}
