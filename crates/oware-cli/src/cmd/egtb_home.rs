//! The endgame databases `oware serve`, `play` and `engine` use when given no `--egtb DIR` and no
//! `--no-egtb`: those of the user's data directory, checked and, where levels are missing, built in
//! a background thread ([`oware_egtb_build::home`]), each level handed to the search as it is
//! written. Progress goes to standard error, never to standard output (the engine protocol's).

use std::path::Path;
use std::sync::Arc;

use oware_egtb_build::home::{self, HomeEvent};
use oware_engine::tablebase::{LiveProbe, TablebaseProbe};
use oware_rules::RuleSet;

use super::Exit;

/// Which lines to write as the databases grow.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Report {
    /// Each level as it is handed to the search (a server's or an engine's log).
    EachLevel,
    /// The databases in use at the start, and once the build is done (an interactive terminal).
    StartAndEnd,
}

/// Starts the data directory's databases of the rule sets `rules` (in that order; each of them
/// built up to its first-use level): returns one [`LiveProbe`] per rule set, which the background
/// thread fills. `None`, said on standard error, when there is no data directory (neither
/// `XDG_DATA_HOME` nor `HOME` is set). `who` starts each line (`oware serve`).
pub fn start(
    who: &'static str,
    rules: &[RuleSet],
    report: Report,
) -> anyhow::Result<Option<Vec<Arc<LiveProbe>>>> {
    let first_use = home::first_use_levels().map_err(|e| Exit::bad_input(e.to_string()))?;
    let plan: Vec<(RuleSet, usize)> = rules
        .iter()
        .filter_map(|r| first_use.iter().find(|(f, _)| f == r).copied())
        .collect();
    let Some(dir) = home::data_dir() else {
        eprintln!(
            "{who}: no endgame databases: neither XDG_DATA_HOME nor HOME is set, so there is no \
             data directory to keep them in (--egtb DIR names a directory)"
        );
        return Ok(None);
    };
    let probes: Vec<Arc<LiveProbe>> = plan
        .iter()
        .map(|&(r, _)| Arc::new(LiveProbe::new(r)))
        .collect();
    let handed = probes.clone();
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::Builder::new()
        .name("oware-egtb-home".into())
        .spawn(move || build(who, &dir, &plan, threads, &handed, report))?;
    Ok(Some(probes))
}

/// The background thread: checks and builds, hands each set of levels over, and says so.
fn build(
    who: &'static str,
    dir: &Path,
    plan: &[(RuleSet, usize)],
    threads: usize,
    probes: &[Arc<LiveProbe>],
    report: Report,
) {
    let said_of = |probes: &[Arc<LiveProbe>]| {
        probes
            .iter()
            .filter_map(|p| Some(format!("{} up to {} seeds", p.rules(), p.max_seeds()?)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut built_any = false;
    let result = home::prepare(dir, plan, threads, &mut |event| match event {
        HomeEvent::Waiting { lock } => eprintln!(
            "{who}: another oware is checking or building the endgame databases (it holds {}); \
             waiting for it",
            lock.display()
        ),
        HomeEvent::Removed { error, .. } => {
            eprintln!("{who}: removed a damaged endgame database file, to be rebuilt: {error}")
        }
        HomeEvent::Building { rules, from, to } => {
            built_any = true;
            let levels = if from == to {
                format!("level {to}")
            } else {
                format!("levels {from}-{to}")
            };
            eprintln!(
                "{who}: building the {rules} endgame databases ({levels}) in {} in the \
                 background; each level is used as soon as it is built",
                dir.display()
            );
        }
        HomeEvent::Built { .. } => {}
        HomeEvent::Ready(tablebase) => {
            let rules = tablebase.rules();
            let max = tablebase.max_seeds();
            let Some(probe) = probes.iter().find(|p| p.rules() == rules) else {
                return;
            };
            let first = probe.max_seeds().is_none();
            let mut tablebase = TablebaseProbe::new(tablebase);
            tablebase.set_on_change(Arc::new(move |e| eprintln!("{who}: {e}")));
            probe.publish(tablebase);
            if report == Report::EachLevel || (first && !built_any) {
                let seeds = if max == 1 { "seed" } else { "seeds" };
                eprintln!(
                    "{who}: the computer uses the {rules} endgame databases up to {max} {seeds}"
                );
            }
        }
    });
    match result {
        Err(e) => eprintln!(
            "{who}: the endgame databases in {} cannot be built: {e}; playing on with {}",
            dir.display(),
            match said_of(probes) {
                s if s.is_empty() => "none".to_string(),
                s => s,
            }
        ),
        Ok(()) if built_any => eprintln!(
            "{who}: the endgame databases are built: {}",
            said_of(probes)
        ),
        Ok(()) => {}
    }
}
