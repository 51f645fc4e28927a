//! Human mistakes for the weak levels (1–4): the engine's [`Oversight`], filled with the coach's
//! detectors. A weak player searches a few plies as the engine does, but on a given turn may not see
//! what a beginner does not see: a double attack (the opponent's, or one of their own), a threat on
//! a house of one or two seeds, the opponent's kroo. A move whose danger the player overlooks looks
//! as good as it would be without it; a double attack the player could make and does not see looks
//! no better than an average move. The player also judges only to the nearest half seed or seed
//! (the level's resolution), and plays one of the moves that look best (the engine's choice).

use oware_engine::{MoveScore, Oversight, WIN_THRESHOLD};
use oware_rules::{Game, Move, Position, RuleSet};

use crate::detect::{self, KROO_SEEDS};

/// What a player of one level overlooks: the chance, in percent, that on a given turn they miss
/// each kind of idea, and how finely they tell moves apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlindSpots {
    /// A double attack: the one the opponent's reply makes, or one the player's move would make.
    pub double_attack: u32,
    /// A capture of one of the player's houses (a house of one or two seeds before the opponent's
    /// last seed falls in it).
    pub small_house: u32,
    /// A capture by the opponent's kroo (a house of 12 seeds or more, that laps the board).
    pub kroo: u32,
    /// Scores closer than this (centiseeds) look alike: each is rounded to a multiple of it.
    pub resolution: i32,
}

/// The blind spots of a player of `level`: none from level 5 up, where the engine's own noise
/// makes the mistakes.
pub fn blind_spots(level: u8) -> BlindSpots {
    let (double_attack, small_house, kroo, resolution) = match level {
        0 | 1 => (90, 70, 90, 200),
        2 => (70, 45, 75, 100),
        3 => (50, 25, 55, 100),
        4 => (30, 10, 35, 50),
        _ => (0, 0, 0, 1),
    };
    BlindSpots {
        double_attack,
        small_house,
        kroo,
        resolution,
    }
}

/// The coach's model of the weak levels' mistakes, for [`oware_engine::EngineOptions::oversight`].
#[derive(Debug, Clone, Copy, Default)]
pub struct HumanMistakes;

impl Oversight for HumanMistakes {
    fn as_seen(&self, game: &Game, level: u8, moves: &[MoveScore], random: &mut u64) -> Vec<i32> {
        let spots = blind_spots(level);
        let mut miss = |chance: u32| draw(random) < chance;
        let missed = Missed {
            double_attack: miss(spots.double_attack),
            small_house: miss(spots.small_house),
            kroo: miss(spots.kroo),
        };
        as_seen(game, moves, missed, spots.resolution)
    }
}

/// What the player overlooks this turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Missed {
    /// Double attacks, made or suffered.
    pub double_attack: bool,
    /// Captures of houses of one or two seeds.
    pub small_house: bool,
    /// The opponent's kroo.
    pub kroo: bool,
}

/// What the opponent's expected reply to a move does that a player may overlook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Danger {
    /// The kroo captures this many seeds.
    Kroo(u8),
    /// A capture of this many seeds from houses that held one or two.
    SmallHouse(u8),
    /// A double attack, of which this many seeds are taken whatever the player replies.
    DoubleAttack(u8),
}

/// The danger in `line`'s reply (its second move) to the move it starts with, from `pos`.
fn danger(pos: &Position, rules: RuleSet, line: &[Move]) -> Option<Danger> {
    let (&mv, &reply) = (line.first()?, line.get(1)?);
    let after = pos.play(mv, rules).ok()?.position;
    if let Some(capture) = detect::capture_by(&after, rules, reply).filter(|c| c.seeds > 0) {
        return Some(if after.house(reply.house()) >= KROO_SEEDS {
            Danger::Kroo(capture.seeds)
        } else {
            Danger::SmallHouse(capture.seeds)
        });
    }
    let next = after.play(reply, rules).ok()?.position;
    detect::double_attack(&next, rules).map(|attack| Danger::DoubleAttack(attack.still_taken))
}

/// Whether `mv` makes a double attack on the opponent.
fn makes_double_attack(pos: &Position, rules: RuleSet, mv: Move) -> bool {
    pos.play(mv, rules)
        .ok()
        .and_then(|played| detect::double_attack(&played.position, rules))
        .is_some_and(|attack| attack.attacker == pos.side_to_move())
}

/// The scores of `moves` (every root move of `game` with its searched score and line) as a player
/// who overlooks what `missed` says believes them, rounded to `resolution` centiseeds. A decided
/// score is kept as it is.
pub fn as_seen(game: &Game, moves: &[MoveScore], missed: Missed, resolution: i32) -> Vec<i32> {
    let pos = game.position();
    let rules = game.rules();
    let count = moves.len().max(1) as i64;
    let average = (moves.iter().map(|m| i64::from(m.score)).sum::<i64>() / count) as i32;
    let resolution = resolution.max(1);
    moves
        .iter()
        .map(|m| {
            if m.score.abs() >= WIN_THRESHOLD {
                return m.score;
            }
            let overlooked = match danger(pos, rules, &m.pv) {
                Some(Danger::Kroo(seeds)) if missed.kroo => seeds,
                Some(Danger::SmallHouse(seeds)) if missed.small_house => seeds,
                Some(Danger::DoubleAttack(seeds)) if missed.double_attack => seeds,
                _ => 0,
            };
            let mut seen = m.score + 100 * i32::from(overlooked);
            if missed.double_attack && makes_double_attack(pos, rules, m.mv) {
                seen = seen.min(average);
            }
            (seen + resolution / 2).div_euclid(resolution) * resolution
        })
        .collect()
}

/// A number in 0..100 from the random state (a step of Knuth's MMIX linear congruential generator;
/// the high bits are the good ones).
fn draw(state: &mut u64) -> u32 {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    ((*state >> 33) % 100) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_engine::{Engine, EngineOptions, Limits, Strength};
    use oware_rules::parse_move_letters;
    use std::sync::Arc;

    fn game(text: &str) -> Game {
        Game::from_position(text.parse::<Position>().unwrap(), RuleSet::Abapa)
    }

    fn scored(letters: &str, score: i32) -> MoveScore {
        let pv = parse_move_letters(letters).unwrap();
        MoveScore {
            mv: pv[0],
            score,
            pv,
        }
    }

    const ALL: Missed = Missed {
        double_attack: true,
        small_house: true,
        kroo: true,
    };

    #[test]
    fn an_overlooked_threat_on_a_small_house_hides_its_loss() {
        // The seeds' example one ply earlier, North to move: after f, South's F takes b and c
        // (2 and 3 seeds once sown into: 5).
        let g = game("4-4-4-4-4-3-4-1-2-4-4-4-3-3-N");
        let moves = vec![scored("fF", -600), scored("eA", -100)];
        assert_eq!(as_seen(&g, &moves, ALL, 1), vec![-100, -100]);
        let sees = Missed {
            small_house: false,
            ..ALL
        };
        assert_eq!(as_seen(&g, &moves, sees, 1), vec![-600, -100]);
        // Judged to the nearest seed.
        let moves = vec![scored("eA", -149), scored("dA", 49)];
        assert_eq!(as_seen(&g, &moves, Missed::default(), 100), vec![-100, 0]);
    }

    #[test]
    fn an_ignored_kroo_hides_what_it_takes() {
        // South's A holds 29 and, after North's only move c, takes a and b: 6 seeds.
        let g = game("29-0-0-0-0-0-0-0-1-0-0-0-9-9-N");
        let moves = vec![scored("cA", -650)];
        assert_eq!(as_seen(&g, &moves, ALL, 1), vec![-50]);
        let sees = Missed { kroo: false, ..ALL };
        assert_eq!(as_seen(&g, &moves, sees, 1), vec![-650]);
    }

    #[test]
    fn a_missed_double_attack_of_ones_own_looks_average() {
        // North's c sets up a double attack on A and C (see the detector's test).
        let g = game("1-4-2-6-6-1-4-0-1-4-0-1-9-9-N");
        let moves = vec![scored("c", 300), scored("f", 200), scored("a", 100)];
        let seen = as_seen(&g, &moves, ALL, 1);
        assert_eq!(seen[0], 200, "c looks average to a player who misses it");
        assert_eq!(
            as_seen(&g, &moves, Missed::default(), 1),
            vec![300, 200, 100]
        );
    }

    #[test]
    fn decided_scores_are_kept() {
        let g = game("4-4-4-4-4-3-4-1-2-4-4-4-3-3-N");
        let lost = -oware_engine::WIN + 10;
        let moves = vec![scored("fF", lost), scored("eA", -100)];
        assert_eq!(as_seen(&g, &moves, ALL, 100), vec![lost, -100]);
    }

    #[test]
    fn from_level_5_nothing_is_overlooked() {
        assert_eq!(blind_spots(5).double_attack + blind_spots(5).small_house, 0);
        for level in 1..4 {
            let (weak, better) = (blind_spots(level), blind_spots(level + 1));
            assert!(weak.double_attack >= better.double_attack);
            assert!(weak.small_house >= better.small_house);
            assert!(weak.kroo >= better.kroo);
        }
        let mut draws = 5u64;
        let hits = (0..1000).filter(|_| draw(&mut draws) < 30).count();
        assert!((200..400).contains(&hits), "{hits}");
    }

    #[test]
    fn the_engine_plays_a_weak_level_through_the_model() {
        // North to move in the seeds' example: b saves b and c from South's F. A level-1 player
        // overlooks that threat on most turns, but the other moves lose seeds elsewhere too (c and
        // a lose more than two seeds without it): b still looks best, whatever the random state.
        let g = game("4-4-4-4-4-3-4-1-2-4-4-4-3-3-N");
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            oversight: Some(Arc::new(HumanMistakes)),
            ..EngineOptions::default()
        });
        for seed in 0..24u64 {
            let play = |engine: &mut Engine, seed: u64| {
                let mut random = seed;
                oware_engine::player::choose(
                    engine,
                    &g,
                    Strength::new(1),
                    &Limits::depth(8),
                    &mut random,
                    &mut |_| {},
                )
                .and_then(|c| c.result.best)
                .unwrap()
            };
            let mv = play(&mut engine, seed);
            assert_eq!(play(&mut engine, seed), mv);
            assert_eq!(mv.letter(), 'b', "seed {seed}");
        }
    }
}
