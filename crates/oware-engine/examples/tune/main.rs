//! Tunes the evaluation weights by regression on self-play (the "Texel" method): plays games between
//! engine instances at a small fixed depth (with level noise so that games differ), records every
//! position, the search's score of its best move and the final result for the side to move, then
//! fits the weights so that `sigmoid(weights · features / SCALE)` predicts the label. Each weight
//! (the house terms' one per column) is fitted as its value at the two ends of the game: with no
//! seeds on the board (the engine's own weight) and with all 48 (its own plus its opening weight,
//! `Weights::opening`); in between, the engine blends the two by the seeds on the board.
//!
//! The label is `RESULT_SHARE · result + (1 - RESULT_SHARE) · sigmoid(score / SCALE)`: the game
//! result alone (share 1) is noisy (one result for a hundred positions); the search's score (share
//! 0) says what a search of DEPTH plies sees from the position. The store weight stays at 100 (it
//! fixes the unit: centiseeds).
//!
//! ```text
//! cargo run --release -p oware-engine --example tune -- [GAMES] [DEPTH] [RESULT_SHARE] [FILE]
//! cargo run --release -p oware-engine --example tune -- endgame AWARI_DIR ABAPA_DIR [PER_STAGE [OUT.rs]]
//! ```
//! The second form fits the weights of the endgame, by the seeds on the board, to the endgame
//! databases' exact values instead (see `endgame.rs` beside this file); what follows is the first.
//! With FILE, the positions are read from it if it exists (GAMES and DEPTH are then not used), and
//! otherwise played and written to it (one line a position: the position, the result, the
//! search's view), so that fits can be repeated and compared on the same positions.
//!
//! The fit is by Levenberg-Marquardt steps (Gauss-Newton with a damping that grows when a step
//! fails), which converge in tens of steps where gradient descent needed thousands. It prints two
//! fits (without the capture term, whose weights are held at 0, and with it), each as a
//! `Weights` literal and as a `setoption name Weights value …` line, to be checked by `oware
//! match` before being adopted, with its error on the positions fitted and on a tenth held out.
//! Every weight is kept, at every stage of the game, where the evaluation's vector path can
//! multiply it: the seeds' and the store's within a byte, the other house terms' within twice that
//! (in steps of 2 where one is beyond a byte, see `Weights::steps`), by keeping both ends there.

use std::io::{BufRead, Write};

use oware_engine::{
    features, house_index, player, Engine, EngineOptions, Limits, Strength, Weights, SIZE_TERMS,
    TERMS, WIN_THRESHOLD,
};
use oware_rules::{Game, Position, RuleSet, Side};

/// Centiseeds per logistic unit.
const SCALE: f64 = 400.0;
/// How many weights a fit has: each weight's with no seeds on the board (all but the store's, index
/// 0, the unit, are fitted), then with all 48.
const WEIGHTS: usize = 2 * TERMS;
/// Where the fit's two sets start: no seeds on the board, all 48.
const SETS: [usize; 2] = [0, TERMS];
/// The capture term's index in [`Weights::as_array`].
const CAPTURE: usize = 2;
/// The first house term's weights after the seeds' (the empty houses' in column A).
const FIRST_MASK_TERM: usize = house_index(1, 0);
/// Positions in a block of the tenth held out (about eight games).
const HELD_OUT_BLOCK: usize = 1024;
/// The most Levenberg-Marquardt steps a fit takes.
const STEPS: usize = 60;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x / SCALE).exp())
}

/// How far weight `i` (of the fit's order, see [`WEIGHTS`]) may go either way: the vector path's
/// range, which the stages between the two ends stay within.
fn limit(i: usize) -> f64 {
    match i % TERMS {
        // The tempo and the capture term are added outside the vector path.
        1 | 2 => 1000.0,
        // The store and the seeds are multiplied as bytes.
        i if i < FIRST_MASK_TERM => 127.0,
        // The other house terms' masks can count 2 (in steps of 2, see `Weights::steps`).
        _ => 254.0,
    }
}

mod endgame;

fn main() {
    let all: Vec<String> = std::env::args().skip(1).collect();
    if all.first().map(String::as_str) == Some("endgame") {
        return endgame::main(&all[1..]);
    }
    let mut args = all.into_iter();
    let games: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let result_share: f64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .filter(|s| (0.0..=1.0).contains(s))
        .unwrap_or(1.0);
    let file = args.next();
    let seen = match &file {
        Some(file) if std::path::Path::new(file).exists() => read_positions(file),
        _ => {
            let seen = play(games, depth);
            match &file {
                Some(file) => write_positions(file, &seen).map(|()| seen),
                None => Ok(seen),
            }
        }
    };
    let seen = seen.unwrap_or_else(|e| {
        eprintln!("tune: {e}");
        std::process::exit(1)
    });
    eprintln!("{} positions", seen.len());
    let samples: Vec<Sample> = seen
        .iter()
        .map(|s| {
            let label = result_share * s.result + (1.0 - result_share) * s.search;
            (weighted_features(&s.position), label)
        })
        .collect();
    // Two fits: without the capture term (as the engine plays), then with it.
    let fits: [(&str, Vec<usize>); 2] = [
        ("without capture", SETS.map(|set| set + CAPTURE).to_vec()),
        ("with capture", vec![]),
    ];
    for (name, held) in fits {
        let fitted = fit(&samples, name, &held);
        println!("{name}: {fitted:?}");
        let own_weights = fitted.as_array();
        let own = (0..TERMS).map(|i| (Weights::name(i), own_weights[i]));
        // Every opening weight, zeros too: the line sets them over the engine's defaults.
        let opening =
            (0..TERMS).map(|i| (format!("{}_opening", Weights::name(i)), fitted.opening[i]));
        let pairs: Vec<String> = own
            .chain(opening)
            .map(|(n, v)| format!("{n}={v}"))
            .collect();
        println!("setoption name Weights value {}", pairs.join(","));
    }
}

/// A position of a self-play game, with what the game and the search said of it for the side to
/// move.
struct Seen {
    position: Position,
    /// The game's result: 1 won, 0.5 drawn, 0 lost.
    result: f64,
    /// The search's score as an expected result (`sigmoid(score / SCALE)`; 1 or 0 where it found
    /// the game decided).
    search: f64,
}

/// Plays `games` self-play games at `depth` and returns their positions from the fourth ply on.
fn play(games: usize, depth: u32) -> Vec<Seen> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    let level = Strength {
        depth: Some(depth),
        noise: 40,
        mistakes: None,
    };
    let mut random = 0x7e57_ab1e_u64;
    let mut out = Vec::new();
    for g in 0..games {
        let mut game = Game::new(RuleSet::Abapa);
        let mut positions = Vec::new();
        while !game.is_over() && game.ply_count() < 400 {
            // The level's move, chosen as every player chooses one, and the scores it chose from.
            let limits = Limits::depth(depth);
            let Some(choice) =
                player::choose(&mut engine, &game, level, &limits, &mut random, &mut |_| {})
            else {
                break;
            };
            let scores = choice.moves;
            if game.ply_count() >= 4 {
                let best = scores.iter().map(|s| s.score).max().unwrap_or(0);
                // A decided game's score is a certainty, not a seed count.
                let search = if best > WIN_THRESHOLD {
                    1.0
                } else if best < -WIN_THRESHOLD {
                    0.0
                } else {
                    sigmoid(f64::from(best))
                };
                positions.push((*game.position(), search));
            }
            let mv = choice.result.best.expect("a chosen move");
            game.play(mv).expect("the engine plays legal moves");
        }
        let Some(end) = game.end() else { continue };
        for (position, search) in positions {
            let result = match end.score.winner() {
                Some(w) if w == position.side_to_move() => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            out.push(Seen {
                position,
                result,
                search,
            });
        }
        if (g + 1) % 20 == 0 {
            eprintln!("{} games, {} positions", g + 1, out.len());
        }
    }
    out
}

/// Writes the positions to `file`, one a line: `POSITION RESULT SEARCH`.
fn write_positions(file: &str, seen: &[Seen]) -> Result<(), String> {
    let write = || -> std::io::Result<()> {
        let mut out = std::io::BufWriter::new(std::fs::File::create(file)?);
        for s in seen {
            writeln!(out, "{} {} {}", s.position, s.result, s.search)?;
        }
        out.flush()
    };
    write().map_err(|e| format!("{file}: {e}"))
}

/// Reads positions written by [`write_positions`].
fn read_positions(file: &str) -> Result<Vec<Seen>, String> {
    let input = std::fs::File::open(file).map_err(|e| format!("{file}: {e}"))?;
    let mut seen = Vec::new();
    for (n, line) in std::io::BufReader::new(input).lines().enumerate() {
        let line = line.map_err(|e| format!("{file}: {e}"))?;
        let mut fields = line.split_whitespace();
        let mut next = || fields.next().ok_or(());
        let parsed = (|| -> Result<Seen, ()> {
            Ok(Seen {
                position: next()?.parse().map_err(|_| ())?,
                result: next()?.parse().map_err(|_| ())?,
                search: next()?.parse().map_err(|_| ())?,
            })
        })();
        let s = parsed.map_err(|()| format!("{file}:{}: not `POSITION RESULT SEARCH`", n + 1))?;
        seen.push(s);
    }
    Ok(seen)
}

/// A position's features twice over, for each weight at the two ends of the game (see [`WEIGHTS`]):
/// times `1 - p` and times `p`, where `p` is the seeds on the board over 48.
fn weighted_features(pos: &Position) -> [f64; WEIGHTS] {
    let f = features(pos);
    let on_board = 48 - u32::from(pos.store(Side::South)) - u32::from(pos.store(Side::North));
    let p = f64::from(on_board) / 48.0;
    let shares = [1.0 - p, p];
    let mut out = [0.0; WEIGHTS];
    for (i, &v) in f.iter().enumerate() {
        for (set, share) in SETS.iter().zip(shares) {
            out[set + i] = f64::from(v) * share;
        }
    }
    out
}

/// A position's features (see [`weighted_features`]) and its label.
type Sample = ([f64; WEIGHTS], f64);

/// Fits the weights on the samples but a tenth (whole blocks of [`HELD_OUT_BLOCK`] held out, to
/// show how much of the fit is the data's noise), from the engine's defaults; the weights `held`
/// stay at 0 and the store at 100 (the unit).
fn fit(samples: &[Sample], name: &str, held: &[usize]) -> Weights {
    let mut w = [0.0; WEIGHTS];
    for (i, own) in Weights::DEFAULT.as_array().into_iter().enumerate() {
        w[i] = f64::from(own);
        w[TERMS + i] = f64::from(own + Weights::DEFAULT.opening[i]);
    }
    for &i in held {
        w[i] = 0.0;
    }
    let free: Vec<usize> = (0..WEIGHTS)
        .filter(|&i| i != 0 && !held.contains(&i))
        .collect();
    // Positions come game after game: a block of them is a few whole games, held out together so
    // that the held-out error is measured on games the fit has not seen.
    let (fitted, held_out): (Vec<_>, Vec<_>) = samples
        .iter()
        .enumerate()
        .partition(|(i, _)| !(i / HELD_OUT_BLOCK).is_multiple_of(10));
    let fitted: Vec<&Sample> = fitted.into_iter().map(|(_, s)| s).collect();
    let held_out: Vec<&Sample> = held_out.into_iter().map(|(_, s)| s).collect();
    eprintln!(
        "{name}: error with the engine's weights {:.5}, held out {:.5}",
        error(&fitted, &w),
        error(&held_out, &w)
    );
    // Levenberg-Marquardt: the Gauss-Newton step with the curvature's diagonal weighed up by
    // `damping`, which shrinks after a step that lowers the error and grows after one that does
    // not.
    let mut damping = 1e-3;
    let mut current = Moments::of(&fitted, &w, &free);
    for step in 0..STEPS {
        // Weights at a limit that the gradient pushes further out stay there for this step.
        let moving: Vec<usize> = (0..free.len())
            .filter(|&k| {
                let (i, g) = (free[k], current.gradient[k]);
                !(w[i] >= limit(i) && g < 0.0 || w[i] <= -limit(i) && g > 0.0)
            })
            .collect();
        let n = moving.len();
        let mut matrix = vec![0.0; n * n];
        for (a, &ka) in moving.iter().enumerate() {
            for (b, &kb) in moving.iter().enumerate() {
                matrix[a * n + b] = current.curvature[ka * free.len() + kb];
            }
            // (The small ridge keeps the matrix definite where a feature never occurs.)
            matrix[a * n + a] = matrix[a * n + a] * (1.0 + damping) + 1e-12;
        }
        let rhs: Vec<f64> = moving.iter().map(|&k| -current.gradient[k]).collect();
        let mut next = w;
        if let Some(delta) = solve(matrix, rhs) {
            for (&k, d) in moving.iter().zip(delta) {
                let i = free[k];
                next[i] = w[i] + d;
            }
        }
        centre_sizes(&mut next, &SETS);
        for (i, v) in next.iter_mut().enumerate() {
            *v = v.clamp(-limit(i), limit(i));
        }
        let e = error(&fitted, &next);
        if e < current.error {
            let gain = current.error - e;
            w = next;
            current = Moments::of(&fitted, &w, &free);
            damping = (damping / 3.0).max(1e-9);
            eprintln!("step {step}: error {e:.6}, damping {damping:.1e}");
            if gain < 1e-8 {
                break;
            }
        } else {
            damping *= 4.0;
            if damping > 1e6 {
                break;
            }
        }
    }
    println!(
        "{name}: error {:.5} on the positions fitted, {:.5} on the tenth held out",
        current.error,
        error(&held_out, &w)
    );
    rounded(&w)
}

/// Shifts each column's size weights (at each end of the game apart) so that they lie as far from
/// the limits as they can: the shift changes no evaluation ([`SIZE_TERMS`]), and without it they
/// drift along it, from step to step, into the limits.
fn centre_sizes(w: &mut [f64], sets: &[usize]) {
    for &set in sets {
        for col in 0..6 {
            let at = || SIZE_TERMS.map(|t| set + house_index(t, col));
            let (low, high) = at().fold((f64::MAX, f64::MIN), |(lo, hi), i| {
                (lo.min(w[i]), hi.max(w[i]))
            });
            let middle = (low + high) / 2.0;
            for i in at() {
                w[i] -= middle;
            }
        }
    }
}

/// The fitted weights as the engine's integers: the own weights (with no seeds on the board) and the
/// opening's (the difference to those with all 48).
fn rounded(w: &[f64; WEIGHTS]) -> Weights {
    let [end, start] = SETS.map(|set| std::array::from_fn(|i| w[set + i].round() as i32));
    Weights {
        opening: std::array::from_fn(|i| start[i] - end[i]),
        ..Weights::from_array(end)
    }
}

/// The mean squared error of the prediction over the samples.
fn error(samples: &[&Sample], w: &[f64; WEIGHTS]) -> f64 {
    let sum: f64 = on_every_core(samples, |part| {
        part.iter()
            .map(|(f, label)| (label - sigmoid(dot(f, w))).powi(2))
            .sum::<f64>()
    })
    .into_iter()
    .sum();
    sum / samples.len().max(1) as f64
}

fn dot(f: &[f64; WEIGHTS], w: &[f64; WEIGHTS]) -> f64 {
    f.iter().zip(w).map(|(a, b)| a * b).sum()
}

/// The error of a fit and its first and (Gauss-Newton) second derivatives by the free weights.
struct Moments {
    error: f64,
    gradient: Vec<f64>,
    /// By free weight, then free weight.
    curvature: Vec<f64>,
}

impl Moments {
    /// Nothing summed yet, for `n` free weights.
    fn zero(n: usize) -> Moments {
        Moments {
            error: 0.0,
            gradient: vec![0.0; n],
            curvature: vec![0.0; n * n],
        }
    }

    fn of(samples: &[&Sample], w: &[f64; WEIGHTS], free: &[usize]) -> Moments {
        let n = free.len();
        let parts = on_every_core(samples, |part| {
            let mut m = Moments::zero(n);
            let mut nonzero = Vec::with_capacity(n);
            for (f, label) in part {
                let p = sigmoid(dot(f, w));
                m.error += (label - p).powi(2);
                // The prediction's derivative by each weight is slope × feature.
                let slope = p * (1.0 - p) / SCALE;
                nonzero.clear();
                nonzero.extend((0..n).filter_map(|k| {
                    let v = f[free[k]];
                    (v != 0.0).then_some((k, v * slope))
                }));
                for &(a, ja) in &nonzero {
                    m.gradient[a] -= 2.0 * (label - p) * ja;
                    let row = &mut m.curvature[a * n..][..n];
                    for &(b, jb) in &nonzero {
                        row[b] += 2.0 * ja * jb;
                    }
                }
            }
            m
        });
        let count = samples.len().max(1) as f64;
        let mut total = Moments::zero(n);
        for part in parts {
            total.error += part.error / count;
            for (t, v) in total.gradient.iter_mut().zip(part.gradient) {
                *t += v / count;
            }
            for (t, v) in total.curvature.iter_mut().zip(part.curvature) {
                *t += v / count;
            }
        }
        total
    }
}

/// `work` on a share of the samples on each core, the results in order.
fn on_every_core<T: Send>(samples: &[&Sample], work: impl Fn(&[&Sample]) -> T + Sync) -> Vec<T> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = samples.len().div_ceil(cores).max(1);
    std::thread::scope(|scope| {
        let workers: Vec<_> = samples
            .chunks(chunk)
            .map(|part| scope.spawn(|| work(part)))
            .collect();
        workers.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Solves `matrix · x = rhs` for a symmetric positive definite `matrix` (n × n, by rows), by
/// Cholesky's factorisation; `None` if it is not positive definite.
fn solve(mut matrix: Vec<f64>, rhs: Vec<f64>) -> Option<Vec<f64>> {
    let n = rhs.len();
    // The lower triangle becomes L, with matrix = L · Lᵀ.
    for j in 0..n {
        let mut d = matrix[j * n + j];
        for k in 0..j {
            d -= matrix[j * n + k].powi(2);
        }
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        matrix[j * n + j] = d;
        for i in j + 1..n {
            let mut v = matrix[i * n + j];
            for k in 0..j {
                v -= matrix[i * n + k] * matrix[j * n + k];
            }
            matrix[i * n + j] = v / d;
        }
    }
    // L · y = rhs, then Lᵀ · x = y.
    let mut x = rhs;
    for i in 0..n {
        for k in 0..i {
            x[i] -= matrix[i * n + k] * x[k];
        }
        x[i] /= matrix[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            x[i] -= matrix[k * n + i] * x[k];
        }
        x[i] /= matrix[i * n + i];
    }
    Some(x)
}
