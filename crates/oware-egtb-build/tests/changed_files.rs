//! Database files that change under a process that has them open (truncated or rewritten in place
//! while a server runs), and levels missing in the middle of a database.

use std::fs::{self, OpenOptions};
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use oware_egtb::file::{file_name, set_check_interval, write_level, HEADER_LEN};
use oware_egtb::index::{IndexKind, LevelIndex};
use oware_egtb::tablebase::board_of;
use oware_egtb::values::{encode, successors, terminal_value};
use oware_egtb::{Bounds, EgtbError, ProbeValue, Tablebase, UnusedLevels};
use oware_egtb_build::build::build;
use oware_egtb_build::check::{level_stats, verify_level};
use oware_egtb_build::store::DirStore;
use oware_rules::{Position, RuleSet, Side};

fn build_dir(rules: RuleSet, max: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    build(&mut DirStore::new(dir.path()), rules, max, &(), |_| {}).unwrap();
    dir
}

/// Every position of `seeds` seeds on the board where the game goes on (a finished one is valued
/// without reading the file), South to move.
fn positions(seeds: usize, rules: RuleSet) -> Vec<Position> {
    LevelIndex::new(seeds, IndexKind::Full)
        .iter_from(0)
        .filter(|board| terminal_value(board, rules).is_none())
        .filter_map(|board| Position::from_board(board, Side::South))
        .collect()
}

fn set_len(path: &Path, len: u64) {
    OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(len)
        .unwrap();
}

/// Opens the database with a callback that records what it is told.
fn open_recording(dir: &Path, rules: RuleSet) -> (Tablebase, Arc<Mutex<Vec<String>>>) {
    let told = Arc::new(Mutex::new(Vec::new()));
    let mut tb = Tablebase::open(dir, rules).unwrap();
    let record = told.clone();
    tb.set_on_change(Arc::new(move |e: &EgtbError| {
        assert!(matches!(e, EgtbError::Changed { .. }), "{e}");
        record.lock().unwrap().push(e.to_string());
    }));
    (tb, told)
}

/// The probe of `p`, whose level's file was truncated after `before` was probed: `None` when a move
/// stays in the level (its value needs the file); otherwise `None` or, worked out from the moves
/// into the lower levels, still whole, the same as before. Never a value read from the zeros.
fn check_probe(tb: &Tablebase, p: &Position, before: Option<ProbeValue>) {
    let after = tb.probe(p);
    let stays = successors(&board_of(p), tb.rules()).any(|s| s.captured == 0);
    if stays {
        assert_eq!(after, None, "{p}");
    } else {
        assert!(
            after.is_none() || after == before,
            "{p}: {after:?}, was {before:?}"
        );
    }
}

/// A level file truncated under an open database, to any length (past the first page, inside it,
/// inside the last page, to nothing): the probes that need that level answer `None` instead of
/// killing the process with SIGBUS or reading the zeros a shrunk page shows, the lower levels still
/// answer, and the change is told once, with the file's path.
#[test]
fn a_file_truncated_under_the_probes_turns_its_level_off() {
    let (rules, top) = (RuleSet::Awari, 8);
    let dir = build_dir(rules, top);
    let path = dir.path().join(file_name(rules, top));
    let good = fs::read(&path).unwrap();
    let len = good.len() as u64;
    assert!(len > 3 * 4096, "{len} bytes: the level should span pages");
    let (on_top, below) = (positions(top, rules), positions(top - 1, rules));
    for new_len in [0, HEADER_LEN as u64 + 5, 4096 + 100, len / 2, len - 3] {
        let (tb, told) = open_recording(dir.path(), rules);
        let before: Vec<_> = on_top.iter().map(|p| tb.probe(p)).collect();
        assert!(before.iter().all(Option::is_some));
        let below_before: Vec<_> = below.iter().map(|p| tb.probe(p)).collect();

        set_len(&path, new_len);
        for (p, before) in on_top.iter().zip(&before) {
            check_probe(&tb, p, *before);
        }
        let below_after: Vec<_> = below.iter().map(|p| tb.probe(p)).collect();
        assert_eq!(below_after, below_before, "cut to {new_len}");
        let told = told.lock().unwrap().clone();
        assert_eq!(told.len(), 1, "cut to {new_len}: {told:?}");
        assert!(
            told[0].starts_with(&format!("{}: the file changed", path.display())),
            "{}",
            told[0]
        );

        // The whole-level passes say so too, rather than report what the zeros mean.
        let err = verify_level(tb.levels(), top).unwrap_err();
        assert!(
            matches!(&err, EgtbError::Changed { path: p } if *p == path),
            "{err}"
        );
        let err = level_stats(tb.levels(), top).unwrap_err();
        assert!(matches!(err, EgtbError::Changed { .. }), "{err}");
        drop(tb);
        fs::write(&path, &good).unwrap();
    }
    // Opened again, the restored file is whole.
    let (tb, told) = open_recording(dir.path(), rules);
    assert!(on_top.iter().all(|p| tb.probe(p).is_some()));
    assert!(told.lock().unwrap().is_empty());
}

/// abapa files can end in zeros (0 is the code of "the mover gets nothing"), which a truncated last
/// page also reads: entries read as zeros past the file's last non-zero byte are right, and any
/// truncation before it turns the level off. The levels are made up (one code in the first half of
/// each level, zeros after): building abapa levels in a test takes minutes.
#[test]
fn abapa_files_ending_in_zeros_are_not_misread_when_cut() {
    let (rules, top) = (RuleSet::Abapa, 8);
    let dir = tempfile::tempdir().unwrap();
    for seeds in 0..=top {
        let count = LevelIndex::new(seeds, IndexKind::Full).count();
        let code = encode(rules, Bounds::exact(seeds.min(1) as i8)) as u8;
        let entries: Vec<u8> = (0..count)
            .map(|i| if i < count / 2 { code } else { 0 })
            .collect();
        write_level(dir.path(), rules, seeds, &entries).unwrap();
    }
    let path = dir.path().join(file_name(rules, top));
    let good = fs::read(&path).unwrap();
    let len = good.len() as u64;
    // Boards whose value needs the file (a move stays in the level), with where they are in it.
    let index = LevelIndex::new(top, IndexKind::Full);
    let needing: Vec<(Position, u64)> = positions(top, rules)
        .into_iter()
        .filter(|p| successors(&board_of(p), rules).any(|s| s.captured == 0))
        .map(|p| (p, index.rank(&board_of(&p)).unwrap()))
        .collect();
    let zeros_from = HEADER_LEN as u64 + index.count() / 2;
    // Just past the start of the page of the last non-zero byte: only the canary notices.
    let canary_page = (zeros_from - 1) / 4096 * 4096 + 1;
    let cuts = [
        0,
        HEADER_LEN as u64 + 5,
        zeros_from / 2,
        canary_page,
        zeros_from + 1,
        len - 3,
    ];
    for new_len in cuts {
        let (tb, told) = open_recording(dir.path(), rules);
        let before: Vec<_> = needing.iter().map(|(p, _)| tb.probe(p)).collect();
        set_len(&path, new_len);
        for ((p, rank), before) in needing.iter().zip(&before) {
            let after = tb.probe(p);
            if new_len < zeros_from {
                assert_eq!(after, None, "cut to {new_len}: {p}");
            } else {
                // Entries past the cut were zeros anyway: either read right or not at all.
                assert!(
                    after.is_none() || after == *before,
                    "{new_len}: {p} at {rank}"
                );
            }
        }
        // Past the last non-zero byte, a cut is seen only by a read past the cut's page, which
        // turns the whole level off.
        let told = told.lock().unwrap().len();
        assert!(told <= 1, "cut to {new_len}: told {told} times");
        assert!(told == 1 || new_len >= zeros_from, "cut to {new_len}");
        drop(tb);
        fs::write(&path, &good).unwrap();
    }
}

/// A file truncated between two probes from several threads at once: each thread gets `None`, the
/// process lives, and the change is told once.
#[test]
fn threads_probing_a_truncated_file_all_survive_it() {
    let dir = build_dir(RuleSet::Awari, 8);
    let path = dir.path().join(file_name(RuleSet::Awari, 8));
    let (tb, told) = open_recording(dir.path(), RuleSet::Awari);
    let on_top = positions(8, RuleSet::Awari);
    let before: Vec<_> = on_top.iter().map(|p| tb.probe(p)).collect();
    set_len(&path, 0);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for (p, before) in on_top.iter().zip(&before) {
                    check_probe(&tb, p, *before);
                }
            });
        }
    });
    assert_eq!(told.lock().unwrap().len(), 1);
}

/// Writes `bytes` at `offset` of the file in place: opened for writing, not truncated, so that a
/// mapping of it shows the new bytes.
fn write_in_place(path: &Path, offset: u64, bytes: &[u8]) {
    let mut f = OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(offset)).unwrap();
    f.write_all(bytes).unwrap();
}

/// Sets the file's modification time a day back, before it is opened: a write made in the same tick
/// of the file system's clock as the last one before the file was checked would keep its time stamp
/// (the watch's blind spot), which a test must not depend on.
fn age(path: &Path) {
    let day_ago = SystemTime::now() - Duration::from_secs(86_400);
    let f = OpenOptions::new().write(true).open(path).unwrap();
    f.set_modified(day_ago).unwrap();
}

/// The top level's file with entry `i` changed to another valid value and the header's CRC-32
/// recomputed: bytes that would pass every check of a file just opened.
fn forged(good: &[u8], rules: RuleSet, seeds: usize, i: usize) -> Vec<u8> {
    let mut bytes = good.to_vec();
    let code = bytes[HEADER_LEN + i];
    let other = if oware_egtb::values::decode(rules, seeds, (code + 1).into()).is_some() {
        code + 1
    } else {
        code - 1
    };
    bytes[HEADER_LEN + i] = other;
    let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
    bytes[24..28].copy_from_slice(&crc.to_le_bytes());
    bytes
}

/// A level file rewritten in place under an open database, with the same size and bytes that look
/// valid (one entry and the checksum, or another level's entries in its place): once looked at again
/// the level is off, said once with the file's path, its probes answer `None` (or, from the lower
/// levels alone, what they answered before), never a value from the new bytes, and the lower levels
/// still answer.
#[test]
fn a_file_rewritten_in_place_turns_its_level_off() {
    let (rules, top) = (RuleSet::Awari, 8);
    let dir = build_dir(rules, top);
    let path = dir.path().join(file_name(rules, top));
    let good = fs::read(&path).unwrap();
    let count = good.len() - HEADER_LEN;
    let lower = fs::read(dir.path().join(file_name(rules, top - 1))).unwrap();
    let (on_top, below) = (positions(top, rules), positions(top - 1, rules));
    let index = LevelIndex::new(top, IndexKind::Compact);
    let first_needing = on_top
        .iter()
        .find(|p| successors(&board_of(p), rules).any(|s| s.captured == 0))
        .map(|p| index.rank(&board_of(p)).unwrap() as usize)
        .unwrap();
    let rewrites: Vec<(&str, u64, Vec<u8>)> = vec![
        (
            "one entry and the checksum",
            0,
            forged(&good, rules, top, first_needing),
        ),
        ("the same bytes", 0, good.clone()),
        (
            "level 7's entries over the first ones",
            HEADER_LEN as u64,
            lower[HEADER_LEN..].to_vec(),
        ),
    ];
    assert!(lower.len() - HEADER_LEN < count);
    for (what, offset, bytes) in rewrites {
        age(&path);
        let (tb, told) = open_recording(dir.path(), rules);
        let before: Vec<_> = on_top.iter().map(|p| tb.probe(p)).collect();
        let below_before: Vec<_> = below.iter().map(|p| tb.probe(p)).collect();
        assert!(tb.levels().check_unchanged().is_ok());

        write_in_place(&path, offset, &bytes);
        assert_eq!(fs::metadata(&path).unwrap().len(), good.len() as u64);
        let err = tb.levels().check_unchanged().unwrap_err();
        assert!(
            matches!(&err, EgtbError::Changed { path: p } if *p == path),
            "{what}: {err}"
        );
        for (p, before) in on_top.iter().zip(&before) {
            check_probe(&tb, p, *before);
        }
        assert_eq!(tb.probe(&on_top[0]), None, "{what}");
        let below_after: Vec<_> = below.iter().map(|p| tb.probe(p)).collect();
        assert_eq!(below_after, below_before, "{what}");
        let told = told.lock().unwrap().clone();
        assert_eq!(told.len(), 1, "{what}: {told:?}");
        assert!(
            told[0].starts_with(&format!(
                "{}: the file changed while in use",
                path.display()
            )),
            "{}",
            told[0]
        );
        drop(tb);
        fs::write(&path, &good).unwrap();
    }
}

/// The watching thread notices a rewrite in place by itself: with a short interval, a probe soon
/// answers `None` with no one asking for a check.
#[test]
fn the_watch_notices_a_rewrite_in_place_by_itself() {
    set_check_interval(Duration::from_millis(20));
    let (rules, top) = (RuleSet::Awari, 6);
    let dir = build_dir(rules, top);
    let path = dir.path().join(file_name(rules, top));
    let good = fs::read(&path).unwrap();
    age(&path);
    let (tb, told) = open_recording(dir.path(), rules);
    let p = positions(top, rules)
        .into_iter()
        .find(|p| successors(&board_of(p), rules).any(|s| s.captured == 0))
        .unwrap();
    assert!(tb.probe(&p).is_some());
    let i = LevelIndex::new(top, IndexKind::Compact)
        .rank(&board_of(&p))
        .unwrap() as usize;
    write_in_place(&path, 0, &forged(&good, rules, top, i));
    // Generous: the thread looks every 20 ms; a loaded machine may delay it.
    let deadline = Instant::now() + Duration::from_secs(60);
    while tb.probe(&p).is_some() {
        assert!(Instant::now() < deadline, "the rewrite was never noticed");
        std::thread::sleep(Duration::from_millis(5));
    }
    assert_eq!(told.lock().unwrap().len(), 1);
}

/// What changes only the open file's status-change time leaves its level on: a second link, a file
/// renamed over its name (the mapping still holds the file that was checked), a change of
/// permissions. Its entries still have the CRC-32 checked, and its probes answer as before.
#[test]
#[cfg(unix)]
fn a_file_linked_renamed_over_or_chmodded_stays_in_use() {
    use std::os::unix::fs::PermissionsExt;
    let (rules, top) = (RuleSet::Awari, 6);
    let dir = build_dir(rules, top);
    let path = dir.path().join(file_name(rules, top));
    age(&path);
    let (tb, told) = open_recording(dir.path(), rules);
    let on_top = positions(top, rules);
    let before: Vec<_> = on_top.iter().map(|p| tb.probe(p)).collect();
    fs::hard_link(&path, dir.path().join("link")).unwrap();
    tb.levels().check_unchanged().unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o444)).unwrap();
    tb.levels().check_unchanged().unwrap();
    let copy = dir.path().join("copy");
    fs::copy(&path, &copy).unwrap();
    fs::rename(&copy, &path).unwrap();
    tb.levels().check_unchanged().unwrap();
    let after: Vec<_> = on_top.iter().map(|p| tb.probe(p)).collect();
    assert_eq!(after, before);
    assert!(told.lock().unwrap().is_empty());
}

/// A lower level's file truncated while a build reads it: the build stops with an error naming the
/// file instead of saving a level computed from zeros.
#[test]
fn a_build_does_not_save_a_level_read_from_a_file_that_changed() {
    let dir = build_dir(RuleSet::Awari, 6);
    let lower = dir.path().join(file_name(RuleSet::Awari, 6));
    let err = build(
        &mut DirStore::new(dir.path()),
        RuleSet::Awari,
        7,
        &(),
        |level| {
            // Every level up to 6 is reused (opened and checked): cut 6 before 7 is built.
            if level.seeds == 6 {
                set_len(&lower, 100);
            }
        },
    )
    .map(|_| ())
    .unwrap_err();
    assert!(
        matches!(&err, EgtbError::Changed { path } if *path == lower),
        "{err}"
    );
    assert!(!dir.path().join(file_name(RuleSet::Awari, 7)).exists());
}

/// Levels 0-4 and 7-8 present, 5-6 missing: the database is used up to 4, and says that 7 and 8 are
/// not used and why. Without level 0 there is no database, and the error says which files it leaves
/// unused.
#[test]
fn levels_above_a_missing_one_are_reported_unused() {
    let dir = build_dir(RuleSet::Awari, 8);
    for seeds in 5..=6 {
        fs::remove_file(dir.path().join(file_name(RuleSet::Awari, seeds))).unwrap();
    }
    let tb = Tablebase::open(dir.path(), RuleSet::Awari).unwrap();
    assert_eq!(tb.max_seeds(), 4);
    let unused = tb.unused_levels().expect("levels 7 and 8 are unused");
    assert_eq!(
        unused,
        &UnusedLevels {
            dir: dir.path().to_path_buf(),
            rules: RuleSet::Awari,
            missing: 5,
            levels: vec![7, 8],
        }
    );
    let text = unused.to_string();
    assert!(
        text.contains("awari levels 7-8 are not used because level 5 is missing"),
        "{text}"
    );
    assert!(text.contains("used for levels 0-4"), "{text}");

    // A complete database has nothing unused.
    let whole = build_dir(RuleSet::Awari, 3);
    let tb = Tablebase::open(whole.path(), RuleSet::Awari).unwrap();
    assert_eq!(tb.unused_levels(), None);

    fs::remove_file(dir.path().join(file_name(RuleSet::Awari, 0))).unwrap();
    let err = Tablebase::open(dir.path(), RuleSet::Awari)
        .map(|_| ())
        .unwrap_err();
    assert!(
        matches!(&err, EgtbError::NoDatabase { unused, .. } if *unused == [1, 2, 3, 4, 7, 8]),
        "{err}"
    );
    let text = err.to_string();
    assert!(
        text.contains("levels 1-4, 7-8 are there but not used without it"),
        "{text}"
    );
}
