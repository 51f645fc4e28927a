//! The one writer of the database: a thread that owns the SQLite connection and runs the jobs sent
//! to it in order, so that no SQLite call (a write can wait on the disk) ever runs on the async
//! runtime's threads.
//!
//! A job's result comes back through a oneshot channel once the job, and so its transaction, is
//! done: a caller that awaits [`StoreWriter::run`] before acknowledging a move acknowledges only
//! what is committed.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use crate::store::{Store, StoreError, WalReport};

/// A job; it answers whether it failed in a way that concerns the connection (see
/// [`StoreError::concerns_the_connection`]).
type Job = Box<dyn FnOnce(&mut Store) -> bool + Send>;

/// The shortest time between two reopenings of the connection: on a disk that fails every write,
/// each failure would otherwise reopen it.
const REOPEN_EVERY: Duration = Duration::from_secs(1);

/// A handle on the writer thread; clones share the thread, which stops when the last handle goes.
#[derive(Clone)]
pub struct StoreWriter {
    jobs: mpsc::Sender<Job>,
}

impl StoreWriter {
    /// Starts the thread that owns `store`. After a job that failed in a way that concerns the
    /// connection, the thread closes it and opens it again, so that one failed lock release does
    /// not stop every later write; after every job it checks that the write-ahead log still
    /// reaches the disk (see [`Store::check_wal`]). Both are said on standard error.
    pub fn start(mut store: Store) -> std::io::Result<StoreWriter> {
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("oware-store".into())
            .spawn(move || {
                let mut reopened: Option<Instant> = None;
                for job in queue {
                    if store.is_closed() {
                        // Closed by a reopening that failed: each job tries once more first.
                        recover(&mut store, Store::open_again);
                    }
                    // A job that panics loses its own answer (its caller gets `WriterStopped`)
                    // and rolls back its transaction as it unwinds; the others go on.
                    let failed = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut store)))
                        .unwrap_or(false);
                    if failed && reopened.is_none_or(|at| at.elapsed() >= REOPEN_EVERY) {
                        reopened = Some(Instant::now());
                        recover(&mut store, Store::reopen);
                    }
                    report_wal(store.check_wal());
                }
            })?;
        Ok(StoreWriter { jobs })
    }

    /// Runs `work` on the writer thread and waits, without blocking the runtime, for its result.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Box::new(move |store: &mut Store| {
                let result = work(store);
                let failed = result
                    .as_ref()
                    .is_err_and(StoreError::concerns_the_connection);
                // The caller may have gone (a closed connection): the work is done all the same.
                let _ = reply.send(result);
                failed
            }))
            .map_err(|_| StoreError::WriterStopped)?;
        answer.await.map_err(|_| StoreError::WriterStopped)?
    }
}

/// Opens the database's connection again (by `open`: [`Store::reopen`] or
/// [`Store::open_again`]), and says so.
fn recover(store: &mut Store, open: fn(&mut Store) -> Result<bool, StoreError>) {
    match open(store) {
        Ok(false) => {}
        Ok(true) => {
            eprintln!("oware serve: a write to the game database failed: its connection was closed and opened again");
            for notice in store.take_notices() {
                eprintln!("oware serve: game database: {notice}");
            }
        }
        Err(e) => eprintln!(
            "oware serve: the game database cannot be opened again ({e}): the next write tries again"
        ),
    }
}

fn report_wal(report: Option<WalReport>) {
    match report {
        None => {}
        Some(WalReport::FlushFailing {
            error,
            failures,
            wal_bytes,
        }) => eprintln!(
            "oware serve: the game database cannot be flushed to the disk ({error}; {failures} failed {} since the last report; its log holds {} KiB): moves are kept, but a power cut could lose those since the last flush",
            if failures == 1 { "flush" } else { "flushes" },
            wal_bytes / 1024
        ),
        Some(WalReport::Flushed { wal_bytes }) => eprintln!(
            "oware serve: the game database reaches the disk again: its log of {} KiB is flushed",
            wal_bytes / 1024
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::{GameMode, GameSetup};
    use oware_rules::{Move, Position, RuleSet, Side};

    #[tokio::test]
    async fn jobs_run_on_the_thread_and_a_panic_fails_only_its_own() {
        let writer = StoreWriter::start(Store::in_memory().unwrap()).unwrap();
        let setup = GameSetup {
            mode: GameMode::Friend,
            rules: RuleSet::Abapa,
            start: Position::start(),
            clock_ms: None,
            increment_ms: 0,
            per_move: false,
        };
        writer
            .run(move |s| {
                let seat = crate::store::SeatRow {
                    token: "t",
                    side: Side::South,
                    name: None,
                };
                s.create_game("g", &setup, Some(seat), None)
            })
            .await
            .unwrap();
        let f = Move::from_letter('F').unwrap();
        writer
            .run(move |s| s.append_move("g", 0, f, None))
            .await
            .unwrap();
        let panicked = writer
            .run(|_| -> Result<(), StoreError> { panic!("a bug in a job") })
            .await;
        assert!(matches!(panicked, Err(StoreError::WriterStopped)));
        let game = writer.run(|s| s.load_game("g")).await.unwrap().unwrap();
        assert_eq!(game.moves, vec![f]);
    }

    #[tokio::test(flavor = "current_thread")]
    async fn a_slow_job_leaves_the_runtime_free() {
        let writer = StoreWriter::start(Store::in_memory().unwrap()).unwrap();
        let slow = writer.run(|_| {
            std::thread::sleep(std::time::Duration::from_millis(400));
            Ok(())
        });
        tokio::pin!(slow);
        // On the runtime's only thread, a timer fires while the job runs.
        tokio::select! {
            biased;
            _ = &mut slow => panic!("the job ran before the timer: it held the runtime"),
            _ = tokio::time::sleep(std::time::Duration::from_millis(50)) => {}
        }
        slow.await.unwrap();
    }
}
