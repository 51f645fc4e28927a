//! Probing: the value of any position whose board holds no more seeds than the database covers, the
//! value of each of its moves, and the best moves.

use std::fmt;
use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use oware_rules::{Move, PackedPosition, Position, RuleSet};

use crate::file::{file_name, open_level, LevelFile};
use crate::index::{Board, LevelIndex};
use crate::values::{
    entry_width, index_kind, read_code, stored_bounds, successors, terminal_value, through_move,
    width_of, Bounds, Code, Codes,
};
use crate::EgtbError;

/// A finished level's entries in index order, one or two bytes per board (see
/// [`crate::values::entry_width`]).
pub enum LevelData {
    /// A checked, memory-mapped file (its header gives the width).
    File(LevelFile),
    /// Entries held in memory: one or two bytes per board, as the length says.
    Memory(Arc<[u8]>),
}

impl LevelData {
    /// Entry `i` of a level of `width` bytes an entry, or `None` if the file it comes from has
    /// changed since it was checked.
    #[inline]
    fn entry(&self, i: usize, width: usize) -> Option<Code> {
        match self {
            LevelData::File(f) => f.entry(i),
            LevelData::Memory(m) => m.get(i * width..(i + 1) * width).map(read_code),
        }
    }
}

/// What is told, once per file, that a database file changed under the process
/// ([`EgtbError::Changed`]); it may be called from any thread that probes.
pub type OnChange = Arc<dyn Fn(&EgtbError) + Send + Sync>;

/// Entries read as a slice (whole-level passes): a file that changes under the pass reads as zeros,
/// and the pass asks [`Levels::check_unchanged`] at its end.
impl Deref for LevelData {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            LevelData::File(f) => f.entries(),
            LevelData::Memory(m) => m,
        }
    }
}

/// Levels 0..n of one rule set, with their indices.
pub struct Levels {
    rules: RuleSet,
    /// Each level's index, entries, and bytes an entry.
    levels: Vec<(LevelIndex, LevelData, usize)>,
    on_change: Option<OnChange>,
}

impl Levels {
    /// No levels yet: push level 0 first.
    pub fn new(rules: RuleSet) -> Levels {
        Levels {
            rules,
            levels: Vec::new(),
            on_change: None,
        }
    }

    /// Who to tell, once per file, that a file changed under a probe ([`Levels::stored`]); by
    /// default no one (the probes of its level still answer `None`).
    pub fn set_on_change(&mut self, on_change: OnChange) {
        self.on_change = Some(on_change);
    }

    /// `Err(EgtbError::Changed)` naming the first file that changed since it was checked: for
    /// passes over slices of whole levels ([`Levels::level`], [`Levels::stored_unguarded`]), whose
    /// reads of a changed file are zeros.
    pub fn check_unchanged(&self) -> Result<(), EgtbError> {
        for (_, data, _) in &self.levels {
            if let LevelData::File(f) = data {
                f.check_unchanged()?;
            }
        }
        Ok(())
    }

    /// The rule set whose values the levels hold.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Number of levels held (levels `0..len()`).
    pub fn len(&self) -> usize {
        self.levels.len()
    }

    /// Whether no level is held, not even level 0.
    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// Adds the next level. Panics if the entries are not one or two bytes per board of the level,
    /// or too narrow for its codes (a checked file always is right).
    pub fn push(&mut self, data: LevelData) {
        let seeds = self.levels.len();
        let index = LevelIndex::new(seeds, index_kind(self.rules));
        let width = match &data {
            LevelData::File(f) => f.width(),
            LevelData::Memory(m) => width_of(m.len(), index.count()).unwrap_or_else(|| {
                panic!(
                    "{} level {seeds}: {} bytes of entries for {} boards",
                    self.rules,
                    m.len(),
                    index.count()
                )
            }),
        };
        assert!(
            width >= entry_width(self.rules, seeds),
            "{} level {seeds} needs entries of {} bytes",
            self.rules,
            entry_width(self.rules, seeds)
        );
        self.levels.push((index, data, width));
    }

    /// The index and the entries' bytes of level `seeds` ([`Levels::codes`] reads them as codes).
    pub fn level(&self, seeds: usize) -> Option<(&LevelIndex, &[u8])> {
        self.levels.get(seeds).map(|(i, d, _)| (i, &d[..]))
    }

    /// The index and entries of level `seeds`.
    pub fn codes(&self, seeds: usize) -> Option<(&LevelIndex, Codes<'_>)> {
        self.levels
            .get(seeds)
            .map(|(i, d, w)| (i, Codes::new(&d[..], *w)))
    }

    /// The stored bounds of a board in the index of its level, `None` when the level is not held,
    /// the board is left out of the compact index, or the level's file has changed since it was
    /// checked (told once to [`Levels::set_on_change`]'s callback). An entry that does not decode
    /// reads as the widest bounds (a checked file never has one; `verify` reports them).
    #[inline]
    pub fn stored(&self, board: &Board) -> Option<Bounds> {
        let seeds: usize = board.iter().map(|&v| v as usize).sum();
        let (index, data, width) = self.levels.get(seeds)?;
        let i = index.rank(board)? as usize;
        let Some(code) = data.entry(i, *width) else {
            self.changed(data);
            return None;
        };
        Some(stored_bounds(self.rules, seeds, code))
    }

    /// Tells of a changed file, the first time.
    #[cold]
    fn changed(&self, data: &LevelData) {
        if let (LevelData::File(f), Some(on_change)) = (data, &self.on_change) {
            if f.first_report() {
                on_change(&f.changed_error());
            }
        }
    }

    /// [`Levels::stored`] without the check that the file is unchanged, for passes over whole levels
    /// (building, verifying) that ask [`Levels::check_unchanged`] at their end: a changed file reads
    /// as zeros meanwhile.
    #[inline]
    pub fn stored_unguarded(&self, board: &Board) -> Option<Bounds> {
        let seeds: usize = board.iter().map(|&v| v as usize).sum();
        let (index, data, width) = self.levels.get(seeds)?;
        let i = index.rank(board)? as usize;
        let code = read_code(&data[i * width..(i + 1) * width]);
        Some(stored_bounds(self.rules, seeds, code))
    }

    /// The bounds of any board of a held level: boards left out of the compact index are worked out
    /// from their moves (their successors are all in the index, and they can never recur).
    pub fn bounds_of(&self, board: &Board) -> Option<Bounds> {
        if let Some(b) = self.stored(board) {
            return Some(b);
        }
        let seeds: usize = board.iter().map(|&v| v as usize).sum();
        if seeds >= self.levels.len() {
            return None;
        }
        if let Some(v) = terminal_value(board, self.rules) {
            return Some(Bounds::exact(v));
        }
        let mut best: Option<Bounds> = None;
        for s in successors(board, self.rules) {
            let after_seeds = seeds - s.captured as usize;
            let after = self.stored(&s.board)?;
            let b = through_move(self.rules, seeds, after_seeds, after);
            best = Some(best.map_or(b, |x| Bounds {
                lo: x.lo.max(b.lo),
                hi: x.hi.max(b.hi),
            }));
        }
        best
    }
}

/// What the database says about a position, in the rule set's units, from the mover's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProbeValue {
    /// The value when exact; otherwise the lower bound (what the mover can be sure of).
    pub value: i8,
    /// Whether `value` is the exact value (always for awari).
    pub exact: bool,
    /// The lower bound, equal to `value`.
    pub lower: i8,
    /// The upper bound; equal to `lower` when exact.
    pub upper: i8,
}

impl From<Bounds> for ProbeValue {
    fn from(b: Bounds) -> ProbeValue {
        ProbeValue {
            value: b.lo,
            exact: b.is_exact(),
            lower: b.lo,
            upper: b.hi,
        }
    }
}

/// A database directory opened for one rule set: levels 0..=max_seeds, each file checked.
pub struct Tablebase {
    levels: Levels,
    unused: Option<UnusedLevels>,
}

/// Level files of a database that are not used because a level below them is missing: levels are
/// used from 0 up to the first one missing. A warning for the callers of [`Tablebase::open`] to show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnusedLevels {
    /// The database directory.
    pub dir: PathBuf,
    /// The rule set.
    pub rules: RuleSet,
    /// The first missing level: the database is used for levels below it.
    pub missing: usize,
    /// The levels above it whose files are there but not used.
    pub levels: Vec<usize>,
}

impl fmt::Display for UnusedLevels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (noun, verb) = if self.levels.len() == 1 {
            ("level", "is")
        } else {
            ("levels", "are")
        };
        write!(
            f,
            "{}: {} {noun} {} {verb} not used because level {} is missing",
            self.dir.display(),
            self.rules,
            list_levels(&self.levels),
            self.missing,
        )?;
        if self.missing > 0 {
            write!(
                f,
                "; the database is used for levels 0-{}",
                self.missing - 1
            )?;
        }
        f.write_str(" (build the missing levels with `oware egtb build`)")
    }
}

/// Levels as words: `8-10, 12`.
pub(crate) fn list_levels(levels: &[usize]) -> String {
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &l in levels {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == l => *end = l,
            _ => runs.push((l, l)),
        }
    }
    runs.iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The board of a position seen by its mover (its own row first).
pub fn board_of(position: &Position) -> Board {
    PackedPosition::from_position(position).mover_houses()
}

impl Tablebase {
    /// Opens every consecutive level from 0 found in `dir`. Fails if there is no level 0, or if any
    /// file opened is damaged or foreign. Files of levels above a missing one are not opened: see
    /// [`Tablebase::unused_levels`].
    pub fn open(dir: impl AsRef<Path>, rules: RuleSet) -> Result<Tablebase, EgtbError> {
        let dir = dir.as_ref();
        let max = crate::values::max_level(rules);
        let mut levels = Levels::new(rules);
        while levels.len() <= max {
            match open_level(dir, rules, levels.len())? {
                Some(file) => levels.push(LevelData::File(file)),
                None => break,
            }
        }
        let missing = levels.len();
        let unused: Vec<usize> = (missing + 1..=max)
            .filter(|&seeds| dir.join(file_name(rules, seeds)).exists())
            .collect();
        if levels.is_empty() {
            return Err(EgtbError::NoDatabase {
                dir: dir.to_path_buf(),
                rules,
                unused,
            });
        }
        let unused = (!unused.is_empty()).then(|| UnusedLevels {
            dir: dir.to_path_buf(),
            rules,
            missing,
            levels: unused,
        });
        Ok(Tablebase { levels, unused })
    }

    /// A tablebase over levels already at hand.
    pub fn from_levels(levels: Levels) -> Tablebase {
        Tablebase {
            levels,
            unused: None,
        }
    }

    /// Level files found in the directory but not used, because a level below them is missing: a
    /// warning to show whoever opened the database.
    pub fn unused_levels(&self) -> Option<&UnusedLevels> {
        self.unused.as_ref()
    }

    /// Who to tell, once per file, that a database file changed under a probe (the probes that need
    /// its level answer `None` from then on, so that the caller searches instead).
    pub fn set_on_change(&mut self, on_change: OnChange) {
        self.levels.set_on_change(on_change);
    }

    /// The rule set of the database.
    pub fn rules(&self) -> RuleSet {
        self.levels.rules()
    }

    /// The most seeds on the board that the database covers.
    pub fn max_seeds(&self) -> usize {
        self.levels.len() - 1
    }

    /// The levels, for callers that probe boards rather than positions.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// The value of `position` (stores are ignored: the value counts the seeds on the board), or
    /// `None` when the board holds more seeds than the database covers.
    ///
    /// abapa values assume no earlier history (exact right after a capture or at the start).
    pub fn probe(&self, position: &Position) -> Option<ProbeValue> {
        self.levels
            .bounds_of(&board_of(position))
            .map(ProbeValue::from)
    }

    /// The value of each move the rules allow (ignoring the stores), from the mover's side. For abapa
    /// a move that captures nothing is valued as if play started after it with no history.
    pub fn move_values(&self, position: &Position) -> Option<Vec<(Move, ProbeValue)>> {
        let board = board_of(position);
        let seeds: usize = board.iter().map(|&v| v as usize).sum();
        if seeds > self.max_seeds() {
            return None;
        }
        let rules = self.rules();
        let first = position.side_to_move().first_house();
        successors(&board, rules)
            .map(|s| {
                let after_seeds = seeds - s.captured as usize;
                let after = self.levels.bounds_of(&s.board)?;
                let mv = Move::new(first + s.house).expect("house below 12");
                Some((mv, through_move(rules, seeds, after_seeds, after).into()))
            })
            .collect()
    }

    /// The moves with the best value (by lower bound, then upper bound), or `None` when not covered;
    /// empty when the mover cannot move.
    pub fn best_moves(&self, position: &Position) -> Option<Vec<Move>> {
        let values = self.move_values(position)?;
        let best = values.iter().map(|(_, p)| (p.lower, p.upper)).max();
        Some(
            values
                .into_iter()
                .filter(|(_, p)| Some((p.lower, p.upper)) == best)
                .map(|(m, _)| m)
                .collect(),
        )
    }
}
