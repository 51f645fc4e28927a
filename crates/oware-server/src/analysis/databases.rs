//! The endgame databases as the analysis board shows them: each move's value in the position. The
//! databases themselves are the engine's [`ProbeSet`]: those of a directory the server was given
//! (`oware serve --egtb DIR`), or those of the user's data directory, which grow while the server
//! runs as their levels are built. The pooled engines probe the same set in their searches.

use serde::Serialize;

use oware_engine::ProbeSet;
use oware_rules::{Game, Move, Position, RuleSet};

/// One move's database value, from the mover's side, in the rule set's units.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct DatabaseValue {
    /// awari: the final seed difference over the seeds now on the board (mover minus opponent);
    /// abapa: how many of the seeds now on the board the mover ends with.
    pub value: i32,
    /// `false`: `value` is only a lower bound (what the mover can be sure of).
    pub exact: bool,
    /// The seeds on the board before the move (abapa values are out of this many).
    pub seeds: u32,
}

/// Each legal move's database value in `game`'s current position, or `None` when the database
/// of its rule set is missing or does not cover the position. Abapa values assume no earlier
/// history (a repetition's outcome depends on it), so under abapa they are given only where
/// the game has none since the last capture.
pub fn move_values(databases: &ProbeSet, game: &Game) -> Option<Vec<(Move, DatabaseValue)>> {
    if game.is_over() {
        return None;
    }
    let probe = databases.of(game.rules())?;
    let tb = probe.tablebase();
    if game.rules() == RuleSet::Abapa && game.history_since_capture().len() > 1 {
        return None;
    }
    let pos: &Position = game.position();
    let legal = game.legal_moves();
    let seeds = u32::from(pos.board_seeds());
    let values = tb.move_values(pos)?;
    Some(
        values
            .into_iter()
            .filter(|(mv, _)| legal.contains(*mv))
            .map(|(mv, p)| {
                let value = if p.exact { p.value } else { p.lower };
                (
                    mv,
                    DatabaseValue {
                        value: i32::from(value),
                        exact: p.exact,
                        seeds,
                    },
                )
            })
            .collect(),
    )
}
