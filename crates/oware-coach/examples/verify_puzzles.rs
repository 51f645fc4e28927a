//! Checks a puzzle file again, harder than `make_puzzles` can afford for every candidate, and writes
//! the puzzles that pass (the same lines, with their goal and `verified` column brought up to date):
//!
//! ```text
//! oware egtb build --rules abapa --max-seeds 16 --dir /tmp/egtb-abapa16
//! cargo run --release -p oware-coach --example verify_puzzles -- \
//!     crates/oware-coach/data/puzzles.txt /tmp/egtb-abapa16 28 > /tmp/puzzles.txt
//! ```
//!
//! - A position the abapa databases hold is kept only when they show the solution certainly better
//!   than every other move, the game not the same whatever is played, and, for a `win` puzzle, the
//!   solution the one winning move ([`check_with_databases`]); the goal is theirs.
//! - Any other position is searched again to DEPTH plies, the engine probing the databases where a
//!   line reaches them, and kept only when that search names the same single solution ahead of every
//!   other move by [`MARGIN`](oware_coach::puzzle::MARGIN) and wins with it what the puzzle says (a `win` puzzle whose win the
//!   deeper search no longer sees is dropped; a `gain` puzzle it sees won becomes `win`).
//!
//! Puzzles with the same position as an earlier one are dropped. What was dropped, and why, goes to
//! the standard error with the counts.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

use oware_coach::engine::HASH_MB;
use oware_coach::puzzle::{
    check_with_databases, parse, single_winner, DatabaseVerdict, Goal, Puzzle, Theme,
};
use oware_coach::Analyst;
use oware_egtb::Tablebase;
use oware_engine::tablebase::TablebaseProbe;
use oware_engine::{Engine, EngineOptions};
use oware_rules::RuleSet;

/// Why a puzzle was dropped, or how it passed.
fn check(
    p: &Puzzle,
    tablebase: &Tablebase,
    search: &mut Analyst,
    depth: u32,
) -> Result<(Goal, String), String> {
    let base = p.verified.split('+').next().unwrap_or(&p.verified);
    let game = p.game();
    match check_with_databases(&p.position, p.rules, p.solution, p.goal, tablebase) {
        Some(DatabaseVerdict::Holds(goal)) => {
            return Ok((goal, format!("{base}+egtb{}", tablebase.max_seeds())))
        }
        Some(DatabaseVerdict::Rival(_)) => return Err("egtb: another move as good".into()),
        Some(DatabaseVerdict::SameResult) => return Err("egtb: every move the same result".into()),
        Some(DatabaseVerdict::SecondWin(_)) => return Err("egtb: a second winning move".into()),
        Some(DatabaseVerdict::NoWin) => return Err("egtb: the win is not one".into()),
        None => {}
    }
    let values = search.values(&game);
    match single_winner(&game, &values) {
        Some((best, _)) if best.mv != p.solution => {
            Err(format!("depth {depth}: another move best"))
        }
        None if values.first().map(|v| v.mv) == Some(p.solution) => Err(format!(
            "depth {depth}: a second move within the margin or no gain"
        )),
        None => Err(format!("depth {depth}: another move best")),
        Some((_, Goal::Gain)) if p.goal == Goal::Win => {
            Err(format!("depth {depth}: the win is not seen"))
        }
        Some((_, goal)) => Ok((
            goal,
            format!("{base}+depth:{depth}/egtb{}", tablebase.max_seeds()),
        )),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, dir, depth] = args.as_slice() else {
        eprintln!("usage: verify_puzzles PUZZLES.txt ABAPA_DATABASES_DIR DEPTH");
        std::process::exit(2);
    };
    let depth: u32 = depth.parse().expect("a depth in plies");
    let text = std::fs::read_to_string(file).expect("the puzzle file");
    let puzzles = parse(&text).expect("a puzzle file");
    let tablebase =
        Tablebase::open(dir, RuleSet::Abapa).expect("abapa endgame databases in the directory");
    let probe = TablebaseProbe::new(
        Tablebase::open(dir, RuleSet::Abapa).expect("abapa endgame databases in the directory"),
    );
    let engine = Engine::new(EngineOptions {
        hash_mb: HASH_MB,
        threads: 1,
        probe: Some(Arc::new(probe)),
        ..EngineOptions::default()
    });
    let mut search = Analyst::with_engine(engine, depth, None);
    let started = Instant::now();
    let mut seen = BTreeSet::new();
    let mut kept = Vec::new();
    let mut dropped: BTreeMap<String, usize> = BTreeMap::new();
    let mut changed = 0;
    for p in &puzzles {
        let verdict = if seen.insert(format!("{} {}", p.position, p.rules)) {
            check(p, &tablebase, &mut search, depth)
        } else {
            Err("a position seen before".into())
        };
        match verdict {
            Ok((goal, verified)) => {
                changed += usize::from(goal != p.goal);
                kept.push(Puzzle {
                    id: kept.len() + 1,
                    goal,
                    verified,
                    ..p.clone()
                });
            }
            Err(why) => {
                eprintln!("dropped {}: {why}", p.line());
                *dropped.entry(why).or_default() += 1;
            }
        }
    }
    for line in text.lines().filter(|l| l.starts_with('#')) {
        println!("{line}");
    }
    for p in &kept {
        println!("{}", p.line());
    }
    eprintln!(
        "{} puzzles checked in {:.0} s: {} kept ({} with a new goal), {} dropped",
        puzzles.len(),
        started.elapsed().as_secs_f64(),
        kept.len(),
        changed,
        puzzles.len() - kept.len()
    );
    for (why, n) in &dropped {
        eprintln!("  {n:4} {why}");
    }
    for theme in Theme::ALL {
        let of = |goal| {
            kept.iter()
                .filter(|p| p.theme == theme && p.goal == goal)
                .count()
        };
        eprintln!("  {theme}: {} win, {} gain", of(Goal::Win), of(Goal::Gain));
    }
    let verified: BTreeSet<&str> = kept.iter().map(|p| p.verified.as_str()).collect();
    for v in verified {
        eprintln!("  {v}: {}", kept.iter().filter(|p| p.verified == v).count());
    }
}
