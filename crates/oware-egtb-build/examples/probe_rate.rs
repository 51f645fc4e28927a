//! Probe throughput of a database directory: `Tablebase::probe` over random positions of one level,
//! as the engine's search probes them, in probes per second on one thread; then the same through
//! the engine's probes: `TablebaseProbe` (databases opened once) and `LiveProbe` (databases that
//! grow while in use, as those built on first use), whose difference is the cost of growing.
//!
//! `cargo run --release -p oware-egtb-build --example probe_rate -- awari 14 [DIR] [SECONDS]`
//!
//! The levels 0..=N are built first where DIR lacks them (without DIR, into a temporary directory
//! removed after). The positions are drawn uniformly from the boards of level N (South to move), so most probes read
//! the top level's file at random places, the database's worst case for caches.

use std::time::{Duration, Instant};

use oware_egtb::index::{IndexKind, LevelIndex};
use oware_egtb::Tablebase;
use oware_egtb_build::build::build;
use oware_egtb_build::store::DirStore;
use oware_engine::tablebase::{LiveProbe, TablebaseProbe};
use oware_engine::Probe;
use oware_rules::{Position, RuleSet, Side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: probe_rate abapa|awari N [DIR] [SECONDS]";
    let rules: RuleSet = args.first().ok_or(usage)?.parse()?;
    let seeds: usize = args.get(1).ok_or(usage)?.parse()?;
    let seconds: f64 = args.get(3).map_or(Ok(2.0), |s| s.parse())?;
    let temp;
    let dir = match args.get(2) {
        Some(dir) => std::path::PathBuf::from(dir),
        None => {
            temp = tempfile::tempdir()?;
            temp.path().to_path_buf()
        }
    };
    let started = Instant::now();
    build(&mut DirStore::new(&dir), rules, seeds, &(), |_| {})?;
    eprintln!(
        "{rules} 0..={seeds} built or checked in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let tb = Tablebase::open(&dir, rules)?;
    if tb.max_seeds() < seeds {
        return Err(format!(
            "{} holds {rules} up to {} only",
            dir.display(),
            tb.max_seeds()
        )
        .into());
    }
    let full = LevelIndex::new(seeds, IndexKind::Full);
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        // xorshift64*: reproducible, and no dependency for an example.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    let positions: Vec<Position> = (0..1 << 16)
        .map(|_| {
            let board = full
                .unrank(next() % full.count())
                .expect("rank below count");
            Position::from_board(board, Side::South).expect("at most 48 seeds")
        })
        .collect();
    // Three rounds of each, in turn, each round a third of SECONDS: the best round of each is the
    // least disturbed by other work on the machine.
    let budget = Duration::from_secs_f64(seconds / 3.0);
    let rate = |probe: &dyn Fn(&Position) -> bool| {
        let started = Instant::now();
        let (mut probes, mut answered) = (0u64, 0u64);
        while started.elapsed() < budget {
            for p in &positions {
                answered += probe(p) as u64;
            }
            probes += positions.len() as u64;
        }
        (
            probes as f64 / started.elapsed().as_secs_f64() / 1e6,
            answered,
        )
    };
    let live = LiveProbe::new(rules);
    live.publish(TablebaseProbe::open(&dir, rules)?);
    let fixed = TablebaseProbe::new(tb);
    let tb = fixed.tablebase();
    let (mut best, mut answered) = ([0f64; 3], 0);
    for _ in 0..3 {
        let (direct, n) = rate(&|p| tb.probe(p).is_some());
        let (opened, _) = rate(&|p| fixed.probe(p, rules).is_some());
        let (growing, _) = rate(&|p| live.probe(p, rules).is_some());
        for (b, r) in best.iter_mut().zip([direct, opened, growing]) {
            *b = b.max(r);
        }
        answered = n;
    }
    println!(
        "{rules} level {seeds} ({} entries), million probes/s on one thread, best of 3 rounds: \
         {:.2} Tablebase::probe ({answered} of a round's probes answered), through the engine's \
         probe {:.2} opened once (TablebaseProbe), {:.2} growing (LiveProbe)",
        LevelIndex::new(seeds, oware_egtb::values::index_kind(rules)).count(),
        best[0],
        best[1],
        best[2],
    );
    Ok(())
}
