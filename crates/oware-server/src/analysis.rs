//! The server's use of the engine crate: a small pool of [`Engine`]s shared by the computer players
//! and the analysis board, with a bound on how many searches run at once, so that many games or a
//! hostile client sending analysis requests cannot take every processor.
//!
//! Searches are blocking work: callers take a [`Permit`] (async, so a waiting request does not hold
//! a runtime thread), then run the search in `spawn_blocking` with an engine borrowed from the pool.
//! Sharing engines between games is sound: an engine's transposition table is only a cache keyed
//! by position, and the game's history since the last capture is passed with every search.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use oware_engine::{plies_to_end, Engine, EngineOptions, Limits, MoveScore, Probe};
use oware_rules::{format_move_letters, Game};

use crate::databases::{DatabaseValue, Databases};

/// Transposition table per pooled engine, in MiB.
const HASH_MB: usize = 16;

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
    pub fn new(searches: usize, databases: &Databases) -> Arc<EnginePool> {
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

/// One legal move's value for the side to move and the line the engine expects after it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MoveValue {
    /// The move's letter.
    #[serde(rename = "move")]
    pub mv: char,
    /// The engine's score in seeds for the side to move (positive: good for the mover); for a
    /// decided game, ±(seeds won) is not known and `end_in` says who wins.
    pub score: f64,
    /// Plies to a forced end: positive when the mover wins, negative when the mover loses.
    pub end_in: Option<i32>,
    /// The move and the expected reply line, in move letters.
    pub line: String,
    /// The endgame database's value of the move where the server has databases covering the
    /// position (see [`Databases::move_values`]).
    pub database: Option<DatabaseValue>,
}

/// The analysis board's answer for one position.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Evaluation {
    /// Every iteration up to this depth (plies) was completed for every move.
    pub depth: u32,
    /// Milliseconds spent.
    pub millis: u64,
    /// Best first.
    pub moves: Vec<MoveValue>,
}

/// Scores every legal move of the game's current position (with its history, so repetitions
/// count), deepening until `budget` is spent or `max_depth` is reached, and adds the databases'
/// values where they cover the position.
pub fn evaluate(
    engine: &mut Engine,
    game: &Game,
    budget: Duration,
    max_depth: u32,
    databases: &Databases,
) -> Evaluation {
    let start = Instant::now();
    let mut done = Evaluation {
        depth: 0,
        millis: 0,
        moves: Vec::new(),
    };
    if game.is_over() {
        return done;
    }
    let analysis = engine.analyze(
        game,
        &Limits {
            depth: Some(max_depth.max(1)),
            movetime: Some(budget),
            ..Limits::default()
        },
    );
    done.depth = analysis.depth;
    done.moves = analysis.moves.iter().map(move_value).collect();
    if let Some(values) = databases.move_values(game) {
        for m in &mut done.moves {
            m.database = values
                .iter()
                .find(|(mv, _)| mv.letter() == m.mv)
                .map(|(_, v)| *v);
        }
    }
    done.millis = start.elapsed().as_millis() as u64;
    done
}

fn move_value(m: &MoveScore) -> MoveValue {
    let mut line = String::from(m.mv.letter());
    let pv = if m.pv.first() == Some(&m.mv) {
        &m.pv[1..]
    } else {
        &m.pv[..]
    };
    line.push_str(&format_move_letters(pv));
    let end_in = plies_to_end(m.score);
    MoveValue {
        mv: m.mv.letter(),
        score: if end_in.is_some() {
            0.0
        } else {
            (f64::from(m.score) / 10.0).round() / 10.0
        },
        end_in,
        line,
        database: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{Position, RuleSet};

    fn engine() -> Engine {
        Engine::new(EngineOptions {
            hash_mb: 1,
            ..EngineOptions::default()
        })
    }

    #[test]
    fn sees_a_winning_capture() {
        // South's F captures two from `a` and reaches 25 seeds: a win.
        let pos: Position = "0-0-0-0-1-1-1-1-0-0-0-0-23-21-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        let eval = evaluate(
            &mut engine(),
            &game,
            Duration::from_secs(2),
            6,
            &Databases::none(),
        );
        assert!(eval.depth >= 1);
        assert_eq!(eval.moves.len(), 2);
        assert_eq!(eval.moves[0].mv, 'F');
        assert_eq!(eval.moves[0].end_in, Some(1));
        assert_eq!(eval.moves[0].line, "F");
    }

    #[test]
    fn start_position_has_six_values_with_lines() {
        let game = Game::new(RuleSet::Abapa);
        let eval = evaluate(
            &mut engine(),
            &game,
            Duration::from_secs(5),
            6,
            &Databases::none(),
        );
        assert_eq!(eval.depth, 6);
        assert_eq!(eval.moves.len(), 6);
        for m in &eval.moves {
            assert!(m.line.starts_with(m.mv), "{m:?}");
            assert!(m.line.len() > 1, "a line beyond the move itself: {m:?}");
            assert_eq!(m.database, None);
        }
        let scores: Vec<f64> = eval.moves.iter().map(|m| m.score).collect();
        assert!(
            scores.windows(2).all(|w| w[0] >= w[1]),
            "best first: {scores:?}"
        );
    }

    #[test]
    fn a_finished_game_has_no_values() {
        let pos: Position = "0-0-0-0-0-0-0-0-0-0-0-0-25-23-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        assert!(evaluate(
            &mut engine(),
            &game,
            Duration::from_secs(1),
            4,
            &Databases::none()
        )
        .moves
        .is_empty());
    }

    #[tokio::test]
    async fn the_pool_bounds_concurrent_searches() {
        let pool = EnginePool::new(1, &Databases::none());
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
        let eval = permit
            .with_engine(|e| evaluate(e, &game, Duration::from_millis(200), 3, &Databases::none()));
        assert_eq!(eval.moves.len(), 6);
        assert_eq!(
            lock(&pool.engines).len(),
            1,
            "the engine went back to the pool"
        );
    }
}
