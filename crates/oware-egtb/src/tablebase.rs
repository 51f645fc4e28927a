//! Probing: the value of any position whose board holds no more seeds than the database covers, the
//! value of each of its moves, and the best moves.

use std::ops::Deref;
use std::path::Path;
use std::sync::Arc;

use oware_rules::{Move, PackedPosition, Position, RuleSet};

use crate::file::{open_level, LevelFile};
use crate::index::{Board, LevelIndex};
use crate::values::{index_kind, stored_bounds, successors, terminal_value, through_move, Bounds};
use crate::EgtbError;

/// A finished level's entries, one byte per board in index order.
pub enum LevelData {
    /// A checked, memory-mapped file.
    File(LevelFile),
    /// Entries held in memory.
    Memory(Arc<[u8]>),
}

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
    levels: Vec<(LevelIndex, LevelData)>,
}

impl Levels {
    /// No levels yet: push level 0 first.
    pub fn new(rules: RuleSet) -> Levels {
        Levels {
            rules,
            levels: Vec::new(),
        }
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

    /// Adds the next level.
    pub fn push(&mut self, data: LevelData) {
        let seeds = self.levels.len();
        self.levels
            .push((LevelIndex::new(seeds, index_kind(self.rules)), data));
    }

    /// The index and entries of level `seeds`.
    pub fn level(&self, seeds: usize) -> Option<(&LevelIndex, &[u8])> {
        self.levels.get(seeds).map(|(i, d)| (i, &d[..]))
    }

    /// The stored bounds of a board in the index of its level, `None` when the level is not held or
    /// the board is left out of the compact index. An entry that does not decode reads as the widest
    /// bounds (a checked file never has one; `verify` reports them).
    pub fn stored(&self, board: &Board) -> Option<Bounds> {
        let seeds: usize = board.iter().map(|&v| v as usize).sum();
        let (index, data) = self.level(seeds)?;
        let i = index.rank(board)?;
        let code = data[i as usize];
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
}

/// The board of a position seen by its mover (its own row first).
pub fn board_of(position: &Position) -> Board {
    PackedPosition::from_position(position).mover_houses()
}

impl Tablebase {
    /// Opens every consecutive level from 0 found in `dir`. Fails if there is no level 0, or if any
    /// file found is damaged or foreign.
    pub fn open(dir: impl AsRef<Path>, rules: RuleSet) -> Result<Tablebase, EgtbError> {
        let mut levels = Levels::new(rules);
        while levels.len() <= crate::values::max_level(rules) {
            match open_level(dir.as_ref(), rules, levels.len())? {
                Some(file) => levels.push(LevelData::File(file)),
                None => break,
            }
        }
        if levels.is_empty() {
            return Err(EgtbError::NoDatabase {
                dir: dir.as_ref().to_path_buf(),
                rules,
            });
        }
        Ok(Tablebase { levels })
    }

    /// A tablebase over levels already at hand.
    pub fn from_levels(levels: Levels) -> Tablebase {
        Tablebase { levels }
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
