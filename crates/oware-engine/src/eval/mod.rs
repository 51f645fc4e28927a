//! The static evaluation: how good a position is for the side to move, in centiseeds (100 = one seed).
//!
//! The captured seeds dominate; the other terms describe what the next moves will likely capture or
//! give away, each counted for both players and scored as (mine - theirs) times its weight:
//! - seeds in one's houses (under abapa they are one's own at a repetition or when the game stops);
//! - vulnerable houses (1 or 2 seeds: a sown seed makes them 2 or 3, capturable);
//! - empty houses (fewer choices, and targets once refilled with one seed);
//! - houses of 3 to 5 seeds (medium) and of 6 to 11 (large): with the seeds' own weight and the
//!   terms above and below, a house's value is a weight for each size of house, not only a count;
//! - big houses (a kroo, 12 or more seeds: a lap round the board that can capture on return);
//! - reach: houses whose sowing lands on the opponent's row;
//! - threats: houses whose last seed lands on an opponent's house that then holds 2 or 3;
//! - capture: for the side to move only (it moves first, so its threats are real, the opponent's
//!   only potential), the most seeds one of its moves captures next: the last house and, for
//!   sowings of fewer than 12 seeds, the chain of houses before it on the opponent's row (a kroo's
//!   lap counts its last house only).
//!
//! The terms counted house by house (all but the stores, the tempo and the capture) have a weight
//! for each of the six places a house can have in its owner's row (its column, A to F): an empty
//! house at the row's start, where the opponent's sowings end first, is not the same as one at its
//! end. Each weight comes twice over: its own, which holds when the board is empty, and an extra
//! one at the opening, scaled by the seeds still on the board over 48 (a tapered evaluation). The
//! two are blended weight by weight for each count of captured seeds (a *stage* of the game, see
//! [`Weights::at_stage`]), so that an evaluation weighs the houses once, with its stage's weights.

//!
//! The weights are in [`Weights`]; [`features()`] and [`evaluate`] are the reference, computed term
//! by term; [`EvalTable`] is what the search uses, the same value precomputed per house (with a
//! vector path where the processor has SSSE3).

mod endgame;
mod features;
mod simd;
mod table;
mod weights;

pub use endgame::ENDGAME_SEEDS;
pub use features::{evaluate, features};
pub use table::EvalTable;
pub use weights::{house_index, Weights, BOARD_TERMS, HOUSE_TERMS, SIZE_TERMS, TERMS};

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::RuleSet;
    use oware_rules::{Position, Side, HOUSES};
    use simd::has_ssse3;

    #[test]
    fn start_position_is_balanced_but_for_the_tempo() {
        let f = features(&Position::start());
        let mut tempo_only = [0; TERMS];
        tempo_only[1] = 1;
        assert_eq!(f, tempo_only);
        assert_eq!(evaluate(&Position::start(), &Weights::MATERIAL), 0);
    }

    /// The index of a house term's weight (by its name in [`HOUSE_TERMS`]) in column `col`.
    fn house_term(name: &str, col: usize) -> usize {
        house_index(HOUSE_TERMS.iter().position(|&t| t == name).unwrap(), col)
    }

    #[test]
    fn features_are_antisymmetric_between_the_sides() {
        let p: Position = "1-0-13-2-5-3-0-2-1-7-4-0-6-4-S".parse().unwrap();
        let q = p.with_side_to_move(Side::North);
        let (a, b) = (features(&p), features(&q));
        for i in (0..TERMS).filter(|&i| i != 1 && i != 2) {
            assert_eq!(a[i], -b[i], "feature {}", Weights::name(i));
        }
        // South: store +2; A (1 seed) vulnerable; C a kroo; F (3 seeds) lands in c (1 seed): a
        // threat. North's B (2 seeds) is vulnerable too.
        assert_eq!(a[0], 2);
        assert_eq!(a[house_term("vulnerable", 0)], 1);
        assert_eq!(a[house_term("vulnerable", 1)], -1);
        assert_eq!(a[house_term("kroo", 2)], 1);
        assert_eq!(a[house_term("threat", 5)], 1);
        assert_eq!(a[house_term("seeds", 2)], 13 - 1);
    }

    #[test]
    fn capture_counts_the_movers_best_capture_with_its_chain() {
        // South's F (2 seeds) ends in b (1 -> 2) after a (2 -> 3): a chain of 5 seeds; E (1 seed)
        // ends in F, its own row: no capture. North's threats do not count for South.
        let p = Position::from_board([0, 0, 0, 0, 1, 2, 2, 1, 0, 4, 0, 36], Side::South).unwrap();
        assert_eq!(features(&p)[2], 5);
        // The same board with North to move: f (36 seeds, a kroo) and others.
        let q = p.with_side_to_move(Side::North);
        let table = EvalTable::new(&Weights {
            capture: 1,
            ..Weights::ZERO
        });
        assert_eq!(table.evaluate(&p), 5);
        assert_eq!(table.evaluate(&q), features(&q)[2]);
    }

    #[test]
    fn weights_are_set_by_name() {
        let mut w = Weights::DEFAULT;
        assert!(w.set("KROO", 99));
        assert_eq!(
            w.kroo, [99; 6],
            "a house term without a column sets all six"
        );
        assert!(w.set("seeds_b", -7));
        assert_eq!(w.seeds[1], -7);
        assert_eq!(w.seeds[0], Weights::DEFAULT.seeds[0]);
        assert!(w.set("Kroo_C_Opening", -33));
        let kroo_c = house_term("kroo", 2);
        assert_eq!(
            (w.kroo[2], w.opening[kroo_c]),
            (99, -33),
            "each weight set alone"
        );
        assert!(w.set("kroo", 98));
        assert_eq!(
            w.opening[kroo_c], -33,
            "setting a term's own weight keeps its opening weight"
        );
        assert!(w.set("tempo_opening", 5));
        assert_eq!(w.opening[1], 5);
        for bad in [
            "nonsense",
            "nonsense_opening",
            "_opening",
            "kroo_g",
            "store_a",
            "kroo_",
        ] {
            assert!(!w.set(bad, 1), "{bad}");
        }
        let flat = Weights {
            opening: [0; TERMS],
            fitted_endgame: false,
            ..w
        };
        assert_eq!(Weights::from_array(w.as_array()), flat);
        // Every weight's name sets that weight alone.
        for i in 0..TERMS {
            let mut one = Weights::ZERO;
            assert!(one.set(&Weights::name(i), 1), "{}", Weights::name(i));
            let mut expected = [0; TERMS];
            expected[i] = 1;
            assert_eq!(one.as_array(), expected);
        }
    }

    #[test]
    fn the_fitted_endgame_weights_hold_only_with_few_seeds_on_the_board() {
        // 18 seeds on the board: the fitted set of 18 seeds, not the blend of the two ends.
        let small: Position = "1-0-3-2-0-3-0-2-1-4-2-0-16-14-S".parse().unwrap();
        assert_eq!(small.board_seeds(), 18);
        assert_eq!(
            Weights::DEFAULT.at_stage(30).as_array(),
            endgame::FITTED[18],
            "the fitted weights are within the vector path's steps as written"
        );
        assert_ne!(
            evaluate(&small, &Weights::DEFAULT),
            evaluate(&small, &Weights::TAPERED)
        );
        // 21 seeds and more: the blend alone.
        let large: Position = "1-0-3-2-0-3-0-2-1-4-2-3-16-11-S".parse().unwrap();
        assert_eq!(large.board_seeds(), ENDGAME_SEEDS as u8 + 1);
        assert_eq!(
            evaluate(&large, &Weights::DEFAULT),
            evaluate(&large, &Weights::TAPERED)
        );
        // Setting a weight by name keeps the choice.
        let mut w = Weights::TAPERED;
        assert!(w.set("kroo", 3));
        assert!(!w.fitted_endgame);
        let mut w = Weights::DEFAULT;
        assert!(w.set("kroo_opening", 3));
        assert!(w.fitted_endgame);
    }

    /// Positions reached by pseudo-random playouts (a fixed generator), with every kind of house.
    fn sample_positions() -> Vec<Position> {
        let mut out = Vec::new();
        let mut state = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..300 {
            let mut pos = Position::start();
            for _ in 0..200 {
                out.push(pos);
                let moves: Vec<_> = pos.legal_moves(RuleSet::Awari).collect();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[next() as usize % moves.len()];
                pos = pos.play_unchecked(mv, RuleSet::Awari).position;
            }
        }
        // Kroos of every size, to reach the lap arithmetic.
        for big in 12..=48u8 {
            let mut houses = [0u8; HOUSES];
            houses[(big as usize) % HOUSES] = big;
            houses[(big as usize + 7) % HOUSES] += 48 - big;
            for side in [Side::South, Side::North] {
                out.push(Position::from_board(houses, side).unwrap());
            }
        }
        out
    }

    #[test]
    fn a_stages_weights_blend_the_ends_of_the_game_in_steps() {
        let mut w = Weights::MATERIAL;
        w.set("store_opening", -37);
        w.set("threat_b", 3);
        w.set("threat_b_opening", 2);
        // Beyond a byte at the opening's end: the empty houses' weights go in steps of 2.
        w.set("empty_c", 100);
        w.set("empty_c_opening", 101);
        w.set("kroo_opening", 9);
        assert_eq!(w.steps(), [2, 1, 1, 1, 1, 1, 1]);
        let flat = |captured| w.at_stage(captured);
        for at_end in [flat(48), flat(60)] {
            assert_eq!(
                (at_end.store, at_end.threat[1], at_end.empty[2]),
                (100, 3, 100)
            );
        }
        let start = flat(0);
        assert_eq!((start.store, start.threat[1], start.empty[2]), (63, 5, 202));
        assert_eq!(start.kroo, [9; 6]);
        // Half way: 100 - 18.5 rounds up to 82; 3 + 1 = 4; 100 + 50.5 to the nearest even, 150;
        // 4.5 up to 5.
        let half = flat(24);
        assert_eq!((half.store, half.threat[1], half.empty[2]), (82, 4, 150));
        assert_eq!(half.kroo, [5; 6]);
        assert_eq!(half.opening, [0; TERMS]);
        // An odd weight beyond a byte, with no opening weights at all: the even one above it.
        let odd = Weights {
            kroo: [201, -201, 0, 0, 0, 0],
            ..Weights::MATERIAL
        };
        assert_eq!(odd.at_stage(10).kroo, [202, -200, 0, 0, 0, 0]);
    }

    #[test]
    fn a_columns_size_weights_shifted_together_change_no_evaluation() {
        // The own weights shifted, at every stage, by a multiple of the terms' step (2 for some
        // of the default weights): a stage's weights are rounded to it. (A shift of the opening
        // weights alone shifts the stages in between by fractions, which round apart.)
        let mut shifted = Weights::TAPERED.as_array();
        for t in SIZE_TERMS {
            shifted[house_index(t, 2)] += 18;
            shifted[house_index(t, 4)] -= 10;
        }
        let shifted = Weights {
            opening: Weights::TAPERED.opening,
            ..Weights::from_array(shifted)
        };
        for pos in sample_positions().iter().step_by(7) {
            assert_eq!(
                evaluate(pos, &shifted),
                evaluate(pos, &Weights::TAPERED),
                "{pos}"
            );
        }
    }

    #[test]
    fn the_table_evaluation_equals_the_weighted_features() {
        let positions = sample_positions();
        let mut weights = vec![Weights::DEFAULT, Weights::MATERIAL];
        // Weights with every term distinct, so that a term counted in the wrong place shows.
        let distinct = |i: usize| (i as i32 * 37) % 113 - 56;
        weights.push(Weights {
            store: 100,
            ..Weights::from_array(std::array::from_fn(distinct))
        });
        // Every term but the seeds beyond a byte, and so weighed with a step of 2, the
        // opening's weights too.
        let scaled = |i: usize, shift: usize| match i {
            i if i < house_index(1, 0) => distinct(i + shift),
            i => 2 * distinct(i + shift),
        };
        weights.push(Weights {
            store: 100,
            opening: std::array::from_fn(|i| scaled(i, 50)),
            ..Weights::from_array(std::array::from_fn(|i| scaled(i, 0)))
        });
        let vector_path = |w: &Weights| EvalTable::new(w).stages.iter().all(|t| t.ssse3);
        assert_eq!(vector_path(weights.last().unwrap()), has_ssse3());
        assert_eq!(vector_path(&Weights::DEFAULT), has_ssse3());
        // A house term's weight beyond a byte and odd weighs as the even one above it, in the
        // vector path; beyond twice a byte, the vector path steps aside for the table.
        for (kroo, vector) in [(201, has_ssse3()), (256, false)] {
            let mut beyond = Weights::DEFAULT;
            beyond.set("kroo_d", kroo);
            beyond.set("kroo_d_opening", 0);
            assert_eq!(vector_path(&beyond), vector, "{kroo}");
            weights.push(beyond);
        }
        // The same where a weight is beyond twice a byte only at the opening (its own plus its
        // opening weight).
        let mut opening_beyond = Weights::DEFAULT;
        opening_beyond.set("kroo", 200);
        opening_beyond.set("kroo_opening", 100);
        assert!(!vector_path(&opening_beyond));
        weights.push(opening_beyond);
        // The store's weight, which the vector path multiplies as a byte.
        let store_beyond = Weights {
            store: 300,
            ..Weights::DEFAULT
        };
        assert!(!vector_path(&store_beyond));
        weights.push(store_beyond);
        // Extra weights at the opening, every one distinct.
        weights.push(Weights {
            opening: std::array::from_fn(|i| distinct(i + 50)),
            ..Weights::DEFAULT
        });
        for w in weights {
            // Both ways of summing the houses, where the processor and the weights allow the
            // vector one.
            for vector in [false, true] {
                let mut table = EvalTable::new(&w);
                for stage in table.stages.iter_mut() {
                    stage.ssse3 &= vector;
                }
                let ssse3 = table.stages.iter().any(|t| t.ssse3);
                for pos in &positions {
                    assert_eq!(
                        table.evaluate(pos),
                        evaluate(pos, &w),
                        "{pos} {w:?} {ssse3}"
                    );
                }
            }
        }
    }
}
