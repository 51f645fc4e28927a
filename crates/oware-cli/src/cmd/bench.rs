//! `oware bench`: searches a fixed set of positions (or, with `--suite`, those of recorded games) to a
//! fixed depth (or for a fixed time each) and prints the total node count (a signature that changes
//! only when the search changes) and the speed.
//! The speed is given per wall-clock second and, where the system tells, per second of processor time
//! used by this process (the fair figure on a machine shared with other work).

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use oware_engine::bench::{self, SuiteError, Totals};
use oware_engine::perfect::{every_move_exact, kept_positions, measure, read_positions, Miss};
use oware_engine::tablebase::TablebaseProbe;
use oware_engine::{bench_games, Engine, EngineOptions, Limits, Weights};
use oware_rules::{Game, RuleSet};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search depth in plies for every position
    #[arg(long, short = 'd', default_value_t = 20)]
    pub depth: u32,
    /// Search each position for this many milliseconds instead of to a fixed depth (the node total is
    /// then no signature; the average depth reached is reported)
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Transposition table size in MiB
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Search threads
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Search positions of these games instead of the fixed set: a file of lines
    /// `<position> moves <letters>` (abapa), such as the master games of
    /// `crates/oware-rules/tests/data/master_games.suite`
    #[arg(long, value_name = "FILE")]
    pub suite: Option<PathBuf>,
    /// With --suite: a position every this many plies of each game
    #[arg(long, default_value_t = 8, value_name = "PLIES", requires = "suite")]
    pub every: usize,
    /// With --suite: one engine per game, its table kept from one position to the next as in play
    /// (by default every position gets a fresh engine)
    #[arg(long, requires = "suite")]
    pub keep_table: bool,
    /// Measure play against perfect play: the endgame databases in DIR judge the move the engine
    /// chooses at full strength (--movetime, 100 ms by default) in each position, without the
    /// databases and then with them
    #[arg(long, value_name = "DIR", conflicts_with = "suite")]
    pub perfect: Option<PathBuf>,
    /// With --perfect: the rule set
    #[arg(long, default_value = "awari", requires = "perfect")]
    pub rules: RuleSet,
    /// With --perfect: a file of position strings, one a line (by default the positions of real
    /// games kept with the engine, 12-28 seeds on the board, in crates/oware-engine/data/)
    #[arg(long, value_name = "FILE", requires = "perfect")]
    pub positions: Option<PathBuf>,
    /// With --perfect: search each position for this many nodes instead of for a time, so that a
    /// run does not depend on the machine's speed or load (comparisons of two versions of the
    /// search)
    #[arg(
        long,
        value_name = "N",
        requires = "perfect",
        conflicts_with = "movetime"
    )]
    pub nodes: Option<u64>,
    /// With --perfect: only the positions where the databases know every move's exact value
    /// (under abapa many hold only bounds), so that whichever move is played is judged
    #[arg(long, requires = "perfect")]
    pub every_move_exact: bool,
    /// With --perfect: list every move that loses the result, with the databases' best move and
    /// the values of both
    #[arg(long, requires = "perfect")]
    pub misses: bool,
    /// With --perfect: the databases the engine plays with in its second run, instead of those of
    /// --perfect (which still judge): play with fewer levels than the judge has, such as the
    /// databases built on first use
    #[arg(long, value_name = "DIR", requires = "perfect")]
    pub engine_egtb: Option<PathBuf>,
    /// The evaluation: `default`, `tapered` (the default without the weights fitted to the
    /// databases for small endgames) or `material` (captured seeds only)
    #[arg(long, default_value = "default", value_parser = Weights::NAMED.map(|(name, _)| name))]
    pub eval: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.hash == 0 || args.hash > 4096 {
        return Err(super::Exit::bad_input("--hash must be 1..=4096 (MiB)"));
    }
    if args.threads == 0 || args.threads > 256 {
        return Err(super::Exit::bad_input("--threads must be 1..=256"));
    }
    if let Some(dir) = &args.perfect {
        return perfect(&args, dir);
    }
    let limits = match args.movetime {
        Some(ms) => Limits::movetime(Duration::from_millis(ms)),
        None => Limits::depth(args.depth),
    };
    let games: Vec<Vec<Game>> = match &args.suite {
        Some(path) => suite_games(path, args.every)?,
        None => bench_games().into_iter().map(|g| vec![g]).collect(),
    };
    let options = EngineOptions {
        hash_mb: args.hash,
        threads: args.threads,
        weights: weights(&args),
        ..EngineOptions::default()
    };
    let totals = bench::run(&games, &options, &limits, args.keep_table, |s| {
        let r = s.result;
        println!(
            "{:>2} {:<32} depth {:>2} score {:>6} best {} nodes {:>11} time {:>6} ms nps {:>9} table {:>4} MiB",
            s.number + 1,
            s.game.position().to_string(),
            r.depth,
            r.score,
            r.best.map_or('-', |m| m.letter()),
            r.nodes,
            r.time.as_millis(),
            r.nps(),
            s.table_bytes >> 20
        );
    });
    let Totals {
        positions,
        nodes: total_nodes,
        time: total_time,
        depth: total_depth,
        proven,
        open_depth,
        cpu: total_cpu,
    } = totals;
    let micros = total_time.as_micros().max(1) as u64;
    println!("positions {positions}");
    println!("average depth {:.1}", total_depth as f64 / positions as f64);
    if args.movetime.is_some() {
        // With a time limit, positions whose result the search proved stop early at whatever depth
        // that took: the average over the others says how deep the time lets the search go.
        let open = positions - proven;
        if open > 0 {
            println!(
                "average depth not proven early {:.1} ({open} positions; {proven} proven early)",
                open_depth as f64 / open as f64
            );
        } else {
            println!("average depth not proven early - (0 positions; {proven} proven early)");
        }
    }
    println!("nodes {total_nodes}");
    println!("time {} ms", total_time.as_millis());
    println!("nps {}", total_nodes.saturating_mul(1_000_000) / micros);
    if let Some(cpu) = total_cpu {
        let cpu_micros = cpu.as_micros().max(1) as u64;
        println!("cpu time {} ms", cpu.as_millis());
        println!(
            "nps per cpu second {}",
            total_nodes.saturating_mul(1_000_000) / cpu_micros
        );
    }
    Ok(())
}

/// The weights `--eval` names (clap has checked the name).
fn weights(args: &Args) -> Weights {
    Weights::named(&args.eval).expect("a name of Weights::NAMED")
}

/// `--perfect`: the engine's moves judged by the databases in `dir`, without them, then with them.
fn perfect(args: &Args, dir: &std::path::Path) -> anyhow::Result<()> {
    let open = |dir: &std::path::Path, flag: &str| -> anyhow::Result<Arc<TablebaseProbe>> {
        let probe = TablebaseProbe::open(dir, args.rules)
            .map_err(|e| super::Exit::bad_input(format!("{flag}: {e}")))?;
        if probe.tablebase().levels().is_empty() {
            return Err(super::Exit::bad_input(format!(
                "{flag}: no {} databases in {}",
                args.rules,
                dir.display()
            )));
        }
        Ok(Arc::new(probe))
    };
    let tablebase = open(dir, "--perfect")?;
    let engines_databases = match &args.engine_egtb {
        Some(own) => open(own, "--engine-egtb")?,
        None => tablebase.clone(),
    };
    let (name, mut positions) = match &args.positions {
        Some(path) => {
            let name = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .map_err(|e| super::Exit::bad_input(format!("cannot read {name}: {e}")))?;
            let positions = read_positions(&text)
                .map_err(|e| super::Exit::bad_input(format!("{name}, {e}")))?;
            (name, positions)
        }
        None => (
            format!("the {} positions kept with the engine", args.rules),
            kept_positions(args.rules),
        ),
    };
    // Only what the databases reach is judged; the rest would only be counted as unsettled.
    let reach = tablebase.tablebase().max_seeds();
    positions.retain(|p| usize::from(p.board_seeds()) <= reach);
    if args.every_move_exact {
        positions.retain(|p| every_move_exact(tablebase.tablebase(), p));
    }
    if args.nodes == Some(0) {
        return Err(super::Exit::bad_input("--nodes must be at least 1"));
    }
    let (limits, budget) = match args.nodes {
        Some(n) => (
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
            format!("{n} nodes"),
        ),
        None => {
            let ms = args.movetime.unwrap_or(100);
            (
                Limits::movetime(Duration::from_millis(ms)),
                format!("{ms} ms"),
            )
        }
    };
    println!(
        "perfect play, {}: {} positions of {name} within the databases' {reach} seeds, {budget} a move, {} thread(s)",
        args.rules,
        positions.len(),
        args.threads
    );
    if let Some(own) = &args.engine_egtb {
        println!(
            "the engine's databases: levels 0-{} of {}",
            engines_databases.tablebase().max_seeds(),
            own.display()
        );
    }
    println!(
        "databases  judged  result kept        exact value kept   seeds given away  unsettled"
    );
    for with_databases in [false, true] {
        let mut engine = Engine::new(EngineOptions {
            hash_mb: args.hash,
            threads: args.threads,
            weights: weights(args),
            ..EngineOptions::default()
        });
        if with_databases {
            engine.set_probe(Some(engines_databases.clone()));
        }
        let (tally, misses) = measure(
            &mut engine,
            tablebase.tablebase(),
            &positions,
            args.rules,
            &limits,
        );
        println!(
            "{:<9}  {:>6}  {:>5} ({:>6.2}%)   {:>5} ({:>6.2}%)   {:>16}  {:>9}",
            if with_databases { "on" } else { "off" },
            tally.judged,
            tally.result_kept,
            tally.share(tally.result_kept),
            tally.exact_kept,
            tally.share(tally.exact_kept),
            tally.seeds_given,
            tally.unsettled
        );
        if args.misses {
            for Miss {
                position,
                played: mv,
                verdict: v,
            } in misses
            {
                let best: String = tablebase
                    .tablebase()
                    .best_moves(&position)
                    .unwrap_or_default()
                    .iter()
                    .map(|m| m.letter())
                    .collect();
                println!(
                    "  result lost: {position} played {} ({:+} on the board), best {best} ({:+})",
                    mv.letter(),
                    v.played,
                    v.best
                );
            }
        }
    }
    Ok(())
}

/// The positions of a suite file's games (see [`Args::suite`]), game by game.
fn suite_games(path: &std::path::Path, every: usize) -> anyhow::Result<Vec<Vec<Game>>> {
    let every = NonZeroUsize::new(every)
        .ok_or_else(|| super::Exit::bad_input("--every must be at least 1"))?;
    let text = std::fs::read_to_string(path)
        .map_err(|e| super::Exit::bad_input(format!("cannot read {}: {e}", path.display())))?;
    bench::suite_games(&text, every).map_err(|e| {
        super::Exit::bad_input(match e {
            SuiteError::Empty => format!("{}: {e}", path.display()),
            e => format!("{}, {e}", path.display()),
        })
    })
}
