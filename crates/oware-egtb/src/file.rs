//! Database files: one per rule set and level, a 32-byte header and then one entry per board in index
//! order, of one byte (awari, and abapa up to 21 seeds) or two (abapa above: see
//! [`crate::values::entry_width`]). Files are memory-mapped for probing, and every file is checked
//! (header and checksum) when it is opened, so a damaged or foreign file is refused before any value
//! is read from it.
//!
//! A file that changes while mapped (truncated, or rewritten in place, which a build never does: it
//! writes a new file and renames it) must not crash the process nor feed it wrong values. A read past
//! the new end of a shrunk file is caught by the guard (the `guard` module) and reads zeros; and every
//! probe ([`LevelFile::entry`]) also reads the file's *canary*, the last byte of the file that is not
//! zero, as it was when checked. A shrunk file either faults there (zeros, through the guard) or reads
//! zeros from the end of its last page: both differ from the canary, so the entry just read is not
//! trusted. An entry past the canary that reads zero from a partial page was zero in the file too.
//!
//! A file rewritten in place keeps its size and may keep its canary, and the mapping shows the new
//! bytes at once. Each open file is therefore watched: a background thread looks at it again about
//! once a second ([`set_check_interval`]), and every [`LevelFile::check_unchanged`] does at once,
//! comparing its size, modification time and status-change time (`fstat` of the open file, so a file
//! renamed over it or deleted is not a change: the mapping still holds the file that was checked)
//! with those of when it was checked. A new size or modification time turns the level off; a new
//! status-change time alone (a link, a rename, a change of permissions) turns it off only if the
//! entries' CRC-32 is no longer the one checked. The probes read one flag more. What this cannot see:
//! the probes made between the change and the next look (up to a second) may read the new bytes, and
//! a writer that keeps the modification time (the file system's time stamps are coarse: a write in
//! the same tick as the one before the file was opened, or one that sets the time back) and keeps
//! the CRC-32 is not seen.
//!
//! Header (little-endian):
//!
//! | bytes  | field                                   |
//! |--------|-----------------------------------------|
//! | 0..8   | magic `OWAREDB` + 0x1a                  |
//! | 8..12  | format version (1 or 2)                 |
//! | 12     | rule set: 0 abapa, 1 awari              |
//! | 13     | index: 0 full, 1 compact                |
//! | 14     | level (seeds on the board)              |
//! | 15     | version 1: 0; version 2: bytes an entry |
//! | 16..24 | entry count (boards, not bytes)         |
//! | 24..28 | CRC-32 of the entries' bytes            |
//! | 28..32 | 0                                       |
//!
//! Version 1 files have one-byte entries; version 2 files say their width (1 or 2; two-byte entries
//! are little-endian). A level of one-byte entries is written as version 1, so the files of every
//! level that fits a byte are those that programs reading only version 1 wrote and read; only the
//! two-byte levels are version 2. A version above 2 is refused ([`EgtbError::UnsupportedVersion`]).

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{fence, AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant};

use memmap2::Mmap;
use oware_rules::RuleSet;

use crate::guard::Guard;
use crate::index::{IndexKind, LevelIndex};
use crate::values::{entry_width, index_kind, read_code, width_of, Code, Codes};
use crate::EgtbError;

/// The first eight bytes of every database file.
pub const MAGIC: [u8; 8] = *b"OWAREDB\x1a";
/// The newest format version this program writes and reads: entries of the width the header says.
pub const FORMAT_VERSION: u32 = 2;
/// The format version of files of one-byte entries, which this program still writes for them.
pub const NARROW_FORMAT_VERSION: u32 = 1;
/// Bytes in the header before the entries.
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

/// The header of a level of `count` entries of `width` bytes whose bytes' CRC-32 is `crc`; writers
/// that never hold the whole level at once (a distributed build writes it from the slices of its
/// ranks) call it directly.
pub fn header_for(
    rules: RuleSet,
    seeds: usize,
    width: usize,
    count: u64,
    crc: u32,
) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    let version = if width == 1 {
        NARROW_FORMAT_VERSION
    } else {
        h[15] = width as u8;
        FORMAT_VERSION
    };
    h[8..12].copy_from_slice(&version.to_le_bytes());
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
/// build never leaves a half-written file under the real name. `entries` holds one entry per board,
/// all of one or all of two bytes: the width is that of the length (one byte for a level that needs
/// two is refused, as is a length that fits no width).
pub fn write_level(
    dir: &Path,
    rules: RuleSet,
    seeds: usize,
    entries: &[u8],
) -> Result<PathBuf, EgtbError> {
    let path = dir.join(file_name(rules, seeds));
    let count = LevelIndex::new(seeds, index_kind(rules)).count();
    let width = width_of(entries.len(), count).ok_or(EgtbError::WrongSize {
        path: path.clone(),
        expected: count,
        found: entries.len() as u64,
    })?;
    check_width(&path, rules, seeds, width)?;
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let tmp = path.with_extension("oegtb.partial");
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        f.write_all(&header_for(
            rules,
            seeds,
            width,
            count,
            crc32fast::hash(entries),
        ))?;
        f.write_all(entries)?;
        f.sync_all()?;
        fs::rename(&tmp, &path)
    };
    write().map_err(|e| io_error(&path, e))?;
    Ok(path)
}

/// An opened, checked level file.
pub struct LevelFile {
    /// Shared with the thread that watches the open files.
    inner: Arc<Mapped>,
}

/// The mapping of a level file, and what tells whether the file changed.
struct Mapped {
    /// Declared before `map`, so that the mapping is no longer guarded when it is unmapped.
    guard: Guard,
    map: Mmap,
    /// The open file, whose time stamps are looked at again (`fstat`).
    file: File,
    path: PathBuf,
    /// The offset of the last byte of the file that is not zero (there is one: the magic number),
    /// and that byte.
    canary: (usize, u8),
    /// The CRC-32 of the entries as checked.
    crc: u32,
    /// Bytes an entry.
    width: usize,
    /// The file's size and time stamps when it was checked (or last found unchanged).
    stamp: Mutex<Stamp>,
    /// The file was found rewritten: nothing read from it is trusted.
    stale: AtomicBool,
    /// Whether [`LevelFile::first_report`] has been asked.
    reported: AtomicBool,
}

/// What a file's metadata says of its contents: its size, modification time and status-change time
/// (seconds and nanoseconds).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: (i64, i64),
    status_changed: (i64, i64),
}

impl Stamp {
    fn of(file: &File) -> std::io::Result<Stamp> {
        let meta = file.metadata()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Ok(Stamp {
                len: meta.len(),
                modified: (meta.mtime(), meta.mtime_nsec()),
                status_changed: (meta.ctime(), meta.ctime_nsec()),
            })
        }
        #[cfg(not(unix))]
        {
            let since = meta
                .modified()?
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default();
            Ok(Stamp {
                len: meta.len(),
                modified: (since.as_secs() as i64, since.subsec_nanos() as i64),
                status_changed: (0, 0),
            })
        }
    }
}

impl Mapped {
    #[inline]
    fn canary_intact(&self) -> bool {
        let (offset, expected) = self.canary;
        // SAFETY: `offset` is inside the mapping (found in it when the file was opened).
        unsafe { std::ptr::read_volatile(self.map.as_ptr().add(offset)) == expected }
    }

    fn changed(&self) -> bool {
        self.stale.load(Ordering::Acquire) || self.guard.tripped() || !self.canary_intact()
    }

    /// Looks at the file's metadata again; marks it stale, and says so, if it changed.
    fn recheck(&self) -> bool {
        if self.stale.load(Ordering::Acquire) {
            return true;
        }
        let mut known = self.stamp.lock().unwrap_or_else(|e| e.into_inner());
        let same = match Stamp::of(&self.file) {
            Ok(now) if now == *known => true,
            // Only the status-change time: a link, rename or permission change, or a writer that
            // set the modification time back. The entries decide.
            Ok(now)
                if (now.len, now.modified) == (known.len, known.modified)
                    && crc32fast::hash(&self.map[HEADER_LEN..]) == self.crc
                    && !self.guard.tripped() =>
            {
                *known = now;
                true
            }
            _ => false,
        };
        if !same {
            self.stale.store(true, Ordering::Release);
        }
        !same
    }
}

/// How often the watching thread looks at each open file again, in milliseconds.
static CHECK_INTERVAL_MS: AtomicU64 = AtomicU64::new(1000);

/// How often the open level files are looked at again for a rewrite in place (by default every
/// second); for tests and for processes that want to notice sooner.
pub fn set_check_interval(interval: Duration) {
    let ms = u64::try_from(interval.as_millis())
        .unwrap_or(u64::MAX)
        .max(1);
    CHECK_INTERVAL_MS.store(ms, Ordering::Relaxed);
}

/// The open files the watching thread looks at.
fn watched() -> &'static Mutex<Vec<Weak<Mapped>>> {
    static WATCHED: OnceLock<Mutex<Vec<Weak<Mapped>>>> = OnceLock::new();
    WATCHED.get_or_init(|| {
        // Started with the first file. If it cannot start, the files are looked at only by
        // `check_unchanged` (whole-level passes), and probes still see a truncation.
        let _ = std::thread::Builder::new()
            .name("oware-egtb-watch".into())
            .spawn(watch_files);
        Mutex::new(Vec::new())
    })
}

fn watch_files() {
    let mut last = Instant::now();
    loop {
        let interval = Duration::from_millis(CHECK_INTERVAL_MS.load(Ordering::Relaxed));
        // Short sleeps, so that a shorter interval set meanwhile applies soon.
        std::thread::sleep(interval.min(Duration::from_millis(100)));
        if last.elapsed() < interval {
            continue;
        }
        last = Instant::now();
        let files: Vec<Arc<Mapped>> = {
            let mut list = watched().lock().unwrap_or_else(|e| e.into_inner());
            list.retain(|f| f.strong_count() > 0);
            list.iter().filter_map(Weak::upgrade).collect()
        };
        for f in files {
            f.recheck();
        }
    }
}

impl LevelFile {
    /// The entries' bytes, [`LevelFile::width`] bytes per board in index order, as a slice for
    /// passes over whole levels (building, verifying, counting). If the file changes meanwhile they
    /// read as zeros (or as its new bytes), never a crash: ask [`LevelFile::check_unchanged`] after
    /// the pass before trusting what it read.
    pub fn entries(&self) -> &[u8] {
        &self.inner.map[HEADER_LEN..]
    }

    /// Bytes an entry: 1 or 2, as the header says.
    pub fn width(&self) -> usize {
        self.inner.width
    }

    /// The entries as codes (see [`LevelFile::entries`] for a file that changes meanwhile).
    pub fn codes(&self) -> Codes<'_> {
        Codes::new(self.entries(), self.inner.width)
    }

    /// Entry `i`, or `None` if the file has changed since it was checked (or `i` is out of range).
    #[inline]
    pub fn entry(&self, i: usize) -> Option<Code> {
        let inner = &*self.inner;
        let width = inner.width;
        let start = HEADER_LEN + i * width;
        let bytes = inner.map.get(start..start + width)?;
        // SAFETY: references into the mapping, which lives as long as `self`. Volatile: the bytes
        // can change under the program (the file shrank), and the canary must be read after the
        // entry, each time.
        let read = |b: &u8| unsafe { std::ptr::read_volatile(b) };
        let code = match bytes {
            [b] => read(b) as Code,
            _ => read_code(&[read(&bytes[0]), read(&bytes[1])]),
        };
        // The canary is read after the entry: if the canary is intact, so was the entry when read.
        fence(Ordering::Acquire);
        (inner.canary_intact() && !inner.stale.load(Ordering::Relaxed)).then_some(code)
    }

    /// Whether the file has been seen to change since it was checked: it shrank under the mapping,
    /// or the last look at it found it rewritten.
    pub fn changed(&self) -> bool {
        self.inner.changed()
    }

    /// `Err(EgtbError::Changed)` if the file has changed since it was checked; looks at its metadata
    /// again first, so that a rewrite in place is seen now rather than at the next look.
    pub fn check_unchanged(&self) -> Result<(), EgtbError> {
        if self.inner.recheck() || self.changed() {
            return Err(self.changed_error());
        }
        Ok(())
    }

    /// The error that says this file changed.
    pub fn changed_error(&self) -> EgtbError {
        EgtbError::Changed {
            path: self.inner.path.clone(),
        }
    }

    /// `true` the first time it is asked, `false` ever after: for telling of a change once.
    pub fn first_report(&self) -> bool {
        !self.inner.reported.swap(true, Ordering::Relaxed)
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.inner.path
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
    // Taken before the mapping: a change made while the file is checked is seen at the first look.
    let stamp = Stamp::of(&file).map_err(|e| io_error(&path, e))?;
    // SAFETY: the mapping is only read. If the file changes under it, reads past its new end are
    // caught by the guard (registered before the first read) and read zeros, and readers check the
    // canary and the watch's flag (see the module's documentation).
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
    let crc = u32::from_le_bytes(map[24..28].try_into().expect("4 bytes"));
    // The header is checked below, before any entry is read through the width.
    let width = header_width(&map).unwrap_or(1);
    let mapped = Mapped {
        guard,
        map,
        file,
        path,
        canary,
        crc,
        width,
        stamp: Mutex::new(stamp),
        stale: AtomicBool::new(false),
        reported: AtomicBool::new(false),
    };
    let checked = check(&mapped.path, &mapped.map, rules, seeds);
    let level = LevelFile {
        inner: Arc::new(mapped),
    };
    // A file that shrank while being checked reads zeros: say that it changed, not that it is
    // damaged.
    level.check_unchanged()?;
    checked?;
    watched()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(Arc::downgrade(&level.inner));
    Ok(Some(level))
}

fn check(path: &Path, bytes: &[u8], rules: RuleSet, seeds: usize) -> Result<(), EgtbError> {
    let path = path.to_path_buf();
    if bytes.len() < HEADER_LEN || bytes[..8] != MAGIC {
        return Err(EgtbError::NotADatabase { path });
    }
    let width = match header_width(bytes) {
        Ok(width) => width,
        Err(Unreadable::Version(found)) => {
            return Err(EgtbError::UnsupportedVersion { path, found });
        }
        Err(Unreadable::Width(width)) => {
            return Err(EgtbError::UnsupportedWidth { path, width });
        }
    };
    let expected = (rules_code(rules), kind_code(index_kind(rules)), seeds as u8);
    let found = (bytes[12], bytes[13], bytes[14]);
    if expected != found {
        return Err(EgtbError::WrongContents {
            path,
            expected: format!("{rules} level {seeds}"),
            found: describe_header(found),
        });
    }
    check_width(&path, rules, seeds, width)?;
    let count = u64::from_le_bytes(bytes[16..24].try_into().expect("8 bytes"));
    let expected_count = LevelIndex::new(seeds, index_kind(rules)).count();
    let len = (bytes.len() - HEADER_LEN) as u64;
    if count != expected_count || len != expected_count * width as u64 {
        return Err(EgtbError::WrongSize {
            path,
            expected: expected_count,
            found: len / width as u64,
        });
    }
    let crc = u32::from_le_bytes(bytes[24..28].try_into().expect("4 bytes"));
    if crc32fast::hash(&bytes[HEADER_LEN..]) != crc {
        return Err(EgtbError::Damaged { path });
    }
    Ok(())
}

/// Why a header's entries cannot be read.
enum Unreadable {
    /// A format version this program does not know.
    Version(u32),
    /// A version 2 header with a width other than 1 or 2.
    Width(u8),
}

/// The width of the entries of a file with this header (at least 12 bytes long).
fn header_width(bytes: &[u8]) -> Result<usize, Unreadable> {
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    match version {
        NARROW_FORMAT_VERSION => Ok(1),
        FORMAT_VERSION => match bytes[15] {
            width @ 1..=2 => Ok(width as usize),
            width => Err(Unreadable::Width(width)),
        },
        other => Err(Unreadable::Version(other)),
    }
}

/// Refuses entries too narrow for the codes of the level.
fn check_width(path: &Path, rules: RuleSet, seeds: usize, width: usize) -> Result<(), EgtbError> {
    let needed = entry_width(rules, seeds);
    if width < needed {
        return Err(EgtbError::TooNarrow {
            path: path.to_path_buf(),
            rules,
            seeds,
            width,
            needed,
        });
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
