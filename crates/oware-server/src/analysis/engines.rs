//! The server's use of the engine crate: a small pool of [`Engine`]s shared by the computer players
//! and the analysis board, with a bound on how many searches run at once, so that many games or a
//! hostile client sending analysis requests cannot take every processor.
//!
//! Searches are blocking work: callers take a [`Permit`] (async, so a waiting request does not hold
//! a runtime thread), then run the search in `spawn_blocking` with an engine borrowed from the pool.
//! Sharing engines between games is sound: an engine's transposition table is only a cache keyed
//! by position, and the game's history since the last capture is passed with every search.
//!
//! A position's analysis is [`oware_coach::analyse`], the same for the analysis table, the coach
//! and the review, and the server keeps the latest ones ([`AnalysisCache`]): a position shows the
//! same numbers every time it is asked for, and two views of it never disagree.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use oware_coach::engine::{moves_in, PositionAnalysis};
use oware_engine::{plies_to_end, Engine, EngineOptions, Probe};
use oware_rules::{format_move_letters, Game, Position, RuleSet};

use crate::analysis::databases::{move_values, DatabaseValue};
use oware_engine::ProbeSet;

/// Transposition table per pooled engine, in MiB: the analysis' own size, so that the server's
/// numbers are the terminal's.
const HASH_MB: usize = oware_coach::HASH_MB;

/// The engines and the bound on concurrent searches.
pub struct EnginePool {
    engines: Mutex<Vec<Engine>>,
    permits: Arc<Semaphore>,
    /// The endgame databases every engine probes (each answers for the searched game's rules).
    probe: Option<Arc<dyn Probe>>,
}

/// The right to run one search; the engine goes back to the pool when the search ends.
pub struct Permit {
    pool: Arc<EnginePool>,
    _permit: OwnedSemaphorePermit,
}

/// Why no search ran.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PoolError {
    /// Every search slot is taken.
    #[error("the engine is busy with other searches; try again in a moment")]
    Busy,
}

impl EnginePool {
    /// A pool that runs at most `searches` searches at once (at least one).
    /// Its engines probe `databases` (if any).
    pub fn new(searches: usize, databases: &ProbeSet) -> Arc<EnginePool> {
        let searches = searches.max(1);
        let probe = (!databases.is_empty()).then(|| Arc::new(databases.clone()) as Arc<dyn Probe>);
        Arc::new(EnginePool {
            engines: Mutex::new(Vec::with_capacity(searches)),
            permits: Arc::new(Semaphore::new(searches)),
            probe,
        })
    }

    /// Waits for a free search slot (the computer's moves: they must be played, so they queue).
    pub async fn acquire(self: &Arc<Self>) -> Permit {
        let permit = self
            .permits
            .clone()
            .acquire_owned()
            .await
            .expect("the pool's semaphore is never closed");
        Permit {
            pool: self.clone(),
            _permit: permit,
        }
    }

    /// Waits at most `patience` for a free slot (analysis requests: better a clear "busy" than an
    /// ever longer queue).
    pub async fn acquire_within(self: &Arc<Self>, patience: Duration) -> Result<Permit, PoolError> {
        tokio::time::timeout(patience, self.acquire())
            .await
            .map_err(|_| PoolError::Busy)
    }
}

impl Permit {
    /// Runs `work` with an engine from the pool (a new one if all made so far are in use, which the
    /// permits bound), then gives the engine back. Blocking: call it from `spawn_blocking`.
    pub fn with_engine<T>(&self, work: impl FnOnce(&mut Engine) -> T) -> T {
        let taken = lock(&self.pool.engines).pop();
        let mut engine = taken.unwrap_or_else(|| {
            Engine::new(EngineOptions {
                hash_mb: HASH_MB,
                probe: self.pool.probe.clone(),
                ..EngineOptions::default()
            })
        });
        let result = work(&mut engine);
        lock(&self.pool.engines).push(engine);
        result
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// What an analysis depends on: the rules and the positions since the last capture (the current
/// one last), since repetitions count.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    rules: RuleSet,
    history: Vec<Position>,
}

impl Key {
    fn of(game: &Game) -> Key {
        Key {
            rules: game.rules(),
            history: game.history_since_capture().to_vec(),
        }
    }
}

/// The latest analyses, the least recently used forgotten first.
pub struct AnalysisCache {
    entries: Mutex<CacheEntries>,
    capacity: usize,
}

#[derive(Default)]
struct CacheEntries {
    map: HashMap<Key, (Arc<PositionAnalysis>, u64)>,
    clock: u64,
}

impl AnalysisCache {
    /// A cache of at most `capacity` analyses (at least one).
    pub fn new(capacity: usize) -> AnalysisCache {
        AnalysisCache {
            entries: Mutex::new(CacheEntries::default()),
            capacity: capacity.max(1),
        }
    }

    /// The analysis of the game's current position, if it is kept.
    pub fn get(&self, game: &Game) -> Option<Arc<PositionAnalysis>> {
        let mut entries = lock(&self.entries);
        entries.clock += 1;
        let now = entries.clock;
        let (analysis, used) = entries.map.get_mut(&Key::of(game))?;
        *used = now;
        Some(analysis.clone())
    }

    /// Keeps `analysis` for the game's current position and returns the one kept: an analysis
    /// another request stored first wins, so that every answer shows the same numbers.
    pub fn insert(&self, game: &Game, analysis: PositionAnalysis) -> Arc<PositionAnalysis> {
        let mut entries = lock(&self.entries);
        entries.clock += 1;
        let now = entries.clock;
        let key = Key::of(game);
        if let Some((kept, used)) = entries.map.get_mut(&key) {
            *used = now;
            return kept.clone();
        }
        if entries.map.len() >= self.capacity {
            let oldest = entries
                .map
                .iter()
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| k.clone());
            if let Some(oldest) = oldest {
                entries.map.remove(&oldest);
            }
        }
        let analysis = Arc::new(analysis);
        entries.map.insert(key, (analysis.clone(), now));
        analysis
    }

    /// How many analyses are kept.
    pub fn len(&self) -> usize {
        lock(&self.entries).map.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// How the server analyses a position: the depth every move is searched to, and the most time one
/// position may take (a safety net for a slow machine; the depth reached is then less and said).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisBudget {
    /// Plies.
    pub depth: u32,
    /// The most time for one position.
    pub cap: Duration,
}

/// The analysis of the game's current position: the kept one, or a new one made with `engine`
/// and kept. Blocking.
pub fn analysis_of(
    cache: &AnalysisCache,
    engine: &mut Engine,
    game: &Game,
    limits: AnalysisBudget,
) -> Arc<PositionAnalysis> {
    if let Some(kept) = cache.get(game) {
        return kept;
    }
    let analysis = oware_coach::analyse(engine, game, limits.depth, Some(limits.cap));
    cache.insert(game, analysis)
}

/// One row of the analysis board's table: a legal move's value for the side to move and the line
/// the engine expects after it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MoveRow {
    /// The move's letter.
    #[serde(rename = "move")]
    pub mv: char,
    /// The engine's score in seeds for the side to move (positive: good for the mover), to the
    /// hundredth, as the analysis found it; for a decided game, ±(seeds won) is not known, the
    /// score is 0 and `end_in` (or `wins_by_database`) says who wins.
    pub score: f64,
    /// Plies to a forced end: positive when the mover wins, negative when the mover loses.
    pub end_in: Option<i32>,
    /// The same in moves as the move list numbers them (each player's sowing is a move):
    /// positive when the mover wins.
    pub end_in_moves: Option<i32>,
    /// A decided game the endgame databases proved, at a distance to the end nobody counted
    /// (`end_in` and `end_in_moves` are then absent): true when the mover wins.
    pub wins_by_database: Option<bool>,
    /// Seeds the move gives away against the best, to the hundredth (a lost win counts as 48
    /// seeds): the coach's "gives away" is this.
    pub loss: f64,
    /// The move and the expected reply line, in move letters.
    pub line: String,
    /// The endgame database's value of the move where the server has databases covering the
    /// position (see [`move_values`]).
    pub database: Option<DatabaseValue>,
}

/// The analysis board's answer for one position.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Evaluation {
    /// Every move was searched to this depth (plies).
    pub depth: u32,
    /// Best first.
    pub moves: Vec<MoveRow>,
}

/// The analysis board's table from a position's analysis, with the databases' values where they
/// cover the position.
pub fn evaluation(game: &Game, analysis: &PositionAnalysis, databases: &ProbeSet) -> Evaluation {
    let mut moves: Vec<MoveRow> = analysis
        .values
        .iter()
        .map(|v| move_row(v, analysis))
        .collect();
    if let Some(values) = move_values(databases, game) {
        for m in &mut moves {
            m.database = values
                .iter()
                .find(|(mv, _)| mv.letter() == m.mv)
                .map(|(_, v)| *v);
        }
    }
    Evaluation {
        depth: analysis.depth,
        moves,
    }
}

fn move_row(v: &oware_coach::ScoredMove, analysis: &PositionAnalysis) -> MoveRow {
    let mut line = String::from(v.mv.letter());
    let pv = if v.line.first() == Some(&v.mv) {
        &v.line[1..]
    } else {
        &v.line[..]
    };
    line.push_str(&format_move_letters(pv));
    let decided = plies_to_end(v.score);
    let end_in = decided.filter(|_| !v.by_database);
    MoveRow {
        mv: v.mv.letter(),
        score: if decided.is_some() {
            0.0
        } else {
            f64::from(v.score) / 100.0
        },
        end_in,
        wins_by_database: decided.filter(|_| v.by_database).map(|p| p > 0),
        end_in_moves: end_in.map(|p| p.signum() * moves_in(p.unsigned_abs()) as i32),
        loss: f64::from(analysis.loss_of(v.mv).unwrap_or(0)) / 100.0,
        line,
        database: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::RuleSet;

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        })
    }

    const LIMITS: AnalysisBudget = AnalysisBudget {
        depth: 6,
        cap: Duration::from_secs(30),
    };

    fn table(position: &str) -> Evaluation {
        let game = Game::from_position(position.parse().unwrap(), RuleSet::Abapa);
        let analysis = oware_coach::analyse(&mut engine(), &game, LIMITS.depth, None);
        evaluation(&game, &analysis, &ProbeSet::none())
    }

    #[test]
    fn sees_a_winning_capture() {
        // South's F captures two from `a` and reaches 25 seeds: a win.
        let eval = table("0-0-0-0-1-1-1-1-0-0-0-0-23-21-S");
        assert!(eval.depth >= 1);
        assert_eq!(eval.moves.len(), 2);
        assert_eq!(eval.moves[0].mv, 'F');
        assert_eq!(eval.moves[0].end_in, Some(1));
        assert_eq!(eval.moves[0].end_in_moves, Some(1));
        assert_eq!(eval.moves[0].line, "F");
        assert_eq!(eval.moves[0].loss, 0.0);
    }

    #[test]
    fn start_position_has_six_values_with_lines_and_losses() {
        let eval = table("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S");
        assert_eq!(eval.depth, 6);
        assert_eq!(eval.moves.len(), 6);
        for m in &eval.moves {
            assert!(m.line.starts_with(m.mv), "{m:?}");
            assert!(m.line.len() > 1, "a line beyond the move itself: {m:?}");
            assert_eq!(m.database, None);
            let difference = eval.moves[0].score - m.score;
            assert!((m.loss - difference).abs() < 1e-9, "{m:?}");
        }
        let scores: Vec<f64> = eval.moves.iter().map(|m| m.score).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "best first: {scores:?}"
        );
    }

    #[test]
    fn a_finished_game_has_no_values() {
        assert!(table("0-0-0-0-0-0-0-0-0-0-0-0-25-23-S").moves.is_empty());
    }

    #[test]
    fn the_cache_keeps_one_analysis_per_position_and_history() {
        let cache = AnalysisCache::new(2);
        let mut engine = engine();
        let start = Game::new(RuleSet::Abapa);
        let first = analysis_of(&cache, &mut engine, &start, LIMITS);
        let again = analysis_of(&cache, &mut engine, &start, LIMITS);
        assert!(
            Arc::ptr_eq(&first, &again),
            "the kept analysis is given back"
        );
        // The same position under the other rules is another analysis.
        let awari = Game::new(RuleSet::Awari);
        analysis_of(&cache, &mut engine, &awari, LIMITS);
        assert_eq!(cache.len(), 2);
        // A third one forgets the least recently used: the start under awari.
        assert!(cache.get(&start).is_some());
        let mut later = start.clone();
        later.play("F".parse().unwrap()).unwrap();
        analysis_of(&cache, &mut engine, &later, LIMITS);
        assert_eq!(cache.len(), 2);
        assert!(cache.get(&awari).is_none());
        assert!(cache.get(&start).is_some());
        // A store by another request first is the one that counts.
        let other = cache.insert(&start, PositionAnalysis::default());
        assert!(Arc::ptr_eq(&other, &first));
    }

    #[tokio::test]
    async fn the_pool_bounds_concurrent_searches() {
        let pool = EnginePool::new(1, &ProbeSet::none());
        let held = pool.acquire().await;
        assert_eq!(
            pool.acquire_within(Duration::from_millis(20)).await.err(),
            Some(PoolError::Busy)
        );
        drop(held);
        let permit = pool
            .acquire_within(Duration::from_millis(200))
            .await
            .unwrap();
        let game = Game::new(RuleSet::Abapa);
        let cache = AnalysisCache::new(4);
        let analysis = permit.with_engine(|e| analysis_of(&cache, e, &game, LIMITS));
        assert_eq!(analysis.values.len(), 6);
        assert_eq!(
            lock(&pool.engines).len(),
            1,
            "the engine went back to the pool"
        );
    }
}
