//! Tunes the evaluation weights by regression on self-play (the "Texel" method): plays games between
//! engine instances at a small fixed depth (with level noise so that games differ), records every
//! position's features, the search's score of its best move and the final result for the side to
//! move, then fits the weights so that `sigmoid(weights · features / SCALE)` predicts the label, by
//! gradient descent. Each term is fitted twice over: its own weight, and its extra weight at the
//! opening (`Weights::opening`: the feature times the seeds on the board over 48). The label is
//! `RESULT_SHARE · result + (1 - RESULT_SHARE) · sigmoid(score / SCALE)`: the game result alone
//! (share 1) is noisy (one result for a hundred positions); the search's score (share 0) says what
//! a search of DEPTH plies sees from the position. The store weight stays at 100 (it fixes the
//! unit: centiseeds).
//!
//! ```text
//! cargo run --release -p oware-engine --example tune -- [GAMES] [DEPTH] [RESULT_SHARE]
//! ```
//! Prints three fits (the terms of the engine before the columns and the opening weights; with
//! those; with the capture term too; a term left out has its weights held at 0), each as a
//! `Weights` literal and as a `setoption name Weights value …` line, to be checked by `oware match`
//! before being adopted. Every weight is kept within a byte, as the evaluation's vector path needs.

use oware_engine::{features, Engine, EngineOptions, Level, Limits, Weights, WIN_THRESHOLD};
use oware_rules::{Game, RuleSet, Side};

/// Centiseeds per logistic unit.
const SCALE: f64 = 400.0;
/// How many terms the evaluation has (the fit changes all but the store, index 0: the unit), and
/// how many weights that makes with the opening's.
const TERMS: usize = Weights::NAMES.len();
const WEIGHTS: usize = 2 * TERMS;
/// Indices in [`Weights::NAMES`]: the row's seeds, the capture term, the first of the columns'.
const ROW_SEEDS: usize = 1;
const CAPTURE: usize = 8;
const COLUMNS: usize = 9;

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
    let mut samples: Vec<([f64; WEIGHTS], f64)> = Vec::new();
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
    // Three fits: the terms without the columns and the opening weights (capture held at 0, as
    // the engine plays), then with those, then with the capture term too. The columns' seeds add
    // up to the row's, so where they are fitted the row's weight is held (at 0).
    let both =
        |terms: &[usize]| -> Vec<usize> { terms.iter().flat_map(|&i| [i, TERMS + i]).collect() };
    let columns: Vec<usize> = (COLUMNS..TERMS).collect();
    let openings: Vec<usize> = (TERMS..WEIGHTS).collect();
    let fits: [(&str, Vec<usize>); 3] = [
        (
            "flat, without capture and columns",
            [vec![CAPTURE], columns, openings].concat(),
        ),
        (
            "with columns and opening weights",
            both(&[ROW_SEEDS, CAPTURE]),
        ),
        (
            "with capture, columns and opening weights",
            both(&[ROW_SEEDS]),
        ),
    ];
    for (name, held) in fits {
        let fitted = fit(&samples, name, &held);
        println!("{name}: {fitted:?}");
        let own = Weights::NAMES.iter().zip(fitted.as_array());
        let pairs: Vec<String> = own
            .map(|(n, v)| format!("{n}={v}"))
            .chain(
                Weights::NAMES
                    .iter()
                    .zip(fitted.opening)
                    .filter(|&(_, v)| v != 0)
                    .map(|(n, v)| format!("{n}_opening={v}")),
            )
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

/// Fits the weights on the samples, from the engine's defaults; the terms `held` stay at 0 and the
/// store at 100 (the unit).
fn fit(samples: &[([f64; WEIGHTS], f64)], name: &str, held: &[usize]) -> Weights {
    let mut w = [0.0; WEIGHTS];
    for (i, v) in Weights::DEFAULT.as_array().into_iter().enumerate() {
        w[i] = f64::from(v);
        w[TERMS + i] = f64::from(Weights::DEFAULT.opening[i]);
    }
    for &i in held {
        w[i] = 0.0;
    }
    let free = |i: usize| i != 0 && !held.contains(&i);
    let error = |w: &[f64; WEIGHTS]| {
        samples
            .iter()
            .map(|(f, r)| {
                let x: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
                (r - sigmoid(x)).powi(2)
            })
            .sum::<f64>()
            / samples.len().max(1) as f64
    };
    eprintln!("{name}: error with the current weights: {:.5}", error(&w));
    // Gradient descent with a step that grows while the error falls and halves when it rises.
    let mut rate = 1000.0;
    let mut current = error(&w);
    for step in 0..1500 {
        let mut grad = [0.0; WEIGHTS];
        for (f, r) in samples {
            let x: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(x);
            let common = -2.0 * (r - p) * p * (1.0 - p) / SCALE;
            for i in 0..WEIGHTS {
                grad[i] += common * f[i] / samples.len() as f64;
            }
        }
        let mut next = w;
        for i in (0..WEIGHTS).filter(|&i| free(i)) {
            next[i] = (next[i] - rate * grad[i]).clamp(-127.0, 127.0);
        }
        let e = error(&next);
        if e < current {
            w = next;
            current = e;
            rate *= 1.5;
        } else {
            rate *= 0.5;
        }
        if step % 300 == 0 {
            eprintln!("step {step}: error {current:.5}, rate {rate:.0}");
        }
    }
    eprintln!("error with the fitted weights: {:.5}", error(&w));
    let round = |v: f64| v.round() as i32;
    Weights {
        opening: std::array::from_fn(|i| round(w[TERMS + i])),
        ..Weights::from_array(std::array::from_fn(|i| round(w[i])))
    }
}
