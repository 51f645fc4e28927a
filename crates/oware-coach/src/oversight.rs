//! Human mistakes for the weak levels (1–4): instead of random noise alone, a weak player does not
//! see a double attack, their own or the opponent's, as a beginner does not. The level's usual
//! choice then works on the scores as that player believes them.

use oware_rules::Game;

use crate::detect;
use crate::engine::MoveValue;

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
