//! The events of a game that reach a player whose page is closed, as Web Push messages: it became
//! their move, the other player offers a draw or a takeback or sent a quick message, the game
//! ended, a day is left for their move. The messages are written, encrypted and sent by a task of
//! their own, fed by a bounded queue (see [`super::Notifier`]). A message is retried with backoff
//! while the push service is busy or failing (429, 5xx, no answer); a browser the service no
//! longer knows (404, 410) is forgotten. No message ever carries a seat's token: only the game's path.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode, Uri};
use hyper_rustls::HttpsConnector;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;
use tokio::sync::{mpsc, Semaphore};

use oware_coach::messages::{self as msg};
use oware_coach::Lang;
use oware_rules::Ending;

use super::webpush::{self, BrowserKeys, Vapid};
use super::{DropReport, Event, Notice, Queue};
use crate::game::clock::now_ms;
use crate::game::model::OfferKind;
use crate::store::writer::StoreWriter;
use crate::store::PushSubscription;

/// How the server sends its messages.
#[derive(Clone)]
pub struct PushSettings {
    /// The server's key pair.
    pub vapid: Vapid,
    /// Who runs the server, for the push services: a `mailto:` or the public URL.
    pub contact: String,
    /// Whether push services may be reached over plain HTTP (tests on loopback only).
    pub allow_http: bool,
}

/// Events waiting to be written and sent; past this many, new ones are dropped (and said).
const QUEUE: usize = 1024;
/// Messages being sent at once.
const SENDING: usize = 16;
/// Tries of one message before it is given up.
const TRIES: u32 = 6;
/// The first wait before a message is tried again; each wait doubles.
const FIRST_RETRY: Duration = Duration::from_secs(1);
/// How long a push service may take to answer one request.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a push service keeps a message for a browser that is offline, in seconds.
const TTL: u64 = 24 * 60 * 60;
/// How long the signature on a request is valid (RFC 8292 allows at most 24 hours).
const SIGNATURE_VALID: u64 = 12 * 60 * 60;
/// The longest endpoint accepted.
pub const MAX_ENDPOINT: usize = 2048;

/// Starts the task that writes and sends the messages, on the current Tokio runtime: the queue
/// the rooms' events go to.
pub fn start(store: StoreWriter, settings: PushSettings) -> Queue<Notice> {
    let (queue, events) = Queue::new(QUEUE, "push notification");
    tokio::spawn(deliver_all(events, store, settings, queue.drop_report()));
    queue
}

/// Whether `endpoint` is an address the server will send to: `https://`, or `http://` on the
/// loopback when `allow_http` is set.
pub fn valid_endpoint(endpoint: &str, allow_http: bool) -> bool {
    if endpoint.len() > MAX_ENDPOINT {
        return false;
    }
    let Ok(uri) = endpoint.parse::<Uri>() else {
        return false;
    };
    let Some(host) = uri.host() else {
        return false;
    };
    match uri.scheme_str() {
        Some("https") => true,
        Some("http") if allow_http => {
            let host = host.trim_start_matches('[').trim_end_matches(']');
            host == "localhost"
                || host
                    .parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        }
        _ => false,
    }
}

/// The message a notice becomes for a browser in `lang`: JSON with the game, a title, a body and
/// the game's path (never a token).
pub fn payload(notice: &Notice, lang: Lang) -> String {
    let other = notice
        .other
        .clone()
        .unwrap_or_else(|| msg::format(lang, "push.other", &[]));
    let name = [("name", other.as_str())];
    let body = match notice.event {
        Event::Moved(mv) => msg::format(
            lang,
            "push.moved",
            &[("name", &other), ("move", &mv.to_string())],
        ),
        Event::Offered(OfferKind::Draw) => msg::format(lang, "push.offered.draw", &name),
        Event::Offered(OfferKind::Takeback) => msg::format(lang, "push.offered.takeback", &name),
        Event::Said(message) => msg::format(
            lang,
            "push.said",
            &[
                ("name", &other),
                (
                    "message",
                    &msg::format(lang, &format!("push.message.{}", message.code()), &[]),
                ),
            ],
        ),
        Event::Ended(ending) => {
            let key = match (ending, ending.winner()) {
                (Ending::Aborted, _) => "push.ended.aborted",
                (_, Some(winner)) if winner == notice.to => "push.ended.won",
                (_, Some(_)) => "push.ended.lost",
                (_, None) => "push.ended.drawn",
            };
            msg::format(lang, key, &name)
        }
        Event::Reminder { .. } => msg::format(lang, "push.reminder", &name),
    };
    serde_json::json!({
        "game": notice.game,
        "title": msg::format(lang, "push.title", &name),
        "body": body,
        "path": format!("/game/{}", notice.game),
    })
    .to_string()
}

type HttpClient = Client<HttpsConnector<HttpConnector>, Body>;

fn client(allow_http: bool) -> HttpClient {
    let builder = hyper_rustls::HttpsConnectorBuilder::new().with_webpki_roots();
    let connector = if allow_http {
        builder.https_or_http().enable_http1().build()
    } else {
        builder.https_only().enable_http1().build()
    };
    Client::builder(TokioExecutor::new()).build(connector)
}

async fn deliver_all(
    mut events: mpsc::Receiver<Notice>,
    store: StoreWriter,
    settings: PushSettings,
    mut drops: DropReport,
) {
    let client = client(settings.allow_http);
    let sending = Arc::new(Semaphore::new(SENDING));
    while let Some(notice) = events.recv().await {
        drops.say_if_due();
        let (game, to) = (notice.game.clone(), notice.to);
        let subscriptions = match store.run(move |s| s.push_subscriptions(&game, to)).await {
            Ok(found) => found,
            Err(e) => {
                eprintln!(
                    "oware serve: cannot read the push subscriptions of game {}: {e}",
                    notice.game
                );
                continue;
            }
        };
        for subscription in subscriptions {
            let lang = subscription.lang.parse().unwrap_or(Lang::En);
            let message = payload(&notice, lang);
            let urgency = match notice.event {
                Event::Moved(_) | Event::Offered(_) | Event::Reminder { .. } => "high",
                Event::Said(_) | Event::Ended(_) => "normal",
            };
            let (client, store, settings) = (client.clone(), store.clone(), settings.clone());
            let Ok(permit) = sending.clone().acquire_owned().await else {
                return;
            };
            tokio::spawn(async move {
                let _permit = permit;
                deliver(&client, &store, &settings, subscription, message, urgency).await;
            });
        }
    }
}

/// What became of one try.
enum Tried {
    Delivered,
    /// The push service no longer knows the browser.
    Gone,
    /// Worth trying again later.
    Later,
    /// Refused for good (a bad request): said, not retried.
    Refused(StatusCode),
}

async fn deliver(
    client: &HttpClient,
    store: &StoreWriter,
    settings: &PushSettings,
    subscription: PushSubscription,
    message: String,
    urgency: &'static str,
) {
    // Checked when the browser subscribed; a key that no longer reads is refused by the
    // encryption, on the first try.
    let keys = BrowserKeys {
        p256dh: subscription.p256dh,
        auth: subscription.auth,
    };
    let mut wait = FIRST_RETRY;
    for attempt in 1..=TRIES {
        match try_once(
            client,
            settings,
            &subscription.endpoint,
            &keys,
            &message,
            urgency,
        )
        .await
        {
            Tried::Delivered => return,
            Tried::Gone => {
                let endpoint = subscription.endpoint.clone();
                if let Err(e) = store.run(move |s| s.remove_push_endpoint(&endpoint)).await {
                    eprintln!("oware serve: cannot forget a gone push subscription: {e}");
                }
                return;
            }
            Tried::Refused(status) => {
                eprintln!("oware serve: a push service refused a notification: {status}");
                return;
            }
            Tried::Later if attempt < TRIES => {
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            Tried::Later => {
                eprintln!("oware serve: a notification was given up after {TRIES} tries");
            }
        }
    }
}

async fn try_once(
    client: &HttpClient,
    settings: &PushSettings,
    endpoint: &str,
    keys: &BrowserKeys,
    message: &str,
    urgency: &str,
) -> Tried {
    let Ok(uri) = endpoint.parse::<Uri>() else {
        return Tried::Gone;
    };
    let origin = match (uri.scheme_str(), uri.authority()) {
        (Some(scheme), Some(authority)) => format!("{scheme}://{authority}"),
        _ => return Tried::Gone,
    };
    let expires = now_ms() / 1000 + SIGNATURE_VALID;
    // The encryption and the signature are a few elliptic-curve multiplications each, done on a
    // thread for blocking work: on the runtime's workers, the moves that arrive meanwhile would
    // wait behind them, and the messages go out in waves (as many as the sending permits that
    // a slow push service gives back at once).
    let (keys, message) = (keys.clone(), message.to_string());
    let (vapid, contact) = (settings.vapid.clone(), settings.contact.clone());
    let sealed = tokio::task::spawn_blocking(move || {
        let mut salt = [0u8; 16];
        getrandom::fill(&mut salt).expect("the system's random source");
        let body =
            webpush::encrypt(&keys, message.as_bytes(), &webpush::random_secret(), salt).ok()?;
        Some((body, vapid.authorization(&origin, expires, &contact)))
    })
    .await;
    let Ok(Some((body, authorization))) = sealed else {
        return Tried::Refused(StatusCode::BAD_REQUEST);
    };
    let request = Request::post(uri)
        .header("TTL", TTL.to_string())
        .header("Urgency", urgency)
        .header("Content-Encoding", "aes128gcm")
        .header("Content-Type", "application/octet-stream")
        .header("Authorization", authorization)
        .body(Body::from(body));
    let Ok(request) = request else {
        return Tried::Gone;
    };
    match tokio::time::timeout(ANSWER_TIMEOUT, client.request(request)).await {
        Ok(Ok(answer)) => match answer.status() {
            s if s.is_success() => Tried::Delivered,
            StatusCode::NOT_FOUND | StatusCode::GONE => Tried::Gone,
            s if s == StatusCode::TOO_MANY_REQUESTS || s.is_server_error() => Tried::Later,
            s => Tried::Refused(s),
        },
        // No connection, or no answer in time: the service may be down for a while.
        Ok(Err(_)) | Err(_) => Tried::Later,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::model::QuickMessage;
    use oware_rules::{Position, Side};

    #[test]
    fn only_https_endpoints_unless_http_is_allowed_on_the_loopback() {
        assert!(valid_endpoint(
            "https://fcm.googleapis.com/fcm/send/abc",
            false
        ));
        assert!(!valid_endpoint("http://127.0.0.1:9000/push", false));
        assert!(valid_endpoint("http://127.0.0.1:9000/push", true));
        assert!(valid_endpoint("http://[::1]:9000/push", true));
        assert!(valid_endpoint("http://localhost/push", true));
        assert!(!valid_endpoint("http://192.168.1.2/push", true));
        assert!(!valid_endpoint("ftp://push.example/x", true));
        assert!(!valid_endpoint("not an address", true));
        let long = format!("https://push.example/{}", "a".repeat(MAX_ENDPOINT));
        assert!(!valid_endpoint(&long, false));
    }

    #[test]
    fn a_full_queue_drops_at_once_and_the_drops_are_said_once_in_a_while() {
        let (queue, _events) = Queue::new(1, "push notification");
        let notice = Notice {
            game: "g1234567890".to_string(),
            to: Side::South,
            other: None,
            event: Event::Moved("f".parse().unwrap()),
            position: oware_rules::Position::start(),
            per_move: false,
        };
        let mut drops = queue.drop_report();
        assert!(!drops.say_if_due(), "nothing dropped yet");
        for _ in 0..3 {
            queue.offer(notice.clone());
        }
        assert!(drops.say_if_due());
        queue.offer(notice);
        assert!(!drops.say_if_due(), "not again so soon");
        drops.backdate_for_test();
        assert!(drops.say_if_due());
        assert!(!drops.say_if_due(), "nothing new to say");
    }

    #[test]
    fn messages_speak_the_subscribers_language_and_carry_no_token() {
        let notice = Notice {
            game: "g1234567890".to_string(),
            to: Side::South,
            other: Some("Abuela Rosa".to_string()),
            event: Event::Moved("f".parse().unwrap()),
            position: Position::start(),
            per_move: false,
        };
        let en: serde_json::Value = serde_json::from_str(&payload(&notice, Lang::En)).unwrap();
        assert_eq!(en["body"], "Abuela Rosa played f: your move.");
        assert_eq!(en["path"], "/game/g1234567890");
        let ca: serde_json::Value = serde_json::from_str(&payload(&notice, Lang::Ca)).unwrap();
        assert!(ca["body"].as_str().unwrap().contains("Abuela Rosa"), "{ca}");
        assert_ne!(ca["body"], en["body"]);
        let ended = Notice {
            event: Event::Ended(Ending::Resigned(Side::North)),
            ..notice.clone()
        };
        let won: serde_json::Value = serde_json::from_str(&payload(&ended, Lang::Fr)).unwrap();
        assert!(won["body"].as_str().unwrap().contains("gagné"), "{won}");
        let said = Notice {
            other: None,
            event: Event::Said(QuickMessage::GoodGame),
            ..notice
        };
        let es: serde_json::Value = serde_json::from_str(&payload(&said, Lang::Es)).unwrap();
        assert!(
            es["body"].as_str().unwrap().contains("Buena partida"),
            "{es}"
        );
        for text in [en, ca, won, es] {
            let keys: Vec<&String> = text.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["body", "game", "path", "title"]);
        }
    }
}
