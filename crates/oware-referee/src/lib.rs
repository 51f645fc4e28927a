//! The referee: matches between two players ([`Competitor`]: an engine run as a process that speaks
//! the engine protocol, [`EngineProcess`], or a playing level in this process, [`LevelPlayer`]),
//! game by game ([`play_game`], [`Match`]) on a time per move or on clocks the referee keeps, with
//! the tally of the match and its Elo difference, and the level ladder ([`ladder`]). `oware match`
//! is this crate with arguments and printing.
//!
//! Every move is checked with the rules crate: an illegal move, a malformed answer, a crash or a
//! long silence loses the game. An engine whose clock runs out (by more than the margin) loses. An
//! engine that offers the `EngineTurn` option (the Aualé GUI's engines do) is told its side before
//! each search. What a player last said of its search before each move (depth, score, pv, read in
//! either form of the pv: [`SearchInfo`]) is kept for the game's record.
//!
//! A crate of its own rather than a module of the engine: it runs processes and keeps clocks, which
//! the engine library, a search and its protocol, has no use for.

#![warn(missing_docs)]

use std::time::Duration;

use oware_rules::ogn::{Outcome, Record};
use oware_rules::{Ending, Game, GameText, Move, RuleSet, Side};

use oware_engine::{Clock, Limits};

mod clock;
mod ladder;
mod level;
mod process;

pub use clock::TimeControl;
pub use ladder::{ladder, Step, STEP_SCORE};
pub use level::LevelPlayer;
pub use process::{Answer, EngineProcess, RefereeError, SearchInfo};

/// One side of a game the referee runs.
pub trait Competitor {
    /// The name the records and the tally give it.
    fn name(&self) -> &str;

    /// A new game starts (the protocol's `ucinewgame`).
    fn new_game(&mut self) -> Result<(), RefereeError>;

    /// The move to play in `game` within `limits` (a time per move, or both clocks), answered
    /// within `wait`.
    fn best_move(
        &mut self,
        game: &Game,
        limits: &Limits,
        wait: Duration,
    ) -> Result<Answer, RefereeError>;
}

/// How the engines are given their time.
#[derive(Debug, Clone, Copy)]
pub enum Pace {
    /// This many milliseconds a move.
    MoveTime(u64),
    /// The clocks, and how far past its clock an engine may answer (`--time-margin`).
    Clock(TimeControl, Duration),
}

/// A game longer than this is stopped and scored as a repetition would be (it cannot happen between
/// sensible engines; it bounds a misbehaving one).
const MAX_PLIES: usize = 1000;

/// An opening: a start position and moves from it.
#[derive(Debug, Clone, PartialEq)]
pub struct Opening {
    /// The game so far: legal, and not over.
    game: Game,
}

/// Every pair of first moves, 36 openings.
pub fn default_openings(rules: RuleSet) -> Vec<Opening> {
    let mut list = Vec::new();
    let row = |side| (0..6).filter_map(move |column| Move::for_side(side, column));
    for a in row(Side::South) {
        for b in row(Side::North) {
            let mut game = Game::new(rules);
            if game.play(a).is_ok() && game.play(b).is_ok() && !game.is_over() {
                list.push(Opening { game });
            }
        }
    }
    list
}

/// Reads openings, checking that each is legal and leaves a game to play.
pub fn parse_openings(text: &str, rules: RuleSet) -> Result<Vec<Opening>, String> {
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        // A position string and moves, or moves from the start.
        let game = GameText::parse(line)
            .and_then(|text| text.game(rules))
            .map_err(|e| format!("line {}: {}", i + 1, e.kind))?;
        if game.is_over() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        list.push(Opening { game });
    }
    if list.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(list)
}

/// How one game ended for the engine playing South.
pub struct RefereedGame {
    /// The game as played.
    pub game: Game,
    /// Its result.
    pub outcome: Outcome,
    /// Why, in words (the rules' end reason, or a forfeit).
    pub reason: String,
    /// South's and North's time left at the end, on clocks.
    pub clocks: [Duration; 2],
    /// What each engine said of its search for its moves ([`SearchInfo::comment`]), each after its move:
    /// with the number of moves played, that move included, as [`oware_rules::ogn::Record`] places
    /// comments.
    pub comments: Vec<(usize, String)>,
}

/// Plays one game from `opening` between `engines` (South, North) at `pace`. An engine that
/// misbehaves (an illegal or malformed move, a crash, a silence, a fallen flag) loses the game; an
/// engine that refuses the position, or one that stops reading between games, stops the match
/// (the error).
pub fn play_game(
    engines: [&mut dyn Competitor; 2],
    opening: &Opening,
    pace: Pace,
) -> Result<RefereedGame, RefereeError> {
    let [south, north] = engines;
    south.new_game()?;
    north.new_game()?;
    let mut game = opening.game.clone();
    let rules = game.rules();
    // South's and North's time left, on clocks, and the moves each has played on them.
    let mut clocks = match pace {
        Pace::Clock(tc, _) => [tc.start; 2],
        Pace::MoveTime(_) => [Duration::ZERO; 2],
    };
    let mut played = [0u32; 2];
    let mut comments = Vec::new();
    while !game.is_over() {
        if game.ply_count() >= MAX_PLIES {
            let end = oware_rules::repetition_end(game.position(), rules);
            let outcome = Ending::Rules(end).outcome();
            return Ok(RefereedGame {
                game,
                outcome,
                reason: format!("stopped after {MAX_PLIES} plies, {}", end.score),
                clocks,
                comments,
            });
        }
        let side = game.position().side_to_move();
        let engine = if side == Side::South {
            &mut *south
        } else {
            &mut *north
        };
        let forfeit = |why: String| {
            (
                Ending::Forfeit(side).outcome(),
                format!("{side} forfeits: {why}"),
            )
        };
        // The mover's time left, on clocks.
        let left = clocks[side.index()];
        let answer = match pace {
            // Generous: the engine is judged on legality here, not on its clock.
            Pace::MoveTime(ms) => engine.best_move(
                &game,
                &Limits::movetime(Duration::from_millis(ms)),
                Duration::from_millis(ms.saturating_mul(3).saturating_add(5000)),
            ),
            Pace::Clock(tc, margin) => {
                let clock = |time| Clock {
                    time,
                    increment: tc.increment,
                };
                let limits = Limits {
                    clocks: Some([clock(clocks[0]), clock(clocks[1])]),
                    moves_to_go: tc.moves_to_go(played[side.index()]),
                    ..Limits::default()
                };
                // A few seconds past the flag, to tell a late answer from none.
                engine.best_move(&game, &limits, left + margin + Duration::from_secs(5))
            }
        };
        let thought = answer.as_ref().map_or(Duration::ZERO, |a| a.thought);
        let asked = game.clone();
        let flag_fell = matches!(pace, Pace::Clock(_, margin) if thought > left + margin);
        let problem = match answer {
            Err(e @ RefereeError::Refused(_)) => return Err(e),
            Err(e) => Some(e.to_string()),
            Ok(_) if flag_fell => Some(format!(
                "out of time (thought {} ms with {} ms left)",
                thought.as_millis(),
                left.as_millis()
            )),
            Ok(Answer { word, report, .. }) => match word.parse::<Move>() {
                Err(_) => Some(format!("answered bestmove {word:?}")),
                Ok(mv) => match game.play(mv) {
                    Ok(_) => {
                        let said = report.map(|r| r.comment(&asked)).unwrap_or_default();
                        if !said.is_empty() {
                            comments.push((game.ply_count(), said));
                        }
                        None
                    }
                    Err(e) => Some(format!("{mv}: {e}")),
                },
            },
        };
        if let Some(why) = problem {
            if flag_fell {
                clocks[side.index()] = Duration::ZERO;
            }
            let (outcome, reason) = forfeit(why);
            return Ok(RefereedGame {
                game,
                outcome,
                reason,
                clocks,
                comments,
            });
        }
        if let Pace::Clock(tc, _) = pace {
            // In time (the flag did not fall, or fell by less than the margin): the time thought
            // comes off, the increment on, and at the end of a period the start time again.
            let mover = side.index();
            played[mover] += 1;
            clocks[mover] = tc.after_move(left, thought, played[mover]);
        }
    }
    let end = game.end().expect("the loop ends with the game");
    Ok(RefereedGame {
        outcome: Outcome::of_game(&game),
        reason: format!("{} {}", end.score, end.reason),
        game,
        clocks,
        comments,
    })
}

/// A match: `games` games between two players, each opening played twice with the players
/// swapping sides (the first player is South in the odd-numbered games), the openings taken in turn.
/// An iterator over the games as they end; after an error (a player that refuses the setup or stops
/// reading) it ends.
pub struct Match<'a> {
    players: [&'a mut dyn Competitor; 2],
    openings: &'a [Opening],
    games: usize,
    pace: Pace,
    played: usize,
    tally: MatchScore,
    date: String,
    failed: bool,
}

/// One game of a [`Match`], as it ended.
pub struct GameReport {
    /// Its number, from 1.
    pub round: usize,
    /// Whether the first player had South.
    pub first_is_south: bool,
    /// The game.
    pub played: RefereedGame,
    /// Its record: the moves, each with what its player said of its search, and the tags (event,
    /// date, round, the players' names, how it ended, the time control on clocks).
    pub record: Record,
    /// The match's tally after this game.
    pub tally: MatchScore,
}

impl<'a> Match<'a> {
    /// A match of `games` games between `first` and `second` from `openings` at `pace`. No opening:
    /// no game.
    pub fn new(
        first: &'a mut dyn Competitor,
        second: &'a mut dyn Competitor,
        openings: &'a [Opening],
        games: usize,
        pace: Pace,
    ) -> Match<'a> {
        Match {
            players: [first, second],
            openings,
            games: if openings.is_empty() { 0 } else { games },
            pace,
            played: 0,
            tally: MatchScore::default(),
            date: today(),
            failed: false,
        }
    }

    /// The tally so far.
    pub fn tally(&self) -> MatchScore {
        self.tally
    }

    /// The first and the second player's names.
    pub fn names(&self) -> [String; 2] {
        [
            self.players[0].name().to_string(),
            self.players[1].name().to_string(),
        ]
    }
}

impl Iterator for Match<'_> {
    type Item = Result<GameReport, RefereeError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.failed || self.played >= self.games {
            return None;
        }
        let round = self.played;
        self.played += 1;
        let opening = &self.openings[(round / 2) % self.openings.len()];
        let first_is_south = round.is_multiple_of(2);
        let [first, second] = &mut self.players;
        let (south, north): (&mut dyn Competitor, &mut dyn Competitor) = if first_is_south {
            (&mut **first, &mut **second)
        } else {
            (&mut **second, &mut **first)
        };
        let names = [south.name().to_string(), north.name().to_string()];
        let played = match play_game([south, north], opening, self.pace) {
            Ok(played) => played,
            Err(e) => {
                self.failed = true;
                return Some(Err(e));
            }
        };
        let first_won = match played.outcome {
            Outcome::SouthWins => Some(first_is_south),
            Outcome::NorthWins => Some(!first_is_south),
            _ => None,
        };
        match first_won {
            Some(true) => self.tally.wins += 1,
            Some(false) => self.tally.losses += 1,
            None => self.tally.draws += 1,
        }
        let [south_name, north_name] = names;
        let mut record = Record::from_game(&played.game);
        record.outcome = played.outcome;
        // Each move's depth, score and line as its player reported them.
        record.comments = played.comments.clone();
        record.set_tag("Event", "oware match");
        record.set_tag("Site", "?");
        record.set_tag("Date", self.date.clone());
        record.set_tag("Round", (round + 1).to_string());
        record.set_tag("South", south_name);
        record.set_tag("North", north_name);
        record.set_tag("Termination", played.reason.clone());
        if let Pace::Clock(tc, _) = self.pace {
            record.set_tag("TimeControl", tc.to_string());
        }
        Some(Ok(GameReport {
            round: round + 1,
            first_is_south,
            played,
            record,
            tally: self.tally,
        }))
    }
}

/// Wins, draws and losses of the first engine.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct MatchScore {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl MatchScore {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction and the Elo difference with its 95% interval (normal approximation on the
    /// per-game scores; the ends are clamped where the score is 0 or 1).
    pub fn elo(&self) -> (f64, f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let p = w + d / 2.0;
        let variance = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
        let margin = 1.96 * (variance / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(0.001, 0.999);
            // `+ 0.0` turns a negative zero into zero, so an even score prints as +0.
            -400.0 * (1.0 / p - 1.0).log10() + 0.0
        };
        (p, elo(p), elo(p - margin), elo(p + margin))
    }
}

/// Today's date as OGN writes it (`2026.11.22`), from the system clock (UTC).
pub fn today() -> String {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    oware_rules::ogn::date_and_time(now).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_checked() {
        let list = parse_openings("# comment\nFf\n\nFfEa # four plies\n", RuleSet::Abapa).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].game.moves().len(), 4);
        let list = parse_openings("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a\n", RuleSet::Abapa).unwrap();
        assert_eq!(list[0].game.moves().len(), 1);
        assert!(parse_openings("FF\n", RuleSet::Abapa).is_err());
        assert!(parse_openings("4-4-4 F\n", RuleSet::Abapa).is_err());
        assert!(parse_openings("# nothing\n", RuleSet::Abapa).is_err());
        assert_eq!(default_openings(RuleSet::Abapa).len(), 36);
        assert_eq!(default_openings(RuleSet::Awari).len(), 36);
    }

    #[test]
    fn elo_from_the_tally() {
        let even = MatchScore {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (p, elo, low, high) = even.elo();
        assert_eq!(p, 0.5);
        assert!(elo.abs() < 1e-9);
        assert!(low < 0.0 && high > 0.0);
        let strong = MatchScore {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (_, elo, low, _) = strong.elo();
        assert!((elo - 190.8).abs() < 1.0, "{elo}");
        assert!(low > 0.0);
    }

    #[test]
    fn a_match_between_levels_swaps_sides_and_keeps_the_tally() {
        let openings = default_openings(RuleSet::Abapa);
        let options = oware_engine::EngineOptions {
            hash_mb: 1,
            ..oware_engine::EngineOptions::default()
        };
        let mut strong = LevelPlayer::new(3, options.clone(), 1);
        let mut weak = LevelPlayer::new(1, options, 2);
        let reports: Vec<GameReport> = Match::new(
            &mut strong,
            &mut weak,
            &openings[1..2],
            2,
            Pace::MoveTime(10_000),
        )
        .map(Result::unwrap)
        .collect();
        assert_eq!(reports.len(), 2);
        let tag = |i: usize, name: &str| reports[i].record.tag(name).map(str::to_string);
        assert_eq!(tag(0, "South").as_deref(), Some("level 3"));
        assert_eq!(tag(1, "South").as_deref(), Some("level 1"));
        assert_eq!(tag(1, "Round").as_deref(), Some("2"));
        // Both games start from the opening (A b).
        for report in &reports {
            assert_eq!(&report.played.game.moves()[..2], openings[1].game.moves());
            assert!(report.played.game.is_over(), "{}", report.played.reason);
        }
        let tally = reports[1].tally;
        assert_eq!(tally.games(), 2);
        let first_points: u32 = reports
            .iter()
            .map(|r| match (r.played.outcome, r.first_is_south) {
                (Outcome::SouthWins, true) | (Outcome::NorthWins, false) => 2,
                (Outcome::Draw, _) => 1,
                _ => 0,
            })
            .sum();
        assert_eq!(2 * tally.wins + tally.draws, first_points);
    }

    #[test]
    fn dates_are_civil() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
