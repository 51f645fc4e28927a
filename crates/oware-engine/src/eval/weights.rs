//! The evaluation's weights: the terms and their order, the default and material sets, setting a
//! weight by name, and the blend of each weight between the opening and the end of the game.

use super::endgame::{ENDGAME_SEEDS, FITTED};

/// The terms counted once for each side, in the order of their weights (see [`Weights::name`]).
pub const BOARD_TERMS: [&str; 3] = ["store", "tempo", "capture"];
/// The terms counted house by house, each with a weight per column, in the order of their weights
/// after the board terms'.
pub const HOUSE_TERMS: [&str; 8] = [
    "seeds",
    "empty",
    "vulnerable",
    "medium",
    "large",
    "kroo",
    "reach",
    "threat",
];
/// How many weights a set has (not counting the opening's): the board terms', then the house
/// terms' by column.
pub const TERMS: usize = BOARD_TERMS.len() + 6 * HOUSE_TERMS.len();

/// The house terms of a house's size (in [`HOUSE_TERMS`]: empty, vulnerable, medium, large and
/// kroo). Every house counts for exactly one of them, so in each column their features add up to
/// zero (one house of each side): adding the same amount to a column's five weights changes no
/// evaluation.
pub const SIZE_TERMS: std::ops::Range<usize> = 1..6;

/// The index of house term `term`'s weight (in [`HOUSE_TERMS`]) for column `col`, in the order of
/// [`Weights::as_array`] and of [`super::features()`].
pub const fn house_index(term: usize, col: usize) -> usize {
    BOARD_TERMS.len() + 6 * term + col
}

/// The weights of the evaluation terms (centiseeds per unit of the feature, mine minus theirs). The
/// house terms' are by column: index 0 is a house in column A (South's A, North's a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Per seed in the store.
    pub store: i32,
    /// Bonus for being the side to move.
    pub tempo: i32,
    /// Per seed of the side to move's best capture next move (not a difference: see the module
    /// comment).
    pub capture: i32,
    /// Per seed in the house.
    pub seeds: [i32; 6],
    /// An empty house (fewer choices for its owner, a target once refilled with one seed).
    pub empty: [i32; 6],
    /// A house of 1 or 2 seeds, which a sown seed makes capturable.
    pub vulnerable: [i32; 6],
    /// A house of 3 to 5 seeds.
    pub medium: [i32; 6],
    /// A house of 6 to 11 seeds.
    pub large: [i32; 6],
    /// A house of 12 or more seeds (a kroo), whose lap round the board can capture on return.
    pub kroo: [i32; 6],
    /// A house whose sowing reaches the opponent's row.
    pub reach: [i32; 6],
    /// A house whose last seed lands on an opponent's house that then holds 2 or 3.
    pub threat: [i32; 6],
    /// What each weight (in the order of [`Weights::as_array`]) weighs more at the start of the
    /// game than at its end: the weight there is its own plus this times the seeds still on the
    /// board over 48, rounded ([`Weights::at_stage`]; set by name as `<name>_opening`). A seed
    /// captured, a kroo or an empty house means something else with 40 seeds in play than with 10.
    pub opening: [i32; TERMS],
    /// Whether, with at most [`ENDGAME_SEEDS`] seeds on the board, the weights fitted there to the
    /// endgame databases' exact values (one set for each count of seeds, `eval/endgame.rs`) hold
    /// instead of the weights above: the blend of two ends cannot follow what a seed more or less
    /// means in a small endgame.
    pub fitted_endgame: bool,
}

impl Weights {
    /// The weights the engine plays with: fitted by `examples/tune/main.rs` on 4000 self-play games
    /// at depth 10 (of the engine of 9956396), each position labelled half by the game's result and
    /// half by the depth-10 search's score (`tune -- 4000 10 0.5`, the fit without the capture
    /// term, by Levenberg-Marquardt steps, each weight of the house terms after the seeds within
    /// ±254; see docs/engine-matches.md for the match that accepted them). The capture term
    /// stays at 0: its fitted weight gave no evidence of strength in a match of its own. A weight
    /// of ±254 is where the fit's limit stopped it. With at most [`ENDGAME_SEEDS`] seeds on the
    /// board, the sets fitted to the endgame databases hold instead ([`Weights::fitted_endgame`]).
    #[rustfmt::skip]
    pub const DEFAULT: Weights = Weights {
        store: 100,
        tempo: -40,
        capture: 0,
        //           A     B     C     D     E     F
        seeds:      [28,   34,   28,   8,    3,    30],
        empty:      [-76,  -94,  -54,  36,   -70,  146],
        vulnerable: [196,  164,  152,  212,  52,   116],
        medium:     [230,  190,  152,  -60,  -16,  -202],
        large:      [-230, -18,  -116, -212, -254, -254],
        kroo:       [-92,  -190, -152, -24,  254,  254],
        reach:      [250,  -52,  -30,  214,  34,   94],
        threat:     [254,  230,  236,  238,  174,  130],
        opening: [
            -37,  37,   0,                      // store, tempo, capture
            -43,  -39,  -34,  2,    -2,   -26,  // seeds, A to F
            -74,  -66,  -108, -76,  -60,  -254, // empty
            -254, -254, -246, -212, -134, -126, // vulnerable
            -132, -208, -196, 102,  -4,   254,  // medium
            86,   -34,  66,   212,  254,  254,  // large
            254,  254,  246,  64,   -254, -254, // kroo
            -36,  58,   36,   -254, -66,  -168, // reach
            -244, -196, -194, -208, -124, -84,  // threat
        ],
        fitted_endgame: true,
    };

    /// The engine's weights without the fitted endgame: the blend of the opening and the end alone
    /// at every stage (the weights before the fit, to measure it against).
    pub const TAPERED: Weights = Weights {
        fitted_endgame: false,
        ..Weights::DEFAULT
    };

    /// The named sets of weights, for the protocol's `Eval` option and `oware bench --eval`.
    pub const NAMED: [(&'static str, Weights); 3] = [
        ("default", Weights::DEFAULT),
        ("tapered", Weights::TAPERED),
        ("material", Weights::MATERIAL),
    ];

    /// The set of weights of that name ([`Weights::NAMED`]).
    pub fn named(name: &str) -> Option<Weights> {
        Weights::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, w)| w)
    }

    /// Captured seeds only: the baseline the other terms must beat in matches.
    pub const MATERIAL: Weights = Weights {
        store: 100,
        ..Weights::ZERO
    };

    pub(super) const ZERO: Weights = Weights {
        store: 0,
        tempo: 0,
        capture: 0,
        seeds: [0; 6],
        empty: [0; 6],
        vulnerable: [0; 6],
        medium: [0; 6],
        large: [0; 6],
        kroo: [0; 6],
        reach: [0; 6],
        threat: [0; 6],
        opening: [0; TERMS],
        fitted_endgame: false,
    };

    /// The name of weight `i` (in the order of [`Weights::as_array`]): a board term's, or a house
    /// term's with its column (`kroo_c`).
    pub fn name(i: usize) -> String {
        match i.checked_sub(BOARD_TERMS.len()) {
            None => BOARD_TERMS[i].to_string(),
            Some(k) => format!(
                "{}_{}",
                HOUSE_TERMS[k / 6],
                char::from(b'a' + (k % 6) as u8)
            ),
        }
    }

    /// The step of each house term after the seeds (empty to threat): 1, or 2 where one of the
    /// term's weights at some stage of the game ([`Weights::at_stage`]) is beyond a byte. The
    /// evaluation's vector path weighs a term in bytes of its step: ±127 steps.
    // The fit wants weights beyond a byte (examples/tune/main.rs); a step of 2 lets the same
    // multiply-add weigh them, at the price of even weights there.
    pub fn steps(&self) -> [u8; HOUSE_TERMS.len() - 1] {
        let own = self.as_array();
        std::array::from_fn(|t| {
            // At the two ends of the game: a stage's weight lies between them (the blend is linear
            // in the stage, and rounding keeps the order).
            let fits = [0, 48].into_iter().all(|on_board| {
                (0..6).all(|col| {
                    let weight =
                        round_to_step(self.blended(&own, house_index(t + 1, col), on_board), 1);
                    i32::try_from(weight).ok().and_then(as_byte).is_some()
                })
            });
            if fits {
                1
            } else {
                2
            }
        })
    }

    /// The weights that hold with `captured` seeds in the two stores (a stage of the game, 0 to
    /// 48): each its own weight plus its opening weight times the seeds still on the board over
    /// 48, rounded to the nearest multiple of its step (1, but see [`Weights::steps`]), halves up.
    /// None at the opening. With no opening weights, the own weights (rounded to their steps: an
    /// odd weight beyond a byte weighs as the even one above it).
    /// With [`Weights::fitted_endgame`], a stage of at most [`ENDGAME_SEEDS`] seeds on the board
    /// has its fitted weights instead ([`Weights::fitted_stage`]).
    pub fn at_stage(&self, captured: u32) -> Weights {
        match self.fitted_stage(captured) {
            Some(fitted) => fitted.at_stage(48),
            None => self.stage_in_steps(captured, self.steps()),
        }
    }

    /// The weights fitted to the databases for the stage with `captured` seeds in the stores, where
    /// [`Weights::fitted_endgame`] asks for them and the stage has some (at most [`ENDGAME_SEEDS`]
    /// seeds on the board): a set of its own, with no opening weights and its own steps.
    pub fn fitted_stage(&self, captured: u32) -> Option<Weights> {
        let on_board = 48 - captured.min(48) as usize;
        (self.fitted_endgame && on_board <= ENDGAME_SEEDS)
            .then(|| Weights::from_array(FITTED[on_board]))
    }

    /// [`Weights::at_stage`] with the steps given (the evaluation's table computes them once for
    /// all the stages).
    pub(super) fn stage_in_steps(
        &self,
        captured: u32,
        steps: [u8; HOUSE_TERMS.len() - 1],
    ) -> Weights {
        let on_board = 48 - captured.min(48);
        let own = self.as_array();
        Weights::from_array(std::array::from_fn(|i| {
            let weight = round_to_step(self.blended(&own, i, on_board), weight_step(&steps, i));
            weight.clamp(i32::MIN.into(), i32::MAX.into()) as i32
        }))
    }

    /// Weight `i` (in the order of [`Weights::as_array`], `own` the own weights in that order) with
    /// `on_board` seeds on the board, times [`BLEND_UNIT`] (exact: in 64 bits, any i32 weights).
    fn blended(&self, own: &[i32; TERMS], i: usize, on_board: u32) -> i64 {
        BLEND_UNIT * i64::from(own[i]) + i64::from(on_board) * i64::from(self.opening[i])
    }

    /// The house terms' weights, in the order of [`HOUSE_TERMS`].
    pub(super) fn house_terms(&self) -> [[i32; 6]; HOUSE_TERMS.len()] {
        [
            self.seeds,
            self.empty,
            self.vulnerable,
            self.medium,
            self.large,
            self.kroo,
            self.reach,
            self.threat,
        ]
    }

    /// All the weights but the opening's: the board terms', then the house terms' by column.
    pub fn as_array(&self) -> [i32; TERMS] {
        let mut a = [0; TERMS];
        a[..3].copy_from_slice(&[self.store, self.tempo, self.capture]);
        for (t, columns) in self.house_terms().iter().enumerate() {
            a[house_index(t, 0)..][..6].copy_from_slice(columns);
        }
        a
    }

    /// The weights of [`Weights::as_array`]'s order, none at the opening.
    pub fn from_array(a: [i32; TERMS]) -> Weights {
        let columns = |t: usize| -> [i32; 6] { std::array::from_fn(|c| a[house_index(t, c)]) };
        Weights {
            store: a[0],
            tempo: a[1],
            capture: a[2],
            seeds: columns(0),
            empty: columns(1),
            vulnerable: columns(2),
            medium: columns(3),
            large: columns(4),
            kroo: columns(5),
            reach: columns(6),
            threat: columns(7),
            opening: [0; TERMS],
            fitted_endgame: false,
        }
    }

    /// Sets weights by name: a board term's (`store`), a house term's in one column (`kroo_c`) or
    /// in all six (`kroo`), each also as `<name>_opening`, its extra weight at the opening; `false`
    /// if there is no such weight.
    pub fn set(&mut self, name: &str, value: i32) -> bool {
        let name = name.to_ascii_lowercase();
        let (name, opening) = match name.strip_suffix("_opening") {
            Some(name) => (name, true),
            None => (name.as_str(), false),
        };
        let indices: Vec<usize> = if let Some(i) = BOARD_TERMS.iter().position(|&t| t == name) {
            vec![i]
        } else if let Some(t) = HOUSE_TERMS.iter().position(|&t| t == name) {
            (0..6).map(|c| house_index(t, c)).collect()
        } else if let Some(i) = (house_index(0, 0)..TERMS).find(|&i| Weights::name(i) == name) {
            vec![i]
        } else {
            return false;
        };
        let mut a = if opening {
            self.opening
        } else {
            self.as_array()
        };
        for i in indices {
            a[i] = value;
        }
        if opening {
            self.opening = a;
        } else {
            *self = Weights {
                opening: self.opening,
                fitted_endgame: self.fitted_endgame,
                ..Weights::from_array(a)
            };
        }
        true
    }
}

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

/// The step of weight `i` (in the order of [`Weights::as_array`]) given the house terms' `steps`
/// ([`Weights::steps`]): its term's for a house term after the seeds, else 1 (the seeds count
/// themselves, and the store, tempo and capture weights are not counted by masks).
pub(super) fn weight_step(steps: &[u8; HOUSE_TERMS.len() - 1], i: usize) -> u8 {
    match i.checked_sub(house_index(1, 0)) {
        Some(k) => steps[k / 6],
        None => 1,
    }
}

/// The denominator of [`Weights::blended`]: the seeds in the game.
const BLEND_UNIT: i64 = 48;

/// A weight times [`BLEND_UNIT`] rounded to the nearest multiple of `step`, halves up.
fn round_to_step(blended: i64, step: u8) -> i64 {
    let step = i64::from(step);
    step * (2 * blended + BLEND_UNIT * step).div_euclid(2 * BLEND_UNIT * step)
}

/// A weight as a byte whose negation is a byte too.
pub(super) fn as_byte(weight: i32) -> Option<i8> {
    i8::try_from(weight).ok().filter(|&b| b != i8::MIN)
}
