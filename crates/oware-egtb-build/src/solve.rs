//! Retrograde analysis of one level, by thresholds, in one process: the kernel (`crate::kernel`)
//! with news told to predecessors directly.
//!
//! For a threshold `t`, `A_t` is the set of boards where the mover can force the game to leave the
//! level (by a capture, or into a board where the game is over) with a value of at least `t`, and
//! `B_t` the set where the opponent can force the mover's value down to `neg(t)` or below (`-t` in
//! awari's seed difference, `k - t` in abapa's seeds). Both are reachability games, so cycles never
//! count for either side:
//!
//! - P is in `A_t` if a move leaves the level with at least `t`, or leads to a board in `B_t`;
//! - P is in `B_t` if every move leaving the level gives at most `neg(t)` and every move staying in
//!   it leads to a board in `A_t`.
//!
//! Thresholds go from `k` down to 1, so each set only grows, and the classic counting method applies:
//! each board keeps the count of its moves within the level whose board is not yet in `A`. When a board
//! joins `A`, its predecessors' counts drop; when a board joins `B`, its predecessors join `A`.
//! Boards that join at a sweep are flagged and handled at a later sweep over the (dirty parts of the)
//! level, so no queue is needed. Working memory: two bytes per board for both rule sets (see
//! `AwariScheme` and `AbapaScheme` for how they are packed), plus, for abapa's safe regions, a list
//! of the boards taken out of a region that are still to be handled.
//!
//! awari: the value is `t` for a board that joins `A` at `t`, `-t` for one that joins `B`, and 0 (a
//! cycle) for the rest. abapa: `lo` is the threshold at which the board joined `A` (0 if never) and
//! `hi` is `k - t` for `B` (`k` if never); a board's value with no earlier history lies between them,
//! since following the attractor strategy never repeats a position.

use std::ops::Range;

use oware_rules::RuleSet;
use rayon::prelude::*;

use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{
    entry_width, successors, terminal_value, through_move, Bounds, MAX_ENTRY_WIDTH,
};

use crate::in_level::row;
use crate::kernel::{
    flagged_boards, removal, widen, AbapaScheme, AwariScheme, LevelState, Scheme,
    ABAPA_SCHEME_MAX_SEEDS, NEW_A, NEW_B, REMOVE_B, SAFE_A, SAFE_B, SAFE_REGION_ROUNDS,
};
use crate::{LowerLevels, Progress};

pub use crate::kernel::predecessors;

/// Work units a level reports to [`Progress`]: one pass to set up and one per threshold.
pub fn work_units(index: &LevelIndex) -> u64 {
    index.count() * (1 + index.seeds() as u64)
}

struct Solver<'a, S: Scheme> {
    rules: RuleSet,
    index: &'a LevelIndex,
    state: LevelState<S>,
    progress: &'a dyn Progress,
}

/// Solves the level described by `index` under `rules`, given its lower levels; returns its entries
/// in index order, as narrow as the level allows ([`entry_width`]: one byte per board, two for abapa
/// above 21 seeds; see [`oware_egtb::values::encode`]). Runs on the current rayon pool.
///
/// abapa: boards that a cycle touches are left with bounds; [`crate::refine::refine_level`] narrows
/// them.
pub fn solve_level(
    rules: RuleSet,
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    progress: &dyn Progress,
) -> Vec<u8> {
    let width = entry_width(rules, index.seeds());
    solve_level_as(rules, index, lower, progress, width)
}

/// [`solve_level`] with entries of `width` bytes: 2 for any level (as tests do, to run the two-byte
/// layout on small levels), 1 only where the codes fit a byte. abapa levels up to
/// [`ABAPA_SOLVER_MAX_SEEDS`] only.
pub fn solve_level_as(
    rules: RuleSet,
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    progress: &dyn Progress,
    width: usize,
) -> Vec<u8> {
    assert!(
        width >= entry_width(rules, index.seeds()) && width <= MAX_ENTRY_WIDTH,
        "{rules} level {} in entries of {width} bytes",
        index.seeds()
    );
    let n = index.count() as usize;
    match rules {
        RuleSet::Awari => {
            assert_eq!(width, 1, "awari entries are one byte");
            Solver::new(rules, index, AwariScheme::new(n), progress).run(lower, width)
        }
        RuleSet::Abapa => {
            let scheme = AbapaScheme::new(index.seeds(), n);
            Solver::new(rules, index, scheme, progress).run(lower, width)
        }
    }
}

/// The highest abapa level the solver's working state can hold (5 bits for a bound); above it a
/// build stops with [`oware_egtb::EgtbError::BeyondSolver`].
pub const ABAPA_SOLVER_MAX_SEEDS: usize = ABAPA_SCHEME_MAX_SEEDS;

impl<'a, S: Scheme> Solver<'a, S> {
    fn new(rules: RuleSet, index: &'a LevelIndex, scheme: S, progress: &'a dyn Progress) -> Self {
        Solver {
            rules,
            index,
            state: LevelState::new(scheme, index.count() as usize),
            progress,
        }
    }

    fn chunks(&self) -> usize {
        self.state.chunks()
    }

    fn chunk_range(&self, c: usize) -> Range<usize> {
        self.state.chunk_range(c)
    }

    /// The boards of chunk `c` with their indices.
    fn chunk_boards(&self, c: usize) -> impl Iterator<Item = (usize, Board)> + '_ {
        let range = self.chunk_range(c);
        range.clone().zip(self.index.iter_from(range.start as u64))
    }

    fn run(self, lower: &dyn LowerLevels, width: usize) -> Vec<u8> {
        let k = self.index.seeds();
        (0..self.chunks()).into_par_iter().for_each(|c| {
            let mut done = 0;
            for (i, board) in self.chunk_boards(c) {
                self.set_up(i, &board, lower);
                done += 1;
            }
            self.progress.advance(done);
        });
        for t in (1..=k as i8).rev() {
            self.threshold(t);
            if self.rules == RuleSet::Abapa {
                // Safe regions and attractors feed each other: alternate while they grow.
                for _ in 0..SAFE_REGION_ROUNDS {
                    if self.seed_safe_region(t, lower) == 0 {
                        break;
                    }
                    self.propagate(t);
                }
            }
        }
        self.state.finish(width)
    }

    /// Terminal value, or the best exits and the count of moves staying in the level.
    fn set_up(&self, i: usize, board: &Board, lower: &dyn LowerLevels) {
        if let Some(v) = terminal_value(board, self.rules) {
            self.state.scheme.set_terminal(i, v);
            return;
        }
        let k = self.index.seeds();
        let mut best: Option<Bounds> = None;
        let mut inside = 0u8;
        for s in successors(board, self.rules) {
            let after_seeds = k - s.captured as usize;
            let after = if s.captured > 0 {
                lower.bounds(after_seeds, &s.board)
            } else if let Some(v) = terminal_value(&s.board, self.rules) {
                Bounds::exact(v)
            } else {
                inside += 1;
                continue;
            };
            best = widen(best, through_move(self.rules, k, after_seeds, after));
        }
        self.state.scheme.set_open(i, best, inside);
    }

    /// The exit of a move that leaves the level (a capture, or a board where the game is over), or
    /// `None` for a move that stays in it.
    fn exit(&self, s: &oware_egtb::values::Successor, lower: &dyn LowerLevels) -> Option<Bounds> {
        let k = self.index.seeds();
        let after_seeds = k - s.captured as usize;
        let after = if s.captured > 0 {
            lower.bounds(after_seeds, &s.board)
        } else {
            Bounds::exact(terminal_value(&s.board, self.rules)?)
        };
        Some(through_move(self.rules, k, after_seeds, after))
    }

    fn rank(&self, board: &Board) -> usize {
        self.index.rank(board).expect("a move's board is indexed") as usize
    }

    /// abapa: whether a board of A's safe region at `t` can stay in it: a move leaves the level with
    /// at least `t`, or leads to a board already in `B_t` or still in B's safe region.
    fn a_can_stay(&self, board: &Board, t: i8, lower: &dyn LowerLevels) -> bool {
        successors(board, self.rules).any(|s| match self.exit(&s, lower) {
            Some(e) => e.lo >= t,
            None => {
                let j = self.rank(&s.board);
                !self.state.scheme.b_open(j) || self.state.scheme.flags(j) & SAFE_B != 0
            }
        })
    }

    /// abapa: seeds `A_t` and `B_t` with the boards where one side can keep the play, until it leaves
    /// the level well, on boards where a repetition would give it at least `t` (see the module notes).
    ///
    /// Boards already in `A_t` or `B_t` count as good exits: play that enters them never comes back
    /// to the boards joining now, so a repetition can only happen inside one region, where every
    /// board meets the row condition. Returns how many boards joined.
    ///
    /// The regions are marked with the flag bits (no board carries a flag between sweeps); boards are
    /// taken out of a region until each remaining board meets its region's condition.
    fn seed_safe_region(&self, t: i8, lower: &dyn LowerLevels) -> u64 {
        let k = self.index.seeds() as i8;
        // Row conditions, and the boards that fail their region's condition from the start.
        let mut removals: Vec<u32> = (0..self.chunks())
            .into_par_iter()
            .flat_map_iter(|c| {
                let mut out = Vec::new();
                for (i, board) in self.chunk_boards(c) {
                    let r = row(&board);
                    let row_a = r >= t && self.state.scheme.a_open(i, t);
                    let row_b = r <= k - t && self.state.scheme.b_open(i);
                    if !(row_a || row_b) || terminal_value(&board, self.rules).is_some() {
                        continue;
                    }
                    let (mut a_stays, mut bad_b) = (false, false);
                    for s in successors(&board, self.rules) {
                        match self.exit(&s, lower) {
                            Some(e) => {
                                a_stays |= e.lo >= t;
                                bad_b |= e.hi > k - t;
                            }
                            None => {
                                // Boards already won for one side count as good exits; the others
                                // must meet the row condition to be in the other side's region.
                                let j = self.rank(&s.board);
                                let q_row = row(&s.board);
                                a_stays |= !self.state.scheme.b_open(j) || q_row <= k - t;
                                bad_b |= self.state.scheme.a_open(j, t) && q_row < t;
                            }
                        }
                    }
                    self.state
                        .scheme
                        .set_flags(i, (row_a as u8 * SAFE_A) | (row_b as u8 * SAFE_B));
                    if row_a && !a_stays {
                        out.push(i as u32);
                    }
                    if row_b && bad_b {
                        out.push(i as u32 | REMOVE_B);
                    }
                }
                out
            })
            .collect();
        // Take out boards that cannot stay, and with them what depended on them.
        while let Some(entry) = removals.pop() {
            let (i, which) = removal(entry);
            if self.state.scheme.clear_flags(i, which) & which == 0 {
                continue;
            }
            let board = self.index.unrank(i as u64).expect("index in range");
            predecessors(&board, self.rules, |p| {
                let Some(j) = self.index.rank(&p) else { return };
                let flags = self.state.scheme.flags(j as usize);
                if which == SAFE_B && flags & SAFE_A != 0 && !self.a_can_stay(&p, t, lower) {
                    removals.push(j as u32);
                } else if which == SAFE_A && flags & SAFE_B != 0 {
                    removals.push(j as u32 | REMOVE_B);
                }
            });
        }
        self.state.join_safe_regions(t)
    }

    fn threshold(&self, t: i8) {
        // Boards that join by their exits alone, or whose moves in the level all lead into A already.
        self.state.scan(t, self.progress);
        self.propagate(t);
    }

    /// Spreads the news of flagged boards backwards, one sweep per move of depth (boards flagged
    /// during a sweep are handled by a later one, or by this one if it has not passed them yet).
    fn propagate(&self, t: i8) {
        loop {
            let dirty: Vec<usize> = (0..self.chunks())
                .filter(|&c| self.state.take_dirty(c))
                .collect();
            if dirty.is_empty() {
                break;
            }
            dirty.into_par_iter().for_each(|c| {
                let boards = flagged_boards(&self.state.scheme, self.index, self.chunk_range(c), 0);
                for (i, board) in boards {
                    let w = self.state.scheme.clear_flags(i, NEW_A | NEW_B);
                    for (bit, b_news) in [(NEW_A, false), (NEW_B, true)] {
                        if w & bit == 0 {
                            continue;
                        }
                        predecessors(&board, self.rules, |p| {
                            let Some(j) = self.index.rank(&p) else { return };
                            self.state.tell(j as usize, t, b_news);
                        });
                    }
                }
            });
        }
    }
}
