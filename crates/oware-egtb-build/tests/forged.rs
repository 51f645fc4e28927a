//! Forged entries: one byte of a built level changed and the header's CRC-32 recomputed, so that the
//! file opens as whole. The plain check (each entry against its moves) cannot see a forgery that
//! its moves allow; the deep check (the level solved again and compared byte for byte) names it.

use std::fs;
use std::path::Path;

use oware_egtb::file::{file_name, HEADER_LEN};
use oware_egtb::index::{IndexKind, LevelIndex};
use oware_egtb::tablebase::{LevelData, Levels};
use oware_egtb::values::{decode, encode};
use oware_egtb::{Bounds, Tablebase};
use oware_egtb_build::build::build;
use oware_egtb_build::check::{derive, verify_level};
use oware_egtb_build::store::DirStore;
use oware_rules::RuleSet;

fn build_dir(rules: RuleSet, max: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build(&mut DirStore::new(dir.path()), rules, max, &(), |_| {}).unwrap();
    dir
}

/// Rewrites entry `index` of the level's file as `code`, with the header's CRC-32 made right again.
fn forge(dir: &Path, rules: RuleSet, seeds: usize, index: usize, code: u8) {
    let path = dir.join(file_name(rules, seeds));
    let mut bytes = fs::read(&path).unwrap();
    bytes[HEADER_LEN + index] = code;
    let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    fs::write(&path, &bytes).unwrap();
}

/// The levels `0..=seeds` of the database in `dir`, read into memory, with entry `index` of the top
/// level replaced by `code`.
fn in_memory_with(dir: &Path, rules: RuleSet, seeds: usize, index: usize, code: u8) -> Levels {
    let tb = Tablebase::open(dir, rules).unwrap();
    let mut levels = Levels::new(rules);
    for s in 0..=seeds {
        let (_, data) = tb.levels().level(s).unwrap();
        let mut data = data.to_vec();
        if s == seeds {
            data[index] = code;
        }
        levels.push(LevelData::Memory(data.into()));
    }
    levels
}

/// A forgery of the top abapa level that the plain check passes: an entry of a board with a move
/// that stays in the level, changed to other bounds that its moves still allow (and that the boards
/// leading to it still allow). Returns the index, the true code and the forged one.
fn abapa_forgery_the_plain_check_passes(dir: &Path, seeds: usize) -> (usize, u8, u8) {
    let rules = RuleSet::Abapa;
    let tb = Tablebase::open(dir, rules).unwrap();
    let (_, data) = tb.levels().level(seeds).unwrap();
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
            let stored = decode(rules, seeds, data[i]).unwrap();
            for &forged in &candidates {
                if derived.fixed || forged == stored || !derived.accepts(forged) {
                    continue;
                }
                let code = encode(rules, forged);
                let levels = in_memory_with(dir, rules, seeds, i, code);
                if verify_level(&levels, seeds).unwrap().bad == 0 {
                    return (i, data[i], code);
                }
            }
        }
    }
    panic!("no forgery of abapa level {seeds} passes the plain check");
}

/// Why a forged entry with a right checksum passed `verify`: abapa entries of boards with a move that
/// stays in the level are only checked to meet the range their moves allow (after such a move the
/// game has a history, so the successor's no-history value does not fix the move's worth), and
/// most of them have a range wider than the entry.
#[test]
fn the_plain_check_passes_an_abapa_forgery_its_moves_allow() {
    let (rules, seeds) = (RuleSet::Abapa, 6);
    let dir = build_dir(rules, seeds);
    let (index, good, forged) = abapa_forgery_the_plain_check_passes(dir.path(), seeds);
    assert_ne!(good, forged);
    forge(dir.path(), rules, seeds, index, forged);
    let tb = Tablebase::open(dir.path(), rules).expect("the checksum is right");
    assert_eq!(tb.levels().level(seeds).unwrap().1[index], forged);
    let check = verify_level(tb.levels(), seeds).unwrap();
    assert_eq!(check.bad, 0, "{check:?}");
}
