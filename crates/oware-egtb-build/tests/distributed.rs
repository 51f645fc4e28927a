//! The distributed build over an in-process job (threads for ranks, the transport the MPI one
//! mirrors): the files it writes are the one-process build's, byte for byte, for any number of
//! ranks, any lower-level mode, and across a resume with another number of ranks.

use std::fs;
use std::path::Path;

use oware_egtb::file::file_name;
use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::index_kind;
use oware_egtb::values::max_level;
use oware_egtb::EgtbError;
use oware_egtb::Levels;
use oware_egtb_build::build::{build, build_in_memory};
use oware_egtb_build::distributed::{
    build_distributed, check_request, DistributedError, LevelEvent, LowerMode, RankLevels,
};
use oware_egtb_build::store::DirStore;
use oware_egtb_build::transport::{run_local, Slices, Transport};
use oware_egtb_build::{LowerLevels, SearchBudget};
use oware_rules::RuleSet;

const SEEDS: usize = 10;

fn one_process(dir: &Path, max_seeds: usize) {
    build(
        &mut DirStore::new(dir),
        RuleSet::Awari,
        max_seeds,
        &(),
        |_| {},
    )
    .unwrap();
}

fn distributed(dir: &Path, ranks: usize, max_seeds: usize, mode: LowerMode) -> Vec<usize> {
    let built = run_local(ranks, |t| {
        let mut built = Vec::new();
        build_distributed(t, dir, RuleSet::Awari, max_seeds, mode, &(), |e| {
            if let LevelEvent::Finished(r) = e {
                assert_eq!(r.ranks, ranks);
                if !r.reused {
                    built.push(r.seeds);
                }
            }
        })
        .unwrap();
        built
    });
    // Every rank saw the same levels built.
    for b in &built {
        assert_eq!(b, &built[0]);
    }
    built[0].clone()
}

fn same_files(a: &Path, b: &Path, max_seeds: usize) {
    for seeds in 0..=max_seeds {
        let name = file_name(RuleSet::Awari, seeds);
        let (x, y) = (
            fs::read(a.join(&name)).unwrap(),
            fs::read(b.join(&name)).unwrap(),
        );
        assert!(x == y, "{name} differs");
    }
    // Nothing else left behind (part files, temporary files).
    let names: Vec<_> = fs::read_dir(b)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), max_seeds + 1, "{names:?}");
}

#[test]
fn any_number_of_ranks_writes_the_one_process_files() {
    let reference = tempfile::tempdir().unwrap();
    one_process(reference.path(), SEEDS);
    let modes = [
        LowerMode::Mapped,
        LowerMode::Messages,
        LowerMode::Replicated,
    ];
    for ranks in 1..=4 {
        let mode = modes[ranks % 3];
        let dir = tempfile::tempdir().unwrap();
        let built = distributed(dir.path(), ranks, SEEDS, mode);
        assert_eq!(built, (0..=SEEDS).collect::<Vec<_>>());
        same_files(reference.path(), dir.path(), SEEDS);
    }
}

#[test]
fn a_stopped_build_resumes_with_another_number_of_ranks() {
    let reference = tempfile::tempdir().unwrap();
    one_process(reference.path(), SEEDS);
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        distributed(dir.path(), 3, 6, LowerMode::Messages),
        (0..=6).collect::<Vec<_>>()
    );
    // A part file a killed run left behind is cleared, not mistaken for a level.
    fs::write(
        dir.path()
            .join(format!("{}.part-1-of-3", file_name(RuleSet::Awari, 7))),
        b"junk",
    )
    .unwrap();
    assert_eq!(
        distributed(dir.path(), 2, SEEDS, LowerMode::Messages),
        (7..=SEEDS).collect::<Vec<_>>()
    );
    same_files(reference.path(), dir.path(), SEEDS);
}

/// Boards of every level up to `max_seeds`, a spread of each.
fn sample_boards(max_seeds: usize) -> Vec<(usize, Board)> {
    let mut out = Vec::new();
    for seeds in 0..=max_seeds {
        let index = LevelIndex::new(seeds, index_kind(RuleSet::Awari));
        let step = (index.count() / 97).max(1);
        for i in (0..index.count()).step_by(step as usize) {
            out.push((seeds, index.unrank(i).unwrap()));
        }
    }
    out
}

/// The message-based look-up answers what the whole levels say, on every rank, whatever each rank
/// asks (here: different boards per rank, and a rank that asks nothing).
#[test]
fn asking_the_owners_gives_the_mapped_values() {
    let max = 8;
    let levels: Levels = build_in_memory(RuleSet::Awari, max, SearchBudget::Auto(0)).unwrap();
    let boards = sample_boards(max);
    for ranks in [1, 2, 3] {
        let answers = run_local(ranks, |t| {
            let me = t.rank();
            let sliced = RankLevels::Sliced {
                rules: RuleSet::Awari,
                levels: (0..=max)
                    .map(|seeds| {
                        let (index, entries) = levels.level(seeds).unwrap();
                        let range = Slices::new(index.count(), ranks).range(me);
                        (
                            LevelIndex::new(seeds, index_kind(RuleSet::Awari)),
                            entries[range.start as usize..range.end as usize].to_vec(),
                        )
                    })
                    .collect(),
            };
            let mine: Vec<_> = if me == 1 {
                Vec::new()
            } else {
                boards.iter().skip(me).step_by(ranks).cloned().collect()
            };
            let got = sliced.resolve(t, &mine).unwrap();
            (mine, got)
        });
        let mut checked = 0;
        for (asked, got) in answers {
            assert_eq!(asked.len(), got.len());
            for ((seeds, board), b) in asked.iter().zip(got) {
                assert_eq!(levels.bounds(*seeds, board), b, "{board:?}");
                checked += 1;
            }
        }
        assert!(checked > 300 || ranks > 1, "{checked}");
    }
}

#[test]
fn abapa_is_refused_and_damaged_files_stop_every_rank() {
    let dir = tempfile::tempdir().unwrap();
    let refused = run_local(2, |t| {
        build_distributed(
            t,
            dir.path(),
            RuleSet::Abapa,
            3,
            LowerMode::Mapped,
            &(),
            |_| {},
        )
    });
    for r in refused {
        assert!(matches!(
            r,
            Err(DistributedError::SingleProcessOnly {
                rules: RuleSet::Abapa
            })
        ));
    }
    one_process(dir.path(), 4);
    let path = dir.path().join(file_name(RuleSet::Awari, 3));
    let mut bytes = fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    fs::write(&path, bytes).unwrap();
    let results = run_local(3, |t| {
        build_distributed(
            t,
            dir.path(),
            RuleSet::Awari,
            6,
            LowerMode::Mapped,
            &(),
            |_| {},
        )
        .map_err(|e| e.to_string())
    });
    for (rank, r) in results.iter().enumerate() {
        let message = r.as_ref().unwrap_err();
        assert!(message.contains("awari-03"), "rank {rank}: {message}");
    }
    // Nothing was built above the damaged level.
    assert!(!dir.path().join(file_name(RuleSet::Awari, 5)).exists());
}

/// What a distributed build cannot do is refused before any rank touches the directory: abapa, and
/// levels beyond the rule set's highest.
#[test]
fn impossible_requests_are_refused_before_anything_is_written() {
    let top = max_level(RuleSet::Awari);
    assert!(check_request(RuleSet::Awari, top).is_ok());
    assert!(matches!(
        check_request(RuleSet::Abapa, 3),
        Err(DistributedError::SingleProcessOnly {
            rules: RuleSet::Abapa
        })
    ));
    let too_high = |r: &Result<(), DistributedError>| {
        matches!(r, Err(DistributedError::Egtb(EgtbError::LevelTooHigh { seeds, max, .. }))
            if *seeds == top + 1 && *max == top)
    };
    assert!(too_high(&check_request(RuleSet::Awari, top + 1)));
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    for (rules, max_seeds) in [(RuleSet::Abapa, 3), (RuleSet::Awari, top + 1)] {
        let results = run_local(2, |t| {
            build_distributed(t, &db, rules, max_seeds, LowerMode::Mapped, &(), |_| {})
        });
        for r in &results {
            assert_eq!(
                r.as_ref().unwrap_err().to_string(),
                check_request(rules, max_seeds).unwrap_err().to_string()
            );
        }
        assert!(!db.exists(), "{rules}: the directory was created");
    }
}
