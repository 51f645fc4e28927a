//! Endgame databases in play: the adapter that lets the search probe an [`oware_egtb::Tablebase`],
//! and the database move at the root.
//!
//! Units: the search wants the final seed difference over the seeds on the board (mover minus
//! opponent). Awari databases store exactly that. Abapa databases store the seeds (0..k) the mover
//! ends up with, so the difference is `2v - k`. Abapa entries are bounds (exact when they meet) for a
//! position with no earlier history; the search widens them by the positions since the last capture
//! (a repetition's value depends on the path to it) before it uses them.
//!
//! [`LiveProbe`] is a probe whose databases grow while the search uses them: the levels built in
//! the background by `oware serve`, `play` and `engine` on first use are handed to it one by one.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use oware_egtb::values::{board_difference, max_level};
use oware_egtb::{EgtbError, OnChange, Tablebase};
use oware_rules::{Game, Move, Position, RuleSet};

use crate::Probe;

/// Whether `line`, played from the game's position, stops short of the game's end at positions
/// the databases answer: then a decided score at its end is the databases' value of the
/// position, whose distance to the end the search never saw. (The search's principal variation
/// ends where its value came from: a game's end, a repetition, or a database probe.)
pub fn proven_by_database(game: &Game, line: &[Move], probe: &dyn Probe) -> bool {
    let mut played = game.clone();
    for &mv in line {
        if played.play(mv).is_err() {
            return false;
        }
    }
    !played.is_over()
        && played.positions()[game.ply_count() + 1..]
            .iter()
            .any(|pos| probe.probe(pos, game.rules()).is_some())
}

/// A database directory opened for one rule set, usable as the engine's [`Probe`].
pub struct TablebaseProbe {
    tablebase: Tablebase,
}

impl TablebaseProbe {
    /// Opens the databases of `rules` in `dir` (every level file is checked).
    pub fn open(dir: impl AsRef<Path>, rules: RuleSet) -> Result<TablebaseProbe, EgtbError> {
        Ok(TablebaseProbe::new(Tablebase::open(dir, rules)?))
    }

    /// The probe of databases already opened.
    pub fn new(tablebase: Tablebase) -> TablebaseProbe {
        TablebaseProbe { tablebase }
    }

    /// Who to tell, once per file, that a database file changed while in use (truncated under the
    /// process): the search then goes on without the positions that need its level.
    pub fn set_on_change(&mut self, on_change: OnChange) {
        self.tablebase.set_on_change(on_change);
    }

    /// The databases themselves, for callers that want more than the exact value (bounds, best
    /// moves).
    pub fn tablebase(&self) -> &Tablebase {
        &self.tablebase
    }

    /// Bounds on the final seed difference over the board, or `None` (not covered).
    fn board_difference(&self, pos: &Position) -> Option<(i32, i32)> {
        let probe = self.tablebase.probe(pos)?;
        let difference = |value| {
            board_difference(
                self.tablebase.rules(),
                usize::from(pos.board_seeds()),
                value,
            )
        };
        Some((difference(probe.lower), difference(probe.upper)))
    }
}

impl Probe for TablebaseProbe {
    fn probe(&self, pos: &Position, rules: RuleSet) -> Option<i32> {
        self.bounds(pos, rules)
            .and_then(|(lower, upper)| (lower == upper).then_some(lower))
    }

    fn bounds(&self, pos: &Position, rules: RuleSet) -> Option<(i32, i32)> {
        if rules != self.tablebase.rules() {
            return None;
        }
        self.board_difference(pos)
    }

    /// The move to play straight from the database, with its value, when that is safe: under awari
    /// (values do not depend on history: a repetition splits the seeds, worth 0 from anywhere) and
    /// the position is covered. Under abapa the search probes the database itself, where exact.
    fn root_move(&self, game: &Game) -> Option<(Move, i32)> {
        if game.is_over()
            || game.rules() != RuleSet::Awari
            || self.tablebase.rules() != RuleSet::Awari
        {
            return None;
        }
        let legal = game.legal_moves();
        let values = self.tablebase.move_values(game.position())?;
        values
            .into_iter()
            .filter(|(mv, probe)| legal.contains(*mv) && probe.exact)
            .max_by_key(|(mv, probe)| (probe.value, std::cmp::Reverse(mv.house())))
            .map(|(mv, probe)| (mv, i32::from(probe.value)))
    }
}

/// The databases of one rule set as they grow: none at first, then levels 0..=n for a growing n,
/// each set handed over by [`LiveProbe::publish`] while searches probe the previous one.
///
/// The search probes at every node it reaches, so a probe must cost next to nothing more than the
/// database read: one atomic load says how many levels are held (a board above them is answered
/// at once), and a second finds the set of that many levels. No lock, no reference count: every
/// set handed over is kept, so that a search may still be reading an older one, until the probe
/// is dropped. The sets share the page cache of their files, but each maps its files again: the
/// levels built on first use, handed over one by one (abapa 0-16 and awari 0-16), make 34 sets
/// and 306 mappings.
pub struct LiveProbe {
    rules: RuleSet,
    /// Levels held by the newest set (0: none). Raised only after `sets` holds that set.
    levels: AtomicUsize,
    /// `sets[n]`: the set of levels 0..n, once handed over.
    sets: Box<[OnceLock<Arc<TablebaseProbe>>]>,
}

impl LiveProbe {
    /// No databases of `rules` yet.
    pub fn new(rules: RuleSet) -> LiveProbe {
        LiveProbe {
            rules,
            levels: AtomicUsize::new(0),
            sets: (0..=max_level(rules) + 1)
                .map(|_| OnceLock::new())
                .collect(),
        }
    }

    /// The rule set of the databases.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// Hands over databases that cover more levels than the current ones, which searches use from
    /// their next probe on. Databases of another rule set, or that cover no more levels, are
    /// ignored, so that the levels in use only grow.
    pub fn publish(&self, probe: TablebaseProbe) {
        let tablebase = probe.tablebase();
        let levels = tablebase.max_seeds() + 1;
        if tablebase.rules() != self.rules || levels <= self.levels.load(Ordering::Acquire) {
            return;
        }
        let Some(set) = self.sets.get(levels) else {
            return;
        };
        if set.set(Arc::new(probe)).is_ok() {
            self.levels.fetch_max(levels, Ordering::AcqRel);
        }
    }

    /// The databases now in use, if any.
    pub fn current(&self) -> Option<Arc<TablebaseProbe>> {
        self.newest().cloned()
    }

    /// The most seeds on the board the current databases cover, `None` while there are none.
    pub fn max_seeds(&self) -> Option<usize> {
        self.levels.load(Ordering::Acquire).checked_sub(1)
    }

    /// The newest set, if it covers boards of `seeds` seeds.
    #[inline]
    fn covering(&self, seeds: u8) -> Option<&Arc<TablebaseProbe>> {
        let levels = self.levels.load(Ordering::Acquire);
        if usize::from(seeds) >= levels {
            return None;
        }
        self.sets[levels].get()
    }

    fn newest(&self) -> Option<&Arc<TablebaseProbe>> {
        self.sets[self.levels.load(Ordering::Acquire)].get()
    }
}

impl Probe for LiveProbe {
    #[inline]
    fn probe(&self, pos: &Position, rules: RuleSet) -> Option<i32> {
        if rules != self.rules {
            return None;
        }
        self.covering(pos.board_seeds())?.probe(pos, rules)
    }

    #[inline]
    fn bounds(&self, pos: &Position, rules: RuleSet) -> Option<(i32, i32)> {
        if rules != self.rules {
            return None;
        }
        self.covering(pos.board_seeds())?.bounds(pos, rules)
    }

    fn root_move(&self, game: &Game) -> Option<(Move, i32)> {
        self.covering(game.position().board_seeds())?
            .root_move(game)
    }
}

/// Databases built for a test, shared by the tests of the modules that use them.
#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use oware_egtb_build::build::build;
    use oware_egtb_build::store::DirStore;

    /// The databases of `rules` up to `seeds` seeds, in a directory removed when the first half of
    /// the pair is dropped.
    pub(crate) fn built(rules: RuleSet, seeds: usize) -> (tempdir::Dir, TablebaseProbe) {
        let dir = tempdir::Dir::new(rules.name());
        let mut store = DirStore::new(dir.path());
        build(&mut store, rules, seeds, &(), |_| {}).unwrap();
        let probe = TablebaseProbe::open(dir.path(), rules).unwrap();
        (dir, probe)
    }

    /// A throwaway directory removed on drop (no extra dependency for one test).
    pub(crate) mod tempdir {
        pub struct Dir(std::path::PathBuf);
        impl Dir {
            pub fn new(tag: &str) -> Dir {
                // Tests run in threads of one process, and may build the same rule set at once.
                static NEXT: std::sync::atomic::AtomicUsize =
                    std::sync::atomic::AtomicUsize::new(0);
                let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let path = std::env::temp_dir()
                    .join(format!("oware-engine-tb-{tag}-{}-{n}", std::process::id()));
                std::fs::create_dir_all(&path).unwrap();
                Dir(path)
            }
            pub fn path(&self) -> &std::path::Path {
                &self.0
            }
        }
        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn awari_root_move_takes_the_forced_capture() {
        let (_dir, probe) = built(RuleSet::Awari, 6);
        let pos: Position = "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Awari);
        assert_eq!(
            probe.root_move(&game),
            Some((Move::from_letter('F').unwrap(), 4))
        );
        assert_eq!(probe.probe(&pos, RuleSet::Awari), Some(4));
        assert_eq!(probe.probe(&pos, RuleSet::Abapa), None, "other rule set");
    }

    fn in_memory(rules: RuleSet, seeds: usize) -> TablebaseProbe {
        let levels = oware_egtb_build::build::build_in_memory(
            rules,
            seeds,
            oware_egtb_build::SearchBudget::Auto(0),
        )
        .unwrap();
        TablebaseProbe::new(Tablebase::from_levels(levels))
    }

    #[test]
    fn a_live_probe_answers_from_the_levels_handed_over_and_only_grows() {
        let live = LiveProbe::new(RuleSet::Awari);
        // 4 seeds on the board: South's F captures everything.
        let pos: Position = "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Awari);
        assert_eq!(live.max_seeds(), None);
        assert_eq!(live.probe(&pos, RuleSet::Awari), None);
        assert_eq!(live.root_move(&game), None);
        live.publish(in_memory(RuleSet::Abapa, 3));
        assert_eq!(live.max_seeds(), None, "another rule set's are ignored");

        live.publish(in_memory(RuleSet::Awari, 3));
        assert_eq!(live.max_seeds(), Some(3));
        assert_eq!(
            live.probe(&pos, RuleSet::Awari),
            None,
            "4 seeds, levels 0-3"
        );

        live.publish(in_memory(RuleSet::Awari, 5));
        assert_eq!(live.max_seeds(), Some(5));
        assert_eq!(live.probe(&pos, RuleSet::Awari), Some(4));
        assert_eq!(live.probe(&pos, RuleSet::Abapa), None, "other rule set");
        assert_eq!(
            live.root_move(&game),
            Some((Move::from_letter('F').unwrap(), 4))
        );

        live.publish(in_memory(RuleSet::Awari, 2));
        assert_eq!(live.max_seeds(), Some(5), "fewer levels are ignored");
        assert_eq!(live.current().unwrap().tablebase().max_seeds(), 5);
    }

    #[test]
    fn the_engine_with_the_database_agrees_with_it() {
        // A sample of 5-seed awari boards: the engine, probing the database, must reach the outcome
        // the database promises.
        let (_dir, probe) = built(RuleSet::Awari, 5);
        let probe = std::sync::Arc::new(probe);
        let mut engine = crate::Engine::new(crate::EngineOptions {
            hash_mb: 1,
            probe: Some(probe.clone()),
            ..crate::EngineOptions::default()
        });
        let mut checked = 0;
        for a in 0..=5u8 {
            for b in 0..=5 - a {
                let c = 5 - a - b;
                let houses = [0, 0, 0, a, 0, b, 0, c, 0, 0, 0, 0];
                let Some(pos) = Position::from_board(houses, oware_rules::Side::South) else {
                    continue;
                };
                let game = Game::from_position(pos, RuleSet::Awari);
                if game.is_over() {
                    continue;
                }
                let Some((_, value)) = probe.root_move(&game) else {
                    continue;
                };
                let limits = crate::Limits {
                    depth: Some(12),
                    ..crate::Limits::default()
                };
                let result = engine.search(&game, &limits, &mut |_| {});
                let best = result.best.unwrap();
                // The database plays on after a store passes 24 while the game stops there, so the
                // seed counts may differ, but the outcome (win, draw, loss) may not.
                let me = pos.side_to_move();
                let stores =
                    |p: &Position| i32::from(p.store(me)) - i32::from(p.store(me.opponent()));
                let expected = (stores(&pos) + value).signum();
                let mut child = game.clone();
                child.play(best).unwrap();
                let got = match child.end() {
                    Some(end) => (i32::from(end.score.halves(me))
                        - i32::from(end.score.halves(me.opponent())))
                    .signum(),
                    None => {
                        let after = child.position();
                        (stores(after) - probe.probe(after, RuleSet::Awari).unwrap()).signum()
                    }
                };
                assert_eq!(got, expected, "{pos}: engine played {best}");
                checked += 1;
            }
        }
        assert!(checked > 5, "only {checked} positions checked");
    }
}
