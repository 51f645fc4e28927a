//! The level loop of a distributed build: which levels are there, each missing one solved by slices,
//! written as parts and assembled by rank 0, every step's outcome decided by rank 0 for all.

use std::path::Path;
use std::time::Instant;

use oware_egtb::file::open_level;
use oware_egtb::index::LevelIndex;
use oware_egtb::values::{index_kind, max_level};
use oware_egtb::EgtbError;
use oware_rules::RuleSet;

use super::parts::{assemble, part_path, remove_leftovers, write_part};
use super::{
    solve_slice, DistributedError, DistributedLevelReport, LevelEvent, LowerMode, RankLevels,
};
use crate::transport::{all_sum, broadcast, Counted, Slices, Transport};
use crate::Progress;

/// Status words sent to rank 0 and back.
const OK: u8 = 0;
const FAILED: u8 = 1;

fn status(result: &Result<Vec<u8>, String>) -> Vec<u8> {
    match result {
        Ok(payload) => [&[OK][..], payload].concat(),
        Err(message) => [&[FAILED][..], message.as_bytes()].concat(),
    }
}

/// Collective: rank 0's outcome of a step on every rank; an error names the level.
fn decided_by_root(
    t: &dyn Transport,
    seeds: usize,
    outcome: Result<Vec<u8>, EgtbError>,
) -> Result<Vec<u8>, DistributedError> {
    let wire = broadcast(
        t,
        &status(
            &outcome
                .as_ref()
                .map(Clone::clone)
                .map_err(|e| e.to_string()),
        ),
    )
    .map_err(|source| DistributedError::Transport { seeds, source })?;
    match (t.rank(), outcome) {
        (0, Err(e)) => Err(e.into()),
        _ if wire.first() == Some(&OK) => Ok(wire[1..].to_vec()),
        _ => Err(DistributedError::Rank {
            seeds,
            rank: 0,
            message: String::from_utf8_lossy(wire.get(1..).unwrap_or_default()).into_owned(),
        }),
    }
}

/// Builds levels `0..=max_seeds` of `rules` into `dir` with the ranks of `t`, each holding its
/// slice; levels already in `dir` are reused (whatever number of ranks built them). Collective:
/// every rank calls it with the same arguments; every rank sees the same events.
pub fn build_distributed(
    t: &dyn Transport,
    dir: &Path,
    rules: RuleSet,
    max_seeds: usize,
    mode: LowerMode,
    progress: &dyn Progress,
    mut on_event: impl FnMut(LevelEvent),
) -> Result<(), DistributedError> {
    if max_seeds > max_level(rules) {
        return Err(EgtbError::LevelTooHigh {
            rules,
            seeds: max_seeds,
            max: max_level(rules),
        }
        .into());
    }
    let t = Counted::new(t);
    let me = t.rank();
    let ranks = t.size();
    let leftovers = if me == 0 {
        remove_leftovers(dir, rules).map(|()| Vec::new())
    } else {
        Ok(Vec::new())
    };
    decided_by_root(&t, 0, leftovers)?;
    let mut lower = RankLevels::new(rules, mode);
    for seeds in 0..=max_seeds {
        let started = Instant::now();
        let (sent_before, exchanges_before, waited_before) = (t.sent(), t.exchanges(), t.waited());
        let index = LevelIndex::new(seeds, index_kind(rules));
        let slices = Slices::new(index.count(), ranks);
        let transport_error = |source| DistributedError::Transport { seeds, source };
        // Whether the level is there: rank 0 opens (and checks) it, everyone learns the answer.
        let found = if me == 0 {
            open_level(dir, rules, seeds).map(|f| vec![f.is_some() as u8])
        } else {
            Ok(Vec::new())
        };
        let reused = decided_by_root(&t, seeds, found)? == [1];
        let mut slice = None;
        if !reused {
            if rules != RuleSet::Awari {
                return Err(DistributedError::SingleProcessOnly { rules });
            }
            let work = (slices.range(me).end - slices.range(me).start) * (1 + seeds as u64);
            on_event(LevelEvent::Started { seeds, work });
            let entries = solve_slice(&t, &index, &lower, progress).map_err(transport_error)?;
            // Every rank reports its part to rank 0, which writes the file only if all succeeded.
            let part = part_path(dir, rules, seeds, me, ranks);
            let report = write_part(&part, &entries)
                .map(|crc| {
                    let mut r = (entries.len() as u64).to_le_bytes().to_vec();
                    r.extend_from_slice(&crc.to_le_bytes());
                    r
                })
                .map_err(|e| e.to_string());
            let mut outgoing = vec![Vec::new(); ranks];
            outgoing[0] = status(&report);
            let reports = t.exchange(outgoing).map_err(transport_error)?;
            let assembled = if me == 0 {
                let mut parts = Vec::with_capacity(ranks);
                let mut failed = None;
                for (rank, r) in reports.iter().enumerate() {
                    match (r.first(), r.len()) {
                        (Some(&OK), 13) => parts.push((
                            u64::from_le_bytes(r[1..9].try_into().expect("8 bytes")),
                            u32::from_le_bytes(r[9..13].try_into().expect("4 bytes")),
                        )),
                        _ => {
                            failed.get_or_insert_with(|| {
                                format!(
                                    "rank {rank} could not write its part: {}",
                                    String::from_utf8_lossy(r.get(1..).unwrap_or_default())
                                )
                            });
                        }
                    }
                }
                match failed {
                    Some(message) => Err(EgtbError::Io {
                        path: dir.to_path_buf(),
                        source: std::io::Error::other(message),
                    }),
                    None => assemble(dir, rules, seeds, index.count(), &parts)
                        .and_then(|()| open_level(dir, rules, seeds).map(|_| Vec::new())),
                }
            } else {
                Ok(Vec::new())
            };
            decided_by_root(&t, seeds, assembled)?;
            slice = Some(entries);
        }
        let file = match (&lower, &slice) {
            (RankLevels::Sliced { .. }, Some(_)) => None,
            _ => Some(
                open_level(dir, rules, seeds)?.ok_or_else(|| EgtbError::MissingLevel {
                    dir: dir.to_path_buf(),
                    rules,
                    seeds,
                })?,
            ),
        };
        lower.push(mode, file, slice, slices.range(me));
        let exchanges = t.exchanges() - exchanges_before;
        let bytes_exchanged = all_sum(&t, t.sent() - sent_before).map_err(transport_error)?;
        let waited_ns = (t.waited() - waited_before).as_nanos() as u64;
        let waited = all_sum(&t, waited_ns).map_err(transport_error)? as f64 / 1e9 / ranks as f64;
        on_event(LevelEvent::Finished(&DistributedLevelReport {
            seeds,
            boards: index.count(),
            reused,
            seconds: started.elapsed().as_secs_f64(),
            ranks,
            bytes_exchanged,
            exchanges,
            waited,
        }));
    }
    Ok(())
}
