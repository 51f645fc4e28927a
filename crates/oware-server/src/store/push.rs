//! What the store keeps for Web Push: each seat's subscriptions (the browsers its player asked to
//! be told of the game's events) and the server's own keys.

use rusqlite::{params, OptionalExtension};

use oware_rules::Side;

use super::sqlite::{side_text, Store, StoreError};

/// The most browsers one seat may subscribe: a phone, a tablet and a computer. A new one past
/// that replaces the oldest.
pub const MAX_PER_SEAT: usize = 3;

/// One browser to tell of a seat's events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PushSubscription {
    /// The push service's address for that browser.
    pub endpoint: String,
    /// The browser's public key, uncompressed (65 bytes).
    pub p256dh: Vec<u8>,
    /// The browser's authentication secret (16 bytes).
    pub auth: Vec<u8>,
    /// The language its messages are written in (`ca`, `es`, `en`, `fr`).
    pub lang: String,
}

impl Store {
    /// Adds (or renews) a browser for the seat of `side` in game `id`, keeping at most
    /// [`MAX_PER_SEAT`] for the seat, the newest.
    pub fn add_push_subscription(
        &mut self,
        id: &str,
        side: Side,
        subscription: &PushSubscription,
        now: u64,
    ) -> Result<(), StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        tx.execute(
            "INSERT INTO push_subscriptions(game_id, side, endpoint, p256dh, auth, lang, created)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT(game_id, side, endpoint) DO UPDATE SET
                p256dh = excluded.p256dh, auth = excluded.auth, lang = excluded.lang,
                created = excluded.created",
            params![
                id,
                side_text(side),
                subscription.endpoint,
                subscription.p256dh,
                subscription.auth,
                subscription.lang,
                now as i64
            ],
        )?;
        tx.execute(
            "DELETE FROM push_subscriptions WHERE game_id = ?1 AND side = ?2 AND endpoint NOT IN
               (SELECT endpoint FROM push_subscriptions WHERE game_id = ?1 AND side = ?2
                ORDER BY created DESC, rowid DESC LIMIT ?3)",
            params![id, side_text(side), MAX_PER_SEAT as i64],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// The browsers subscribed for the seat of `side` in game `id`.
    pub fn push_subscriptions(
        &self,
        id: &str,
        side: Side,
    ) -> Result<Vec<PushSubscription>, StoreError> {
        let mut query = self.conn()?.prepare(
            "SELECT endpoint, p256dh, auth, lang FROM push_subscriptions
             WHERE game_id = ?1 AND side = ?2 ORDER BY created",
        )?;
        let rows = query.query_map(params![id, side_text(side)], |row| {
            Ok(PushSubscription {
                endpoint: row.get(0)?,
                p256dh: row.get(1)?,
                auth: row.get(2)?,
                lang: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Forgets a browser the push service no longer knows, in every game it was subscribed to.
    pub fn remove_push_endpoint(&mut self, endpoint: &str) -> Result<(), StoreError> {
        self.conn()?.execute(
            "DELETE FROM push_subscriptions WHERE endpoint = ?1",
            params![endpoint],
        )?;
        Ok(())
    }

    /// Forgets every browser of the seat of `side` in game `id` (the player asked to be told no
    /// more).
    pub fn remove_push_subscriptions(&mut self, id: &str, side: Side) -> Result<(), StoreError> {
        self.conn()?.execute(
            "DELETE FROM push_subscriptions WHERE game_id = ?1 AND side = ?2",
            params![id, side_text(side)],
        )?;
        Ok(())
    }

    /// The server's key named `name`, made by `make` and kept the first time it is asked for.
    pub fn server_key(
        &mut self,
        name: &str,
        make: impl FnOnce() -> Vec<u8>,
    ) -> Result<Vec<u8>, StoreError> {
        let conn = self.conn()?;
        let kept: Option<Vec<u8>> = conn
            .query_row(
                "SELECT value FROM server_keys WHERE name = ?1",
                params![name],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(value) = kept {
            return Ok(value);
        }
        let value = make();
        conn.execute(
            "INSERT INTO server_keys(name, value) VALUES (?1, ?2)",
            params![name, value],
        )?;
        Ok(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn subscription(endpoint: &str) -> PushSubscription {
        PushSubscription {
            endpoint: endpoint.to_string(),
            p256dh: vec![4; 65],
            auth: vec![1; 16],
            lang: "ca".to_string(),
        }
    }

    #[test]
    fn a_seat_keeps_its_newest_browsers_and_forgets_gone_ones() {
        let mut store = Store::with_one_game();
        for (i, endpoint) in ["https://p/1", "https://p/2", "https://p/3", "https://p/4"]
            .iter()
            .enumerate()
        {
            store
                .add_push_subscription("g", Side::North, &subscription(endpoint), i as u64)
                .unwrap();
        }
        let kept: Vec<String> = store
            .push_subscriptions("g", Side::North)
            .unwrap()
            .into_iter()
            .map(|s| s.endpoint)
            .collect();
        assert_eq!(kept, ["https://p/2", "https://p/3", "https://p/4"]);
        assert!(store
            .push_subscriptions("g", Side::South)
            .unwrap()
            .is_empty());
        store.remove_push_endpoint("https://p/3").unwrap();
        assert_eq!(store.push_subscriptions("g", Side::North).unwrap().len(), 2);
        store.remove_push_subscriptions("g", Side::North).unwrap();
        assert!(store
            .push_subscriptions("g", Side::North)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_server_key_is_made_once_and_kept() {
        let mut store = Store::in_memory().unwrap();
        let first = store.server_key("vapid", || vec![1, 2, 3]).unwrap();
        let again = store.server_key("vapid", || vec![9]).unwrap();
        assert_eq!((first, again), (vec![1, 2, 3], vec![1, 2, 3]));
    }
}
