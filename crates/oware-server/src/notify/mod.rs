//! Telling players of games at a distance that something happened while their page was closed:
//! Web Push to the browsers they subscribed ([`webpush`]: the encryption and the VAPID signature;
//! [`push`]: the events, the subscriptions they go to, and the deliveries off the move path).

pub(crate) mod push;
pub(crate) mod webpush;
