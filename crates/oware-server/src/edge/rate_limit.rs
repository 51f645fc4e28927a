//! Limits on what one client may send: a token bucket per WebSocket connection (and per game, for
//! moves), and hourly counts of the games each address creates and the confirmation mails asked
//! for.

/// A per-connection message budget (a token bucket): `rate` messages a second on average, bursts
/// of up to `burst`. A client over it gets an error for each message dropped; one that keeps on
/// is disconnected (see [`TokenBucket::should_disconnect`]).
#[derive(Debug, Clone)]
pub struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: std::time::Instant,
    /// Messages dropped since the last one accepted.
    dropped_in_a_row: u32,
}

/// Dropped messages in a row after which a connection is closed: no honest page sends that many.
pub const MAX_DROPPED_IN_A_ROW: u32 = 50;

impl TokenBucket {
    /// A full bucket of `rate` messages a second (at least one), bursts of twice as many.
    pub fn new(rate: u32, now: std::time::Instant) -> TokenBucket {
        let rate = f64::from(rate.max(1));
        TokenBucket {
            rate,
            burst: rate * 2.0,
            tokens: rate * 2.0,
            last: now,
            dropped_in_a_row: 0,
        }
    }

    /// Whether a message arriving at `now` may be handled.
    pub fn allow(&mut self, now: std::time::Instant) -> bool {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.dropped_in_a_row = 0;
            true
        } else {
            self.dropped_in_a_row += 1;
            false
        }
    }

    /// Whether the client has had [`MAX_DROPPED_IN_A_ROW`] messages dropped in a row.
    pub fn should_disconnect(&self) -> bool {
        self.dropped_in_a_row >= MAX_DROPPED_IN_A_ROW
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn bursts_then_the_rate_then_disconnect() {
        let t0 = Instant::now();
        let mut limit = TokenBucket::new(5, t0);
        let allowed = (0..30).filter(|_| limit.allow(t0)).count();
        assert_eq!(allowed, 10, "a burst of twice the rate");
        assert!(!limit.should_disconnect());
        // One second later, five more.
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!((0..30).filter(|_| limit.allow(t1)).count(), 5);
        assert!(!limit.should_disconnect(), "the 5 accepted reset the count");
        assert_eq!((0..25).filter(|_| limit.allow(t1)).count(), 0);
        assert!(limit.should_disconnect(), "25 + 25 dropped in a row");
        // An accepted message resets the count.
        assert!(limit.allow(t1 + Duration::from_secs(1)));
        assert!(!limit.should_disconnect());
    }
}

/// How many times each key (a client's address: the games it creates, the confirmation mails it
/// asks for; an e-mail address: the confirmations it is sent) may do something in an hour, so
/// that one client cannot fill the database or use the server to send mail to strangers.
/// Counted in memory: a restart forgets the counts, which only ever lets a client do more.
pub struct HourlyQuota<K = std::net::IpAddr> {
    per_hour: usize,
    done: std::sync::Mutex<std::collections::HashMap<K, Vec<std::time::Instant>>>,
}

/// The window the address limit counts over.
const ADDRESS_WINDOW: std::time::Duration = std::time::Duration::from_secs(3600);

impl<K: std::hash::Hash + Eq> HourlyQuota<K> {
    /// Nothing done yet; each key may do it `per_hour` an hour.
    pub fn new(per_hour: usize) -> HourlyQuota<K> {
        HourlyQuota {
            per_hour,
            done: Default::default(),
        }
    }

    /// Whether `key` may do it once more at `now`; if it may, that time is counted.
    pub fn allow(&self, key: K, now: std::time::Instant) -> bool {
        let mut done = self.done.lock().unwrap_or_else(|p| p.into_inner());
        let recent = |t: &std::time::Instant| now.saturating_duration_since(*t) < ADDRESS_WINDOW;
        if done.len() > 10_000 {
            // Many keys: forget those with nothing recent, so the map stays small.
            done.retain(|_, times| times.iter().any(recent));
        }
        let times = done.entry(key).or_default();
        times.retain(recent);
        if times.len() >= self.per_hour {
            return false;
        }
        times.push(now);
        true
    }
}

#[cfg(test)]
mod address_tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn each_address_has_its_own_hourly_count() {
        let limit: HourlyQuota = HourlyQuota::new(3);
        let (a, b) = ("10.0.0.1".parse().unwrap(), "10.0.0.2".parse().unwrap());
        let t0 = Instant::now();
        assert_eq!((0..5).filter(|_| limit.allow(a, t0)).count(), 3);
        assert!(limit.allow(b, t0), "another address is not held back");
        assert!(!limit.allow(a, t0 + Duration::from_secs(3599)));
        assert!(
            limit.allow(a, t0 + Duration::from_secs(3601)),
            "an hour later"
        );
    }
}
