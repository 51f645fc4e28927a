//! The games the server holds: the rooms in memory (loaded from the database on demand, the
//! idle ones forgotten when there are too many), and the actions on a game that set the server's
//! own players going afterwards: the computer's answer and the watch on the clocks.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oware_rules::{Move, Side};

use crate::analysis::engines::EnginePool;
use crate::game::clock::now_ms;
use crate::game::ids::{new_token, valid_id};
use crate::game::model::{GameMode, GameSetup};
use crate::notify::Notifier;
use crate::play::clock_watch;
use crate::play::computer;
use crate::play::room::{GameError, Room};
use crate::store::writer::StoreWriter;
use crate::store::{SeatRow, StoreError};

/// Every game, with what it takes to store and play them.
pub struct Games {
    store: StoreWriter,
    /// Tells the players whose page is closed of their games' events.
    notifier: Notifier,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    engines: Arc<EnginePool>,
    computer_time: Duration,
    max_rooms: usize,
    moves_per_second: u32,
    /// False once the server has stopped: the clock watchers then stand down.
    serving: Arc<AtomicBool>,
    /// A day of game time: the players of correspondence games are reminded when one is left.
    day: Duration,
}

impl Games {
    /// No games in memory yet; the computer thinks at most `computer_time` a move, at most
    /// `max_rooms` games stay in memory, each game accepts `moves_per_second` players' moves
    /// a second, and a minute of the clocks lasts `clock_minute`.
    pub fn new(
        store: StoreWriter,
        notifier: Notifier,
        engines: Arc<EnginePool>,
        computer_time: Duration,
        max_rooms: usize,
        moves_per_second: u32,
        clock_minute: Duration,
    ) -> Games {
        Games {
            store,
            notifier,
            rooms: Mutex::new(HashMap::new()),
            engines,
            computer_time,
            max_rooms,
            moves_per_second,
            serving: Arc::new(AtomicBool::new(true)),
            day: clock_minute * 24 * 60,
        }
    }

    /// Watches the clock that runs now in `room`: its flag fall, and its reminder.
    fn watch(&self, room: &Arc<Room>) {
        clock_watch::watch(room.clone(), self.store.clone(), self.serving.clone());
        clock_watch::remind(room, &self.serving, self.day);
    }

    /// The database's writer, for the changes that belong to no room (push subscriptions).
    pub fn store(&self) -> &StoreWriter {
        &self.store
    }

    /// The server has stopped: no flag falls from now on in this process (the next start
    /// declares those that fell while it ran, and gives back the time it was down).
    pub fn stop(&self) {
        self.serving
            .store(false, std::sync::atomic::Ordering::SeqCst);
    }

    fn rooms(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Room>>> {
        // The map is changed by single inserts and retains, which a panic cannot leave halfway.
        self.rooms.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores a new game with its creator, named `name`, in `side`, and loads it (which starts
    /// the computer if it moves first). Returns the game's id, the creator's token and, between
    /// friends, the invitation's code (only a join that gives it takes the other seat).
    pub async fn create(
        &self,
        setup: GameSetup,
        side: Side,
        name: Option<String>,
    ) -> Result<(String, String, Option<String>), GameError> {
        let (id, token) = (new_token(), new_token());
        let invite = (setup.mode == GameMode::Friend).then(new_token);
        let (stored_id, stored_token, stored_invite) = (id.clone(), token.clone(), invite.clone());
        self.store
            .run(move |s| {
                let creator = SeatRow {
                    token: &stored_token,
                    side,
                    name: name.as_deref(),
                };
                s.create_game(&stored_id, &setup, Some(creator), stored_invite.as_deref())
            })
            .await?;
        self.room(&id).await?;
        Ok((id, token, invite))
    }

    /// The room of game `id`, loaded from the database if it is not in memory.
    pub async fn room(&self, id: &str) -> Result<Arc<Room>, GameError> {
        if !valid_id(id) {
            return Err(GameError::UnknownGame(id.chars().take(40).collect()));
        }
        if let Some(room) = self.rooms().get(id) {
            return Ok(room.clone());
        }
        let wanted = id.to_string();
        let loaded = self
            .store
            .run(move |s| s.load_game(&wanted))
            .await
            .and_then(|stored| {
                stored
                    .map(|stored| {
                        Room::new(
                            id.to_string(),
                            stored,
                            self.moves_per_second,
                            self.notifier.clone(),
                        )
                    })
                    .transpose()
            })
            .inspect_err(|e| {
                if matches!(e, StoreError::Damaged { .. }) {
                    eprintln!("oware serve: {e}: the game is set aside");
                }
            })?
            .ok_or_else(|| GameError::UnknownGame(id.to_string()))?;
        let loaded = Arc::new(loaded);
        let room = {
            let mut rooms = self.rooms();
            if let Some(room) = rooms.get(id) {
                // Loaded by another request meanwhile: that one is the room.
                return Ok(room.clone());
            }
            if rooms.len() >= self.max_rooms {
                // Forget rooms nobody is connected to; they come back from the database when
                // needed.
                rooms.retain(|_, r| Arc::strong_count(r) > 1);
            }
            rooms.insert(id.to_string(), loaded.clone());
            loaded
        };
        // A flag may have fallen while the server ran before (the time it was down was given
        // back as it started). If storing it fails, the watcher below tries again.
        if let Err(e) = room.check_flag(&self.store).await {
            eprintln!("oware serve: game {id}: flag fall not stored yet ({e})");
        }
        self.watch(&room);
        // A restart may have caught the computer about to move.
        if let Some(turn) = room.pending_computer_turn() {
            self.spawn_computer(&room, turn);
        }
        Ok(room)
    }

    /// Gives the free side of a friend game to a new player who brings the invitation's code:
    /// its token and side, or `None` (see [`Room::join`]).
    pub async fn join(
        &self,
        room: &Arc<Room>,
        invite: Option<&str>,
        name: Option<String>,
    ) -> Result<Option<(String, Side)>, GameError> {
        let (room, store, invite) = (room.clone(), self.store.clone(), invite.map(str::to_owned));
        run_to_the_end(async move { room.join(&store, invite.as_deref(), name).await }).await
    }

    /// A new invitation to a friend game (see [`Room::reinvite`]).
    pub async fn reinvite(
        &self,
        room: &Arc<Room>,
        token: Option<&str>,
    ) -> Result<String, GameError> {
        let (room, store, token) = (room.clone(), self.store.clone(), token.map(str::to_owned));
        run_to_the_end(async move { room.reinvite(&store, token.as_deref()).await }).await
    }

    /// Plays a player's move (see [`Room::play`]), then starts the computer's answer or the
    /// watch on the clock that now runs.
    pub async fn play(
        &self,
        room: &Arc<Room>,
        token: Option<&str>,
        mv: Move,
        seen_ply: Option<usize>,
    ) -> Result<(), GameError> {
        let (playing, store, token) = (room.clone(), self.store.clone(), token.map(str::to_owned));
        let turn =
            run_to_the_end(
                async move { playing.play(&store, token.as_deref(), mv, seen_ply).await },
            )
            .await?;
        if let Some(turn) = turn {
            self.spawn_computer(room, turn);
        }
        self.watch(room);
        Ok(())
    }

    /// Takes back a move in a game against the computer (see [`Room::undo`]).
    pub async fn undo(&self, room: &Arc<Room>, token: Option<&str>) -> Result<(), GameError> {
        let (undoing, store, token) = (room.clone(), self.store.clone(), token.map(str::to_owned));
        run_to_the_end(async move { undoing.undo(&store, token.as_deref()).await }).await?;
        self.watch(room);
        Ok(())
    }

    /// A player resigns (see [`Room::resign`]).
    pub async fn resign(&self, room: &Arc<Room>, token: Option<&str>) -> Result<(), GameError> {
        let (room, store, token) = (room.clone(), self.store.clone(), token.map(str::to_owned));
        run_to_the_end(async move { room.resign(&store, token.as_deref()).await }).await
    }

    /// A player calls the game off before their first move (see [`Room::abort`]).
    pub async fn abort(&self, room: &Arc<Room>, token: Option<&str>) -> Result<(), GameError> {
        let (room, store, token) = (room.clone(), self.store.clone(), token.map(str::to_owned));
        run_to_the_end(async move { room.abort(&store, token.as_deref()).await }).await
    }

    /// Answers an offer (see [`Room::answer`]); a takeback restarts a clock, which is watched.
    pub async fn answer(
        &self,
        room: &Arc<Room>,
        token: Option<&str>,
        accept: bool,
    ) -> Result<(), GameError> {
        let (answering, store, token) =
            (room.clone(), self.store.clone(), token.map(str::to_owned));
        run_to_the_end(async move { answering.answer(&store, token.as_deref(), accept).await })
            .await?;
        self.watch(room);
        Ok(())
    }

    /// A player's seat in a finished game's rematch (see [`Room::rematch`]), which is loaded
    /// (the computer starts if it moves first).
    pub async fn rematch(
        &self,
        room: &Arc<Room>,
        token: Option<&str>,
    ) -> Result<(String, String, Side), GameError> {
        let (old, store, token) = (room.clone(), self.store.clone(), token.map(str::to_owned));
        let seat =
            run_to_the_end(async move { old.rematch(&store, token.as_deref()).await }).await?;
        self.room(&seat.0).await?;
        Ok(seat)
    }

    /// Loads the games some confirmed e-mail address waits on, so that their clocks are watched
    /// (for the reminders) from the start, not from the next time someone opens them.
    pub async fn load_games_with_mail(&self) {
        let ids = match self.store.run(|s| s.games_with_mail()).await {
            Ok(ids) => ids,
            Err(e) => {
                eprintln!("oware serve: cannot read the games told by e-mail: {e}");
                return;
            }
        };
        for id in ids {
            if let Err(e) = self.room(&id).await {
                eprintln!("oware serve: game {id}, told by e-mail, does not load: {e}");
            }
        }
    }

    /// Notes in the database that the server is alive now.
    pub async fn note_alive(&self) -> Result<(), GameError> {
        let now = now_ms();
        self.store.run(move |s| s.note_alive(now)).await?;
        Ok(())
    }

    fn spawn_computer(&self, room: &Arc<Room>, turn: crate::play::room::ComputerTurn) {
        computer::spawn_move(
            room.clone(),
            turn,
            self.engines.clone(),
            self.store.clone(),
            self.computer_time,
            self.serving.clone(),
        );
    }
}

/// Runs a change to a room in a task of its own, so that it is finished even if the request that
/// asked for it goes away meanwhile (a closed connection drops its handler at its next await): a
/// change the database has committed must reach the room and the players too.
async fn run_to_the_end<T: Send + 'static>(
    change: impl Future<Output = Result<T, GameError>> + Send + 'static,
) -> Result<T, GameError> {
    match tokio::spawn(change).await {
        Ok(result) => result,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        // Cancelled: only when the runtime itself shuts down.
        Err(_) => Err(GameError::ShuttingDown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use oware_engine::ProbeSet;
    use oware_rules::{Position, RuleSet};
    use std::sync::atomic::AtomicBool;

    /// Games stored by `store`, with a computer that thinks 10 ms.
    fn games_on(store: &StoreWriter) -> Games {
        Games::new(
            store.clone(),
            Notifier::off(),
            EnginePool::new(1, &ProbeSet::none()),
            Duration::from_millis(10),
            10,
            10,
            Duration::from_secs(60),
        )
    }

    /// A friend game from the start, with the clock given.
    fn friends(clock_ms: Option<u64>, per_move: bool) -> GameSetup {
        GameSetup {
            mode: GameMode::Friend,
            rules: RuleSet::Abapa,
            start: Position::start(),
            clock_ms,
            increment_ms: 0,
            per_move,
        }
    }

    #[tokio::test]
    async fn a_change_whose_request_went_away_still_reaches_the_room() {
        let store = StoreWriter::start(Store::in_memory().unwrap()).unwrap();
        let games = games_on(&store);
        let (id, _, invite) = games
            .create(friends(None, false), Side::South, None)
            .await
            .unwrap();
        let room = games.room(&id).await.unwrap();
        // Keep the writer busy, so the join waits for it, and give up on the join meanwhile.
        let busy = store.clone();
        let slow = tokio::spawn(async move {
            busy.run(|_| -> Result<(), StoreError> {
                std::thread::sleep(Duration::from_millis(300));
                Ok(())
            })
            .await
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        let gave_up = tokio::time::timeout(
            Duration::from_millis(50),
            games.join(&room, invite.as_deref(), None),
        )
        .await;
        assert!(
            gave_up.is_err(),
            "the join was still waiting for the writer"
        );
        slow.await.unwrap().unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let stored = store.run(move |s| s.load_game(&id)).await.unwrap().unwrap();
        assert!(stored.tokens[1].is_some(), "the join was committed");
        assert_eq!(room.view().seated, [true, true], "and reached the room");
    }

    /// A flag fall (or a correspondence game's time running out) that the database refuses is
    /// tried again until it is stored, and then announced, with nobody moving or reconnecting.
    #[tokio::test]
    async fn a_flag_fall_the_disk_refuses_is_stored_and_announced_once_it_accepts() {
        for per_move in [false, true] {
            let dir = tempfile::tempdir().unwrap();
            let mut store = Store::open(&dir.path().join("games.sqlite")).unwrap();
            let failing = Arc::new(AtomicBool::new(false));
            let fail = failing.clone();
            store.fail_commits(move || fail.load(std::sync::atomic::Ordering::SeqCst));
            let store = StoreWriter::start(store).unwrap();
            let games = games_on(&store);
            let (id, south, invite) = games
                .create(friends(Some(150), per_move), Side::South, None)
                .await
                .unwrap();
            let room = games.room(&id).await.unwrap();
            games.join(&room, invite.as_deref(), None).await.unwrap();
            let mut updates = room.subscribe();
            let f = Move::from_letter('F').unwrap();
            games.play(&room, Some(&south), f, None).await.unwrap();
            // North's clock runs; the disk fails from before its flag falls until well after.
            failing.store(true, std::sync::atomic::Ordering::SeqCst);
            tokio::time::sleep(Duration::from_millis(600)).await;
            assert!(room.view().end.is_none(), "not stored, not announced");
            failing.store(false, std::sync::atomic::Ordering::SeqCst);
            let announced = tokio::time::timeout(Duration::from_secs(5), async {
                loop {
                    let state = updates.recv().await.unwrap();
                    if state.contains(r#""reason":"time""#) {
                        break state;
                    }
                }
            })
            .await
            .expect("the flag fall was announced once the disk accepted it");
            assert!(announced.contains(r#""winner":"S""#), "{announced}");
            let stored = store.run(move |s| s.load_game(&id)).await.unwrap().unwrap();
            assert_eq!(stored.clock.unwrap().flagged, Some(Side::North));
        }
    }
}
