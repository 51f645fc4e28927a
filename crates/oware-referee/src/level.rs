//! A playing level as one side of a match, in this process: the engine's own choice of a move
//! ([`oware_engine::player::choose`]) at that level, with the options it is given (the databases, the
//! weak levels' mistakes).

use std::time::{Duration, Instant};

use oware_rules::Game;

use crate::{Answer, Competitor, RefereeError, SearchInfo};
use oware_engine::player::{self, Strength};
use oware_engine::{Engine, EngineOptions, Limits, LEVELS};

/// A level (1..=10) of this engine, playing in this process.
pub struct LevelPlayer {
    name: String,
    level: Strength,
    engine: Engine,
    random: u64,
}

impl LevelPlayer {
    /// `level` (clamped to 1..=10) with an engine of `options`; `seed` starts the level's random
    /// choices, so that a match between levels can be played again move for move (where no clock
    /// cuts a search short).
    pub fn new(level: u8, options: EngineOptions, seed: u64) -> LevelPlayer {
        let level = level.clamp(*LEVELS.start(), *LEVELS.end());
        LevelPlayer {
            name: format!("level {level}"),
            level: Strength::new(level),
            engine: Engine::new(options),
            random: seed,
        }
    }
}

impl Competitor for LevelPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), RefereeError> {
        self.engine.new_game();
        Ok(())
    }

    /// Never longer than the level's own search: `wait` is for players in other processes.
    fn best_move(
        &mut self,
        game: &Game,
        limits: &Limits,
        _wait: Duration,
    ) -> Result<Answer, RefereeError> {
        let started = Instant::now();
        let choice = player::choose(
            &mut self.engine,
            game,
            self.level,
            limits,
            &mut self.random,
            &mut |_| {},
        );
        let thought = started.elapsed();
        Ok(match choice {
            Some(choice) => Answer {
                word: choice
                    .result
                    .best
                    .map_or_else(|| "0000".to_string(), |mv| mv.to_string()),
                thought,
                report: Some(SearchInfo {
                    depth: Some(choice.result.depth),
                    score: Some(format!("cp {}", choice.result.score)),
                    pv: choice.result.pv,
                }),
            },
            None => Answer {
                word: "0000".to_string(),
                thought,
                report: None,
            },
        })
    }
}
