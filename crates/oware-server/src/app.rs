//! What every request handler shares: the configuration, the games, the engines and the count of
//! open connections.

use std::sync::atomic::AtomicUsize;
use std::sync::Arc;

use crate::analysis::engines::{AnalysisBudget, AnalysisCache, EnginePool};
use crate::config::Config;
use crate::edge::rate_limit::HourlyQuota;
use crate::edge::shares::AddressShares;
use crate::game::clock::now_ms;
use crate::notify::mail::{MailError, Mailer};
use crate::notify::push::{self, PushSettings};
use crate::notify::webpush::Vapid;
use crate::notify::Notifier;
use crate::play::games::Games;
use crate::store::writer::StoreWriter;
use crate::store::{LastAlive, Store, StoreError};

/// Why the server could not start or stopped. Each says what failed once, with the cause's words
/// in its own message (no separate source, so a report that prints the chain does not repeat it).
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The game database could not be opened or read.
    #[error("game database {place}: {error}")]
    Store {
        /// The file, or "in memory".
        place: String,
        /// What went wrong.
        error: StoreError,
    },
    /// The system refused what the server needs to start (the database writer's thread).
    #[error("{0}")]
    Io(std::io::Error),
    /// The mail relay's settings cannot be used.
    #[error("{0}")]
    Mail(#[from] MailError),
}

/// What every request handler shares.
pub struct AppState {
    /// The settings the server was started with.
    pub config: Arc<Config>,
    /// The games in play, in memory and in the database.
    pub games: Games,
    /// WebSocket connections open now, counted against the configured maximum.
    pub connections: AtomicUsize,
    /// The engines that play and analyse, shared by all games.
    pub engines: Arc<EnginePool>,
    /// The latest positions' analyses, shared by the analysis board, the coach and the review.
    pub analyses: Arc<AnalysisCache>,
    /// The games each address created in the last hour.
    pub creations: HourlyQuota,
    /// The server's VAPID public key, in base64url, for browsers to subscribe with.
    pub push_key: String,
    /// What each address holds open now: WebSockets, analyses.
    pub shares: AddressShares,
    /// The mail queue, when the server sends mail (`--smtp`).
    pub(crate) mailer: Option<Mailer>,
    /// The confirmation mails each client address asked for in the last hour.
    pub(crate) mail_requests: HourlyQuota,
    /// The confirmation mails each e-mail address was sent in the last hour.
    pub(crate) mail_confirmations: HourlyQuota<String>,
}

/// Confirmation mails one client address may ask for in an hour: a family's seats in a few
/// games, no more.
const MAIL_REQUESTS_PER_CLIENT: usize = 10;
/// Confirmation mails one e-mail address may be sent in an hour, whoever asks.
const CONFIRMATIONS_PER_ADDRESS: usize = 3;

/// The state as the handlers hold it.
pub type Shared = Arc<AppState>;

impl AppState {
    /// Opens the database (upgrading its schema if it is older), starts its writer and the
    /// engines.
    pub fn new(config: Config) -> Result<Shared, ServerError> {
        let place = config
            .data
            .as_ref()
            .map_or("in memory".to_string(), |p| p.display().to_string());
        let failed = |error| ServerError::Store {
            place: place.clone(),
            error,
        };
        let mut store = match &config.data {
            Some(path) => {
                // SQLite takes an empty file for a new database: say so, since an empty file
                // where games were kept means they were lost before this server started.
                match std::fs::metadata(path) {
                    Ok(meta) if meta.len() == 0 => eprintln!(
                        "oware serve: {place} is empty: starting a new game database in it"
                    ),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        eprintln!(
                            "oware serve: {place} does not exist: creating a new game database"
                        )
                    }
                    _ => {}
                }
                Store::open(path).map_err(failed)?
            }
            None => Store::in_memory().map_err(failed)?,
        };
        for notice in store.take_notices() {
            eprintln!("oware serve: {place}: {notice}");
        }
        // The time since the server was last alive, and the time the pages take to reconnect, are
        // not charged to any clock.
        match store.last_alive().map_err(failed)? {
            LastAlive::Never => {}
            LastAlive::Damaged(value) => eprintln!(
                "oware serve: {place}: the server's last sign of life is damaged (table alive, at_ms = {value}): ignored, so the time the server was down is not given back to the clocks this once"
            ),
            LastAlive::At(alive) => {
                let grace = config.reconnect_grace.as_millis() as u64;
                let damaged = store
                    .give_back_downtime(alive, now_ms() + grace)
                    .map_err(failed)?;
                for id in damaged {
                    eprintln!(
                        "oware serve: {place}: game {id} is damaged (its clock cannot be read): set aside; every other game loads"
                    );
                }
            }
        }
        // The server's key for Web Push: made on the first start, the same after every restart,
        // so that the browsers' subscriptions stay valid.
        let vapid_bytes = store
            .server_key("vapid", || Vapid::generate().to_bytes())
            .map_err(failed)?;
        let vapid = Vapid::from_bytes(&vapid_bytes).ok_or_else(|| {
            failed(StoreError::Damaged {
                game: "-".to_string(),
                what: "the server's push key (table server_keys) is not a P-256 key".to_string(),
            })
        })?;
        let engines = EnginePool::new(config.searches, &config.databases);
        let store = StoreWriter::start(store).map_err(|e| {
            ServerError::Io(std::io::Error::new(
                e.kind(),
                format!("cannot start the database writer: {e}"),
            ))
        })?;
        let contact = config
            .push_contact
            .clone()
            .or_else(|| config.public_url.clone())
            .unwrap_or_else(|| "mailto:oware@localhost".to_string());
        let push_key = vapid.public_key();
        let pushes = push::start(
            store.clone(),
            PushSettings {
                vapid,
                contact,
                allow_http: config.push_allow_http,
            },
        );
        let mailer = match &config.mail {
            None => None,
            Some(mail) => {
                let public_url = config.public_url.as_deref().ok_or(MailError::NoPublicUrl)?;
                Some(Mailer::start(store.clone(), mail, public_url)?)
            }
        };
        let games = Games::new(
            store,
            Notifier::new(pushes, mailer.clone()),
            engines.clone(),
            config.computer_time,
            config.max_rooms,
            config.moves_per_second,
            config.clock_minute,
        );
        let analyses = Arc::new(AnalysisCache::new(config.analysis_cache));
        Ok(Arc::new(AppState {
            creations: HourlyQuota::new(config.games_per_address),
            push_key,
            shares: AddressShares::new(&config),
            mailer,
            mail_requests: HourlyQuota::new(MAIL_REQUESTS_PER_CLIENT),
            mail_confirmations: HourlyQuota::new(CONFIRMATIONS_PER_ADDRESS),
            config: Arc::new(config),
            games,
            connections: AtomicUsize::new(0),
            engines,
            analyses,
        }))
    }

    /// How a position is analysed.
    pub fn analysis_budget(&self) -> AnalysisBudget {
        AnalysisBudget {
            depth: self.config.analysis_depth,
            cap: self.config.analysis_time,
        }
    }
}
