//! The vector path of the evaluation: the terms of all twelve houses and the two stores at once in
//! one SSE register, where the processor has SSSE3.

#[cfg(target_arch = "x86_64")]
use super::weights::HOUSE_TERMS;
#[cfg(target_arch = "x86_64")]
use oware_rules::PackedPosition;

/// [`super::table::TermTable::houses_scalar`] plus the stores' term for the house weights
/// `weights` (see [`super::table::TermTable::house_weights`]), all twelve houses and the two
/// stores at once in one SSE register: each term is a mask over the houses, weighted per house by a multiply-add, and the
/// byte shuffle gathers every sowing's target house for the threat: fewer instructions than a
/// table lookup per house.
///
/// # Safety
/// The processor must have SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
pub(super) fn house_sums_ssse3(
    b: PackedPosition,
    steps: &[[u8; 16]; HOUSE_TERMS.len() - 1],
    weights: &[[i8; 16]; HOUSE_TERMS.len()],
) -> i32 {
    use std::arch::x86_64::*;
    // Sixteen bytes, little-endian, into a register. The board's bytes past the houses (the
    // stores, the side) go through the house terms' steps too, but only the stores' weights
    // are not zero there.
    let vector = |v: u128| _mm_set_epi64x((v >> 64) as i64, v as i64);
    let seeds = vector(b.word());
    let byte = |v: i8| _mm_set1_epi8(v);
    let above = |n: i8| _mm_cmpgt_epi8(seeds, byte(n));
    // Laps past the origin, which sowing skips: one per 11 seeds beyond the first 11 (0..4 for
    // at most 48 seeds), as minus one per compare that holds.
    let kroo = above(11);
    let minus_laps = _mm_add_epi8(
        _mm_add_epi8(kroo, above(22)),
        _mm_add_epi8(above(33), above(44)),
    );
    // The last seed's house: house + seeds + laps (at most 63), modulo 12.
    let houses = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0, 0, 0, 0);
    let mut last = _mm_sub_epi8(_mm_add_epi8(houses, seeds), minus_laps);
    for m in [48, 24, 12] {
        let wraps = _mm_cmpgt_epi8(last, byte(m - 1));
        last = _mm_sub_epi8(last, _mm_and_si128(wraps, byte(m)));
    }
    // On the opponent's row: beyond house 5 for South's houses, up to it for North's.
    let north = _mm_setr_epi8(0, 0, 0, 0, 0, 0, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0);
    let on_opponent = _mm_xor_si128(_mm_cmpgt_epi8(last, byte(5)), north);
    let empty = _mm_cmpeq_epi8(seeds, _mm_setzero_si128());
    let reach = _mm_andnot_si128(empty, on_opponent);
    // The target holds 2 or 3 after gaining a seed per lap: a threat.
    let target = _mm_shuffle_epi8(seeds, last);
    let after = _mm_sub_epi8(_mm_add_epi8(target, byte(1)), minus_laps);
    let two_or_three = _mm_cmpeq_epi8(_mm_or_si128(after, byte(1)), byte(3));
    let threat = _mm_and_si128(reach, two_or_three);
    let vulnerable = _mm_or_si128(
        _mm_cmpeq_epi8(seeds, byte(1)),
        _mm_cmpeq_epi8(seeds, byte(2)),
    );
    let above_five = above(5);
    let medium = _mm_andnot_si128(above_five, above(2));
    let large = _mm_andnot_si128(kroo, above_five);
    // Each term's weight times what it counts (a house's seeds, or the term's step where the
    // term holds: the masks' -1 made 1 or 2), two houses to a 16-bit sum by one multiply-add;
    // South's weights positive, North's negative, none past the houses but the stores' (the first
    // row: the two stores, the board's bytes 12 and 13, make one more sum). The sums stay far
    // inside 16 bits (48 seeds and weights within a byte; one size term, a reach and a threat a
    // house, each at most 2 x 127). In the order of `HOUSE_TERMS`.
    // (Plain calls and loops, not closures: the multiply-add needs SSSE3, which only this
    // function's body is compiled for.)
    let mut counts = [seeds, empty, vulnerable, medium, large, kroo, reach, threat];
    for (mask, step) in counts[1..].iter_mut().zip(steps) {
        *mask = _mm_and_si128(*mask, vector(u128::from_le_bytes(*step)));
    }
    let mut sum16 = _mm_setzero_si128();
    for (&count, w) in counts.iter().zip(weights) {
        let w = vector(u128::from_le_bytes(w.map(|b| b as u8)));
        sum16 = _mm_add_epi16(sum16, _mm_maddubs_epi16(count, w));
    }
    // The eight 16-bit sums into one.
    let sum32 = _mm_madd_epi16(sum16, _mm_set1_epi16(1));
    let sum32 = _mm_add_epi32(sum32, _mm_shuffle_epi32(sum32, 0b01_00_11_10));
    let sum32 = _mm_add_epi32(sum32, _mm_shuffle_epi32(sum32, 0b10_11_00_01));
    _mm_cvtsi128_si32(sum32)
}

/// Whether [`super::table::TermTable::board_ssse3`] may run here.
pub(super) fn has_ssse3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("ssse3")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}
