//! What the store keeps for e-mail: the addresses each seat asked to be told of its moves at.
//! An address gets nothing but its confirmation mail until the code in it comes back; every mail
//! after that carries the address's own unsubscribe token.

use rusqlite::{params, OptionalExtension};

use oware_rules::Side;

use super::push::MAX_PER_SEAT;
use super::sqlite::{side_text, Store, StoreError};

/// One confirmed address to tell of a seat's moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailSubscription {
    /// Where the mail goes.
    pub address: String,
    /// The language its mails are written in (`ca`, `es`, `en`, `fr`).
    pub lang: String,
    /// The token of its unsubscribe link.
    pub unsubscribe: String,
}

/// An address asked for, as the store found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MailRequest {
    /// Not confirmed yet: the confirmation mail with this code is to be sent.
    Confirm {
        /// The code the confirmation link carries.
        code: String,
    },
    /// Confirmed already (its language is renewed): no mail is sent.
    Confirmed,
}

/// A new address of a seat, before its confirmation.
#[derive(Debug, Clone, Copy)]
pub struct NewAddress<'a> {
    /// Where the mail goes.
    pub address: &'a str,
    /// The language of its mails.
    pub lang: &'a str,
    /// The code its confirmation link will carry (used only if it is not confirmed yet).
    pub code: &'a str,
    /// The token of its unsubscribe link (used only if it is new).
    pub unsubscribe: &'a str,
}

impl Store {
    /// Asks for `new.address` to be told of the seat of `side` in game `id`'s moves, in one
    /// transaction: an address not yet confirmed gets `new.code`, valid until `expires`; a seat
    /// keeps at most [`MAX_PER_SEAT`] addresses, the newest; codes expired by `now` are dropped
    /// with their unconfirmed addresses.
    pub fn request_mail(
        &mut self,
        id: &str,
        side: Side,
        new: NewAddress,
        now: u64,
        expires: u64,
    ) -> Result<MailRequest, StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        tx.execute(
            "DELETE FROM mail_subscriptions WHERE confirmed IS NULL AND code_expires <= ?1",
            params![now as i64],
        )?;
        let confirmed: Option<Option<i64>> = tx
            .query_row(
                "SELECT confirmed FROM mail_subscriptions
                 WHERE game_id = ?1 AND side = ?2 AND address = ?3",
                params![id, side_text(side), new.address],
                |row| row.get(0),
            )
            .optional()?;
        let answer = match confirmed {
            Some(Some(_)) => {
                tx.execute(
                    "UPDATE mail_subscriptions SET lang = ?4
                     WHERE game_id = ?1 AND side = ?2 AND address = ?3",
                    params![id, side_text(side), new.address, new.lang],
                )?;
                MailRequest::Confirmed
            }
            _ => {
                tx.execute(
                    "INSERT INTO mail_subscriptions(game_id, side, address, lang, code,
                        code_expires, unsubscribe, created)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                     ON CONFLICT(game_id, side, address) DO UPDATE SET
                        lang = excluded.lang, code = excluded.code,
                        code_expires = excluded.code_expires, created = excluded.created",
                    params![
                        id,
                        side_text(side),
                        new.address,
                        new.lang,
                        new.code,
                        expires as i64,
                        new.unsubscribe,
                        now as i64
                    ],
                )?;
                MailRequest::Confirm {
                    code: new.code.to_string(),
                }
            }
        };
        tx.execute(
            "DELETE FROM mail_subscriptions WHERE game_id = ?1 AND side = ?2 AND address NOT IN
               (SELECT address FROM mail_subscriptions WHERE game_id = ?1 AND side = ?2
                ORDER BY created DESC, rowid DESC LIMIT ?3)",
            params![id, side_text(side), MAX_PER_SEAT as i64],
        )?;
        tx.commit()?;
        Ok(answer)
    }

    /// Confirms the address whose confirmation code is `code`, if the code is still valid at
    /// `now`: the game's id, or `None`.
    pub fn confirm_mail(&mut self, code: &str, now: u64) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn()?
            .query_row(
                "UPDATE mail_subscriptions SET confirmed = ?2, code = NULL, code_expires = NULL
                 WHERE code = ?1 AND code_expires > ?2
                 RETURNING game_id",
                params![code, now as i64],
                |row| row.get(0),
            )
            .optional()?)
    }

    /// The confirmed addresses of the seat of `side` in game `id`.
    pub fn mail_subscriptions(
        &self,
        id: &str,
        side: Side,
    ) -> Result<Vec<MailSubscription>, StoreError> {
        let mut query = self.conn()?.prepare(
            "SELECT address, lang, unsubscribe FROM mail_subscriptions
             WHERE game_id = ?1 AND side = ?2 AND confirmed IS NOT NULL ORDER BY created",
        )?;
        let rows = query.query_map(params![id, side_text(side)], |row| {
            Ok(MailSubscription {
                address: row.get(0)?,
                lang: row.get(1)?,
                unsubscribe: row.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Notes that the address of unsubscribe token `token` is reminded of the clock period that
    /// began at `since`; false when it was already (the reminder is not sent twice).
    pub fn mark_reminded(&mut self, token: &str, since: u64) -> Result<bool, StoreError> {
        let changed = self.conn()?.execute(
            "UPDATE mail_subscriptions SET reminded = ?2
             WHERE unsubscribe = ?1 AND reminded IS NOT ?2",
            params![token, since as i64],
        )?;
        Ok(changed > 0)
    }

    /// Forgets the address of unsubscribe token `token`; says whether there was one.
    pub fn unsubscribe_mail(&mut self, token: &str) -> Result<bool, StoreError> {
        let removed = self.conn()?.execute(
            "DELETE FROM mail_subscriptions WHERE unsubscribe = ?1",
            params![token],
        )?;
        Ok(removed > 0)
    }

    /// Forgets every address of the seat of `side` in game `id`.
    pub fn remove_mail_subscriptions(&mut self, id: &str, side: Side) -> Result<(), StoreError> {
        self.conn()?.execute(
            "DELETE FROM mail_subscriptions WHERE game_id = ?1 AND side = ?2",
            params![id, side_text(side)],
        )?;
        Ok(())
    }

    /// The games some confirmed address waits on: the server loads them as it starts, so that
    /// their clocks are watched for the reminders.
    pub fn games_with_mail(&self) -> Result<Vec<String>, StoreError> {
        let mut query = self.conn()?.prepare(
            "SELECT DISTINCT game_id FROM mail_subscriptions WHERE confirmed IS NOT NULL",
        )?;
        let rows = query.query_map([], |row| row.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(store: &mut Store, address: &str, code: &str, now: u64) -> MailRequest {
        let new = NewAddress {
            address,
            lang: "fr",
            code,
            unsubscribe: &format!("u-{address}"),
        };
        store
            .request_mail("g", Side::North, new, now, now + 100)
            .unwrap()
    }

    #[test]
    fn an_address_is_told_only_once_confirmed_and_until_unsubscribed() {
        let mut store = Store::with_one_game();
        assert_eq!(
            ask(&mut store, "a@example.org", "c1", 0),
            MailRequest::Confirm {
                code: "c1".to_string()
            }
        );
        assert!(store
            .mail_subscriptions("g", Side::North)
            .unwrap()
            .is_empty());
        // Asked again before confirming: a new code replaces the old one.
        ask(&mut store, "a@example.org", "c2", 10);
        assert_eq!(store.confirm_mail("c1", 20).unwrap(), None);
        assert_eq!(store.confirm_mail("c2", 200).unwrap(), None, "expired");
        ask(&mut store, "a@example.org", "c3", 300);
        assert_eq!(store.confirm_mail("c3", 310).unwrap().as_deref(), Some("g"));
        assert_eq!(store.confirm_mail("c3", 311).unwrap(), None, "used");
        let told = store.mail_subscriptions("g", Side::North).unwrap();
        assert_eq!(told.len(), 1);
        assert_eq!(told[0].unsubscribe, "u-a@example.org");
        assert_eq!(
            ask(&mut store, "a@example.org", "c4", 400),
            MailRequest::Confirmed
        );
        assert_eq!(store.games_with_mail().unwrap(), ["g"]);
        assert!(store.mark_reminded("u-a@example.org", 7).unwrap());
        assert!(!store.mark_reminded("u-a@example.org", 7).unwrap());
        assert!(store.mark_reminded("u-a@example.org", 8).unwrap());
        assert!(store.unsubscribe_mail("u-a@example.org").unwrap());
        assert!(!store.unsubscribe_mail("u-a@example.org").unwrap());
        assert!(store
            .mail_subscriptions("g", Side::North)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_seat_keeps_its_newest_addresses() {
        let mut store = Store::with_one_game();
        for (i, address) in ["1@x.org", "2@x.org", "3@x.org", "4@x.org"]
            .iter()
            .enumerate()
        {
            ask(&mut store, address, &format!("c{i}"), i as u64);
            store.confirm_mail(&format!("c{i}"), i as u64).unwrap();
        }
        let kept: Vec<String> = store
            .mail_subscriptions("g", Side::North)
            .unwrap()
            .into_iter()
            .map(|s| s.address)
            .collect();
        assert_eq!(kept, ["2@x.org", "3@x.org", "4@x.org"]);
        store.remove_mail_subscriptions("g", Side::North).unwrap();
        assert!(store
            .mail_subscriptions("g", Side::North)
            .unwrap()
            .is_empty());
    }
}
