//! The `oware serve` web server: play oware in the browser against the computer or a friend far
//! away, watch games, analyse positions, read the rules, in Catalan, Spanish, English or French.
//!
//! - [`store`]: SQLite storage of games, players' tokens and moves, one transaction per change.
//! - [`games`]: the rooms that referee each game with `oware_rules::Game` and broadcast changes.
//! - [`protocol`]: the JSON messages spoken over the WebSocket.
//! - [`http`]: the routes: pages, the JSON API, the WebSocket endpoint.
//! - [`analysis`]: the pool of engines that the computer players and the analysis board share.
//! - [`record`]: the game-record reader/writer.
//! - [`databases`]: the endgame databases (`--egtb`), probed by the engines and shown on the
//!   analysis board.
//!
//! The browser assets in `web/` are compiled into the binary, so the server needs no other files.

pub mod analysis;
pub mod assets;
pub mod clock;
pub mod databases;
pub mod games;
pub mod http;
pub mod protocol;
pub mod record;
pub mod store;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicUsize;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use analysis::EnginePool;
use games::{ComputerTurn, GameError, Room};
use store::{Store, StoreError};

/// How the server runs.
#[derive(Debug, Clone)]
pub struct Config {
    /// The SQLite file; `None` keeps everything in memory (tests).
    pub data: Option<PathBuf>,
    /// The most time the computer thinks about one move.
    pub computer_time: Duration,
    /// The most WebSocket connections open at once; more are refused with 503.
    pub max_connections: usize,
    /// The most games kept in memory at once (older ones are reloaded from the database).
    pub max_rooms: usize,
    /// The most engine searches (computer moves and analyses) running at once; more wait.
    pub searches: usize,
    /// The most time the analysis board's engine spends on one position.
    pub analysis_time: Duration,
    /// A WebSocket from which nothing (not even the answer to the server's pings) arrives for
    /// this long is closed. Browsers answer pings by themselves, so open pages stay connected.
    pub idle_timeout: Duration,
    /// Messages a second one WebSocket may send on average (bursts of twice as many).
    pub messages_per_second: u32,
    /// Endgame databases: the engines probe them, the analysis board shows their values.
    pub databases: databases::Databases,
    /// How long one minute of a game clock lasts: a minute, except in tests, which shorten it to
    /// see flags fall.
    pub clock_minute: Duration,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            data: None,
            computer_time: Duration::from_millis(1500),
            max_connections: 4096,
            max_rooms: 20_000,
            searches: std::thread::available_parallelism().map_or(1, |n| n.get()),
            analysis_time: Duration::from_millis(800),
            idle_timeout: Duration::from_secs(90),
            messages_per_second: 20,
            databases: databases::Databases::none(),
            clock_minute: Duration::from_secs(60),
        }
    }
}

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    #[error("cannot listen: {0}")]
    Io(#[from] std::io::Error),
}

/// What every request handler shares.
pub struct AppState {
    pub config: Config,
    pub store: Mutex<Store>,
    rooms: Mutex<HashMap<String, Arc<Room>>>,
    pub connections: AtomicUsize,
    pub engines: Arc<EnginePool>,
}

pub type Shared = Arc<AppState>;

impl AppState {
    pub fn new(config: Config) -> Result<Shared, ServerError> {
        let store = match &config.data {
            Some(path) => Store::open(path)?,
            None => Store::in_memory()?,
        };
        Ok(Arc::new(AppState {
            engines: EnginePool::new(config.searches, &config.databases),
            config,
            store: Mutex::new(store),
            rooms: Mutex::new(HashMap::new()),
            connections: AtomicUsize::new(0),
        }))
    }

    /// The room of game `id`, loaded from the database if it is not in memory.
    pub fn room(self: &Arc<Self>, id: &str) -> Result<Arc<Room>, GameError> {
        if !valid_id(id) {
            return Err(GameError::UnknownGame(truncate(id, 40)));
        }
        let mut rooms = self.rooms.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(room) = rooms.get(id) {
            return Ok(room.clone());
        }
        let stored = games::lock_store(&self.store)
            .load_game(id)?
            .ok_or_else(|| GameError::UnknownGame(id.to_string()))?;
        let room = Arc::new(Room::new(id.to_string(), stored)?);
        if rooms.len() >= self.config.max_rooms {
            // Forget rooms nobody is connected to; they come back from the database when needed.
            rooms.retain(|_, r| Arc::strong_count(r) > 1);
        }
        rooms.insert(id.to_string(), room.clone());
        drop(rooms);
        // A flag may have fallen while the server was down (the clocks keep running).
        room.check_flag(&self.store)?;
        self.watch_clock(room.clone());
        // A restart may have caught the computer about to move.
        if let Some(turn) = room.pending_computer_turn() {
            self.spawn_computer(room.clone(), turn);
        }
        Ok(room)
    }

    /// Declares the flag fall of the side to move when its time runs out, unless it moves first
    /// (then this watcher finds time left and does nothing; the move started a new one).
    pub fn watch_clock(self: &Arc<Self>, room: Arc<Room>) {
        let Some(deadline) = room.flag_deadline() else {
            return;
        };
        let state = self.clone();
        tokio::spawn(async move {
            let wait = deadline.saturating_sub(clock::now_ms()) + 1;
            tokio::time::sleep(Duration::from_millis(wait)).await;
            if let Err(e) = room.check_flag(&state.store) {
                eprintln!("oware serve: game {}: flag fall not stored: {e}", room.id);
            }
        });
    }

    /// Lets the computer think in a blocking thread, then plays its move in the room.
    pub fn spawn_computer(self: &Arc<Self>, room: Arc<Room>, turn: ComputerTurn) {
        let state = self.clone();
        let time = self.config.computer_time;
        tokio::spawn(async move {
            let ComputerTurn {
                game,
                level,
                version,
            } = turn;
            let permit = state.engines.acquire().await;
            let mv = tokio::task::spawn_blocking(move || {
                permit.with_engine(|engine| {
                    let mut random = oware_engine::player::seed_from_clock();
                    oware_engine::player::choose_move_with(engine, &game, level, time, &mut random)
                })
            })
            .await
            .ok()
            .flatten();
            if let Err(e) = room.play_computer(&state.store, version, mv) {
                eprintln!(
                    "oware serve: game {}: computer move not stored: {e}",
                    room.id
                );
            }
        });
    }
}

/// A new random 128-bit token (or game id), as 32 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Game ids are 32 hex digits; anything else cannot name a game.
pub(crate) fn valid_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn truncate(text: &str, max: usize) -> String {
    text.chars().take(max).collect()
}

/// Serves on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Shared,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let app = http::router(state);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(shutdown)
    .await?;
    Ok(())
}
