//! Database files: one per rule set and level, a 32-byte header and then one byte per board in index
//! order. Files are memory-mapped for probing, and every file is checked (header and checksum) when it
//! is opened, so a damaged or foreign file is refused before any value is read from it.
//!
//! A file that changes while mapped (truncated, or rewritten in place, which a build never does: it
//! writes a new file and renames it) must not crash the process nor feed it wrong values. A read past
//! the new end of a shrunk file is caught by the guard (the `guard` module) and reads zeros; and every
//! probe ([`LevelFile::entry`]) also reads the file's *canary*, the last byte of the file that is not
//! zero, as it was when checked. A shrunk file either faults there (zeros, through the guard) or reads
//! zeros from the end of its last page: both differ from the canary, so the entry just read is not
//! trusted. An entry past the canary that reads zero from a partial page was zero in the file too.
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
use std::sync::atomic::{fence, AtomicBool, Ordering};

use memmap2::Mmap;
use oware_rules::RuleSet;

use crate::guard::Guard;
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

fn io_error(path: &Path, error: std::io::Error) -> EgtbError {
    EgtbError::Io {
        path: path.to_path_buf(),
        error,
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
    /// Declared before `map`, so that the mapping is no longer guarded when it is unmapped.
    guard: Guard,
    map: Mmap,
    path: PathBuf,
    /// The offset of the last byte of the file that is not zero (there is one: the magic number),
    /// and that byte.
    canary: (usize, u8),
    /// Whether [`LevelFile::first_report`] has been asked.
    reported: AtomicBool,
}

impl LevelFile {
    /// The entries, one byte per board in index order, as a slice for passes over whole levels
    /// (building, verifying, counting). If the file changes meanwhile they read as zeros, never a
    /// crash: ask [`LevelFile::check_unchanged`] after the pass before trusting what it read.
    pub fn entries(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// Entry `i`, or `None` if the file has changed since it was checked (or `i` is out of range).
    #[inline]
    pub fn entry(&self, i: usize) -> Option<u8> {
        let code = self.map.get(HEADER_LEN + i)?;
        // SAFETY: a reference into the mapping, which lives as long as `self`. Volatile: the bytes
        // can change under the program (the file shrank), and the canary must be read after the
        // entry, each time.
        let code = unsafe { std::ptr::read_volatile(code) };
        // The canary is read after the entry: if the canary is intact, so was the entry when read.
        fence(Ordering::Acquire);
        self.canary_intact().then_some(code)
    }

    #[inline]
    fn canary_intact(&self) -> bool {
        let (offset, expected) = self.canary;
        // SAFETY: `offset` is inside the mapping (found in it when the file was opened).
        unsafe { std::ptr::read_volatile(self.map.as_ptr().add(offset)) == expected }
    }

    /// Whether the file has changed since it was checked: it shrank under the mapping.
    pub fn changed(&self) -> bool {
        self.guard.tripped() || !self.canary_intact()
    }

    /// `Err(EgtbError::Changed)` if the file has changed since it was checked.
    pub fn check_unchanged(&self) -> Result<(), EgtbError> {
        if self.changed() {
            return Err(self.changed_error());
        }
        Ok(())
    }

    /// The error that says this file changed.
    pub fn changed_error(&self) -> EgtbError {
        EgtbError::Changed {
            path: self.path.clone(),
        }
    }

    /// `true` the first time it is asked, `false` ever after: for telling of a change once.
    pub fn first_report(&self) -> bool {
        !self.reported.swap(true, Ordering::Relaxed)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
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
    // SAFETY: the mapping is only read. If the file changes under it, reads past its new end are
    // caught by the guard (registered before the first read) and read zeros, and readers check the
    // canary (see the module's documentation).
    let map = unsafe { Mmap::map(&file) }.map_err(|e| io_error(&path, e))?;
    if map.len() < HEADER_LEN {
        return Err(EgtbError::NotADatabase { path });
    }
    let guard = Guard::register(map.as_ptr(), map.len()).map_err(|_| {
        io_error(
            &path,
            std::io::Error::other("too many database files open at once"),
        )
    })?;
    let canary = map
        .iter()
        .rposition(|&b| b != 0)
        .map(|offset| (offset, map[offset]))
        .unwrap_or((0, 0));
    let level = LevelFile {
        guard,
        map,
        path,
        canary,
        reported: AtomicBool::new(false),
    };
    let checked = check(&level.path, &level.map, rules, seeds);
    // A file that shrank while being checked reads zeros: say that it changed, not that it is
    // damaged.
    level.check_unchanged()?;
    checked?;
    Ok(Some(level))
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
