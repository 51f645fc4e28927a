//! The endgame databases the server uses: those of a directory it was given (`oware serve --egtb
//! DIR`), or those of the user's data directory, which grow while the server runs as their levels
//! are built. One per rule set, either may be missing. They serve two uses: the pooled engines
//! probe them in their searches (one probe that answers for the game's rule set, since an engine
//! plays games of both), and the analysis board shows each move's database value.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use oware_egtb::{EgtbError, UnusedLevels};
use oware_engine::tablebase::{LiveProbe, TablebaseProbe};
use oware_engine::Probe;
use oware_rules::{Game, Move, Position, RuleSet};

/// The databases of each rule set, as they are now or as they grow.
#[derive(Default, Clone)]
pub struct Databases {
    abapa: Option<Arc<LiveProbe>>,
    awari: Option<Arc<LiveProbe>>,
    unused: Vec<UnusedLevels>,
}

/// Why the databases could not be opened: the server refuses to start rather than run without
/// databases it was asked to use.
#[derive(Debug, thiserror::Error)]
pub enum DatabaseError {
    /// The directory holds neither an abapa nor an awari database.
    #[error("{}: no endgame database here for abapa or awari (build one with `oware egtb build`)", .0.display())]
    NoneFound(PathBuf),
    /// The directory holds level files, but no database can be used: level 0 is missing.
    #[error("{0}")]
    Incomplete(UnusedLevels),
    /// A database is there but could not be opened. The message includes the database's error
    /// (with its file), which is therefore not also the error's `source`.
    #[error("the {rules} endgame database cannot be used: {error}")]
    Unusable {
        /// The rule set of the database.
        rules: RuleSet,
        /// Why it cannot be used.
        error: EgtbError,
    },
}

impl std::fmt::Debug for Databases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seeds = |tb: &Option<Arc<LiveProbe>>| tb.as_ref().and_then(|t| t.max_seeds());
        f.debug_struct("Databases")
            .field("abapa_max_seeds", &seeds(&self.abapa))
            .field("awari_max_seeds", &seeds(&self.awari))
            .finish()
    }
}

/// One move's database value, from the mover's side, in the rule set's units.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct DatabaseValue {
    /// awari: the final seed difference over the seeds now on the board (mover minus opponent);
    /// abapa: how many of the seeds now on the board the mover ends with.
    pub value: i32,
    /// `false`: `value` is only a lower bound (what the mover can be sure of).
    pub exact: bool,
    /// The seeds on the board before the move (abapa values are out of this many).
    pub seeds: u32,
}

impl Databases {
    /// No databases.
    pub fn none() -> Databases {
        Databases::default()
    }

    /// Opens the abapa and awari databases in `dir`. A rule set without a level 0 file is skipped;
    /// a damaged or foreign file, or a directory with neither, is an error. Level files that are
    /// not used (above a missing level, or without level 0) are listed by [`Databases::unused`].
    /// A file that changes while the server runs is said once on standard error, and the searches
    /// go on without its level.
    pub fn open(dir: impl AsRef<Path>) -> Result<Databases, DatabaseError> {
        let dir = dir.as_ref();
        let mut unused = Vec::new();
        let mut open = |rules| match TablebaseProbe::open(dir, rules) {
            Ok(mut tb) => {
                unused.extend(tb.tablebase().unused_levels().cloned());
                tb.set_on_change(Arc::new(|e| eprintln!("oware serve: {e}")));
                let live = LiveProbe::new(rules);
                live.publish(tb);
                Ok(Some(Arc::new(live)))
            }
            Err(EgtbError::NoDatabase {
                dir,
                rules,
                unused: levels,
                ..
            }) => {
                if !levels.is_empty() {
                    unused.push(UnusedLevels {
                        dir,
                        rules,
                        missing: 0,
                        levels,
                    });
                }
                Ok(None)
            }
            Err(error) => Err(DatabaseError::Unusable { rules, error }),
        };
        let abapa = open(RuleSet::Abapa)?;
        let awari = open(RuleSet::Awari)?;
        let databases = Databases {
            abapa,
            awari,
            unused,
        };
        if databases.is_empty() {
            return Err(match databases.unused.into_iter().next() {
                Some(unused) => DatabaseError::Incomplete(unused),
                None => DatabaseError::NoneFound(dir.to_path_buf()),
            });
        }
        Ok(databases)
    }

    /// Databases handed over as they grow (the levels built on first use in the user's data
    /// directory): whatever `abapa` and `awari` hold when a search probes them.
    pub fn growing(abapa: Option<Arc<LiveProbe>>, awari: Option<Arc<LiveProbe>>) -> Databases {
        Databases {
            abapa,
            awari,
            unused: Vec::new(),
        }
    }

    /// Level files in the directory that are not used because a level below them is missing: a
    /// warning for the server to show when it starts.
    pub fn unused(&self) -> &[UnusedLevels] {
        &self.unused
    }

    /// Whether neither rule set has a database, nor will have one (growing databases with no level
    /// yet are not empty).
    pub fn is_empty(&self) -> bool {
        self.abapa.is_none() && self.awari.is_none()
    }

    fn live(&self, rules: RuleSet) -> Option<&Arc<LiveProbe>> {
        match rules {
            RuleSet::Abapa => self.abapa.as_ref(),
            RuleSet::Awari => self.awari.as_ref(),
        }
    }

    /// The database of `rules` as it is now, if the server has one.
    pub fn of(&self, rules: RuleSet) -> Option<Arc<TablebaseProbe>> {
        self.live(rules)?.current()
    }

    /// Words for the startup message, e.g. "abapa up to 12 seeds, awari up to 10 seeds".
    pub fn describe(&self) -> String {
        [RuleSet::Abapa, RuleSet::Awari]
            .into_iter()
            .filter_map(|r| {
                self.live(r)?
                    .max_seeds()
                    .map(|max| format!("{r} up to {max} seeds"))
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Each legal move's database value in `game`'s current position, or `None` when the database
    /// of its rule set is missing or does not cover the position. Abapa values assume no earlier
    /// history (a repetition's outcome depends on it), so under abapa they are given only where
    /// the game has none since the last capture.
    pub fn move_values(&self, game: &Game) -> Option<Vec<(Move, DatabaseValue)>> {
        if game.is_over() {
            return None;
        }
        let probe = self.of(game.rules())?;
        let tb = probe.tablebase();
        if game.rules() == RuleSet::Abapa && game.history_since_capture().len() > 1 {
            return None;
        }
        let pos: &Position = game.position();
        let legal = game.legal_moves();
        let seeds = u32::from(pos.board_seeds());
        let values = tb.move_values(pos)?;
        Some(
            values
                .into_iter()
                .filter(|(mv, _)| legal.contains(*mv))
                .map(|(mv, p)| {
                    let value = if p.exact { p.value } else { p.lower };
                    (
                        mv,
                        DatabaseValue {
                            value: i32::from(value),
                            exact: p.exact,
                            seeds,
                        },
                    )
                })
                .collect(),
        )
    }
}

/// The pooled engines' probe: answers from the database of the searched game's rule set.
impl Probe for Databases {
    fn probe(&self, pos: &Position, rules: RuleSet) -> Option<i32> {
        self.live(rules)?.probe(pos, rules)
    }

    fn root_move(&self, game: &Game) -> Option<(Move, i32)> {
        self.live(game.rules())?.root_move(game)
    }
}
