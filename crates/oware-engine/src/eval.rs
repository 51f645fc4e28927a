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

use oware_rules::{Position, Side, HOUSES};

use crate::board::{Board, STORE_BYTE};

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
/// [`Weights::as_array`] and of [`features`].
pub const fn house_index(term: usize, col: usize) -> usize {
    BOARD_TERMS.len() + 6 * term + col
}

/// The weights of the evaluation terms (centiseeds per unit of the feature, mine minus theirs). The
/// house terms' are by column: index 0 is a house in column A (South's A, North's a).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    pub store: i32,
    /// Bonus for being the side to move.
    pub tempo: i32,
    /// Per seed of the side to move's best capture next move (not a difference: see the module
    /// comment).
    pub capture: i32,
    /// Per seed in the house.
    pub seeds: [i32; 6],
    pub empty: [i32; 6],
    pub vulnerable: [i32; 6],
    /// A house of 3 to 5 seeds.
    pub medium: [i32; 6],
    /// A house of 6 to 11 seeds.
    pub large: [i32; 6],
    pub kroo: [i32; 6],
    pub reach: [i32; 6],
    pub threat: [i32; 6],
    /// What each weight (in the order of [`Weights::as_array`]) weighs more at the start of the
    /// game than at its end: the weight there is its own plus this times the seeds still on the
    /// board over 48, rounded ([`Weights::at_stage`]; set by name as `<name>_opening`). A seed
    /// captured, a kroo or an empty house means something else with 40 seeds in play than with 10.
    pub opening: [i32; TERMS],
}

impl Weights {
    /// The weights the engine plays with: fitted by `examples/tune.rs` on 4000 self-play games at
    /// depth 10 (of the engine of 9956396), each position labelled half by the game's result and
    /// half by the depth-10 search's score (`tune -- 4000 10 0.5`, the fit without the capture
    /// term, by Levenberg-Marquardt steps, each weight of the house terms after the seeds within
    /// ±254; see docs/engine-matches.md for the match that accepted them). The capture term
    /// stays at 0: its fitted weight gave no evidence of strength in a match of its own. A weight
    /// of ±254 is where the fit's limit stopped it.
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
    };

    /// Captured seeds only: the baseline the other terms must beat in matches.
    pub const MATERIAL: Weights = Weights {
        store: 100,
        ..Weights::ZERO
    };

    const ZERO: Weights = Weights {
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
    // The fit wants weights beyond a byte (examples/tune.rs); a step of 2 lets the same
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
    pub fn at_stage(&self, captured: u32) -> Weights {
        self.stage_in_steps(captured, self.steps())
    }

    /// [`Weights::at_stage`] with the steps given (the evaluation's table computes them once for
    /// all the stages).
    fn stage_in_steps(&self, captured: u32, steps: [u8; HOUSE_TERMS.len() - 1]) -> Weights {
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
    fn house_terms(&self) -> [[i32; 6]; HOUSE_TERMS.len()] {
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
fn weight_step(steps: &[u8; HOUSE_TERMS.len() - 1], i: usize) -> u8 {
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
            let (last, gained) = landing(h, seeds);
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

/// The house term (its index in [`HOUSE_TERMS`], one of [`SIZE_TERMS`]) that a house counts for by
/// its size: empty (0 seeds), vulnerable (1-2), medium (3-5), large (6-11) or kroo (12 and more).
/// The features and the precomputed table both ask here, so that the two agree on where each size
/// ends.
fn size_term(seeds: usize) -> usize {
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

/// What one house holding a given number of seeds adds to the evaluation, for its owner.
#[derive(Debug, Clone, Copy, Default)]
struct HouseTerm {
    /// Row seeds, vulnerable, empty, kroo and reach, weighted.
    base: i32,
    /// The house where the last seed lands when it is on the opponent's row, else [`NO_TARGET`]
    /// (a padding byte that reads as 3 seeds: never a threat).
    target: u8,
    /// Bit `v` set: the sowing is a threat when the target house holds `v` seeds (`v` < 3; with
    /// more the target always ends above 3).
    threat_when: u8,
    /// Seeds the target house gains from this sowing (one per lap).
    gained: u8,
    /// Whether a capture here can chain back over the houses before the target (fewer than 12
    /// seeds: each of those gained exactly one seed).
    chain: bool,
}

/// The evaluation precomputed per (house, seeds) for one stage's weights: the same value as
/// [`evaluate`] (a test holds them equal) for a fraction of the work, since every term but the
/// threat depends on one house alone. Where the processor (SSSE3) and the weights (each house
/// term's and the store's within a byte of steps) allow, the terms of the houses and the stores are
/// computed all at once in a vector register instead of looked up (`board_ssse3`; the capture term
/// still uses the table). [`EvalTable`] holds one per stage of the game.
#[derive(Debug, Clone)]
struct TermTable {
    /// By house, then seeds (rows padded to [`ROW`], so that a masked index needs no bounds check).
    terms: Box<[[HouseTerm; ROW]; HOUSES]>,
    weights: Weights,
    /// The weights of the house terms for the vector path, one byte per house: the weight under
    /// South's six houses, its negation under North's (the sum is South's minus North's). In the
    /// order of [`HOUSE_TERMS`]. Zero in the four bytes past the
    /// houses, but for the first row, which multiplies the board's bytes themselves: it has the
    /// store weight under South's store and its negation under North's.
    house_weights: [[i8; 16]; HOUSE_TERMS.len()],
    /// What the vector path counts a house as where a term after the seeds holds (its step,
    /// [`Weights::steps`]), in a byte per house: the term's weight is `step × house_weights`.
    mask_steps: [[u8; 16]; HOUSE_TERMS.len() - 1],
    /// Whether [`TermTable::board_ssse3`] may run: the processor has SSSE3 and every weight above
    /// fits its byte (weights beyond that, as a user may set, take the table path).
    ssse3: bool,
}

/// A weight as a byte whose negation is a byte too.
fn as_byte(weight: i32) -> Option<i8> {
    i8::try_from(weight).ok().filter(|&b| b != i8::MIN)
}

/// Seeds one house can hold: 0..=48.
const VALUES: usize = 49;
/// A power of two above [`VALUES`].
const ROW: usize = 64;

/// [`HouseTerm::target`] of a sowing that does not end on the opponent's row.
const NO_TARGET: u8 = HOUSES as u8;

/// The evaluation for one set of weights, precomputed: the same value as [`evaluate`] (a test holds
/// them equal). The engine builds one when its weights are set.
#[derive(Debug, Clone)]
pub struct EvalTable {
    /// The weights of each stage of the game, by the seeds captured (0 to 48,
    /// [`Weights::at_stage`]); one alone where no weight changes with the stage.
    stages: Box<[TermTable]>,
}

impl EvalTable {
    pub fn new(w: &Weights) -> EvalTable {
        let steps = w.steps();
        let stages = if w.opening == [0; TERMS] {
            vec![TermTable::new(&w.stage_in_steps(48, steps), steps)]
        } else {
            (0..=48)
                .map(|captured| TermTable::new(&w.stage_in_steps(captured, steps), steps))
                .collect()
        };
        EvalTable {
            stages: stages.into_boxed_slice(),
        }
    }

    /// The evaluation of `pos` for the side to move: equal to [`evaluate`] with these weights.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_board(Board::from_position(pos))
    }

    /// The same for the search's [`Board`].
    #[inline(always)]
    pub(crate) fn evaluate_board(&self, b: Board) -> i32 {
        let captured = usize::from(b.store(Side::South)) + usize::from(b.store(Side::North));
        self.stages[captured.min(self.stages.len() - 1)].evaluate_board(b)
    }
}

impl TermTable {
    /// The table for weights `w` (none at the opening), whose house terms after the seeds the
    /// vector path weighs in `steps` ([`Weights::steps`]) where each weight is a byte of steps.
    fn new(w: &Weights, steps: [u8; HOUSE_TERMS.len() - 1]) -> TermTable {
        let mut terms = Box::new([[HouseTerm::default(); ROW]; HOUSES]);
        let by_term = w.house_terms();
        for (h, row) in terms.iter_mut().enumerate() {
            let opp_first = if h < 6 { 6 } else { 0 };
            let col = h % 6;
            for (seeds, term) in row.iter_mut().enumerate().take(VALUES) {
                let mut base = w.seeds[col] * seeds as i32 + by_term[size_term(seeds)][col];
                let mut target = NO_TARGET;
                let mut threat_when = 0;
                let mut gained_here = 0;
                if seeds > 0 {
                    let (last, gained) = landing(h, seeds);
                    if (opp_first..opp_first + 6).contains(&last) {
                        base += w.reach[col];
                        target = last as u8;
                        gained_here = gained as u8;
                        for v in 0..3 {
                            if matches!(v + gained, 2 | 3) {
                                threat_when |= 1 << v;
                            }
                        }
                    }
                }
                *term = HouseTerm {
                    base,
                    target,
                    threat_when,
                    gained: gained_here,
                    chain: seeds < 12,
                };
            }
        }
        // A term's weights in steps, by place in the row: South's, then North's negated.
        let by_house = |weights: [i32; 6], step: u8| {
            let mut row = [0i8; 16];
            for (col, &weight) in weights.iter().enumerate() {
                let step = i32::from(step);
                let byte = as_byte(weight / step).filter(|_| weight % step == 0)?;
                row[col] = byte;
                row[6 + col] = -byte;
            }
            Some(row)
        };
        let mut house_weights: [Option<[i8; 16]>; HOUSE_TERMS.len()] =
            std::array::from_fn(|t| by_house(by_term[t], weight_step(&steps, house_index(t, 0))));
        let store = as_byte(w.store);
        if let (Some(rows), Some(store)) = (&mut house_weights[0], store) {
            rows[STORE_BYTE] = store;
            rows[STORE_BYTE + 1] = -store;
        }
        TermTable {
            terms,
            weights: *w,
            ssse3: has_ssse3() && store.is_some() && house_weights.iter().all(Option::is_some),
            house_weights: house_weights.map(Option::unwrap_or_default),
            mask_steps: steps.map(|u| [u; 16]),
        }
    }

    /// The evaluation of a board for the side to move with these weights alone.
    // Always inlined, down to one call (of the vector path, whose processor features the search's
    // code is not compiled for): the search evaluates at most of its nodes.
    #[inline(always)]
    fn evaluate_board(&self, b: Board) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.ssse3 {
            // SAFETY: `ssse3` is set only where the processor has SSSE3.
            return unsafe { self.evaluate_ssse3(b) };
        }
        let stores = b.store(Side::South) as i32 - b.store(Side::North) as i32;
        self.for_mover(b, self.houses_scalar(b) + self.weights.store * stores)
    }

    /// [`TermTable::evaluate_board`] by the vector path.
    ///
    /// # Safety
    /// The processor must have SSSE3.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    fn evaluate_ssse3(&self, b: Board) -> i32 {
        self.for_mover(b, self.board_ssse3(b))
    }

    /// The evaluation for the side to move, given the terms of the houses and the stores for South
    /// (South's minus North's).
    #[inline(always)]
    fn for_mover(&self, b: Board, for_south: i32) -> i32 {
        let w = &self.weights;
        // The side to move as 0 (South) or 1 (North), and the sign by arithmetic: a branch on it
        // mispredicted (the side alternates along every line of the search).
        let north = b.side_index() as i32;
        let signed = (for_south ^ -north) + north + w.tempo;
        // The capture term is skipped when its weight is zero, so that the weights without it
        // cost what they did before it existed; it is added out of line, as the last step, so
        // that nothing is live across its call and the common path saves no registers.
        if w.capture != 0 {
            return self.add_capture(b, signed);
        }
        signed
    }

    /// `partial` plus the capture term of `b` (see [`TermTable::for_mover`]).
    #[cold]
    #[inline(never)]
    fn add_capture(&self, b: Board, partial: i32) -> i32 {
        let north = b.side_index();
        partial + self.weights.capture * self.best_capture(&padded(b), 6 * north)
    }

    /// The terms of the twelve houses (all but the stores, the tempo and the capture), South's
    /// minus North's, one table entry per house.
    #[inline]
    fn houses_scalar(&self, b: Board) -> i32 {
        let board = padded(b);
        let term_value = |h: usize| {
            let term = &self.terms[h][board[h] as usize & (ROW - 1)];
            // At most 48 seeds: the shift stays inside the 64-bit word.
            let at = board[term.target as usize & 15];
            let threat = self.weights.threat[h % 6];
            term.base + threat * ((u64::from(term.threat_when) >> at) & 1) as i32
        };
        let south: i32 = (0..6).map(term_value).sum();
        let north: i32 = (6..HOUSES).map(term_value).sum();
        south - north
    }

    /// The same as [`TermTable::houses_scalar`] plus the stores' term, by the vector path
    /// ([`house_sums_ssse3`]).
    ///
    /// # Safety
    /// The processor must have SSSE3.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "ssse3")]
    fn board_ssse3(&self, b: Board) -> i32 {
        house_sums_ssse3(b, &self.mask_steps, &self.house_weights)
    }

    /// The most seeds one move of the side whose row starts at `first` captures, on the padded
    /// board of [`TermTable::evaluate_board`] (the same count as the capture feature).
    #[inline]
    fn best_capture(&self, board: &[u8; 16], first: usize) -> i32 {
        let opp_first = 6 - first;
        let mut best = 0;
        for (h, &seeds) in board.iter().enumerate().skip(first).take(6) {
            let term = &self.terms[h][seeds as usize & (ROW - 1)];
            let at = board[term.target as usize & 15];
            if (u64::from(term.threat_when) >> at) & 1 == 0 {
                continue;
            }
            let mut taken = i32::from(at) + i32::from(term.gained);
            if term.chain {
                let mut k = term.target as usize;
                while k > opp_first && matches!(board[k - 1], 1 | 2) {
                    k -= 1;
                    taken += i32::from(board[k]) + 1;
                }
            }
            best = best.max(taken);
        }
        best
    }
}

/// Bytes 12..16 of the padded board, each 3 (see [`padded`]).
const PADDING_OF_THREES: u128 = 0x0303_0303 << (8 * HOUSES);

/// The houses padded to 16 bytes: the padding reads as 3 seeds, so that a house without a target
/// (its [`HouseTerm::target`] is a padding byte) looks at a house that is never a threat, and the
/// lookups need no branch.
#[inline]
fn padded(b: Board) -> [u8; 16] {
    (b.houses_word() | PADDING_OF_THREES).to_le_bytes()
}

/// [`TermTable::houses_scalar`] plus the stores' term for the house weights `weights` (see
/// [`TermTable::house_weights`]), all twelve houses and the two stores at once in one SSE
/// register: each term is a mask over the houses, weighted per house by a multiply-add, and the
/// byte shuffle gathers every sowing's target house for the threat (docs/benchmarks.md: 153
/// instructions instead of the table's 216 when the terms were counted by `popcnt`, fewer since).
///
/// # Safety
/// The processor must have SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
fn house_sums_ssse3(
    b: Board,
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

/// Whether [`TermTable::board_ssse3`] may run here.
fn has_ssse3() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("ssse3")
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Where the last seed of `seeds` sown from house `h` lands, and how many seeds that house gains on
/// the way (one per lap; the origin is skipped on every lap).
fn landing(h: usize, seeds: usize) -> (usize, usize) {
    if seeds < HOUSES {
        ((h + seeds) % HOUSES, 1)
    } else {
        let rest = seeds % 11;
        let laps = seeds / 11;
        if rest == 0 {
            ((h + HOUSES - 1) % HOUSES, laps)
        } else {
            ((h + rest) % HOUSES, laps + 1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::RuleSet;

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
        let mut shifted = Weights::DEFAULT.as_array();
        for t in SIZE_TERMS {
            shifted[house_index(t, 2)] += 18;
            shifted[house_index(t, 4)] -= 10;
        }
        let shifted = Weights {
            opening: Weights::DEFAULT.opening,
            ..Weights::from_array(shifted)
        };
        for pos in sample_positions().iter().step_by(7) {
            assert_eq!(
                evaluate(pos, &shifted),
                evaluate(pos, &Weights::DEFAULT),
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
