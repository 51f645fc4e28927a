//! `oware serve`: the web server. Opens (or creates) the SQLite file, listens, and serves until
//! Ctrl-C; every game is stored as it is played, so a restart resumes them all.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use oware_engine::ProbeSet;
use oware_rules::RuleSet;
use oware_server::{AppState, Config, MailConfig};

use super::{egtb_home, Exit};

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
    /// Most milliseconds one position's analysis may take (the analysis table, the coach and the
    /// review share it); it usually reaches its 20 plies well before
    #[arg(long, default_value_t = 800, value_name = "MS")]
    pub analysis_time: u64,
    /// Most engine searches (computer moves and analyses) at once [default: one per processor]
    #[arg(long, value_name = "N")]
    pub searches: Option<usize>,
    /// Endgame database directory (built by `oware egtb build`; abapa, awari or both): the
    /// computer and the analysis board use it, and the analysis board shows its values [default:
    /// those of the user's data directory, built there in the background on first use]
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
    /// No endgame databases: none looked for in the user's data directory, none built
    #[arg(long, conflicts_with = "egtb")]
    pub no_egtb: bool,
    /// The address players reach this server at, such as https://oware.example.org (behind a
    /// reverse proxy): friend links use it, and with https:// the seat cookie is Secure
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// A host name this server answers to besides IP addresses, localhost and the --public-url
    /// host (repeat for several), such as a name on the home network: requests naming any other
    /// are refused, so that no other site can reach the server by rebinding its own name to it
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,
    /// The address of a reverse proxy in front of this server (repeat for several): its
    /// X-Forwarded-For and X-Forwarded-Proto are believed; from any other peer they are ignored
    #[arg(long = "trusted-proxy", value_name = "ADDR")]
    pub trusted_proxies: Vec<IpAddr>,
    /// Who runs this server, as push services are told when it sends players their
    /// notifications: a mailto: address (the --public-url when absent)
    #[arg(long, value_name = "MAILTO")]
    pub push_contact: Option<String>,
    /// Let notifications go to push services over plain http:// on the loopback: for tests with
    /// a push service of their own only; browsers' real push services are all https://
    #[arg(long)]
    pub push_allow_http: bool,
    /// A mail relay to tell players of correspondence games of their moves by e-mail, once they
    /// confirm their address: smtp://HOST:PORT (STARTTLS, required unless the relay is on the
    /// loopback) or smtps://HOST:PORT (TLS from the start); needs --public-url and --mail-from
    #[arg(long, value_name = "URL", requires_all = ["mail_from", "public_url"])]
    pub smtp: Option<String>,
    /// Who the mails are from, such as "Oware <oware@example.org>"
    #[arg(long, value_name = "MAILBOX", requires = "smtp")]
    pub mail_from: Option<String>,
    /// The user name the mail relay is logged in to with
    #[arg(long, value_name = "NAME", requires_all = ["smtp", "smtp_password_file"])]
    pub smtp_user: Option<String>,
    /// A file holding the mail relay's password (its first line), kept out of the command line
    #[arg(long, value_name = "FILE", requires = "smtp_user")]
    pub smtp_password_file: Option<PathBuf>,
    /// Most WebSocket connections one address may hold open at once
    #[arg(long, default_value_t = 32, value_name = "N")]
    pub max_connections_per_address: usize,
    /// Most analysis and coach requests one address may have running at once (a few more wait)
    #[arg(long, default_value_t = 2, value_name = "N")]
    pub analyses_per_address: usize,
}

/// The public address without a trailing slash, or why it is not one.
fn public_url(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or_else(|| format!("{url:?} must start with https:// or http://"))?;
    let rest = rest.trim_end_matches('/');
    if rest.is_empty() || rest.contains(char::is_whitespace) || rest.contains(['"', '<', '>']) {
        return Err(format!("{url:?} is not an address"));
    }
    Ok(url.trim_end_matches('/').to_string())
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let databases = match &args.egtb {
        None if args.no_egtb => ProbeSet::none(),
        None => {
            let rules = [RuleSet::Abapa, RuleSet::Awari];
            match egtb_home::start("oware serve", &rules, egtb_home::Report::EachLevel)? {
                None => ProbeSet::none(),
                Some(probes) => ProbeSet::growing(probes),
            }
        }
        Some(dir) => {
            let databases = ProbeSet::open(dir, Some(Arc::new(|e| eprintln!("oware serve: {e}"))))
                .map_err(|e| Exit::bad_input(format!("--egtb: {e}")))?;
            eprintln!("oware serve: endgame databases: {}", databases.describe());
            databases
        }
    };
    for unused in databases.unused() {
        eprintln!("oware serve: warning: {unused}");
    }
    let public_url = match &args.public_url {
        None => None,
        Some(url) => {
            Some(public_url(url).map_err(|e| Exit::bad_input(format!("--public-url: {e}")))?)
        }
    };
    let mail = match (&args.smtp, &args.mail_from) {
        (Some(url), Some(from)) => {
            let mut mail = MailConfig::new(url, from)
                .map_err(|e| Exit::bad_input(format!("--smtp, --mail-from: {e}")))?;
            if let (Some(user), Some(file)) = (&args.smtp_user, &args.smtp_password_file) {
                let text = std::fs::read_to_string(file).map_err(|e| {
                    Exit::bad_input(format!("--smtp-password-file {}: {e}", file.display()))
                })?;
                let password = text.lines().next().unwrap_or_default().to_string();
                mail.login = Some((user.clone(), password));
            }
            Some(mail)
        }
        _ => None,
    };
    let config = Config {
        mail,
        public_url,
        databases,
        data: Some(args.data.clone()),
        computer_time: Duration::from_millis(args.movetime.max(1)),
        max_connections: args.max_connections,
        trusted_proxies: args.trusted_proxies.clone(),
        allowed_hosts: args.allowed_hosts.clone(),
        sockets_per_address: args.max_connections_per_address.max(1),
        analyses_per_address: args.analyses_per_address.max(1),
        analysis_time: Duration::from_millis(args.analysis_time.clamp(1, 60_000)),
        push_contact: args.push_contact.clone(),
        push_allow_http: args.push_allow_http,
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
        // Ctrl-C in a terminal, SIGTERM from a service manager: either stops the server cleanly,
        // noting the time so that it is given back to the clocks at the next start. The handlers
        // are in place before the server says where it listens, so that a stop sent as soon as it
        // is up is not taken for a kill.
        let shutdown = stop_signal();
        eprintln!(
            "oware serve: open http://{addr}/ (games in {})",
            args.data.display()
        );
        if let Some(url) = &args.public_url {
            eprintln!("oware serve: friend links use {url}/");
        }
        if let Some(url) = &args.smtp {
            eprintln!("oware serve: e-mail goes through {url}");
        }
        oware_server::serve(listener, state, shutdown).await?;
        anyhow::Ok(())
    })
}

/// Resolves when the process is asked to stop (SIGINT or SIGTERM; Ctrl-C elsewhere). The signals
/// are caught from the moment this is called, not from its first poll.
#[cfg(unix)]
fn stop_signal() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let interrupt = signal(SignalKind::interrupt());
    let terminate = signal(SignalKind::terminate());
    async move {
        match (interrupt, terminate) {
            (Ok(mut interrupt), Ok(mut terminate)) => {
                tokio::select! {
                    _ = interrupt.recv() => {}
                    _ = terminate.recv() => {}
                }
            }
            _ => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
}

#[cfg(not(unix))]
fn stop_signal() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

#[cfg(test)]
mod tests {
    use super::public_url;
    use clap::Parser;

    #[derive(Parser)]
    struct Serve {
        #[command(flatten)]
        args: super::Args,
    }

    #[test]
    fn trusted_proxies_are_addresses_and_repeat() {
        let serve = Serve::try_parse_from([
            "serve",
            "--trusted-proxy",
            "127.0.0.1",
            "--trusted-proxy",
            "::1",
        ])
        .unwrap();
        assert_eq!(
            serve.args.trusted_proxies,
            [
                "127.0.0.1".parse::<std::net::IpAddr>().unwrap(),
                "::1".parse().unwrap()
            ]
        );
        assert_eq!(serve.args.max_connections_per_address, 32);
        assert!(Serve::try_parse_from(["serve", "--trusted-proxy", "proxy.local"]).is_err());
        let serve = Serve::try_parse_from([
            "serve",
            "--allowed-host",
            "family-pc.local",
            "--allowed-host",
            "oware.lan",
        ])
        .unwrap();
        assert_eq!(serve.args.allowed_hosts, ["family-pc.local", "oware.lan"]);
    }

    #[test]
    fn mail_needs_a_sender_and_a_public_address() {
        let relay = ["serve", "--smtp", "smtp://127.0.0.1:2525"];
        assert!(Serve::try_parse_from(relay).is_err());
        let serve = Serve::try_parse_from(
            [
                &relay[..],
                &["--mail-from", "Oware <o@example.org>"],
                &["--public-url", "https://oware.example.org"],
            ]
            .concat(),
        )
        .unwrap();
        assert_eq!(serve.args.smtp.as_deref(), Some("smtp://127.0.0.1:2525"));
        assert!(Serve::try_parse_from(["serve", "--mail-from", "o@example.org"]).is_err());
        assert!(
            Serve::try_parse_from(
                [
                    &relay[..],
                    &["--mail-from", "o@x.org", "--public-url", "https://x.org"],
                    &["--smtp-user", "me"]
                ]
                .concat()
            )
            .is_err(),
            "a user needs a password file"
        );
    }

    #[test]
    fn public_urls_are_checked_and_lose_their_trailing_slash() {
        assert_eq!(
            public_url("https://oware.example.org/").unwrap(),
            "https://oware.example.org"
        );
        assert_eq!(
            public_url("http://10.0.0.5:8080").unwrap(),
            "http://10.0.0.5:8080"
        );
        for bad in ["oware.example.org", "ftp://x", "https://", "https://a b"] {
            assert!(public_url(bad).is_err(), "{bad}");
        }
    }
}
