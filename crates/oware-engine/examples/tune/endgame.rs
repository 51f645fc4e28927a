//! The endgame fit: the evaluation's weights for each count of seeds on the board up to
//! [`ENDGAME_SEEDS`], fitted to the exact values of the endgame databases instead of to self-play.
//!
//! ```text
//! cargo run --release -p oware-engine --example tune -- endgame AWARI_DIR ABAPA_DIR [PER_STAGE [OUT.rs]]
//! ```
//!
//! Positions come from play under each rule set: the engine's own games (20,000 nodes a move,
//! from random four-ply openings) and random playouts branching off every position of those games
//! and of the master games, so that the sample holds both the boards of real play and the odd ones
//! a search meets. Every position with `n` seeds on the board is labelled with its database value:
//! awari's wherever AWARI_DIR reaches, abapa's where ABAPA_DIR holds it exact (abapa values assume
//! no earlier history, as the engine's probes do). A tenth of the positions, chosen by a hash of
//! the position, is held out, and the positions that measure the engine against perfect play
//! (`data/perfect-*.txt`, docs/strength.md) are never fitted.
//!
//! For each `n` the weights are the least-squares fit of the evaluation to `100 × (the stores'
//! difference + the value)` (centiseeds, the side to move's), the store's weight held at the
//! engine's, with a small ridge towards the engine's weights at that stage (the size terms of a
//! column are collinear: only their differences are fitted). The mean absolute error in seeds is
//! printed per `n` and rule set, on the positions fitted and on those held out, for the engine's
//! weights without the fitted sets (`before`, `Weights::TAPERED`) and the fitted ones (`after`),
//! and then over the positions of real games of `oware bench --perfect`. With OUT.rs, the fitted
//! sets are written there as the engine's `eval/endgame.rs`.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};

use oware_egtb::values::board_difference;
use oware_egtb::Tablebase;
use oware_engine::perfect::{kept_positions, read_positions};
use oware_engine::player::{choose, Strength};
use oware_engine::{
    evaluate, features, Engine, EngineOptions, Limits, Weights, ENDGAME_SEEDS, TERMS,
};
use oware_rules::{Game, GameLine, Position, RuleSet};

use super::{centre_sizes, limit, solve};

/// The larger samples of docs/strength.md, beside the positions kept with the engine.
const MORE_MEASURED: [&str; 2] = [
    "perfect-awari-12-20-more.txt",
    "perfect-abapa-13-16-more.txt",
];
/// Self-play games per rule set.
const GAMES: u64 = 300;
/// The search's budget for each move of those games (a few milliseconds).
const SELF_PLAY_NODES: u64 = 20_000;
/// Random playouts from each position of those games (and of the master games).
const PLAYOUTS: usize = 2;
/// The longest random playout, in plies.
const PLAYOUT_PLIES: usize = 200;
/// Positions kept per count of seeds and rule set, unless the command line says otherwise.
const PER_STAGE: usize = 40_000;
/// The ridge's weight, per position fitted: how strongly a weight that the data leave free stays
/// at the engine's.
const RIDGE: f64 = 0.02;

/// A labelled position: its features and its exact value for the side to move, in centiseeds.
struct Sample {
    features: [i32; TERMS],
    label: f64,
    position: Position,
    held_out: bool,
}

pub fn main(args: &[String]) {
    let (awari_dir, abapa_dir, per_stage, out) = match args {
        [a, b] => (a, b, PER_STAGE, None),
        [a, b, n] => (a, b, n.parse().expect("a count per stage"), None),
        [a, b, n, out] => (a, b, n.parse().expect("a count per stage"), Some(out)),
        _ => {
            eprintln!("usage: tune endgame AWARI_DIR ABAPA_DIR [PER_STAGE [OUT.rs]]");
            std::process::exit(2);
        }
    };
    // Positions that measure the engine against perfect play are never fitted.
    let mut never_fitted = HashSet::new();
    for rules in [RuleSet::Awari, RuleSet::Abapa] {
        never_fitted.extend(kept_positions(rules));
    }
    for file in MORE_MEASURED {
        let path = format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("a file of measured positions");
        never_fitted.extend(read_positions(&text).expect("position strings"));
    }
    let suite = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../oware-rules/tests/data/master_games.suite"
    );
    let master = std::fs::read_to_string(suite).expect("the master games");
    let mut by_rules = Vec::new();
    for (rules, dir) in [(RuleSet::Awari, awari_dir), (RuleSet::Abapa, abapa_dir)] {
        let tb = Tablebase::open(dir, rules).unwrap_or_else(|e| {
            eprintln!("tune: {e}");
            std::process::exit(1)
        });
        let positions = sample_positions(rules, &master, per_stage, &never_fitted);
        let samples = label(&tb, rules, positions);
        eprintln!("{rules}: {} labelled positions", samples.len());
        let benched = label(&tb, rules, kept_positions(rules));
        by_rules.push((rules, samples, benched));
    }
    let mut sets = Vec::new();
    println!("seeds  rules  positions  before (fitted / held out)  after (fitted / held out)");
    for n in 0..=ENDGAME_SEEDS as u8 {
        let base = Weights::TAPERED.at_stage(48 - u32::from(n));
        let at_n: Vec<&Sample> = by_rules
            .iter()
            .flat_map(|(_, s, _)| s.iter())
            .filter(|s| s.position.board_seeds() == n)
            .collect();
        let fitted = fit(&at_n, &base);
        for (rules, samples, _) in &by_rules {
            let here: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.position.board_seeds() == n)
                .collect();
            if here.is_empty() {
                continue;
            }
            let error = |w: &Weights, held: bool| {
                mean_error(here.iter().copied().filter(|s| s.held_out == held), w)
            };
            println!(
                "{n:5}  {rules:5}  {:9}  {:6.3} / {:6.3}             {:6.3} / {:6.3}",
                here.len(),
                error(&base, false),
                error(&base, true),
                error(&fitted, false),
                error(&fitted, true)
            );
        }
        sets.push(fitted);
    }
    // The positions of real games that `oware bench --perfect` judges (never fitted), as a check
    // on a sample of real play rather than of random playouts.
    for (rules, _, benched) in &by_rules {
        let covered: Vec<(&Sample, &Weights)> = benched
            .iter()
            .filter_map(|s| Some((s, sets.get(usize::from(s.position.board_seeds()))?)))
            .collect();
        let before: f64 = covered
            .iter()
            .map(|&(s, _)| seeds_off(s, &Weights::TAPERED))
            .sum();
        let after: f64 = covered.iter().map(|&(s, set)| seeds_off(s, set)).sum();
        let count = covered.len().max(1) as f64;
        println!(
            "{rules}, the {} positions of `oware bench --perfect` with at most {ENDGAME_SEEDS} \
             seeds: before {:.3}, after {:.3}",
            covered.len(),
            before / count,
            after / count
        );
    }
    if let Some(out) = out {
        std::fs::write(out, source(&sets)).expect("the endgame weights written");
        eprintln!("written to {out}");
    }
}

/// Positions of play under `rules`: each position of the engine's games and of the master games,
/// and of random playouts from each of them, with at most `per_stage` for each count of seeds up
/// to [`ENDGAME_SEEDS`]; the positions of `oware bench --perfect` left out.
fn sample_positions(
    rules: RuleSet,
    master: &str,
    per_stage: usize,
    never_fitted: &HashSet<Position>,
) -> Vec<Position> {
    let mut random = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random
    };
    let mut lines: Vec<Vec<Position>> = Vec::new();
    for line in master.lines().filter(|l| !l.trim().is_empty()) {
        let GameLine { start, moves } = line.parse().expect("a game line");
        let mut game = Game::from_position(start, rules);
        let mut seen = vec![*game.position()];
        for mv in moves {
            if game.is_over() || game.play(mv).is_err() {
                break;
            }
            seen.push(*game.position());
        }
        lines.push(seen);
    }
    // Without the fitted sets, so that the sample does not depend on the last fit.
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        weights: Weights::TAPERED,
        ..EngineOptions::default()
    });
    let mut choice = 0x9e37_79b9_7f4a_7c15_u64;
    // A node budget rather than a time, so that the same command fits the same positions.
    let limits = Limits {
        nodes: Some(SELF_PLAY_NODES),
        ..Limits::default()
    };
    for _ in 0..GAMES {
        engine.new_game();
        let mut game = Game::new(rules);
        let mut seen = Vec::new();
        while !game.is_over() {
            let mv = if game.moves().len() < 4 {
                let legal: Vec<_> = game.legal_moves().collect();
                legal[next() as usize % legal.len()]
            } else {
                let chosen = choose(
                    &mut engine,
                    &game,
                    Strength::new(10),
                    &limits,
                    &mut choice,
                    &mut |_| {},
                );
                match chosen.and_then(|c| c.result.best) {
                    Some(mv) => mv,
                    None => break,
                }
            };
            game.play(mv).expect("a legal move");
            seen.push(*game.position());
        }
        lines.push(seen);
    }
    let mut kept: Vec<Vec<Position>> = vec![Vec::new(); ENDGAME_SEEDS + 1];
    let mut known = HashSet::new();
    let mut keep = |p: Position| {
        let n = usize::from(p.board_seeds());
        if n <= ENDGAME_SEEDS
            && kept[n].len() < per_stage
            && !never_fitted.contains(&p)
            && known.insert(p)
        {
            kept[n].push(p);
        }
    };
    for line in &lines {
        for &start in line {
            keep(start);
            for _ in 0..PLAYOUTS {
                let mut p = start;
                // Random play can go round forever in a small endgame: a playout ends after
                // PLAYOUT_PLIES moves.
                for _ in 0..PLAYOUT_PLIES {
                    let legal: Vec<_> = p.legal_moves(rules).collect();
                    if legal.is_empty() {
                        break;
                    }
                    p = p
                        .play_unchecked(legal[next() as usize % legal.len()], rules)
                        .position;
                    keep(p);
                }
            }
        }
    }
    kept.into_iter().flatten().collect()
}

/// The positions with their database values (awari everywhere, abapa where exact), as samples.
fn label(tb: &Tablebase, rules: RuleSet, positions: Vec<Position>) -> Vec<Sample> {
    positions
        .into_iter()
        .filter_map(|position| {
            let probe = tb.probe(&position).filter(|v| v.exact)?;
            let margin = board_difference(rules, usize::from(position.board_seeds()), probe.value);
            let me = position.side_to_move();
            let stores = i32::from(position.store(me)) - i32::from(position.store(me.opponent()));
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            position.hash(&mut hasher);
            Some(Sample {
                features: features(&position),
                label: 100.0 * f64::from(stores + margin),
                position,
                held_out: hasher.finish().is_multiple_of(10),
            })
        })
        .collect()
}

/// The least-squares fit on the samples not held out, from `base` (a stage's weights, none at the
/// opening), the store's weight kept.
fn fit(samples: &[&Sample], base: &Weights) -> Weights {
    let base = base.as_array();
    let free: Vec<usize> = (1..TERMS).collect();
    let k = free.len();
    let fitted: Vec<&&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    // Normal equations for the change from `base`: (XᵀX + ridge) d = Xᵀ(y - X·base).
    let mut matrix = vec![0.0; k * k];
    let mut rhs = vec![0.0; k];
    for s in &fitted {
        let predicted: f64 = s
            .features
            .iter()
            .zip(&base)
            .map(|(&f, &w)| f64::from(f * w))
            .sum();
        let residual = s.label - predicted;
        for (a, &i) in free.iter().enumerate() {
            let fa = f64::from(s.features[i]);
            if fa == 0.0 {
                continue;
            }
            rhs[a] += fa * residual;
            for (b, &j) in free.iter().enumerate() {
                matrix[a * k + b] += fa * f64::from(s.features[j]);
            }
        }
    }
    let ridge = RIDGE * fitted.len().max(1) as f64;
    for a in 0..k {
        matrix[a * k + a] += ridge;
    }
    let mut w: Vec<f64> = base.iter().map(|&v| f64::from(v)).collect();
    if let Some(delta) = solve(matrix, rhs) {
        for (&i, d) in free.iter().zip(delta) {
            w[i] += d;
        }
    }
    centre_sizes(&mut w, &[0]);
    // Rounded as the engine will weigh them (an odd weight beyond a byte as the even one above).
    Weights::from_array(std::array::from_fn(|i| {
        w[i].clamp(-limit(i), limit(i)).round() as i32
    }))
    .at_stage(48)
}

/// The mean absolute error, in seeds, of the evaluation with `w` over the samples.
fn mean_error<'a>(samples: impl Iterator<Item = &'a Sample>, w: &Weights) -> f64 {
    let (sum, count) = samples.fold((0.0, 0usize), |(sum, count), s| {
        (sum + seeds_off(s, w), count + 1)
    });
    sum / count.max(1) as f64
}

/// How far, in seeds, the evaluation with `w` is from the sample's exact value.
fn seeds_off(s: &Sample, w: &Weights) -> f64 {
    (f64::from(evaluate(&s.position, w)) - s.label).abs() / 100.0
}

/// The engine's `eval/endgame.rs` holding `sets`, by the seeds on the board.
fn source(sets: &[Weights]) -> String {
    let mut s = String::new();
    s.push_str(
        "//! The evaluation's weights with at most [`ENDGAME_SEEDS`] seeds on the board, one set for each\n\
         //! count of seeds, fitted to the endgame databases' exact values (awari 0-20 and abapa 0-16) by\n\
         //! `cargo run --release -p oware-engine --example tune -- endgame AWARI_DIR ABAPA_DIR 40000\n\
         //! crates/oware-engine/src/eval/endgame.rs`, which writes this file (its errors before and\n\
         //! after: docs/strength.md). Each row is in the order of [`super::Weights::as_array`].\n\n\
         use super::weights::TERMS;\n\n\
         /// The most seeds on the board that the fitted sets cover.\n\
         pub const ENDGAME_SEEDS: usize = ",
    );
    let _ = writeln!(s, "{ENDGAME_SEEDS};\n");
    s.push_str(
        "/// The fitted weights, by the seeds on the board (0 to [`ENDGAME_SEEDS`]).\n\
         #[rustfmt::skip]\n\
         pub(super) const FITTED: [[i32; TERMS]; ENDGAME_SEEDS + 1] = [\n",
    );
    for (n, set) in sets.iter().enumerate() {
        let row: Vec<String> = set.as_array().iter().map(|v| v.to_string()).collect();
        let _ = writeln!(s, "    // {n} seeds\n    [{}],", row.join(", "));
    }
    s.push_str("];\n");
    s
}
