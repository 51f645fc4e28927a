//! E-mail for the players of correspondence games who will not use push: a "your move" mail when
//! it becomes their move while no page of theirs is open, and a reminder when one day of their
//! time is left, in their language, as plain text and HTML, with the board drawn as text.
//!
//! An address gets nothing but one confirmation mail (its code in the link's fragment) until the
//! code comes back; every mail after that carries the address's unsubscribe link, one-click
//! (RFC 8058). No mail ever carries a seat's token: only the game's address. Mails are written
//! and sent by a task of their own, fed by a bounded queue, so a slow or dead relay never delays a
//! move; a mail the relay does not take is tried again with backoff, and each failure is said on
//! standard error.

use std::sync::Arc;
use std::time::Duration;

use lettre::address::Address;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use tokio::sync::{mpsc, Semaphore};

use oware_coach::messages::{self as msg};
use oware_coach::Lang;
use oware_rules::diagram::{diagram_in, Words};
use oware_rules::{Position, Side};

use super::{DropReport, Event, Notice, Queue};
use crate::config::MailConfig;
use crate::store::writer::StoreWriter;
use crate::store::MailSubscription;

/// The longest address accepted (RFC 5321's limit on a path).
pub const MAX_ADDRESS: usize = 254;
/// How long a confirmation link is valid.
pub const CODE_VALID: Duration = Duration::from_secs(2 * 24 * 60 * 60);
/// Mails waiting to be written and sent; past this many, new ones are dropped (and said).
const QUEUE: usize = 1024;
/// Mails being sent at once.
const SENDING: usize = 4;
/// Tries of one mail before it is given up.
const TRIES: u32 = 5;
/// How long the relay may take to answer one command.
const RELAY_TIMEOUT: Duration = Duration::from_secs(30);

/// Why the server cannot send mail.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// Mails link to the server's pages, so it must know its public address.
    #[error("e-mail needs the server's public address (--public-url): the mails link to it")]
    NoPublicUrl,
    /// The sender is not an address (checked by [`MailConfig::new`] already).
    #[error("the sender {0:?} is not an address")]
    BadSender(String),
    /// The relay's TLS settings cannot be made.
    #[error("cannot set up TLS for the mail relay {host}: {error}")]
    Tls {
        /// The relay.
        host: String,
        /// What went wrong.
        error: lettre::transport::smtp::Error,
    },
}

/// What the mail task is asked to send.
enum Letter {
    /// The one mail an address gets before it is confirmed.
    Confirm {
        to: Address,
        lang: Lang,
        code: String,
    },
    /// An event of a game, for the confirmed addresses of the seat told.
    Tell(Notice),
}

/// The handle on the mail queue.
#[derive(Clone)]
pub struct Mailer {
    queue: Queue<Letter>,
}

impl Mailer {
    /// Starts the task that writes and sends the mails through the relay of `config`, on the
    /// current Tokio runtime; links in the mails start with `public_url`.
    pub fn start(
        store: StoreWriter,
        config: &MailConfig,
        public_url: &str,
    ) -> Result<Mailer, MailError> {
        let from: Mailbox = config
            .from
            .parse()
            .map_err(|_| MailError::BadSender(config.from.clone()))?;
        let tls = TlsParameters::new(config.host.clone()).map_err(|error| MailError::Tls {
            host: config.host.clone(),
            error,
        })?;
        let tls = if config.implicit_tls {
            Tls::Wrapper(tls)
        } else if config.on_loopback() {
            // A relay on this machine: the mail does not cross the network.
            Tls::Opportunistic(tls)
        } else {
            Tls::Required(tls)
        };
        // "Dangerous" only in that it leaves TLS to the caller: it is set just above.
        let mut relay = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)
            .port(config.port)
            .tls(tls)
            .timeout(Some(RELAY_TIMEOUT));
        if let Some((user, password)) = &config.login {
            relay = relay.credentials(Credentials::new(user.clone(), password.clone()));
        }
        let (queue, letters) = Queue::new(QUEUE, "mail");
        let writer = Writer {
            from,
            public_url: public_url.trim_end_matches('/').to_string(),
        };
        tokio::spawn(deliver_all(
            letters,
            queue.drop_report(),
            store,
            Arc::new(writer),
            relay.build(),
            config.first_retry,
        ));
        Ok(Mailer { queue })
    }

    /// Sends `to` the link that confirms it, with `code`, in `lang`.
    pub fn confirm(&self, to: Address, lang: Lang, code: String) {
        self.queue.offer(Letter::Confirm { to, lang, code });
    }

    /// Tells the seat's confirmed addresses of `notice`, if it is their move in a correspondence
    /// game (the other events are for the page and push).
    pub fn tell(&self, notice: &Notice) {
        if notice.per_move && matches!(notice.event, Event::Moved(_) | Event::Reminder { .. }) {
            self.queue.offer(Letter::Tell(notice.clone()));
        }
    }
}

/// Whether `text` is an address mail may be sent to: one that parses, within [`MAX_ADDRESS`].
pub fn parse_address(text: &str) -> Option<Address> {
    let text = text.trim();
    if text.len() > MAX_ADDRESS {
        return None;
    }
    text.parse().ok()
}

/// What writes the mails.
struct Writer {
    from: Mailbox,
    public_url: String,
}

/// One mail's words, before it is made a message.
struct Mail {
    subject: String,
    /// The paragraphs of the text, each plain.
    paragraphs: Vec<String>,
    /// The board, drawn as text.
    board: Option<String>,
    /// Links, each with its words.
    links: Vec<(String, String)>,
    /// The line at the foot: why the mail came.
    foot: String,
    /// The unsubscribe page's link, with its words.
    unsubscribe: Option<(String, String)>,
}

impl Writer {
    /// The confirmation mail.
    fn confirmation(&self, lang: Lang, code: &str) -> Mail {
        let site = [("site", self.public_url.as_str())];
        let link = format!("{}/email/confirm#c={code}", self.public_url);
        Mail {
            subject: msg::format(lang, "mail.confirm.subject", &[]),
            paragraphs: vec![msg::format(lang, "mail.confirm.body", &site)],
            board: None,
            links: vec![(link.clone(), link)],
            foot: msg::format(lang, "mail.confirm.ignore", &[]),
            unsubscribe: None,
        }
    }

    /// The mail that tells `subscription` of `notice`, or `None` for an event mail does not
    /// tell.
    fn tell(&self, notice: &Notice, subscription: &MailSubscription) -> Option<Mail> {
        let lang = subscription.lang.parse().unwrap_or(Lang::En);
        let other = notice
            .other
            .clone()
            .unwrap_or_else(|| msg::format(lang, "push.other", &[]));
        let name = [("name", other.as_str())];
        let (subject, said) = match notice.event {
            Event::Moved(mv) => (
                msg::format(lang, "mail.moved.subject", &name),
                msg::format(
                    lang,
                    "push.moved",
                    &[("name", &other), ("move", &mv.to_string())],
                ),
            ),
            Event::Reminder { .. } => (
                msg::format(lang, "mail.reminder.subject", &name),
                msg::format(lang, "push.reminder", &name),
            ),
            _ => return None,
        };
        let game = format!("{}/game/{}", self.public_url, notice.game);
        Some(Mail {
            subject,
            paragraphs: vec![said],
            board: Some(board(&notice.position, lang)),
            links: vec![(game, msg::format(lang, "mail.open", &[]))],
            foot: msg::format(lang, "mail.why", &[]),
            unsubscribe: Some((
                format!(
                    "{}/email/unsubscribe#t={}",
                    self.public_url, subscription.unsubscribe
                ),
                msg::format(lang, "mail.unsubscribe", &[]),
            )),
        })
    }

    /// `mail` as a message to `to`, with the one-click unsubscribe headers when `unsubscribe` (a
    /// token) is given.
    fn message(
        &self,
        to: &Address,
        lang: Lang,
        mail: &Mail,
        unsubscribe: Option<&str>,
    ) -> Result<Message, lettre::error::Error> {
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to.clone()))
            .subject(&mail.subject)
            .date_now();
        if let Some(token) = unsubscribe {
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{}/api/email/unsubscribe?t={token}>", self.public_url),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_string(),
                ));
        }
        builder.multipart(MultiPart::alternative_plain_html(
            plain_text(mail),
            html(mail, lang),
        ))
    }
}

/// The board in the receiver's language (North on top, as in every text diagram: the houses'
/// letters say whose they are).
fn board(position: &Position, lang: Lang) -> String {
    let words = Words {
        sides: [msg::side(lang, Side::South), msg::side(lang, Side::North)],
        store: msg::raw(lang, "puzzle.store"),
        to_move: msg::raw(lang, "puzzle.toMove"),
    };
    diagram_in(position, &words)
}

fn plain_text(mail: &Mail) -> String {
    let mut text = String::new();
    for paragraph in &mail.paragraphs {
        text += paragraph;
        text += "\n\n";
    }
    if let Some(board) = &mail.board {
        text += board;
        text += "\n";
    }
    for (link, words) in &mail.links {
        if link == words {
            text += &format!("{link}\n\n");
        } else {
            // The link on a line of its own: no colon, whose spacing differs by language.
            text += &format!("{words}\n{link}\n\n");
        }
    }
    text += &format!("-- \n{}\n", mail.foot);
    if let Some((link, words)) = &mail.unsubscribe {
        text += &format!("{words}\n{link}\n");
    }
    text
}

fn html(mail: &Mail, lang: Lang) -> String {
    let mut page = format!(
        "<!doctype html>\n<html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{}</title></head><body>\n",
        lang.code(),
        escape(&mail.subject)
    );
    for paragraph in &mail.paragraphs {
        page += &format!("<p>{}</p>\n", escape(paragraph));
    }
    if let Some(board) = &mail.board {
        page += &format!(
            "<pre style=\"font-family: monospace\">{}</pre>\n",
            escape(board)
        );
    }
    for (link, words) in &mail.links {
        page += &format!(
            "<p><a href=\"{}\">{}</a></p>\n",
            escape(link),
            escape(words)
        );
    }
    page += &format!("<hr><p style=\"font-size: small\">{}", escape(&mail.foot));
    if let Some((link, words)) = &mail.unsubscribe {
        page += &format!(" <a href=\"{}\">{}</a>", escape(link), escape(words));
    }
    page += "</p>\n";
    page += "</body></html>\n";
    page
}

/// `text` made safe inside HTML, in text and in quoted attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out += "&amp;",
            '<' => out += "&lt;",
            '>' => out += "&gt;",
            '"' => out += "&quot;",
            '\'' => out += "&#39;",
            c => out.push(c),
        }
    }
    out
}

type Relay = AsyncSmtpTransport<Tokio1Executor>;

async fn deliver_all(
    mut letters: mpsc::Receiver<Letter>,
    mut drops: DropReport,
    store: StoreWriter,
    writer: Arc<Writer>,
    relay: Relay,
    first_retry: Duration,
) {
    let sending = Arc::new(Semaphore::new(SENDING));
    while let Some(letter) = letters.recv().await {
        drops.say_if_due();
        for (message, about) in write(letter, &store, &writer).await {
            let Ok(permit) = sending.clone().acquire_owned().await else {
                return;
            };
            let relay = relay.clone();
            tokio::spawn(async move {
                let _permit = permit;
                deliver(&relay, message, &about, first_retry).await;
            });
        }
    }
}

/// The messages a letter becomes, each with what it is about (for the messages on standard
/// error, which never name the address).
async fn write(letter: Letter, store: &StoreWriter, writer: &Writer) -> Vec<(Message, String)> {
    let made = |result: Result<Message, lettre::error::Error>, about: String| match result {
        Ok(message) => Some((message, about)),
        Err(e) => {
            eprintln!("oware serve: cannot write the {about}: {e}");
            None
        }
    };
    match letter {
        Letter::Confirm { to, lang, code } => {
            let mail = writer.confirmation(lang, &code);
            made(
                writer.message(&to, lang, &mail, None),
                "confirmation mail".to_string(),
            )
            .into_iter()
            .collect()
        }
        Letter::Tell(notice) => {
            let (game, to) = (notice.game.clone(), notice.to);
            let subscriptions = match store.run(move |s| s.mail_subscriptions(&game, to)).await {
                Ok(found) => found,
                Err(e) => {
                    eprintln!(
                        "oware serve: cannot read the mail subscriptions of game {}: {e}",
                        notice.game
                    );
                    return Vec::new();
                }
            };
            let mut messages = Vec::new();
            for subscription in subscriptions {
                if let Event::Reminder { since } = notice.event {
                    // Once per move, restarts included.
                    let token = subscription.unsubscribe.clone();
                    match store.run(move |s| s.mark_reminded(&token, since)).await {
                        Ok(true) => {}
                        Ok(false) => continue,
                        Err(e) => {
                            eprintln!("oware serve: cannot note a reminder of game {}: {e}; not sent, so it is not sent twice", notice.game);
                            continue;
                        }
                    }
                }
                let Some(mail) = writer.tell(&notice, &subscription) else {
                    continue;
                };
                let Ok(to) = subscription.address.parse::<Address>() else {
                    continue;
                };
                let lang = subscription.lang.parse().unwrap_or(Lang::En);
                let about = format!("mail of game {}", notice.game);
                messages.extend(made(
                    writer.message(&to, lang, &mail, Some(&subscription.unsubscribe)),
                    about,
                ));
            }
            messages
        }
    }
}

/// Sends `message`, trying again with backoff while the relay is down or answers "later"; a
/// refusal for good (a 5xx answer) is said and not tried again.
async fn deliver(relay: &Relay, message: Message, about: &str, first_retry: Duration) {
    let mut wait = first_retry;
    for attempt in 1..=TRIES {
        match relay.send(message.clone()).await {
            Ok(_) => return,
            Err(e) if e.is_permanent() => {
                eprintln!("oware serve: the mail relay refused the {about}: {e}");
                return;
            }
            Err(e) if attempt < TRIES => {
                eprintln!(
                    "oware serve: the {about} could not be sent (try {attempt} of {TRIES}: {e}); tried again in {} s",
                    wait.as_secs_f32()
                );
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            Err(e) => {
                eprintln!("oware serve: the {about} was given up after {TRIES} tries: {e}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer() -> Writer {
        Writer {
            from: "Oware <oware@example.org>".parse().unwrap(),
            public_url: "https://oware.example.org".to_string(),
        }
    }

    fn notice(event: Event) -> Notice {
        Notice {
            game: "0123456789abcdef0123456789abcdef".to_string(),
            to: Side::North,
            other: Some("<script>alert(1)</script> & Rosa".to_string()),
            event,
            position: Position::start(),
            per_move: true,
        }
    }

    fn subscription() -> MailSubscription {
        MailSubscription {
            address: "rosa@example.org".to_string(),
            lang: "fr".to_string(),
            unsubscribe: "feedface".to_string(),
        }
    }

    fn text_of(message: &Message) -> String {
        String::from_utf8(message.formatted()).unwrap()
    }

    #[test]
    fn addresses_are_checked_and_bounded() {
        assert!(parse_address("rosa@example.org").is_some());
        assert!(parse_address(" rosa@example.org ").is_some());
        for bad in ["rosa", "@example.org", "a b@example.org", "<a@b.org>", ""] {
            assert!(parse_address(bad).is_none(), "{bad}");
        }
        let long = format!("{}@example.org", "a".repeat(MAX_ADDRESS));
        assert!(parse_address(&long).is_none());
    }

    #[test]
    fn a_move_mail_escapes_the_name_and_carries_no_token() {
        let writer = writer();
        let mail = writer
            .tell(&notice(Event::Moved("f".parse().unwrap())), &subscription())
            .unwrap();
        let html = html(&mail, Lang::Fr);
        assert!(!html.contains("<script>"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Rosa"));
        let text = plain_text(&mail);
        assert!(
            text.contains("<script>alert(1)</script> & Rosa a joué f"),
            "{text}"
        );
        assert!(text.contains("https://oware.example.org/game/0123456789abcdef0123456789abcdef"));
        assert!(text.contains("Nord") && text.contains("Sud"), "{text}");
        let to = "rosa@example.org".parse().unwrap();
        let message = writer
            .message(&to, Lang::Fr, &mail, Some("feedface"))
            .unwrap();
        let raw = text_of(&message);
        assert!(raw.contains(
            "List-Unsubscribe: <https://oware.example.org/api/email/unsubscribe?t=feedface>"
        ));
        assert!(raw.contains("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
        assert!(raw.contains("multipart/alternative"));
    }

    #[test]
    fn only_moves_and_reminders_of_correspondence_games_are_mailed() {
        let writer = writer();
        let ended = notice(Event::Ended(oware_rules::Ending::Aborted));
        assert!(writer.tell(&ended, &subscription()).is_none());
        let reminder = writer
            .tell(&notice(Event::Reminder { since: 5 }), &subscription())
            .unwrap();
        assert!(reminder.subject.contains("un jour"), "{}", reminder.subject);
        let confirmation = writer.confirmation(Lang::Es, "c0de");
        let text = plain_text(&confirmation);
        assert!(text.contains("https://oware.example.org/email/confirm#c=c0de"));
        assert!(text.contains("ignora este correo"), "{text}");
    }
}
