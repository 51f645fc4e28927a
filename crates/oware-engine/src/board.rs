//! The search's own board: a whole position in one 128-bit word, so that the hot path (sowing,
//! capture, move generation, repetition checks, copies into the ordering array) works on a register
//! instead of calling into [`Position`]'s general, checked representation.
//!
//! Bytes 0..12 are the houses, byte 12 South's store, byte 13 North's, byte 14 the side to move
//! (0 South, 1 North), byte 15 zero. Equality of boards is equality of positions. Sowing adds the rules
//! crate's own sowing word ([`oware_rules::sowing`]), whose bytes 12..16 are zero. Tests hold sowing,
//! capture (grand slams included) and legal moves equal to the rules crate on random games of both
//! rule sets; the rules crate stays the authority, this is only a faster copy of its arithmetic.

use oware_rules::{Move, MoveSet, Position, RuleSet, Side, HOUSES};

/// Byte of South's store (North's is the next one).
pub(crate) const STORE_BYTE: usize = 12;
/// Byte of the side to move.
const SIDE_BYTE: usize = 14;
/// The twelve houses' bytes.
const HOUSES_MASK: u128 = (1 << (8 * HOUSES)) - 1;
/// Six bytes: one row.
const ROW_MASK: u64 = 0xffff_ffff_ffff;

/// A position as one word (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board(u128);

impl Board {
    /// No seeds anywhere, South to move: not a position of the game, a filler for arrays.
    pub const EMPTY: Board = Board(0);

    pub fn from_position(pos: &Position) -> Board {
        let mut bytes = [0u8; 16];
        bytes[..HOUSES].copy_from_slice(pos.houses());
        bytes[STORE_BYTE] = pos.store(Side::South);
        bytes[STORE_BYTE + 1] = pos.store(Side::North);
        bytes[SIDE_BYTE] = pos.side_to_move().index() as u8;
        Board(u128::from_le_bytes(bytes))
    }

    /// The rules crate's position (for the rare paths: game ends, repetitions, database probes).
    pub fn to_position(self) -> Position {
        let b = self.0.to_le_bytes();
        let houses: [u8; HOUSES] = b[..HOUSES].try_into().expect("twelve houses");
        // Every board comes from a valid position by valid moves, so the seeds add up to 48.
        Position::new(
            houses,
            [b[STORE_BYTE], b[STORE_BYTE + 1]],
            self.side_to_move(),
        )
        .expect("a board keeps the 48 seeds of the position it came from")
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

    #[inline]
    pub fn house(self, house: usize) -> u8 {
        (self.0 >> (8 * house)) as u8
    }

    #[inline]
    pub fn store(self, side: Side) -> u8 {
        (self.0 >> (8 * (STORE_BYTE + side.index()))) as u8
    }

    #[inline]
    pub fn side_to_move(self) -> Side {
        if (self.0 >> (8 * SIDE_BYTE)) as u8 == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// The side to move's index (0 South, 1 North, as [`Side::index`]).
    #[inline]
    pub fn side_index(self) -> usize {
        (self.0 >> (8 * SIDE_BYTE)) as u8 as usize
    }

    /// One side's row as the low six bytes of a word.
    #[inline]
    fn row(self, side: Side) -> u64 {
        self.row_from(side.first_house())
    }

    /// The row that starts at house `first` (0 or 6) as the low six bytes of a word. The hot paths
    /// find `first` from [`Board::side_index`] by arithmetic: a [`Side`] made from the side byte
    /// is a branch, and the side alternates at every ply.
    #[inline]
    fn row_from(self, first: usize) -> u64 {
        (self.0 >> (8 * first)) as u64 & ROW_MASK
    }

    /// Seeds on one side's row.
    #[inline]
    pub fn row_seeds(self, side: Side) -> u8 {
        row_sum(self.row(side))
    }

    /// One store holds more than 24, or both hold 24.
    #[inline]
    pub fn is_decided_by_stores(self) -> bool {
        // Both stores in one word, without branches: a store of at most 48 plus 0x67 sets its
        // high bit exactly when it holds more than 24.
        let stores = (self.0 >> (8 * STORE_BYTE)) as u16;
        ((stores + 0x6767) & 0x8080 != 0) | (stores == 0x1818)
    }

    /// Plays `mv` (a non-empty house of the side to move), as
    /// [`Position::play_unchecked`]: the board after it and the seeds captured (0 for a grand slam
    /// under abapa).
    // Always inlined: the compiler left it a call (the board returned through memory), 2-5% of the
    // bench's processor time to depth 22, same signature.
    #[inline(always)]
    pub fn play(self, mv: Move, rules: RuleSet) -> (Board, u8) {
        let house = mv.house();
        let seeds = self.house(house) as usize;
        debug_assert!(self.side_to_move().owns(house) && seeds > 0);
        // One addition empties the origin and sows (no masking of the origin's byte).
        let (change, last) = oware_rules::sowing_change(house, seeds);
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
            let row = row_sum(Board(word).row_from(low));
            if rules == RuleSet::Abapa && row == captured {
                captured = 0; // a grand slam captures nothing
            } else {
                let span = ((1u128 << (8 * (last + 1 - first))) - 1) << (8 * first);
                word &= !span;
                word += u128::from(captured) << (8 * (STORE_BYTE + me));
            }
        }
        word ^= 1 << (8 * SIDE_BYTE);
        (Board(word), captured)
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

    /// [`Board::legal_moves`] under awari, or when the opponent's row is empty.
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

    /// The board after each player has gathered their own row into their store (a game end).
    pub fn gathered_stores(self) -> [u8; 2] {
        [
            self.store(Side::South) + self.row_seeds(Side::South),
            self.store(Side::North) + self.row_seeds(Side::North),
        ]
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

    /// Every position of random games (a fixed generator), both rule sets.
    fn random_positions(rules: RuleSet) -> Vec<Position> {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut out = Vec::new();
        for _ in 0..400 {
            let mut pos = Position::start();
            // Random play may circle forever without a capture: a fixed length per game.
            for _ in 0..300 {
                out.push(pos);
                let moves: Vec<_> = pos.legal_moves(rules).collect();
                if moves.is_empty() {
                    break;
                }
                pos = pos
                    .play_unchecked(moves[next() as usize % moves.len()], rules)
                    .position;
            }
        }
        out
    }

    #[test]
    fn sowing_capture_and_moves_equal_the_rules_crate() {
        for rules in [RuleSet::Abapa, RuleSet::Awari] {
            let positions = random_positions(rules);
            assert!(positions.len() > 10_000);
            let (mut captures, mut grand_slams) = (0, 0);
            for pos in &positions {
                let board = Board::from_position(pos);
                assert_eq!(board.to_position(), *pos);
                assert_eq!(
                    board.legal_moves(rules),
                    pos.legal_moves(rules),
                    "{pos} {rules}"
                );
                assert_eq!(board.is_decided_by_stores(), pos.is_decided_by_stores());
                for side in [Side::South, Side::North] {
                    assert_eq!(board.row_seeds(side), pos.row_seeds(side));
                }
                assert_eq!(
                    board.gathered_stores(),
                    [
                        pos.gathered().store(Side::South),
                        pos.gathered().store(Side::North)
                    ]
                );
                // Every non-empty house of the side to move, legal or not (the search plays only
                // legal ones, but the arithmetic must hold for all).
                let first = pos.side_to_move().first_house();
                for house in first..first + 6 {
                    if pos.house(house) == 0 {
                        continue;
                    }
                    let mv = Move::new(house).unwrap();
                    let expected = pos.play_unchecked(mv, rules);
                    let (after, captured) = board.play(mv, rules);
                    assert_eq!(after.to_position(), expected.position, "{pos} {mv} {rules}");
                    assert_eq!(captured, expected.captured, "{pos} {mv} {rules}");
                    if captured > 0 {
                        captures += 1;
                    }
                    if rules == RuleSet::Abapa
                        && captured == 0
                        && pos.play_unchecked(mv, RuleSet::Awari).captured > 0
                    {
                        grand_slams += 1;
                    }
                }
            }
            assert!(captures > 1000, "{rules}: {captures} captures");
            if rules == RuleSet::Abapa {
                assert!(grand_slams > 0, "no grand slam was exercised");
            }
        }
    }

    #[test]
    fn moves_of_every_row_pattern_equal_the_rules_crate() {
        // Every set of non-empty houses, both sides, with the opponent's row full and empty (then
        // only moves that reach it are legal under abapa, and under awari only feeding ones).
        for rules in [RuleSet::Abapa, RuleSet::Awari] {
            for side in [Side::South, Side::North] {
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
                        let board = Board::from_position(&pos);
                        assert_eq!(board.legal_moves(rules), pos.legal_moves(rules), "{pos}");
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
        let board = Board::from_position(&pos);
        let mv = Move::new(5).unwrap();
        let (abapa, captured) = board.play(mv, RuleSet::Abapa);
        assert_eq!(captured, 0);
        assert_eq!(
            abapa.to_position(),
            pos.play_unchecked(mv, RuleSet::Abapa).position
        );
        let (awari, captured) = board.play(mv, RuleSet::Awari);
        assert_eq!(captured, 11);
        assert_eq!(awari.store(Side::South), 29);
        assert_eq!(awari.side_to_move(), Side::North);
    }
}
