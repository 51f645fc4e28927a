//! What every request handler shares: the configuration, the games, the engines and the count of
//! open connections.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use crate::analysis::EnginePool;
use crate::clock::now_ms;
use crate::config::Config;
use crate::games::Games;
use crate::limits::AddressLimits;
use crate::rate_limit::AddressLimit;
use crate::store::{Store, StoreError};
use crate::writer::StoreWriter;

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The game database could not be opened.
    #[error("cannot open the database: {0}")]
    Store(#[from] StoreError),
    /// Listening or serving failed.
    #[error("cannot listen: {0}")]
    Io(#[from] std::io::Error),
}

/// What every request handler shares.
pub struct AppState {
    /// The settings the server was started with.
    pub config: Config,
    /// The games in play, in memory and in the database.
    pub games: Games,
    /// WebSocket connections open now, counted against the configured maximum.
    pub connections: AtomicUsize,
    /// The engines that play and analyse, shared by all games.
    pub engines: Arc<EnginePool>,
    /// The games each address created in the last hour.
    pub creations: AddressLimit,
    /// What each address holds open now: WebSockets, analyses.
    pub per_address: AddressLimits,
}

/// The state as the handlers hold it.
pub type Shared = Arc<AppState>;

impl AppState {
    /// Opens the database (upgrading its schema if it is older), starts its writer and the
    /// engines.
    pub fn new(config: Config) -> Result<Shared, ServerError> {
        let mut store = match &config.data {
            Some(path) => Store::open(path)?,
            None => Store::in_memory()?,
        };
        // The time since the server was last alive, and the time the pages take to reconnect, are
        // not charged to any clock.
        if let Some(alive) = store.last_alive()? {
            let grace = config.reconnect_grace.as_millis() as u64;
            store.give_back_downtime(alive, now_ms() + grace)?;
        }
        let engines = EnginePool::new(config.searches, &config.databases);
        let games = Games::new(
            StoreWriter::start(store)?,
            engines.clone(),
            config.computer_time,
            config.max_rooms,
            config.moves_per_second,
        );
        Ok(Arc::new(AppState {
            creations: AddressLimit::new(config.games_per_address),
            per_address: AddressLimits::new(&config),
            config,
            games,
            connections: AtomicUsize::new(0),
            engines,
        }))
    }
}
