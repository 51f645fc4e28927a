//! The coach's only door to the engine: every legal move's score and line at a fixed depth, and the
//! engine's way of reading a score. Fixed depth, one thread and a table cleared before each
//! analysis make the coach's verdicts the same on every run and every machine.

use oware_engine::{plies_to_end, Engine, EngineOptions, Limits, MoveScore};
use oware_rules::{Game, Move};

/// The engine depth the coach searches every move to when none is given: deep enough to see the
/// tactics it explains, quick on any machine (a fixed depth, so that the words do not change from
/// one run to the next).
pub const DEFAULT_DEPTH: u32 = 12;

/// One legal move as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Centiseeds for the side to move; decided games are beyond ±29 000 (see [`plies_to_end`]).
    pub score: i32,
    /// The line the engine expects, this move first.
    pub line: Vec<Move>,
}

/// The engine's analysis, kept between positions (its table is cleared for each).
pub struct Analyst {
    engine: Engine,
    depth: u32,
}

impl Analyst {
    /// An analyst searching every move to `depth` plies (at least 1).
    pub fn new(depth: u32) -> Analyst {
        Analyst {
            engine: Engine::new(EngineOptions {
                hash_mb: 8,
                threads: 1,
                ..EngineOptions::default()
            }),
            depth: depth.max(1),
        }
    }

    /// The depth every move is searched to, in plies.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Every legal move of the game's current position, best first (ties in house order); empty
    /// when the game is over. The game's history counts for repetitions.
    pub fn values(&mut self, game: &Game) -> Vec<MoveValue> {
        if game.is_over() {
            return Vec::new();
        }
        self.engine.new_game();
        let analysis = self.engine.analyze(game, &Limits::depth(self.depth));
        let mut values: Vec<MoveValue> = analysis
            .moves
            .into_iter()
            .map(|MoveScore { mv, score, pv }| MoveValue {
                mv,
                score,
                line: pv,
            })
            .collect();
        values.sort_by_key(|v| (-v.score, v.mv));
        values
    }
}

/// The move a playing level (1..=10) chooses among `values`, with the engine's own rule for levels
/// (noise on the scores, never a move lost by force while another is not).
pub fn pick(level: u8, values: &[MoveValue], random: &mut u64) -> Option<Move> {
    let scores: Vec<MoveScore> = values
        .iter()
        .map(|v| MoveScore {
            mv: v.mv,
            score: v.score,
            pv: v.line.clone(),
        })
        .collect();
    oware_engine::Level::new(level).pick(&scores, random)
}

/// The search depth of a playing level (`None`: as deep as time allows, full strength).
pub fn level_depth(level: u8) -> Option<u32> {
    oware_engine::Level::new(level).depth
}

/// The plies to the end when `score` is a decided game: positive when the side to move wins.
pub fn decided_in(score: i32) -> Option<i32> {
    plies_to_end(score)
}

/// The seeds one score gives away against another, in centiseeds, never negative. A decided game
/// counts as all 48 seeds, so that losing a won game weighs more than any seeds.
pub fn loss(best: i32, played: i32) -> i32 {
    let seeds = |s: i32| match decided_in(s) {
        Some(p) if p > 0 => 4800,
        Some(_) => -4800,
        None => s.clamp(-4800, 4800),
    };
    (seeds(best) - seeds(played)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::RuleSet;

    #[test]
    fn values_cover_every_legal_move_best_first_and_repeat() {
        let game = Game::new(RuleSet::Abapa);
        let mut analyst = Analyst::new(4);
        let first = analyst.values(&game);
        assert_eq!(first.len(), 6);
        assert!(first.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(first.iter().all(|v| v.line.first() == Some(&v.mv)));
        assert_eq!(analyst.values(&game), first);
    }

    #[test]
    fn a_level_picks_among_the_values() {
        let game = Game::new(RuleSet::Abapa);
        let values = Analyst::new(2).values(&game);
        let mut random = 7;
        let mv = pick(1, &values, &mut random).unwrap();
        assert!(game.legal_moves().contains(mv));
        assert_eq!(pick(10, &values, &mut random), Some(values[0].mv));
        assert_eq!(pick(3, &[], &mut random), None);
    }

    #[test]
    fn losses_in_seeds_and_decided_games() {
        assert_eq!(loss(250, 100), 150);
        assert_eq!(loss(100, 250), 0);
        let win = oware_engine::WIN - 3;
        assert_eq!(loss(win, 0), 4800);
        assert_eq!(loss(win, -win), 9600);
        assert_eq!(decided_in(win), Some(3));
        assert_eq!(decided_in(120), None);
    }
}
