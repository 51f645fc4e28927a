//! The reference evaluation: each term's feature counted on the position, weighted. Plain rather
//! than fast, so that the tuning tool can fit weights on the features and a test can hold the fast
//! table to it.

use oware_rules::{last_sown, Position, Side};

use super::weights::{house_index, Weights, TERMS};

/// The features of one position, from the side to move's point of view: each is (mine - theirs),
/// in the order of [`Weights::as_array`] (tempo is always 1, capture is the mover's alone).
/// Evaluation is their dot product with the weights; the tuning tool fits the weights on these.
pub fn features(pos: &Position) -> [i32; TERMS] {
    let me = pos.side_to_move();
    let houses = pos.houses();
    let mut f = [0i32; TERMS];
    f[0] = pos.store(me) as i32 - pos.store(me.opponent()) as i32;
    f[1] = 1;
    let at = house_index;
    for side in [me, me.opponent()] {
        let sign = if side == me { 1 } else { -1 };
        let first = side.first_house();
        let opp_first = side.opponent().first_house();
        for col in 0..6 {
            let h = first + col;
            let seeds = houses[h] as usize;
            f[at(0, col)] += sign * seeds as i32;
            f[at(size_term(seeds), col)] += sign;
            if seeds == 0 {
                continue;
            }
            let (last, gained) = last_sown(h, seeds);
            let gained = usize::from(gained);
            if (opp_first..opp_first + 6).contains(&last) {
                f[at(6, col)] += sign;
                let after = houses[last] as usize + gained;
                if after == 2 || after == 3 {
                    f[at(7, col)] += sign;
                    if side == me {
                        let mut taken = after;
                        if seeds < 12 {
                            // Every house from the opponent's first to the last gained one seed.
                            let mut k = last;
                            while k > opp_first && matches!(houses[k - 1] + 1, 2 | 3) {
                                k -= 1;
                                taken += houses[k] as usize + 1;
                            }
                        }
                        f[2] = f[2].max(taken as i32);
                    }
                }
            }
        }
    }
    f
}

/// The house term (its index in [`super::HOUSE_TERMS`], one of [`super::SIZE_TERMS`]) that a house counts for by
/// its size: empty (0 seeds), vulnerable (1-2), medium (3-5), large (6-11) or kroo (12 and more).
/// The features and the precomputed table both ask here, so that the two agree on where each size
/// ends.
pub(super) fn size_term(seeds: usize) -> usize {
    match seeds {
        0 => 1,
        1 | 2 => 2,
        3..=5 => 3,
        6..=11 => 4,
        _ => 5,
    }
}

/// The evaluation of `pos` for the side to move, in centiseeds: its features weighted by the
/// weights of its stage of the game ([`Weights::at_stage`]).
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let captured = u32::from(pos.store(Side::South)) + u32::from(pos.store(Side::North));
    let weights = w.at_stage(captured).as_array();
    features(pos).iter().zip(weights).map(|(f, w)| f * w).sum()
}
