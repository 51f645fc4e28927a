//! Watching the game clocks: a flag falls when the side to move's time runs out, whether or not
//! anyone is connected to say so; and the player of a correspondence game is reminded when one
//! day of their time for the move is left.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::game::clock::now_ms;
use crate::play::retry;
use crate::play::room::Room;
use crate::store::writer::StoreWriter;

/// Declares the flag fall of the side to move when its time runs out, unless it moves first
/// (then this watcher finds time left and does nothing; the move started a new one), or the
/// server stops first (`serving` turns false: a flag must not fall while the server is down).
/// A flag fall the database refuses is tried again until it is stored and announced (see
/// [`retry::until_stored`]).
pub fn watch(room: Arc<Room>, store: StoreWriter, serving: Arc<AtomicBool>) {
    let Some(deadline) = room.flag_deadline() else {
        return;
    };
    tokio::spawn(async move {
        let wait = deadline.saturating_sub(now_ms()) + 1;
        tokio::time::sleep(Duration::from_millis(wait)).await;
        if !serving.load(Ordering::SeqCst) {
            return;
        }
        retry::until_stored(&room.id, "flag fall", &serving, || room.check_flag(&store)).await;
    });
}

/// Reminds the side to move of `room`, a correspondence game, when `day` of its time is left,
/// unless it moves first (see [`Room::remind`]) or the server stops first.
pub fn remind(room: &Arc<Room>, serving: &Arc<AtomicBool>, day: Duration) {
    let Some((at, since)) = room.reminder_due(day.as_millis() as u64) else {
        return;
    };
    let (room, serving) = (room.clone(), serving.clone());
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(at.saturating_sub(now_ms()))).await;
        if serving.load(Ordering::SeqCst) {
            room.remind(since);
        }
    });
}
