//! Human mistakes for the weak levels (1–4): instead of random noise alone, a weak player does not
//! see a double attack, their own or the opponent's, as a beginner does not. The level's usual
//! choice then works on the scores as that player believes them.

use oware_rules::{Game, Move};

use crate::detect;
use crate::engine::{self, Analyst, MoveValue};

/// The chance, in percent, that a player of `level` misses a double attack (none from level 5).
pub fn miss_chance(level: u8) -> u32 {
    match level {
        0 | 1 => 80,
        2 => 60,
        3 => 40,
        4 => 20,
        _ => 0,
    }
}

/// What a double attack means for one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Attack {
    /// The move lets the opponent attack two houses at once with their reply.
    Allows,
    /// The move attacks two of the opponent's houses at once.
    Makes,
}

fn attack_after(game: &Game, value: &MoveValue) -> Option<Attack> {
    let rules = game.rules();
    let after = game.position().play(value.mv, rules).ok()?.position;
    if detect::double_attack(&after, rules).is_some() {
        return Some(Attack::Makes);
    }
    after
        .legal_moves(rules)
        .into_iter()
        .any(|reply| {
            let next = after.play_unchecked(reply, rules).position;
            detect::double_attack(&next, rules).is_some()
        })
        .then_some(Attack::Allows)
}

/// The scores as a player of `level` sees them: for each move touched by a double attack, when
/// `missed(chance)` says the player overlooks it (true with `chance` percent; the caller's random
/// source), a move that allows one looks as good as the best move, and a move that makes one looks
/// no better than the average. Other moves, and every move from level 5, keep their scores.
pub fn as_seen(
    game: &Game,
    level: u8,
    values: &[MoveValue],
    missed: &mut dyn FnMut(u32) -> bool,
) -> Vec<MoveValue> {
    let chance = miss_chance(level);
    if chance == 0 || values.is_empty() {
        return values.to_vec();
    }
    let best = values.iter().map(|v| v.score).max().unwrap_or(0);
    let average = values.iter().map(|v| i64::from(v.score)).sum::<i64>() / values.len() as i64;
    values
        .iter()
        .map(|v| {
            let mut seen = v.clone();
            match attack_after(game, v) {
                Some(Attack::Allows) if missed(chance) => seen.score = best,
                Some(Attack::Makes) if missed(chance) => {
                    seen.score = seen.score.min(average as i32)
                }
                _ => {}
            }
            seen
        })
        .collect()
}

/// A weak level's move (levels 1–4; from level 5 nothing is overlooked and this is the level's
/// usual choice at its depth): every move searched to the level's depth, double attacks overlooked
/// as [`as_seen`] says, then the level's own noisy choice. `random` is the level's random state,
/// advanced by each draw.
pub fn choose_move(game: &Game, level: u8, random: &mut u64) -> Option<Move> {
    let depth = engine::level_depth(level).unwrap_or(FULL_STRENGTH_DEPTH);
    let values = Analyst::new(depth).values(game);
    let mut state = *random;
    let seen = as_seen(game, level, &values, &mut |chance| {
        draw(&mut state) < chance
    });
    *random = state;
    engine::pick(level, &seen, random)
}

/// The depth used for levels that have none (full strength is never asked to overlook anything).
const FULL_STRENGTH_DEPTH: u32 = 12;

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
    use oware_rules::{Move, Position, RuleSet};

    fn value(mv: &str, score: i32) -> MoveValue {
        MoveValue {
            mv: mv.parse::<Move>().unwrap(),
            score,
            line: vec![mv.parse().unwrap()],
        }
    }

    #[test]
    fn a_weak_level_can_miss_the_double_attack_it_could_make() {
        // North's c sets up the double attack on A and C (see the detector's test).
        let pos: Position = "1-4-2-6-6-1-4-0-1-4-0-1-9-9-N".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        let values = vec![value("c", 300), value("f", 200), value("a", 100)];
        let mut always = |_: u32| true;
        let seen = as_seen(&game, 1, &values, &mut always);
        let c = seen.iter().find(|v| v.mv.letter() == 'c').unwrap();
        assert_eq!(c.score, 200, "c looks average to a beginner who misses it");
        let mut never = |_: u32| false;
        assert_eq!(as_seen(&game, 1, &values, &mut never), values);
        // Strong levels never miss it, whatever the dice say.
        assert_eq!(as_seen(&game, 7, &values, &mut always), values);
    }

    #[test]
    fn weak_levels_choose_legal_moves_repeatably_and_sometimes_miss() {
        // North to move, where c makes a double attack: over many draws a level-1 player sometimes
        // plays another move, and the same random state gives the same move.
        let pos: Position = "1-4-2-6-6-1-4-0-1-4-0-1-9-9-N".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        let mut chosen = std::collections::BTreeSet::new();
        for seed in 0..16u64 {
            let mut a = seed;
            let mut b = seed;
            let mv = choose_move(&game, 1, &mut a).unwrap();
            assert_eq!(choose_move(&game, 1, &mut b), Some(mv));
            assert_eq!(a, b);
            assert!(game.legal_moves().contains(mv));
            chosen.insert(mv);
        }
        assert!(chosen.len() > 1, "{chosen:?}");
        let mut draws = 5u64;
        let hits = (0..1000).filter(|_| draw(&mut draws) < 30).count();
        assert!((200..400).contains(&hits), "{hits}");
    }

    #[test]
    fn a_weak_level_can_walk_into_a_double_attack() {
        // South to move; A... South's F (1 seed into a) leaves North's c... Use the position before
        // North's c with South to move one ply earlier: South's E sows six and makes d 5.
        let pos: Position = "1-4-2-6-6-1-4-0-0-4-0-1-9-10-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Abapa);
        let analysis: Vec<MoveValue> = game
            .legal_moves()
            .map(|m| {
                value(
                    &m.letter().to_string(),
                    if m.letter() == 'A' { 50 } else { -300 },
                )
            })
            .collect();
        let mut always = |_: u32| true;
        let seen = as_seen(&game, 2, &analysis, &mut always);
        let raised: Vec<char> = seen
            .iter()
            .zip(&analysis)
            .filter(|(s, a)| s.score > a.score)
            .map(|(s, _)| s.mv.letter())
            .collect();
        assert!(!raised.is_empty(), "some move allows a double attack here");
        assert!(seen.iter().all(|s| s.score <= 50));
        assert_eq!(miss_chance(4), 20);
        assert_eq!(miss_chance(5), 0);
    }
}
