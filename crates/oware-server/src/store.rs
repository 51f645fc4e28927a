//! SQLite storage of games, players' tokens and moves. Every change is one transaction, so a
//! server stopped at any moment restarts with every game where it was.

use std::path::Path;

use rusqlite::types::Value;
use rusqlite::{params, Connection, OptionalExtension};

use crate::clock::{resumed_since, Clock};
use crate::model::{GameMode, GameSetup, Outcome};
use oware_rules::{Move, Position, RuleSet, Side};

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
    pub clock: Option<Clock>,
    /// A resignation or an agreed draw.
    pub outcome: Option<Outcome>,
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
const MIGRATIONS: [&str; 4] = [
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
];

/// The schema version this server reads and writes.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// The games' database: SQLite, one connection.
pub struct Store {
    conn: Connection,
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

fn side_letter(side: Side) -> &'static str {
    match side {
        Side::South => "S",
        Side::North => "N",
    }
}

fn parse_side(text: &str) -> Option<Side> {
    match text {
        "S" => Some(Side::South),
        "N" => Some(Side::North),
        _ => None,
    }
}

impl Store {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::init(Connection::open(path)?)
    }

    /// A database that lives in memory only (tests).
    pub fn in_memory() -> Result<Store, StoreError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(mut conn: Connection) -> Result<Store, StoreError> {
        // WAL with synchronous=NORMAL: a committed transaction survives the process being killed,
        // and writers do not wait for an fsync on every move.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        Ok(Store { conn })
    }

    /// Records a new game, its creator's seat and its invitation's code in one transaction.
    pub fn create_game(
        &mut self,
        id: &str,
        setup: &GameSetup,
        creator: Option<SeatRow>,
        invite: Option<&str>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        insert_game(&tx, id, setup, creator.as_slice(), invite)?;
        tx.commit()?;
        Ok(())
    }

    /// Makes every commit for which `fail` answers true fail, as a write to a failing disk would:
    /// the transaction is rolled back and the caller gets an error (fault tests).
    #[cfg(test)]
    pub(crate) fn fail_commits(&mut self, fail: impl FnMut() -> bool + Send + 'static) {
        self.conn.commit_hook(Some(fail));
    }

    /// Gives a side of a game to a player (its token and name).
    pub fn add_player(&mut self, id: &str, seat: SeatRow) -> Result<(), StoreError> {
        insert_seat(&self.conn, id, seat)
    }

    /// Replaces a friend game's invitation code and, when `free` names a side, frees that side's
    /// seat (its token seats nobody from then on), in one transaction.
    pub fn reissue_invite(
        &mut self,
        id: &str,
        invite: &str,
        free: Option<Side>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        if let Some(side) = free {
            tx.execute(
                "DELETE FROM players WHERE game_id = ?1 AND side = ?2",
                params![id, side_letter(side)],
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
        clock: Option<&Clock>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
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
    pub fn save_clock(&mut self, id: &str, clock: &Clock) -> Result<(), StoreError> {
        write_clock(&self.conn, id, clock)
    }

    /// Records how a game ended by the players' decision (a resignation, an agreed draw).
    pub fn save_outcome(&mut self, id: &str, outcome: Outcome) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE games SET outcome = ?2 WHERE id = ?1",
            params![id, outcome.word()],
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
        let tx = self.conn.transaction()?;
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
        self.conn.execute(
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
        let tx = self.conn.transaction()?;
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
                Value::Integer(since) => u64::try_from(since).ok(),
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

    /// When the server was last noted alive, if ever.
    pub fn last_alive(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .conn
            .query_row("SELECT at_ms FROM alive WHERE id = 1", [], |r| {
                r.get::<_, i64>(0)
            })
            .optional()?
            .and_then(|ms| u64::try_from(ms).ok()))
    }

    /// Takes back every move from ply `keep` on and, in a game with clocks, saves the clocks as
    /// they restart, in one transaction.
    pub fn take_back(
        &mut self,
        id: &str,
        keep: usize,
        clock: Option<&Clock>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
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
            .conn
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
                let ms = |v: Option<i64>, what: &str| {
                    v.and_then(|v| u64::try_from(v).ok())
                        .ok_or_else(|| damaged(format!("clock {what}")))
                };
                Some(Clock {
                    initial_ms: ms(Some(initial), "time")?,
                    increment_ms: ms(Some(increment.unwrap_or(0)), "increment")?,
                    remaining_ms: [ms(south, "of South")?, ms(north, "of North")?],
                    running_since: since.map(|s| ms(Some(s), "start")).transpose()?,
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
            .conn
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
            .conn
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
                Some(o) => {
                    Some(Outcome::parse(o).ok_or_else(|| damaged(format!("outcome {o:?}")))?)
                }
            },
            rematch: match rematch {
                Some(r) if crate::ids::valid_id(&r) => Some(r),
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

/// Brings the database to [`SCHEMA_VERSION`], each migration in its own transaction with the
/// version it reaches, so an interrupted upgrade resumes where it stopped.
fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    let mut version = schema_version(conn)?;
    if version > SCHEMA_VERSION {
        return Err(StoreError::NewerSchema { found: version });
    }
    let recorded: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if recorded != version {
        // A database from before versions were recorded: record the version it has.
        conn.pragma_update(None, "user_version", version)?;
    }
    while version < SCHEMA_VERSION {
        let tx = conn.transaction()?;
        tx.execute_batch(MIGRATIONS[version as usize])?;
        version += 1;
        tx.pragma_update(None, "user_version", version)?;
        tx.commit()?;
    }
    Ok(())
}

/// The schema version of the database. Databases made before the version was recorded have
/// `user_version` 0 but tables already: they are version 1, or 2 if their games have clocks.
fn schema_version(conn: &Connection) -> Result<u32, StoreError> {
    let version: u32 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;

    if version != 0 {
        return Ok(version);
    }
    let columns = |table: &str| -> Result<Vec<String>, StoreError> {
        let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
        let names = stmt.query_map([table], |r| r.get::<_, String>(0))?;
        Ok(names.collect::<Result<_, _>>()?)
    };
    let games = columns("games")?;
    Ok(if games.is_empty() {
        0
    } else if games.iter().any(|c| c == "clock_ms") {
        2
    } else {
        1
    })
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
    let now = (crate::clock::now_ms() / 1000) as i64;
    let (mode, computer_side) = match setup.mode {
        GameMode::Computer { side, .. } => ("computer", Some(side_letter(side))),
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
            invite.and(seats.first()).map(|s| side_letter(s.side)),
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
        params![seat.token, id, side_letter(seat.side), seat.name],
    )?;
    Ok(())
}

fn write_clock(conn: &Connection, id: &str, clock: &Clock) -> Result<(), StoreError> {
    conn.execute(
        "UPDATE games SET clock_s = ?2, clock_n = ?3, clock_since = ?4, flagged = ?5 WHERE id = ?1",
        params![
            id,
            clock.remaining_ms[0] as i64,
            clock.remaining_ms[1] as i64,
            clock.running_since.map(|s| s as i64),
            clock.flagged.map(side_letter)
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
}
