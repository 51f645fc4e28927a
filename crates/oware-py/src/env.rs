//! The Rust core of the Gymnasium environment (`oware.env.OwareEnv`): one game, the agent's moves,
//! the opponent's replies, and the observation and action mask as numpy arrays, so that a step
//! costs one call from Python.

use std::time::Duration;

use numpy::PyArray1;
use oware_engine::player::Strength;
use oware_engine::{Limits, LEVELS};
use oware_rules::random::SplitMix64;
use oware_rules::{Game, Position, RuleSet, Side};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::convert::{mask, observation, reward, rules_of, side_name, value_error};
use crate::engine::PyEngine;
use crate::game::PyGame;
use crate::position::PyPosition;

/// The engine that answers the agent's moves.
struct Opponent {
    engine: PyEngine,
    level: Strength,
    limits: Limits,
    /// The random state of the level's noise.
    random: u64,
}

/// What `reset` and `step` return: the observation, the reward, whether the game is over, the mask.
type StepOut<'py> = (
    Bound<'py, PyArray1<i8>>,
    f32,
    bool,
    Bound<'py, PyArray1<bool>>,
);

/// One game for an agent, with an optional engine opponent (see `oware.env.OwareEnv`).
#[pyclass(name = "EnvCore", module = "oware")]
pub struct EnvCore {
    game: Game,
    rules: RuleSet,
    opponent: Option<Opponent>,
    /// The agent's side when there is an opponent; without one the agent plays both sides.
    agent: Side,
}

impl EnvCore {
    /// The opponent's move when it is to move; the end of the game if that ends it.
    fn opponent_moves(&mut self, py: Python<'_>) -> PyResult<()> {
        let Some(opponent) = &mut self.opponent else {
            return Ok(());
        };
        while !self.game.is_over() && self.game.position().side_to_move() != self.agent {
            let choice = opponent
                .engine
                .choose(
                    py,
                    &self.game,
                    opponent.level,
                    &opponent.limits,
                    opponent.random,
                )
                .ok_or_else(|| PyValueError::new_err("the engine found no move"))?;
            opponent.random = opponent.random.wrapping_add(SplitMix64::GAMMA);
            let mv = choice.result.best.expect("a choice has a move");
            self.game.play(mv).map_err(value_error)?;
        }
        Ok(())
    }

    fn out<'py>(&self, py: Python<'py>, reward: f32) -> StepOut<'py> {
        (
            PyArray1::from_slice(py, &observation(self.game.position())),
            reward,
            self.game.is_over(),
            PyArray1::from_slice(py, &mask(self.game.legal_moves())),
        )
    }
}

#[pymethods]
impl EnvCore {
    #[new]
    #[pyo3(signature = (rules = "abapa", opponent_level = None, opponent_movetime_ms = 100, agent_side = "south", seed = 0))]
    fn new(
        rules: &str,
        opponent_level: Option<u8>,
        opponent_movetime_ms: u64,
        agent_side: &str,
        seed: u64,
    ) -> PyResult<EnvCore> {
        let rules = rules_of(rules)?;
        let agent = match agent_side {
            "south" => Side::South,
            "north" => Side::North,
            other => {
                return Err(PyValueError::new_err(format!(
                    "agent_side is 'south' or 'north', not {other:?}"
                )))
            }
        };
        let opponent = match opponent_level {
            None => None,
            Some(level) if LEVELS.contains(&level) => Some(Opponent {
                engine: PyEngine::with_options(16, 1),
                level: Strength::new(level),
                limits: Limits::movetime(Duration::from_millis(opponent_movetime_ms)),
                random: seed,
            }),
            Some(level) => {
                return Err(PyValueError::new_err(format!(
                    "the engine's level is {} to {}, not {level}",
                    LEVELS.start(),
                    LEVELS.end()
                )))
            }
        };
        Ok(EnvCore {
            game: Game::new(rules),
            rules,
            opponent,
            agent,
        })
    }

    /// Starts a new game (from ``start`` when given); the opponent moves first when it is to
    /// move. Returns ``(observation, 0.0, terminated, mask)``.
    #[pyo3(signature = (start = None, seed = None))]
    fn reset<'py>(
        &mut self,
        py: Python<'py>,
        start: Option<PyRef<'_, PyPosition>>,
        seed: Option<u64>,
    ) -> PyResult<StepOut<'py>> {
        let position = match start {
            Some(p) if p.rules != self.rules => {
                return Err(PyValueError::new_err(format!(
                    "the environment plays {}; the start position is under {}",
                    self.rules, p.rules
                )))
            }
            Some(p) => p.position,
            None => Position::start(),
        };
        self.game = Game::from_position(position, self.rules);
        if let Some(opponent) = &mut self.opponent {
            if let Some(seed) = seed {
                opponent.random = seed;
            }
            opponent.engine.forget(py);
        }
        self.opponent_moves(py)?;
        Ok(self.out(py, 0.0))
    }

    /// Plays the agent's ``action`` (a column 0-5 of the mover's row), then the opponent's reply.
    /// Returns ``(observation, reward, terminated, mask)``: the reward is the final seed
    /// difference for the player who took the action when the game ends in this step, else 0.
    fn step<'py>(&mut self, py: Python<'py>, action: i64) -> PyResult<StepOut<'py>> {
        let mover = self.game.position().side_to_move();
        if let Some(end) = self.game.end() {
            return Err(PyValueError::new_err(format!(
                "the game is over ({} {}): call reset()",
                end.score, end.reason
            )));
        }
        let mv = usize::try_from(action)
            .ok()
            .and_then(|c| oware_rules::Move::for_side(mover, c))
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "an action is a column 0 to 5 of the mover's row, not {action}"
                ))
            })?;
        self.game.play(mv).map_err(value_error)?;
        self.opponent_moves(py)?;
        let reward = self.game.end().map_or(0.0, |end| reward(&end, mover));
        Ok(self.out(py, reward))
    }

    /// A copy of the game so far.
    fn game(&self) -> PyGame {
        PyGame::from_game(self.game.clone())
    }

    /// The current position.
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition::new_from(*self.game.position(), self.rules)
    }

    /// The side to move: ``"south"`` or ``"north"``.
    #[getter]
    fn to_move(&self) -> &'static str {
        side_name(self.game.position().side_to_move())
    }
}
