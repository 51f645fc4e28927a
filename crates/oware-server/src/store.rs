//! SQLite storage of games, players' tokens and moves. Every change is one transaction, so a
//! server stopped at any moment restarts with every game where it was.

use std::path::Path;

use rusqlite::{params, Connection, OptionalExtension};

use crate::clock::Clock;
use crate::games::{GameMode, GameSetup};
use oware_rules::{Move, Position, RuleSet, Side};

/// What went wrong with the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("damaged record for game {game}: {what}")]
    Damaged { game: String, what: String },
}

/// A game as stored: how it was set up, who holds which side, and the moves.
#[derive(Debug, Clone)]
pub struct StoredGame {
    pub setup: GameSetup,
    /// The token of the player of each side (South first), if that side has been taken.
    pub tokens: [Option<String>; 2],
    pub moves: Vec<Move>,
    /// The clocks, in games played with them.
    pub clock: Option<Clock>,
}

/// The clock columns of `games`, added to databases made before clocks existed.
const CLOCK_COLUMNS: [(&str, &str); 5] = [
    ("clock_ms", "INTEGER"),
    ("clock_s", "INTEGER"),
    ("clock_n", "INTEGER"),
    ("clock_since", "INTEGER"),
    ("flagged", "TEXT"),
];

pub struct Store {
    conn: Connection,
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

    fn init(conn: Connection) -> Result<Store, StoreError> {
        // WAL with synchronous=NORMAL: a committed transaction survives the process being killed,
        // and writers do not wait for an fsync on every move.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(
            "CREATE TABLE IF NOT EXISTS games(
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
             );",
        )?;
        let mut existing = Vec::new();
        {
            let mut stmt = conn.prepare("SELECT name FROM pragma_table_info('games')")?;
            for name in stmt.query_map([], |r| r.get::<_, String>(0))? {
                existing.push(name?);
            }
        }
        for (name, kind) in CLOCK_COLUMNS {
            if !existing.iter().any(|e| e == name) {
                conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {name} {kind}"))?;
            }
        }
        Ok(Store { conn })
    }

    /// Records a new game and its creator's token in one transaction.
    pub fn create_game(
        &mut self,
        id: &str,
        setup: &GameSetup,
        creator: Option<(&str, Side)>,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let (mode, computer_side) = match setup.mode {
            GameMode::Computer { side, .. } => ("computer", Some(side_letter(side))),
            GameMode::Friend => ("friend", None),
        };
        let level = match setup.mode {
            GameMode::Computer { level, .. } => level,
            GameMode::Friend => 0,
        };
        let clock_ms = setup.clock_ms.map(|ms| ms as i64);
        tx.execute(
            "INSERT INTO games(id, mode, rules, start, level, computer_side, created,
                               clock_ms, clock_s, clock_n)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?8)",
            params![
                id,
                mode,
                setup.rules.name(),
                setup.start.to_string(),
                level,
                computer_side,
                now,
                clock_ms
            ],
        )?;
        if let Some((token, side)) = creator {
            tx.execute(
                "INSERT INTO players(token, game_id, side) VALUES (?1, ?2, ?3)",
                params![token, id, side_letter(side)],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Gives `side` of a game to the holder of `token`.
    pub fn add_player(&mut self, id: &str, token: &str, side: Side) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO players(token, game_id, side) VALUES (?1, ?2, ?3)",
            params![token, id, side_letter(side)],
        )?;
        Ok(())
    }

    /// Records the move played at `ply` (0-based).
    pub fn append_move(&mut self, id: &str, ply: usize, mv: Move) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO moves(game_id, ply, mv) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, mv.letter().to_string()],
        )?;
        Ok(())
    }

    /// Records the move played at `ply` and the clocks after it, in one transaction.
    pub fn append_timed_move(
        &mut self,
        id: &str,
        ply: usize,
        mv: Move,
        clock: &Clock,
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO moves(game_id, ply, mv) VALUES (?1, ?2, ?3)",
            params![id, ply as i64, mv.letter().to_string()],
        )?;
        write_clock(&tx, id, clock)?;
        tx.commit()?;
        Ok(())
    }

    /// Records the clocks (a flag that fell).
    pub fn save_clock(&mut self, id: &str, clock: &Clock) -> Result<(), StoreError> {
        write_clock(&self.conn, id, clock)
    }

    /// Records several moves at once (a human move and the computer's answer, or an undo and
    /// what follows) in one transaction: `keep` plies stay, then `moves` are added after them.
    pub fn replace_moves_from(
        &mut self,
        id: &str,
        keep: usize,
        moves: &[Move],
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![id, keep as i64],
        )?;
        for (i, mv) in moves.iter().enumerate() {
            tx.execute(
                "INSERT INTO moves(game_id, ply, mv) VALUES (?1, ?2, ?3)",
                params![id, (keep + i) as i64, mv.letter().to_string()],
            )?;
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
                        clock_ms, clock_s, clock_n, clock_since, flagged
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
                        ),
                    ))
                },
            )
            .optional()?;
        let Some(((mode, rules, start, level, computer_side), clock_row)) = row else {
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
            (Some(initial), south, north, since, flagged) => {
                let ms = |v: Option<i64>, what: &str| {
                    v.and_then(|v| u64::try_from(v).ok())
                        .ok_or_else(|| damaged(format!("clock {what}")))
                };
                Some(Clock {
                    initial_ms: ms(Some(initial), "time")?,
                    remaining_ms: [ms(south, "of South")?, ms(north, "of North")?],
                    running_since: since.map(|s| ms(Some(s), "start")).transpose()?,
                    flagged: match flagged.as_deref() {
                        None => None,
                        Some(f) => {
                            Some(parse_side(f).ok_or_else(|| damaged(format!("flagged {f:?}")))?)
                        }
                    },
                })
            }
        };
        let mut tokens: [Option<String>; 2] = [None, None];
        let mut stmt = self
            .conn
            .prepare_cached("SELECT token, side FROM players WHERE game_id = ?1")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (token, side) = row?;
            let side = parse_side(&side).ok_or_else(|| damaged(format!("side {side:?}")))?;
            tokens[side.index()] = Some(token);
        }
        let mut stmt = self
            .conn
            .prepare_cached("SELECT ply, mv FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut moves = Vec::new();
        for row in rows {
            let (ply, mv) = row?;
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
            },
            tokens,
            moves,
            clock,
        }))
    }
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
        };
        store
            .create_game("g1", &setup, Some(("tok", Side::South)))
            .unwrap();
        store
            .append_move("g1", 0, Move::from_letter('F').unwrap())
            .unwrap();
        store
            .replace_moves_from("g1", 1, &oware_rules::parse_move_letters("fE").unwrap())
            .unwrap();
        store
            .replace_moves_from("g1", 2, &oware_rules::parse_move_letters("A").unwrap())
            .unwrap();
        let g = store.load_game("g1").unwrap().unwrap();
        assert_eq!(oware_rules::format_move_letters(&g.moves), "FfA");
        assert_eq!(g.tokens[0].as_deref(), Some("tok"));
        assert_eq!(g.tokens[1], None);
        assert_eq!(g.setup.rules, RuleSet::Awari);
        assert!(store.load_game("nope").unwrap().is_none());
        // The same side cannot be given twice.
        assert!(store.add_player("g1", "other", Side::South).is_err());
    }
}
