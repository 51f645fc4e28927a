//! abapa: after the threshold solver, the searches that narrow the bounds it left on boards that a
//! cycle touches, and how much of them a build does.

use oware_egtb::index::LevelIndex;

use crate::in_level::{codes_of, open_entries, Share, WholeLevel};
use crate::{path_search, pn_search, LowerLevels};

/// How much path-tracking search an abapa build does after the threshold solver of each level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchBudget {
    /// This many nodes per board and pass on every level (0: the solver's entries as they are).
    Fixed(u64),
    /// Levels the solver leaves with at most [`PROOF_NUMBER_OPEN`] open boards first go through the
    /// proof-number search ([`crate::pn_search::refine_by_proof_numbers`]), which transfers the
    /// solver's own bounds along paths and settles most of the open boards of levels 4, 6 and 7 in
    /// seconds.
    /// Then levels the solver left with at most [`FEW_OPEN`] open boards are searched with up to
    /// [`EXHAUSTIVE_NODES`] nodes per board and pass; other levels with this many (0: not at all).
    ///
    /// The small levels matter most: every capture leads to a lower level, so a level's open boards
    /// leave bounds on the exits of every level above. Settling the few open boards of levels 3–5
    /// (it takes up to a few million nodes for some of them) lifts levels 0–12 from 33.6% to 47.6%
    /// exact, while a search of the large levels themselves settles next to nothing even with
    /// 20,000 nodes per board (docs/benchmarks.md).
    Auto(u64),
}

/// See [`SearchBudget::Auto`]: levels with at most this many open boards after the solver are
/// searched exhaustively (levels 0–5: up to about 180 boards; level 6 has 1,367, nearly all in one
/// component of 9,412 boards that the search cannot finish).
pub const FEW_OPEN: u64 = 1_000;

/// See [`SearchBudget::Auto`]: levels with at most this many open boards after the solver go
/// through the proof-number search (in a build of levels 0–12: levels 2–4 and 6–9, with 13 to
/// 13,067 open boards; levels 10–12 have 35,317 to 163,222).
pub const PROOF_NUMBER_OPEN: u64 = 20_000;

/// See [`SearchBudget::Auto`]: enough for every open board of levels 0–5 (one of level 4 needs
/// more than a million).
pub const EXHAUSTIVE_NODES: u64 = 10_000_000;

impl SearchBudget {
    /// Nodes per threshold question in the first pass of the proof-number search
    /// ([`crate::pn_search::refine_by_proof_numbers`]), which runs before the path search: with
    /// `Auto`, on levels the solver left with at most [`PROOF_NUMBER_OPEN`] open boards; never with
    /// `Fixed`.
    pub fn proof_number_nodes(self, open: u64) -> Option<usize> {
        match self {
            SearchBudget::Fixed(_) => None,
            SearchBudget::Auto(_) if open <= PROOF_NUMBER_OPEN => Some(pn_search::REFINE_NODES),
            SearchBudget::Auto(_) => None,
        }
    }

    /// Nodes per board and pass for a level where the solver left `open` boards with bounds.
    pub fn nodes_for(self, open: u64) -> u64 {
        match self {
            SearchBudget::Fixed(n) => n,
            SearchBudget::Auto(n) if open <= FEW_OPEN => n.max(EXHAUSTIVE_NODES),
            SearchBudget::Auto(n) => n,
        }
    }
}

/// Narrows the bounds the threshold solver left on an abapa level (`entries`), as `search` says: the
/// proof-number search first (it transfers the solver's own bounds, so it needs them as the solver
/// left them: a copy, held only while it runs), then the path search on what is left.
pub fn refine_level(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    entries: &mut [u8],
    search: SearchBudget,
) {
    let Ok(()) = refine_shared(index, lower, entries, search, &WholeLevel);
}

/// [`refine_level`] by processes that share the level (`entries` is the whole level on each; this
/// one narrows the boards `share` gives it, see [`Share`]): every decision (which searches, how
/// many passes) is taken on the whole level, so the entries are those of [`refine_level`].
pub fn refine_shared<S: Share>(
    index: &LevelIndex,
    lower: &dyn LowerLevels,
    entries: &mut [u8],
    search: SearchBudget,
    share: &S,
) -> Result<(), S::Error> {
    let open = open_entries(index.seeds(), codes_of(index, entries));
    if let Some(nodes) = search.proof_number_nodes(open) {
        let solver = entries.to_vec();
        pn_search::refine_by_proof_numbers(index, lower, &solver, entries, nodes, share)?;
    }
    path_search::refine_by_path_search(index, lower, entries, search.nodes_for(open), share)?;
    Ok(())
}
