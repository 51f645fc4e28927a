//! The changes the server makes on its own, with nobody waiting on a request to try again: a flag
//! fall, a correspondence game's time running out, the computer's move. One that the database
//! refuses (a full disk, a failing write) is tried again, less and less often, until it is stored
//! (and announced to the players), it is no longer needed, or the server stops: a game never waits
//! for a change that nobody will make.

use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::play::room::GameError;

/// The first wait before a change is tried again; each later wait is twice the one before.
const FIRST_PAUSE: Duration = Duration::from_millis(250);

/// The longest wait between two tries.
const MAX_PAUSE: Duration = Duration::from_secs(30);

/// Runs `change` until it succeeds, or until the server stops (`serving` turns false). Each
/// failure is logged as "game GAME: WHAT not stored", and a success after failures too.
pub async fn until_stored<T, F, Fut>(
    game: &str,
    what: &str,
    serving: &AtomicBool,
    mut change: F,
) -> Option<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, GameError>>,
{
    let mut pause = FIRST_PAUSE;
    let mut failures = 0u32;
    loop {
        match change().await {
            Ok(done) => {
                if failures > 0 {
                    eprintln!(
                        "oware serve: game {game}: {what} stored after {failures} failed {}",
                        if failures == 1 { "try" } else { "tries" }
                    );
                }
                return Some(done);
            }
            Err(e) => eprintln!(
                "oware serve: game {game}: {what} not stored ({e}); trying again in {} ms",
                pause.as_millis()
            ),
        }
        failures += 1;
        tokio::time::sleep(pause).await;
        if !serving.load(Ordering::SeqCst) {
            return None;
        }
        pause = (pause * 2).min(MAX_PAUSE);
    }
}
