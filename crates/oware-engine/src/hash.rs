//! Zobrist keys for positions: a 64-bit key per position, used by the transposition table and to spot
//! repetitions quickly (a key match is then confirmed by comparing the positions themselves).

use oware_rules::{Position, Side, HOUSES};

use crate::board::Board;

/// Seeds a house or store can hold: 0..=48.
const VALUES: usize = 49;

struct Keys {
    houses: [[u64; VALUES]; HOUSES],
    /// South's store alone is enough: North's follows from the board and South's store (48 in all).
    south_store: [u64; VALUES],
    north_to_move: u64,
}

/// SplitMix64: a fixed, well-mixed sequence, so keys are the same on every run and every machine.
const fn splitmix(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

const fn build() -> Keys {
    let mut keys = Keys {
        houses: [[0; VALUES]; HOUSES],
        south_store: [0; VALUES],
        north_to_move: 0,
    };
    let mut state = 0x0a1e_5eed_u64;
    let mut h = 0;
    while h < HOUSES {
        let mut v = 1; // an empty house adds nothing, so the empty board has key 0 but for the stores
        while v < VALUES {
            let (s, k) = splitmix(state);
            state = s;
            keys.houses[h][v] = k;
            v += 1;
        }
        h += 1;
    }
    let mut v = 0;
    while v < VALUES {
        let (s, k) = splitmix(state);
        state = s;
        keys.south_store[v] = k;
        v += 1;
    }
    let (_, k) = splitmix(state);
    keys.north_to_move = k;
    keys
}

static KEYS: Keys = build();

/// The Zobrist key of a position (houses, stores, side to move).
#[inline]
pub fn key(pos: &Position) -> u64 {
    let mut k = KEYS.south_store[pos.store(Side::South) as usize];
    for (h, &v) in pos.houses().iter().enumerate() {
        k ^= KEYS.houses[h][v as usize];
    }
    if pos.side_to_move() == Side::North {
        k ^= KEYS.north_to_move;
    }
    k
}

/// The same key for the search's [`Board`].
#[inline]
pub fn board_key(board: Board) -> u64 {
    let bytes = board.word().to_le_bytes();
    let mut k = KEYS.south_store[bytes[HOUSES] as usize];
    for (h, &v) in bytes[..HOUSES].iter().enumerate() {
        k ^= KEYS.houses[h][v as usize];
    }
    if board.side_to_move() == Side::North {
        k ^= KEYS.north_to_move;
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::RuleSet;

    #[test]
    fn keys_differ_for_different_positions_and_agree_for_equal_ones() {
        let start = Position::start();
        let north = start.with_side_to_move(Side::North);
        assert_ne!(key(&start), key(&north));
        let a = start
            .play_unchecked("F".parse().unwrap(), RuleSet::Abapa)
            .position;
        let b: Position = "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N".parse().unwrap();
        assert_eq!(key(&a), key(&b));
        // Same board, stores split differently.
        let d: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S".parse().unwrap();
        let e: Position = "0-0-0-0-0-1-0-0-0-0-0-1-22-24-S".parse().unwrap();
        assert_ne!(key(&d), key(&e));
        for p in [start, north, a, b, d, e] {
            assert_eq!(board_key(Board::from_position(&p)), key(&p));
        }
    }
}
