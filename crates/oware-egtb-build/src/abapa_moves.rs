//! abapa moves on bare boards (the mover in houses 0..6), for the path search's inner loop.
//!
//! The path search generates successors at every node it visits, and going through the rules
//! crate's `Position` (building it, playing, copying the houses back out and turning the board to
//! the new mover) was about a third of its time. This plays the same rules directly on the twelve
//! houses, turning the rules crate's sowing word to the new mover's view, and the tests below hold it to
//! [`oware_egtb::values::successors`] (the rules crate) on every board up to 9 seeds and on boards with
//! laps up to 48 seeds.

use oware_egtb::index::Board;

/// The houses of `board` as 16 little-endian bytes (the last 4 zero).
#[inline]
fn packed(board: &Board) -> u128 {
    let mut bytes = [0u8; 16];
    bytes[..12].copy_from_slice(board);
    u128::from_le_bytes(bytes)
}

/// Packed houses seen from the other side (the two rows swapped).
#[inline]
fn turn(x: u128) -> u128 {
    const ROW: u128 = (1 << 48) - 1;
    ((x & ROW) << 48) | ((x >> 48) & ROW)
}

#[inline]
fn house_of(x: u128, house: usize) -> u8 {
    (x >> (8 * house)) as u8
}

/// The houses the mover of the packed board may play, as bits 0..6: every non-empty house, or when
/// the other row is empty, only those that reach it.
#[inline]
fn legal_houses_packed(x: u128) -> u8 {
    let other_empty = (x >> 48) as u64 & ((1 << 48) - 1) == 0;
    let mut bits = 0u8;
    for c in 0..6 {
        let s = house_of(x, c) as usize;
        if s != 0 && (!other_empty || s >= 6 - c) {
            bits |= 1 << c;
        }
    }
    bits
}

/// [`oware_egtb::values::terminal_value`] for abapa on a packed board.
#[inline]
fn terminal_value_packed(x: u128) -> Option<i8> {
    (legal_houses_packed(x) == 0).then(|| (0..6).map(|c| house_of(x, c) as i8).sum())
}

/// [`oware_egtb::values::terminal_value`] for abapa: the mover's row when it has no legal move.
#[inline]
pub fn terminal_value(board: &Board) -> Option<i8> {
    terminal_value_packed(packed(board))
}

/// One move: the board after it seen by the new mover, the seeds captured, and whether the game is
/// over there ([`terminal_value`] of that board).
#[derive(Debug, Clone, Copy)]
pub struct Played {
    pub board: Board,
    pub captured: u8,
    pub over: Option<i8>,
}

/// [`oware_egtb::values::successors`] for abapa, in the same order (by house), each with whether the
/// game is over after it. The board stays packed in a register until it is handed out: writing it
/// byte by byte and reading it back whole stalled the processor.
#[inline]
pub fn successors(board: &Board) -> impl Iterator<Item = Played> + '_ {
    let x = packed(board);
    let legal = legal_houses_packed(x);
    let base = turn(x);
    (0..6usize)
        .filter(move |&c| legal & (1 << c) != 0)
        .map(move |c| play(board, base, c))
}

#[inline]
fn play(board: &Board, base: u128, house: usize) -> Played {
    let seeds = board[house] as usize;
    // Empty the origin (house `house + 6` of the next mover), then add the rules crate's sowing,
    // turned to the next mover's view.
    let (sown, last) = oware_rules::sowing(house, seeds);
    let mut x = (base & !(0xffu128 << (8 * (house + 6)))) + turn(sown);
    let mut captured = 0u8;
    if last >= 6 {
        // The last seed fell on the other row, which is the next mover's row 0..6: take the 2s and
        // 3s from there back toward its first house.
        let mut taken = 0u128;
        for i in (0..=last - 6).rev() {
            let v = house_of(x, i);
            if v != 2 && v != 3 {
                break;
            }
            captured += v;
            taken |= 0xff << (8 * i);
        }
        if captured > 0 {
            let row: u8 = (0..6).map(|c| house_of(x, c)).sum();
            if row == captured {
                // Grand slam: abapa captures nothing.
                captured = 0;
            } else {
                x &= !taken;
            }
        }
    }
    let bytes = x.to_le_bytes();
    Played {
        board: bytes[..12].try_into().expect("12 houses"),
        captured,
        over: terminal_value_packed(x),
    }
}

#[cfg(test)]
mod tests {
    use oware_rules::RuleSet;

    use super::*;
    use oware_egtb::index::{IndexKind, LevelIndex};
    use oware_egtb::values;

    fn assert_same(board: &Board) {
        let ours: Vec<_> = successors(board)
            .map(|s| (s.board, s.captured, s.over))
            .collect();
        let rules: Vec<_> = values::successors(board, RuleSet::Abapa)
            .map(|s| {
                let over = values::terminal_value(&s.board, RuleSet::Abapa);
                (s.board, s.captured, over)
            })
            .collect();
        assert_eq!(ours, rules, "{board:?}");
        assert_eq!(
            terminal_value(board),
            values::terminal_value(board, RuleSet::Abapa),
            "{board:?}"
        );
    }

    /// Every board up to 9 seeds: sowing, captures of 2s and 3s, grand slams, feeding.
    #[test]
    fn the_same_moves_as_the_rules_crate_on_every_small_board() {
        for k in 0..=9 {
            for board in LevelIndex::new(k, IndexKind::Full).iter_from(0) {
                assert_same(&board);
            }
        }
    }

    /// Boards with 12 or more seeds in a house (laps that skip the origin), up to 48 seeds, and captures.
    #[test]
    fn the_same_moves_as_the_rules_crate_with_laps() {
        // A small generator of its own (xorshift), so that the boards are the same on every run.
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..200_000 {
            let mut board = [0u8; 12];
            let mut left = 48 - (next() % 30) as u8;
            // One big house, then the rest scattered (often small, so that captures happen).
            let big = (next() % 6) as usize;
            let first = (next() % (left as u64 + 1)) as u8;
            board[big] = first;
            left -= first;
            while left > 0 && next() % 8 != 0 {
                let h = (next() % 12) as usize;
                let add = 1 + (next() % 3) as u8;
                let add = add.min(left);
                board[h] += add;
                left -= add;
            }
            assert_same(&board);
        }
    }
}
