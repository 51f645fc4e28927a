//! The static evaluation: how good a position is for the side to move, in centiseeds (100 = one seed).
//!
//! The captured seeds dominate; the other terms describe what the next moves will likely capture or
//! give away, each counted for both players and scored as (mine - theirs) times its weight:
//! - seeds on one's own row (under abapa they are one's own at a repetition or when the game stops);
//! - vulnerable houses (1 or 2 seeds: a sown seed makes them 2 or 3, capturable);
//! - empty houses (fewer choices, and targets once refilled with one seed);
//! - big houses (a kroo, 12 or more seeds: a lap round the board that can capture on return);
//! - reach: houses whose sowing lands on the opponent's row;
//! - threats: houses whose last seed lands on an opponent's house that then holds 2 or 3.

use oware_rules::{Position, HOUSES};

/// The weights of the evaluation terms (centiseeds per unit of the feature, mine minus theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    pub store: i32,
    pub row_seeds: i32,
    pub vulnerable: i32,
    pub empty: i32,
    pub kroo: i32,
    pub reach: i32,
    pub threat: i32,
    /// Bonus for being the side to move.
    pub tempo: i32,
}

impl Weights {
    /// The weights the engine plays with: fitted by `examples/tune.rs` on 2000 self-play games at
    /// depth 6 (see docs/engine-matches.md for the match that accepted them).
    pub const DEFAULT: Weights = Weights {
        store: 100,
        row_seeds: -4,
        vulnerable: -21,
        empty: -110,
        kroo: 78,
        reach: -41,
        threat: 94,
        tempo: 1,
    };

    /// Captured seeds only: the baseline the other terms must beat in matches.
    pub const MATERIAL: Weights = Weights {
        store: 100,
        row_seeds: 0,
        vulnerable: 0,
        empty: 0,
        kroo: 0,
        reach: 0,
        threat: 0,
        tempo: 0,
    };

    /// The names of the terms, in the order of [`Weights::as_array`].
    pub const NAMES: [&'static str; 8] = [
        "store",
        "row_seeds",
        "vulnerable",
        "empty",
        "kroo",
        "reach",
        "threat",
        "tempo",
    ];

    pub fn as_array(&self) -> [i32; 8] {
        [
            self.store,
            self.row_seeds,
            self.vulnerable,
            self.empty,
            self.kroo,
            self.reach,
            self.threat,
            self.tempo,
        ]
    }

    pub fn from_array(a: [i32; 8]) -> Weights {
        Weights {
            store: a[0],
            row_seeds: a[1],
            vulnerable: a[2],
            empty: a[3],
            kroo: a[4],
            reach: a[5],
            threat: a[6],
            tempo: a[7],
        }
    }

    /// Sets one weight by name; `false` if there is no such term.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        match Weights::NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
        {
            Some(i) => {
                let mut a = self.as_array();
                a[i] = value;
                *self = Weights::from_array(a);
                true
            }
            None => false,
        }
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// The features of one position, from the side to move's point of view: each is (mine - theirs),
/// in the order of [`Weights::NAMES`] (tempo is always 1). Evaluation is their dot product with the
/// weights; the tuning tool fits the weights on these.
pub fn features(pos: &Position) -> [i32; 8] {
    let me = pos.side_to_move();
    let houses = pos.houses();
    let mut f = [0i32; 8];
    f[0] = pos.store(me) as i32 - pos.store(me.opponent()) as i32;
    for side in [me, me.opponent()] {
        let sign = if side == me { 1 } else { -1 };
        let first = side.first_house();
        let opp_first = side.opponent().first_house();
        for col in 0..6 {
            let h = first + col;
            let seeds = houses[h] as usize;
            f[1] += sign * seeds as i32;
            match seeds {
                0 => f[3] += sign,
                1 | 2 => f[2] += sign,
                12.. => f[4] += sign,
                _ => {}
            }
            if seeds == 0 {
                continue;
            }
            // Where the last seed lands, and how many seeds that house gains on the way (one per lap).
            let (last, gained) = if seeds < HOUSES {
                ((h + seeds) % HOUSES, 1)
            } else {
                let rest = seeds % 11;
                let laps = seeds / 11;
                if rest == 0 {
                    ((h + HOUSES - 1) % HOUSES, laps)
                } else {
                    ((h + rest) % HOUSES, laps + 1)
                }
            };
            if (opp_first..opp_first + 6).contains(&last) {
                f[5] += sign;
                let after = houses[last] as usize + gained;
                if after == 2 || after == 3 {
                    f[6] += sign;
                }
            }
        }
    }
    f[7] = 1;
    f
}

/// The evaluation of `pos` for the side to move, in centiseeds.
#[inline]
pub fn evaluate(pos: &Position, w: &Weights) -> i32 {
    let f = features(pos);
    let w = w.as_array();
    f.iter().zip(w.iter()).map(|(a, b)| a * b).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::Side;

    #[test]
    fn start_position_is_balanced_but_for_the_tempo() {
        let f = features(&Position::start());
        assert_eq!(f, [0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(evaluate(&Position::start(), &Weights::MATERIAL), 0);
    }

    #[test]
    fn features_are_antisymmetric_between_the_sides() {
        let p: Position = "1-0-13-2-5-3-0-2-1-7-4-0-6-4-S".parse().unwrap();
        let q = p.with_side_to_move(Side::North);
        let (a, b) = (features(&p), features(&q));
        for i in 0..7 {
            assert_eq!(a[i], -b[i], "feature {}", Weights::NAMES[i]);
        }
        // South: store +2; A (1 seed) vulnerable; C is a kroo; F (3 seeds) lands in c (1 seed): a threat.
        assert_eq!(a[0], 2);
        assert_eq!(a[4], 1);
        assert!(a[6] >= 1);
    }

    #[test]
    fn weights_are_set_by_name() {
        let mut w = Weights::DEFAULT;
        assert!(w.set("KROO", 99));
        assert_eq!(w.kroo, 99);
        assert!(!w.set("nonsense", 1));
        assert_eq!(Weights::from_array(w.as_array()), w);
    }
}
