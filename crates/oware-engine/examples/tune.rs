//! Tunes the evaluation weights by regression on self-play results (the "Texel" method): plays games
//! between engine instances at a small fixed depth (with level noise so that games differ), records
//! every position's features and the final result for the side to move, then fits the weights so
//! that `sigmoid(weights · features / SCALE)` predicts the result, by gradient descent. The store
//! weight stays at 100 (it fixes the unit: centiseeds).
//!
//! ```text
//! cargo run --release -p oware-engine --example tune -- [GAMES] [DEPTH]
//! ```
//! Prints the fitted weights as a `Weights` literal and as a `setoption name Weights value …` line, to
//! be checked by `oware match` before being adopted.

use oware_engine::{features, Engine, EngineOptions, Level, Limits, Weights};
use oware_rules::{Game, RuleSet};

/// Centiseeds per logistic unit.
const SCALE: f64 = 400.0;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let level = Level {
        depth: Some(depth),
        noise: 40,
    };
    let mut random = 0x7e57_ab1e_u64;
    let mut samples: Vec<([f64; 8], f64)> = Vec::new();
    for g in 0..games {
        let mut game = Game::new(RuleSet::Abapa);
        let mut features_seen = Vec::new();
        while !game.is_over() && game.ply_count() < 400 {
            if game.ply_count() >= 4 {
                features_seen.push((game.position().side_to_move(), features(game.position())));
            }
            let scores = engine.analyze(&game, &Limits::depth(depth));
            let Some(mv) = level.pick(&scores, &mut random) else {
                break;
            };
            game.play(mv).expect("the engine plays legal moves");
        }
        let Some(end) = game.end() else { continue };
        for (side, f) in features_seen {
            let result = match end.score.winner() {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            samples.push((f.map(f64::from), result));
        }
        if (g + 1) % 20 == 0 {
            eprintln!("{} games, {} positions", g + 1, samples.len());
        }
    }
    let mut w = Weights::DEFAULT.as_array().map(f64::from);
    let error = |w: &[f64; 8]| {
        samples
            .iter()
            .map(|(f, r)| {
                let x: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
                (r - 1.0 / (1.0 + (-x / SCALE).exp())).powi(2)
            })
            .sum::<f64>()
            / samples.len().max(1) as f64
    };
    eprintln!("error with the current weights: {:.5}", error(&w));
    // Gradient descent with a step that grows while the error falls and halves when it rises.
    let mut rate = 1000.0;
    let mut current = error(&w);
    for step in 0..500 {
        let mut grad = [0.0; 8];
        for (f, r) in &samples {
            let x: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = 1.0 / (1.0 + (-x / SCALE).exp());
            let common = -2.0 * (r - p) * p * (1.0 - p) / SCALE;
            for i in 0..8 {
                grad[i] += common * f[i] / samples.len() as f64;
            }
        }
        let mut next = w;
        // Index 0 (store) is the unit and stays fixed.
        for i in 1..8 {
            next[i] -= rate * grad[i];
        }
        let e = error(&next);
        if e < current {
            w = next;
            current = e;
            rate *= 1.5;
        } else {
            rate *= 0.5;
        }
        if step % 100 == 0 {
            eprintln!("step {step}: error {current:.5}, rate {rate:.0}");
        }
    }
    eprintln!("error with the fitted weights: {:.5}", error(&w));
    let fitted = Weights::from_array(w.map(|v| v.round() as i32));
    println!("{fitted:?}");
    let pairs: Vec<String> = Weights::NAMES
        .iter()
        .zip(fitted.as_array())
        .map(|(n, v)| format!("{n}={v}"))
        .collect();
    println!("setoption name Weights value {}", pairs.join(","));
}
