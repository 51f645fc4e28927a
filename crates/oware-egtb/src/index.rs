//! Combinatorial indexing of boards: every board with `k` seeds in the 12 houses, the mover's row in
//! houses 0..6 (South), gets a dense rank in `0..count`, with unranking and fast in-order iteration.
//!
//! A board is split into the mover's row (houses 0..6, `a` seeds) and the other row (houses 6..12,
//! `b = k - a` seeds). The index orders boards by `a`, then by the rank of the mover's row among the
//! compositions of `a` into six houses, then by the rank of the other row. Each row is ranked in the
//! colexicographic order of its "bars" (stars and bars), which has a closed form: a sum of five
//! binomials.
//!
//! The *compact* index (Romein & Bal's) leaves out boards where the side that has just moved (the other
//! row, houses 6..12) has no empty house: a move always empties the house it sows from, so those boards
//! can only occur as a game's first position.

/// A board with the mover's row in houses 0..6 and the opponent's in 6..12.
pub type Board = [u8; 12];

/// The highest seed count a level can have.
pub const MAX_SEEDS: usize = 48;

const BINOM_ROWS: usize = 64;

const fn binomial_table() -> [[u64; 13]; BINOM_ROWS] {
    let mut t = [[0u64; 13]; BINOM_ROWS];
    let mut n = 0;
    while n < BINOM_ROWS {
        t[n][0] = 1;
        let mut r = 1;
        while r < 13 {
            if n > 0 {
                t[n][r] = t[n - 1][r - 1] + t[n - 1][r];
            }
            r += 1;
        }
        n += 1;
    }
    t
}

static BINOM: [[u64; 13]; BINOM_ROWS] = binomial_table();

/// The binomial coefficient C(n, r), 0 when `n < r` or `n < 0`; `r` up to 12, `n` up to 63.
#[inline]
pub fn binomial(n: i64, r: usize) -> u64 {
    if n < 0 || (n as usize) < r {
        0
    } else {
        BINOM[n as usize][r]
    }
}

/// Number of boards with `k` seeds in 12 houses: C(k+11, 11).
pub fn boards_with_seeds(k: usize) -> u64 {
    binomial(k as i64 + 11, 11)
}

/// Ways to put `b` seeds in six houses.
#[inline]
fn row_count(b: usize) -> u64 {
    binomial(b as i64 + 5, 5)
}

/// Ways to put `b` seeds in six houses leaving at least one house empty.
#[inline]
fn row_count_with_empty(b: usize) -> u64 {
    row_count(b) - binomial(b as i64 - 1, 5)
}

/// Colexicographic rank of a row among the compositions of its seed count into six houses.
#[inline]
fn row_rank(h: &[u8]) -> u64 {
    let mut sum = 0i64;
    let mut r = 0;
    for (i, &v) in h[..5].iter().enumerate() {
        sum += v as i64;
        r += binomial(sum + i as i64, i + 1);
    }
    r
}

/// How many rows with every house non-empty come before `h` (same seed count) in colex order.
#[inline]
fn full_rows_before(h: &[u8]) -> u64 {
    let mut pos = [0i64; 5];
    let mut sum = 0i64;
    for i in 0..5 {
        sum += h[i] as i64;
        pos[i] = sum + i as i64;
    }
    let mut before = 0;
    for i in (0..5).rev() {
        // Rows agreeing with `h` above bar i can only be full if the houses fixed there are.
        if i < 4 && h[i + 2] == 0 {
            break;
        }
        before += binomial(pos[i] - i as i64 - 1, i + 1);
    }
    before
}

/// The rank of a row in the order used by this index (`need_empty`: among rows with an empty house).
#[inline]
fn row_rank_in(h: &[u8], need_empty: bool) -> u64 {
    if need_empty {
        row_rank(h) - full_rows_before(h)
    } else {
        row_rank(h)
    }
}

/// The row of `b` seeds with rank `r` (the inverse of [`row_rank_in`]), house by house from the most
/// significant (house 5) down, counting the rows under each choice.
fn row_unrank(mut r: u64, b: usize, need_empty: bool) -> [u8; 6] {
    let mut h = [0u8; 6];
    let mut rem = b;
    let mut have_empty = false;
    for j in (1..6).rev() {
        // Colex order puts the largest value of house j first.
        let mut v = rem;
        loop {
            let m = rem - v;
            let all = binomial(m as i64 + j as i64 - 1, j - 1);
            let count = if need_empty && !have_empty && v != 0 {
                // The houses below j must contain an empty one.
                all - binomial(m as i64 - 1, j - 1)
            } else {
                all
            };
            if r < count || v == 0 {
                break;
            }
            r -= count;
            v -= 1;
        }
        h[j] = v as u8;
        have_empty |= v == 0;
        rem -= v;
    }
    h[0] = rem as u8;
    h
}

/// The next row in colex order with the same seed count, or `false` after the last.
#[inline]
fn row_next(h: &mut [u8]) -> bool {
    let mut sum = 0u8;
    for i in 0..5 {
        sum += h[i];
        if h[i + 1] > 0 {
            for v in &mut h[..i] {
                *v = 0;
            }
            h[i] = sum + 1;
            h[i + 1] -= 1;
            return true;
        }
    }
    false
}

/// The first row in colex order: every seed in the last house.
fn row_first(b: usize) -> [u8; 6] {
    let mut h = [0u8; 6];
    h[5] = b as u8;
    h
}

/// Which index a level uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IndexKind {
    /// Every board of the level.
    Full,
    /// Leaves out boards where the side that has just moved has no empty house.
    Compact,
}

/// The index of one level: every board with `seeds` seeds (under `kind`), ranked densely.
#[derive(Debug, Clone)]
pub struct LevelIndex {
    seeds: usize,
    kind: IndexKind,
    /// `offsets[a]`: the rank of the first board whose mover's row holds `a` seeds.
    offsets: Vec<u64>,
    count: u64,
}

impl LevelIndex {
    /// The index of the level with `seeds` seeds (0..=48).
    pub fn new(seeds: usize, kind: IndexKind) -> LevelIndex {
        assert!(seeds <= MAX_SEEDS, "a level holds at most 48 seeds");
        let mut offsets = Vec::with_capacity(seeds + 2);
        let mut total = 0u64;
        for a in 0..=seeds {
            offsets.push(total);
            total += row_count(a) * Self::other_rows(kind, seeds - a);
        }
        offsets.push(total);
        LevelIndex {
            seeds,
            kind,
            offsets,
            count: total,
        }
    }

    #[inline]
    fn other_rows(kind: IndexKind, b: usize) -> u64 {
        match kind {
            IndexKind::Full => row_count(b),
            IndexKind::Compact => row_count_with_empty(b),
        }
    }

    /// Seeds on every board of this level.
    pub fn seeds(&self) -> usize {
        self.seeds
    }

    /// Which boards the index leaves out.
    pub fn kind(&self) -> IndexKind {
        self.kind
    }

    /// Number of boards in the index.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The rank of `board`, or `None` when the board is not in this index (wrong seed count, or left
    /// out by the compact index).
    #[inline]
    pub fn rank(&self, board: &Board) -> Option<u64> {
        let a: usize = board[..6].iter().map(|&v| v as usize).sum();
        let b: usize = board[6..].iter().map(|&v| v as usize).sum();
        if a + b != self.seeds {
            return None;
        }
        let need_empty = self.kind == IndexKind::Compact;
        if need_empty && board[6..].iter().all(|&v| v != 0) {
            return None;
        }
        Some(
            self.offsets[a]
                + row_rank(&board[..6]) * Self::other_rows(self.kind, b)
                + row_rank_in(&board[6..], need_empty),
        )
    }

    /// The board with rank `index`, or `None` when `index >= count()`.
    pub fn unrank(&self, index: u64) -> Option<Board> {
        if index >= self.count {
            return None;
        }
        // The last a whose block starts at or before `index` (blocks are never empty).
        let a = self.offsets.partition_point(|&o| o <= index) - 1;
        let b = self.seeds - a;
        let within = index - self.offsets[a];
        let others = Self::other_rows(self.kind, b);
        let mover = row_unrank(within / others, a, false);
        let other = row_unrank(within % others, b, self.kind == IndexKind::Compact);
        let mut board = [0u8; 12];
        board[..6].copy_from_slice(&mover);
        board[6..].copy_from_slice(&other);
        Some(board)
    }

    /// Iterates over the boards from rank `start` on, in rank order.
    pub fn iter_from(&self, start: u64) -> BoardIter<'_> {
        BoardIter {
            index: self,
            board: self.unrank(start),
        }
    }
}

/// The boards of a level in rank order.
pub struct BoardIter<'a> {
    index: &'a LevelIndex,
    board: Option<Board>,
}

impl Iterator for BoardIter<'_> {
    type Item = Board;

    #[inline]
    fn next(&mut self) -> Option<Board> {
        let current = self.board?;
        let mut b = current;
        let need_empty = self.index.kind == IndexKind::Compact;
        // Next other row (skipping full rows in the compact index), then next mover's row, then more
        // seeds on the mover's side.
        let (mover, other) = b.split_at_mut(6);
        let mut advanced = false;
        while row_next(other) {
            if !need_empty || other.contains(&0) {
                advanced = true;
                break;
            }
        }
        if !advanced {
            let b_seeds: u8 = other.iter().sum();
            let first = row_first(b_seeds as usize);
            other.copy_from_slice(&first);
            if !row_next(mover) {
                let a: usize = mover.iter().map(|&v| v as usize).sum();
                if a == self.index.seeds {
                    self.board = None;
                    return Some(current);
                }
                mover.copy_from_slice(&row_first(a + 1));
                other.copy_from_slice(&row_first(self.index.seeds - a - 1));
            }
        }
        self.board = Some(b);
        Some(current)
    }
}

/// The board seen from the other side: the rows swap places.
#[inline]
pub fn rotate(board: &Board) -> Board {
    let mut r = [0u8; 12];
    r[..6].copy_from_slice(&board[6..]);
    r[6..].copy_from_slice(&board[..6]);
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of `k` seeds, by brute force.
    fn all_boards(k: usize) -> Vec<Board> {
        let mut out = Vec::new();
        let mut b = [0u8; 12];
        fn rec(b: &mut Board, i: usize, left: usize, out: &mut Vec<Board>) {
            if i == 11 {
                b[11] = left as u8;
                out.push(*b);
                return;
            }
            for v in 0..=left {
                b[i] = v as u8;
                rec(b, i + 1, left - v, out);
            }
        }
        rec(&mut b, 0, k, &mut out);
        out
    }

    #[test]
    fn counts_match_the_formulas() {
        for k in 0..=MAX_SEEDS {
            let full = LevelIndex::new(k, IndexKind::Full);
            assert_eq!(full.count(), boards_with_seeds(k), "k={k}");
            let compact = LevelIndex::new(k, IndexKind::Compact);
            let left_out = binomial(k as i64 + 5, 11);
            assert_eq!(compact.count(), boards_with_seeds(k) - left_out, "k={k}");
        }
        // All levels: C(60, 12).
        let all: u64 = (0..=MAX_SEEDS).map(boards_with_seeds).sum();
        assert_eq!(all, 1_399_358_844_975);
        // Romein & Bal: the compact levels 0..=46 and 48, plus the start position.
        let rb: u64 = (0..=46)
            .chain([48])
            .map(|k| LevelIndex::new(k, IndexKind::Compact).count())
            .sum();
        assert_eq!(rb + 1, 889_063_398_406);
    }

    #[test]
    fn rank_is_a_bijection_in_iteration_order() {
        for kind in [IndexKind::Full, IndexKind::Compact] {
            for k in 0..=7 {
                let index = LevelIndex::new(k, kind);
                let mut seen = vec![false; index.count() as usize];
                for board in all_boards(k) {
                    let excluded = kind == IndexKind::Compact && board[6..].iter().all(|&v| v > 0);
                    match index.rank(&board) {
                        None => assert!(excluded, "{board:?}"),
                        Some(r) => {
                            assert!(!excluded);
                            assert!(!seen[r as usize], "rank {r} twice");
                            seen[r as usize] = true;
                            assert_eq!(index.unrank(r), Some(board));
                        }
                    }
                }
                assert!(seen.iter().all(|&s| s), "kind {kind:?} k={k}");
                // Iteration visits ranks 0, 1, 2, ... in order.
                let mut n = 0u64;
                for board in index.iter_from(0) {
                    assert_eq!(index.rank(&board), Some(n));
                    n += 1;
                }
                assert_eq!(n, index.count());
                assert!(index.unrank(index.count()).is_none());
            }
        }
    }

    #[test]
    fn large_levels_round_trip() {
        for kind in [IndexKind::Full, IndexKind::Compact] {
            let index = LevelIndex::new(48, kind);
            let mut x = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..2000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let r = x % index.count();
                let board = index.unrank(r).unwrap();
                assert_eq!(board.iter().map(|&v| v as usize).sum::<usize>(), 48);
                assert_eq!(index.rank(&board), Some(r));
                let mut it = index.iter_from(r);
                it.next();
                if let Some(next) = it.next() {
                    assert_eq!(index.rank(&next), Some(r + 1));
                }
            }
        }
        // The start position is left out of the compact index.
        assert!(LevelIndex::new(48, IndexKind::Compact)
            .rank(&[4; 12])
            .is_none());
    }
}
