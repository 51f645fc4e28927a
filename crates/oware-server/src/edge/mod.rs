//! The edge every connection crosses before it reaches a game: the accept loop and its header
//! deadline ([`accept`]); the middleware every request passes, for hosts, cross-site requests,
//! bodies and security headers ([`security`]); the largest body and its deadline ([`body`]); the client's address behind trusted proxies
//! ([`forwarded`]); each address's fair share of sockets and analyses ([`shares`]) and of messages
//! and new games ([`rate_limit`]); and the seat cookie ([`cookie`]).
//!
//! The edge knows the configuration and the API's errors, never the games.

pub(crate) mod accept;
pub(crate) mod body;
pub(crate) mod cookie;
pub(crate) mod forwarded;
pub(crate) mod rate_limit;
pub(crate) mod security;
pub(crate) mod shares;
