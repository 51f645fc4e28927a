//! Storage: SQLite holds the games, the players' tokens and the moves, one transaction per change,
//! its schema versioned by ordered migrations ([`sqlite`]); one thread owns the connection, so no
//! SQLite call runs on the async runtime ([`writer`]); the browsers to tell of each seat's games and
//! the server's keys ([`push`]); the e-mail addresses to tell of them ([`mail`]); and a game's
//! record as text ([`record`]).

mod mail;
mod push;
pub(crate) mod record;
mod sqlite;
pub(crate) mod writer;

pub(crate) use mail::{MailRequest, MailSubscription, NewAddress};
pub(crate) use push::PushSubscription;
pub use sqlite::StoreError;
pub(crate) use sqlite::{LastAlive, SeatRow, Store, StoredGame, WalReport};
