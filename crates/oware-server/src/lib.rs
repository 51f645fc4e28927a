//! The `oware serve` web server: play oware in the browser against the computer or a friend far
//! away, watch games, analyse positions, read the rules, in Catalan, Spanish, English or French.
//!
//! The layers, each depending only on those listed before it:
//! - [`clock`], [`model`]: game clocks; how a game is set up and the view clients get.
//! - [`store`]: SQLite storage of games, players' tokens and moves, one transaction per change,
//!   the schema versioned by ordered migrations; [`writer`]: the thread that owns the
//!   connection, so no SQLite call runs on the async runtime.
//! - [`protocol`]: the JSON messages spoken over the WebSocket; [`rate_limit`]: what one client
//!   may send.
//! - [`room`]: one game in memory, refereed with `oware_rules::Game`, its changes stored and then
//!   broadcast.
//! - [`computer`], [`clock_watch`]: the computer's moves and the flag falls, as background tasks;
//!   [`retry`]: such changes tried again until they are stored.
//! - [`games`]: the rooms in memory, loaded on demand, and the actions that set those tasks going.
//! - [`app`]: the state the handlers share; [`api_error`]: the API's errors; [`ws`]: the WebSocket loop; [`routes`]: pages, the
//!   JSON API and the WebSocket endpoint, by area; [`cookie`]: the seat cookie.
//! - [`analysis`]: the pool of engines that the computer players and the analysis board share;
//!   [`record`]: the game-record reader/writer; [`databases`]: the endgame databases (`--egtb`),
//!   probed by the engines and shown on the analysis board.
//! - The edge: [`accept`], the accept loop and its header deadline; [`security`], the middleware
//!   every request passes (cross-site requests, bodies, security headers); [`forwarded`], the
//!   client's address behind trusted proxies; [`limits`], each address's fair share.
//!
//! The browser assets in `web/` are compiled into the binary, so the server needs no other files.

#![warn(missing_docs)]

pub mod accept;
pub mod analysis;
pub mod api_error;
pub mod app;
pub mod assets;
pub mod clock;
pub mod clock_watch;
pub mod computer;
pub mod config;
pub mod cookie;
pub mod databases;
pub mod forwarded;
pub mod games;
pub mod ids;
pub mod limits;
pub mod model;
pub mod protocol;
pub mod rate_limit;
pub mod record;
pub mod retry;
pub mod room;
pub mod routes;
pub mod security;
pub mod store;
pub mod writer;
pub mod ws;

#[cfg(test)]
mod fault_tests;

pub use app::{AppState, ServerError, Shared};
pub use config::Config;
pub use ids::new_token;

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
    let app = routes::router(state.clone());
    let headers = security::security_headers(state.config.public_url.as_deref())
        .iter()
        .map(|(name, value)| format!("{name}: {}\r\n", value.to_str().unwrap_or_default()))
        .collect();
    accept::serve(
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
