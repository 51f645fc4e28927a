//! Tunes the evaluation weights by regression on self-play (the "Texel" method): plays games between
//! engine instances at a small fixed depth (with level noise so that games differ), records every
//! position's features, the search's score of its best move and the final result for the side to
//! move, then fits the weights so that `sigmoid(weights · features / SCALE)` predicts the label, by
//! gradient descent. Each weight (the house terms' one per column) is fitted twice over: its own,
//! and its extra weight at the opening (`Weights::opening`: the feature times the seeds on the board
//! over 48). The label is `RESULT_SHARE · result + (1 - RESULT_SHARE) · sigmoid(score / SCALE)`:
//! the game result alone (share 1) is noisy (one result for a hundred positions); the search's score
//! (share 0) says what a search of DEPTH plies sees from the position. The store weight stays at 100
//! (it fixes the unit: centiseeds).
//!
//! ```text
//! cargo run --release -p oware-engine --example tune -- [GAMES] [DEPTH] [RESULT_SHARE]
//! ```
//! Prints two fits (without the capture term, whose weights are held at 0, and with it), each as a
//! `Weights` literal and as a `setoption name Weights value …` line, to be checked by `oware match`
//! before being adopted, with its error on the positions fitted and on a tenth held out. Every
//! weight is kept within a byte, as the evaluation's vector path needs.

use oware_engine::{features, Engine, EngineOptions, Level, Limits, Weights, TERMS, WIN_THRESHOLD};
use oware_rules::{Game, RuleSet, Side};

/// Centiseeds per logistic unit.
const SCALE: f64 = 400.0;
/// How many weights a fit has: the evaluation's (all but the store, index 0, the unit, are fitted)
/// and the opening's.
const WEIGHTS: usize = 2 * TERMS;
/// The capture term's index in [`Weights::as_array`].
const CAPTURE: usize = 2;
/// Gradient descent steps per fit.
const STEPS: usize = 2000;

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
    let mut samples: Vec<Sample> = Vec::new();
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
                features_seen.push((side, weighted_features(game.position()), seen));
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
            samples.push((f, label));
        }
        if (g + 1) % 20 == 0 {
            eprintln!("{} games, {} positions", g + 1, samples.len());
        }
    }
    // Two fits: without the capture term (as the engine plays), then with it.
    let fits: [(&str, Vec<usize>); 2] = [
        ("without capture", vec![CAPTURE, TERMS + CAPTURE]),
        ("with capture", vec![]),
    ];
    for (name, held) in fits {
        let fitted = fit(&samples, name, &held);
        println!("{name}: {fitted:?}");
        let own_weights = fitted.as_array();
        let own = (0..TERMS).map(|i| (Weights::name(i), own_weights[i]));
        let opening = (0..TERMS)
            .filter(|&i| fitted.opening[i] != 0)
            .map(|i| (format!("{}_opening", Weights::name(i)), fitted.opening[i]));
        let pairs: Vec<String> = own
            .chain(opening)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        println!("setoption name Weights value {}", pairs.join(","));
    }
}

/// A position's features twice over (see [`Weights::opening`]): as they are, then times the seeds
/// on the board over 48.
fn weighted_features(pos: &oware_rules::Position) -> [f64; WEIGHTS] {
    let f = features(pos);
    let on_board = 48 - u32::from(pos.store(Side::South)) - u32::from(pos.store(Side::North));
    let phase = f64::from(on_board) / 48.0;
    let mut out = [0.0; WEIGHTS];
    for (i, &v) in f.iter().enumerate() {
        out[i] = f64::from(v);
        out[TERMS + i] = f64::from(v) * phase;
    }
    out
}

/// A position's features (see [`weighted_features`]) and its label.
type Sample = ([f64; WEIGHTS], f64);

/// Fits the weights on the samples but every tenth (held out, to show how much of the fit is the
/// data's noise), from the engine's defaults; the weights `held` stay at 0 and the store at 100 (the
/// unit).
fn fit(samples: &[Sample], name: &str, held: &[usize]) -> Weights {
    let mut w = [0.0; WEIGHTS];
    for (i, v) in Weights::DEFAULT.as_array().into_iter().enumerate() {
        w[i] = f64::from(v);
        w[TERMS + i] = f64::from(Weights::DEFAULT.opening[i]);
    }
    for &i in held {
        w[i] = 0.0;
    }
    let free = |i: usize| i != 0 && !held.contains(&i);
    let (fitted, held_out): (Vec<_>, Vec<_>) =
        samples.iter().enumerate().partition(|(i, _)| i % 10 != 0);
    let fitted: Vec<&Sample> = fitted.into_iter().map(|(_, s)| s).collect();
    let held_out: Vec<&Sample> = held_out.into_iter().map(|(_, s)| s).collect();
    let (mut current, mut grad) = error_and_gradient(&fitted, &w);
    eprintln!("{name}: error with the engine's weights: {current:.5}");
    // Gradient descent with a step that grows while the error falls and halves when it rises.
    let mut rate = 1000.0;
    for step in 0..STEPS {
        let mut next = w;
        for i in (0..WEIGHTS).filter(|&i| free(i)) {
            next[i] = (w[i] - rate * grad[i]).clamp(-127.0, 127.0);
        }
        let (e, g) = error_and_gradient(&fitted, &next);
        if e < current {
            (w, current, grad) = (next, e, g);
            rate *= 1.5;
        } else {
            rate *= 0.5;
        }
        if step % 500 == 0 {
            eprintln!("step {step}: error {current:.5}, rate {rate:.0}");
        }
    }
    println!(
        "{name}: error {current:.5} on the positions fitted, {:.5} on the tenth held out",
        error_and_gradient(&held_out, &w).0
    );
    let round = |v: f64| v.round() as i32;
    Weights {
        opening: std::array::from_fn(|i| round(w[TERMS + i])),
        ..Weights::from_array(std::array::from_fn(|i| round(w[i])))
    }
}

/// The mean squared error of the prediction over the samples, and its gradient by the weights,
/// summed on every core.
fn error_and_gradient(samples: &[&Sample], w: &[f64; WEIGHTS]) -> (f64, [f64; WEIGHTS]) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = samples.len().div_ceil(cores).max(1);
    let parts: Vec<(f64, [f64; WEIGHTS])> = std::thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let mut error = 0.0;
                    let mut grad = [0.0; WEIGHTS];
                    for (f, r) in part {
                        let x: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
                        let p = sigmoid(x);
                        error += (r - p).powi(2);
                        let common = -2.0 * (r - p) * p * (1.0 - p) / SCALE;
                        for (g, a) in grad.iter_mut().zip(f) {
                            *g += common * a;
                        }
                    }
                    (error, grad)
                })
            })
            .collect();
        workers.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let n = samples.len().max(1) as f64;
    let mut error = 0.0;
    let mut grad = [0.0; WEIGHTS];
    for (e, g) in parts {
        error += e / n;
        for (total, v) in grad.iter_mut().zip(g) {
            *total += v / n;
        }
    }
    (error, grad)
}
