//! A whole position in one 128-bit word, for programs whose hot path plays millions of moves (an
//! engine's search, an endgame database build): sowing, capture, move generation, equality and
//! copies work on a register instead of on [`Position`]'s general, checked representation.
//!
//! Bytes 0..12 are the houses, byte 12 South's store, byte 13 North's, byte 14 the side to move
//! (0 South, 1 North), byte 15 zero. Equality of packed positions is equality of positions. Sowing
//! adds the word of [`sowing_change`], whose bytes 12..16 are zero. [`Position`] stays the authority:
//! the tests hold every move of random positions of both rule sets equal to it.

use crate::position::{sowing_change, Position};
use crate::types::{Move, MoveSet, RuleSet, Side, HOUSES, TOTAL_SEEDS};

/// Byte of South's store (North's is the next one).
const STORE_BYTE: usize = 12;
/// Byte of the side to move.
const SIDE_BYTE: usize = 14;
/// The twelve houses' bytes.
const HOUSES_MASK: u128 = (1 << (8 * HOUSES)) - 1;
/// Six bytes: one row.
const ROW_MASK: u64 = 0xffff_ffff_ffff;

/// A position as one word (see the module documentation). Built from a [`Position`] and changed only
/// by moves, so its seeds always add up to 48; or an endgame database's board
/// ([`PackedPosition::from_mover_houses`]), whose seeds add up to at most 48.
///
/// ```
/// use oware_rules::{Move, PackedPosition, Position, RuleSet};
/// let start = PackedPosition::from_position(&Position::start());
/// let (after, captured) = start.play(Move::from_letter('F').unwrap(), RuleSet::Abapa);
/// assert_eq!(captured, 0);
/// assert_eq!(after.to_position().to_string(), "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N");
/// assert_eq!(after.legal_moves(RuleSet::Abapa).to_string(), "abcdef");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PackedPosition(u128);

impl PackedPosition {
    /// No seeds anywhere, South to move: not a position of the game, a filler for arrays.
    pub const EMPTY: PackedPosition = PackedPosition(0);

    /// The byte of the word that holds South's store (North's is the next): for code that reads
    /// the whole word at once, as a vector evaluation does.
    pub const SOUTH_STORE_BYTE: usize = STORE_BYTE;

    /// The packed form of `pos`.
    pub fn from_position(pos: &Position) -> PackedPosition {
        let mut bytes = [0u8; 16];
        bytes[..HOUSES].copy_from_slice(pos.houses());
        bytes[STORE_BYTE] = pos.store(Side::South);
        bytes[STORE_BYTE + 1] = pos.store(Side::North);
        bytes[SIDE_BYTE] = pos.side_to_move().index() as u8;
        PackedPosition(u128::from_le_bytes(bytes))
    }

    /// An endgame database's board as a packed position: `houses` seen by the mover (its row in
    /// houses 0..6, so South to move) and empty stores. Not a position of the game, whose seeds add
    /// up to 48: a database plays on whatever the stores hold, and empty stores decide nothing, so
    /// its legal moves and the moves' sowing and captures are those of the houses alone, as
    /// [`Position::moves_ignoring_stores`] gives them. The houses hold at most 48 seeds in all.
    ///
    /// ```
    /// use oware_rules::{PackedPosition, RuleSet};
    /// let board = PackedPosition::from_mover_houses([0, 0, 0, 0, 0, 2, 1, 1, 0, 0, 0, 1]);
    /// assert_eq!(board.legal_moves(RuleSet::Abapa).to_string(), "F");
    /// let (after, captured) = board.play("F".parse().unwrap(), RuleSet::Abapa);
    /// assert_eq!(captured, 4);
    /// assert_eq!(after.mover_houses(), [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
    /// ```
    #[inline]
    pub fn from_mover_houses(houses: [u8; HOUSES]) -> PackedPosition {
        debug_assert!(houses.iter().map(|&h| h as u32).sum::<u32>() <= 48);
        let mut bytes = [0u8; 16];
        bytes[..HOUSES].copy_from_slice(&houses);
        PackedPosition(u128::from_le_bytes(bytes))
    }

    /// The packed position whose [`word`](PackedPosition::word) is `word`, if it is a position:
    /// houses and stores (bytes 0..14) adding up to 48, the side byte 0 or 1, the last byte 0. The
    /// checks [`Position::new`] makes, for programs that keep positions as bytes (the Python
    /// package's batched API reads rows of its callers' arrays) without a [`Position`] on the way.
    ///
    /// ```
    /// use oware_rules::{PackedPosition, Position};
    /// let start = PackedPosition::from_position(&Position::start());
    /// assert_eq!(PackedPosition::from_word(start.word()), Some(start));
    /// assert_eq!(PackedPosition::from_word(start.word() + 1), None); // 49 seeds
    /// ```
    #[inline]
    pub fn from_word(word: u128) -> Option<PackedPosition> {
        let bytes = word.to_le_bytes();
        let seeds: u32 = bytes[..SIDE_BYTE].iter().map(|&b| u32::from(b)).sum();
        let valid = seeds == u32::from(TOTAL_SEEDS) && bytes[SIDE_BYTE] <= 1 && bytes[15] == 0;
        valid.then_some(PackedPosition(word))
    }

    /// The position (for the rare paths: game ends, repetitions, database probes, printing).
    pub fn to_position(self) -> Position {
        let b = self.0.to_le_bytes();
        let mut houses = [0u8; HOUSES];
        houses.copy_from_slice(&b[..HOUSES]);
        Position::from_parts_unchecked(
            houses,
            [b[STORE_BYTE], b[STORE_BYTE + 1]],
            self.side_to_move(),
        )
    }

    /// The whole word (houses, stores, side).
    #[inline]
    pub fn word(self) -> u128 {
        self.0
    }

    /// The twelve houses as the low twelve bytes of a word; the rest zero.
    #[inline]
    pub fn houses_word(self) -> u128 {
        self.0 & HOUSES_MASK
    }

    /// Seeds in one house (0..12).
    #[inline]
    pub fn house(self, house: usize) -> u8 {
        (self.0 >> (8 * house)) as u8
    }

    /// Seeds in a player's store.
    #[inline]
    pub fn store(self, side: Side) -> u8 {
        (self.0 >> (8 * (STORE_BYTE + side.index()))) as u8
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(self) -> Side {
        if (self.0 >> (8 * SIDE_BYTE)) as u8 == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The side to move's index (0 South, 1 North, as [`Side::index`]): arithmetic on it costs no
    /// branch, where a [`Side`] made from the side byte is one, and the side alternates at every ply.
    #[inline]
    pub fn side_index(self) -> usize {
        (self.0 >> (8 * SIDE_BYTE)) as u8 as usize
    }

    /// One side's row as the low six bytes of a word.
    #[inline]
    fn row(self, side: Side) -> u64 {
        self.row_from(side.first_house())
    }

    /// The row that starts at house `first` (0 or 6) as the low six bytes of a word.
    #[inline]
    fn row_from(self, first: usize) -> u64 {
        (self.0 >> (8 * first)) as u64 & ROW_MASK
    }

    /// Seeds on one side's row.
    #[inline]
    pub fn row_seeds(self, side: Side) -> u8 {
        row_sum(self.row(side))
    }

    /// The houses seen by the side to move: its own row first (houses 0..6), the opponent's after
    /// (6..12), each read from its owner's left. Endgame databases index boards this way, so that
    /// one table serves both sides.
    ///
    /// ```
    /// use oware_rules::{PackedPosition, Position};
    /// let pos: Position = "1-2-3-4-5-6-0-0-0-0-0-1-13-13-N".parse().unwrap();
    /// let packed = PackedPosition::from_position(&pos);
    /// assert_eq!(packed.mover_houses(), [0, 0, 0, 0, 0, 1, 1, 2, 3, 4, 5, 6]);
    /// ```
    #[inline]
    pub fn mover_houses(self) -> [u8; HOUSES] {
        let houses = self.houses_word();
        // North to move: the rows swap places, a rotation of the twelve bytes by six.
        let shift = 48 * self.side_index() as u32;
        let view = ((houses >> shift) | (houses << (96 - shift))) & HOUSES_MASK;
        let bytes = view.to_le_bytes();
        let mut out = [0u8; HOUSES];
        out.copy_from_slice(&bytes[..HOUSES]);
        out
    }

    /// One store holds more than 24, or both hold 24.
    #[inline]
    pub fn is_decided_by_stores(self) -> bool {
        // Both stores in one word, without branches: a store of at most 48 plus 0x67 sets its
        // high bit exactly when it holds more than 24.
        let stores = (self.0 >> (8 * STORE_BYTE)) as u16;
        ((stores + 0x6767) & 0x8080 != 0) | (stores == 0x1818)
    }

    /// Plays `mv` (a non-empty house of the side to move), as [`Position::play_unchecked`]: the
    /// position after it and the seeds captured (0 for a grand slam under abapa).
    // Always inlined: the compiler left it a call (the position returned through memory), which
    // cost a search a few percent of its time.
    #[inline(always)]
    pub fn play(self, mv: Move, rules: RuleSet) -> (PackedPosition, u8) {
        let house = mv.house();
        let seeds = self.house(house) as usize;
        debug_assert!(self.side_to_move().owns(house) && seeds > 0);
        // One addition empties the origin and sows (no masking of the origin's byte).
        let (change, last) = sowing_change(house, seeds);
        let mut word = self.0.wrapping_add(change);
        let me = self.side_index();
        // The opponent's first house.
        let low = 6 - 6 * me;
        let mut captured = 0u8;
        let at_last = (word >> (8 * last)) as u8;
        if last.wrapping_sub(low) < 6 && (at_last == 2 || at_last == 3) {
            // Walk back from the last house while the houses hold 2 or 3, inside the opponent's row.
            let mut first = last;
            captured = at_last;
            while first > low {
                let v = (word >> (8 * (first - 1))) as u8;
                if v != 2 && v != 3 {
                    break;
                }
                captured += v;
                first -= 1;
            }
            let row = row_sum(PackedPosition(word).row_from(low));
            if rules == RuleSet::Abapa && row == captured {
                captured = 0; // a grand slam captures nothing
            } else {
                let span = ((1u128 << (8 * (last + 1 - first))) - 1) << (8 * first);
                word &= !span;
                word += u128::from(captured) << (8 * (STORE_BYTE + me));
            }
        }
        word ^= 1 << (8 * SIDE_BYTE);
        (PackedPosition(word), captured)
    }

    /// The legal moves of the side to move (as [`Position::legal_moves`]).
    // Always inlined, the common case only (abapa, the opponent's row not empty: the non-empty
    // houses); the rest in a function of its own. As one function, every call paid the prologue
    // of the awari loop's large frame.
    #[inline(always)]
    pub fn legal_moves(self, rules: RuleSet) -> MoveSet {
        if self.is_decided_by_stores() {
            return MoveSet::EMPTY;
        }
        let me = self.side_index();
        // Both rows by shifts of fixed length, then the mover's picked by a select: a shift of the
        // whole word by a length known only at run time costs several instructions.
        let rows = [self.row_from(0), self.row_from(6)];
        let (mine, theirs) = if me == 0 {
            (rows[0], rows[1])
        } else {
            (rows[1], rows[0])
        };
        if rules == RuleSet::Abapa && theirs != 0 {
            return MoveSet::from_bits(nonempty_bits(mine) << (6 * me));
        }
        self.legal_moves_rare(rules)
    }

    /// [`PackedPosition::legal_moves`] under awari, or when the opponent's row is empty.
    #[inline(never)]
    fn legal_moves_rare(self, rules: RuleSet) -> MoveSet {
        let me = self.side_to_move();
        let first = me.first_house();
        let own = self.row(me);
        let nonempty = nonempty_bits(own) << first;
        match rules {
            RuleSet::Abapa => {
                // The opponent is empty: only moves that reach their row.
                let mut bits = 0u16;
                for c in 0..6 {
                    if (own >> (8 * c)) as u8 as usize >= 6 - c {
                        bits |= 1 << (first + c);
                    }
                }
                MoveSet::from_bits(bits)
            }
            RuleSet::Awari => {
                let mut feeding = 0u16;
                for mv in MoveSet::from_bits(nonempty) {
                    if self.play(mv, rules).0.row(me.opponent()) != 0 {
                        feeding |= 1 << mv.house();
                    }
                }
                // A move that starves the opponent is legal only when every move does so.
                MoveSet::from_bits(if feeding != 0 { feeding } else { nonempty })
            }
        }
    }

    /// The stores after each player has gathered their own row (a game end), South's first.
    pub fn gathered_stores(self) -> [u8; 2] {
        [
            self.store(Side::South) + self.row_seeds(Side::South),
            self.store(Side::North) + self.row_seeds(Side::North),
        ]
    }
}

impl From<Position> for PackedPosition {
    fn from(pos: Position) -> PackedPosition {
        PackedPosition::from_position(&pos)
    }
}

impl From<PackedPosition> for Position {
    fn from(packed: PackedPosition) -> Position {
        packed.to_position()
    }
}

/// The seeds of a row (six bytes): summed into the sixth byte by one multiplication (the sum, at most
/// 48, fits a byte).
#[inline]
fn row_sum(row: u64) -> u8 {
    (row.wrapping_mul(0x0101_0101_0101) >> 40) as u8
}

/// Bit `c` set for each non-zero byte `c` among the low six bytes of `row` (each byte at most 48).
#[inline]
fn nonempty_bits(row: u64) -> u16 {
    // A byte of at most 48 plus 0x7f sets its high bit exactly when it is non-zero, with no carry
    // into the next byte.
    let high = (row + 0x7f7f_7f7f_7f7f) & 0x8080_8080_8080;
    // Gather the six high bits into the top byte: byte c's bit goes to bit 56 + c.
    (((high >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56) as u16 & 0x3f
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Database boards (empty stores, at most 48 seeds, houses of 12 and more among them): the
    /// same moves, boards after them and captures as the position with those houses, its stores
    /// ignored, under both rule sets.
    #[test]
    fn database_boards_play_as_their_positions() {
        // A small generator of its own (xorshift), so that the boards are the same on every run.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..100_000 {
            let mut houses = [0u8; HOUSES];
            let mut left = 48 - (next() % 49) as u8;
            // Often one big house (laps that skip the origin), the rest scattered and small (so
            // that captures and grand slams happen), sometimes a row left empty.
            let big = (next() % 12) as usize;
            let first = (next() % (left as u64 / 2 + 1)) as u8;
            houses[big] = first;
            left -= first;
            let rows = [0..12, 0..6, 6..12][(next() % 3) as usize].clone();
            while left > 0 && next() % 6 != 0 {
                let h = rows.start + (next() % rows.len() as u64) as usize;
                let add = (1 + (next() % 3) as u8).min(left);
                houses[h] += add;
                left -= add;
            }
            let packed = PackedPosition::from_mover_houses(houses);
            let pos = Position::from_board(houses, Side::South).unwrap();
            for rules in [RuleSet::Abapa, RuleSet::Awari] {
                let moves = pos.moves_ignoring_stores(rules);
                assert_eq!(packed.legal_moves(rules), moves, "{houses:?} {rules}");
                for mv in moves {
                    let played = pos.play_unchecked(mv, rules);
                    let (after, captured) = packed.play(mv, rules);
                    assert_eq!(captured, played.captured, "{houses:?} {mv} {rules}");
                    assert_eq!(
                        &after.houses_word().to_le_bytes()[..HOUSES],
                        played.position.houses(),
                        "{houses:?} {mv} {rules}"
                    );
                }
            }
        }
    }

    #[test]
    fn moves_of_every_row_pattern_equal_the_position() {
        // Every set of non-empty houses, both sides, with the opponent's row full and empty (then
        // only moves that reach it are legal under abapa, and under awari only feeding ones).
        for rules in [RuleSet::Abapa, RuleSet::Awari] {
            for side in Side::BOTH {
                for bits in 0..64u32 {
                    let mut houses = [1u8; HOUSES];
                    let first = side.first_house();
                    for c in 0..6 {
                        houses[first + c] = if bits >> c & 1 == 1 {
                            1 + 2 * c as u8
                        } else {
                            0
                        };
                    }
                    for opp_empty in [false, true] {
                        let mut h = houses;
                        if opp_empty {
                            let of = side.opponent().first_house();
                            h[of..of + 6].fill(0);
                        }
                        let pos = Position::from_board(h, side).unwrap();
                        let packed = PackedPosition::from_position(&pos);
                        assert_eq!(packed.legal_moves(rules), pos.legal_moves(rules), "{pos}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_grand_slam_captures_nothing_under_abapa_and_everything_under_awari() {
        // South's F (5 seeds) sows North's a..e (1-1-1-1-2, f empty): they become 2-2-2-2-3, the
        // whole row.
        let pos: Position = "0-0-0-0-0-5-1-1-1-1-2-0-18-19-S".parse().unwrap();
        let packed = PackedPosition::from_position(&pos);
        let mv = Move::new(5).unwrap();
        let (abapa, captured) = packed.play(mv, RuleSet::Abapa);
        assert_eq!(captured, 0);
        assert_eq!(
            abapa.to_position(),
            pos.play_unchecked(mv, RuleSet::Abapa).position
        );
        let (awari, captured) = packed.play(mv, RuleSet::Awari);
        assert_eq!(captured, 11);
        assert_eq!(awari.store(Side::South), 29);
        assert_eq!(awari.side_to_move(), Side::North);
    }

    #[test]
    fn the_empty_filler_converts_without_panicking() {
        let pos = PackedPosition::EMPTY.to_position();
        assert_eq!(pos.board_seeds(), 0);
        assert_eq!(
            PackedPosition::EMPTY.legal_moves(RuleSet::Abapa),
            MoveSet::EMPTY
        );
    }
}
