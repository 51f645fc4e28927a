//! Makes the position files of `oware bench --perfect`: positions of real games with 12 to 28 seeds
//! on the board, from the master games (played through under each rule set while their moves stay
//! legal) and from the engine's self-play (full strength, a few milliseconds a move, from random
//! four-ply openings), one position string a line, at most `PER_LEVEL` (30, or the fourth argument)
//! for each number of seeds.
//!
//! ```text
//! cargo run --release -p oware-engine --example perfect_positions -- \
//!     crates/oware-rules/tests/data/master_games.suite awari 300 > crates/oware-engine/data/perfect-awari.txt
//! ```

use std::collections::BTreeSet;
use std::time::Duration;

use oware_engine::player::choose_move_with;
use oware_engine::{Engine, EngineOptions};
use oware_rules::{Game, GameLine, Position, RuleSet};

/// Seeds on the board of the positions kept.
const SEEDS: std::ops::RangeInclusive<u8> = 12..=28;
/// The most positions kept for each number of seeds, unless the command line says otherwise.
const PER_LEVEL: usize = 30;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (suite, rules, games, per_level) = match args.as_slice() {
        [suite, rules, games] => (suite, rules, games, PER_LEVEL),
        [suite, rules, games, per_level] => (
            suite,
            rules,
            games,
            per_level.parse().expect("a number of positions per level"),
        ),
        _ => {
            eprintln!(
                "usage: perfect_positions MASTER_GAMES.suite abapa|awari SELF_PLAY_GAMES [PER_LEVEL]"
            );
            std::process::exit(2);
        }
    };
    let rules: RuleSet = rules.parse().expect("a rule set");
    let games: u64 = games.parse().expect("a number of games");
    let mut found: BTreeSet<(u8, String)> = BTreeSet::new();
    let mut keep = |position: &Position| {
        let seeds = position.board_seeds();
        if SEEDS.contains(&seeds) {
            found.insert((seeds, position.to_string()));
        }
    };
    let text = std::fs::read_to_string(suite).expect("the master games");
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let GameLine { start, moves } = line.parse().expect("a game line");
        let mut game = Game::from_position(start, rules);
        for mv in moves {
            if game.is_over() || game.play(mv).is_err() {
                break;
            }
            keep(game.position());
        }
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let mut random = 0x9e37_79b9_7f4a_7c15_u64;
    for _ in 0..games {
        engine.new_game();
        let mut game = Game::new(rules);
        for _ in 0..4 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let legal: Vec<_> = game.legal_moves().collect();
            if legal.is_empty() {
                break;
            }
            let mv = legal[(random % legal.len() as u64) as usize];
            game.play(mv).expect("a legal move");
        }
        while !game.is_over() {
            let Some(mv) = choose_move_with(
                &mut engine,
                &game,
                10,
                Duration::from_millis(5),
                &mut random,
            ) else {
                break;
            };
            game.play(mv).expect("the engine's move is legal");
            keep(game.position());
        }
    }
    // At most PER_LEVEL positions of each size, spread over what was found.
    for seeds in SEEDS {
        let level: Vec<&String> = found
            .iter()
            .filter(|(s, _)| *s == seeds)
            .map(|(_, p)| p)
            .collect();
        let step = (level.len() / per_level).max(1);
        for position in level.iter().step_by(step).take(per_level) {
            println!("{position}");
        }
    }
}
