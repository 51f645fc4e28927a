//! The level ladder: each playing level against the next, in this process, to check that every
//! level is stronger than the one below it.

use std::ops::RangeInclusive;

use crate::{GameReport, LevelPlayer, Match, MatchScore, Opening, Pace, RefereeError};
use oware_engine::EngineOptions;

/// One step of the ladder: `lower` against `lower + 1`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    /// The weaker level of the two.
    pub lower: u8,
    /// The stronger level's wins, draws and losses against it.
    pub tally: MatchScore,
}

impl Step {
    /// The stronger level, one above [`Step::lower`].
    pub fn higher(&self) -> u8 {
        self.lower + 1
    }

    /// The stronger level's score, 0..=1 (a draw counts half).
    pub fn score(&self) -> f64 {
        self.tally.elo().0
    }

    /// Whether the stronger level scored more than [`STEP_SCORE`].
    pub fn passes(&self) -> bool {
        self.score() > STEP_SCORE
    }
}

/// The score each level must pass against the one below it.
pub const STEP_SCORE: f64 = 0.6;

/// Plays each level of `levels` against the next one up (`1..=10`: nine steps), `games` games a
/// step from `openings` at `pace` (each opening twice, sides swapped), every player with an engine
/// of `options`; `on_game` hears of each game as it ends, with the step's lower level. The random
/// choices start from fixed seeds: the same ladder is played again move for move where the time
/// cuts no search short.
pub fn ladder(
    levels: RangeInclusive<u8>,
    games: usize,
    openings: &[Opening],
    pace: Pace,
    options: &EngineOptions,
    on_game: &mut dyn FnMut(u8, &GameReport),
) -> Result<Vec<Step>, RefereeError> {
    let mut steps = Vec::new();
    for lower in levels.clone().take_while(|&l| l < *levels.end()) {
        let seed = 0x001a_dde2_u64 ^ u64::from(lower).rotate_left(40);
        let mut higher = LevelPlayer::new(lower + 1, options.clone(), seed ^ 1);
        let mut weaker = LevelPlayer::new(lower, options.clone(), seed ^ 2);
        let mut contest = Match::new(&mut higher, &mut weaker, openings, games, pace);
        for report in contest.by_ref() {
            on_game(lower, &report?);
        }
        steps.push(Step {
            lower,
            tally: contest.tally(),
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 60% is not enough: a step passes above it.
    #[test]
    fn a_step_passes_above_sixty_percent() {
        let step = |wins, draws, losses| Step {
            lower: 3,
            tally: MatchScore {
                wins,
                draws,
                losses,
            },
        };
        assert!(step(7, 0, 3).passes());
        assert!(!step(6, 0, 4).passes());
        assert!(!step(5, 2, 3).passes());
        assert_eq!(step(6, 0, 4).higher(), 4);
    }
}
