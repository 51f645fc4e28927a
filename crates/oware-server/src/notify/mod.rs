//! Telling players of games at a distance that something happened while their page was closed:
//! Web Push to the browsers they subscribed ([`webpush`]: the encryption and the VAPID signature;
//! [`push`]: the messages and their deliveries), and e-mail to the addresses they confirmed in
//! correspondence games ([`mail`]). A room hands each event to the [`Notifier`] and goes on at
//! once: each way has a bounded queue and a task of its own that sends off the move path, so a
//! slow or dead push service or mail relay never delays a move.

pub(crate) mod mail;
pub(crate) mod push;
pub(crate) mod webpush;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use oware_rules::{Ending, Move, Position, Side};

use crate::game::model::{OfferKind, QuickMessage};

/// What happened in a game, for the player it is told to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// The other player moved: it is the receiver's move.
    Moved(Move),
    /// The other player offers a draw or a takeback.
    Offered(OfferKind),
    /// The other player sent a quick message.
    Said(QuickMessage),
    /// The game ended.
    Ended(Ending),
    /// One day of the receiver's time for this move is left (a correspondence game); the move's
    /// clock started at `since`, which tells one move's reminder from the next.
    Reminder {
        /// When the receiver's clock for this move started, in milliseconds since the epoch.
        since: u64,
    },
}

/// One event for one seat of one game.
#[derive(Debug, Clone)]
pub struct Notice {
    /// The game's id.
    pub game: String,
    /// The seat told.
    pub to: Side,
    /// The other player's name, if they gave one.
    pub other: Option<String>,
    /// What happened.
    pub event: Event,
    /// The board after it.
    pub position: Position,
    /// Whether the game is played by correspondence (days for each move): only those are told
    /// by e-mail.
    pub per_move: bool,
}

/// Items waiting for a sending task; past its bound, new ones are dropped, since a game must never
/// wait for its notifications. The drops are only counted here: the sending task says them
/// ([`DropReport`]), because a write to standard error can block (a journal that is behind, a
/// busy disk), and here it would block the move that caused the notice, under its room's lock.
pub(crate) struct Queue<T> {
    sender: mpsc::Sender<T>,
    dropped: Arc<AtomicU64>,
    /// What the items are, for the message that says some were dropped.
    what: &'static str,
}

impl<T> Clone for Queue<T> {
    fn clone(&self) -> Queue<T> {
        Queue {
            sender: self.sender.clone(),
            dropped: self.dropped.clone(),
            what: self.what,
        }
    }
}

impl<T> Queue<T> {
    /// A queue of at most `bound` items of `what`, and its receiving end.
    pub(crate) fn new(bound: usize, what: &'static str) -> (Queue<T>, mpsc::Receiver<T>) {
        let (sender, receiver) = mpsc::channel(bound);
        let queue = Queue {
            sender,
            dropped: Arc::default(),
            what,
        };
        (queue, receiver)
    }

    /// Hands `item` to the queue without waiting; a full queue drops it and counts it.
    pub(crate) fn offer(&self, item: T) {
        if self.sender.try_send(item).is_err() {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// What the sending task uses to say this queue's drops.
    pub(crate) fn drop_report(&self) -> DropReport {
        DropReport {
            dropped: self.dropped.clone(),
            what: self.what,
            said: 0,
            said_at: None,
        }
    }
}

/// The shortest time between two messages about items dropped at a full queue.
const DROPS_SAID_EVERY: Duration = Duration::from_secs(10);

/// Says how many items a full [`Queue`] has dropped, when more have been since it was last said,
/// at most every [`DROPS_SAID_EVERY`].
pub(crate) struct DropReport {
    dropped: Arc<AtomicU64>,
    what: &'static str,
    said: u64,
    said_at: Option<Instant>,
}

impl DropReport {
    /// Says the count if it is due; whether it did.
    pub(crate) fn say_if_due(&mut self) -> bool {
        let dropped = self.dropped.load(Ordering::Relaxed);
        let due = dropped > self.said
            && self
                .said_at
                .is_none_or(|at| at.elapsed() >= DROPS_SAID_EVERY);
        if due {
            eprintln!(
                "oware serve: the {} queue is full: {dropped} dropped in all",
                self.what
            );
            self.said = dropped;
            self.said_at = Some(Instant::now());
        }
        due
    }

    /// As if the count was last said long ago.
    #[cfg(test)]
    pub(crate) fn backdate_for_test(&mut self) {
        self.said_at = Instant::now().checked_sub(DROPS_SAID_EVERY);
    }
}

/// The rooms' handle on the ways players are told of their games.
#[derive(Clone, Default)]
pub struct Notifier {
    push: Option<Queue<Notice>>,
    mail: Option<mail::Mailer>,
}

impl Notifier {
    /// A notifier that tells no one (tests of the rooms, a server without its store).
    pub fn off() -> Notifier {
        Notifier::default()
    }

    /// Tells by push through `push` (see [`push::start`]) and, when the server sends mail, by
    /// `mail`.
    pub(crate) fn new(push: Queue<Notice>, mail: Option<mail::Mailer>) -> Notifier {
        Notifier {
            push: Some(push),
            mail,
        }
    }

    /// Hands `notice` to each way of telling, without waiting.
    pub fn send(&self, notice: Notice) {
        if let Some(mail) = &self.mail {
            mail.tell(&notice);
        }
        if let Some(push) = &self.push {
            push.offer(notice);
        }
    }
}
