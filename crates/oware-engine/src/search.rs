//! Iterative-deepening principal-variation search (PVS) over [`oware_rules::Position`]s, with a transposition
//! table, move ordering (table move, captures, killers, history: [`crate::ordering`]), late move
//! reductions, reverse futility pruning, internal iterative reduction, single-reply and singular
//! extensions (with a multi-cut), the time plan of [`crate::time`], threads (lazy SMP for the best
//! move; for an analysis of every root move, the root moves shared out among them), exact game
//! ends and repetitions. [`crate::Engine`] is its interface.
//!
//! # Repetitions and the graph-history interaction
//!
//! A repetition ends the game, and under abapa its value depends on the seeds on each side at that
//! moment: a position's value can depend on the path that led to it, not on the position alone. The
//! search keeps the positions since the last capture (the game's, then the search path's) and ends a
//! line when a position recurs, scored by the rule (abapa: each side gathers its own row; awari: the
//! seeds left are split, a seed difference of the stores alone).
//!
//! The transposition table, keyed by the position alone, must not hand such path-dependent values to
//! another path. Every search call therefore returns, with its score, the lowest path index of a
//! position that a repetition in its subtree went back to. A node at path index `i` whose subtree only
//! repeated positions at index `>= i` (a cycle through the node itself or below it) has a value that
//! does not depend on how it was reached, and is stored; a node whose value used a repetition of an
//! earlier position (an ancestor, or the game before the root) is **not stored**: its value was only
//! true for this path. A capture clears the history, so every node reached by a capture is stored.
//! What remains is the classic, accepted approximation: an entry stored for a path without a cycle may
//! be reused where another path could have closed one inside its subtree.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use oware_rules::{Game, Move, MoveSet, PackedPosition, RuleSet, Side};

use crate::eval::EvalTable;
use crate::hash;
use crate::interface::{MoveScore, Probe, SearchControl, SearchResult};
use crate::ordering::{move_order, Killers};
use crate::time::Limits;
use crate::tt::{Bound, Entry, Table};

/// Scores are centiseeds from the side to move's point of view; a won game scores `WIN - plies`
/// (a lost one the negative) in what a search returns.
pub const WIN: i32 = 30_000;
/// Larger than any score.
pub const INFINITY: i32 = 31_000;
/// The deepest the search goes (plies from the root).
pub const MAX_PLY: usize = 120;
/// Scores a search returns beyond this (in absolute value) are decided games.
pub const WIN_THRESHOLD: i32 = WIN - MAX_PLY as i32 - 10;

/// How many plies until the end, when `score` (as a search returns it) is a decided game (positive:
/// the side to move wins).
pub fn plies_to_end(score: i32) -> Option<i32> {
    (score.abs() > WIN_THRESHOLD).then(|| (WIN - score.abs()) * score.signum())
}

// Inside the search a decided game's score says by how much it ends as well as when: a win by `h`
// half seeds, `p` plies from the root, scores `WIN - (MAX_HALVES - h) * PLY_SPAN - p` (a loss the
// negative). A larger win beats a smaller one however long it takes, and a smaller loss a larger
// one, as a perfect player ranks them (the final difference, not only the result); among equal
// margins the quicker win and the slower loss. The databases give the final difference too, so a
// line they settle still plays for seeds, as a decided score or as seeds (see `DatabaseScale`).
// What a search returns keeps the plies only ([`public_score`]), the scale its callers and the
// engine protocol know.

/// The largest margin, in half seeds: all 48 seeds.
const MAX_HALVES: i32 = 96;
/// The score between two margins a half seed apart: more than the plies a line can have.
const PLY_SPAN: i32 = 128;
/// Internal scores beyond this (in absolute value) are decided games.
const DECIDED: i32 = WIN - MAX_HALVES * PLY_SPAN;
/// Static scores are kept inside this range so they never look like decided games.
const EVAL_LIMIT: i32 = 15_000;
const _: () = assert!(MAX_PLY as i32 + 1 < PLY_SPAN && EVAL_LIMIT < DECIDED);

/// The plies to the end of a decided internal score (positive: the side to move wins).
fn decided_plies(score: i32) -> Option<i32> {
    (score.abs() > DECIDED).then(|| (WIN - score.abs()) % PLY_SPAN * score.signum())
}

/// An internal score on the scale a search returns: a decided game as `WIN - plies`.
pub(crate) fn public_score(score: i32) -> i32 {
    match decided_plies(score) {
        Some(p) => (WIN - p.abs()) * score.signum(),
        None => score,
    }
}

/// Whether a search that reached `depth` plies with the score `score` (as a search returns it)
/// cannot change its mind by going deeper: a loss within fewer plies than the depth, every move
/// proved lost by its margin. A proved win may still grow: a line the search scored only by the
/// evaluation may win by more.
pub fn settled(score: i32, depth: u32) -> bool {
    plies_to_end(score).is_some_and(|p| p < 0 && p.unsigned_abs() < depth)
}

/// What [`crate::Engine`] lends one search of its own: its table, control, evaluation, databases
/// and thread count.
pub(crate) struct Setup<'a> {
    pub table: &'a Table,
    pub control: &'a SearchControl,
    pub eval: &'a EvalTable,
    pub probe: Option<&'a dyn Probe>,
    pub threads: usize,
}

/// Searches `game` within `limits` with the engine's parts in `setup`: the best move, or with
/// `all_moves` every root move's score (best first), calling `progress` after each completed
/// iteration.
pub(crate) fn run(
    setup: Setup,
    game: &Game,
    limits: &Limits,
    all_moves: bool,
    progress: &mut dyn FnMut(&SearchResult),
) -> (SearchResult, Vec<MoveScore>) {
    let start = Instant::now();
    setup.table.new_search();
    let side = game.position().side_to_move();
    let shared = Shared {
        table: setup.table,
        control: setup.control,
        rules: game.rules(),
        eval: setup.eval,
        probe: setup.probe,
        database_scale: DatabaseScale::for_search(setup.probe, game),
        budget: limits.time_budget(side),
        node_limit: limits.nodes,
        nodes: AtomicU64::new(0),
        helpers_stop: AtomicBool::new(false),
    };
    let max_depth = limits
        .depth
        .unwrap_or(MAX_PLY as u32 - 10)
        .clamp(1, MAX_PLY as u32 - 10);
    let stop_early = !limits.infinite;
    let helpers = setup.threads.max(1) - 1;
    std::thread::scope(|scope| {
        // An analysis of every root move searches each of them with the full window, a search
        // that does not depend on the others': its helpers take root moves (see
        // `Worker::search_iteration`). A search for the best move runs its helpers on their own.
        let mut root_helpers = Vec::new();
        for id in 1..=helpers {
            if all_moves {
                root_helpers.push(Worker::new(&shared, game, id));
                continue;
            }
            let shared = &shared;
            scope.spawn(move || {
                let mut worker = Worker::new(shared, game, id);
                worker.iterate(max_depth, false, false, &mut [], &mut |_| {});
            });
        }
        let mut worker = Worker::new(&shared, game, 0);
        let result = worker.iterate(
            max_depth,
            all_moves,
            stop_early,
            &mut root_helpers,
            &mut |r| {
                let mut r = r.clone();
                r.time = start.elapsed();
                r.nodes = shared.nodes.load(Ordering::Relaxed);
                r.hashfull = shared.table.hashfull();
                progress(&r);
            },
        );
        shared.helpers_stop.store(true, Ordering::Relaxed);
        let mut result = result;
        result.time = start.elapsed();
        result.nodes = shared.nodes.load(Ordering::Relaxed) + worker.unflushed();
        result.hashfull = shared.table.hashfull();
        let mut scores = worker.root_scores();
        scores.sort_by_key(|m| -m.score);
        (result, scores)
    })
}

/// What all threads of one search share.
struct Shared<'a> {
    table: &'a Table,
    control: &'a SearchControl,
    rules: RuleSet,
    eval: &'a EvalTable,
    probe: Option<&'a dyn Probe>,
    database_scale: DatabaseScale,
    budget: Option<(Duration, Duration)>,
    node_limit: Option<u64>,
    nodes: AtomicU64,
    helpers_stop: AtomicBool,
}

/// Late move reductions in plies, by remaining depth (capped at 63) and move number (0..6): the
/// usual logarithmic table, ln(depth) * ln(move number + 1) / 1.3, rounded. Accepted with match
/// evidence against the earlier fixed one-or-two-ply scheme (docs/engine-matches.md).
static REDUCTIONS: std::sync::LazyLock<[[i32; 6]; 64]> = std::sync::LazyLock::new(|| {
    let mut table = [[0; 6]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.5 + (depth as f64).ln() * ((i + 1) as f64).ln() / 1.3) as i32;
        }
    }
    table
});

/// Reverse futility pruning (a node this far above beta by the evaluation, at this little depth,
/// is cut): the margin per ply of depth, and the deepest node it applies to.
const FUTILITY_MARGIN: i32 = 60;
const FUTILITY_DEPTH: i32 = 3;

/// Internal iterative reduction: a node this deep without a table move is searched a ply shallower.
const IIR_DEPTH: i32 = 4;

/// Singular extension (see [`Worker::search`]): the shallowest node it is tried at, and by how much
/// (centiseeds) every other move must fall short of the table move's score.
const SINGULAR_DEPTH: i32 = 10;
const SINGULAR_MARGIN: i32 = 200;
/// How much shallower than the node the table move's entry may be for the singularity check: its
/// score is the check's reference, and one from a much shallower search says little.
const SINGULAR_TABLE_SLACK: i32 = 3;

/// "No repetition in this subtree": larger than any path index.
const NO_REPETITION: usize = usize::MAX;

#[derive(Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    pv: Vec<Move>,
    /// Score from the last completed iteration (for ordering and for analysis).
    done_score: i32,
    done_pv: Vec<Move>,
}

/// One search thread.
struct Worker<'a> {
    shared: &'a Shared<'a>,
    id: usize,
    root: PackedPosition,
    /// Keys and positions since the last capture: the game's history, then the search path, in
    /// the first `path_len` entries. Allocated once for the deepest path, so entering a node is two
    /// stores rather than two vector pushes.
    keys: Vec<u64>,
    positions: Vec<PackedPosition>,
    path_len: usize,
    /// Index in `keys` of the first position since the last capture.
    boundary: usize,
    nodes: u64,
    flushed: u64,
    /// Results of this search lost from the table for lack of room, since it last grew.
    lost: u64,
    /// Node count at which to look at the clock and the stop flags next.
    next_check: u64,
    aborted: bool,
    seldepth: usize,
    killers: [Killers; MAX_PLY + 1],
    history: [i32; 12],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// The indices in `root_moves` this thread searched in the current iteration of an analysis
    /// whose root moves are shared out (see [`Worker::search_iteration`]).
    taken: Vec<usize>,
}

impl<'a> Worker<'a> {
    fn new(shared: &'a Shared<'a>, game: &Game, id: usize) -> Worker<'a> {
        let history = game.history_since_capture();
        let path_len = history.len();
        let mut positions: Vec<PackedPosition> =
            history.iter().map(PackedPosition::from_position).collect();
        let mut keys: Vec<u64> = positions.iter().map(|&b| hash::board_key(b)).collect();
        // The search path adds at most one position per ply.
        positions.resize(path_len + MAX_PLY + 2, PackedPosition::EMPTY);
        keys.resize(path_len + MAX_PLY + 2, 0);
        let root = PackedPosition::from_position(game.position());
        let root_moves = if game.is_over() {
            Vec::new()
        } else {
            game.legal_moves()
                .map(|mv| RootMove {
                    mv,
                    score: -INFINITY,
                    pv: vec![mv],
                    done_score: -INFINITY,
                    done_pv: vec![mv],
                })
                .collect()
        };
        Worker {
            shared,
            id,
            root,
            keys,
            positions,
            path_len,
            boundary: 0,
            nodes: 0,
            flushed: 0,
            lost: 0,
            next_check: 1024,
            aborted: false,
            seldepth: 0,
            killers: [Killers::NONE; MAX_PLY + 1],
            history: [0; 12],
            pv: vec![[Move::new(0).expect("house 0"); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            taken: Vec::new(),
        }
    }

    fn unflushed(&self) -> u64 {
        self.nodes - self.flushed
    }

    /// Adds the nodes counted since the last time to the search's total.
    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    fn root_scores(&self) -> Vec<MoveScore> {
        self.root_moves
            .iter()
            .map(|r| MoveScore {
                mv: r.mv,
                score: public_score(r.done_score),
                pv: r.done_pv.clone(),
            })
            .collect()
    }

    /// Checks the clock, the node limit and the stop flags; sets `aborted` when it is time to stop.
    fn check_limits(&mut self) {
        let s = self.shared;
        self.flush_nodes();
        if s.table.grow_if_crowded(self.lost) {
            self.lost = 0;
        }
        if s.control.is_stopped() || s.helpers_stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        // Every thread watches the limits: a thread that takes root moves may be the last one
        // still searching.
        if let Some(limit) = s.node_limit {
            if s.nodes.load(Ordering::Relaxed) >= limit {
                self.aborted = true;
            }
        }
        if let Some((_, hard)) = s.budget {
            if !s.control.is_pondering() && s.control.elapsed() >= hard {
                self.aborted = true;
            }
        }
    }

    /// Iterative deepening. Helper threads (id > 0) start some iterations one ply deeper so that the
    /// threads spread over different depths. `root_helpers`: threads that take root moves of an
    /// analysis with this one (see [`Worker::search_iteration`]).
    fn iterate(
        &mut self,
        max_depth: u32,
        all_moves: bool,
        stop_early: bool,
        root_helpers: &mut [Worker<'a>],
        progress: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        let mut result = SearchResult {
            best: self.root_moves.first().map(|r| r.mv),
            ponder: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: self
                .root_moves
                .first()
                .map(|r| vec![r.mv])
                .unwrap_or_default(),
            hashfull: 0,
        };
        if self.root_moves.is_empty() {
            return result;
        }
        let mut depth = 1;
        while depth <= max_depth {
            let search_depth = if self.id % 2 == 1 && depth > 2 {
                depth + 1
            } else {
                depth
            };
            self.seldepth = 0;
            self.search_iteration(search_depth as i32, all_moves, root_helpers);
            if self.aborted {
                break;
            }
            for r in &mut self.root_moves {
                r.done_score = r.score;
                r.done_pv = r.pv.clone();
            }
            // Best first; stable, so equal moves keep the order that found them.
            self.root_moves.sort_by_key(|r| -r.done_score);
            let best = &self.root_moves[0];
            result.best = Some(best.mv);
            result.ponder = best.done_pv.get(1).copied();
            result.score = public_score(best.done_score);
            result.depth = depth;
            result.seldepth = self.seldepth as u32;
            result.pv = best.done_pv.clone();
            if self.id == 0 {
                self.flush_nodes();
                progress(&result);
            }
            if self.shared.control.is_pondering() || !stop_early || self.id != 0 {
                depth += 1;
                continue;
            }
            // Nothing to think about, or the result is certain, or no time for another iteration.
            if self.root_moves.len() == 1 && self.shared.budget.is_some() && !all_moves {
                break;
            }
            if settled(result.score, depth) {
                break;
            }
            if let Some((soft, _)) = self.shared.budget {
                if self.shared.control.elapsed() >= soft {
                    break;
                }
            }
            depth += 1;
        }
        result
    }

    /// One iteration at `depth`: this thread alone, or with `root_helpers` taking root moves of an
    /// analysis of every move. Each root move of an analysis is searched with the full window, a
    /// search that does not depend on any other root move's, so the threads take the next root
    /// move not yet taken (in the order of the last iteration, best first) until none is left; the
    /// results are gathered into this thread's `root_moves`. (With lazy SMP's helpers instead, each
    /// would search every root move.) The iteration is aborted when any thread's is.
    fn search_iteration(&mut self, depth: i32, all_moves: bool, root_helpers: &mut [Worker<'a>]) {
        if root_helpers.is_empty() {
            self.search_root(depth, all_moves, None);
            return;
        }
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for helper in root_helpers.iter_mut() {
                helper.root_moves.clone_from(&self.root_moves);
                helper.seldepth = 0;
                let next = &next;
                scope.spawn(move || {
                    helper.search_root(depth, true, Some(next));
                    helper.flush_nodes();
                });
            }
            self.search_root(depth, true, Some(&next));
            if self.aborted {
                // Out of time: the helpers stop too (they would only at their own next check).
                self.shared.helpers_stop.store(true, Ordering::Relaxed);
            }
        });
        for helper in root_helpers.iter() {
            self.aborted |= helper.aborted;
            self.seldepth = self.seldepth.max(helper.seldepth);
            for &i in &helper.taken {
                self.root_moves[i].score = helper.root_moves[i].score;
                self.root_moves[i].pv.clone_from(&helper.root_moves[i].pv);
            }
        }
    }

    /// Searches the root moves at `depth`: every one in turn, or, with `shared_out`, those this
    /// thread takes from it (an analysis of every move shared among threads). Either way the
    /// indices searched go to `taken`.
    fn search_root(&mut self, depth: i32, all_moves: bool, shared_out: Option<&AtomicUsize>) {
        let rules = self.shared.rules;
        let mut alpha = -INFINITY;
        self.taken.clear();
        let mut own_next = 0;
        loop {
            let i = match shared_out {
                Some(next) => next.fetch_add(1, Ordering::Relaxed),
                None => own_next,
            };
            own_next += 1;
            if i >= self.root_moves.len() {
                break;
            }
            self.taken.push(i);
            let mv = self.root_moves[i].mv;
            let (board, captured) = self.root.play(mv, rules);
            let key = hash::board_key(board);
            let (score, _) = if !all_moves && i > 0 {
                let (s, r) = self.child(board, captured, key, depth, -alpha - 1, -alpha, 0, false);
                if s > alpha && !self.aborted {
                    self.child(board, captured, key, depth, -INFINITY, -alpha, 0, true)
                } else {
                    (s, r)
                }
            } else {
                self.child(
                    board,
                    captured,
                    key,
                    depth,
                    -INFINITY,
                    if all_moves { INFINITY } else { -alpha },
                    0,
                    true,
                )
            };
            if self.aborted {
                return;
            }
            let r = &mut self.root_moves[i];
            if score > alpha || all_moves {
                r.score = score;
                r.pv.clear();
                r.pv.push(mv);
                r.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                if score > alpha {
                    alpha = score;
                }
            } else {
                // Only an upper bound: keep it below the best for ordering.
                r.score = score.min(alpha) - 1;
                r.pv.truncate(1);
            }
        }
    }

    /// Plays into `pos` (reached by a move that captured `captured` seeds) from the current node at
    /// `ply` and returns its value for the side that moved, with the lowest path index a repetition
    /// below went back to.
    #[inline]
    #[allow(clippy::too_many_arguments)] // the hot path: plain arguments, no packing and unpacking
    fn child(
        &mut self,
        pos: PackedPosition,
        captured: u8,
        key: u64,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> (i32, usize) {
        if captured == 0 {
            if let Some(index) = self.repetition(pos) {
                self.pv_len[ply + 1] = ply + 1;
                let end = oware_rules::repetition_end(&pos.to_position(), self.shared.rules);
                let mover = pos.side_to_move().opponent();
                let diff =
                    end.score.halves(mover) as i32 - end.score.halves(mover.opponent()) as i32;
                return (result_score(diff, ply + 1), index);
            }
        }
        if depth <= 1 {
            // The child is a leaf: scored here, without entering it on the path (the same value and
            // node count as `search` would give, without its bookkeeping).
            return (-self.leaf(pos, captured > 0, ply + 1), NO_REPETITION);
        }
        let saved_boundary = self.boundary;
        let at = self.path_len;
        self.keys[at] = key;
        self.positions[at] = pos;
        self.path_len = at + 1;
        if captured > 0 {
            self.boundary = at;
        }
        let (score, rep) = self.search(pos, depth - 1, alpha, beta, ply + 1, pv_node);
        self.path_len = at;
        self.boundary = saved_boundary;
        (-score, rep)
    }

    /// Counts a node entered at `ply` (its principal variation starts empty) and, every 1024 nodes,
    /// checks the time and the stop flag; true when the search has been stopped.
    #[inline(always)]
    fn enter_node(&mut self, ply: usize) -> bool {
        self.pv_len[ply] = ply;
        self.nodes += 1;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            self.check_limits();
        }
        self.aborted
    }

    /// The value of a leaf (a node searched at depth 0) at `ply`, for its side to move: what `search`
    /// gives there, without the path bookkeeping. `after_capture`: the move into it captured (so it
    /// has no earlier history, and a database value holds under either rule set).
    #[inline]
    fn leaf(&mut self, pos: PackedPosition, after_capture: bool, ply: usize) -> i32 {
        if self.enter_node(ply) {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let rules = self.shared.rules;
        if pos.legal_moves(rules).is_empty() {
            return end_score(pos, ply);
        }
        let stretch = if after_capture {
            0..0
        } else {
            self.boundary..self.path_len
        };
        let Some(bounds) = self.database_bounds(pos, stretch) else {
            return self.evaluate(pos);
        };
        let scale = self.shared.database_scale;
        let lower = bounds.lower_score(pos, ply, scale);
        if bounds.lower == bounds.upper && bounds.rests_on == NO_REPETITION {
            return lower;
        }
        // Bounded only (an abapa history may end the game by a repetition): the evaluation, kept
        // within what the databases allow. (`max` then `min`: a damaged file's crossed bounds
        // must not panic.)
        self.evaluate(pos)
            .max(lower)
            .min(bounds.upper_score(pos, ply, scale))
    }

    /// What the databases say of `pos`, whose history since the last capture is the path's
    /// positions at `stretch` (before `pos`), or `None` when they do not cover it.
    ///
    /// Awari values do not depend on history (a repetition splits the seeds: worth 0 from
    /// anywhere). Abapa values and bounds are for a position with no earlier history; with one,
    /// the game may also end by coming back to a position of it, where each side gathers its own
    /// row. The mover, playing as it would with no history, gets at least the least of the lower
    /// bound and its rows along the history, and at most the most of the upper bound and those rows
    /// (the argument of `oware_egtb_build::path_search`), so the bounds widen by the rows outside
    /// them, and the answer then rests on the earliest position whose row widened them.
    #[inline]
    fn database_bounds(
        &self,
        pos: PackedPosition,
        stretch: std::ops::Range<usize>,
    ) -> Option<DatabaseBounds> {
        let rules = self.shared.rules;
        let (mut lower, mut upper) = self.shared.probe?.bounds(&pos.to_position(), rules)?;
        let mut rests_on = NO_REPETITION;
        if rules == RuleSet::Abapa {
            let me = pos.side_to_move();
            let seeds = i32::from(pos.row_seeds(me)) + i32::from(pos.row_seeds(me.opponent()));
            for (i, earlier) in self.positions[stretch.clone()].iter().enumerate() {
                let row = 2 * i32::from(earlier.row_seeds(me)) - seeds;
                if row < lower || row > upper {
                    rests_on = rests_on.min(stretch.start + i);
                }
                lower = lower.min(row);
                upper = upper.max(row);
            }
        }
        Some(DatabaseBounds {
            lower,
            upper,
            rests_on,
        })
    }

    /// The path index of an earlier occurrence of `pos` since the last capture, if any. Positions
    /// are compared directly: leaves have no key (see `search`), and most stretches since a capture
    /// are short, so few comparisons are made.
    #[inline]
    fn repetition(&self, pos: PackedPosition) -> Option<usize> {
        // The child would sit at index len; sides alternate, so only every other position can match:
        // len - 2, len - 4, ... down to the last capture.
        let len = self.path_len;
        let last = len.checked_sub(1)?;
        let stretch = &self.positions[self.boundary.min(last)..last];
        stretch
            .iter()
            .rev()
            .step_by(2)
            .position(|&p| p == pos)
            .map(|k| last - 1 - 2 * k)
    }

    fn search(
        &mut self,
        pos: PackedPosition,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> (i32, usize) {
        if self.enter_node(ply) {
            return (0, NO_REPETITION);
        }
        self.seldepth = self.seldepth.max(ply);
        let rules = self.shared.rules;
        let moves = pos.legal_moves(rules);
        if moves.is_empty() {
            return (end_score(pos, ply), NO_REPETITION);
        }
        // Single-reply extension: a node with one legal move is searched a ply deeper, so that a
        // forced move does not use up a ply of the horizon (+45 Elo [+7, +83] in 288 games at
        // 100 ms, docs/engine-matches.md). Chains of forced moves end at MAX_PLY, or at a
        // repetition.
        let depth = depth + i32::from(moves.len() == 1);
        let index = self.path_len - 1;
        if ply > 0 {
            if let Some(bounds) = self.database_bounds(pos, self.boundary..index) {
                let scale = self.shared.database_scale;
                let lower = bounds.lower_score(pos, ply, scale);
                if bounds.lower == bounds.upper || lower >= beta {
                    return (lower, bounds.rests_on);
                }
                let upper = bounds.upper_score(pos, ply, scale);
                if upper <= alpha {
                    return (upper, bounds.rests_on);
                }
            }
        }
        if ply >= MAX_PLY {
            return (self.evaluate(pos), NO_REPETITION);
        }
        // Leaves are evaluated without a table probe: a probe is a cache miss that costs more than
        // the evaluation. (Leaves are only about an eighth of the nodes, though: most nodes have
        // a ply or more to go and pay a probe.)
        if depth <= 0 {
            // No capture search here: one (captures only, standing pat on the evaluation) scored
            // +29 Elo [-24, +84] in 144 games, not enough to keep (docs/engine-matches.md).
            return (self.evaluate(pos), NO_REPETITION);
        }
        let key = self.keys[index];
        let mut tt_move = None;
        let mut tt_value = None;
        if let Some(entry) = self.shared.table.probe(key) {
            tt_move = entry.mv.filter(|&m| moves.contains(m));
            let score = from_table(entry.score, ply);
            tt_value = Some((score, entry.bound, i32::from(entry.depth)));
            if !pv_node && i32::from(entry.depth) >= depth {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return (score, NO_REPETITION);
                }
            }
        }

        if !pv_node && depth <= FUTILITY_DEPTH && beta.abs() < DECIDED {
            // Reverse futility pruning: the evaluation is so far above beta, this close to the
            // leaves, that the search below would very likely fail high too.
            let eval = self.evaluate(pos);
            if eval - FUTILITY_MARGIN * depth >= beta {
                return (eval, NO_REPETITION);
            }
        }
        // Internal iterative reduction: without a table move this node is new to the table (or
        // its result was pushed out), its move ordering is a guess, and a full-depth search of
        // it would mostly be spent on moves searched in the wrong order. A ply shallower costs a
        // fraction of that, and the next iteration finds the move this one stores. (With the
        // reductions from the second move below: +84 Elo [+48, +121] in 288 games at 100 ms,
        // docs/engine-matches.md.)
        let depth = if tt_move.is_none() && depth >= IIR_DEPTH {
            depth - 1
        } else {
            depth
        };
        // Copy-make: play every move once, order by table move, captures, killers, history. With a
        // table move, it alone is played first; the others only if it does not cut (most nodes with
        // one cut on it), ordered by the history as it was before its search, exactly as if all had
        // been generated at once (the bench signature holds this).
        let killers = self.killers[ply];
        let mut children = [BLANK_CHILD; 6];
        let n = moves.len();
        let mut history_before = None;
        if let Some(mv) = tt_move {
            children[0] = self.make_child(pos, mv, depth, 1 << 30);
            history_before = Some(self.history);
        } else {
            for (slot, mv) in children.iter_mut().zip(moves) {
                let (board, captured) = pos.play(mv, rules);
                let order = move_order(mv, captured, killers, &self.history);
                *slot = self.child_entry(mv, board, captured, depth, order);
            }
        }

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut rep_min = NO_REPETITION;
        // Singular extension: a table move that the table says is at least this good, from a
        // search nearly as deep, and that every other move falls short of by a margin in a search
        // of half the depth, is the only move that holds here: it is searched a ply deeper.
        // Multi-cut: when another move reaches that score too, and the score is at least beta,
        // the node has two moves that fail high (the table move by the table, the other by the
        // verification): it is cut without a full-depth search.
        let mut extension = 0;
        if let (Some(tt), Some((tt_score, bound, tt_depth))) = (tt_move, tt_value) {
            if depth >= SINGULAR_DEPTH
                && ply > 0
                && n > 1
                && bound != Bound::Upper
                && tt_depth >= depth - SINGULAR_TABLE_SLACK
                && tt_score.abs() < DECIDED
            {
                let singular_beta = tt_score - SINGULAR_MARGIN;
                let (singular, rep) = self.is_singular(pos, moves, tt, singular_beta, depth, ply);
                if self.aborted {
                    return (0, NO_REPETITION);
                }
                // The verdict may rest on a repetition above this node, as a score would.
                if !singular && singular_beta >= beta {
                    return (singular_beta, rep);
                }
                rep_min = rep;
                extension = i32::from(singular);
            }
        }
        for i in 0..n {
            if i == 1 {
                if let (Some(tt), Some(history)) = (tt_move, history_before) {
                    // The table move did not cut: the rest, in house order, then the table move
                    // swapped to the front, as the selection sort below would have left them.
                    let first = children[0];
                    let mut at = 0;
                    for (k, mv) in moves.enumerate() {
                        if mv == tt {
                            children[k] = first;
                            at = k;
                        } else {
                            let (board, captured) = pos.play(mv, rules);
                            let order = move_order(mv, captured, killers, &history);
                            children[k] = self.child_entry(mv, board, captured, depth, order);
                        }
                    }
                    children.swap(0, at);
                }
            }
            // Selection sort: the best remaining move next (most nodes cut on the first one or two).
            let mut pick = i;
            if i > 0 || tt_move.is_none() {
                // Over all six entries, a fixed count the compiler unrolls: a loop over the
                // remaining ones mispredicted its exit. Blanks are never picked (lowest order).
                let mut best = children[i].order;
                for (j, child) in children.iter().enumerate().skip(1) {
                    if j > i && child.order > best {
                        best = child.order;
                        pick = j;
                    }
                }
            }
            children.swap(i, pick);
            let Child {
                mv,
                board,
                captured,
                key: child_key,
                ..
            } = children[i];
            let (score, rep) = if i == 0 {
                self.child(
                    board,
                    captured,
                    child_key,
                    depth + extension,
                    -beta,
                    -alpha,
                    ply,
                    pv_node,
                )
            } else {
                // Late move reductions: quiet moves that ordering put late are searched shallower
                // first (more the later and the deeper, less in PV nodes, and from the third move
                // on in PV nodes, the second elsewhere), and again at full depth only if they
                // beat alpha.
                let quiet = captured == 0 && !killers.contains(mv);
                let first_reduced = if pv_node { 2 } else { 1 };
                let reduction = if quiet && i >= first_reduced && depth >= 3 {
                    let r = REDUCTIONS[(depth as usize).min(63)][i] - i32::from(pv_node);
                    r.clamp(1, depth - 1)
                } else {
                    0
                };
                let (mut s, mut r) = self.child(
                    board,
                    captured,
                    child_key,
                    depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply,
                    false,
                );
                if reduction > 0 && s > alpha && !self.aborted {
                    (s, r) = self.child(
                        board,
                        captured,
                        child_key,
                        depth,
                        -alpha - 1,
                        -alpha,
                        ply,
                        false,
                    );
                }
                if s > alpha && s < beta && pv_node && !self.aborted {
                    self.child(board, captured, child_key, depth, -beta, -alpha, ply, true)
                } else {
                    (s, r)
                }
            };
            if self.aborted {
                return (0, NO_REPETITION);
            }
            rep_min = rep_min.min(rep);
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.pv[ply][ply] = mv;
                        let (head, tail) = self.pv.split_at_mut(ply + 1);
                        let from = self.pv_len[ply + 1].max(ply + 1);
                        head[ply][ply + 1..from].copy_from_slice(&tail[0][ply + 1..from]);
                        self.pv_len[ply] = from;
                    }
                    if score >= beta {
                        if captured == 0 {
                            self.killers[ply] = killers.with_first(mv);
                            let h = &mut self.history[mv.house()];
                            *h += depth * depth;
                            if *h > 1 << 20 {
                                self.history.iter_mut().for_each(|v| *v /= 2);
                            }
                        }
                        break;
                    }
                }
            }
        }
        // Values that used a repetition of a position above this node are only true for this path:
        // keep them out of the table (see the module documentation).
        if rep_min >= index {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.lost += u64::from(self.shared.table.store(
                key,
                Entry::new(
                    to_table(best, ply),
                    depth.clamp(0, 255) as u8,
                    best_move,
                    bound,
                ),
            ));
        }
        (best, rep_min)
    }

    /// Whether every move of `moves` (the legal moves of `pos`) but `tt` scores below
    /// `singular_beta` in a search of half `depth` (see the singular extension in
    /// [`Worker::search`]), with the lowest path index a repetition in those searches went back to.
    fn is_singular(
        &mut self,
        pos: PackedPosition,
        moves: MoveSet,
        tt: Move,
        singular_beta: i32,
        depth: i32,
        ply: usize,
    ) -> (bool, usize) {
        let mut rep_min = NO_REPETITION;
        for mv in moves {
            if mv == tt {
                continue;
            }
            let Child {
                board,
                captured,
                key,
                ..
            } = self.make_child(pos, mv, depth / 2, 0);
            let (score, rep) = self.child(
                board,
                captured,
                key,
                depth / 2,
                -singular_beta,
                -singular_beta + 1,
                ply,
                false,
            );
            rep_min = rep_min.min(rep);
            if self.aborted || score >= singular_beta {
                return (false, rep_min);
            }
        }
        (true, rep_min)
    }

    /// A move's child for the ordering array: its order, the move, what it plays into, and its key
    /// (only a child that is not a leaf uses one, to probe the table: at depth 1 every child is a
    /// leaf and gets none, 0, never read).
    #[inline]
    fn child_entry(
        &self,
        mv: Move,
        board: PackedPosition,
        captured: u8,
        depth: i32,
        order: i32,
    ) -> Child {
        let key = if depth > 1 {
            let k = hash::board_key(board);
            // The child will probe the table: start loading its bucket now.
            self.shared.table.prefetch(k);
            k
        } else {
            0
        };
        Child {
            order,
            mv,
            captured,
            board,
            key,
        }
    }

    #[inline]
    fn make_child(&self, pos: PackedPosition, mv: Move, depth: i32, order: i32) -> Child {
        let (board, captured) = pos.play(mv, self.shared.rules);
        self.child_entry(mv, board, captured, depth, order)
    }

    #[inline]
    fn evaluate(&self, pos: PackedPosition) -> i32 {
        self.shared
            .eval
            .evaluate_board(pos)
            .clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// One move at a node: its ordering value, the move, the seeds it captures, the board it plays
/// into, the child's key.
#[derive(Clone, Copy)]
struct Child {
    order: i32,
    mv: Move,
    captured: u8,
    board: PackedPosition,
    key: u64,
}

/// What fills the ordering array before the children are made (never read: a constant, so filling
/// costs a few stores rather than copies of the node's position).
const BLANK_CHILD: Child = Child {
    order: i32::MIN,
    mv: match Move::new(0) {
        Some(mv) => mv,
        None => panic!("house 0 is a move"),
    },
    captured: 0,
    board: PackedPosition::EMPTY,
    key: 0,
};

/// The score of a position without legal moves for its side to move: decided by the stores, or
/// each player gathers their own row.
fn end_score(pos: PackedPosition, ply: usize) -> i32 {
    let stores = if pos.is_decided_by_stores() {
        [pos.store(Side::South), pos.store(Side::North)]
    } else {
        pos.gathered_stores()
    };
    let me = pos.side_to_move().index();
    let diff = stores[me] as i32 - stores[1 - me] as i32;
    result_score(2 * diff, ply)
}

/// The score of a finished game for the side whose store lead is `diff_halves` (in half seeds),
/// `ply` plies from the root: quicker wins and slower losses score better.
#[inline]
fn result_score(diff_halves: i32, ply: usize) -> i32 {
    let margin = diff_halves.abs().min(MAX_HALVES);
    (WIN - (MAX_HALVES - margin) * PLY_SPAN - ply as i32) * diff_halves.signum()
}

/// Bounds on a position's final seed difference over the board, for its side to move, from the
/// databases ([`Worker::database_bounds`]), with the lowest path index of a position of the history
/// they rest on (`NO_REPETITION`: none).
struct DatabaseBounds {
    lower: i32,
    upper: i32,
    rests_on: usize,
}

impl DatabaseBounds {
    /// The score of the lower bound at `pos`, `ply` plies from the root, on `scale`; the margin
    /// counts the stores.
    fn lower_score(&self, pos: PackedPosition, ply: usize, scale: DatabaseScale) -> i32 {
        scale.score(store_lead(pos) + self.lower, ply)
    }

    /// The score of the upper bound, as [`DatabaseBounds::lower_score`].
    fn upper_score(&self, pos: PackedPosition, ply: usize, scale: DatabaseScale) -> i32 {
        scale.score(store_lead(pos) + self.upper, ply)
    }
}

/// How a search scores what the databases say of a position.
///
/// Where every line ends in an exact value, decided scores rank the proofs by margin: the search
/// plays perfectly and says so ([`public_score`]). That is awari with the root in the databases'
/// reach (the board only loses seeds, so they cover every position below it, and awari values do
/// not depend on the history).
///
/// Anywhere else some lines end in an evaluation: above the databases' reach every line that does
/// not capture down to it, and under abapa every line whose history since the last capture leaves
/// the databases only bounds. A decided score there would rank a proved win of one seed above a
/// line the evaluation expects to win by six, and a proved loss of one below an expected loss of
/// six, and the engine would give seeds away that it keeps without databases. So a database value
/// is scored as the evaluation scores a position, the final seed difference in centiseeds, with
/// [`PROOF_PREMIUM`] for the proof: an evaluated line must promise more than that before the
/// search prefers it to a proved one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DatabaseScale {
    Decided,
    Seeds,
}

/// What a proof is worth over an evaluation of the same margin, in centiseeds. Where a search's
/// lines end in evaluations as well as in database values (above the databases' reach, and under
/// abapa), a position the databases value at a final difference of `m` seeds scores `100 m` plus
/// this for a win, minus it for a loss (0 for a draw), beside the evaluation's estimates.
///
/// Against perfect play at 300,000 nodes, awari 21-24 seeds with databases 0-16, a premium of 0,
/// 50, 100, 200 and 300 kept the result in 397, 397, 399, 398 and 399 of 400 moves and the exact
/// value in 372, 375, 368, 361 and 353; 300 against 100 kept no more results in the other samples
/// either, and fewer exact values (docs/strength.md). A seed, then.
pub const PROOF_PREMIUM: i32 = 100;

impl DatabaseScale {
    /// The scale for a search of `game` with `probe`.
    fn for_search(probe: Option<&dyn Probe>, game: &Game) -> DatabaseScale {
        match probe {
            Some(probe)
                if game.rules() == RuleSet::Awari
                    && probe.probe(game.position(), game.rules()).is_some() =>
            {
                DatabaseScale::Decided
            }
            _ => DatabaseScale::Seeds,
        }
    }

    /// The score of a position whose final seed difference (stores counted) is `margin` for its
    /// side to move, `ply` plies from the root.
    fn score(self, margin: i32, ply: usize) -> i32 {
        match self {
            DatabaseScale::Decided => result_score(2 * margin, ply),
            DatabaseScale::Seeds => 100 * margin + PROOF_PREMIUM * margin.signum(),
        }
    }
}

/// The side to move's store minus the opponent's.
fn store_lead(pos: PackedPosition) -> i32 {
    let me = pos.side_to_move();
    i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()))
}

/// Decided-game scores are stored relative to the node, not the root.
fn to_table(score: i32, ply: usize) -> i16 {
    let s = if score > DECIDED {
        score + ply as i32
    } else if score < -DECIDED {
        score - ply as i32
    } else {
        score
    };
    s.clamp(i16::MIN as i32, i16::MAX as i32) as i16
}

fn from_table(score: i16, ply: usize) -> i32 {
    let s = i32::from(score);
    if s > DECIDED {
        s - ply as i32
    } else if s < -DECIDED {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::Position;

    #[test]
    fn database_values_are_decided_only_where_every_line_ends_in_one() {
        struct UpTo(u8);
        impl Probe for UpTo {
            fn probe(&self, pos: &Position, _rules: RuleSet) -> Option<i32> {
                (pos.board_seeds() <= self.0).then_some(0)
            }
        }
        let six_seeds: Position = "0-0-0-0-2-1-1-1-1-0-0-0-21-21-S".parse().unwrap();
        let scale = |rules, probe: Option<&dyn Probe>| {
            DatabaseScale::for_search(probe, &Game::from_position(six_seeds, rules))
        };
        assert_eq!(
            scale(RuleSet::Awari, Some(&UpTo(10))),
            DatabaseScale::Decided
        );
        assert_eq!(scale(RuleSet::Awari, Some(&UpTo(5))), DatabaseScale::Seeds);
        assert_eq!(scale(RuleSet::Abapa, Some(&UpTo(10))), DatabaseScale::Seeds);
        assert_eq!(scale(RuleSet::Awari, None), DatabaseScale::Seeds);
        // In seeds, proofs keep the order of their margins, mean the same to either side, and never
        // look like decided games; decided scores keep the order too.
        for scale in [DatabaseScale::Seeds, DatabaseScale::Decided] {
            for margin in -48..48 {
                assert!(scale.score(margin + 1, 5) > scale.score(margin, 5));
                assert_eq!(scale.score(-margin, 5), -scale.score(margin, 5));
            }
        }
        assert!((-48..=48).all(|m| DatabaseScale::Seeds.score(m, 0).abs() < DECIDED));
        assert_eq!(DatabaseScale::Seeds.score(2, 9), 200 + PROOF_PREMIUM);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = &*REDUCTIONS;
        for depth in 1..64 {
            assert_eq!(r[depth][0], 0, "the first move is never reduced");
            for i in 1..6 {
                assert!(r[depth][i] >= r[depth][i - 1], "depth {depth} move {i}");
                assert!(r[depth][i] >= r[depth - 1][i], "depth {depth} move {i}");
            }
        }
        // ln(3)·ln(3)/1.3 = 0.93 and ln(20)·ln(6)/1.3 = 4.12, rounded.
        assert_eq!(r[3][2], 1);
        assert_eq!(r[20][5], 4);
    }
}
