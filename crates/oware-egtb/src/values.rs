//! What a database entry means, how it is stored in one byte, and the game moves seen from the
//! database's side: boards with the mover in houses 0..6, play that ignores the stores.
//!
//! Units:
//! - awari: the seed difference the mover gains over the seeds still on the board (-k..=k), a cycle
//!   worth 0; always exact.
//! - abapa: the seeds (0..=k) of the board that the mover ends up with when play starts here with no
//!   earlier history; a pair of bounds `lo..=hi`, exact when they meet.

use oware_rules::{PackedPosition, RuleSet};

use crate::index::{Board, IndexKind};

/// The highest level an abapa file can hold: both bounds must fit in one byte.
pub const ABAPA_MAX_SEEDS: usize = 20;

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

/// The byte stored for `bounds` on a level of `seeds` seeds.
///
/// awari: `v + 48`. abapa: `hi * (hi + 1) / 2 + lo`, a triangular code for `0 <= lo <= hi <= 20`.
pub fn encode(rules: RuleSet, bounds: Bounds) -> u8 {
    match rules {
        RuleSet::Awari => (bounds.lo as i16 + 48) as u8,
        RuleSet::Abapa => {
            let (lo, hi) = (bounds.lo as u16, bounds.hi as u16);
            (hi * (hi + 1) / 2 + lo) as u8
        }
    }
}

/// The bounds stored as `code` on a level of `seeds` seeds, or `None` if no valid entry has that code.
pub fn decode(rules: RuleSet, seeds: usize, code: u8) -> Option<Bounds> {
    let k = seeds as i16;
    match rules {
        RuleSet::Awari => {
            let v = code as i16 - 48;
            (-k..=k).contains(&v).then_some(Bounds::exact(v as i8))
        }
        RuleSet::Abapa => {
            // A table: the path search decodes an entry at every node it visits.
            let b = TRIANGULAR[code as usize];
            (b.hi as i16 <= k).then_some(b)
        }
    }
}

/// `TRIANGULAR[code]`: the `lo..=hi` with `hi * (hi + 1) / 2 + lo == code` and `lo <= hi` (abapa's
/// code before the check against the level's seeds).
const TRIANGULAR: [Bounds; 256] = {
    let mut table = [Bounds { lo: 0, hi: 0 }; 256];
    let mut code = 0;
    while code < 256 {
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
pub fn stored_bounds(rules: RuleSet, seeds: usize, code: u8) -> Bounds {
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
        // Every abapa byte: a code below the count of pairs `lo <= hi <= k` decodes to the pair that
        // encodes to it, every other byte is no entry.
        for k in 0..=ABAPA_MAX_SEEDS {
            let pairs = (k + 1) * (k + 2) / 2;
            for code in 0..=255u8 {
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
}
