//! One rank's part of an MPI job that builds levels (`mpirun -np N oware egtb build --mpi`):
//! `run_mpi_build` (with the `mpi` feature) starts the worker threads and MPI, runs [`build_distributed`] with MPI's
//! transport, ends the whole job when this rank fails (the others would wait for it forever), and
//! says which level was lost when the job is ended under it.
//!
//! [`build_distributed`]: super::build_distributed

use std::fmt;
use std::str::FromStr;

use oware_rules::RuleSet;

/// Where the failure test of a job kills a rank: rank `rank` raises SIGKILL on itself while it
/// builds level `level`, as a node that dies would. Written `RANK:LEVEL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KillRank {
    /// The rank that dies.
    pub rank: usize,
    /// The level it dies in.
    pub level: usize,
}

/// A [`KillRank`] that is not `RANK:LEVEL`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?}: expected RANK:LEVEL")]
pub struct BadKillRank(pub String);

impl FromStr for KillRank {
    type Err = BadKillRank;
    fn from_str(text: &str) -> Result<KillRank, BadKillRank> {
        text.split_once(':')
            .and_then(|(r, l)| {
                Some(KillRank {
                    rank: r.parse().ok()?,
                    level: l.parse().ok()?,
                })
            })
            .ok_or_else(|| BadKillRank(text.to_string()))
    }
}

/// Why a job ended with level `seeds` unfinished: mpirun ends every rank with SIGTERM when one dies.
/// The parts written so far are left behind, never a level file, so the same build resumes there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped {
    /// The rule set being built.
    pub rules: RuleSet,
    /// The level being built.
    pub seeds: usize,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Stopped { rules, seeds } = *self;
        write!(
            f,
            "the job was stopped while building {rules} level {seeds} (a rank died or was \
             killed); no file of level {seeds} was written, levels below it are complete: rerun \
             the same command to resume from level {seeds}"
        )
    }
}

#[cfg(feature = "mpi")]
pub use with_mpi::*;

#[cfg(feature = "mpi")]
mod with_mpi {
    use std::num::NonZeroUsize;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
    use std::time::Instant;

    use oware_rules::RuleSet;

    use super::super::mpi_transport::MpiTransport;
    use super::super::{build_distributed, check_request, DistributedError, LevelEvent, LowerMode};
    use super::{KillRank, Stopped};
    use crate::{Progress, SearchBudget};

    /// What one rank of an MPI job builds; every rank is given the same.
    #[derive(Debug, Clone)]
    pub struct MpiBuildRequest {
        /// The rule set.
        pub rules: RuleSet,
        /// The highest level: levels `0..=max_seeds` are built (those in `dir` reused).
        pub max_seeds: usize,
        /// The directory of the database files, shared by the ranks.
        pub dir: PathBuf,
        /// Worker threads of each rank (default: one per core).
        pub threads: Option<NonZeroUsize>,
        /// How a rank reads lower-level values it does not hold.
        pub lower: LowerMode,
        /// abapa's searches.
        pub search: SearchBudget,
        /// The failure test: a rank that kills itself.
        pub kill: Option<KillRank>,
        /// What rank 0's line on standard error starts with when the job is ended under it by a
        /// signal (`{program}: {Stopped}`): the one message no caller code can be run for.
        pub program: &'static str,
    }

    /// This rank and the job's size.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct RankInJob {
        /// This rank's number, 0 for the one that assembles the files.
        pub rank: usize,
        /// Ranks in the job.
        pub ranks: usize,
    }

    /// What the job's level loop tells the caller, on every rank.
    pub enum JobEvent<'a> {
        /// A level starts or ends (the same on every rank).
        Level(LevelEvent<'a>),
        /// This rank failed; the whole job is ended (`MPI_Abort`) once the caller has been told.
        Failed(&'a DistributedError),
    }

    /// A finished job, as one rank saw it.
    #[derive(Debug, Clone, Copy, PartialEq)]
    pub struct MpiBuildSummary {
        /// This rank and the job's size.
        pub place: RankInJob,
        /// Boards of the levels built now (not those found already built).
        pub built: u64,
        /// Wall-clock seconds from the start of the job.
        pub seconds: f64,
    }

    /// What stops a rank before its job starts building.
    #[derive(Debug, thiserror::Error)]
    pub enum MpiJobError {
        /// The request cannot be built (see [`check_request`]).
        #[error(transparent)]
        Request(DistributedError),
        /// The worker threads could not be started.
        #[error("starting worker threads")]
        Threads(#[source] rayon::ThreadPoolBuildError),
        /// MPI was already initialised in this process (once per process).
        #[error("initialising MPI")]
        MpiInit,
    }

    /// Builds `request` as one rank of the MPI job this process belongs to: starts the worker
    /// threads (rayon's global pool) and MPI, then builds level by level with
    /// [`build_distributed`], each level's work units reported to `progress` and each level's
    /// start and end to `on_event`. A rank that fails tells `on_event` ([`JobEvent::Failed`]) and
    /// ends the whole job, this process included (the other ranks would wait for it in their next
    /// exchange). While a level is built, rank 0 writes `{program}: {Stopped}` on standard error
    /// and exits with status 1 when ended by SIGTERM or SIGINT (as mpirun ends every rank when one
    /// dies). Collective: every rank calls it with the same request.
    pub fn run_mpi_build(
        request: &MpiBuildRequest,
        progress: &dyn Progress,
        mut on_event: impl FnMut(RankInJob, JobEvent) + Send,
    ) -> Result<MpiBuildSummary, MpiJobError> {
        let MpiBuildRequest {
            rules,
            max_seeds,
            ref dir,
            threads,
            lower,
            search,
            kill,
            program,
        } = *request;
        check_request(rules, max_seeds, lower).map_err(MpiJobError::Request)?;
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(t) = threads {
            pool = pool.num_threads(t.get());
        }
        pool.build_global().map_err(MpiJobError::Threads)?;
        let mpi = MpiTransport::init().ok_or(MpiJobError::MpiInit)?;
        let place = RankInJob {
            rank: mpi.rank(),
            ranks: mpi.size(),
        };
        let started = Instant::now();
        let building = AtomicUsize::new(usize::MAX);
        let progress = |units: u64| {
            let level = building.load(Ordering::Relaxed);
            if kill.is_some_and(|k| k.rank == place.rank && k.level == level) {
                // SAFETY: raising a signal on this process has no memory effects.
                unsafe { libc::raise(libc::SIGKILL) };
            }
            progress.advance(units);
        };
        let mut built = 0u64;
        // The level loop runs on a worker thread; this thread, which initialised MPI, carries out
        // its exchanges while it computes.
        let result = mpi.serve(|t| {
            build_distributed(
                t,
                dir,
                rules,
                max_seeds,
                lower,
                search,
                &progress,
                |event| {
                    match &event {
                        LevelEvent::Started { seeds, .. } => {
                            building.store(*seeds, Ordering::Relaxed);
                            if place.rank == 0 {
                                say_when_stopped(
                                    program,
                                    Stopped {
                                        rules,
                                        seeds: *seeds,
                                    },
                                );
                            }
                        }
                        LevelEvent::Finished(level) if !level.reused => built += level.boards,
                        LevelEvent::Finished(_) => {}
                    }
                    on_event(place, JobEvent::Level(event));
                },
            )
        });
        if let Err(e) = result {
            on_event(place, JobEvent::Failed(&e));
            mpi.abort(1);
        }
        Ok(MpiBuildSummary {
            place,
            built,
            seconds: started.elapsed().as_secs_f64(),
        })
    }

    /// What the signal handler writes: the message of the level being built, set at each level's
    /// start; the handler only reads it.
    static STOPPED_MESSAGE: AtomicPtr<Box<[u8]>> = AtomicPtr::new(std::ptr::null_mut());

    /// From now on, SIGTERM and SIGINT write `{program}: {stopped}` on standard error and exit with
    /// status 1.
    fn say_when_stopped(program: &str, stopped: Stopped) {
        extern "C" fn on_term(_: libc::c_int) {
            let message = STOPPED_MESSAGE.load(Ordering::SeqCst);
            // SAFETY: the message is leaked, never freed, and write(2) and _exit(2) are
            // async-signal-safe.
            unsafe {
                if let Some(m) = message.as_ref() {
                    libc::write(2, m.as_ptr().cast(), m.len());
                }
                libc::_exit(1);
            }
        }
        let text = format!("{program}: {stopped}\n");
        let leaked: &'static mut Box<[u8]> =
            Box::leak(Box::new(text.into_bytes().into_boxed_slice()));
        let first = STOPPED_MESSAGE.swap(leaked, Ordering::SeqCst).is_null();
        if first {
            let handler = on_term as extern "C" fn(libc::c_int);
            // SAFETY: installs a handler that only calls async-signal-safe functions.
            unsafe {
                libc::signal(libc::SIGTERM, handler as libc::sighandler_t);
                libc::signal(libc::SIGINT, handler as libc::sighandler_t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kill_rank_reads_rank_colon_level() {
        assert_eq!("2:10".parse(), Ok(KillRank { rank: 2, level: 10 }));
        for bad in ["", "2", "2:", ":10", "a:1", "1:2:3", "-1:2"] {
            assert_eq!(bad.parse::<KillRank>(), Err(BadKillRank(bad.to_string())));
        }
    }

    /// The stopped job's message names the level three times: the one lost, and where to resume.
    #[test]
    fn a_stopped_job_says_which_level_to_resume_from() {
        let text = Stopped {
            rules: RuleSet::Abapa,
            seeds: 10,
        }
        .to_string();
        assert!(
            text.starts_with("the job was stopped while building abapa level 10 "),
            "{text}"
        );
        assert!(text.ends_with("resume from level 10"), "{text}");
        assert!(text.contains("no file of level 10 was written"), "{text}");
    }
}
