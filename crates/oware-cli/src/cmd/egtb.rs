//! `oware egtb`: build, probe, verify and count endgame databases.
//!
//! Values are from the mover's side: awari, the seed difference over the seeds on the board; abapa,
//! the seeds the mover ends with when play starts with no earlier history, exact or as bounds.

use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use clap::Subcommand;
use oware_egtb::Bounds;
use oware_egtb::Tablebase;
use oware_egtb_build::build::{build_with, check_max_seeds, pending_work};
use oware_egtb_build::check::{
    deep_verify_level, level_stats, verify_entries, BadEntry, Entries, LevelStats,
};
use oware_egtb_build::distributed::job::KillRank;
use oware_egtb_build::distributed::LowerMode;
use oware_egtb_build::store::DirStore;
use oware_egtb_build::SearchBudget;
use oware_rules::{Position, RuleSet, Side};

use super::{parse_position, Exit};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub command: EgtbCommand,
}

#[derive(Subcommand, Debug)]
pub enum EgtbCommand {
    /// Build the levels 0..=N (levels already in DIR are checked and reused)
    Build {
        #[arg(long, short = 'r', value_name = "abapa|awari")]
        rules: RuleSet,
        /// Highest level: seeds on the board
        #[arg(long, value_name = "N")]
        max_seeds: usize,
        /// Directory of the database files
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Worker threads (default: one per core)
        #[arg(long, value_name = "T")]
        threads: Option<usize>,
        /// abapa: search the boards left with bounds by path tracking, up to N nodes per board and
        /// pass, in passes while one settles something (at most 4). Levels with at most 20,000 open
        /// boards (levels 2-4 and 6-9) always get a proof-number search first, and levels with at
        /// most 1,000 (levels 0-5) the path search with up to 10,000,000 nodes per board; 0: only
        /// those
        #[arg(long, value_name = "N", default_value_t = 0)]
        search_nodes: u64,
        /// Build as one rank of an MPI job (`mpirun -np N oware egtb build --mpi ...`): each rank
        /// holds a slice of every level; the files are those of the one-process build; needs an
        /// oware built with `--features mpi`
        #[arg(long)]
        mpi: bool,
        /// With --mpi: how a rank reads lower-level values it does not hold: `mapped` (the files,
        /// memory-mapped from a shared file system), `replicated` (the files read whole into every
        /// rank) or `messages` (each rank keeps its slice and asks the owners; awari only)
        #[arg(long, value_name = "MODE", requires = "mpi")]
        lower: Option<LowerMode>,
        /// Testing the failure path: rank RANK kills itself (SIGKILL) while building level LEVEL
        #[arg(long, value_name = "RANK:LEVEL", hide = true, requires = "mpi")]
        test_kill_rank: Option<String>,
    },
    /// The value of a position and of each of its moves
    Probe {
        #[arg(long, short = 'r', value_name = "abapa|awari")]
        rules: RuleSet,
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Position as `h0-…-h11-southStore-northStore-S|N`
        #[arg(value_name = "POS")]
        position: String,
        /// One JSON object: {"seeds": k, "value": v, "exact": b, "moves": {"A": v, …}}; when not
        /// exact (abapa bounds), values are lower bounds
        #[arg(long)]
        json: bool,
    },
    /// Check each level's file (header, size, checksum) and every entry against its moves, naming
    /// the entries that break the rules. This cannot see an entry changed to a value its moves still
    /// allow (an awari cycle's 0 and a consistent loop of other values satisfy the same rules; an
    /// abapa board with a move in the level only has to meet a range): --deep sees those
    Verify {
        #[arg(long, short = 'r', value_name = "abapa|awari")]
        rules: RuleSet,
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
        /// Check N entries of each level against their moves instead of all of them: evenly spaced
        /// from the first, the same ones on every run (for databases too large for the full pass)
        #[arg(long, value_name = "N", conflicts_with = "deep")]
        sample: Option<u64>,
        /// Solve each level again in memory from the levels below it as stored and compare it byte
        /// for byte, naming the first entries that differ; takes the time and memory of building the
        /// levels
        #[arg(long)]
        deep: bool,
        /// With --deep, abapa: the --search-nodes the levels were built with (the searches settle
        /// more boards with more nodes, and the files do not record it)
        #[arg(long, value_name = "N", default_value_t = 0, requires = "deep")]
        search_nodes: u64,
    },
    /// Per level: positions, wins/draws/losses for the mover, exact entries (abapa: and the open
    /// ones by how far apart their bounds are, hi - lo = 1, 2, 3 or more seeds)
    Stats {
        #[arg(long, short = 'r', value_name = "abapa|awari")]
        rules: RuleSet,
        #[arg(long, value_name = "DIR")]
        dir: PathBuf,
    },
}

pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        EgtbCommand::Build {
            rules,
            max_seeds,
            dir,
            threads,
            search_nodes,
            mpi,
            lower,
            test_kill_rank,
        } => {
            if mpi {
                let lower = lower.unwrap_or(LowerMode::Mapped);
                let kill = test_kill_rank
                    .map(|text| {
                        text.parse::<KillRank>()
                            .map_err(|e| Exit::bad_input(format!("--test-kill-rank {e}")))
                    })
                    .transpose()?;
                let search = SearchBudget::Auto(search_nodes);
                run_build_mpi(rules, max_seeds, dir, threads, lower, search, kill)
            } else {
                run_build(rules, max_seeds, dir, threads, search_nodes)
            }
        }
        EgtbCommand::Probe {
            rules,
            dir,
            position,
            json,
        } => run_probe(rules, dir, &position, json),
        EgtbCommand::Verify {
            rules,
            dir,
            sample,
            deep,
            search_nodes,
        } => {
            let how = match (deep, sample) {
                (true, _) => Verification::Deep(SearchBudget::Auto(search_nodes)),
                (false, Some(0)) => return Err(Exit::bad_input("--sample must be at least 1")),
                (false, Some(n)) => Verification::Entries(Entries::Sample(n)),
                (false, None) => Verification::Entries(Entries::All),
            };
            run_verify(rules, dir, how)
        }
        EgtbCommand::Stats { rules, dir } => run_stats(rules, dir),
    }
}

/// `--threads` as given (`None`: one per core), at least 1.
fn threads_arg(threads: Option<usize>) -> anyhow::Result<Option<NonZeroUsize>> {
    match threads {
        Some(0) => Err(Exit::bad_input("--threads must be at least 1")),
        t => Ok(t.and_then(NonZeroUsize::new)),
    }
}

fn pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads_arg(threads)? {
        builder = builder.num_threads(t.get());
    }
    builder.build().context("starting worker threads")
}

fn run_build(
    rules: RuleSet,
    max_seeds: usize,
    dir: PathBuf,
    threads: Option<usize>,
    search_nodes: u64,
) -> anyhow::Result<()> {
    check_max_seeds(rules, max_seeds).map_err(|e| Exit::bad_input(e.to_string()))?;
    let pool = pool(threads)?;
    let cores = pool.current_num_threads();
    let mut store = DirStore::new(&dir);
    let bar = progress_bar(pending_work(&store, rules, max_seeds)?);
    let started = Instant::now();
    let mut built = 0u64;
    pool.install(|| {
        build_with(
            &mut store,
            rules,
            max_seeds,
            SearchBudget::Auto(search_nodes),
            &|boards| bar.inc(boards),
            |level| {
                let line = if level.reused {
                    format!(
                        "level {:2}: {:>12} positions, already built",
                        level.seeds, level.boards
                    )
                } else {
                    built += level.boards;
                    let rate = level.boards as f64 / level.seconds.max(1e-9);
                    format!(
                    "level {:2}: {:>12} positions, {:8.2} s, {:>12.0} positions/s/core, {} exact",
                    level.seeds,
                    level.boards,
                    level.seconds,
                    rate / cores as f64,
                    level.exact
                )
                };
                // A hidden bar (not a terminal) drops its printed lines: print those directly.
                if bar.is_hidden() {
                    println!("{line}");
                } else {
                    bar.println(line);
                }
            },
        )
    })?;
    bar.finish_and_clear();
    println!(
        "built {built} positions of {rules} in {:.2} s on {cores} threads, files in {}",
        started.elapsed().as_secs_f64(),
        dir.display()
    );
    Ok(())
}

#[cfg(not(feature = "mpi"))]
fn run_build_mpi(
    _: RuleSet,
    _: usize,
    _: PathBuf,
    _: Option<usize>,
    _: LowerMode,
    _: SearchBudget,
    _: Option<KillRank>,
) -> anyhow::Result<()> {
    Err(Exit::bad_input(
        "--mpi: this oware was built without MPI support; build it with `cargo build --release \
         -p oware-cli --features mpi` (needs Open MPI: apt-get install openmpi-bin libopenmpi-dev \
         libclang-dev) and run it under mpirun",
    ))
}

#[cfg(feature = "mpi")]
fn run_build_mpi(
    rules: RuleSet,
    max_seeds: usize,
    dir: PathBuf,
    threads: Option<usize>,
    lower: LowerMode,
    search: SearchBudget,
    kill: Option<KillRank>,
) -> anyhow::Result<()> {
    use oware_egtb_build::distributed::job::{
        run_mpi_build, JobEvent, MpiBuildRequest, MpiJobError,
    };
    use oware_egtb_build::distributed::{check_request, LevelEvent};

    check_request(rules, max_seeds, lower).map_err(|e| Exit::bad_input(e.to_string()))?;
    let request = MpiBuildRequest {
        rules,
        max_seeds,
        dir,
        threads: threads_arg(threads)?,
        lower,
        search,
        kill,
        program: "oware egtb build",
    };
    // Only rank 0 draws, a bar per level; the solver's threads reach it through a lock.
    let bar = std::sync::Mutex::new(None::<indicatif::ProgressBar>);
    let progress = |units: u64| {
        if let Ok(guard) = bar.lock() {
            if let Some(b) = guard.as_ref() {
                b.inc(units);
            }
        }
    };
    let summary = run_mpi_build(&request, &progress, |at, event| match event {
        JobEvent::Level(LevelEvent::Started { work, .. }) => {
            if let (0, Ok(mut guard)) = (at.rank, bar.lock()) {
                *guard = Some(progress_bar(work));
            }
        }
        JobEvent::Level(LevelEvent::Finished(level)) => {
            if let Some(b) = bar.lock().ok().and_then(|mut g| g.take()) {
                b.finish_and_clear();
            }
            if at.rank != 0 {
                return;
            }
            if level.reused {
                println!(
                    "level {:2}: {:>12} positions, already built",
                    level.seeds, level.boards
                );
                return;
            }
            let rate = level.boards as f64 / level.seconds.max(1e-9);
            println!(
                "level {:2}: {:>12} positions, {:8.2} s, {:>10.0} positions/s/rank, \
                 {:>12} bytes exchanged ({:.2} per position) in {} exchanges, \
                 {:.2} s waiting per rank, {} ranks",
                level.seeds,
                level.boards,
                level.seconds,
                rate / level.ranks as f64,
                level.bytes_exchanged,
                level.bytes_exchanged as f64 / level.boards.max(1) as f64,
                level.exchanges,
                level.waited,
                level.ranks
            );
        }
        JobEvent::Failed(e) => {
            eprintln!("oware egtb build (rank {} of {}): {e}", at.rank, at.ranks)
        }
    })
    .map_err(|e| match e {
        MpiJobError::Request(e) => Exit::bad_input(e.to_string()),
        e => e.into(),
    })?;
    if summary.place.rank == 0 {
        println!(
            "built {} positions of {rules} in {:.2} s on {} ranks ({lower} lower levels), files in {}",
            summary.built,
            summary.seconds,
            summary.place.ranks,
            request.dir.display()
        );
    }
    Ok(())
}

/// A progress bar for `total` work units with rate and time left, drawn on standard error, and
/// silent when standard error is not a terminal.
fn progress_bar(total: u64) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(total),
        indicatif::ProgressDrawTarget::stderr_with_hz(4),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {percent}% {per_sec} left {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Opens the database, and says on standard error which level files it leaves unused.
fn open(dir: &Path, rules: RuleSet) -> anyhow::Result<Tablebase> {
    let tb = Tablebase::open(dir, rules)?;
    if let Some(unused) = tb.unused_levels() {
        eprintln!("oware: warning: {unused}");
    }
    Ok(tb)
}

fn run_probe(rules: RuleSet, dir: PathBuf, text: &str, json: bool) -> anyhow::Result<()> {
    let position = parse_position(text)?;
    let tb = open(&dir, rules)?;
    let seeds = position.board_seeds() as usize;
    let not_covered = || {
        anyhow::anyhow!(
            "the board holds {seeds} seeds; the {rules} database in {} covers up to {}",
            dir.display(),
            tb.max_seeds()
        )
    };
    let probe = tb.probe(&position).ok_or_else(not_covered)?;
    let moves = tb.move_values(&position).ok_or_else(not_covered)?;
    if json {
        let moves: Vec<String> = moves
            .iter()
            .map(|(m, p)| format!("\"{m}\": {}", p.value))
            .collect();
        println!(
            "{{\"seeds\": {seeds}, \"value\": {}, \"exact\": {}, \"moves\": {{{}}}}}",
            probe.value,
            probe.exact,
            moves.join(", ")
        );
        return Ok(());
    }
    let units = match rules {
        RuleSet::Awari => "seed difference for the mover",
        RuleSet::Abapa => "seeds the mover ends with, no earlier history",
    };
    let describe = |p: &oware_egtb::ProbeValue| {
        if p.exact {
            format!("{}", p.value)
        } else {
            format!("{}..{} (bounds)", p.lower, p.upper)
        }
    };
    println!("seeds {seeds}, {units}: {}", describe(&probe));
    for (m, p) in &moves {
        println!("  {m} {}", describe(p));
    }
    if moves.is_empty() {
        println!("  (no moves: the game is over)");
    }
    Ok(())
}

/// What `verify` checks beyond each file's header, size and checksum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verification {
    /// Entries against their moves.
    Entries(Entries),
    /// Each level solved again and compared byte for byte.
    Deep(SearchBudget),
}

fn run_verify(rules: RuleSet, dir: PathBuf, how: Verification) -> anyhow::Result<()> {
    // Not `open`: unused levels make the verdict below, said once.
    let tb = Tablebase::open(&dir, rules)?;
    let mut bad = 0;
    for seeds in 0..=tb.max_seeds() {
        let check = match how {
            Verification::Entries(which) => verify_entries(tb.levels(), seeds, which)?,
            Verification::Deep(search) => deep_verify_level(tb.levels(), seeds, search, &())?,
        };
        let boards = tb.levels().level(seeds).map_or(0, |(i, _)| i.count());
        let checked = if check.boards == boards {
            format!("{boards:>12} positions")
        } else {
            format!("{:>12} of {boards} positions", check.boards)
        };
        if check.bad == 0 {
            let ok = match how {
                Verification::Entries(_) => "ok",
                Verification::Deep(_) => "ok, identical when solved again",
            };
            println!("level {seeds:2}: {checked}, {ok}");
        } else {
            let what = match how {
                Verification::Entries(_) => "breaking the rules",
                Verification::Deep(_) => "differing from the level solved again",
            };
            let entries = match check.bad {
                1 => "1 entry".to_string(),
                n => format!("{n} entries"),
            };
            println!("level {seeds:2}: {checked}, {entries} {what}");
            for e in &check.examples {
                println!("  {}", describe_bad_entry(seeds, e, how));
            }
        }
        bad += check.bad;
    }
    if bad > 0 {
        if let (RuleSet::Abapa, Verification::Deep(SearchBudget::Auto(nodes))) = (rules, how) {
            eprintln!(
                "oware egtb verify: abapa levels were solved again with --search-nodes {nodes}; \
                 levels built with another value differ where the searches settled more or fewer \
                 boards: give the build's value"
            );
        }
        match how {
            Verification::Entries(_) => anyhow::bail!("entries breaking the rules: {bad}"),
            Verification::Deep(_) => {
                anyhow::bail!("entries differing from the levels solved again: {bad}")
            }
        }
    }
    // Files above a missing level cannot be verified (their moves lead into the missing level),
    // and no probe uses them: the database is not what the directory's files suggest.
    if let Some(unused) = tb.unused_levels() {
        anyhow::bail!("levels 0-{} verified, but {unused}", tb.max_seeds());
    }
    let levels = tb.max_seeds() + 1;
    match how {
        Verification::Entries(Entries::All) => println!("all {levels} levels verified"),
        Verification::Entries(Entries::Sample(n)) => {
            println!("all {levels} levels verified on a sample of up to {n} entries each")
        }
        Verification::Deep(_) => {
            println!("all {levels} levels verified, each identical when solved again")
        }
    }
    Ok(())
}

/// A wrong entry in words: where it is, the board as a position (South to move; the stores hold
/// the seeds off the board), what is stored and what it should be.
fn describe_bad_entry(seeds: usize, e: &BadEntry, how: Verification) -> String {
    let position = Position::from_board(e.board, Side::South)
        .map_or_else(|| format!("{:?}", e.board), |p| p.to_string());
    let stored = e
        .stored
        .map_or_else(|| "no valid code".to_string(), describe_bounds);
    let should = match how {
        Verification::Deep(_) => "solved again",
        Verification::Entries(_) if e.derived.fixed => "its moves say it must be",
        Verification::Entries(_) => "its moves say it must meet",
    };
    format!(
        "level {seeds} entry {} (position {position}): stored {stored}, {should} {}",
        e.index,
        describe_bounds(e.derived.bounds)
    )
}

/// Bounds in the rule set's units: one value when exact, `lo..hi` otherwise.
fn describe_bounds(b: Bounds) -> String {
    if b.is_exact() {
        b.lo.to_string()
    } else {
        format!("{}..{}", b.lo, b.hi)
    }
}

fn run_stats(rules: RuleSet, dir: PathBuf) -> anyhow::Result<()> {
    let tb = open(&dir, rules)?;
    println!("{}", stats_header(rules));
    for seeds in 0..=tb.max_seeds() {
        println!("{}", stats_line(rules, &level_stats(tb.levels(), seeds)?));
    }
    Ok(())
}

/// The header of `stats`: abapa adds the open entries by the width of their bounds, `hi - lo` in
/// seeds (awari's entries are all exact).
fn stats_header(rules: RuleSet) -> String {
    let mut line = format!(
        "{:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>7}",
        "level", "positions", "wins", "draws", "losses", "unknown", "exact", "exact%"
    );
    if rules == RuleSet::Abapa {
        line += &format!(" {:>10} {:>10} {:>10}", "hi-lo=1", "hi-lo=2", "hi-lo>=3");
    }
    line
}

fn stats_line(rules: RuleSet, s: &LevelStats) -> String {
    let mut line = format!(
        "{:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12} {:>6.1}%",
        s.seeds,
        s.boards,
        s.wins,
        s.draws,
        s.losses,
        s.unknown,
        s.exact,
        100.0 * s.exact as f64 / s.boards as f64
    );
    if rules == RuleSet::Abapa {
        let [one, two, more] = s.open_by_width;
        line += &format!(" {one:>10} {two:>10} {more:>10}");
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level() -> LevelStats {
        LevelStats {
            seeds: 12,
            boards: 1_352_078,
            wins: 500_000,
            draws: 1_000,
            losses: 400_000,
            unknown: 451_078,
            exact: 471_422,
            open_by_width: [300_000, 200_000, 380_656],
        }
    }

    /// abapa's line gives the open entries by width, each under its heading; awari's has no such
    /// columns (every entry exact).
    #[test]
    fn abapa_stats_show_how_far_apart_the_open_bounds_are() {
        let header = stats_header(RuleSet::Abapa);
        let line = stats_line(RuleSet::Abapa, &level());
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        let (header, line) = (words(&header), words(&line));
        assert_eq!(header.len(), line.len());
        let column = |name: &str| line[header.iter().position(|h| h == name).unwrap()].clone();
        assert_eq!(column("exact"), "471422");
        assert_eq!(column("exact%"), "34.9%");
        assert_eq!(column("hi-lo=1"), "300000");
        assert_eq!(column("hi-lo=2"), "200000");
        assert_eq!(column("hi-lo>=3"), "380656");
        // Columns line up: the header and the line have the same width.
        assert_eq!(
            stats_header(RuleSet::Abapa).len(),
            stats_line(RuleSet::Abapa, &level()).len()
        );
        assert!(!stats_header(RuleSet::Awari).contains("hi-lo"));
        assert_eq!(
            stats_header(RuleSet::Awari).split_whitespace().count(),
            stats_line(RuleSet::Awari, &level())
                .split_whitespace()
                .count()
        );
    }
}
