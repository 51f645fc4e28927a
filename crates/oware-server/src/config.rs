//! How the server runs: limits, times and files, set by `oware serve`'s options.

use std::net::IpAddr;
use std::path::PathBuf;
use std::time::Duration;

use oware_engine::ProbeSet;

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
    /// The most time one position's analysis may take (the table, the coach and the review share
    /// it); it stops short of `analysis_depth` only on a slow or crowded machine.
    pub analysis_time: Duration,
    /// The depth every move of an analysed position is searched to, in plies.
    pub analysis_depth: u32,
    /// Positions whose analysis the server keeps, so that each shows the same numbers every time.
    pub analysis_cache: usize,
    /// A WebSocket from which nothing (not even the answer to the server's pings) arrives for
    /// this long is closed. Browsers answer pings by themselves, so open pages stay connected.
    pub idle_timeout: Duration,
    /// Messages a second one WebSocket may send on average (bursts of twice as many).
    pub messages_per_second: u32,
    /// Endgame databases: the engines probe them, the analysis board shows their values.
    pub databases: ProbeSet,
    /// How long one minute of a game clock lasts: a minute, except in tests, which shorten it to
    /// see flags fall.
    pub clock_minute: Duration,
    /// The address players reach the server at (`https://oware.example.org`), when it is not the
    /// one the browser used (behind a reverse proxy): friend links use it, and with `https://` the
    /// seat cookie is `Secure`.
    pub public_url: Option<String>,
    /// Players' moves one game accepts a second on average (bursts of twice as many): far more
    /// than people play, few enough that no client fills the database through one game.
    pub moves_per_second: u32,
    /// Games one address may create in an hour.
    pub games_per_address: usize,
    /// After a restart, the time the players' pages may take to reconnect (they retry every few
    /// seconds): given back to the clocks with the time the server was down.
    pub reconnect_grace: Duration,
    /// How often the server notes that it is alive (time while it was down is given back to the
    /// clocks, to within this).
    pub alive_every: Duration,
    /// Host names the server answers to besides IP addresses, `localhost` and the public
    /// address's host (`--allowed-host`): a name on the home network, for instance. Requests
    /// naming any other are refused, so that no page of another site can reach the server by
    /// rebinding its name in the DNS.
    pub allowed_hosts: Vec<String>,
    /// The reverse proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed; from any
    /// other peer these headers are ignored.
    pub trusted_proxies: Vec<IpAddr>,
    /// The most WebSockets one address may hold open at once, so that no client takes all of
    /// `max_connections`.
    pub sockets_per_address: usize,
    /// The most analysis and coach requests one address may have running at once; more wait
    /// their turn (see `analyses_waiting_per_address`).
    pub analyses_per_address: usize,
    /// The most analysis and coach requests one address may have waiting for a turn; more are
    /// answered 429.
    pub analyses_waiting_per_address: usize,
    /// How long a connection may take to send a request's headers, or its body, and may stay
    /// idle between requests; slower ones are closed.
    pub request_read_timeout: Duration,
    /// Whether push services may be reached over plain HTTP on the loopback
    /// (`--push-allow-http`): for tests with a push service of their own, never for players.
    pub push_allow_http: bool,
    /// Who runs the server, as push services are told (the `sub` of every VAPID signature): a
    /// `mailto:` address; the public URL when absent.
    pub push_contact: Option<String>,
    /// The mail relay players are told through (`--smtp`), if any: without it the server offers
    /// no e-mail.
    pub mail: Option<MailConfig>,
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
            analysis_depth: oware_coach::DEPTH,
            // A few hundred bytes each: the positions of many reviewed games.
            analysis_cache: 4096,
            idle_timeout: Duration::from_secs(90),
            messages_per_second: 20,
            databases: ProbeSet::none(),
            clock_minute: Duration::from_secs(60),
            public_url: None,
            moves_per_second: 10,
            games_per_address: 200,
            alive_every: Duration::from_secs(2),
            reconnect_grace: Duration::from_secs(5),
            trusted_proxies: Vec::new(),
            allowed_hosts: Vec::new(),
            // A family's pages and a few spectator tabs behind one home router.
            sockets_per_address: 32,
            // As many as one page asks for at once (the analysis board and the coach)...
            analyses_per_address: 2,
            // ...and a few more queued, as when someone steps quickly through a game: six requests
            // of 0.8 s on two engines end within the 3 s a request waits for an engine.
            analyses_waiting_per_address: 4,
            request_read_timeout: Duration::from_secs(10),
            push_allow_http: false,
            push_contact: None,
            mail: None,
        }
    }
}

/// How the server reaches its mail relay, and who its mail is from.
#[derive(Clone)]
pub struct MailConfig {
    /// The relay's host name or address.
    pub host: String,
    /// The relay's port.
    pub port: u16,
    /// The connection is TLS from its start (`smtps://`), not upgraded by STARTTLS.
    pub implicit_tls: bool,
    /// The sender, as `Name <address>` or a bare address.
    pub from: String,
    /// The user name and password the relay is logged in to with, if it asks for them.
    pub login: Option<(String, String)>,
    /// The first wait before a mail the relay did not take is tried again; each wait doubles.
    pub first_retry: Duration,
}

/// Why the mail settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MailConfigError {
    /// The relay's address is not `smtp://HOST[:PORT]` or `smtps://HOST[:PORT]`.
    #[error("{0:?} is not smtp://HOST:PORT or smtps://HOST:PORT")]
    BadRelay(String),
    /// The sender is not an address.
    #[error("{0:?} is not a sender (\"Name <address>\" or an address)")]
    BadSender(String),
}

impl MailConfig {
    /// The settings for the relay at `url` (`smtp://HOST[:PORT]`, port 587 by default, STARTTLS;
    /// or `smtps://HOST[:PORT]`, port 465, TLS from the start), sending as `from`.
    pub fn new(url: &str, from: &str) -> Result<MailConfig, MailConfigError> {
        let bad = || MailConfigError::BadRelay(url.to_string());
        let (rest, implicit_tls, default_port) = if let Some(rest) = url.strip_prefix("smtp://") {
            (rest, false, 587)
        } else if let Some(rest) = url.strip_prefix("smtps://") {
            (rest, true, 465)
        } else {
            return Err(bad());
        };
        let authority: axum::http::uri::Authority =
            rest.trim_end_matches('/').parse().map_err(|_| bad())?;
        if authority.as_str().contains('@') || authority.host().is_empty() {
            // Credentials go in --smtp-user and --smtp-password-file, not in a command line.
            return Err(bad());
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        from.parse::<lettre::message::Mailbox>()
            .map_err(|_| MailConfigError::BadSender(from.to_string()))?;
        Ok(MailConfig {
            host,
            port: authority.port_u16().unwrap_or(default_port),
            implicit_tls,
            from: from.to_string(),
            login: None,
            first_retry: Duration::from_secs(30),
        })
    }

    /// Whether the relay is on this machine: only then may the mail go unencrypted (when the
    /// relay offers no STARTTLS).
    pub fn on_loopback(&self) -> bool {
        self.host.eq_ignore_ascii_case("localhost")
            || self.host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }
}

/// The password is never shown.
impl std::fmt::Debug for MailConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("implicit_tls", &self.implicit_tls)
            .field("from", &self.from)
            .field("user", &self.login.as_ref().map(|(user, _)| user))
            .field("first_retry", &self.first_retry)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relays_are_smtp_addresses_and_senders_are_mailboxes() {
        let from = "Oware <oware@example.org>";
        let relay = MailConfig::new("smtp://mail.example.org", from).unwrap();
        assert_eq!((relay.host.as_str(), relay.port), ("mail.example.org", 587));
        assert!(!relay.implicit_tls && !relay.on_loopback());
        let relay = MailConfig::new("smtps://mail.example.org:2465/", from).unwrap();
        assert_eq!((relay.port, relay.implicit_tls), (2465, true));
        assert!(MailConfig::new("smtp://127.0.0.1:2525", from)
            .unwrap()
            .on_loopback());
        assert!(MailConfig::new("smtp://[::1]:25", "oware@example.org")
            .unwrap()
            .on_loopback());
        for bad in ["mail.example.org", "http://x", "smtp://", "smtp://u:p@x"] {
            assert!(
                matches!(
                    MailConfig::new(bad, from),
                    Err(MailConfigError::BadRelay(_))
                ),
                "{bad}"
            );
        }
        assert!(matches!(
            MailConfig::new("smtp://x", "not an address"),
            Err(MailConfigError::BadSender(_))
        ));
        let mut shown = MailConfig::new("smtp://x", from).unwrap();
        shown.login = Some(("me".to_string(), "secret".to_string()));
        assert!(!format!("{shown:?}").contains("secret"));
    }
}
