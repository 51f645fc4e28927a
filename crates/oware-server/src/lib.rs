//! The `oware serve` web server: play oware in the browser against the computer or a friend far
//! away, watch games, analyse positions, read the rules, in Catalan, Spanish, English or French.
//!
//! The modules, each depending only on those listed before it (no import circle):
//! - `game`: a game as the server keeps it, without storage or connections (setup, view, clock,
//!   ids).
//! - `analysis`: the engines the computer players and the analysis board share, and the endgame
//!   databases they probe.
//! - `config`: the settings the server starts with; `api_error`: the API's errors.
//! - `store`: SQLite storage, the thread that owns the connection, and game records as text.
//! - `edge`: what every connection crosses first (accept loop, hosts, origins, bodies, security
//!   headers, forwarded addresses, each address's fair share, the seat cookie). It knows the
//!   configuration, never the games.
//! - `notify`: Web Push and e-mail to the players whose page is closed (encryption, VAPID
//!   signature, mail writing, the queues that send off the move path).
//! - `play`: games in play (rooms, the computer's moves, flag falls, the WebSocket's messages).
//! - `app`: the state every handler shares.
//! - `routes`: pages, static files, the JSON API by area and the WebSocket endpoint.
//!
//! The browser assets in `web/` are compiled into the binary (`assets`), so the server needs no
//! other files. The crate's face is [`serve`], [`Config`], [`AppState`] and its errors.

#![warn(missing_docs)]

mod analysis;
mod api_error;
mod app;
mod assets;
mod config;
mod edge;
mod game;
mod notify;
mod play;
mod routes;
mod store;

pub use app::{AppState, ServerError, Shared};
pub use config::{Config, MailConfig, MailConfigError};
pub use game::ids::new_token;
pub use store::StoreError;

/// Serves on `listener` until `shutdown` resolves.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: Shared,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    // The server notes that it is alive every few seconds, and once more as it stops: after a
    // restart, the time between the last note and the start is given back to the clocks.
    let beat = {
        let state = state.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(state.config.alive_every);
            loop {
                every.tick().await;
                if let Err(e) = state.games.note_alive().await {
                    eprintln!("oware serve: cannot note that the server is alive: {e}");
                }
            }
        })
    };
    if state.mailer.is_some() {
        let state = state.clone();
        tokio::spawn(async move { state.games.load_games_with_mail().await });
    }
    let app = routes::router(state.clone());
    let headers = edge::security::security_headers(state.config.public_url.as_deref())
        .iter()
        .map(|(name, value)| format!("{name}: {}\r\n", value.to_str().unwrap_or_default()))
        .collect();
    edge::accept::serve(
        listener,
        app,
        state.config.request_read_timeout,
        headers,
        shutdown,
    )
    .await;
    beat.abort();
    let _ = beat.await;
    state.games.stop();
    let _ = state.games.note_alive().await;
    Ok(())
}
