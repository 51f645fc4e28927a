//! Position keys: a 64-bit hash per position, for the transposition table (repetitions are found by
//! comparing the boards themselves, not their keys).
//!
//! The search's [`PackedPosition`] already holds the whole position (houses, stores, side) in one
//! 128-bit word, so the key mixes that word with a few multiplications instead of XOR-ing a Zobrist table
//! entry per house (thirteen loads): it is computed for nearly every interior child, and it depends
//! on nothing but the word, so it is the same on every run and machine.

use oware_rules::random::SplitMix64;
use oware_rules::{PackedPosition, Position};

/// The key of a position (houses, stores, side to move).
#[inline]
pub fn key(pos: &Position) -> u64 {
    board_key(PackedPosition::from_position(pos))
}

/// The key of the search's [`PackedPosition`].
#[inline]
pub fn board_key(board: PackedPosition) -> u64 {
    let word = board.word();
    let (low, high) = (word as u64, (word >> 64) as u64);
    // Folding the high half in through a multiplication spreads its few bytes (houses 8..12, the
    // stores, the side) over all 64 bits before they meet the low half; the rest is a bijective
    // finalizer (SplitMix64's), so keys collide only where the fold does.
    SplitMix64::mix(low ^ high.wrapping_mul(SplitMix64::GAMMA))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{RuleSet, Side};
    use std::collections::HashMap;

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
    }

    #[test]
    fn keys_of_many_positions_neither_collide_nor_crowd_buckets() {
        // Every position within six plies of the start and of a few random games' positions: no two
        // different positions share a key, and the bits that pick a table bucket (20 and up) spread
        // them evenly.
        let mut seen: HashMap<u64, Position> = HashMap::new();
        let mut frontier = vec![Position::start()];
        for _ in 0..7 {
            let mut next = Vec::new();
            for pos in frontier {
                if let Some(other) = seen.insert(key(&pos), pos) {
                    assert_eq!(other, pos, "two positions with one key");
                    continue;
                }
                for mv in pos.legal_moves(RuleSet::Abapa) {
                    next.push(pos.play_unchecked(mv, RuleSet::Abapa).position);
                }
            }
            frontier = next;
        }
        assert!(seen.len() > 20_000, "{}", seen.len());
        const BUCKETS: usize = 1 << 10;
        let mut counts = vec![0usize; BUCKETS];
        for k in seen.keys() {
            counts[(k >> 20) as usize & (BUCKETS - 1)] += 1;
        }
        let mean = seen.len() as f64 / BUCKETS as f64;
        let variance = counts
            .iter()
            .map(|&c| (c as f64 - mean).powi(2))
            .sum::<f64>()
            / BUCKETS as f64;
        // Uniform placement gives a variance near the mean (Poisson); a weak mix far more.
        assert!(variance < 1.5 * mean, "variance {variance}, mean {mean}");
    }
}
