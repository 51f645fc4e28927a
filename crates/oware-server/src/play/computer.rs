//! The computer player: thinks about its move on a blocking thread with an engine from the pool,
//! then plays it in the room.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use crate::analysis::engines::EnginePool;
use crate::play::clock_watch;
use crate::play::retry;
use crate::play::room::{ComputerTurn, Room};
use crate::store::writer::StoreWriter;

/// Lets the computer think about `turn` for at most `time`, then plays its move in `room`
/// (unless the game changed meanwhile: the room drops a move thought about in an older state),
/// and watches the clock that then runs, in a game with clocks (`serving`: see
/// [`clock_watch::watch`]).
pub fn spawn_move(
    room: Arc<Room>,
    turn: ComputerTurn,
    engines: Arc<EnginePool>,
    store: StoreWriter,
    time: Duration,
    serving: Arc<AtomicBool>,
) {
    tokio::spawn(async move {
        let ComputerTurn {
            game,
            level,
            version,
        } = turn;
        let permit = engines.acquire().await;
        let mv = tokio::task::spawn_blocking(move || {
            permit.with_engine(|engine| {
                // Levels 1-4 make the coach's human mistakes (the pool's analyses, at full
                // strength, never ask the model).
                engine.set_oversight(Some(Arc::new(oware_coach::HumanMistakes)));
                let mut random = oware_engine::player::seed_from_clock();
                oware_engine::player::choose_move_with(engine, &game, level, time, &mut random)
            })
        })
        .await
        .ok()
        .flatten();
        // Tried until stored: see `retry`. An undo meanwhile makes the move stale, which
        // `play_computer` answers with success (the move is dropped).
        let stored = retry::until_stored(&room.id, "computer move", &serving, || {
            room.play_computer(&store, version, mv)
        })
        .await;
        if stored.is_some() {
            clock_watch::watch(room, store, serving);
        }
    });
}
