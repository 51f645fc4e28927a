//! Legal move generation specialised for the search: the same sets as
//! [`Position::legal_moves`](oware_rules::Position::legal_moves) (tests hold them equal), computed on
//! the houses as one word instead of house by house. The search generates moves at every node,
//! leaves included (a side without moves ends the game), so this is on its hottest path.

use oware_rules::{MoveSet, Position, RuleSet, HOUSES};

/// The twelve houses as bytes of one word (house `h` in byte `h`).
#[inline]
fn board_word(pos: &Position) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..HOUSES].copy_from_slice(pos.houses());
    u128::from_le_bytes(bytes)
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

/// The legal moves of the side to move (see the module documentation).
#[inline]
pub fn legal_moves(pos: &Position, rules: RuleSet) -> MoveSet {
    if rules != RuleSet::Abapa || pos.is_decided_by_stores() {
        return pos.legal_moves(rules);
    }
    let board = board_word(pos);
    let first = pos.side_to_move().first_house();
    let own = (board >> (8 * first)) as u64 & 0xffff_ffff_ffff;
    let opp = (board >> (8 * (6 - first))) as u64 & 0xffff_ffff_ffff;
    if opp != 0 {
        return MoveSet::from_bits(nonempty_bits(own) << first);
    }
    // The opponent is empty: only moves that reach their row (rare; the rules crate decides).
    pos.legal_moves(rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::Side;

    #[test]
    fn the_same_moves_as_the_rules_crate() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for rules in [RuleSet::Abapa, RuleSet::Awari] {
            for _ in 0..400 {
                let mut pos = Position::start();
                // Random play may circle forever without a capture: a fixed length per game.
                for _ in 0..300 {
                    let expected = pos.legal_moves(rules);
                    assert_eq!(legal_moves(&pos, rules), expected, "{pos} {rules}");
                    checked += 1;
                    let moves: Vec<_> = expected.collect();
                    if moves.is_empty() {
                        break;
                    }
                    let mv = moves[next() as usize % moves.len()];
                    pos = pos.play_unchecked(mv, rules).position;
                }
            }
        }
        assert!(checked > 10_000);
        // Every single-house pattern, both sides, with the opponent's row full and empty.
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
                    assert_eq!(
                        legal_moves(&pos, RuleSet::Abapa),
                        pos.legal_moves(RuleSet::Abapa),
                        "{pos}"
                    );
                }
            }
        }
    }
}
