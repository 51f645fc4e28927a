//! `oware bench`'s searches: the fixed positions (the start, positions along a master game, with
//! their history so repetitions count, and a few endgames; changing this list changes the node
//! signature) and [`run`], the loop that searches them and sums the nodes, which the command, the
//! tests that pin the signature and anything else that measures the search share; and
//! [`suite_games`], the positions of a suite file's games (`oware bench --suite`).

use std::num::NonZeroUsize;
use std::time::Duration;

use oware_rules::{Game, GameLine, GameLineError, Move, Position, ReplayError, RuleSet};

use crate::{plies_to_end, Engine, EngineOptions, Limits, SearchResult};

/// A master game (abapa) that the bench positions are taken from.
const MASTER_GAME: &str =
    "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";

/// Endgames (position strings) with no earlier history.
const ENDGAMES: [&str; 3] = [
    "0-0-0-3-1-2-1-2-0-0-1-1-18-19-S",
    "2-0-1-0-0-5-0-0-4-0-1-0-17-18-N",
    "0-1-0-0-0-9-1-0-0-0-2-0-16-19-S",
];

/// The bench positions as games (each with its history), in a fixed order.
pub fn bench_games() -> Vec<Game> {
    let moves: Vec<Move> = oware_rules::parse_move_letters(MASTER_GAME).expect("valid letters");
    let mut games = games_along(Position::start(), RuleSet::Abapa, &moves, 8)
        .expect("the master game is legal");
    for text in ENDGAMES {
        let pos: Position = text.parse().expect("valid bench endgame");
        games.push(Game::from_position(pos, RuleSet::Abapa));
    }
    games
}

/// The games after 0, `every`, 2 × `every`, ... plies of `moves` from `start` (each with its history),
/// before the last move and before the end of the game (recorded games may go on after the rules
/// end them). An illegal move before the end is an error.
pub fn games_along(
    start: Position,
    rules: RuleSet,
    moves: &[Move],
    every: usize,
) -> Result<Vec<Game>, ReplayError> {
    let mut game = Game::from_position(start, rules);
    let mut games = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        if game.is_over() {
            break;
        }
        if ply % every.max(1) == 0 {
            games.push(game.clone());
        }
        let side = game.position().side_to_move();
        game.play(mv).map_err(|reason| ReplayError {
            ply,
            side,
            mv,
            reason,
        })?;
    }
    Ok(games)
}

/// The lines of a list file that hold something, trimmed, with their numbers from 1: blank lines
/// and `#` comments are skipped.
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// What is wrong with a suite file, as [`suite_games`] reads it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SuiteError {
    /// A line is not `<position> moves <letters>`.
    #[error("line {line}: {error}")]
    Line {
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        error: GameLineError,
    },
    /// A line's moves cannot be played from its position.
    #[error("line {line}: {error}")]
    Replay {
        /// The line's number, from 1.
        line: usize,
        /// The move that cannot be played.
        error: ReplayError,
    },
    /// No line gives a position to search.
    #[error("no positions to search")]
    Empty,
}

/// The positions to search of a suite file's games ([`GameLine`]s of abapa, one a line; blank
/// lines and `#` comments skipped), game by game: for each, [`games_along`] its moves every `every`
/// plies.
pub fn suite_games(text: &str, every: NonZeroUsize) -> Result<Vec<Vec<Game>>, SuiteError> {
    let mut games = Vec::new();
    for (line, text) in data_lines(text) {
        let GameLine { start, moves } = text
            .parse::<GameLine>()
            .map_err(|error| SuiteError::Line { line, error })?;
        let along = games_along(start, RuleSet::Abapa, &moves, every.get())
            .map_err(|error| SuiteError::Replay { line, error })?;
        games.push(along);
    }
    if games.iter().all(Vec::is_empty) {
        return Err(SuiteError::Empty);
    }
    Ok(games)
}

/// One position's search in a [`run`], told as it ends.
pub struct Searched<'a> {
    /// The position's number in the run, from 0.
    pub number: usize,
    /// The game searched (its position, with its history).
    pub game: &'a Game,
    /// What the search found.
    pub result: &'a SearchResult,
    /// The bytes of the transposition table in use after the search.
    pub table_bytes: usize,
}

/// The sums of a [`run`].
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Totals {
    /// Positions searched.
    pub positions: usize,
    /// Nodes over all searches: the signature, at a fixed depth.
    pub nodes: u64,
    /// The searches' wall-clock time.
    pub time: Duration,
    /// The depths reached, summed.
    pub depth: u64,
    /// Positions whose search stopped because it proved the result ([`proven_early`]).
    pub proven: usize,
    /// The depths reached in the other positions, summed.
    pub open_depth: u64,
    /// Processor time (user and system, all threads of this process) spent in the searches; `None`
    /// where the system does not tell.
    pub cpu: Option<Duration>,
}

/// Searches every position of `games` (grouped by game) within `limits`, each with a fresh engine
/// of `options`, so that the node total does not depend on what came before; with `keep_table`,
/// one engine per game, its table kept from one position to the next as in play. `searched` is
/// told of each position as its search ends.
pub fn run(
    games: &[Vec<Game>],
    options: &EngineOptions,
    limits: &Limits,
    keep_table: bool,
    mut searched: impl FnMut(Searched),
) -> Totals {
    let new_engine = || Engine::new(options.clone());
    let mut totals = Totals {
        cpu: Some(Duration::ZERO),
        ..Totals::default()
    };
    let mut engine = new_engine();
    for (number, (game, first_of_game)) in games
        .iter()
        .flat_map(|g| g.iter().enumerate().map(|(k, game)| (game, k == 0)))
        .enumerate()
    {
        if number > 0 && (first_of_game || !keep_table) {
            engine = new_engine();
        }
        let cpu_before = cpu_time();
        let r = engine.search(game, limits, &mut |_| {});
        totals.cpu = match (totals.cpu, cpu_before, cpu_time()) {
            (Some(total), Some(before), Some(after)) => Some(total + after.saturating_sub(before)),
            _ => None,
        };
        searched(Searched {
            number,
            game,
            result: &r,
            table_bytes: engine.table_bytes_in_use(),
        });
        totals.positions += 1;
        totals.nodes += r.nodes;
        totals.time += r.time;
        totals.depth += u64::from(r.depth);
        if proven_early(&r) {
            totals.proven += 1;
        } else {
            totals.open_depth += u64::from(r.depth);
        }
    }
    totals
}

/// Whether the search stopped because it had proved the result: a decided score (a won or lost
/// game) within fewer plies than the depth searched, so deeper iterations could not change it (the
/// condition on which iterative deepening stops before its time is spent).
pub fn proven_early(r: &SearchResult) -> bool {
    plies_to_end(r.score).is_some_and(|p| p.unsigned_abs() < r.depth)
}

/// Processor time (user + system) used so far by this process, all threads.
#[cfg(unix)]
fn cpu_time() -> Option<Duration> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `rusage` into the pointer it is given, which is valid and large
    // enough; on failure (non-zero) the value is not read.
    let ok = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } == 0;
    if !ok {
        return None;
    }
    // SAFETY: getrusage succeeded, so the struct is initialised (and it was zeroed before).
    let usage = unsafe { usage.assume_init() };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Some(Duration::from_micros(
        micros(usage.ru_utime) + micros(usage.ru_stime),
    ))
}

#[cfg(not(unix))]
fn cpu_time() -> Option<Duration> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::WIN;

    fn result(score: i32, depth: u32) -> SearchResult {
        SearchResult {
            best: None,
            ponder: None,
            score,
            depth,
            seldepth: depth,
            nodes: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
            hashfull: 0,
        }
    }

    #[test]
    fn only_results_proved_within_the_depth_count_as_proven_early() {
        assert!(
            proven_early(&result(WIN - 7, 8)),
            "a win in 7 seen at depth 8"
        );
        assert!(
            proven_early(&result(-WIN + 9, 10)),
            "a loss in 9 seen at depth 10"
        );
        assert!(!proven_early(&result(WIN - 12, 12)), "a win at the horizon");
        assert!(!proven_early(&result(350, 24)), "an ordinary score");
        assert!(
            !proven_early(&result(0, 30)),
            "a draw is a score like any other"
        );
    }

    #[test]
    fn bench_positions_are_playable() {
        let games = super::bench_games();
        assert!(games.len() >= 10);
        assert!(games.iter().all(|g| !g.is_over()));
    }

    #[test]
    fn suite_files_give_positions_along_each_game_and_name_bad_lines() {
        let every = NonZeroUsize::new(2).unwrap();
        let text = "# two games\n\n4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FfBe\n  \
                    4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves F \n";
        let games = suite_games(text, every).unwrap();
        assert_eq!(games.iter().map(Vec::len).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(games[0][1].ply_count(), 2);
        assert!(matches!(
            suite_games("# c\nnonsense\n", every),
            Err(SuiteError::Line { line: 2, .. })
        ));
        let illegal = suite_games("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S moves FF\n", every);
        assert!(matches!(illegal, Err(SuiteError::Replay { line: 1, .. })));
        assert_eq!(suite_games("# nothing\n", every), Err(SuiteError::Empty));
    }
}
