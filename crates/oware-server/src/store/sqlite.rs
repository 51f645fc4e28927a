//! SQLite storage of games, players' tokens and moves. Every change is one transaction, so a
//! server stopped at any moment restarts with every game where it was.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::types::Value;
use rusqlite::{params, Connection, OptionalExtension};

use crate::game::clock::{resumed_since, GameClock};
use crate::game::model::{GameMode, GameSetup};
use oware_rules::{Ending, Move, Position, RuleSet, Side};

/// What went wrong with the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// SQLite refused a query or the file. Its text is part of this error's own message, so it is
    /// not also offered as the error's source (a report that prints the chain would say it twice).
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    /// A stored game cannot be read back.
    #[error("damaged record for game {game}: {what}")]
    Damaged {
        /// The game's id.
        game: String,
        /// What is wrong with it.
        what: String,
    },
    /// The database was written by a newer server.
    #[error("the database has schema version {found}, newer than this server's {SCHEMA_VERSION}: run a newer server")]
    NewerSchema {
        /// The database's schema version.
        found: u32,
    },
    /// The thread that writes to the database is gone.
    #[error("the database writer has stopped")]
    WriterStopped,
    /// The connection was closed after a failed write and the file could not be opened again
    /// yet; the next request tries to open it first.
    #[error(
        "the database file cannot be opened after a failed write; the next request tries again"
    )]
    Closed,
    /// A table or column the server needs is missing: the file was changed outside the server.
    #[error("the database is damaged: {what} is missing ({holds}); restore the file from a backup, or move it aside to start with no games")]
    MissingSchema {
        /// The missing table or column.
        what: String,
        /// What it holds.
        holds: &'static str,
    },
}

impl StoreError {
    /// Whether the error comes from the connection or the disk rather than from the request (a
    /// seat already taken is the request's): after such an error the connection may be left in a
    /// state it never leaves by itself (a lock it failed to release answers "database is locked"
    /// to every later write), so it is closed and opened again.
    pub fn concerns_the_connection(&self) -> bool {
        match self {
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.code != rusqlite::ErrorCode::ConstraintViolation
            }
            StoreError::Closed => true,
            _ => false,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Sqlite(e)
    }
}

/// A game as stored: how it was set up, who holds which side, and the moves.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// How the game was set up.
    pub setup: GameSetup,
    /// The token of the player of each side (South first), if that side has been taken.
    pub tokens: [Option<String>; 2],
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The clocks, in games played with them.
    pub clock: Option<GameClock>,
    /// How the players ended the game (a resignation, an agreed draw, an abort), if they did.
    pub outcome: Option<Ending>,
    /// The game the players went on to, with the sides swapped.
    pub rematch: Option<String>,
    /// When the game was created, in seconds since the Unix epoch.
    pub created: u64,
    /// The name each side's player gave (South first), if any.
    pub names: [Option<String>; 2],
    /// The code a friend's invitation carries: only a join that gives it takes a free seat.
    /// None in games made before invitations had codes (any join then takes a free seat).
    pub invite: Option<String>,
    /// The side of the player who sent the invitation (who alone may issue a new one); none in
    /// games without an invitation code.
    pub host: Option<Side>,
}

/// A seat to store: the player's token, side and name.
#[derive(Debug, Clone, Copy)]
pub struct SeatRow<'a> {
    /// The player's token.
    pub token: &'a str,
    /// The side they play.
    pub side: Side,
    /// The name they gave.
    pub name: Option<&'a str>,
}

/// The schema, as ordered migrations: entry `i` takes a database from version `i` to `i + 1`,
/// and `PRAGMA user_version` says how many have been applied. A change to the schema is a new entry
/// at the end; entries already released never change, so every database reaches the same schema.
const MIGRATIONS: [&str; 6] = [
    // 1: games, the players' tokens, the moves.
    "CREATE TABLE games(
        id TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        rules TEXT NOT NULL,
        start TEXT NOT NULL,
        level INTEGER NOT NULL,
        computer_side TEXT,
        created INTEGER NOT NULL
     );
     CREATE TABLE players(
        token TEXT PRIMARY KEY,
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        UNIQUE(game_id, side)
     );
     CREATE TABLE moves(
        game_id TEXT NOT NULL REFERENCES games(id),
        ply INTEGER NOT NULL,
        mv TEXT NOT NULL,
        PRIMARY KEY(game_id, ply)
     );",
    // 2: game clocks: the time per side, the time left to each, since when the side to move's
    // clock runs, and whose flag fell.
    "ALTER TABLE games ADD COLUMN clock_ms INTEGER;
     ALTER TABLE games ADD COLUMN clock_s INTEGER;
     ALTER TABLE games ADD COLUMN clock_n INTEGER;
     ALTER TABLE games ADD COLUMN clock_since INTEGER;
     ALTER TABLE games ADD COLUMN flagged TEXT;",
    // 3: increments on the clocks; games ended by a resignation or an agreed draw; the rematch a
    // game led to; and when the server was last known alive (time while it was down is given back
    // to the clocks).
    "ALTER TABLE games ADD COLUMN increment_ms INTEGER;
     ALTER TABLE games ADD COLUMN outcome TEXT;
     ALTER TABLE games ADD COLUMN rematch TEXT;
     CREATE TABLE alive(id INTEGER PRIMARY KEY CHECK (id = 1), at_ms INTEGER NOT NULL);",
    // 4: the players' names; the code of a friend game's invitation and the side of who sent
    // it; correspondence clocks (the clock's time is for each move).
    "ALTER TABLE players ADD COLUMN name TEXT;
     ALTER TABLE games ADD COLUMN invite TEXT;
     ALTER TABLE games ADD COLUMN host TEXT;
     ALTER TABLE games ADD COLUMN per_move INTEGER;",
    // 5: the browsers each seat asked to be told of its games' events (Web Push), and the
    // server's own keys (the VAPID key that signs those messages, the same after a restart).
    "CREATE TABLE push_subscriptions(
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        p256dh BLOB NOT NULL,
        auth BLOB NOT NULL,
        lang TEXT NOT NULL,
        created INTEGER NOT NULL,
        PRIMARY KEY(game_id, side, endpoint)
     );
     CREATE TABLE server_keys(name TEXT PRIMARY KEY, value BLOB NOT NULL);",
    // 6: the e-mail addresses each seat asked to be told of its moves at: the confirmation code
    // until the address is confirmed (nothing else is sent to it before), the token of its
    // unsubscribe link, and the clock period whose reminder it got (sent once, restarts too).
    "CREATE TABLE mail_subscriptions(
        game_id TEXT NOT NULL REFERENCES games(id),
        side TEXT NOT NULL,
        address TEXT NOT NULL,
        lang TEXT NOT NULL,
        code TEXT UNIQUE,
        code_expires INTEGER,
        confirmed INTEGER,
        unsubscribe TEXT NOT NULL UNIQUE,
        reminded INTEGER,
        created INTEGER NOT NULL,
        PRIMARY KEY(game_id, side, address)
     );",
];

/// The schema version this server reads and writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// The games' database: SQLite, one connection.
pub struct Store {
    /// `None` while closed: a reopening failed (see [`Store::reopen`]).
    conn: Option<Connection>,
    /// The file, to open the connection again; `None` for a database in memory (which a new
    /// connection would not find).
    path: Option<PathBuf>,
    /// What opening the database found damaged and set aside (see [`Store::take_notices`]).
    notices: Vec<String>,
    wal: WalWatch,
}

/// SQLite checkpoints the write-ahead log into the database file once it holds this many pages
/// (of 4 KiB): each checkpoint is where a commit becomes durable against a power cut (with
/// `synchronous=NORMAL`, commits themselves do not wait for the disk).
const AUTOCHECKPOINT_PAGES: u32 = 256;

/// A write-ahead log larger than this has missed several checkpoints: they are failing (a disk
/// that refuses to flush, `fsync` answering an error), which SQLite does not report.
const WAL_LIMIT: u64 = 4 * 1024 * 1024;

/// How often a failing flush is reported in the log.
const FLUSH_REPORT_EVERY: Duration = Duration::from_secs(60);

/// After a failed checkpoint, the next is tried once the log has grown this much more...
const WAL_RETRY_GROWTH: u64 = 512 * 1024;

/// ...or this long after, at the next write.
const WAL_RETRY_EVERY: Duration = Duration::from_secs(2);

/// The watch on the write-ahead log's size (see [`Store::check_wal`]).
#[derive(Debug, Default)]
struct WalWatch {
    /// The log's size when the last checkpoint failed, while they fail.
    failing_at: Option<u64>,
    /// When a checkpoint was last tried here.
    tried: Option<Instant>,
    /// Failed checkpoints since the last report.
    failures: u64,
    /// When a failure was last reported.
    reported: Option<Instant>,
}

/// What the watch on the write-ahead log found after a write (see [`Store::check_wal`]).
#[derive(Debug, PartialEq, Eq)]
pub enum WalReport {
    /// The checkpoints fail: the changes are kept, but not yet safe from a power cut.
    FlushFailing {
        /// The error of the last checkpoint tried.
        error: String,
        /// Failed checkpoints since the last report.
        failures: u64,
        /// The log's size, in bytes.
        wal_bytes: u64,
    },
    /// A checkpoint worked again after failures: everything is on the disk.
    Flushed {
        /// The log's size before it, in bytes.
        wal_bytes: u64,
    },
}

/// What the server's last sign of life in the database says.
#[derive(Debug, PartialEq, Eq)]
pub enum LastAlive {
    /// The server never ran on this database.
    Never,
    /// It was last alive at this time, in milliseconds since the Unix epoch.
    At(u64),
    /// The note is damaged (its value, as a log line shows it): ignored, and replaced at the next
    /// note.
    Damaged(String),
}

/// An error reading game `id`'s rows: a value of the wrong type is damage to that game (its row
/// was changed outside the server), anything else is the database's.
fn row_error(id: &str, e: rusqlite::Error) -> StoreError {
    match e {
        rusqlite::Error::InvalidColumnType(..)
        | rusqlite::Error::FromSqlConversionFailure(..)
        | rusqlite::Error::IntegralValueOutOfRange(..) => StoreError::Damaged {
            game: id.to_string(),
            what: e.to_string(),
        },
        e => StoreError::Sqlite(e),
    }
}

/// A stored value as a log line shows it: text as it is, anything else by its kind.
fn describe_value(value: &Value) -> String {
    match value {
        Value::Text(text) => text.chars().take(40).collect(),
        Value::Integer(n) => n.to_string(),
        Value::Real(x) => x.to_string(),
        Value::Null => "NULL".to_string(),
        Value::Blob(b) => format!("a blob of {} bytes", b.len()),
    }
}

/// An ending as the database writes it: `resign:S`, `time:N`, `forfeit:S`, `agreed`, `aborted`.
/// The rules' endings are not written: the moves tell them.
fn ending_text(ending: Ending) -> Option<String> {
    Some(match ending {
        Ending::Rules(_) => return None,
        Ending::Resigned(side) => format!("resign:{}", side.letter()),
        Ending::TimeOut(side) => format!("time:{}", side.letter()),
        Ending::Forfeit(side) => format!("forfeit:{}", side.letter()),
        Ending::Agreed => "agreed".to_string(),
        Ending::Aborted => "aborted".to_string(),
    })
}

/// Reads what [`ending_text`] wrote; `None` for anything else.
fn parse_ending(text: &str) -> Option<Ending> {
    let by = |side: &str| parse_side(side);
    match text.split_once(':') {
        None if text == "agreed" => Some(Ending::Agreed),
        None if text == "aborted" => Some(Ending::Aborted),
        Some(("resign", side)) => by(side).map(Ending::Resigned),
        Some(("time", side)) => by(side).map(Ending::TimeOut),
        Some(("forfeit", side)) => by(side).map(Ending::Forfeit),
        _ => None,
    }
}

/// A side as the database writes it, `S` or `N`.
pub(super) fn side_text(side: Side) -> String {
    side.letter().to_string()
}

/// A side the database wrote: `S` or `N` exactly, anything else is damage.
fn parse_side(text: &str) -> Option<Side> {
    let mut letters = text.chars();
    match (letters.next(), letters.next()) {
        (Some(letter), None) => Side::from_letter(letter),
        _ => None,
    }
}

impl Store {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let (conn, notices) = connect(Connection::open(path)?)?;
        Ok(Store {
            conn: Some(conn),
            path: Some(path.to_path_buf()),
            notices,
            wal: WalWatch::default(),
        })
    }

    /// A database that lives in memory only (tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        let (conn, notices) = connect(Connection::open_in_memory()?)?;
        Ok(Store {
            conn: Some(conn),
            path: None,
            notices,
            wal: WalWatch::default(),
        })
    }

    /// What opening the database set aside or repaired, each said in a sentence for the log
    /// (a schema version recorded wrongly, a missing bookkeeping table); empty when nothing was.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Closes the connection and opens a new one on the same file: what a connection that a
    /// failed lock release left stuck needs (see [`StoreError::concerns_the_connection`]). The
    /// old connection is closed first, since locks live with the process's open files and the
    /// new one would otherwise share them. Nothing is lost: every change is a transaction, and
    /// none is open between jobs. A database in memory is left as it is. If the file cannot be
    /// opened again, the store stays closed: every query answers [`StoreError::Closed`] until
    /// [`Store::open_again`] succeeds.
    /// Answers whether a connection was opened (not for a database in memory).
    pub fn reopen(&mut self) -> Result<bool, StoreError> {
        if self.path.is_none() {
            return Ok(false);
        }
        self.conn = None;
        self.open_again()
    }

    /// Whether the connection is closed (a reopening failed).
    pub fn is_closed(&self) -> bool {
        self.conn.is_none()
    }

    /// Opens the file again if the store is closed; nothing if it is open. Answers whether a
    /// connection was opened.
    pub fn open_again(&mut self) -> Result<bool, StoreError> {
        let (Some(path), None) = (&self.path, &self.conn) else {
            return Ok(false);
        };
        let (conn, notices) = connect(Connection::open(path)?)?;
        self.conn = Some(conn);
        self.notices.extend(notices);
        Ok(true)
    }

    pub(super) fn conn(&self) -> Result<&Connection, StoreError> {
        self.conn.as_ref().ok_or(StoreError::Closed)
    }

    pub(super) fn conn_mut(&mut self) -> Result<&mut Connection, StoreError> {
        self.conn.as_mut().ok_or(StoreError::Closed)
    }

    /// Records a new game, its creator's seat and its invitation's code in one transaction.
    pub fn create_game(
        &mut self,
        id: &str,
        setup: &GameSetup,
        creator: Option<SeatRow>,
        invite: Option<&str>,
    ) -> Result<(), StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        insert_game(&tx, id, setup, creator.as_slice(), invite)?;
        tx.commit()?;
        Ok(())
    }

    /// An in-memory store holding one friend game, `g`, for tests of what is kept per seat.
    #[cfg(test)]
    pub(crate) fn with_one_game() -> Store {
        let store = Store::in_memory().unwrap();
        store
            .conn()
            .unwrap()
            .execute_batch(
                "INSERT INTO games(id, mode, rules, start, level, computer_side, created)
                 VALUES ('g', 'friend', 'abapa', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 0, NULL, 1);",
            )
            .unwrap();
        store
    }

    /// Makes every commit for which `fail` answers true fail, as a write to a failing disk would:
    /// the transaction is rolled back and the caller gets an error (fault tests).
    #[cfg(test)]
    pub(crate) fn fail_commits(&mut self, fail: impl FnMut() -> bool + Send + 'static) {
        if let Some(conn) = &self.conn {
            conn.commit_hook(Some(fail));
        }
    }

    /// Gives a side of a game to a player (its token and name).
    pub fn add_player(&mut self, id: &str, seat: SeatRow) -> Result<(), StoreError> {
        insert_seat(self.conn()?, id, seat)
    }

    /// Replaces a friend game's invitation code and, when `free` names a side, frees that side's
    /// seat (its token seats nobody from then on), in one transaction.
    pub fn reissue_invite(
        &mut self,
        id: &str,
        invite: &str,
        free: Option<Side>,
    ) -> Result<(), StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        if let Some(side) = free {
            tx.execute(
                "DELETE FROM players WHERE game_id = ?1 AND side = ?2",
                params![id, side_text(side)],
            )?;
        }
        tx.execute(
            "UPDATE games SET invite = ?2 WHERE id = ?1",
            params![id, invite],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Records the move played at `ply` (0-based) and, in a game with clocks, the clocks after
    /// it, in one transaction.
    pub fn append_move(
        &mut self,
        id: &str,
        ply: usize,
        mv: Move,
        clock: Option<&GameClock>,
    ) -> Result<(), StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        tx.execute(
            "INSERT INTO moves(game_id, ply, mv) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, mv.letter().to_string()],
        )?;
        if let Some(clock) = clock {
            write_clock(&tx, id, clock)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Records the clocks (a flag that fell).
    pub fn save_clock(&mut self, id: &str, clock: &GameClock) -> Result<(), StoreError> {
        write_clock(self.conn()?, id, clock)
    }

    /// Records how a game ended by the players' decision (a resignation, an agreed draw).
    pub fn save_outcome(&mut self, id: &str, outcome: Ending) -> Result<(), StoreError> {
        let text = ending_text(outcome).ok_or_else(|| StoreError::Damaged {
            game: id.to_string(),
            what: format!("{} is told by the moves, not stored", outcome.word()),
        })?;
        self.conn()?.execute(
            "UPDATE games SET outcome = ?2 WHERE id = ?1",
            params![id, text],
        )?;
        Ok(())
    }

    /// Creates a finished game's rematch with its seats taken, and notes it in the old game, in
    /// one transaction: a failure leaves neither a rematch without its seats nor one the old game
    /// does not lead to.
    pub fn create_rematch(
        &mut self,
        old: &str,
        id: &str,
        setup: &GameSetup,
        seats: &[SeatRow],
    ) -> Result<(), StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        insert_game(&tx, id, setup, seats, None)?;
        tx.execute(
            "UPDATE games SET rematch = ?2 WHERE id = ?1",
            params![old, id],
        )?;
        tx.commit()?;
        Ok(())
    }

    /// Notes that the server is alive at `now_ms`.
    pub fn note_alive(&mut self, now_ms: u64) -> Result<(), StoreError> {
        self.conn()?.execute(
            "INSERT INTO alive(id, at_ms) VALUES (1, ?1)
             ON CONFLICT(id) DO UPDATE SET at_ms = excluded.at_ms",
            params![now_ms as i64],
        )?;
        Ok(())
    }

    /// Gives back the time the server was down (last alive at `alive`, started at `started`) to
    /// the side to move of every game whose clock runs, in one transaction. A game whose clock
    /// cannot be read is left as it is and named in the answer (the ids of the damaged games), so
    /// that one damaged row does not keep the others, or the server, from starting.
    pub fn give_back_downtime(
        &mut self,
        alive: u64,
        started: u64,
    ) -> Result<Vec<String>, StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        let running: Vec<(Value, Value)> = {
            let mut stmt = tx.prepare(
                "SELECT id, clock_since FROM games
                 WHERE clock_since IS NOT NULL AND flagged IS NULL AND outcome IS NULL",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<Result<_, _>>()?
        };
        let mut damaged = Vec::new();
        for (id, since) in running {
            let since = match since {
                Value::Integer(since) if (0..=MAX_TIME_MS).contains(&since) => Some(since as u64),
                _ => None,
            };
            let (Value::Text(id), Some(since)) = (&id, since) else {
                damaged.push(describe_value(&id));
                continue;
            };
            let resumed = resumed_since(since, alive, started);
            if resumed != since {
                tx.execute(
                    "UPDATE games SET clock_since = ?2 WHERE id = ?1",
                    params![id, resumed as i64],
                )?;
            }
        }
        tx.commit()?;
        Ok(damaged)
    }

    /// When the server was last noted alive. A damaged note (a value that is no time) is
    /// ignored: the server starts without giving the time it was down back to the clocks, and
    /// the next note replaces it.
    pub fn last_alive(&self) -> Result<LastAlive, StoreError> {
        let at: Option<Value> = self
            .conn()?
            .query_row("SELECT at_ms FROM alive WHERE id = 1", [], |r| r.get(0))
            .optional()?;
        Ok(match at {
            None => LastAlive::Never,
            Some(Value::Integer(ms)) if (0..=MAX_TIME_MS).contains(&ms) => LastAlive::At(ms as u64),
            Some(other) => LastAlive::Damaged(describe_value(&other)),
        })
    }

    /// Checks the write-ahead log after a write: SQLite checkpoints it into the database file by
    /// itself, and says nothing when a checkpoint fails (the disk refuses to flush: `fsync`
    /// fails), so the log grows instead. Past `WAL_LIMIT` (4 MiB) a checkpoint is tried here, where
    /// its error is seen: the answer says what to log, at most once a minute while the failures
    /// go on, and once when a checkpoint works again.
    pub fn check_wal(&mut self) -> Option<WalReport> {
        let wal_bytes = self.wal_bytes();
        let watch = &mut self.wal;
        // While checkpoints fail, SQLite's own may start to work again without shrinking the
        // file (it reuses it from the start): so one is also tried every few seconds.
        let due = match watch.failing_at {
            None => wal_bytes > WAL_LIMIT,
            Some(at) => {
                wal_bytes >= at + WAL_RETRY_GROWTH
                    || watch.tried.is_some_and(|t| t.elapsed() >= WAL_RETRY_EVERY)
            }
        };
        if !due {
            return None;
        }
        let checkpoint =
            self.conn
                .as_ref()?
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                    r.get::<_, i64>(0)
                });
        let watch = &mut self.wal;
        watch.tried = Some(Instant::now());
        match checkpoint {
            // 0: complete (1 would mean a reader kept part of it back; this is the only
            // connection).
            Ok(0) => {
                let recovered = watch.failing_at.take().is_some();
                *watch = WalWatch::default();
                recovered.then_some(WalReport::Flushed { wal_bytes })
            }
            outcome => {
                watch.failing_at = Some(wal_bytes);
                watch.failures += 1;
                let now = Instant::now();
                if watch
                    .reported
                    .is_some_and(|at| now.duration_since(at) < FLUSH_REPORT_EVERY)
                {
                    return None;
                }
                watch.reported = Some(now);
                let failures = std::mem::take(&mut watch.failures);
                Some(WalReport::FlushFailing {
                    error: match outcome {
                        Err(e) => e.to_string(),
                        Ok(_) => "the checkpoint was left incomplete".to_string(),
                    },
                    failures,
                    wal_bytes,
                })
            }
        }
    }

    /// The size of the write-ahead log file, 0 where there is none.
    fn wal_bytes(&self) -> u64 {
        let Some(path) = &self.path else {
            return 0;
        };
        let mut wal = path.clone().into_os_string();
        wal.push("-wal");
        std::fs::metadata(wal).map_or(0, |m| m.len())
    }

    /// Takes back every move from ply `keep` on and, in a game with clocks, saves the clocks as
    /// they restart, in one transaction.
    pub fn take_back(
        &mut self,
        id: &str,
        keep: usize,
        clock: Option<&GameClock>,
    ) -> Result<(), StoreError> {
        let tx = self.conn_mut()?.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![id, keep as i64],
        )?;
        if let Some(clock) = clock {
            write_clock(&tx, id, clock)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Loads a game, or `None` when there is no game with that id.
    pub fn load_game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let row = self
            .conn()?
            .query_row(
                "SELECT mode, rules, start, level, computer_side,
                        clock_ms, clock_s, clock_n, clock_since, flagged,
                        increment_ms, outcome, rematch, created, invite, host, per_move
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        (
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                            r.get::<_, Option<String>>(4)?,
                        ),
                        (
                            r.get::<_, Option<i64>>(5)?,
                            r.get::<_, Option<i64>>(6)?,
                            r.get::<_, Option<i64>>(7)?,
                            r.get::<_, Option<i64>>(8)?,
                            r.get::<_, Option<String>>(9)?,
                            r.get::<_, Option<i64>>(10)?,
                        ),
                        (
                            r.get::<_, Option<String>>(11)?,
                            r.get::<_, Option<String>>(12)?,
                            r.get::<_, i64>(13)?,
                            r.get::<_, Option<String>>(14)?,
                            r.get::<_, Option<String>>(15)?,
                            r.get::<_, Option<i64>>(16)?,
                        ),
                    ))
                },
            )
            .optional()
            .map_err(|e| row_error(id, e))?;
        let Some((
            (mode, rules, start, level, computer_side),
            clock_row,
            (outcome, rematch, created, invite, host, per_move),
        )) = row
        else {
            return Ok(None);
        };
        let damaged = |what: String| StoreError::Damaged {
            game: id.to_string(),
            what,
        };
        let rules: RuleSet = rules.parse().map_err(|e| damaged(format!("{e}")))?;
        let start: Position = start
            .parse()
            .map_err(|e| damaged(format!("start position: {e}")))?;
        let mode = match (mode.as_str(), computer_side.as_deref().and_then(parse_side)) {
            ("computer", Some(side)) => GameMode::Computer {
                side,
                level: u8::try_from(level).map_err(|_| damaged(format!("level {level}")))?,
            },
            ("friend", _) => GameMode::Friend,
            _ => return Err(damaged(format!("mode {mode:?}"))),
        };
        let clock = match clock_row {
            (None, ..) => None,
            (Some(initial), south, north, since, flagged, increment) => {
                // Values past these bounds were not written by the server, and would overflow
                // the clocks' arithmetic.
                let within = |v: Option<i64>, max: i64, what: &str| match v {
                    Some(v) if (0..=max).contains(&v) => Ok(v as u64),
                    Some(v) => Err(damaged(format!("clock {what}: {v}"))),
                    None => Err(damaged(format!("clock {what}: NULL"))),
                };
                let ms = |v: Option<i64>, what: &str| within(v, MAX_CLOCK_MS, what);
                Some(GameClock {
                    initial_ms: ms(Some(initial), "time")?,
                    increment_ms: ms(Some(increment.unwrap_or(0)), "increment")?,
                    remaining_ms: [ms(south, "of South")?, ms(north, "of North")?],
                    running_since: since
                        .map(|s| within(Some(s), MAX_TIME_MS, "start"))
                        .transpose()?,
                    flagged: match flagged.as_deref() {
                        None => None,
                        Some(f) => {
                            Some(parse_side(f).ok_or_else(|| damaged(format!("flagged {f:?}")))?)
                        }
                    },
                    per_move: per_move.unwrap_or(0) != 0,
                })
            }
        };
        let mut tokens: [Option<String>; 2] = [None, None];
        let mut names: [Option<String>; 2] = [None, None];
        let mut stmt = self
            .conn()?
            .prepare_cached("SELECT token, side, name FROM players WHERE game_id = ?1")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<String>>(2)?,
            ))
        })?;
        for row in rows {
            let (token, side, name) = row.map_err(|e| row_error(id, e))?;
            let side = parse_side(&side).ok_or_else(|| damaged(format!("side {side:?}")))?;
            tokens[side.index()] = Some(token);
            names[side.index()] = name;
        }
        let mut stmt = self
            .conn()?
            .prepare_cached("SELECT ply, mv FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut moves = Vec::new();
        for row in rows {
            let (ply, mv) = row.map_err(|e| row_error(id, e))?;
            if ply != moves.len() as i64 {
                return Err(damaged(format!("move list has a gap at ply {ply}")));
            }
            moves.push(
                mv.parse::<Move>()
                    .map_err(|e| damaged(format!("ply {ply}: {e}")))?,
            );
        }
        Ok(Some(StoredGame {
            setup: GameSetup {
                mode,
                rules,
                start,
                clock_ms: clock.map(|c| c.initial_ms),
                increment_ms: clock.map_or(0, |c| c.increment_ms),
                per_move: clock.is_some_and(|c| c.per_move),
            },
            tokens,
            moves,
            clock,
            outcome: match outcome.as_deref() {
                None => None,
                Some(o) => Some(parse_ending(o).ok_or_else(|| damaged(format!("outcome {o:?}")))?),
            },
            rematch: match rematch {
                Some(r) if crate::game::ids::valid_id(&r) => Some(r),
                None => None,
                Some(r) => return Err(damaged(format!("rematch {r:?}"))),
            },
            created: u64::try_from(created).map_err(|_| damaged(format!("created {created}")))?,
            names,
            invite,
            host: match host.as_deref() {
                None => None,
                Some(h) => Some(parse_side(h).ok_or_else(|| damaged(format!("host {h:?}")))?),
            },
        }))
    }
}

/// The latest time a clock or a note of life may hold, in milliseconds since the Unix epoch (the
/// year 2969): a larger value was not written by the server, and would overflow the arithmetic
/// of the clocks.
const MAX_TIME_MS: i64 = 1 << 45;

/// The most time a clock may hold, in milliseconds: ten years, far beyond any clock a game is
/// given (three hours, or seven days a move) and what its increments add.
const MAX_CLOCK_MS: i64 = 10 * 365 * 24 * 3600 * 1000;

/// Sets a new connection up: WAL with synchronous=NORMAL (a committed transaction survives the
/// process being killed, and writers do not wait for an fsync on every move), foreign keys, the
/// schema brought up to date and checked. Returns the connection and what was repaired.
fn connect(mut conn: Connection) -> Result<(Connection, Vec<String>), StoreError> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "wal_autocheckpoint", AUTOCHECKPOINT_PAGES)?;
    let mut notices = migrate(&mut conn)?;
    notices.extend(check_schema(&conn)?);
    Ok((conn, notices))
}

/// Brings the database to [`SCHEMA_VERSION`], each migration in its own transaction with the
/// version it reaches, so an interrupted upgrade resumes where it stopped. Returns a notice
/// when the recorded version was not the tables' own.
fn migrate(conn: &mut Connection) -> Result<Vec<String>, StoreError> {
    let mut notices = Vec::new();
    let recorded: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if recorded > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { found: recorded });
    }
    let mut version = tables_version(conn)?;
    if recorded != version {
        // A database from before versions were recorded (0), or whose record was changed: the
        // tables say which migrations it has had, and the record is set to that.
        if recorded != 0 {
            notices.push(format!(
                "the schema version recorded in the file ({recorded}) is not its tables' ({version}): recorded {version}"
            ));
        }
        conn.pragma_update(None, "user_version", version)?;
    }
    while version < SCHEMA_VERSION {
        let tx = conn.transaction()?;
        tx.execute_batch(MIGRATIONS[version as usize])?;
        version += 1;
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()?;
    }
    Ok(notices)
}

/// The names of a table's columns; empty when there is no such table.
fn columns(conn: &Connection, table: &str) -> Result<Vec<String>, StoreError> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = stmt.query_map([table], |r| r.get::<_, String>(0))?;
    Ok(names.collect::<Result<_, _>>()?)
}

/// What each migration added (`(table, Some(column))`, or a whole table), so that the tables
/// tell which migrations a database has had.
const ADDED_BY: [&[(&str, Option<&str>)]; 6] = [
    &[("games", None), ("players", None), ("moves", None)],
    &[("games", Some("clock_ms")), ("games", Some("flagged"))],
    &[
        ("games", Some("increment_ms")),
        ("games", Some("outcome")),
        ("games", Some("rematch")),
        ("alive", None),
    ],
    &[
        ("players", Some("name")),
        ("games", Some("invite")),
        ("games", Some("host")),
        ("games", Some("per_move")),
    ],
    &[("push_subscriptions", None), ("server_keys", None)],
    &[("mail_subscriptions", None)],
];

/// How many migrations the tables have had: the last migration of which anything is there. A
/// part of it missing is damage, which [`check_schema`] names, rather than a migration to run
/// again (it would fail on what is there).
fn tables_version(conn: &Connection) -> Result<u32, StoreError> {
    let mut version = 0;
    for (i, added) in ADDED_BY.iter().enumerate() {
        for (table, column) in *added {
            let found = columns(conn, table)?;
            let there = match column {
                None => !found.is_empty(),
                Some(column) => found.iter().any(|c| c == column),
            };
            if there {
                version = i as u32 + 1;
            }
        }
    }
    Ok(version)
}

/// Every table with the columns the server reads, and what it holds.
const TABLES: [(&str, &[&str], &str); 7] = [
    (
        "games",
        &[
            "id",
            "mode",
            "rules",
            "start",
            "level",
            "computer_side",
            "created",
            "clock_ms",
            "clock_s",
            "clock_n",
            "clock_since",
            "flagged",
            "increment_ms",
            "outcome",
            "rematch",
            "invite",
            "host",
            "per_move",
        ],
        "every game's setup, clocks and result",
    ),
    (
        "players",
        &["token", "game_id", "side", "name"],
        "the players' seats",
    ),
    ("moves", &["game_id", "ply", "mv"], "every game's moves"),
    (
        "alive",
        &["id", "at_ms"],
        "when the server was last running",
    ),
    (
        "push_subscriptions",
        &[
            "game_id", "side", "endpoint", "p256dh", "auth", "lang", "created",
        ],
        "the browsers told of each seat's games",
    ),
    ("server_keys", &["name", "value"], "the server's keys"),
    (
        "mail_subscriptions",
        &[
            "game_id",
            "side",
            "address",
            "lang",
            "code",
            "code_expires",
            "confirmed",
            "unsubscribe",
            "reminded",
            "created",
        ],
        "the e-mail addresses told of each seat's games",
    ),
];

/// Checks that every table and column the server reads is there. A missing bookkeeping table
/// (`alive`) is made again, with a notice; a missing table or column of the games refuses the
/// start, naming it: without it every game would fail to load.
fn check_schema(conn: &Connection) -> Result<Vec<String>, StoreError> {
    let mut notices = Vec::new();
    for (table, wanted, holds) in TABLES {
        let found = columns(conn, table)?;
        if found.is_empty() && table == "alive" {
            conn.execute_batch(
                "CREATE TABLE alive(id INTEGER PRIMARY KEY CHECK (id = 1), at_ms INTEGER NOT NULL);",
            )?;
            notices.push(
                "the table of the server's last sign of life was missing: made again (the time the server was down is not given back to the clocks this once)"
                    .to_string(),
            );
            continue;
        }
        if found.is_empty() {
            return Err(StoreError::MissingSchema {
                what: format!("table {table}"),
                holds,
            });
        }
        if let Some(column) = wanted.iter().find(|c| !found.iter().any(|f| f == *c)) {
            return Err(StoreError::MissingSchema {
                what: format!("column {column} of table {table}"),
                holds,
            });
        }
    }
    Ok(notices)
}

/// Inserts a game, the seats already taken and its invitation's code (sent by the first seat's
/// player).
fn insert_game(
    conn: &Connection,
    id: &str,
    setup: &GameSetup,
    seats: &[SeatRow],
    invite: Option<&str>,
) -> Result<(), StoreError> {
    let now = (crate::game::clock::now_ms() / 1000) as i64;
    let (mode, computer_side) = match setup.mode {
        GameMode::Computer { side, .. } => ("computer", Some(side_text(side))),
        GameMode::Friend => ("friend", None),
    };
    let level = match setup.mode {
        GameMode::Computer { level, .. } => level,
        GameMode::Friend => 0,
    };
    let clock_ms = setup.clock_ms.map(|ms| ms as i64);
    let increment_ms = setup.clock_ms.map(|_| setup.increment_ms as i64);
    conn.execute(
        "INSERT INTO games(id, mode, rules, start, level, computer_side, created,
                           clock_ms, clock_s, clock_n, increment_ms, invite, host, per_move)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?8, ?9, ?10, ?11, ?12)",
        params![
            id,
            mode,
            setup.rules.name(),
            setup.start.to_string(),
            level,
            computer_side,
            now,
            clock_ms,
            increment_ms,
            invite,
            invite.and(seats.first()).map(|s| side_text(s.side)),
            setup.clock_ms.map(|_| i64::from(setup.per_move))
        ],
    )?;
    for seat in seats {
        insert_seat(conn, id, *seat)?;
    }
    Ok(())
}

fn insert_seat(conn: &Connection, id: &str, seat: SeatRow) -> Result<(), StoreError> {
    conn.execute(
        "INSERT INTO players(token, game_id, side, name) VALUES (?1, ?2, ?3, ?4)",
        params![seat.token, id, side_text(seat.side), seat.name],
    )?;
    Ok(())
}

fn write_clock(conn: &Connection, id: &str, clock: &GameClock) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE games SET clock_s = ?2, clock_n = ?3, clock_since = ?4, flagged = ?5 WHERE id = ?1",
        params![
            id,
            clock.remaining_ms[0] as i64,
            clock.remaining_ms[1] as i64,
            clock.running_since.map(|s| s as i64),
            clock.flagged.map(side_text)
        ],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_round_trip() {
        let mut store = Store::in_memory().unwrap();
        let setup = GameSetup {
            mode: GameMode::Computer {
                side: Side::North,
                level: 3,
            },
            rules: RuleSet::Awari,
            start: Position::start(),
            clock_ms: None,
            increment_ms: 0,
            per_move: false,
        };
        store
            .create_game(
                "g1",
                &setup,
                Some(SeatRow {
                    token: "tok",
                    side: Side::South,
                    name: Some("Rosa"),
                }),
                None,
            )
            .unwrap();
        store
            .append_move("g1", 0, Move::from_letter('F').unwrap(), None)
            .unwrap();
        for (ply, letter) in [(1, 'f'), (2, 'E')] {
            let mv = Move::from_letter(letter).unwrap();
            store.append_move("g1", ply, mv, None).unwrap();
        }
        store.take_back("g1", 2, None).unwrap();
        store
            .append_move("g1", 2, Move::from_letter('A').unwrap(), None)
            .unwrap();
        let g = store.load_game("g1").unwrap().unwrap();
        assert_eq!(oware_rules::format_move_letters(&g.moves), "FfA");
        assert_eq!(g.tokens[0].as_deref(), Some("tok"));
        assert_eq!(g.tokens[1], None);
        assert_eq!(g.names, [Some("Rosa".into()), None]);
        assert_eq!(g.setup.rules, RuleSet::Awari);
        assert!(store.load_game("nope").unwrap().is_none());
        // The same side cannot be given twice.
        let other = SeatRow {
            token: "other",
            side: Side::South,
            name: None,
        };
        assert!(store.add_player("g1", other).is_err());
    }
}

#[cfg(test)]
mod migration_tests {
    use super::*;

    /// The tables as servers made them before the schema had a version: the clock columns were
    /// added to `games` by `ALTER TABLE` when missing.
    const UNVERSIONED_SCHEMA: &str = "
        CREATE TABLE IF NOT EXISTS games(
            id TEXT PRIMARY KEY,
            mode TEXT NOT NULL,
            rules TEXT NOT NULL,
            start TEXT NOT NULL,
            level INTEGER NOT NULL,
            computer_side TEXT,
            created INTEGER NOT NULL
        );
        CREATE TABLE IF NOT EXISTS players(
            token TEXT PRIMARY KEY,
            game_id TEXT NOT NULL REFERENCES games(id),
            side TEXT NOT NULL,
            UNIQUE(game_id, side)
        );
        CREATE TABLE IF NOT EXISTS moves(
            game_id TEXT NOT NULL REFERENCES games(id),
            ply INTEGER NOT NULL,
            mv TEXT NOT NULL,
            PRIMARY KEY(game_id, ply)
        );";

    const CLOCK_COLUMNS: &str = "
        ALTER TABLE games ADD COLUMN clock_ms INTEGER;
        ALTER TABLE games ADD COLUMN clock_s INTEGER;
        ALTER TABLE games ADD COLUMN clock_n INTEGER;
        ALTER TABLE games ADD COLUMN clock_since INTEGER;
        ALTER TABLE games ADD COLUMN flagged TEXT;";

    fn user_version(path: &Path) -> u32 {
        Connection::open(path)
            .unwrap()
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap()
    }

    #[test]
    fn a_database_of_the_unversioned_schema_opens_with_its_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(UNVERSIONED_SCHEMA).unwrap();
            conn.execute_batch(CLOCK_COLUMNS).unwrap();
            conn.execute_batch(
                "INSERT INTO games(id, mode, rules, start, level, computer_side, created,
                                   clock_ms, clock_s, clock_n, clock_since)
                 VALUES ('g', 'friend', 'abapa', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 0, NULL, 1,
                         300000, 290000, 300000, 1700000000000);
                 INSERT INTO players(token, game_id, side) VALUES ('ts', 'g', 'S'), ('tn', 'g', 'N');
                 INSERT INTO moves(game_id, ply, mv) VALUES ('g', 0, 'F'), ('g', 1, 'c');",
            )
            .unwrap();
        }
        let mut store = Store::open(&path).unwrap();
        let game = store.load_game("g").unwrap().unwrap();
        assert_eq!(oware_rules::format_move_letters(&game.moves), "Fc");
        assert_eq!(game.tokens, [Some("ts".into()), Some("tn".into())]);
        let clock = game.clock.unwrap();
        assert_eq!(clock.remaining_ms, [290_000, 300_000]);
        assert_eq!(clock.running_since, Some(1_700_000_000_000));
        assert_eq!(game.setup.clock_ms, Some(300_000));
        store
            .append_move("g", 2, Move::from_letter('A').unwrap(), Some(&clock))
            .unwrap();
        drop(store);
        assert_eq!(user_version(&path), SCHEMA_VERSION);
        // Opening again changes nothing.
        let store = Store::open(&path).unwrap();
        let game = store.load_game("g").unwrap().unwrap();
        assert_eq!(oware_rules::format_move_letters(&game.moves), "FcA");
    }

    #[test]
    fn a_database_from_before_the_clocks_gains_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(UNVERSIONED_SCHEMA).unwrap();
            conn.execute_batch(
                "INSERT INTO games(id, mode, rules, start, level, computer_side, created)
                 VALUES ('g', 'computer', 'awari', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 5, 'N', 1);
                 INSERT INTO moves(game_id, ply, mv) VALUES ('g', 0, 'D');",
            )
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let game = store.load_game("g").unwrap().unwrap();
        assert_eq!(
            game.setup.mode,
            GameMode::Computer {
                side: Side::North,
                level: 5
            }
        );
        assert_eq!(game.setup.rules, RuleSet::Awari);
        assert_eq!(oware_rules::format_move_letters(&game.moves), "D");
        assert_eq!(game.clock, None);
        drop(store);
        assert_eq!(user_version(&path), SCHEMA_VERSION);
    }

    #[test]
    fn games_from_before_names_and_invitations_load_without_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            for migration in &MIGRATIONS[..3] {
                conn.execute_batch(migration).unwrap();
            }
            conn.pragma_update(None, "user_version", 3).unwrap();
            conn.execute_batch(
                "INSERT INTO games(id, mode, rules, start, level, computer_side, created)
                 VALUES ('g', 'friend', 'abapa', '4-4-4-4-4-4-4-4-4-4-4-4-0-0-S', 0, NULL, 1);
                 INSERT INTO players(token, game_id, side) VALUES ('ts', 'g', 'S');",
            )
            .unwrap();
        }
        let mut store = Store::open(&path).unwrap();
        let game = store.load_game("g").unwrap().unwrap();
        assert_eq!(game.names, [None, None]);
        // No code: the old friend link still seats the friend (see `Room::join`).
        assert_eq!((game.invite, game.host), (None, None));
        let friend = SeatRow {
            token: "tn",
            side: Side::North,
            name: Some("Léo"),
        };
        store.add_player("g", friend).unwrap();
        let game = store.load_game("g").unwrap().unwrap();
        assert_eq!(game.names, [None, Some("Léo".into())]);
        drop(store);
        assert_eq!(user_version(&path), SCHEMA_VERSION);
    }

    #[test]
    fn a_new_database_gets_every_migration_and_a_newer_one_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("games.sqlite");
        drop(Store::open(&path).unwrap());
        assert_eq!(user_version(&path), SCHEMA_VERSION);
        Connection::open(&path)
            .unwrap()
            .pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .unwrap();
        match Store::open(&path) {
            Err(StoreError::NewerSchema { found }) => assert_eq!(found, SCHEMA_VERSION + 1),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("a database of a newer schema was opened"),
        }
    }

    /// A file with one friend game on it, for the damage tests.
    fn database_with_a_game(dir: &Path) -> PathBuf {
        let path = dir.join("games.sqlite");
        let mut store = Store::open(&path).unwrap();
        let setup = GameSetup {
            mode: GameMode::Friend,
            rules: RuleSet::Abapa,
            start: Position::start(),
            clock_ms: Some(60_000),
            increment_ms: 0,
            per_move: false,
        };
        store.create_game("g", &setup, None, None).unwrap();
        store.note_alive(1_700_000_000_000).unwrap();
        path
    }

    fn damage(path: &Path, sql: &str) {
        Connection::open(path).unwrap().execute_batch(sql).unwrap();
    }

    #[test]
    fn a_damaged_note_of_life_is_ignored_and_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = database_with_a_game(dir.path());
        damage(&path, "UPDATE alive SET at_ms = 'abc'");
        let mut store = Store::open(&path).unwrap();
        assert_eq!(
            store.last_alive().unwrap(),
            LastAlive::Damaged("abc".into())
        );
        assert!(store.load_game("g").unwrap().is_some(), "the games load");
        store.note_alive(5).unwrap();
        assert_eq!(store.last_alive().unwrap(), LastAlive::At(5));
        damage(&path, "UPDATE alive SET at_ms = 9223372036854775807");
        let store = Store::open(&path).unwrap();
        assert!(matches!(store.last_alive().unwrap(), LastAlive::Damaged(_)));
    }

    #[test]
    fn a_missing_bookkeeping_table_is_made_again_and_said() {
        let dir = tempfile::tempdir().unwrap();
        let path = database_with_a_game(dir.path());
        damage(&path, "DROP TABLE alive");
        let mut store = Store::open(&path).unwrap();
        let notices = store.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("last sign of life"), "{notices:?}");
        assert_eq!(store.last_alive().unwrap(), LastAlive::Never);
        store.note_alive(7).unwrap();
    }

    #[test]
    fn a_wrong_schema_version_is_set_right_by_the_tables() {
        for recorded in [1, 2, 3] {
            let dir = tempfile::tempdir().unwrap();
            let path = database_with_a_game(dir.path());
            damage(&path, &format!("PRAGMA user_version = {recorded}"));
            let mut store = Store::open(&path).unwrap();
            let notices = store.take_notices();
            assert!(
                notices.iter().any(|n| n.contains(&format!("({recorded})"))),
                "{notices:?}"
            );
            assert!(store.load_game("g").unwrap().is_some());
            drop(store);
            let mut again = Store::open(&path).unwrap();
            assert!(again.take_notices().is_empty(), "set right once for all");
        }
    }

    #[test]
    fn a_missing_table_of_the_games_refuses_the_start_and_names_it() {
        for (sql, named) in [
            ("DROP TABLE moves", "table moves"),
            ("DROP TABLE players", "table players"),
            (
                "ALTER TABLE games DROP COLUMN invite",
                "column invite of table games",
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = database_with_a_game(dir.path());
            damage(&path, sql);
            match Store::open(&path) {
                Err(e @ StoreError::MissingSchema { .. }) => {
                    let text = e.to_string();
                    assert!(text.contains(named), "{text}");
                    assert!(text.contains("backup"), "says a way out: {text}");
                }
                Err(e) => panic!("{sql}: {e}"),
                Ok(_) => panic!("{sql}: the server would start with every game failing"),
            }
        }
    }

    #[test]
    fn clock_values_beyond_any_clock_set_the_game_aside() {
        for sql in [
            "UPDATE games SET clock_s = 9223372036854775807",
            "UPDATE games SET clock_n = -1",
            "UPDATE games SET clock_since = 9223372036854775000",
            "UPDATE games SET increment_ms = 9223372036854775807",
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = database_with_a_game(dir.path());
            damage(&path, sql);
            let mut store = Store::open(&path).unwrap();
            match store.load_game("g") {
                Err(StoreError::Damaged { what, .. }) => assert!(what.contains("clock"), "{what}"),
                other => panic!("{sql}: {other:?}"),
            }
            // Giving back the time the server was down passes it by, naming it, if its clock
            // runs.
            damage(&path, "UPDATE games SET clock_since = 9223372036854775000");
            assert_eq!(
                store.give_back_downtime(1, 2).unwrap(),
                vec!["g".to_string()]
            );
        }
    }

    #[test]
    fn the_tables_tell_each_migration() {
        let conn = Connection::open_in_memory().unwrap();
        assert_eq!(tables_version(&conn).unwrap(), 0);
        for (done, migration) in MIGRATIONS.iter().enumerate() {
            conn.execute_batch(migration).unwrap();
            assert_eq!(tables_version(&conn).unwrap(), done as u32 + 1);
        }
        assert!(check_schema(&conn).unwrap().is_empty());
    }
}
