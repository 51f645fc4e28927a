//! Play measured against perfect play: the endgame databases say what each move of a covered
//! position is worth, so a chosen move can be judged by whether it keeps the game's result and
//! whether it keeps the exact value, and by how many seeds it gives away.
//!
//! Values are final seed differences over the seeds on the board, from the mover's side (mover
//! minus opponent). Awari databases are exact everywhere they reach. Abapa databases hold some boards
//! only as bounds (a repetition's value can depend on the path to it), and their values assume no
//! earlier history: a position is judged only when its best value is exact, a move only when its
//! own value is.

use oware_egtb::values::board_difference;
use oware_egtb::Tablebase;
use oware_rules::{Game, Move, Position, PositionError, RuleSet};

use crate::bench::data_lines;

use crate::player::{choose, Strength};
use crate::{Engine, Limits, LEVELS};

/// The positions kept with the engine: 30 of each size from 12 to 28 seeds, from the master games
/// and the engine's self-play (examples/perfect_positions.rs writes them).
const KEPT_AWARI: &str = include_str!("../data/perfect-awari.txt");
const KEPT_ABAPA: &str = include_str!("../data/perfect-abapa.txt");

/// The positions kept with the engine for measuring play against perfect play under `rules`:
/// positions of real games, 30 of each size from 12 to 28 seeds on the board.
pub fn kept_positions(rules: RuleSet) -> Vec<Position> {
    let text = match rules {
        RuleSet::Awari => KEPT_AWARI,
        RuleSet::Abapa => KEPT_ABAPA,
    };
    read_positions(text).expect("the kept positions are position strings")
}

/// A line of a positions file that is not a position string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {error}")]
pub struct PositionsError {
    /// The line's number, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub error: PositionError,
}

/// The positions of a file of position strings, one a line; blank lines and `#` comments are
/// skipped.
pub fn read_positions(text: &str) -> Result<Vec<Position>, PositionsError> {
    data_lines(text)
        .map(|(line, text)| text.parse().map_err(|error| PositionsError { line, error }))
        .collect()
}

/// How one move compares with perfect play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// The best value any move of the position has.
    pub best: i32,
    /// The value of the move judged.
    pub played: i32,
    /// Whether the move keeps the game's result (win, draw or loss, the stores counted).
    pub result_kept: bool,
}

impl Verdict {
    /// Whether the move keeps the exact value.
    pub fn exact_kept(&self) -> bool {
        self.played == self.best
    }

    /// Seeds the move gives away against the best.
    pub fn seeds_given(&self) -> i32 {
        self.best - self.played
    }
}

/// Judges `mv` in `position` by `tablebase`, or `None` when the databases do not settle it (the
/// board holds more seeds than they cover, the best value or the move's value is only bounded, or
/// the move is not one the databases' board allows).
pub fn judge(tablebase: &Tablebase, position: &Position, mv: Move) -> Option<Verdict> {
    let values = tablebase.move_values(position)?;
    let seeds = usize::from(position.board_seeds());
    let difference = |v: i8| board_difference(tablebase.rules(), seeds, v);
    let best_lower = values.iter().map(|(_, p)| p.lower).max()?;
    let best_upper = values.iter().map(|(_, p)| p.upper).max()?;
    if best_lower != best_upper {
        return None;
    }
    let (_, played) = values.iter().find(|(m, _)| *m == mv)?;
    if !played.exact {
        return None;
    }
    let mover = position.side_to_move();
    let stores = i32::from(position.store(mover)) - i32::from(position.store(mover.opponent()));
    let best = difference(best_lower);
    let played = difference(played.value);
    Some(Verdict {
        best,
        played,
        result_kept: (stores + best).signum() == (stores + played).signum(),
    })
}

/// Whether the databases give every legal move of `position` an exact value, so that [`judge`]
/// judges whichever move is chosen (under abapa some values are only bounded).
pub fn every_move_exact(tablebase: &Tablebase, position: &Position) -> bool {
    tablebase
        .move_values(position)
        .is_some_and(|values| !values.is_empty() && values.iter().all(|(_, p)| p.exact))
}

/// Verdicts added up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Moves judged.
    pub judged: usize,
    /// Moves that kept the result.
    pub result_kept: usize,
    /// Moves that kept the exact value.
    pub exact_kept: usize,
    /// Seeds given away in all.
    pub seeds_given: i64,
    /// Positions the databases did not settle.
    pub unsettled: usize,
}

impl Tally {
    /// Counts one verdict, or one position left unjudged (`None`).
    pub fn add(&mut self, verdict: Option<Verdict>) {
        let Some(v) = verdict else {
            self.unsettled += 1;
            return;
        };
        self.judged += 1;
        self.result_kept += usize::from(v.result_kept);
        self.exact_kept += usize::from(v.exact_kept());
        self.seeds_given += i64::from(v.seeds_given());
    }

    /// A count as a percentage of the moves judged.
    pub fn share(&self, count: usize) -> f64 {
        if self.judged == 0 {
            return 0.0;
        }
        100.0 * count as f64 / self.judged as f64
    }
}

/// A move that lost the result, as [`measure`] found it.
#[derive(Debug, Clone, Copy)]
pub struct Miss {
    /// The position.
    pub position: Position,
    /// The move the engine chose.
    pub played: Move,
    /// What the databases say of it.
    pub verdict: Verdict,
}

/// The moves `engine` chooses at full strength within `limits` in each of `positions` (games of
/// `rules` with no earlier history), judged by `tablebase`: their tally, and the moves that lost
/// the result. The engine starts a new game at each position, and its random state the same way on
/// every run, so that a run with a node budget repeats itself.
pub fn measure(
    engine: &mut Engine,
    tablebase: &Tablebase,
    positions: &[Position],
    rules: RuleSet,
    limits: &Limits,
) -> (Tally, Vec<Miss>) {
    let mut tally = Tally::default();
    let mut random = 1;
    let mut misses = Vec::new();
    for position in positions {
        engine.new_game();
        let game = Game::from_position(*position, rules);
        let chosen = choose(
            engine,
            &game,
            Strength::new(*LEVELS.end()),
            limits,
            &mut random,
            &mut |_| {},
        )
        .and_then(|choice| choice.result.best);
        let verdict = chosen.and_then(|mv| judge(tablebase, position, mv));
        if let (Some(played), Some(verdict)) = (chosen, verdict) {
            if !verdict.result_kept {
                misses.push(Miss {
                    position: *position,
                    played,
                    verdict,
                });
            }
        }
        tally.add(verdict);
    }
    (tally, misses)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::tests::built;

    #[test]
    fn the_kept_positions_read_and_a_bad_line_is_named() {
        for rules in [RuleSet::Awari, RuleSet::Abapa] {
            let kept = kept_positions(rules);
            assert!(!kept.is_empty());
            assert!(kept.iter().all(|p| (12..=28).contains(&p.board_seeds())));
        }
        let text = "# one\n\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-S\n4-4-S\n";
        let error = read_positions(text).unwrap_err();
        assert_eq!(error.line, 4);
        assert!(error.to_string().starts_with("line 4: "), "{error}");
        assert_eq!(read_positions(&text[..text.len() - 6]).unwrap().len(), 1);
    }

    #[test]
    fn the_best_move_keeps_everything_and_a_losing_one_does_not() {
        let (_dir, probe) = built(RuleSet::Awari, 8);
        let tablebase = probe.tablebase();
        // The README's example: South to move, the stores 22-21, five seeds on the board.
        let position: Position = "0-0-0-1-0-2-0-2-0-0-0-0-22-21-S".parse().unwrap();
        let values = tablebase.move_values(&position).unwrap();
        let mut tally = Tally::default();
        for (mv, value) in &values {
            let verdict = judge(tablebase, &position, *mv).unwrap();
            assert_eq!(verdict.played, i32::from(value.value));
            assert_eq!(
                verdict.best,
                values
                    .iter()
                    .map(|(_, p)| i32::from(p.value))
                    .max()
                    .unwrap()
            );
            tally.add(Some(verdict));
        }
        // F keeps the board's value (+1: a win), D gives away 6 seeds (-5 on the board: a loss).
        let f = judge(tablebase, &position, Move::from_letter('F').unwrap()).unwrap();
        assert!(f.exact_kept() && f.result_kept && f.seeds_given() == 0);
        let d = judge(tablebase, &position, Move::from_letter('D').unwrap()).unwrap();
        assert!(!d.exact_kept() && !d.result_kept && d.seeds_given() == 6);
        assert_eq!(tally.judged, values.len());
        assert_eq!(tally.exact_kept, 1);
        // Beyond the databases nothing is judged.
        let start = Position::start();
        assert_eq!(
            judge(tablebase, &start, Move::from_letter('F').unwrap()),
            None
        );
        tally.add(None);
        assert_eq!(tally.unsettled, 1);
    }
}
