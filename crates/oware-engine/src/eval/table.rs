//! The evaluation the search uses: every term that depends on one house alone precomputed per
//! (house, seeds) for each stage's weights, the threat and capture terms looked up through each
//! sowing's target house.

use oware_rules::{last_sown, PackedPosition, Position, Side, HOUSES};

use super::features::size_term;
use super::simd::has_ssse3;
#[cfg(target_arch = "x86_64")]
use super::simd::house_sums_ssse3;
use super::weights::{as_byte, house_index, weight_step, Weights, HOUSE_TERMS, TERMS};

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
/// [`super::evaluate`] (a test holds them equal) for a fraction of the work, since every term but the
/// threat depends on one house alone. Where the processor (SSSE3) and the weights (each house
/// term's and the store's within a byte of steps) allow, the terms of the houses and the stores are
/// computed all at once in a vector register instead of looked up (`board_ssse3`; the capture term
/// still uses the table). [`EvalTable`] holds one per stage of the game.
#[derive(Debug, Clone)]
pub(super) struct TermTable {
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
    pub(super) ssse3: bool,
}

/// Seeds one house can hold: 0..=48.
const VALUES: usize = 49;
/// A power of two above [`VALUES`].
const ROW: usize = 64;

/// [`HouseTerm::target`] of a sowing that does not end on the opponent's row.
const NO_TARGET: u8 = HOUSES as u8;

/// The evaluation for one set of weights, precomputed: the same value as [`super::evaluate`] (a test holds
/// them equal). The engine builds one when its weights are set.
#[derive(Debug, Clone)]
pub struct EvalTable {
    /// The weights of each stage of the game, by the seeds captured (0 to 48,
    /// [`Weights::at_stage`]); one alone where no weight changes with the stage.
    pub(super) stages: Box<[TermTable]>,
}

impl EvalTable {
    /// The tables of `w`: one per stage of the game, or one alone where no weight changes with the
    /// stage.
    pub fn new(w: &Weights) -> EvalTable {
        let steps = w.steps();
        let tapered = |captured| TermTable::new(&w.stage_in_steps(captured, steps), steps);
        let stages = if w.opening == [0; TERMS] && !w.fitted_endgame {
            vec![tapered(48)]
        } else {
            (0..=48)
                .map(|captured| match w.fitted_stage(captured) {
                    Some(fitted) => TermTable::new(&fitted.at_stage(48), fitted.steps()),
                    None => tapered(captured),
                })
                .collect()
        };
        EvalTable {
            stages: stages.into_boxed_slice(),
        }
    }

    /// The evaluation of `pos` for the side to move: equal to [`super::evaluate`] with these weights.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluate_board(PackedPosition::from_position(pos))
    }

    /// The same for the search's [`PackedPosition`].
    #[inline(always)]
    pub(crate) fn evaluate_board(&self, b: PackedPosition) -> i32 {
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
                    let (last, gained) = last_sown(h, seeds);
                    let gained = usize::from(gained);
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
            rows[PackedPosition::SOUTH_STORE_BYTE] = store;
            rows[PackedPosition::SOUTH_STORE_BYTE + 1] = -store;
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
    fn evaluate_board(&self, b: PackedPosition) -> i32 {
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
    fn evaluate_ssse3(&self, b: PackedPosition) -> i32 {
        self.for_mover(b, self.board_ssse3(b))
    }

    /// The evaluation for the side to move, given the terms of the houses and the stores for South
    /// (South's minus North's).
    #[inline(always)]
    fn for_mover(&self, b: PackedPosition, for_south: i32) -> i32 {
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
    fn add_capture(&self, b: PackedPosition, partial: i32) -> i32 {
        let north = b.side_index();
        partial + self.weights.capture * self.best_capture(&padded(b), 6 * north)
    }

    /// The terms of the twelve houses (all but the stores, the tempo and the capture), South's
    /// minus North's, one table entry per house.
    #[inline]
    fn houses_scalar(&self, b: PackedPosition) -> i32 {
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
    fn board_ssse3(&self, b: PackedPosition) -> i32 {
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
fn padded(b: PackedPosition) -> [u8; 16] {
    (b.houses_word() | PADDING_OF_THREES).to_le_bytes()
}
