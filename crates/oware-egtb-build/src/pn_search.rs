//! abapa: threshold questions on one board ("can the mover end with at least `t` seeds?") by
//! proof-number search over the path tree of the first-repetition game.
//!
//! The game tree is the one [`crate::path_search`] walks: inside the level a position is the houses
//! and the side to move, the game ends at the first repeated position (each side gathering its own
//! row) or by leaving the level (a capture, or a board where the game is over, worth the lower level's
//! no-history value). For one threshold it is a win/lose game, and a proof-number search grows the
//! tree best-first towards the smallest proof or disproof, where alpha-beta must refute every move
//! of the losing side at full width.
//!
//! Nodes are positions reached by a path from the root; there is no transposition table (a node's
//! value depends on its path). Leaf knowledge, all sound for the path at hand:
//!
//! - a move that leaves the level: its value through the lower level's bounds (the question is
//!   decided when the bounds lie on one side of `t`; when they straddle it, the search counts the
//!   move against the side it is trying to prove, and says so, see [`ThresholdAnswer`]);
//! - a move back to a position of the path: the game ends, worth the root mover's row there;
//! - the level's stored no-history bounds, folded with the path as in [`crate::path_search`]: a
//!   position reached by path `h` is worth (to the root mover) at least `min(L, least row of the
//!   root mover along h)` and at most `max(H, most row along h)`, where `L..=H` are its stored bounds
//!   seen from the root mover;
//! - much stronger, the threshold solver's own bounds (attractors and safe regions, before any path
//!   search), transferred through the *solid* positions of the path only (see `Pn::solid`): where
//!   they give the root mover at least `t`, the position is proved as soon as the root mover's row
//!   is at least `t` at every position of the path where they give it at least `t` too, whatever
//!   the other positions of the path hold (the other side the same way). Open positions on the path,
//!   the root first among them, no longer block the transfer, and this is what settles most of
//!   level 6's open boards.
//!
//! Solved children are not kept: a proved child decides an OR node, a disproved one an AND node, and
//! the others do not count.

use oware_rules::RuleSet;

use crate::in_level::{codes_of, open_entries, row, shared_pass, InLevel, Overlay, Share};
use crate::LowerLevels;
use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::{decode, successors, terminal_value, through_move, Bounds};

/// Proof and disproof numbers saturate here (a solved node has one of them at `INF`).
const INF: u32 = u32::MAX / 4;

/// A node of the search tree. Children are contiguous in the arena, from `first`, `count` of them
/// (`count == 0`: a leaf, not expanded or solved).
struct Node {
    board: Board,
    parent: u32,
    first: u32,
    depth: u32,
    pn: u32,
    dn: u32,
    count: u8,
    /// The path from the root to this node, both ends in.
    path: PathSummary,
}

/// What the search needs to know of a path from the root without walking it.
#[derive(Clone, Copy)]
struct PathSummary {
    /// The least and most the root mover gathers along the path, and the same over the
    /// [`SOLID_MAX`] and the [`SOLID_MIN`] positions only (where the threshold solver's bounds
    /// decide the question, see `Pn::solid`).
    least: i8,
    most: i8,
    least_solid: i8,
    most_solid: i8,
    /// Bloom filters of the path's boards: at the last one's parity (itself in) and at the other;
    /// a repetition is only looked for along the path when its filter says it may be one.
    same: u128,
    other: u128,
}

impl PathSummary {
    /// The path before the root.
    const EMPTY: PathSummary = PathSummary {
        least: i8::MAX,
        most: i8::MIN,
        least_solid: i8::MAX,
        most_solid: i8::MIN,
        same: 0,
        other: 0,
    };

    /// The path extended by `board`, where the root mover gathers `row`, with its solid flags.
    fn then(self, board: &Board, row: i8, solid: u8) -> PathSummary {
        PathSummary {
            least: self.least.min(row),
            most: self.most.max(row),
            least_solid: if solid & SOLID_MAX != 0 {
                self.least_solid.min(row)
            } else {
                self.least_solid
            },
            most_solid: if solid & SOLID_MIN != 0 {
                self.most_solid.max(row)
            } else {
                self.most_solid
            },
            same: self.other | bloom(board),
            other: self.same,
        }
    }
}

/// The filter bit of `board` in [`PathSummary::same`] and [`PathSummary::other`].
fn bloom(board: &Board) -> u128 {
    let mut a = [0u8; 16];
    a[..12].copy_from_slice(board);
    let h = u128::from_le_bytes(a);
    let h = (h as u64 ^ (h >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    1u128 << (h >> 57)
}

/// A node where the threshold solver's own bounds (attractors and safe regions, no path search)
/// give the root mover at least `t`: the solver's strategy from there only visits such positions.
const SOLID_MAX: u8 = 1;
/// A node where the threshold solver's bounds give the root mover less than `t`.
const SOLID_MIN: u8 = 2;

/// The answer to one threshold question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThresholdAnswer {
    /// The root mover gets at least `t`.
    Proved,
    /// The root mover gets less than `t`.
    Disproved,
    /// The node budget ran out, or (proving) the tree was refuted only through exits whose bounds
    /// straddle `t`, so nothing is known.
    Unknown,
}

struct Pn<'a> {
    seeds: usize,
    lower: &'a dyn LowerLevels,
    level: Option<InLevel<'a>>,
    solver: Option<InLevel<'a>>,
    t: i8,
    /// Which side the undecided exits count against: `true` while proving (they count as
    /// disproved), `false` while disproving.
    proving: bool,
    /// An undecided exit was counted against the side being proved.
    used_doubtful: bool,
    nodes: Vec<Node>,
}

/// The bounds `l` holds on the board of index `rank` (of `l`'s level).
fn entry(l: Option<InLevel>, rank: Option<u64>) -> Option<Bounds> {
    let (l, i) = l.zip(rank)?;
    decode(RuleSet::Abapa, l.index.seeds(), l.code(i))
}

/// Whether `board` at `depth` has the root mover to move (an OR node).
fn or_node(depth: u32) -> bool {
    depth.is_multiple_of(2)
}

impl Pn<'_> {
    /// The root mover's row at a board at `depth` (boards are seen by their own mover).
    fn root_row(&self, board: &Board, depth: u32) -> i8 {
        if or_node(depth) {
            row(board)
        } else {
            self.seeds as i8 - row(board)
        }
    }

    /// Bounds on the seeds of the mover of a board at `depth`, seen from the root mover.
    fn seen_by_root(&self, b: Bounds, depth: u32) -> (i8, i8) {
        if or_node(depth) {
            (b.lo, b.hi)
        } else {
            let k = self.seeds as i8;
            (k - b.hi, k - b.lo)
        }
    }

    /// Whether a leaf worth `lo..=hi` to the root mover decides the threshold: `Some(true)` proved,
    /// `Some(false)` disproved.
    fn decide(&mut self, lo: i8, hi: i8) -> Option<bool> {
        if lo >= self.t {
            Some(true)
        } else if hi < self.t {
            Some(false)
        } else {
            None
        }
    }

    /// The solid flags of the board of index `rank` at `depth`, from the threshold solver's bounds.
    ///
    /// Why they transfer to a path `h` better than other bounds: where the solver's bounds give the
    /// root mover at least `t` at a position, its strategy (the attractor of good exits, or a safe
    /// region) only ever visits positions where they do too, [`SOLID_MAX`] ones. Followed from a
    /// position reached by `h`, it either never comes back to `h` (a play of the no-history game:
    /// at least `t`) or comes back to a solid position of `h`, where the root mover gathers its
    /// row. So the position is proved when the root mover's row is at least `t` at every solid
    /// position of `h`, whatever the others hold; the same for the other side with [`SOLID_MIN`].
    fn solid(&self, rank: Option<u64>, depth: u32) -> u8 {
        let Some(b) = entry(self.solver, rank) else {
            return 0;
        };
        let (lo, hi) = self.seen_by_root(b, depth);
        ((lo >= self.t) as u8 * SOLID_MAX) | ((hi < self.t) as u8 * SOLID_MIN)
    }

    /// Expands leaf `x`: its children that are not solved go into the arena, and its numbers are
    /// set from them.
    fn expand(&mut self, x: usize) {
        let depth = self.nodes[x].depth;
        let board = self.nodes[x].board;
        let or = or_node(depth);
        let path = self.nodes[x].path;
        let first = self.nodes.len() as u32;
        // An OR node is proved by one proved child and disproved when every child is; an AND node
        // the other way round.
        let mut solved: Option<bool> = None;
        for s in successors(&board, RuleSet::Abapa) {
            let child_depth = depth + 1;
            let mut rank = None;
            let over = match s.captured {
                0 => terminal_value(&s.board, RuleSet::Abapa),
                _ => None,
            };
            let verdict = if s.captured > 0 || over.is_some() {
                let after_seeds = self.seeds - s.captured as usize;
                let after = match over {
                    Some(v) => Bounds::exact(v),
                    None => self.lower.bounds(after_seeds, &s.board),
                };
                // The mover's seeds through this move, then seen from the root mover.
                let through = through_move(RuleSet::Abapa, self.seeds, after_seeds, after);
                let (lo, hi) = self.seen_by_root(through, depth);
                match self.decide(lo, hi) {
                    Some(v) => Some(v),
                    None => {
                        if self.proving {
                            self.used_doubtful = true;
                        }
                        Some(!self.proving)
                    }
                }
            } else if path.other & bloom(&s.board) != 0 && self.repeats(x, &s.board) {
                // A repetition (same side to move: an even distance back from the child): the root
                // mover gathers its row there.
                let r = self.root_row(&s.board, child_depth);
                self.decide(r, r)
            } else if let Some(b) = {
                // One rank for the level's stored bounds and the solver's (same index).
                rank = self
                    .level
                    .or(self.solver)
                    .and_then(|l| l.index.rank(&s.board));
                entry(self.level, rank)
            } {
                // The child's own mover is the other one: its bounds seen from the root mover.
                let (lo, hi) = self.seen_by_root(b, child_depth);
                self.decide(lo.min(path.least), hi.max(path.most))
            } else {
                None
            };
            let solid = if verdict.is_none() {
                self.solid(rank, child_depth)
            } else {
                0
            };
            let verdict = verdict.or(if solid & SOLID_MAX != 0 && path.least_solid >= self.t {
                Some(true)
            } else if solid & SOLID_MIN != 0 && path.most_solid < self.t {
                Some(false)
            } else {
                None
            });
            match verdict {
                Some(v) if v == or => {
                    // Decides this node.
                    solved = Some(v);
                    break;
                }
                Some(_) => {}
                None => {
                    let r = self.root_row(&s.board, child_depth);
                    self.nodes.push(Node {
                        board: s.board,
                        parent: x as u32,
                        first: 0,
                        depth: child_depth,
                        pn: 1,
                        dn: 1,
                        count: 0,
                        path: path.then(&s.board, r, solid),
                    })
                }
            }
        }
        let count = self.nodes.len() as u32 - first;
        if solved.is_none() && count == 0 {
            // Every child went the other way.
            solved = Some(!or);
        }
        if let Some(v) = solved {
            self.nodes.truncate(first as usize);
            let n = &mut self.nodes[x];
            (n.pn, n.dn) = if v { (0, INF) } else { (INF, 0) };
            n.count = 0;
            return;
        }
        let n = &mut self.nodes[x];
        n.first = first;
        n.count = count as u8;
        self.update(x);
    }

    /// Whether `board`, the board after a move from node `x`, is on the path from the root to `x`
    /// at an even distance back from the child (the same side to move).
    fn repeats(&self, x: usize, board: &Board) -> bool {
        if x == 0 {
            return false;
        }
        let mut y = self.nodes[x].parent as usize;
        loop {
            let n = &self.nodes[y];
            if n.board == *board {
                return true;
            }
            if n.depth < 2 {
                return false;
            }
            y = self.nodes[n.parent as usize].parent as usize;
        }
    }

    /// Sets the numbers of expanded node `x` from its children; returns whether they changed.
    fn update(&mut self, x: usize) -> bool {
        let n = &self.nodes[x];
        let children = &self.nodes[n.first as usize..(n.first + n.count as u32) as usize];
        let (mut min_pn, mut min_dn, mut sum_pn, mut sum_dn) = (INF, INF, 0u32, 0u32);
        for c in children {
            min_pn = min_pn.min(c.pn);
            min_dn = min_dn.min(c.dn);
            sum_pn = (sum_pn + c.pn).min(INF);
            sum_dn = (sum_dn + c.dn).min(INF);
        }
        let (pn, dn) = if or_node(n.depth) {
            (min_pn, sum_dn)
        } else {
            (sum_pn, min_dn)
        };
        let changed = (pn, dn) != (n.pn, n.dn);
        let n = &mut self.nodes[x];
        (n.pn, n.dn) = (pn, dn);
        changed
    }

    /// The child of expanded node `x` to follow: least proof number at an OR node, least disproof
    /// number at an AND node.
    fn select(&self, x: usize) -> usize {
        let n = &self.nodes[x];
        let range = n.first as usize..(n.first + n.count as u32) as usize;
        let or = or_node(n.depth);
        range
            .min_by_key(|&c| {
                let c = &self.nodes[c];
                if or {
                    c.pn
                } else {
                    c.dn
                }
            })
            .expect("an expanded node has children")
    }

    fn run(&mut self, max_nodes: usize) -> Option<bool> {
        let mut from = 0;
        loop {
            let root = &self.nodes[0];
            if root.pn == 0 {
                return Some(true);
            }
            if root.dn == 0 {
                return Some(false);
            }
            if self.nodes.len() >= max_nodes {
                return None;
            }
            let mut x = from;
            while self.nodes[x].count > 0 {
                x = self.select(x);
            }
            self.expand(x);
            // Up to the first ancestor whose numbers do not change: the next most-proving node lies
            // below it.
            let mut y = x;
            from = loop {
                if y == 0 {
                    break 0;
                }
                y = self.nodes[y].parent as usize;
                if !self.update(y) {
                    break y;
                }
            };
        }
    }
}

/// Whether the mover of `board` (a board of `seeds` seeds where the game goes on, with no earlier
/// history) gets at least `t` seeds, searched with at most `max_nodes` nodes in the tree per pass.
/// `level` holds the level's stored bounds (sound no-history bounds) to fold in at the leaves.
pub fn at_least(
    seeds: usize,
    board: &Board,
    lower: &dyn LowerLevels,
    level: Option<InLevel>,
    solver: Option<InLevel>,
    t: i8,
    max_nodes: usize,
) -> ThresholdAnswer {
    if let Some(v) = terminal_value(board, RuleSet::Abapa) {
        return if v >= t {
            ThresholdAnswer::Proved
        } else {
            ThresholdAnswer::Disproved
        };
    }
    let pass = |proving: bool| {
        let mut pn = Pn {
            seeds,
            lower,
            level,
            solver,
            t,
            proving,
            used_doubtful: false,
            nodes: Vec::new(),
        };
        let solid = pn.solid(solver.and_then(|l| l.index.rank(board)), 0);
        pn.nodes.push(Node {
            board: *board,
            parent: 0,
            first: 0,
            depth: 0,
            pn: 1,
            dn: 1,
            count: 0,
            path: PathSummary::EMPTY.then(board, row(board), solid),
        });
        let result = pn.run(max_nodes);
        (result, pn.used_doubtful)
    };
    match pass(true) {
        (Some(true), _) => ThresholdAnswer::Proved,
        (Some(false), false) => ThresholdAnswer::Disproved,
        (Some(false), true) => match pass(false) {
            (Some(false), _) => ThresholdAnswer::Disproved,
            _ => ThresholdAnswer::Unknown,
        },
        (None, _) => ThresholdAnswer::Unknown,
    }
}

/// Narrows `known` (sound no-history bounds on `board`) by threshold searches: first whether the
/// mover reaches `hi`, then (once a search runs out of nodes) whether it reaches `lo + 1`, until the
/// bounds meet or a search from the bottom runs out of nodes too.
pub fn narrow(
    seeds: usize,
    board: &Board,
    lower: &dyn LowerLevels,
    level: Option<InLevel>,
    solver: Option<InLevel>,
    known: Bounds,
    max_nodes: usize,
) -> Bounds {
    let mut b = known;
    let mut from_top = true;
    while b.lo < b.hi {
        let t = if from_top { b.hi } else { b.lo + 1 };
        match at_least(seeds, board, lower, level, solver, t, max_nodes) {
            ThresholdAnswer::Proved => b.lo = t,
            ThresholdAnswer::Disproved => b.hi = t - 1,
            // From the bottom next, unless that asks the same question.
            ThresholdAnswer::Unknown if from_top && b.lo + 1 < t => from_top = false,
            ThresholdAnswer::Unknown => break,
        }
    }
    b
}

/// Nodes per threshold question (and pass of [`at_least`]) in the first pass of
/// [`refine_by_proof_numbers`].
pub const REFINE_NODES: usize = 2_000;

/// Each pass of [`refine_by_proof_numbers`] gives each question this many times the nodes of the
/// pass before (most boards settle with a few hundred nodes; the rest are tried again with more,
/// and with the bounds the pass before left).
pub const REFINE_GROWTH: usize = 4;

/// At most this many passes of [`refine_by_proof_numbers`] over a level: 2,000, 8,000, 32,000 and
/// 128,000 nodes per question (the fourth settles most of what three leave open at levels 6 and 7).
pub const REFINE_PASSES: usize = 4;

/// Passes of [`refine_by_proof_numbers`] after the first stop when the boards still open times the
/// nodes per question would pass this: the open boards of large levels that the first passes leave
/// are mostly held by their exits, and more nodes settle few of them. With 150 million, level 8
/// gets two passes and level 9 three; 300 million gives level 8 a third (2 more points of exact
/// share over levels 0-12, at 1.6 times the build time).
pub const PASS_NODES: usize = 150_000_000;

/// Narrows the non-exact entries of an abapa level in place by [`narrow`], with `nodes` nodes per
/// question in the first pass and [`REFINE_GROWTH`] times more in each pass after it, while a pass
/// changes something (each pass folds in the entries the one before left). `solver_codes` holds the
/// threshold solver's entries for the level, before any search. `share` says which boards this
/// process searches (see [`Share`]). Returns how many became exact.
pub fn refine_by_proof_numbers<S: Share>(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    solver_codes: &[u8],
    entries: &mut [u8],
    nodes: usize,
    share: &S,
) -> Result<u64, S::Error> {
    let seeds = index.seeds();
    let solver = Some(InLevel::new(index, solver_codes));
    let mut resolved = 0;
    let mut nodes = nodes;
    for pass in 0..REFINE_PASSES {
        if pass > 0 {
            nodes *= REFINE_GROWTH;
            let open = open_entries(seeds, codes_of(index, entries)) as usize;
            if open * nodes > PASS_NODES {
                break;
            }
        }
        // The pass reads the entries as they were at its start: the solver's, with the few that
        // searches changed since kept apart rather than in a copy of the level, so that a level
        // takes about 2 bytes per board here, as elsewhere in the build.
        let before = Overlay::diff(codes_of(index, entries), codes_of(index, solver_codes));
        let level = Some(InLevel {
            changed: Some(&before),
            ..InLevel::new(index, solver_codes)
        });
        let (exact, changed) = shared_pass(index, entries, share, |board, known| {
            Some(narrow(seeds, board, lower, level, solver, known, nodes))
        })?;
        resolved += exact;
        if changed == 0 {
            break;
        }
    }
    Ok(resolved)
}
