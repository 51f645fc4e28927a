//! Fair shares for each address: the WebSockets one address may hold open, the analyses and coach
//! requests it may have running or waiting.
//!
//! The server-wide bounds (`max_connections`, the engine pool's searches) keep the machine alive;
//! these keep one client from taking all of them: without them, one client that opens
//! `max_connections` sockets, or queues sixty analyses, locks every other player out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// What each address holds (open sockets, analyses): at most `at_once` in use and `waiting` more
/// in line for a turn, each address with its own line.
pub struct PerAddress {
    at_once: usize,
    waiting: usize,
    held: Arc<Mutex<HashMap<IpAddr, Held>>>,
}

/// An address's count of shares and the turns they take.
struct Held {
    count: usize,
    turns: Arc<Semaphore>,
}

/// One of an address's shares; given back when dropped.
pub struct AddressShare {
    held: Arc<Mutex<HashMap<IpAddr, Held>>>,
    address: IpAddr,
    turns: Arc<Semaphore>,
}

impl PerAddress {
    /// Each address may hold `at_once` shares in use (at least one) and `waiting` more in line.
    pub fn new(at_once: usize, waiting: usize) -> PerAddress {
        PerAddress {
            at_once: at_once.max(1),
            waiting,
            held: Default::default(),
        }
    }

    /// One more share for `address`, unless it holds all it may already.
    pub fn take(&self, address: IpAddr) -> Option<AddressShare> {
        let mut held = lock(&self.held);
        let entry = held.entry(address).or_insert_with(|| Held {
            count: 0,
            turns: Arc::new(Semaphore::new(self.at_once)),
        });
        if entry.count >= self.at_once + self.waiting {
            return None;
        }
        entry.count += 1;
        Some(AddressShare {
            held: self.held.clone(),
            address,
            turns: entry.turns.clone(),
        })
    }

    /// The shares `address` holds now, in use or waiting.
    pub fn held(&self, address: IpAddr) -> usize {
        lock(&self.held).get(&address).map_or(0, |h| h.count)
    }
}

impl AddressShare {
    /// Waits for one of the address's turns (its shares get them in the order they asked).
    pub async fn turn(&self) -> OwnedSemaphorePermit {
        self.turns
            .clone()
            .acquire_owned()
            .await
            .expect("an address's turns are never closed")
    }
}

impl Drop for AddressShare {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        if let Some(entry) = held.get_mut(&self.address) {
            entry.count -= 1;
            // Addresses holding nothing are forgotten, so the map stays as small as what is open.
            if entry.count == 0 {
                held.remove(&self.address);
            }
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The per-address limits the server keeps.
pub struct AddressShares {
    /// Open WebSockets.
    pub sockets: PerAddress,
    /// Analysis and coach requests running or waiting for an engine.
    pub analyses: PerAddress,
}

impl AddressShares {
    /// Limits with the caps the configuration gives.
    pub fn new(config: &crate::Config) -> AddressShares {
        AddressShares {
            sockets: PerAddress::new(config.sockets_per_address, 0),
            analyses: PerAddress::new(
                config.analyses_per_address,
                config.analyses_waiting_per_address,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_holds_its_cap_and_gets_shares_back() {
        let limit = PerAddress::new(2, 0);
        let (a, b): (IpAddr, IpAddr) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let first = limit.take(a).unwrap();
        let _second = limit.take(a).unwrap();
        assert!(limit.take(a).is_none(), "a third share");
        assert!(limit.take(b).is_some(), "another address is not held back");
        drop(first);
        assert_eq!(limit.held(a), 1);
        assert!(
            limit.take(a).is_some(),
            "a share given back can be taken again"
        );
        assert_eq!(limit.held(b), 0, "b's share was dropped at once");
    }

    use futures_util::FutureExt;

    #[tokio::test]
    async fn shares_past_the_first_wait_in_line_for_a_turn() {
        let limit = PerAddress::new(1, 1);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let (first, second) = (limit.take(a).unwrap(), limit.take(a).unwrap());
        assert!(limit.take(a).is_none(), "one at once, one waiting");
        let turn = first.turn().await;
        let waiting = second.turn();
        tokio::pin!(waiting);
        assert!(
            waiting.as_mut().now_or_never().is_none(),
            "the second waits while the first has the turn"
        );
        drop(turn);
        let _turn = waiting.await;
    }
}
