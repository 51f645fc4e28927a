//! Tunes the evaluation weights by regression on self-play (the "Texel" method): plays games between
//! engine instances at a small fixed depth (with level noise so that games differ), records every
//! position's features, the search's score of its best move and the final result for the side to
//! move, then fits the weights so that `sigmoid(weights · features / SCALE)` predicts the label, by
//! gradient descent. The label is `RESULT_SHARE · result + (1 - RESULT_SHARE) · sigmoid(score /
//! SCALE)`: the game result alone (share 1) is noisy (one result for a hundred positions); the
//! search's score (share 0) says what a search of DEPTH plies sees from the position. The store
//! weight stays at 100 (it fixes the unit: centiseeds).
//!
//! ```text
//! cargo run --release -p oware-engine --example tune -- [GAMES] [DEPTH] [RESULT_SHARE]
//! ```
//! Prints two fits (without the capture term, i.e. its weight held at 0, and with it), each as a
//! `Weights` literal and as a `setoption name Weights value …` line, to be checked by `oware match`
//! before being adopted.

use oware_engine::{features, Engine, EngineOptions, Level, Limits, Weights, WIN_THRESHOLD};
use oware_rules::{Game, RuleSet};

/// Centiseeds per logistic unit.
const SCALE: f64 = 400.0;
/// How many terms the evaluation has (the fit changes all but the store, index 0: the unit).
const TERMS: usize = Weights::NAMES.len();
/// Index of the capture term in [`Weights::NAMES`].
const CAPTURE: usize = 8;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x / SCALE).exp())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let result_share: f64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .filter(|s| (0.0..=1.0).contains(s))
        .unwrap_or(1.0);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let level = Level {
        depth: Some(depth),
        noise: 40,
    };
    let mut random = 0x7e57_ab1e_u64;
    let mut samples: Vec<([f64; TERMS], f64)> = Vec::new();
    for g in 0..games {
        let mut game = Game::new(RuleSet::Abapa);
        let mut features_seen = Vec::new();
        while !game.is_over() && game.ply_count() < 400 {
            let scores = engine.analyze(&game, &Limits::depth(depth));
            if game.ply_count() >= 4 {
                let best = scores.iter().map(|s| s.score).max().unwrap_or(0);
                // A decided game's score is a certainty, not a seed count.
                let seen = if best > WIN_THRESHOLD {
                    1.0
                } else if best < -WIN_THRESHOLD {
                    0.0
                } else {
                    sigmoid(f64::from(best))
                };
                let side = game.position().side_to_move();
                features_seen.push((side, features(game.position()), seen));
            }
            let Some(mv) = level.pick(&scores, &mut random) else {
                break;
            };
            game.play(mv).expect("the engine plays legal moves");
        }
        let Some(end) = game.end() else { continue };
        for (side, f, seen) in features_seen {
            let result = match end.score.winner() {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let label = result_share * result + (1.0 - result_share) * seen;
            samples.push((f.map(f64::from), label));
        }
        if (g + 1) % 20 == 0 {
            eprintln!("{} games, {} positions", g + 1, samples.len());
        }
    }
    for with_capture in [false, true] {
        let fitted = fit(&samples, with_capture);
        println!("{fitted:?}");
        let pairs: Vec<String> = Weights::NAMES
            .iter()
            .zip(fitted.as_array())
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        println!("setoption name Weights value {}", pairs.join(","));
    }
}

/// Fits the weights on the samples, from the engine's defaults; the capture weight is held at 0
/// unless `with_capture`.
fn fit(samples: &[([f64; TERMS], f64)], with_capture: bool) -> Weights {
    let mut w = Weights::DEFAULT.as_array().map(f64::from);
    if !with_capture {
        w[CAPTURE] = 0.0;
    }
    let free = |i: usize| i != 0 && (with_capture || i != CAPTURE);
    let error = |w: &[f64; TERMS]| {
        samples
            .iter()
            .map(|(f, r)| {
                let x: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
                (r - sigmoid(x)).powi(2)
            })
            .sum::<f64>()
            / samples.len().max(1) as f64
    };
    eprintln!(
        "{}: error with the current weights: {:.5}",
        if with_capture {
            "with capture"
        } else {
            "without capture"
        },
        error(&w)
    );
    // Gradient descent with a step that grows while the error falls and halves when it rises.
    let mut rate = 1000.0;
    let mut current = error(&w);
    for step in 0..500 {
        let mut grad = [0.0; TERMS];
        for (f, r) in samples {
            let x: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(x);
            let common = -2.0 * (r - p) * p * (1.0 - p) / SCALE;
            for i in 0..TERMS {
                grad[i] += common * f[i] / samples.len() as f64;
            }
        }
        let mut next = w;
        for i in (0..TERMS).filter(|&i| free(i)) {
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
    Weights::from_array(w.map(|v| v.round() as i32))
}
