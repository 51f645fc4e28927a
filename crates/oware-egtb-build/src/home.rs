//! The endgame databases of the user's data directory, which `oware serve`, `play` and `engine` use
//! unless told otherwise: [`data_dir`] says where they are, and [`prepare`] checks the files there,
//! removes the damaged ones and builds the levels that are missing, handing each set of levels over
//! as it becomes usable.
//!
//! The files are those `oware egtb build` writes (one per rule set and level, written under a
//! temporary name and renamed when complete), so a build stopped at any point leaves only finished
//! levels, which the next start reuses. Two processes that start at once take turns through a lock
//! file: the second waits, then finds the levels built.

use std::ffi::OsString;
use std::fs::{self, File};
use std::path::{Path, PathBuf};

use oware_egtb::file::{file_name, open_level};
use oware_egtb::values::max_level;
use oware_egtb::{EgtbError, Tablebase};
use oware_rules::RuleSet;

use crate::build::{build_with, LevelReport};
use crate::refine::SearchBudget;
use crate::store::DirStore;

/// The levels built on first use: a few minutes in all (abapa 0-16 in 5 min 44 s on one thread of
/// a loaded machine, awari 0-16 in about 17 s on two cores), 60 MB of files. abapa first, the
/// default rule set; its levels 13-16 are what the search uses most in abapa endgames (each seed
/// sown or captured there reaches them).
pub const FIRST_USE: [(RuleSet, usize); 2] = [(RuleSet::Abapa, 16), (RuleSet::Awari, 16)];

/// The environment variable that replaces [`FIRST_USE`], as `abapa=N,awari=N` (one or both rule
/// sets): for tests and small machines.
pub const FIRST_USE_VARIABLE: &str = "OWARE_EGTB_FIRST_USE";

/// Why [`FIRST_USE_VARIABLE`] names no levels to build.
#[derive(Debug, thiserror::Error)]
pub enum FirstUseError {
    /// The variable is set to something that is not Unicode.
    #[error("{FIRST_USE_VARIABLE} is not text")]
    NotText,
    /// The variable's text is not a list of levels.
    #[error("{FIRST_USE_VARIABLE}={text:?}: {error}")]
    Levels {
        /// The variable's text.
        text: String,
        /// What is wrong with it.
        error: LevelsError,
    },
}

/// Why a text is not a list of levels `abapa=N,awari=N` ([`parse_levels`]).
#[derive(Debug, thiserror::Error)]
pub enum LevelsError {
    /// An item without `=`.
    #[error("{0:?} is not RULES=SEEDS (such as awari=16)")]
    NotAnItem(String),
    /// An unknown rule set.
    #[error("{0}")]
    Rules(#[from] oware_rules::UnknownRuleSet),
    /// A count of seeds that is not a number.
    #[error("{0:?} is not a number of seeds")]
    Seeds(String),
    /// A level above the highest the rule set's databases have.
    #[error("{0}")]
    TooHigh(EgtbError),
    /// A rule set named more than once.
    #[error("{0} is named twice")]
    Twice(RuleSet),
}

/// The levels to build on first use: [`FIRST_USE`], or those of [`FIRST_USE_VARIABLE`].
pub fn first_use_levels() -> Result<Vec<(RuleSet, usize)>, FirstUseError> {
    match std::env::var(FIRST_USE_VARIABLE) {
        Err(std::env::VarError::NotPresent) => Ok(FIRST_USE.to_vec()),
        Err(std::env::VarError::NotUnicode(_)) => Err(FirstUseError::NotText),
        Ok(text) => parse_levels(&text).map_err(|error| FirstUseError::Levels { text, error }),
    }
}

/// `abapa=N,awari=N` (either or both, each once) as levels to build.
pub fn parse_levels(text: &str) -> Result<Vec<(RuleSet, usize)>, LevelsError> {
    let mut levels: Vec<(RuleSet, usize)> = Vec::new();
    for item in text.split(',') {
        let (rules, max) = item
            .split_once('=')
            .ok_or_else(|| LevelsError::NotAnItem(item.to_string()))?;
        let rules: RuleSet = rules.trim().parse()?;
        let max: usize = max
            .trim()
            .parse()
            .map_err(|_| LevelsError::Seeds(max.to_string()))?;
        crate::build::check_max_seeds(rules, max).map_err(LevelsError::TooHigh)?;
        if levels.iter().any(|(r, _)| *r == rules) {
            return Err(LevelsError::Twice(rules));
        }
        levels.push((rules, max));
    }
    Ok(levels)
}

/// The name of the lock file in the directory.
pub const LOCK_FILE: &str = "build.lock";

/// The databases' directory in the user's data directory: `$XDG_DATA_HOME/oware/egtb`, or
/// `~/.local/share/oware/egtb` where `XDG_DATA_HOME` is unset or not an absolute path (as the XDG
/// base directory specification says). `None` without either variable.
pub fn data_dir() -> Option<PathBuf> {
    data_dir_from(std::env::var_os("XDG_DATA_HOME"), std::env::var_os("HOME"))
}

fn data_dir_from(xdg_data_home: Option<OsString>, home: Option<OsString>) -> Option<PathBuf> {
    let base = xdg_data_home
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            home.filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(base.join("oware").join("egtb"))
}

/// What [`prepare`] tells as it goes.
pub enum HomeEvent {
    /// Another process holds the directory's lock (it is checking or building): waiting for it.
    Waiting {
        /// The lock file.
        lock: PathBuf,
    },
    /// A file failed its check (header, size or checksum) and was removed; its level is rebuilt.
    Removed {
        /// The file.
        path: PathBuf,
        /// Why it was refused.
        error: EgtbError,
    },
    /// Levels `from..=to` of a rule set are missing and are being built.
    Building {
        /// The rule set.
        rules: RuleSet,
        /// The first level to build.
        from: usize,
        /// The last level to build.
        to: usize,
    },
    /// A level was built and written.
    Built {
        /// The rule set.
        rules: RuleSet,
        /// What the level loop says of it.
        report: LevelReport,
    },
    /// These databases are usable: found checked at the start, or grown by a level just built.
    Ready(Tablebase),
}

/// Checks the databases of the rule sets of `plan` in `dir` and builds what is missing of levels
/// `0..=max` for each `(rules, max)` of `plan`, in its order, on a pool of `threads` threads
/// (run at a low priority on Linux, so that the searches of the process that waits for the levels
/// come first). Every level file of those rule sets found in the directory is checked as
/// [`open_level`] checks it; one that fails is removed (and said) and its level rebuilt.
/// Leftover temporary files of a stopped build are removed. `on_event` hears each step, and gets
/// the databases as soon as they are usable ([`HomeEvent::Ready`]).
///
/// The whole runs under the directory's lock file ([`LOCK_FILE`]): a second process waits for the
/// first, then finds the levels built.
pub fn prepare(
    dir: &Path,
    plan: &[(RuleSet, usize)],
    threads: usize,
    on_event: &mut (dyn FnMut(HomeEvent) + Send),
) -> Result<(), EgtbError> {
    for &(rules, max) in plan {
        crate::build::check_max_seeds(rules, max)?;
    }
    fs::create_dir_all(dir).map_err(|e| io_error(dir, e))?;
    let _lock = lock(&dir.join(LOCK_FILE), on_event)?;
    remove_partial_files(dir)?;
    for &(rules, _) in plan {
        remove_bad_files(dir, rules, on_event)?;
        if let Ok(tablebase) = Tablebase::open(dir, rules) {
            on_event(HomeEvent::Ready(tablebase));
        }
    }
    let pool = build_pool(threads)?;
    for &(rules, max) in plan {
        let Some(from) = (0..=max).find(|&s| !dir.join(file_name(rules, s)).exists()) else {
            continue;
        };
        on_event(HomeEvent::Building {
            rules,
            from,
            to: max,
        });
        let mut store = DirStore::new(dir);
        pool.install(|| {
            build_with(
                &mut store,
                rules,
                max,
                SearchBudget::Auto(0),
                &(),
                |report| {
                    if report.reused {
                        return;
                    }
                    on_event(HomeEvent::Built {
                        rules,
                        report: report.clone(),
                    });
                    // Just written and checked by the store; a failure here would show again at
                    // the next level.
                    if let Ok(tablebase) = Tablebase::open(dir, rules) {
                        on_event(HomeEvent::Ready(tablebase));
                    }
                },
            )
        })?;
    }
    Ok(())
}

fn io_error(path: &Path, error: std::io::Error) -> EgtbError {
    EgtbError::Io {
        path: path.to_path_buf(),
        error,
    }
}

/// Removes every level file of `rules` in `dir` that fails its check.
fn remove_bad_files(
    dir: &Path,
    rules: RuleSet,
    on_event: &mut (dyn FnMut(HomeEvent) + Send),
) -> Result<(), EgtbError> {
    for seeds in 0..=max_level(rules) {
        if let Err(error) = open_level(dir, rules, seeds) {
            let path = dir.join(file_name(rules, seeds));
            fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
            on_event(HomeEvent::Removed { path, error });
        }
    }
    Ok(())
}

/// Removes the temporary files a stopped build left (the level files are written under a
/// temporary name first).
fn remove_partial_files(dir: &Path) -> Result<(), EgtbError> {
    let entries = fs::read_dir(dir).map_err(|e| io_error(dir, e))?;
    for entry in entries {
        let path = entry.map_err(|e| io_error(dir, e))?.path();
        let partial = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.ends_with(".oegtb.partial"));
        if partial {
            fs::remove_file(&path).map_err(|e| io_error(&path, e))?;
        }
    }
    Ok(())
}

fn build_pool(threads: usize) -> Result<rayon::ThreadPool, EgtbError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .thread_name(|i| format!("oware-egtb-{i}"))
        .start_handler(|_| lower_priority())
        .build()
        .map_err(|e| EgtbError::Io {
            path: PathBuf::from("build threads"),
            error: std::io::Error::other(e),
        })
}

/// Lowers the calling thread's priority (its nice value, which Linux keeps per thread).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only changes the scheduling priority of the calling thread (who = 0).
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 10);
    }
}

/// Takes the lock file's exclusive lock, waiting for another process that holds it (said once
/// through `on_event`). Released when the file is closed, which the operating system does for a
/// process that dies.
fn lock(path: &Path, on_event: &mut (dyn FnMut(HomeEvent) + Send)) -> Result<File, EgtbError> {
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| io_error(path, e))?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        let flock = |operation| loop {
            // SAFETY: flock on a descriptor this function owns (open for as long as `file`).
            if unsafe { libc::flock(file.as_raw_fd(), operation) } == 0 {
                return Ok(());
            }
            let error = std::io::Error::last_os_error();
            if error.kind() != std::io::ErrorKind::Interrupted {
                return Err(error);
            }
        };
        if let Err(error) = flock(libc::LOCK_EX | libc::LOCK_NB) {
            if error.kind() != std::io::ErrorKind::WouldBlock {
                return Err(io_error(path, error));
            }
            on_event(HomeEvent::Waiting {
                lock: path.to_path_buf(),
            });
            flock(libc::LOCK_EX).map_err(|e| io_error(path, e))?;
        }
    }
    #[cfg(not(unix))]
    let _ = on_event;
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_use_levels_are_read_and_checked() {
        assert_eq!(
            parse_levels("awari=8, abapa=4").unwrap(),
            [(RuleSet::Awari, 8), (RuleSet::Abapa, 4)]
        );
        assert_eq!(parse_levels("abapa=0").unwrap(), [(RuleSet::Abapa, 0)]);
        for bad in [
            "",
            "awari",
            "awari=x",
            "chess=3",
            "awari=3,awari=4",
            "awari=99",
        ] {
            assert!(parse_levels(bad).is_err(), "{bad:?}");
        }
    }

    /// The events of a [`prepare`] as words, and the levels each `Ready` held.
    fn prepare_logged(dir: &Path, plan: &[(RuleSet, usize)]) -> (Vec<String>, Vec<usize>) {
        let (mut said, mut ready) = (Vec::new(), Vec::new());
        prepare(dir, plan, 2, &mut |event| match event {
            HomeEvent::Ready(tb) => ready.push(tb.max_seeds()),
            HomeEvent::Removed { path, .. } => said.push(format!(
                "removed {}",
                path.file_name().unwrap().to_string_lossy()
            )),
            HomeEvent::Building { rules, from, to } => {
                said.push(format!("build {rules} {from}-{to}"))
            }
            HomeEvent::Built { .. } => {}
            HomeEvent::Waiting { .. } => said.push("waiting".into()),
        })
        .unwrap();
        (said, ready)
    }

    fn file_names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_fresh_directory_is_built_level_by_level_and_then_reused() {
        let home = tempfile::tempdir().unwrap();
        let dir = home.path().join("oware").join("egtb");
        let (said, ready) = prepare_logged(&dir, &[(RuleSet::Awari, 6)]);
        assert_eq!(said, ["build awari 0-6"]);
        assert_eq!(
            ready,
            [0, 1, 2, 3, 4, 5, 6],
            "each level handed over as built"
        );
        assert_eq!(
            Tablebase::open(&dir, RuleSet::Awari).unwrap().max_seeds(),
            6
        );

        // Found again: checked and handed over at once, nothing built.
        let (said, ready) = prepare_logged(&dir, &[(RuleSet::Awari, 6)]);
        assert!(said.is_empty(), "{said:?}");
        assert_eq!(ready, [6]);
        // More levels asked for: only those are built.
        let (said, ready) = prepare_logged(&dir, &[(RuleSet::Awari, 8)]);
        assert_eq!(said, ["build awari 7-8"]);
        assert_eq!(ready, [6, 7, 8]);
    }

    #[test]
    fn damaged_truncated_and_partial_files_are_removed_and_rebuilt() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        prepare_logged(dir, &[(RuleSet::Awari, 7)]);
        let good = fs::read(dir.join(file_name(RuleSet::Awari, 5))).unwrap();

        let flipped = dir.join(file_name(RuleSet::Awari, 3));
        let mut bytes = fs::read(&flipped).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x01;
        fs::write(&flipped, bytes).unwrap();
        let truncated = dir.join(file_name(RuleSet::Awari, 5));
        fs::write(&truncated, &good[..good.len() / 2]).unwrap();
        // A file whose level is above a missing one is checked too.
        let stray = dir.join(file_name(RuleSet::Awari, 20));
        fs::write(&stray, b"OWAREDB").unwrap();
        let partial = dir.join("awari-08.oegtb.partial");
        fs::write(&partial, b"half a level").unwrap();

        let (said, ready) = prepare_logged(dir, &[(RuleSet::Awari, 7)]);
        assert_eq!(
            said,
            [
                "removed awari-03.oegtb",
                "removed awari-05.oegtb",
                "removed awari-20.oegtb",
                "build awari 3-7"
            ]
        );
        // Levels 0-2 are usable at once; then each rebuilt level with the good ones above it (4,
        // 6-7: a level's entries depend only on the levels below, which are rebuilt the same).
        assert_eq!(ready, [2, 4, 7]);
        assert_eq!(fs::read(&truncated).unwrap(), good);
        assert!(!partial.exists() && !stray.exists());
        assert_eq!(Tablebase::open(dir, RuleSet::Awari).unwrap().max_seeds(), 7);
    }

    #[test]
    fn two_at_once_take_turns() {
        let dir = tempfile::tempdir().unwrap();
        let dir = dir.path();
        let plan = [(RuleSet::Awari, 9)];
        let results: Vec<(Vec<String>, Vec<usize>)> = std::thread::scope(|s| {
            let a = s.spawn(|| prepare_logged(dir, &plan));
            let b = s.spawn(|| prepare_logged(dir, &plan));
            vec![a.join().unwrap(), b.join().unwrap()]
        });
        // Whichever came second found every level built by the first.
        let builders = results
            .iter()
            .filter(|(said, _)| said.iter().any(|s| s.starts_with("build")))
            .count();
        assert_eq!(builders, 1, "{results:?}");
        for (_, ready) in &results {
            assert_eq!(ready.last(), Some(&9));
        }
        assert_eq!(Tablebase::open(dir, RuleSet::Awari).unwrap().max_seeds(), 9);
        let mut expected: Vec<String> = (0..=9).map(|s| file_name(RuleSet::Awari, s)).collect();
        expected.push(LOCK_FILE.to_string());
        expected.sort();
        assert_eq!(file_names(dir), expected);
    }

    #[test]
    fn the_directory_follows_xdg() {
        let some = |s: &str| Some(OsString::from(s));
        assert_eq!(
            data_dir_from(some("/data"), some("/home/u")),
            Some(PathBuf::from("/data/oware/egtb"))
        );
        // A relative XDG_DATA_HOME is ignored, as the specification says.
        for xdg in [None, some(""), some("rel/dir")] {
            assert_eq!(
                data_dir_from(xdg, some("/home/u")),
                Some(PathBuf::from("/home/u/.local/share/oware/egtb"))
            );
        }
        assert_eq!(data_dir_from(None, None), None);
        assert_eq!(data_dir_from(None, some("")), None);
    }
}
