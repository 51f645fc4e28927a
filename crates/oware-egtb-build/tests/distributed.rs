//! The distributed build over an in-process job (threads for ranks, the transport the MPI one
//! mirrors): the files it writes are the one-process build's, byte for byte, for both rule sets,
//! any number of ranks, any lower-level mode, and across a resume with another number of ranks.

use std::fs;
use std::path::Path;

use oware_egtb::file::file_name;
use oware_egtb::index::{Board, LevelIndex};
use oware_egtb::values::index_kind;
use oware_egtb::values::max_level;
use oware_egtb::EgtbError;
use oware_egtb::Levels;
use oware_egtb_build::build::{build_in_memory, build_with};
use oware_egtb_build::distributed::transport::{run_local, Slices, Transport};
use oware_egtb_build::distributed::{
    build_distributed, check_request, DistributedError, LevelEvent, LowerMode, RankLevels,
};
use oware_egtb_build::store::DirStore;
use oware_egtb_build::{LowerLevels, SearchBudget};
use oware_rules::RuleSet;

const SEEDS: usize = 10;

/// abapa levels built here by ranks: levels with safe regions, and open boards for the path
/// search to narrow on a level split among ranks. The default search (proof numbers, exhaustive
/// path searches on small levels) takes minutes in a debug build: mpi.sh builds it under MPI.
const ABAPA_SEEDS: usize = 7;
const ABAPA_SEARCH: SearchBudget = SearchBudget::Fixed(300);

fn one_process(dir: &Path, max_seeds: usize) {
    one_process_of(dir, RuleSet::Awari, max_seeds, SearchBudget::Auto(0));
}

fn one_process_of(dir: &Path, rules: RuleSet, max_seeds: usize, search: SearchBudget) {
    build_with(
        &mut DirStore::new(dir),
        rules,
        max_seeds,
        search,
        &(),
        |_| {},
    )
    .unwrap();
}

fn distributed(dir: &Path, ranks: usize, max_seeds: usize, mode: LowerMode) -> Vec<usize> {
    let search = SearchBudget::Auto(0);
    distributed_of(dir, RuleSet::Awari, ranks, max_seeds, mode, search)
}

fn distributed_of(
    dir: &Path,
    rules: RuleSet,
    ranks: usize,
    max_seeds: usize,
    mode: LowerMode,
    search: SearchBudget,
) -> Vec<usize> {
    let built = run_local(ranks, |t| {
        let mut built = Vec::new();
        build_distributed(t, dir, rules, max_seeds, mode, search, &(), |e| {
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
    same_files_of(a, b, RuleSet::Awari, max_seeds);
}

fn same_files_of(a: &Path, b: &Path, rules: RuleSet, max_seeds: usize) {
    for seeds in 0..=max_seeds {
        let name = file_name(rules, seeds);
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

/// abapa: the threshold solver's safe regions worked out across ranks, and the path search run
/// per rank on its slice, give the one-process files, for 1-3 ranks and both ways of holding lower
/// levels whole, and a stopped build resumes with another number of ranks.
#[test]
fn abapa_on_any_number_of_ranks_writes_the_one_process_files() {
    let rules = RuleSet::Abapa;
    let reference = tempfile::tempdir().unwrap();
    one_process_of(reference.path(), rules, ABAPA_SEEDS, ABAPA_SEARCH);
    for (ranks, mode) in [
        (1, LowerMode::Mapped),
        (2, LowerMode::Replicated),
        (3, LowerMode::Mapped),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let built = distributed_of(dir.path(), rules, ranks, ABAPA_SEEDS, mode, ABAPA_SEARCH);
        assert_eq!(built, (0..=ABAPA_SEEDS).collect::<Vec<_>>());
        same_files_of(reference.path(), dir.path(), rules, ABAPA_SEEDS);
    }
    let dir = tempfile::tempdir().unwrap();
    let mode = LowerMode::Mapped;
    distributed_of(dir.path(), rules, 3, 5, mode, ABAPA_SEARCH);
    assert_eq!(
        distributed_of(dir.path(), rules, 2, ABAPA_SEEDS, mode, ABAPA_SEARCH),
        (6..=ABAPA_SEEDS).collect::<Vec<_>>()
    );
    same_files_of(reference.path(), dir.path(), rules, ABAPA_SEEDS);
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
fn damaged_files_stop_every_rank() {
    let dir = tempfile::tempdir().unwrap();
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
            SearchBudget::Auto(0),
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

/// What a distributed build cannot do is refused before any rank touches the directory: abapa
/// with lower levels asked of their owners (its searches read them at random), and levels beyond
/// the rule set's highest.
#[test]
fn impossible_requests_are_refused_before_anything_is_written() {
    let top = max_level(RuleSet::Awari);
    assert!(check_request(RuleSet::Awari, top, LowerMode::Messages).is_ok());
    assert!(check_request(RuleSet::Abapa, 3, LowerMode::Mapped).is_ok());
    assert!(check_request(RuleSet::Abapa, 3, LowerMode::Replicated).is_ok());
    assert!(matches!(
        check_request(RuleSet::Abapa, 3, LowerMode::Messages),
        Err(DistributedError::LowerModeUnsupported {
            rules: RuleSet::Abapa,
            mode: LowerMode::Messages
        })
    ));
    let too_high = |r: &Result<(), DistributedError>, rules| {
        let top = max_level(rules);
        matches!(r, Err(DistributedError::Egtb(EgtbError::LevelTooHigh { seeds, max, .. }))
            if *seeds == top + 1 && *max == top)
    };
    for rules in [RuleSet::Awari, RuleSet::Abapa] {
        let top = max_level(rules);
        assert!(too_high(
            &check_request(rules, top + 1, LowerMode::Mapped),
            rules
        ));
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    for (rules, max_seeds, mode) in [
        (RuleSet::Abapa, 3, LowerMode::Messages),
        (RuleSet::Awari, top + 1, LowerMode::Mapped),
        (
            RuleSet::Abapa,
            max_level(RuleSet::Abapa) + 1,
            LowerMode::Mapped,
        ),
    ] {
        let results = run_local(2, |t| {
            let search = SearchBudget::Auto(0);
            build_distributed(t, &db, rules, max_seeds, mode, search, &(), |_| {})
        });
        for r in &results {
            assert_eq!(
                r.as_ref().unwrap_err().to_string(),
                check_request(rules, max_seeds, mode)
                    .unwrap_err()
                    .to_string()
            );
        }
        assert!(!db.exists(), "{rules}: the directory was created");
    }
}
