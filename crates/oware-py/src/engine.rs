//! `oware.Engine` and `oware.SearchResult`.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use oware_engine::player::{self, Source, Strength};
use oware_engine::tablebase::proven_by_database;
use oware_engine::{
    describe_score, plies_to_end, Engine, EngineOptions, Limits, Probe, ProbeSet, ProbeSetError,
    SearchControl, LEVELS,
};
use oware_rules::{Game, Position, RuleSet};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyAny;

use crate::convert::{move_list, value_error};
use crate::game::PyGame;
use crate::position::PyPosition;
use crate::tablebase::{egtb_error, PyTablebase};

/// What a search found: ``best_move`` (a letter), ``score`` (centiseeds for the side to move;
/// beyond +-29000 a win or loss, see ``score_text``), ``depth`` and ``seldepth`` (plies), ``pv``
/// (the expected line, letters), ``nodes``, ``time_ms``, and ``source``: ``"search"``, or
/// ``"database"`` for a move the endgame databases gave without a search.
#[pyclass(frozen, get_all, name = "SearchResult", module = "oware")]
pub struct PySearchResult {
    best_move: Option<String>,
    score: i32,
    score_text: String,
    depth: u32,
    seldepth: u32,
    pv: Vec<String>,
    nodes: u64,
    time_ms: u64,
    source: &'static str,
}

#[pymethods]
impl PySearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(best_move={}, score={} ({}), depth={}, pv='{}', nodes={}, source='{}')",
            self.best_move
                .as_ref()
                .map_or("None".to_string(), |m| format!("'{m}'")),
            self.score,
            self.score_text,
            self.depth,
            self.pv.concat(),
            self.nodes,
            self.source
        )
    }
}

/// The game a search is asked about: a `Game` (its history counts for repetitions), a `Position`,
/// or a position string (abapa).
pub fn game_of(target: &Bound<'_, PyAny>) -> PyResult<Game> {
    if let Ok(game) = target.extract::<PyRef<'_, PyGame>>() {
        return Ok(game.game.clone());
    }
    if let Ok(p) = target.extract::<PyRef<'_, PyPosition>>() {
        return Ok(Game::from_position(p.position, p.rules));
    }
    if let Ok(text) = target.extract::<String>() {
        let position: Position = text.parse().map_err(value_error)?;
        return Ok(Game::from_position(position, RuleSet::Abapa));
    }
    Err(PyValueError::new_err(
        "expected a Game, a Position or a position string",
    ))
}

/// The computer player: an alpha-beta search with a transposition table kept between searches.
///
/// ``Engine(threads=1, hash_mb=64, egtb=None)``: ``egtb`` is a ``Tablebase`` or a directory of
/// endgame databases (every rule set found there is opened). Searches let go of the GIL, so other
/// Python threads run meanwhile; ``stop()`` from another thread ends a search early.
#[pyclass(frozen, name = "Engine", module = "oware")]
pub struct PyEngine {
    engine: Mutex<Engine>,
    control: Arc<SearchControl>,
}

impl PyEngine {
    /// The engine, even if an earlier search panicked while holding it (its table is still sound:
    /// the search writes whole entries).
    fn lock(&self) -> MutexGuard<'_, Engine> {
        self.engine.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Chooses a move at `level` within `limits`: the one path the project's callers take
    /// (`oware_engine::player`), with the databases' move at full strength.
    pub fn choose(
        &self,
        py: Python<'_>,
        game: &Game,
        level: Strength,
        limits: &Limits,
        seed: u64,
    ) -> Option<player::Choice> {
        py.detach(|| {
            let mut engine = self.lock();
            let mut random = seed;
            player::choose(&mut engine, game, level, limits, &mut random, &mut |_| {})
        })
    }

    /// Forgets what earlier searches learned (a new game).
    pub fn forget(&self, py: Python<'_>) {
        py.detach(|| self.lock().new_game());
    }

    pub fn with_options(hash_mb: usize, threads: usize) -> PyEngine {
        let engine = Engine::new(EngineOptions {
            hash_mb,
            threads: threads.max(1),
            // Levels 1-4 make the coach's human mistakes, as everywhere else.
            oversight: Some(std::sync::Arc::new(oware_coach::HumanMistakes)),
            ..EngineOptions::default()
        });
        PyEngine {
            control: engine.control(),
            engine: Mutex::new(engine),
        }
    }
}

/// Search limits from the Python arguments: a fixed time, a depth, or both (whichever comes
/// first); one second when neither is given.
fn limits_of(movetime_ms: Option<u64>, depth: Option<u32>) -> PyResult<Limits> {
    if depth == Some(0) {
        return Err(PyValueError::new_err("depth must be at least 1"));
    }
    let movetime = match (movetime_ms, depth) {
        (None, None) => Some(Duration::from_secs(1)),
        (ms, _) => ms.map(Duration::from_millis),
    };
    Ok(Limits {
        depth,
        movetime,
        ..Limits::default()
    })
}

/// Opens the databases `egtb` names: a `Tablebase`, or a directory (every rule set found there).
fn databases_of(egtb: &Bound<'_, PyAny>) -> PyResult<Arc<dyn Probe>> {
    if let Ok(tb) = egtb.extract::<PyRef<'_, PyTablebase>>() {
        return Ok(tb.probe.clone());
    }
    let dir: PathBuf = egtb.extract().map_err(|_| {
        PyValueError::new_err("egtb is a Tablebase or the path of a database directory")
    })?;
    match ProbeSet::open(&dir, None) {
        Ok(set) => Ok(Arc::new(set)),
        Err(ProbeSetError::Unusable { error, .. }) => Err(egtb_error(error)),
        Err(e) => Err(PyValueError::new_err(e.to_string())),
    }
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 64, egtb = None))]
    fn new(threads: usize, hash_mb: usize, egtb: Option<&Bound<'_, PyAny>>) -> PyResult<PyEngine> {
        if threads == 0 {
            return Err(PyValueError::new_err("threads must be at least 1"));
        }
        if hash_mb == 0 {
            return Err(PyValueError::new_err("hash_mb must be at least 1"));
        }
        let engine = PyEngine::with_options(hash_mb, threads);
        if let Some(egtb) = egtb {
            engine.lock().set_probe(Some(databases_of(egtb)?));
        }
        Ok(engine)
    }

    /// Searches ``target`` (a ``Game``, whose history counts for repetitions, a ``Position`` or a
    /// position string) at full strength for ``movetime_ms`` milliseconds and/or to ``depth``
    /// plies (one second when neither is given). Positions the databases cover are answered from
    /// them. Raises ``ValueError`` when the game is over. Runs without the GIL.
    #[pyo3(signature = (target, movetime_ms = None, depth = None))]
    fn search(
        &self,
        py: Python<'_>,
        target: &Bound<'_, PyAny>,
        movetime_ms: Option<u64>,
        depth: Option<u32>,
    ) -> PyResult<PySearchResult> {
        let game = game_of(target)?;
        if let Some(end) = game.end() {
            return Err(PyValueError::new_err(format!(
                "the game is over ({} {}): there is no move to search",
                end.score, end.reason
            )));
        }
        let limits = limits_of(movetime_ms, depth)?;
        let choice = self
            .choose(py, &game, Strength::new(*LEVELS.end()), &limits, 0)
            .ok_or_else(|| PyValueError::new_err("the search found no move"))?;
        let result = choice.result;
        // A win or loss the databases proved deep in the line has no known distance: the search
        // scores it by the ply it probed at, so "win in N" would be false.
        let probe = self.lock().options().probe.clone();
        let by_database = plies_to_end(result.score).is_some()
            && probe
                .as_deref()
                .is_some_and(|probe| proven_by_database(&game, &result.pv, probe));
        let score_text = match plies_to_end(result.score) {
            Some(p) if by_database && p > 0 => "win (endgame database)".to_string(),
            Some(_) if by_database => "loss (endgame database)".to_string(),
            _ => describe_score(result.score),
        };
        Ok(PySearchResult {
            best_move: result.best.map(|m| m.letter().to_string()),
            score: result.score,
            score_text,
            depth: result.depth,
            seldepth: result.seldepth,
            pv: move_list(&result.pv),
            nodes: result.nodes,
            time_ms: result.time.as_millis() as u64,
            source: match choice.source {
                Source::Database => "database",
                Source::Search => "search",
            },
        })
    }

    /// The move a playing ``level`` (1 = beginner ... 10 = full strength) chooses in ``target``,
    /// thinking for at most about ``movetime_ms``; ``seed`` makes the lower levels' choices
    /// repeatable. ``None`` when the game is over. Runs without the GIL.
    #[pyo3(signature = (target, level = 10, movetime_ms = 1000, seed = None))]
    fn choose_move(
        &self,
        py: Python<'_>,
        target: &Bound<'_, PyAny>,
        level: u8,
        movetime_ms: u64,
        seed: Option<u64>,
    ) -> PyResult<Option<String>> {
        if !LEVELS.contains(&level) {
            return Err(PyValueError::new_err(format!(
                "level is {} to {}, not {level}",
                LEVELS.start(),
                LEVELS.end()
            )));
        }
        let game = game_of(target)?;
        let limits = Limits::movetime(Duration::from_millis(movetime_ms));
        let seed = seed.unwrap_or_else(player::seed_from_clock);
        Ok(self
            .choose(py, &game, Strength::new(level), &limits, seed)
            .and_then(|c| c.result.best)
            .map(|m| m.letter().to_string()))
    }

    /// Asks a running search (in another thread) to stop now; it returns its best move so far.
    fn stop(&self) {
        self.control.stop();
    }

    /// Forgets what earlier searches learned (a new game).
    fn new_game(&self, py: Python<'_>) {
        self.forget(py);
    }

    /// Search threads.
    #[getter]
    fn threads(&self) -> usize {
        self.lock().options().threads
    }

    /// Transposition table size in MiB.
    #[getter]
    fn hash_mb(&self) -> usize {
        self.lock().options().hash_mb
    }
}
