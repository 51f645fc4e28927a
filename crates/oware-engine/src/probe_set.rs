//! The endgame databases of both rule sets as one probe, for a caller that plays or analyses games
//! of either (the server's engine pool, the Python engine): each database answers for its own rule
//! set only, and either may be missing.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use oware_egtb::{EgtbError, OnChange, UnusedLevels};
use oware_rules::{Game, Move, Position, RuleSet};

use crate::interface::Probe;
use crate::tablebase::{LiveProbe, TablebaseProbe};

/// The databases of each rule set, as they are now or as they grow.
#[derive(Default, Clone)]
pub struct ProbeSet {
    abapa: Option<Arc<LiveProbe>>,
    awari: Option<Arc<LiveProbe>>,
    unused: Vec<UnusedLevels>,
}

/// Why a directory's databases could not be opened: a caller that was asked to use them should
/// refuse to go on without them.
#[derive(Debug, thiserror::Error)]
pub enum ProbeSetError {
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

impl std::fmt::Debug for ProbeSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let seeds = |tb: &Option<Arc<LiveProbe>>| tb.as_ref().and_then(|t| t.max_seeds());
        f.debug_struct("ProbeSet")
            .field("abapa_max_seeds", &seeds(&self.abapa))
            .field("awari_max_seeds", &seeds(&self.awari))
            .finish()
    }
}

impl ProbeSet {
    /// No databases.
    pub fn none() -> ProbeSet {
        ProbeSet::default()
    }

    /// Opens the abapa and awari databases in `dir`. A rule set without a level 0 file is skipped;
    /// a damaged or foreign file, or a directory with neither, is an error. Level files that are
    /// not used (above a missing level, or without level 0) are listed by [`ProbeSet::unused`].
    /// A file that changes while it is in use turns its level off and is told to `on_change`
    /// (when given), once.
    pub fn open(
        dir: impl AsRef<Path>,
        on_change: Option<OnChange>,
    ) -> Result<ProbeSet, ProbeSetError> {
        let dir = dir.as_ref();
        let mut unused = Vec::new();
        let mut open = |rules| match TablebaseProbe::open(dir, rules) {
            Ok(mut tb) => {
                unused.extend(tb.tablebase().unused_levels().cloned());
                if let Some(on_change) = &on_change {
                    tb.set_on_change(on_change.clone());
                }
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
            Err(error) => Err(ProbeSetError::Unusable { rules, error }),
        };
        let abapa = open(RuleSet::Abapa)?;
        let awari = open(RuleSet::Awari)?;
        let set = ProbeSet {
            abapa,
            awari,
            unused,
        };
        if set.is_empty() {
            return Err(match set.unused.into_iter().next() {
                Some(unused) => ProbeSetError::Incomplete(unused),
                None => ProbeSetError::NoneFound(dir.to_path_buf()),
            });
        }
        Ok(set)
    }

    /// Databases handed over as they grow (the levels built on first use in the user's data
    /// directory): whatever they hold when a search probes them. Of two for one rule set, the
    /// first is used.
    pub fn growing(probes: impl IntoIterator<Item = Arc<LiveProbe>>) -> ProbeSet {
        let mut set = ProbeSet::none();
        for probe in probes {
            let slot = match probe.rules() {
                RuleSet::Abapa => &mut set.abapa,
                RuleSet::Awari => &mut set.awari,
            };
            slot.get_or_insert(probe);
        }
        set
    }

    /// Level files in the directory that are not used because a level below them is missing: a
    /// warning for the caller to show.
    pub fn unused(&self) -> &[UnusedLevels] {
        &self.unused
    }

    /// Whether neither rule set has a database, nor will have one (growing databases with no level
    /// yet are not empty).
    pub fn is_empty(&self) -> bool {
        self.abapa.is_none() && self.awari.is_none()
    }

    /// The database of `rules`, as it is now or as it grows.
    pub fn live(&self, rules: RuleSet) -> Option<&Arc<LiveProbe>> {
        match rules {
            RuleSet::Abapa => self.abapa.as_ref(),
            RuleSet::Awari => self.awari.as_ref(),
        }
    }

    /// The database of `rules` as it is now, if there is one.
    pub fn of(&self, rules: RuleSet) -> Option<Arc<TablebaseProbe>> {
        self.live(rules)?.current()
    }

    /// Words for a startup message, e.g. "abapa up to 12 seeds, awari up to 10 seeds".
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
}

/// Answers from the database of the searched game's rule set.
impl Probe for ProbeSet {
    fn probe(&self, pos: &Position, rules: RuleSet) -> Option<i32> {
        self.live(rules)?.probe(pos, rules)
    }

    fn bounds(&self, pos: &Position, rules: RuleSet) -> Option<(i32, i32)> {
        self.live(rules)?.bounds(pos, rules)
    }

    fn root_move(&self, game: &Game) -> Option<(Move, i32)> {
        self.live(game.rules())?.root_move(game)
    }
}
