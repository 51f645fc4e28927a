//! `oware serve`: the web server. Opens (or creates) the SQLite file, listens, and serves until
//! Ctrl-C; every game is stored as it is played, so a restart resumes them all.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use oware_server::databases::Databases;
use oware_server::{AppState, Config};

use super::Exit;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Address to listen on (use 0.0.0.0:8080 to let other machines connect)
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// SQLite file holding the games (created if missing)
    #[arg(long, default_value = "oware.sqlite", value_name = "FILE")]
    pub data: PathBuf,
    /// Most milliseconds the computer thinks about one move
    #[arg(long, default_value_t = 1500, value_name = "MS")]
    pub movetime: u64,
    /// Most WebSocket connections open at once
    #[arg(long, default_value_t = 4096)]
    pub max_connections: usize,
    /// Most milliseconds the analysis board's engine spends on one position
    #[arg(long, default_value_t = 800, value_name = "MS")]
    pub analysis_time: u64,
    /// Most engine searches (computer moves and analyses) at once [default: one per processor]
    #[arg(long, value_name = "N")]
    pub searches: Option<usize>,
    /// Endgame database directory (built by `oware egtb build`; abapa, awari or both): the
    /// computer and the analysis board use it, and the analysis board shows its values
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let databases = match &args.egtb {
        None => Databases::none(),
        Some(dir) => Databases::open(dir).map_err(|e| Exit::bad_input(format!("--egtb: {e}")))?,
    };
    if !databases.is_empty() {
        eprintln!("oware serve: endgame databases: {}", databases.describe());
    }
    let config = Config {
        databases,
        data: Some(args.data.clone()),
        computer_time: Duration::from_millis(args.movetime.max(1)),
        max_connections: args.max_connections,
        analysis_time: Duration::from_millis(args.analysis_time.clamp(1, 60_000)),
        ..Config::default()
    };
    let config = Config {
        searches: args.searches.unwrap_or(config.searches).max(1),
        ..config
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let state = AppState::new(config)?;
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {}: {e}", args.addr))?;
        let addr = listener.local_addr()?;
        eprintln!(
            "oware serve: open http://{addr}/ (games in {})",
            args.data.display()
        );
        let shutdown = async {
            let _ = tokio::signal::ctrl_c().await;
        };
        oware_server::serve(listener, state, shutdown).await?;
        anyhow::Ok(())
    })
}
