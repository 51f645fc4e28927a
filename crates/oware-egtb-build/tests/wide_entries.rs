//! Entries of two bytes (abapa levels above 21 seeds): the file format's two versions, and builds in
//! the two-byte layout on levels small enough for a test, whose values must be those of the one-byte
//! build, position by position.

use std::fs;
use std::path::Path;

use oware_egtb::file::{
    file_name, open_level, write_level, FORMAT_VERSION, HEADER_LEN, MAGIC, NARROW_FORMAT_VERSION,
};
use oware_egtb::index::{IndexKind, LevelIndex};
use oware_egtb::values::{decode, encode, write_code, Bounds, Code, ABAPA_NARROW_MAX};
use oware_egtb::{EgtbError, Tablebase};
use oware_egtb_build::build::{
    build_layout, check_level_fits, check_max_seeds, level_memory, Layout,
};
use oware_egtb_build::check::{deep_verify_level, level_stats, verify_level};
use oware_egtb_build::store::{DirStore, MemoryStore};
use oware_egtb_build::SearchBudget;
use oware_rules::{Position, RuleSet};

const RULES: RuleSet = RuleSet::Abapa;

/// Every valid code of abapa level `seeds`, over and over, one per board of the level.
fn made_up_codes(seeds: usize) -> Vec<Code> {
    let count = LevelIndex::new(seeds, IndexKind::Full).count() as usize;
    let valid: Vec<Code> = (0..=Code::MAX)
        .filter(|&c| decode(RULES, seeds, c).is_some())
        .collect();
    (0..count).map(|i| valid[i * 7 % valid.len()]).collect()
}

fn bytes_of(codes: &[Code], width: usize) -> Vec<u8> {
    let mut bytes = vec![0u8; codes.len() * width];
    for (entry, &code) in bytes.chunks_exact_mut(width).zip(codes) {
        write_code(entry, code);
    }
    bytes
}

fn with_crc(mut file: Vec<u8>) -> Vec<u8> {
    let crc = crc32fast::hash(&file[HEADER_LEN..]);
    file[24..28].copy_from_slice(&crc.to_le_bytes());
    file
}

fn open(dir: &Path, seeds: usize) -> Result<(), EgtbError> {
    open_level(dir, RULES, seeds).map(|f| assert!(f.is_some()))
}

/// A level of two-byte entries is written as version 2, its header giving the width and the count
/// of boards (not bytes), and reads back entry by entry.
#[test]
fn a_two_byte_level_is_version_2_and_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let seeds = 5;
    let codes = made_up_codes(seeds);
    let path = write_level(dir.path(), RULES, seeds, &bytes_of(&codes, 2)).unwrap();
    let file = fs::read(&path).unwrap();
    assert_eq!(file[..8], MAGIC);
    assert_eq!(file[8..12], FORMAT_VERSION.to_le_bytes());
    assert_eq!(FORMAT_VERSION, 2);
    assert_eq!((file[12], file[13], file[14], file[15]), (0, 0, 5, 2));
    assert_eq!(file[16..24], (codes.len() as u64).to_le_bytes());
    assert_eq!(file.len(), HEADER_LEN + 2 * codes.len());
    let level = open_level(dir.path(), RULES, seeds).unwrap().unwrap();
    assert_eq!(level.width(), 2);
    for (i, &code) in codes.iter().enumerate() {
        assert_eq!(level.entry(i), Some(code), "entry {i}");
    }
    assert_eq!(level.entry(codes.len()), None);
    assert_eq!(level.codes().iter().collect::<Vec<_>>(), codes);
}

/// A file as format version 1 wrote it (the header built here byte by byte) is read; and a level of
/// one-byte entries is still written as exactly those bytes.
#[test]
fn a_version_1_file_is_still_read_and_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let seeds = 6;
    let codes = made_up_codes(seeds);
    let entries = bytes_of(&codes, 1);
    let mut old = Vec::new();
    old.extend_from_slice(b"OWAREDB\x1a");
    old.extend_from_slice(&1u32.to_le_bytes());
    old.extend_from_slice(&[0, 0, seeds as u8, 0]);
    old.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    old.extend_from_slice(&crc32fast::hash(&entries).to_le_bytes());
    old.extend_from_slice(&[0; 4]);
    old.extend_from_slice(&entries);
    let path = dir.path().join(file_name(RULES, seeds));
    fs::write(&path, &old).unwrap();
    let level = open_level(dir.path(), RULES, seeds).unwrap().unwrap();
    assert_eq!(level.width(), 1);
    assert_eq!(level.codes().iter().collect::<Vec<_>>(), codes);
    drop(level);
    fs::remove_file(&path).unwrap();
    write_level(dir.path(), RULES, seeds, &entries).unwrap();
    assert_eq!(fs::read(&path).unwrap(), old);
    assert_eq!(NARROW_FORMAT_VERSION, 1);
}

/// Headers this program cannot read, or that do not fit the level, are refused with an error that
/// says which: a future version, an unknown width, entries too narrow for the level's codes, a width
/// that does not match the file's length.
#[test]
fn unreadable_headers_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let seeds = 5;
    let path = write_level(
        dir.path(),
        RULES,
        seeds,
        &bytes_of(&made_up_codes(seeds), 2),
    )
    .unwrap();
    let good = fs::read(&path).unwrap();
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = good.clone();
        edit(&mut bytes);
        fs::write(&path, with_crc(bytes)).unwrap();
        open(dir.path(), seeds).unwrap_err()
    };

    let err = with(&|b| b[8..12].copy_from_slice(&3u32.to_le_bytes()));
    assert!(
        matches!(err, EgtbError::UnsupportedVersion { found: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("versions 1 to 2"), "{err}");
    for width in [0, 3, 255] {
        let err = with(&|b| b[15] = width);
        assert!(
            matches!(err, EgtbError::UnsupportedWidth { width: w, .. } if w == width),
            "{err}"
        );
    }
    // One byte an entry said, two written.
    let err = with(&|b| b[15] = 1);
    assert!(matches!(err, EgtbError::WrongSize { .. }), "{err}");
    // A version 1 header on a file of two-byte entries.
    let err = with(&|b| {
        b[8..12].copy_from_slice(&1u32.to_le_bytes());
        b[15] = 0;
    });
    assert!(matches!(err, EgtbError::WrongSize { .. }), "{err}");
    // A two-byte file cut by one byte.
    let err = with(&|b| {
        b.pop();
    });
    assert!(matches!(err, EgtbError::WrongSize { .. }), "{err}");
    // A changed entry under the old checksum.
    let mut damaged = good.clone();
    damaged[HEADER_LEN + 1] ^= 1;
    fs::write(&path, &damaged).unwrap();
    let err = open(dir.path(), seeds).unwrap_err();
    assert!(matches!(err, EgtbError::Damaged { .. }), "{err}");
    fs::write(&path, &good).unwrap();
    open(dir.path(), seeds).unwrap();

    // A level above 21 seeds in one byte an entry: refused from its header (the file need not be
    // whole), and never written.
    let wide = ABAPA_NARROW_MAX + 1;
    let mut header = good[..HEADER_LEN].to_vec();
    header[8..12].copy_from_slice(&1u32.to_le_bytes());
    header[14] = wide as u8;
    header[15] = 0;
    fs::write(dir.path().join(file_name(RULES, wide)), &header).unwrap();
    let err = open(dir.path(), wide).unwrap_err();
    assert!(
        matches!(
            err,
            EgtbError::TooNarrow {
                width: 1,
                needed: 2,
                ..
            }
        ),
        "{err}"
    );
    let count = LevelIndex::new(wide, IndexKind::Full).count() as usize;
    let err = write_level(dir.path(), RULES, wide, &vec![0; count]).unwrap_err();
    assert!(matches!(err, EgtbError::TooNarrow { .. }), "{err}");
    // Entries whose length fits no width.
    let err = write_level(dir.path(), RULES, 3, &[0; 5]).unwrap_err();
    assert!(matches!(err, EgtbError::WrongSize { .. }), "{err}");
}

/// abapa levels built in two bytes an entry (the layout of levels above 21 seeds) hold the values
/// of the one-byte build, board by board: the solver's state turned into entries in place, both
/// searches, the files, verify, stats, the deep check and the probes all read the two-byte entries.
/// Twice: with the default searches (proof numbers and exhaustive path search on the small levels)
/// and with a path search of a few nodes on every level, up to a level with open boards of every
/// width class.
#[test]
fn a_two_byte_build_holds_the_values_of_the_one_byte_build() {
    for (max, search) in [(5, SearchBudget::Auto(0)), (8, SearchBudget::Fixed(100))] {
        same_values_in_both_layouts(max, search);
    }
}

fn same_values_in_both_layouts(max: usize, search: SearchBudget) {
    let narrow = build_layout(
        &mut MemoryStore::default(),
        RULES,
        max,
        search,
        Layout::Narrowest,
        &(),
        |_| {},
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    build_layout(
        &mut DirStore::new(dir.path()),
        RULES,
        max,
        search,
        Layout::Wide,
        &(),
        |r| reports.push(r.clone()),
    )
    .unwrap();
    let wide = Tablebase::open(dir.path(), RULES).unwrap();
    assert_eq!(wide.max_seeds(), max);
    assert_eq!(reports.len(), max + 1);
    for (seeds, report) in reports.iter().enumerate() {
        let file = fs::read(dir.path().join(file_name(RULES, seeds))).unwrap();
        assert_eq!((file[8], file[15]), (2, 2), "level {seeds}");
        let (index, n) = narrow.codes(seeds).unwrap();
        let (_, w) = wide.levels().codes(seeds).unwrap();
        assert_eq!((n.width(), w.width()), (1, 2));
        assert_eq!(n.len() as u64, index.count());
        assert_eq!(n.iter().collect::<Vec<_>>(), w.iter().collect::<Vec<_>>());
        assert_eq!(verify_level(wide.levels(), seeds).unwrap().bad, 0);
        let stats = level_stats(&narrow, seeds).unwrap();
        assert_eq!(level_stats(wide.levels(), seeds).unwrap(), stats);
        assert_eq!(report.exact, stats.exact);
    }
    // The deep check solves the level again as wide as it is stored.
    let deep = deep_verify_level(wide.levels(), max, search, &()).unwrap();
    assert_eq!((deep.bad, deep.boards), (0, reports[max].boards));
    // Probes through the files of two-byte entries answer as the one-byte levels.
    let narrow = Tablebase::from_levels(narrow);
    let mut probed = 0;
    for p in [
        "0-0-0-1-0-2-0-0-0-0-0-0-23-22-N",
        "1-0-2-0-1-0-0-0-0-1-0-0-22-21-S",
        "0-0-0-0-2-2-1-1-0-0-0-0-21-21-N",
    ] {
        let p: Position = p.parse().unwrap();
        assert_eq!(wide.probe(&p), narrow.probe(&p), "{p}");
        assert_eq!(wide.move_values(&p), narrow.move_values(&p), "{p}");
        probed += wide.probe(&p).is_some() as usize;
    }
    assert!(probed > 0);
}

/// `--max-seeds` goes to 48 for abapa; a level the solver cannot hold, or that does not fit the memory
/// available, is refused before it starts.
#[test]
fn levels_that_cannot_be_built_here_are_refused_before_they_start() {
    check_max_seeds(RULES, 48).unwrap();
    assert!(matches!(
        check_max_seeds(RULES, 49),
        Err(EgtbError::LevelTooHigh { max: 48, .. })
    ));
    let boards_24 = LevelIndex::new(24, IndexKind::Full).count();
    assert_eq!(boards_24, 417_225_900);
    // Two bytes per board for the solver's state, which becomes the entries in place, and twice the
    // entries while a search pass reads a copy of them.
    assert_eq!(
        level_memory(RULES, boards_24, 2) - level_memory(RULES, boards_24, 1),
        2 * boards_24
    );
    let needed = level_memory(RULES, boards_24, 2);
    check_level_fits(RULES, 24, 2, Some(needed)).unwrap();
    check_level_fits(RULES, 24, 2, None).unwrap();
    let err = check_level_fits(RULES, 24, 2, Some(needed - 1)).unwrap_err();
    assert!(
        matches!(err, EgtbError::OutOfMemory { seeds: 24, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("MiB"), "{err}");
    check_level_fits(RULES, 28, 2, None).unwrap();
    let err = check_level_fits(RULES, 29, 2, None).unwrap_err();
    assert!(
        matches!(
            err,
            EgtbError::BeyondSolver {
                seeds: 29,
                max: 28,
                ..
            }
        ),
        "{err}"
    );
    // The codes of every level up to 48 seeds, as a build of them would write them.
    let top = Bounds { lo: 47, hi: 48 };
    assert_eq!(decode(RULES, 48, encode(RULES, top)), Some(top));
}
