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

/// Items waiting for a sending task; past its bound, new ones are dropped (and said), since a
/// game must never wait for its notifications.
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

    /// Hands `item` to the queue without waiting; a full queue drops it (and says so, at most
    /// once in a hundred).
    pub(crate) fn offer(&self, item: T) {
        if self.sender.try_send(item).is_err() {
            let dropped = self.dropped.fetch_add(1, Ordering::Relaxed);
            if dropped.is_multiple_of(100) {
                eprintln!(
                    "oware serve: the {} queue is full: {} dropped",
                    self.what,
                    dropped + 1
                );
            }
        }
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
