//! The level loop of a distributed build: which levels are there, each missing one solved by slices,
//! written as parts and assembled by rank 0, every step's outcome decided by rank 0 for all.

use std::path::Path;
use std::time::Instant;

use oware_egtb::file::open_level;
use oware_egtb::index::LevelIndex;
use oware_egtb::values::index_kind;
use oware_egtb::EgtbError;
use oware_rules::RuleSet;

use super::parts::{assemble, part_path, remove_leftovers, write_part, PartReport};
use super::searches::refine_slice;
use super::transport::{all_sum, broadcast, Counted, Slices, Transport, TransportError};
use super::{
    check_request, solve_slice, DistributedError, DistributedLevelReport, LevelEvent, LowerMode,
    RankLevels,
};
use crate::refine::SearchBudget;
use crate::Progress;

/// Status words sent to rank 0 and back.
const OK: u8 = 0;
const FAILED: u8 = 1;

/// A step's outcome on the wire: [`OK`] and its payload, or [`FAILED`] and the error's text.
fn status(result: &Result<Vec<u8>, String>) -> Vec<u8> {
    match result {
        Ok(payload) => [&[OK][..], payload].concat(),
        Err(message) => [&[FAILED][..], message.as_bytes()].concat(),
    }
}

/// The outcome [`status`] sent: the payload, or the error's text (empty if nothing came).
fn read_status(wire: &[u8]) -> Result<&[u8], String> {
    match wire.split_first() {
        Some((&OK, payload)) => Ok(payload),
        Some((_, message)) => Err(String::from_utf8_lossy(message).into_owned()),
        None => Err(String::new()),
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
    .map_err(|error| DistributedError::Transport { seeds, error })?;
    match (t.rank(), outcome) {
        (0, Err(e)) => Err(e.into()),
        _ => read_status(&wire)
            .map(<[u8]>::to_vec)
            .map_err(|message| DistributedError::Rank {
                seeds,
                rank: 0,
                message,
            }),
    }
}

/// Rank 0: the parts every rank reported, or the first failure's message.
fn parts_reported(reports: &[Vec<u8>]) -> Result<Vec<PartReport>, String> {
    reports
        .iter()
        .enumerate()
        .map(|(rank, wire)| {
            let report = read_status(wire).and_then(|payload| {
                PartReport::from_bytes(payload)
                    .ok_or_else(|| format!("a report of {} bytes", payload.len()))
            });
            report.map_err(|message| format!("rank {rank} could not write its part: {message}"))
        })
        .collect()
}

/// Builds levels `0..=max_seeds` of `rules` into `dir` with the ranks of `t`, each holding its
/// slice, abapa levels searched as `search` says (as [`crate::build::build_with`] does); levels
/// already in `dir` are reused (whatever number of ranks built them). Collective: every rank calls
/// it with the same arguments; every rank sees the same events.
#[allow(clippy::too_many_arguments)]
pub fn build_distributed(
    t: &dyn Transport,
    dir: &Path,
    rules: RuleSet,
    max_seeds: usize,
    mode: LowerMode,
    search: SearchBudget,
    progress: &dyn Progress,
    mut on_event: impl FnMut(LevelEvent),
) -> Result<(), DistributedError> {
    check_request(rules, max_seeds, mode)?;
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
        let transport_error = |error| DistributedError::Transport { seeds, error };
        // Whether the level is there: rank 0 opens (and checks) it, everyone learns the answer.
        let found = if me == 0 {
            open_level(dir, rules, seeds).map(|f| vec![f.is_some() as u8])
        } else {
            Ok(Vec::new())
        };
        let reused = decided_by_root(&t, seeds, found)? == [1];
        let mut slice = None;
        if !reused {
            let work = (slices.range(me).end - slices.range(me).start) * (1 + seeds as u64);
            on_event(LevelEvent::Started { seeds, work });
            let mut entries =
                solve_slice(&t, rules, &index, &lower, progress).map_err(transport_error)?;
            if rules == RuleSet::Abapa {
                let whole = lower.whole().ok_or_else(|| {
                    transport_error(TransportError(
                        "abapa's searches need whole lower levels".into(),
                    ))
                })?;
                entries =
                    refine_slice(&t, &index, whole, entries, search).map_err(transport_error)?;
            }
            // Every rank reports its part to rank 0, which writes the file only if all succeeded.
            let part = part_path(dir, rules, seeds, me, ranks);
            // A mapped lower level whose file changed meanwhile was read as zeros: this part is
            // not written, so the level is not assembled from it.
            let report = lower
                .check_unchanged()
                .and_then(|()| write_part(&part, &entries))
                .map(|crc| {
                    PartReport {
                        len: entries.len() as u64,
                        crc,
                    }
                    .to_bytes()
                })
                .map_err(|e| e.to_string());
            let mut outgoing = vec![Vec::new(); ranks];
            outgoing[0] = status(&report);
            let reports = t.exchange(outgoing).map_err(transport_error)?;
            let assembled = if me == 0 {
                match parts_reported(&reports) {
                    Err(message) => Err(EgtbError::Io {
                        path: dir.to_path_buf(),
                        error: std::io::Error::other(message),
                    }),
                    Ok(parts) => assemble(dir, rules, seeds, index.count(), &parts)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_reports_read_back_as_sent() {
        let good = PartReport { len: 7, crc: 42 };
        let reports = vec![
            status(&Ok(good.to_bytes())),
            status(&Ok(PartReport { len: 9, crc: 1 }.to_bytes())),
        ];
        assert_eq!(
            parts_reported(&reports),
            Ok(vec![good, PartReport { len: 9, crc: 1 }])
        );
        let failed = vec![
            status(&Ok(good.to_bytes())),
            status(&Err("disk full".into())),
            status(&Err("later".into())),
        ];
        assert_eq!(
            parts_reported(&failed),
            Err("rank 1 could not write its part: disk full".into())
        );
        let truncated = vec![status(&Ok(good.to_bytes()[..5].to_vec()))];
        let message = parts_reported(&truncated).unwrap_err();
        assert!(
            message.starts_with("rank 0 could not write its part"),
            "{message}"
        );
        assert_eq!(read_status(&[]), Err(String::new()));
        assert_eq!(read_status(&status(&Ok(vec![1, 2]))), Ok(&[1u8, 2][..]));
    }
}
