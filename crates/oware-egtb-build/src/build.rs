//! The level loop: levels are built from 0 seeds up, each from itself and the levels below, and kept
//! by a [`LevelStore`]. Levels the store already has are reused, so a stopped build resumes from the
//! last finished level.

use std::time::Instant;

use oware_rules::RuleSet;

use oware_egtb::index::LevelIndex;
use oware_egtb::values::{decode, index_kind, max_level};
use oware_egtb::{EgtbError, Levels};

use crate::refine::{refine_level, SearchBudget};
use crate::solve::{solve_level, work_units};
use crate::store::{LevelStore, MemoryStore};
use crate::Progress;

/// What building (or finding) one level gave.
#[derive(Debug, Clone, PartialEq)]
pub struct LevelReport {
    /// The level: seeds on the board.
    pub seeds: usize,
    /// Boards in the level's index.
    pub boards: u64,
    /// Found already built (resumed), not built now.
    pub reused: bool,
    /// Wall-clock seconds spent on the level (next to nothing when reused).
    pub seconds: f64,
    /// Entries whose value is exact (all of them for awari).
    pub exact: u64,
}

/// Whether levels `0..=max_seeds` of `rules` can be built at all: the value codes of each rule set
/// reach only so many seeds ([`max_level`]). Every build checks it first; callers may check it
/// before they set anything up.
pub fn check_max_seeds(rules: RuleSet, max_seeds: usize) -> Result<(), EgtbError> {
    if max_seeds > max_level(rules) {
        return Err(EgtbError::LevelTooHigh {
            rules,
            seeds: max_seeds,
            max: max_level(rules),
        });
    }
    Ok(())
}

/// Work units (for a progress bar) of the levels `0..=max_seeds` the store does not have yet.
pub fn pending_work(
    store: &dyn LevelStore,
    rules: RuleSet,
    max_seeds: usize,
) -> Result<u64, EgtbError> {
    let mut total = 0;
    for seeds in 0..=max_seeds.min(max_level(rules)) {
        if store.load(rules, seeds)?.is_none() {
            total += work_units(&LevelIndex::new(seeds, index_kind(rules)));
        }
    }
    Ok(total)
}

/// Builds levels `0..=max_seeds` of `rules` into `store`, on the current rayon pool, calling
/// `on_level` after each level. Returns the levels, ready for probing. abapa levels get the default
/// search, `SearchBudget::Auto(0)`: only levels with few open boards (see [`SearchBudget`]).
pub fn build(
    store: &mut dyn LevelStore,
    rules: RuleSet,
    max_seeds: usize,
    progress: &dyn Progress,
    on_level: impl FnMut(&LevelReport),
) -> Result<Levels, EgtbError> {
    build_with(
        store,
        rules,
        max_seeds,
        SearchBudget::Auto(0),
        progress,
        on_level,
    )
}

/// [`build_with`] into a fresh [`MemoryStore`], with no progress shown and no report per level: the
/// levels of small builds for tests and experiments.
pub fn build_in_memory(
    rules: RuleSet,
    max_seeds: usize,
    search: SearchBudget,
) -> Result<Levels, EgtbError> {
    build_with(
        &mut MemoryStore::default(),
        rules,
        max_seeds,
        search,
        &(),
        |_| {},
    )
}

/// [`build`], with abapa's path-tracking search as `search` says. Levels found in the store are
/// reused as they are.
pub fn build_with(
    store: &mut dyn LevelStore,
    rules: RuleSet,
    max_seeds: usize,
    search: SearchBudget,
    progress: &dyn Progress,
    mut on_level: impl FnMut(&LevelReport),
) -> Result<Levels, EgtbError> {
    check_max_seeds(rules, max_seeds)?;
    let mut levels = Levels::new(rules);
    for seeds in 0..=max_seeds {
        let started = Instant::now();
        let index = LevelIndex::new(seeds, index_kind(rules));
        let (data, reused) = match store.load(rules, seeds)? {
            Some(data) => (data, true),
            None => {
                let mut entries = solve_level(rules, &index, &levels, progress);
                if rules == RuleSet::Abapa {
                    refine_level(&index, &levels, &mut entries, search);
                }
                // A lower level's file that changed under the solver was read as zeros: the level
                // must not be saved from them.
                levels.check_unchanged()?;
                (store.save(rules, seeds, entries)?, false)
            }
        };
        let exact = data
            .iter()
            .filter(|&&c| decode(rules, seeds, c).is_some_and(|b| b.is_exact()))
            .count() as u64;
        levels.push(data);
        on_level(&LevelReport {
            seeds,
            boards: index.count(),
            reused,
            seconds: started.elapsed().as_secs_f64(),
            exact,
        });
    }
    Ok(levels)
}
