//! What a database entry means, how it is stored (a code of one or two bytes), and the game moves seen
//! from the database's side: boards with the mover in houses 0..6, play that ignores the stores.
//!
//! Units:
//! - awari: the seed difference the mover gains over the seeds still on the board (-k..=k), a cycle
//!   worth 0; always exact.
//! - abapa: the seeds (0..=k) of the board that the mover ends up with when play starts here with no
//!   earlier history; a pair of bounds `lo..=hi`, exact when they meet.

use oware_rules::{PackedPosition, RuleSet};

use crate::index::{Board, IndexKind};

/// The highest abapa level whose entries fit in one byte: both bounds share it (see [`encode`]), and
/// the `(k + 1)(k + 2) / 2` pairs `lo <= hi <= k` of level 21 are 253. Higher levels take two bytes
/// an entry ([`entry_width`]).
pub const ABAPA_NARROW_MAX: usize = 21;

/// The highest level an abapa database can have: every level the index has.
pub const ABAPA_MAX_SEEDS: usize = 48;

/// The highest level an awari file can hold.
pub const AWARI_MAX_SEEDS: usize = 48;

/// The value of a board, or the bounds known for it, in the rule set's units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// The lower bound: the mover gets at least this.
    pub lo: i8,
    /// The upper bound: the mover gets at most this.
    pub hi: i8,
}

impl Bounds {
    /// Bounds that pin the value `v` exactly.
    pub const fn exact(v: i8) -> Bounds {
        Bounds { lo: v, hi: v }
    }

    /// Whether the bounds meet, that is, the value is known.
    pub const fn is_exact(self) -> bool {
        self.lo == self.hi
    }
}

/// The index each rule set's files use.
pub const fn index_kind(rules: RuleSet) -> IndexKind {
    match rules {
        RuleSet::Awari => IndexKind::Compact,
        RuleSet::Abapa => IndexKind::Full,
    }
}

/// The highest level a database of `rules` can have.
pub const fn max_level(rules: RuleSet) -> usize {
    match rules {
        RuleSet::Awari => AWARI_MAX_SEEDS,
        RuleSet::Abapa => ABAPA_MAX_SEEDS,
    }
}

/// The code of an entry: one byte on disk for every awari level and abapa levels up to
/// [`ABAPA_NARROW_MAX`], two (little-endian) above.
pub type Code = u16;

/// Bytes an entry of level `seeds` takes when written as narrow as its codes allow: 1, or 2 for
/// abapa levels above [`ABAPA_NARROW_MAX`], whose pairs of bounds outnumber the values of a byte.
/// Files and levels in memory may also hold a level wider than this (a test builds small levels
/// wide); readers take the width from the file's header or the length of the entries.
pub const fn entry_width(rules: RuleSet, seeds: usize) -> usize {
    match rules {
        RuleSet::Abapa if seeds > ABAPA_NARROW_MAX => 2,
        _ => 1,
    }
}

/// The widest entry any level has.
pub const MAX_ENTRY_WIDTH: usize = 2;

/// The code of one entry, stored in `entry.len()` bytes (1 or 2, little-endian).
#[inline]
pub fn read_code(entry: &[u8]) -> Code {
    match *entry {
        [b] => b as Code,
        [lo, hi] => Code::from_le_bytes([lo, hi]),
        _ => panic!("entries are 1 or 2 bytes, not {}", entry.len()),
    }
}

/// Stores `code` in the `entry.len()` bytes of one entry (1 or 2, little-endian); the code must fit.
#[inline]
pub fn write_code(entry: &mut [u8], code: Code) {
    match entry {
        [b] => *b = u8::try_from(code).expect("a code that fits a one-byte entry"),
        [lo, hi] => [*lo, *hi] = code.to_le_bytes(),
        _ => panic!("entries are 1 or 2 bytes, not {}", entry.len()),
    }
}

/// The entries of a level in index order as bytes, `width` bytes an entry.
#[derive(Debug, Clone, Copy)]
pub struct Codes<'a> {
    bytes: &'a [u8],
    width: usize,
}

impl<'a> Codes<'a> {
    /// `bytes` read as entries of `width` bytes (1 or 2); the length must be a multiple of it.
    pub fn new(bytes: &'a [u8], width: usize) -> Codes<'a> {
        assert!(
            (1..=MAX_ENTRY_WIDTH).contains(&width) && bytes.len().is_multiple_of(width),
            "{} bytes are not entries of {width} bytes",
            bytes.len()
        );
        Codes { bytes, width }
    }

    /// Bytes an entry.
    pub fn width(&self) -> usize {
        self.width
    }

    /// The entries' bytes.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / self.width
    }

    /// Whether there is no entry.
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// Entry `i`.
    #[inline]
    pub fn get(&self, i: usize) -> Code {
        match self.width {
            1 => self.bytes[i] as Code,
            _ => read_code(&self.bytes[i * 2..i * 2 + 2]),
        }
    }

    /// The entries in order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = Code> + 'a {
        self.bytes.chunks_exact(self.width).map(read_code)
    }

    /// The entries `range` (by entry, not byte).
    pub fn slice(&self, range: std::ops::Range<usize>) -> Codes<'a> {
        Codes {
            bytes: &self.bytes[range.start * self.width..range.end * self.width],
            width: self.width,
        }
    }
}

/// The width of the `len` bytes of entries of a level of `count` boards: 1 or 2, or `None` when
/// `len` is neither.
pub fn width_of(len: usize, count: u64) -> Option<usize> {
    (1..=MAX_ENTRY_WIDTH).find(|&w| len as u64 == count * w as u64)
}

/// A value (or bound) of `rules`' unit, on a board of `seeds` seeds, as the mover's final seed
/// difference over that board (mover minus opponent): awari stores it so; abapa stores the seeds
/// the mover ends up with.
pub fn board_difference(rules: RuleSet, seeds: usize, value: i8) -> i32 {
    match rules {
        RuleSet::Awari => i32::from(value),
        RuleSet::Abapa => 2 * i32::from(value) - seeds as i32,
    }
}

/// The code stored for `bounds`.
///
/// awari: `v + 48`. abapa: `hi * (hi + 1) / 2 + lo`, a triangular code for `0 <= lo <= hi`: below 256
/// (one byte) while `hi <= 21`, at most 1,224 at 48 seeds.
pub fn encode(rules: RuleSet, bounds: Bounds) -> Code {
    match rules {
        RuleSet::Awari => (bounds.lo as i16 + 48) as Code,
        RuleSet::Abapa => {
            let (lo, hi) = (bounds.lo as Code, bounds.hi as Code);
            hi * (hi + 1) / 2 + lo
        }
    }
}

/// The bounds stored as `code` on a level of `seeds` seeds, or `None` if no valid entry has that code.
pub fn decode(rules: RuleSet, seeds: usize, code: Code) -> Option<Bounds> {
    let k = seeds as i16;
    match rules {
        RuleSet::Awari => {
            let v = code as i16 - 48;
            (-k..=k).contains(&v).then_some(Bounds::exact(v as i8))
        }
        RuleSet::Abapa => {
            // A table: the path search decodes an entry at every node it visits.
            let b = TRIANGULAR.get(code as usize)?;
            (b.hi as i16 <= k).then_some(*b)
        }
    }
}

/// abapa codes: one for each `0 <= lo <= hi <= 48`.
const TRIANGULAR_LEN: usize = (ABAPA_MAX_SEEDS + 1) * (ABAPA_MAX_SEEDS + 2) / 2;

/// `TRIANGULAR[code]`: the `lo..=hi` with `hi * (hi + 1) / 2 + lo == code` and `lo <= hi` (abapa's
/// code before the check against the level's seeds).
const TRIANGULAR: [Bounds; TRIANGULAR_LEN] = {
    let mut table = [Bounds { lo: 0, hi: 0 }; TRIANGULAR_LEN];
    let mut code = 0;
    while code < TRIANGULAR_LEN {
        // hi is the largest h with h(h+1)/2 <= code.
        let mut hi = 0;
        while (hi + 1) * (hi + 2) / 2 <= code {
            hi += 1;
        }
        table[code] = Bounds {
            lo: (code - hi * (hi + 1) / 2) as i8,
            hi: hi as i8,
        };
        code += 1;
    }
    table
};

/// The bounds an entry of level `seeds` stands for; an entry that does not decode reads as the widest
/// bounds (a checked file never has one; `verify` reports them).
pub fn stored_bounds(rules: RuleSet, seeds: usize, code: Code) -> Bounds {
    decode(rules, seeds, code).unwrap_or_else(|| {
        let k = seeds as i8;
        match rules {
            RuleSet::Awari => Bounds { lo: -k, hi: k },
            RuleSet::Abapa => Bounds { lo: 0, hi: k },
        }
    })
}

/// What a mover gets by a move to a board whose own mover has `after` (on a level of `after_seeds`),
/// playing from a level of `seeds` seeds.
#[inline]
pub fn through_move(rules: RuleSet, seeds: usize, after_seeds: usize, after: Bounds) -> Bounds {
    match rules {
        RuleSet::Awari => {
            let captured = (seeds - after_seeds) as i8;
            Bounds {
                lo: captured - after.hi,
                hi: captured - after.lo,
            }
        }
        // The mover's seeds: what it captured plus what the other side does not get.
        RuleSet::Abapa => Bounds {
            lo: seeds as i8 - after.hi,
            hi: seeds as i8 - after.lo,
        },
    }
}

/// The moves of the mover, by the rules of sowing and feeding alone (the database plays on whatever
/// the stores hold).
#[inline]
pub fn moves(board: &Board, rules: RuleSet) -> oware_rules::MoveSet {
    PackedPosition::from_mover_houses(*board).legal_moves(rules)
}

/// The value of a board where the game is over because the mover cannot move, or `None`.
///
/// awari: the mover's row is empty and the other side takes the rest (`-k`). abapa: the mover has no
/// legal move and each side gathers its own row.
#[inline]
pub fn terminal_value(board: &Board, rules: RuleSet) -> Option<i8> {
    match rules {
        RuleSet::Awari => {
            if board[..6].iter().all(|&v| v == 0) {
                Some(-(board[6..].iter().sum::<u8>() as i8))
            } else {
                None
            }
        }
        RuleSet::Abapa => {
            if moves(board, rules).is_empty() {
                Some(board[..6].iter().sum::<u8>() as i8)
            } else {
                None
            }
        }
    }
}

/// One move from a board: the house (0..6), the board after it seen by the new mover, the seeds
/// captured.
#[derive(Debug, Clone, Copy)]
pub struct Successor {
    /// The mover's house sown (0..6).
    pub house: usize,
    /// The board after the move, turned so that the new mover is in houses 0..6.
    pub board: Board,
    /// Seeds the move captured.
    pub captured: u8,
}

/// Every move of the mover and where it leads.
#[inline]
pub fn successors(board: &Board, rules: RuleSet) -> impl Iterator<Item = Successor> {
    let position = PackedPosition::from_mover_houses(*board);
    position.legal_moves(rules).map(move |mv| {
        let (after, captured) = position.play(mv, rules);
        Successor {
            house: mv.house(),
            board: after.mover_houses(),
            captured,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip() {
        for k in 0..=ABAPA_MAX_SEEDS {
            for hi in 0..=k as i8 {
                for lo in 0..=hi {
                    let b = Bounds { lo, hi };
                    assert_eq!(
                        decode(RuleSet::Abapa, k, encode(RuleSet::Abapa, b)),
                        Some(b)
                    );
                }
            }
        }
        for k in 0..=AWARI_MAX_SEEDS {
            for v in -(k as i8)..=k as i8 {
                let b = Bounds::exact(v);
                assert_eq!(
                    decode(RuleSet::Awari, k, encode(RuleSet::Awari, b)),
                    Some(b)
                );
            }
        }
        assert_eq!(
            decode(RuleSet::Awari, 3, encode(RuleSet::Awari, Bounds::exact(4))),
            None
        );
        assert_eq!(decode(RuleSet::Abapa, 3, 255), None);
        assert_eq!(decode(RuleSet::Abapa, 48, Code::MAX), None);
        // Every abapa code: one below the count of pairs `lo <= hi <= k` decodes to the pair that
        // encodes to it, every other code is no entry.
        for k in 0..=ABAPA_MAX_SEEDS {
            let pairs = (k + 1) * (k + 2) / 2;
            for code in 0..=2000 {
                match decode(RuleSet::Abapa, k, code) {
                    Some(b) => {
                        assert!((code as usize) < pairs, "k {k} code {code}");
                        assert!(0 <= b.lo && b.lo <= b.hi && b.hi <= k as i8);
                        assert_eq!(encode(RuleSet::Abapa, b), code);
                    }
                    None => assert!(code as usize >= pairs, "k {k} code {code}"),
                }
            }
        }
    }

    /// The codes of the narrow levels fit a byte, those of the wide ones do not all, and every code
    /// goes through the bytes of an entry of its level's width and back.
    #[test]
    fn entries_hold_their_codes() {
        for (rules, top) in [
            (RuleSet::Abapa, ABAPA_MAX_SEEDS),
            (RuleSet::Awari, AWARI_MAX_SEEDS),
        ] {
            for k in 0..=top {
                let width = entry_width(rules, k);
                let codes: Vec<Code> = (0..=Code::MAX)
                    .filter(|&c| decode(rules, k, c).is_some())
                    .collect();
                let highest = *codes.last().unwrap();
                assert_eq!(width == 1, highest <= 255, "{rules} level {k}");
                let mut bytes = vec![0u8; codes.len() * width];
                for (entry, &code) in bytes.chunks_exact_mut(width).zip(&codes) {
                    write_code(entry, code);
                }
                let read = Codes::new(&bytes, width);
                assert_eq!(read.iter().collect::<Vec<_>>(), codes);
                assert!((0..codes.len()).all(|i| read.get(i) == codes[i]));
                // A narrow level also reads back from two bytes an entry (as a test build writes).
                let mut wide = vec![0u8; codes.len() * 2];
                for (entry, &code) in wide.chunks_exact_mut(2).zip(&codes) {
                    write_code(entry, code);
                }
                assert_eq!(Codes::new(&wide, 2).iter().collect::<Vec<_>>(), codes);
            }
        }
        assert_eq!(entry_width(RuleSet::Abapa, ABAPA_NARROW_MAX), 1);
        assert_eq!(entry_width(RuleSet::Abapa, ABAPA_NARROW_MAX + 1), 2);
        // Little-endian on every machine: files move between machines.
        let mut two = [0u8; 2];
        write_code(&mut two, 0x0102);
        assert_eq!(two, [0x02, 0x01]);
        assert_eq!(width_of(10, 5), Some(2));
        assert_eq!(width_of(5, 5), Some(1));
        assert_eq!(width_of(7, 5), None);
    }
}
