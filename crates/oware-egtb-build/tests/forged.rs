//! Forged entries: one byte of a built level changed and the header's CRC-32 recomputed, so that the
//! file opens as whole. The plain check (each entry against its moves) cannot see a forgery that
//! its moves allow; the deep check (the level solved again and compared byte for byte) names it.

use std::fs;
use std::path::Path;

use oware_egtb::file::{file_name, HEADER_LEN};
use oware_egtb::index::{IndexKind, LevelIndex};
use oware_egtb::tablebase::{LevelData, Levels};
use oware_egtb::values::{decode, encode, Code};
use oware_egtb::{Bounds, Tablebase};
use oware_egtb_build::build::build;
use oware_egtb_build::check::{deep_verify_level, derive, verify_entries, verify_level, Entries};
use oware_egtb_build::store::DirStore;
use oware_egtb_build::SearchBudget;
use oware_rules::RuleSet;

fn build_dir(rules: RuleSet, max: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build(&mut DirStore::new(dir.path()), rules, max, &(), |_| {}).unwrap();
    dir
}

/// Rewrites entry `index` of the level's file as `code`, with the header's CRC-32 made right again.
fn forge(dir: &Path, rules: RuleSet, seeds: usize, index: usize, code: Code) {
    let path = dir.join(file_name(rules, seeds));
    let mut bytes = fs::read(&path).unwrap();
    // The levels forged here have one-byte entries.
    bytes[HEADER_LEN + index] = u8::try_from(code).unwrap();
    let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
}

/// The levels `0..=seeds` of the database in `dir`, read into memory, with entry `index` of the top
/// level replaced by `code`.
fn in_memory_with(dir: &Path, rules: RuleSet, seeds: usize, index: usize, code: Code) -> Levels {
    let tb = Tablebase::open(dir, rules).unwrap();
    let mut levels = Levels::new(rules);
    for s in 0..=seeds {
        let (_, data) = tb.levels().level(s).unwrap();
        let mut data = data.to_vec();
        if s == seeds {
            data[index] = u8::try_from(code).unwrap();
        }
        levels.push(LevelData::Memory(data.into()));
    }
    levels
}

/// A forgery of the top abapa level that the plain check passes: an entry of a board with a move
/// that stays in the level, changed to other bounds that its moves still allow (and that the boards
/// leading to it still allow). Returns the index, the true code and the forged one.
fn abapa_forgery_the_plain_check_passes(dir: &Path, seeds: usize) -> (usize, Code, Code) {
    let rules = RuleSet::Abapa;
    let tb = Tablebase::open(dir, rules).unwrap();
    let (_, data) = tb.levels().codes(seeds).unwrap();
    let k = seeds as i8;
    // A wrong exact value rather than looser bounds, where one passes.
    let exact: Vec<Bounds> = (0..=k).map(Bounds::exact).collect();
    let any: Vec<Bounds> = (0..=k)
        .flat_map(|lo| (lo..=k).map(move |hi| Bounds { lo, hi }))
        .collect();
    for candidates in [exact, any] {
        for (i, board) in LevelIndex::new(seeds, IndexKind::Full)
            .iter_from(0)
            .enumerate()
        {
            let derived = derive(tb.levels(), &board, seeds);
            let stored = decode(rules, seeds, data.get(i)).unwrap();
            for &forged in &candidates {
                if derived.fixed || forged == stored || !derived.accepts(forged) {
                    continue;
                }
                let code = encode(rules, forged);
                let levels = in_memory_with(dir, rules, seeds, i, code);
                if verify_level(&levels, seeds).unwrap().bad == 0 {
                    return (i, data.get(i), code);
                }
            }
        }
    }
    panic!("no forgery of abapa level {seeds} passes the plain check");
}

/// Why a forged entry with a right checksum passes the plain check: abapa entries of boards with a
/// move that stays in the level are only checked to meet the range their moves allow (after such a
/// move the game has a history, so the successor's no-history value does not fix the move's worth),
/// and most of them have a range wider than the entry. The deep check solves the level again and
/// names the entry.
#[test]
fn an_abapa_forgery_its_moves_allow_passes_the_plain_check_and_not_the_deep_one() {
    let (rules, seeds) = (RuleSet::Abapa, 6);
    let dir = build_dir(rules, seeds);
    let (index, good, forged) = abapa_forgery_the_plain_check_passes(dir.path(), seeds);
    assert_ne!(good, forged);
    forge(dir.path(), rules, seeds, index, forged);
    let tb = Tablebase::open(dir.path(), rules).expect("the checksum is right");
    assert_eq!(tb.levels().codes(seeds).unwrap().1.get(index), forged);
    let check = verify_level(tb.levels(), seeds).unwrap();
    assert_eq!(check.bad, 0, "{check:?}");

    // The deep check names it: the one entry that differs, with the stored and the solved bounds.
    for s in 0..seeds {
        let lower = deep_verify_level(tb.levels(), s, SearchBudget::Auto(0), &()).unwrap();
        assert_eq!(lower.bad, 0, "level {s}: {lower:?}");
    }
    let deep = deep_verify_level(tb.levels(), seeds, SearchBudget::Auto(0), &()).unwrap();
    assert_eq!(deep.bad, 1, "{deep:?}");
    let named = &deep.examples[0];
    assert_eq!(named.index, index as u64);
    let board = LevelIndex::new(seeds, IndexKind::Full)
        .unrank(index as u64)
        .unwrap();
    assert_eq!(named.board, board);
    assert_eq!(named.stored, decode(rules, seeds, forged));
    assert_eq!(Some(named.derived.bounds), decode(rules, seeds, good));
    assert!(named.derived.fixed);
}

/// An awari entry forged (its checksum right): the plain check and the deep one both name it, and
/// every other level passes both.
#[test]
fn the_deep_check_names_a_forged_awari_entry() {
    let (rules, seeds) = (RuleSet::Awari, 6);
    let dir = build_dir(rules, seeds);
    let index = LevelIndex::new(seeds, IndexKind::Compact);
    let clean = Tablebase::open(dir.path(), rules).unwrap();
    for s in 0..=seeds {
        let deep = deep_verify_level(clean.levels(), s, SearchBudget::Auto(0), &()).unwrap();
        assert_eq!(
            (deep.bad, deep.boards),
            (0, LevelIndex::new(s, IndexKind::Compact).count())
        );
    }
    // The middle entry, one seed of difference better for the mover (or worse at the top).
    let i = index.count() as usize / 2;
    let good = clean.levels().codes(seeds).unwrap().1.get(i);
    drop(clean);
    let forged = if decode(rules, seeds, good + 1).is_some() {
        good + 1
    } else {
        good - 1
    };
    forge(dir.path(), rules, seeds, i, forged);
    let tb = Tablebase::open(dir.path(), rules).expect("the checksum is right");
    let plain = verify_level(tb.levels(), seeds).unwrap();
    assert!(plain.bad >= 1);
    assert_eq!(plain.examples[0].index, i as u64);
    let deep = deep_verify_level(tb.levels(), seeds, SearchBudget::Auto(0), &()).unwrap();
    assert_eq!(deep.bad, 1, "{deep:?}");
    let named = &deep.examples[0];
    assert_eq!(
        (named.index, named.board),
        (i as u64, index.unrank(i as u64).unwrap())
    );
    assert_eq!(named.stored, decode(rules, seeds, forged));
    assert_eq!(Some(named.derived.bounds), decode(rules, seeds, good));
}

/// A sample checks the entries it says, evenly spaced from the first, the same on every run: a
/// forged entry among them is found, one between them is not.
#[test]
fn a_sample_checks_evenly_spaced_entries() {
    let (rules, seeds) = (RuleSet::Awari, 6);
    let dir = build_dir(rules, seeds);
    let count = LevelIndex::new(seeds, IndexKind::Compact).count();
    let tb = Tablebase::open(dir.path(), rules).unwrap();
    let sample = verify_entries(tb.levels(), seeds, Entries::Sample(10)).unwrap();
    assert_eq!((sample.boards, sample.bad), (10, 0));
    // More than the level holds: every entry, once.
    let all = verify_entries(tb.levels(), seeds, Entries::Sample(count + 5)).unwrap();
    assert_eq!((all.boards, all.bad), (count, 0));
    let good: Vec<Code> = tb.levels().codes(seeds).unwrap().1.iter().collect();
    drop(tb);
    // The sample of 10 checks entries j * count / 10.
    let sampled = (3 * count / 10) as usize;
    let between = sampled + 1;
    for (i, finds) in [(sampled, true), (between, false)] {
        let forged = if decode(rules, seeds, good[i] + 1).is_some() {
            good[i] + 1
        } else {
            good[i] - 1
        };
        forge(dir.path(), rules, seeds, i, forged);
        let tb = Tablebase::open(dir.path(), rules).unwrap();
        let check = verify_entries(tb.levels(), seeds, Entries::Sample(10)).unwrap();
        assert_eq!(check.bad, finds as u64, "entry {i}: {check:?}");
        if finds {
            assert_eq!(check.examples[0].index, i as u64);
        }
        drop(tb);
        forge(dir.path(), rules, seeds, i, good[i]);
    }
}
