//! Database files: one per rule set and level, a 32-byte header and then one byte per board in index
//! order. Files are memory-mapped for probing, and every file is checked (header and checksum) when it
//! is opened, so a damaged or foreign file is refused before any value is read from it.
//!
//! Header (little-endian):
//!
//! | bytes  | field                                   |
//! |--------|-----------------------------------------|
//! | 0..8   | magic `OWAREDB` + 0x1a                  |
//! | 8..12  | format version (1)                      |
//! | 12     | rule set: 0 abapa, 1 awari              |
//! | 13     | index: 0 full, 1 compact                |
//! | 14     | level (seeds on the board)              |
//! | 15     | 0                                       |
//! | 16..24 | entry count                             |
//! | 24..28 | CRC-32 of the entries                   |
//! | 28..32 | 0                                       |

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

use memmap2::Mmap;
use oware_rules::RuleSet;

use crate::index::{IndexKind, LevelIndex};
use crate::values::index_kind;
use crate::EgtbError;

/// The first eight bytes of every database file.
pub const MAGIC: [u8; 8] = *b"OWAREDB\x1a";
/// The format version this program writes and reads.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes in the header before the one-byte entries.
pub const HEADER_LEN: usize = 32;

/// The file name of a level: `awari-07.oegtb`.
pub fn file_name(rules: RuleSet, seeds: usize) -> String {
    format!("{}-{:02}.oegtb", rules.name(), seeds)
}

fn rules_code(rules: RuleSet) -> u8 {
    match rules {
        RuleSet::Abapa => 0,
        RuleSet::Awari => 1,
    }
}

fn kind_code(kind: IndexKind) -> u8 {
    match kind {
        IndexKind::Full => 0,
        IndexKind::Compact => 1,
    }
}

fn header(rules: RuleSet, seeds: usize, entries: &[u8]) -> [u8; HEADER_LEN] {
    header_for(rules, seeds, entries.len() as u64, crc32fast::hash(entries))
}

/// The header of a level of `count` entries whose CRC-32 is `crc`, for writers that never hold the
/// whole level at once (a distributed build writes it from the slices of its ranks).
pub fn header_for(rules: RuleSet, seeds: usize, count: u64, crc: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = rules_code(rules);
    h[13] = kind_code(index_kind(rules));
    h[14] = seeds as u8;
    h[16..24].copy_from_slice(&count.to_le_bytes());
    h[24..28].copy_from_slice(&crc.to_le_bytes());
    h
}

fn io_error(path: &Path, source: std::io::Error) -> EgtbError {
    EgtbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes a level's file atomically: to a temporary name first, then renamed, so that a stopped
/// build never leaves a half-written file under the real name.
pub fn write_level(
    dir: &Path,
    rules: RuleSet,
    seeds: usize,
    entries: &[u8],
) -> Result<PathBuf, EgtbError> {
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let path = dir.join(file_name(rules, seeds));
    let tmp = path.with_extension("oegtb.partial");
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&header(rules, seeds, entries))?;
        f.write_all(entries)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    };
    write().map_err(|e| io_error(&path, e))?;
    Ok(path)
}

/// An opened, checked level file.
pub struct LevelFile {
    map: Mmap,
}

impl LevelFile {
    /// The entries, one byte per board in index order.
    pub fn entries(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }
}

/// Opens the file of level `seeds` in `dir`, or `Ok(None)` when there is none. Refuses a file whose
/// header or checksum is wrong.
pub fn open_level(
    dir: &Path,
    rules: RuleSet,
    seeds: usize,
) -> Result<Option<LevelFile>, EgtbError> {
    let path = dir.join(file_name(rules, seeds));
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(&path, e)),
    };
    // SAFETY: the file is only read, and database files are never changed in place (a build writes a
    // new file and renames it). A file truncated by someone else while mapped could fault; that is
    // the usual, accepted risk of memory-mapping.
    let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(&path, e))?;
    check(&path, &map, rules, seeds)?;
    Ok(Some(LevelFile { map }))
}

fn check(path: &Path, bytes: &[u8], rules: RuleSet, seeds: usize) -> Result<(), EgtbError> {
    let path = path.to_path_buf();
    if bytes.len() < HEADER_LEN || bytes[..8] != MAGIC {
        return Err(EgtbError::NotADatabase { path });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != FORMAT_VERSION {
        return Err(EgtbError::UnsupportedVersion {
            path,
            found: version,
        });
    }
    let expected = (rules_code(rules), kind_code(index_kind(rules)), seeds as u8);
    let found = (bytes[12], bytes[13], bytes[14]);
    if expected != found {
        return Err(EgtbError::WrongContents {
            path,
            expected: format!("{rules} level {seeds}"),
            found: describe_header(found),
        });
    }
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let expected_count = LevelIndex::new(seeds, index_kind(rules)).count();
    let actual = (bytes.len() - HEADER_LEN) as u64;
    if count != expected_count || actual != expected_count {
        return Err(EgtbError::WrongSize {
            path,
            expected: expected_count,
            found: actual,
        });
    }
    let crc = u32::from_le_bytes(bytes[24..28].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[HEADER_LEN..]) != crc {
        return Err(EgtbError::Damaged { path });
    }
    Ok(())
}

fn describe_header((rules, kind, seeds): (u8, u8, u8)) -> String {
    let rules = match rules {
        0 => "abapa".to_string(),
        1 => "awari".to_string(),
        other => format!("unknown rule set {other}"),
    };
    let kind = match kind {
        0 => "full index",
        1 => "compact index",
        _ => "unknown index",
    };
    format!("{rules} level {seeds} ({kind})")
}
