//! The level loop: levels are built from 0 seeds up, each from itself and the levels below, and kept
//! by a [`LevelStore`]. Levels the store already has are reused, so a stopped build resumes from the
//! last finished level.

use std::time::Instant;

use oware_rules::RuleSet;

use oware_egtb::index::LevelIndex;
use oware_egtb::values::{decode, entry_width, index_kind, max_level, MAX_ENTRY_WIDTH};
use oware_egtb::{EgtbError, Levels};

use crate::refine::{refine_level, SearchBudget};
use crate::solve::{solve_level_as, work_units, ABAPA_SOLVER_MAX_SEEDS};
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

/// How wide the entries of the levels a build writes are.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Layout {
    /// As narrow as each level's codes allow ([`entry_width`]): one byte, two for abapa above 21
    /// seeds. What every build writes.
    #[default]
    Narrowest,
    /// abapa levels in two bytes an entry from level 0 (awari's stay one byte): for tests, which
    /// run the two-byte layout on levels small enough to build in seconds.
    Wide,
}

impl Layout {
    /// Bytes an entry of level `seeds` of `rules`.
    pub fn width(self, rules: RuleSet, seeds: usize) -> usize {
        match (self, rules) {
            (Layout::Wide, RuleSet::Abapa) => MAX_ENTRY_WIDTH,
            _ => entry_width(rules, seeds),
        }
    }
}

/// Bytes of memory that building a level of `boards` boards in entries of `width` bytes takes, about:
/// the solver's two bytes per board (its entries are made in place of them), or, for abapa, the
/// searches' entries and the copy of them a pass reads, whichever is more; and some room besides
/// (the safe regions' lists, the lists of changed entries).
pub fn level_memory(rules: RuleSet, boards: u64, width: usize) -> u64 {
    let per_board = match rules {
        RuleSet::Awari => 2,
        RuleSet::Abapa => 2.max(2 * width as u64),
    };
    boards * per_board + boards / 16 + (64 << 20)
}

/// Whether level `seeds` of `rules` in entries of `width` bytes can be built here: the solver holds
/// it, and it fits the memory `available` (bytes; `None`: not known, not checked). Checked before
/// each level a build starts, so that a build that goes as far as it can ends with an error that
/// says why, with every level below finished, rather than aborted by the system halfway through a
/// level.
pub fn check_level_fits(
    rules: RuleSet,
    seeds: usize,
    width: usize,
    available: Option<u64>,
) -> Result<(), EgtbError> {
    if rules == RuleSet::Abapa && seeds > ABAPA_SOLVER_MAX_SEEDS {
        return Err(EgtbError::BeyondSolver {
            rules,
            seeds,
            max: ABAPA_SOLVER_MAX_SEEDS,
        });
    }
    let needed = level_memory(
        rules,
        LevelIndex::new(seeds, index_kind(rules)).count(),
        width,
    );
    match available {
        Some(available) if needed > available => Err(EgtbError::OutOfMemory {
            rules,
            seeds,
            needed,
            available,
        }),
        _ => Ok(()),
    }
}

/// The memory available to a new allocation now: Linux's estimate (`MemAvailable` in
/// `/proc/meminfo`), `None` elsewhere.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
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
    on_level: impl FnMut(&LevelReport),
) -> Result<Levels, EgtbError> {
    build_layout(
        store,
        rules,
        max_seeds,
        search,
        Layout::Narrowest,
        progress,
        on_level,
    )
}

/// [`build_with`], writing entries as `layout` says. Before each level it builds, it checks that
/// the level fits ([`check_level_fits`]) and stops with that error if not.
pub fn build_layout(
    store: &mut dyn LevelStore,
    rules: RuleSet,
    max_seeds: usize,
    search: SearchBudget,
    layout: Layout,
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
                let width = layout.width(rules, seeds);
                check_level_fits(rules, seeds, width, available_memory())?;
                let mut entries = solve_level_as(rules, &index, &levels, progress, width);
                if rules == RuleSet::Abapa {
                    refine_level(&index, &levels, &mut entries, search);
                }
                // A lower level's file that changed under the solver was read as zeros: the level
                // must not be saved from them.
                levels.check_unchanged()?;
                (store.save(rules, seeds, entries)?, false)
            }
        };
        levels.push(data);
        let (_, codes) = levels.codes(seeds).expect("the level just pushed");
        let exact = codes
            .iter()
            .filter(|&c| decode(rules, seeds, c).is_some_and(|b| b.is_exact()))
            .count() as u64;
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
