//! A game: a start position, the moves played, and everything needed to decide the end exactly,
//! repetitions included.

use std::fmt;

use crate::position::{IllegalMove, Position};
use crate::text::Outcome;
use crate::types::{Move, MoveSet, RuleSet, Side, HALF_SEEDS};

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// A store holds more than 24 seeds.
    Capture,
    /// Both stores hold 24 seeds.
    Draw,
    /// The player to move has no legal move; the seeds left are gathered.
    NoMoves,
    /// A position recurred; the seeds left are gathered (abapa) or split evenly (awari).
    Repetition,
}

impl EndReason {
    /// The word used by `oware replay` and in records: `capture`, `draw`, `no-moves`, `repetition`.
    pub const fn word(self) -> &'static str {
        match self {
            EndReason::Capture => "capture",
            EndReason::Draw => "draw",
            EndReason::NoMoves => "no-moves",
            EndReason::Repetition => "repetition",
        }
    }

    /// The reason written as `word`.
    pub fn from_word(word: &str) -> Option<EndReason> {
        [
            EndReason::Capture,
            EndReason::Draw,
            EndReason::NoMoves,
            EndReason::Repetition,
        ]
        .into_iter()
        .find(|r| r.word() == word)
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The final score in half seeds, so that the awari even split of an odd number of seeds is exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Score {
    halves: [u8; 2],
}

impl Score {
    /// A score of whole seeds.
    pub const fn seeds(south: u8, north: u8) -> Score {
        Score {
            halves: [south * 2, north * 2],
        }
    }

    /// A score in half seeds.
    pub const fn from_halves(south: u8, north: u8) -> Score {
        Score {
            halves: [south, north],
        }
    }

    /// One player's score in half seeds.
    pub const fn halves(self, side: Side) -> u8 {
        self.halves[side.index()]
    }

    /// One player's score in seeds.
    pub fn of(self, side: Side) -> f64 {
        self.halves[side.index()] as f64 / 2.0
    }

    /// The winner, or `None` for a draw.
    pub fn winner(self) -> Option<Side> {
        match self.halves[0].cmp(&self.halves[1]) {
            std::cmp::Ordering::Greater => Some(Side::South),
            std::cmp::Ordering::Less => Some(Side::North),
            std::cmp::Ordering::Equal => None,
        }
    }
}

fn write_halves(f: &mut fmt::Formatter<'_>, halves: u8) -> fmt::Result {
    if halves.is_multiple_of(2) {
        write!(f, "{}", halves / 2)
    } else {
        write!(f, "{}.5", halves / 2)
    }
}

impl fmt::Display for Score {
    /// `south-north`, e.g. `25-23` or `23.5-24.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_halves(f, self.halves[0])?;
        f.write_str("-")?;
        write_halves(f, self.halves[1])
    }
}

/// How a game ended: why, and the final score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// Why the game ended.
    pub reason: EndReason,
    /// The final score.
    pub score: Score,
}

/// How a game ended, whoever ended it: the rules, a player, a clock or a referee. The one type
/// for the end of a game across the workspace; the rules themselves only ever make
/// [`Ending::Rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The rules ended it (see [`Game::end`]).
    Rules(GameEnd),
    /// That side resigned.
    Resigned(Side),
    /// That side's time ran out.
    TimeOut(Side),
    /// That side lost by breaking the match's rules (an illegal or malformed move, a crashed or
    /// silent engine).
    Forfeit(Side),
    /// The players agreed a draw.
    Agreed,
    /// Called off before a result.
    Aborted,
}

impl Ending {
    /// The side that won, if one did.
    pub fn winner(self) -> Option<Side> {
        match self {
            Ending::Rules(end) => end.score.winner(),
            Ending::Resigned(side) | Ending::TimeOut(side) | Ending::Forfeit(side) => {
                Some(side.opponent())
            }
            Ending::Agreed | Ending::Aborted => None,
        }
    }

    /// The result a record writes: an aborted game has none.
    ///
    /// ```
    /// use oware_rules::{ogn::Outcome, Ending, Side};
    /// assert_eq!(Ending::Resigned(Side::South).outcome(), Outcome::NorthWins);
    /// assert_eq!(Ending::Agreed.outcome(), Outcome::Draw);
    /// assert_eq!(Ending::Aborted.outcome(), Outcome::Unfinished);
    /// ```
    pub fn outcome(self) -> Outcome {
        match (self, self.winner()) {
            (Ending::Aborted, _) => Outcome::Unfinished,
            (_, Some(Side::South)) => Outcome::SouthWins,
            (_, Some(Side::North)) => Outcome::NorthWins,
            (_, None) => Outcome::Draw,
        }
    }

    /// One word for why: the rules' reason ([`EndReason::word`]), or `resign`, `time`, `forfeit`,
    /// `agreement`, `aborted`.
    pub const fn word(self) -> &'static str {
        match self {
            Ending::Rules(end) => end.reason.word(),
            Ending::Resigned(_) => "resign",
            Ending::TimeOut(_) => "time",
            Ending::Forfeit(_) => "forfeit",
            Ending::Agreed => "agreement",
            Ending::Aborted => "aborted",
        }
    }
}

/// Why a move cannot be added to a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayError {
    /// The game has already ended.
    GameOver(GameEnd),
    /// The move is not legal in the current position.
    Illegal(IllegalMove),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver(end) => {
                write!(f, "the game is over ({} {})", end.score, end.reason)
            }
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}

/// The end, if any, of a game whose current position is `position`, judged without history
/// (repetition needs history, and is decided by [`Game`]).
pub fn end_without_history(position: &Position, rules: RuleSet) -> Option<GameEnd> {
    let south = position.store(Side::South);
    let north = position.store(Side::North);
    if south > HALF_SEEDS || north > HALF_SEEDS {
        return Some(GameEnd {
            reason: EndReason::Capture,
            score: Score::seeds(south, north),
        });
    }
    if south == HALF_SEEDS && north == HALF_SEEDS {
        return Some(GameEnd {
            reason: EndReason::Draw,
            score: Score::seeds(south, north),
        });
    }
    if position.legal_moves(rules).is_empty() {
        let g = position.gathered();
        return Some(GameEnd {
            reason: EndReason::NoMoves,
            score: Score::seeds(g.store(Side::South), g.store(Side::North)),
        });
    }
    None
}

/// The end by repetition of `position` under `rules`: each player gathers their own row (abapa), or
/// the seeds left are split evenly (awari).
pub fn repetition_end(position: &Position, rules: RuleSet) -> GameEnd {
    let score = match rules {
        RuleSet::Abapa => {
            let g = position.gathered();
            Score::seeds(g.store(Side::South), g.store(Side::North))
        }
        RuleSet::Awari => {
            let left = position.board_seeds();
            Score::from_halves(
                position.store(Side::South) * 2 + left,
                position.store(Side::North) * 2 + left,
            )
        }
    };
    GameEnd {
        reason: EndReason::Repetition,
        score,
    }
}

/// What one move did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlyOutcome {
    /// The move played.
    pub mv: Move,
    /// Seeds it captured.
    pub captured: u8,
    /// Set when this move ended the game.
    pub end: Option<GameEnd>,
}

/// A game in progress or finished: the start position, every move, and the history since the last
/// capture, so that repetitions are decided exactly.
///
/// ```
/// use oware_rules::{Game, RuleSet};
/// let mut game = Game::new(RuleSet::Abapa);
/// for letter in "FfEa".chars() {
///     game.play(oware_rules::Move::from_letter(letter).unwrap()).unwrap();
/// }
/// assert_eq!(game.ply_count(), 4);
/// assert!(game.end().is_none());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    rules: RuleSet,
    /// `positions[i]` is the position after `i` moves; `positions[0]` is the start.
    positions: Vec<Position>,
    moves: Vec<Move>,
    captures: Vec<u8>,
    /// Index into `positions` of the position right after the last capture (or the start).
    since_capture: usize,
    end: Option<GameEnd>,
}

impl Game {
    /// A new game from the starting position.
    pub fn new(rules: RuleSet) -> Game {
        Game::from_position(Position::start(), rules)
    }

    /// A new game from any position, with no earlier history.
    pub fn from_position(start: Position, rules: RuleSet) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            captures: Vec::new(),
            since_capture: 0,
            end: end_without_history(&start, rules),
        }
    }

    /// Replays `moves` from `start`; the first move that cannot be played is the error.
    ///
    /// ```
    /// use oware_rules::{parse_move_letters, Game, Position, RuleSet};
    /// let moves = parse_move_letters("FF").unwrap();
    /// let error = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap_err();
    /// assert_eq!(error.ply, 1);
    /// assert_eq!(
    ///     error.to_string(),
    ///     "ply 2 (North's move F) is illegal: that house belongs to the other player"
    /// );
    /// ```
    pub fn replay(start: Position, rules: RuleSet, moves: &[Move]) -> Result<Game, ReplayError> {
        match Game::replay_until_illegal(start, rules, moves) {
            (game, None) => Ok(game),
            (_, Some(error)) => Err(error),
        }
    }

    /// Replays `moves` from `start` as far as they go: the game up to the first move that cannot be
    /// played, and that move's error, if any. An analysis board shows the game so far and says what
    /// is wrong with the rest.
    pub fn replay_until_illegal(
        start: Position,
        rules: RuleSet,
        moves: &[Move],
    ) -> (Game, Option<ReplayError>) {
        let mut game = Game::from_position(start, rules);
        for (ply, &mv) in moves.iter().enumerate() {
            let side = game.position().side_to_move();
            if let Err(reason) = game.play(mv) {
                let error = ReplayError {
                    ply,
                    side,
                    mv,
                    reason,
                };
                return (game, Some(error));
            }
        }
        (game, None)
    }

    /// The rule set the game is played under.
    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Seeds captured by each move.
    pub fn captures(&self) -> &[u8] {
        &self.captures
    }

    /// Moves played so far.
    pub fn ply_count(&self) -> usize {
        self.moves.len()
    }

    /// The positions since the last capture (or the start), the current one last. Engines use these
    /// to see repetitions coming.
    pub fn history_since_capture(&self) -> &[Position] {
        &self.positions[self.since_capture..]
    }

    /// How the game ended, or `None` while it goes on.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    /// The legal moves now (none once the game is over).
    pub fn legal_moves(&self) -> MoveSet {
        if self.end.is_some() {
            MoveSet::EMPTY
        } else {
            self.position().legal_moves(self.rules)
        }
    }

    /// Plays a move, deciding the end of the game if it comes.
    pub fn play(&mut self, mv: Move) -> Result<PlyOutcome, PlayError> {
        if let Some(end) = self.end {
            return Err(PlayError::GameOver(end));
        }
        let current = *self.position();
        if let Some(reason) = current.check_move(mv, self.rules) {
            return Err(PlayError::Illegal(IllegalMove { mv, reason }));
        }
        let played = current.play_unchecked(mv, self.rules);
        let next = played.position;
        let repeated = played.captured == 0 && self.history_since_capture().contains(&next);
        self.positions.push(next);
        self.moves.push(mv);
        self.captures.push(played.captured);
        if played.captured > 0 {
            self.since_capture = self.positions.len() - 1;
        }
        self.end = if repeated {
            Some(repetition_end(&next, self.rules))
        } else {
            end_without_history(&next, self.rules)
        };
        Ok(PlyOutcome {
            mv,
            captured: played.captured,
            end: self.end,
        })
    }

    /// Takes back the last move. Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.captures.pop();
        self.since_capture = self
            .captures
            .iter()
            .rposition(|&c| c > 0)
            .map_or(0, |i| i + 1);
        // The game was going on before the move that is taken back.
        self.end = None;
        Some(mv)
    }

    /// Checks a move without playing it.
    pub fn check_move(&self, mv: Move) -> Result<(), PlayError> {
        if let Some(end) = self.end {
            return Err(PlayError::GameOver(end));
        }
        match self.position().check_move(mv, self.rules) {
            None => Ok(()),
            Some(reason) => Err(PlayError::Illegal(IllegalMove { mv, reason })),
        }
    }
}

/// A move of a list that cannot be played where it stands: which one, whose, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayError {
    /// The index of the move in the list (0 for the first); the message counts plies from 1.
    pub ply: usize,
    /// The side to move when the move came.
    pub side: Side,
    /// The move.
    pub mv: Move,
    /// Why it cannot be played.
    pub reason: PlayError,
}

impl fmt::Display for ReplayError {
    /// `ply 2 (North's move F) is illegal: that house belongs to the other player`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "ply {} ({}'s move {}) is illegal: ",
            self.ply + 1,
            self.side,
            self.mv
        )?;
        match self.reason {
            PlayError::GameOver(end) => {
                write!(f, "the game ended before it ({} {})", end.score, end.reason)
            }
            PlayError::Illegal(illegal) => illegal.reason.fmt(f),
        }
    }
}

impl std::error::Error for ReplayError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn play_all(game: &mut Game, letters: &str) {
        for c in letters.chars() {
            game.play(Move::from_letter(c).unwrap()).unwrap();
        }
    }

    #[test]
    fn repetition_is_detected_exactly() {
        // The shortest cycle: one seed per side walks round the board. After 12 plies (North's first
        // move is forced by the feeding rule) the start position is back.
        let start = pos("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S");
        let mut game = Game::from_position(start, RuleSet::Abapa);
        let mut seen = vec![*game.position()];
        while !game.is_over() {
            let mv = game.legal_moves().next().unwrap();
            game.play(mv).unwrap();
            if !game.is_over() {
                assert!(!seen.contains(game.position()), "repeat not caught");
            }
            seen.push(*game.position());
        }
        let end = game.end().unwrap();
        assert_eq!(end.reason, EndReason::Repetition);
        assert_eq!(game.ply_count(), 12);
        // Under abapa each side gathers its own seeds.
        let last = game.position();
        let expected = Score::seeds(
            23 + last.row_seeds(Side::South),
            23 + last.row_seeds(Side::North),
        );
        assert_eq!(end.score, expected);
    }

    #[test]
    fn awari_repetition_splits_the_seeds_evenly() {
        let start = pos("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S");
        let mut game = Game::from_position(start, RuleSet::Awari);
        while !game.is_over() {
            let mv = game.legal_moves().next().unwrap();
            game.play(mv).unwrap();
        }
        let end = game.end().unwrap();
        assert_eq!(end.reason, EndReason::Repetition);
        assert_eq!(end.score, Score::seeds(24, 24));
        // An odd number of seeds splits into halves.
        assert_eq!(
            repetition_end(&pos("0-0-0-1-0-0-0-0-0-0-0-0-23-24-S"), RuleSet::Awari)
                .score
                .to_string(),
            "23.5-24.5"
        );
    }

    #[test]
    fn capture_over_24_ends_at_once() {
        // South captures 2 from a, reaching 25.
        let start = pos("0-0-0-0-0-1-1-1-0-0-0-0-23-22-S");
        let mut game = Game::from_position(start, RuleSet::Abapa);
        let out = game.play(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(out.captured, 2);
        let end = out.end.unwrap();
        assert_eq!(end.reason, EndReason::Capture);
        assert_eq!(end.score, Score::seeds(25, 22));
        assert!(matches!(
            game.play(Move::from_letter('b').unwrap()),
            Err(PlayError::GameOver(_))
        ));
    }

    #[test]
    fn no_moves_gathers_own_seeds() {
        // North to move with an empty row: South gathers its seeds.
        let start = pos("1-1-0-0-0-0-0-0-0-0-0-0-23-23-N");
        let game = Game::from_position(start, RuleSet::Abapa);
        let end = game.end().unwrap();
        assert_eq!(end.reason, EndReason::NoMoves);
        assert_eq!(end.score, Score::seeds(25, 23));
        // South to move, North empty, no move reaches: South gathers its own seeds.
        let start = pos("1-1-0-0-0-0-0-0-0-0-0-0-23-23-S");
        let end = Game::from_position(start, RuleSet::Abapa).end().unwrap();
        assert_eq!(
            (end.reason, end.score),
            (EndReason::NoMoves, Score::seeds(25, 23))
        );
    }

    #[test]
    fn awari_starving_move_ends_the_game() {
        // South's only move F captures all of North's seeds: legal under awari, and the game ends.
        let start = pos("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S");
        let mut game = Game::from_position(start, RuleSet::Awari);
        let out = game.play(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(out.captured, 4);
        let end = out.end.unwrap();
        assert_eq!(end.reason, EndReason::Capture);
        assert_eq!(end.score, Score::seeds(26, 22));
        // Starving by not feeding: South's only move A stays on its side while North is empty.
        let start = pos("0-0-0-0-1-0-0-0-0-0-0-0-23-24-S");
        let mut game = Game::from_position(start, RuleSet::Awari);
        let out = game.play(Move::from_letter('E').unwrap()).unwrap();
        assert_eq!(out.end.unwrap().reason, EndReason::NoMoves);
        assert_eq!(out.end.unwrap().score, Score::seeds(24, 24));
    }

    #[test]
    fn undo_restores_everything() {
        let mut game = Game::new(RuleSet::Abapa);
        play_all(&mut game, "FfEa");
        let before = game.clone();
        play_all(&mut game, "Db");
        game.undo();
        game.undo();
        assert_eq!(game, before);
        while game.undo().is_some() {}
        assert_eq!(game, Game::new(RuleSet::Abapa));
    }

    #[test]
    fn replay_errors_name_the_ply_the_side_and_the_reason() {
        let moves = crate::parse_move_letters("FfEaE").unwrap();
        let e = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap_err();
        assert_eq!((e.ply, e.side, e.mv), (4, Side::South, moves[4]));
        assert_eq!(
            e.to_string(),
            "ply 5 (South's move E) is illegal: that house is empty"
        );
        let (game, error) = Game::replay_until_illegal(Position::start(), RuleSet::Abapa, &moves);
        assert_eq!(game.ply_count(), 4);
        assert_eq!(error, Some(e));
        // A move after the end of the game.
        let start = pos("0-0-0-0-0-1-1-1-0-0-0-0-23-22-S");
        let moves = crate::parse_move_letters("Fa").unwrap();
        let e = Game::replay(start, RuleSet::Abapa, &moves).unwrap_err();
        assert_eq!(
            e.to_string(),
            "ply 2 (North's move a) is illegal: the game ended before it (25-22 capture)"
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn master_game_replays() {
        let letters =
            "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";
        let mut game = Game::new(RuleSet::Abapa);
        play_all(&mut game, letters);
        assert_eq!(game.ply_count(), letters.len());
    }
}
