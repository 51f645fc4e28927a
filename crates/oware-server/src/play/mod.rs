//! Games in play: one game in memory, refereed with `oware_rules::Game`, its changes stored and
//! then broadcast ([`room`]); the rooms loaded on demand ([`games`]); the computer's moves and the
//! flag falls as background tasks ([`computer`], [`clock_watch`]), tried again until stored
//! ([`retry`]); and the JSON messages spoken over the WebSocket ([`protocol`]).

pub(crate) mod clock_watch;
pub(crate) mod computer;
pub(crate) mod games;
pub(crate) mod protocol;
pub(crate) mod retry;
pub(crate) mod room;

#[cfg(test)]
mod fault_tests;
