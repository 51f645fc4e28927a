//! Puzzles: positions where exactly one move wins material or the game, each tagged with the idea
//! it teaches, read from the set kept in the repository (`crates/oware-coach/data/puzzles.txt`,
//! made by `cargo run --release -p oware-coach --example make_puzzles`; docs/puzzles.md says how).
//!
//! The file (format 2) holds one puzzle a line, nine fields separated by spaces:
//!
//! ```text
//! # position rules solution goal theme source verified score line
//! 0-1-3-2-1-3-1-0-0-3-4-2-8-20-N abapa f gain capture master:2:55 depth:24 412 fEbAeFa
//! ```
//!
//! `goal` says what the solver is asked: `win` (the solution wins the game by force and no other
//! move does) or `gain` (the solution wins seeds: more than any other move);
//! `source` says where the position comes from (`master:GAME:PLY`: the GAME-th game of
//! `master_games.suite`, after PLY plies; `selfplay:GAME:PLY`: the engine's self-play) and
//! `verified` how the solution was checked (`depth:N`: every legal move searched to N plies;
//! `+egtbK`: the abapa endgame databases of up to K seeds hold the position and agree;
//! `+depth:M/egtbK`: a search to M plies probing those databases agrees);
//! `score` is the solution's value in that search (centiseeds for the side to move, decided games
//! beyond ±29 000 as the engine writes them) and `line` the engine's line, the solution first.
//!
//! ```
//! use oware_coach::puzzle::{self, Theme};
//! let all = puzzle::all();
//! assert!(all.len() >= 200);
//! let first = &all[0];
//! assert!(first.game().check_move(first.solution).is_ok());
//! assert!(puzzle::with_theme(Theme::DoubleAttack).all(|p| p.theme == Theme::DoubleAttack));
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use oware_rules::{Game, Move, Position, RuleSet};

use oware_egtb::Tablebase;

use crate::detect;
use crate::engine::{decided_in, loss, ScoredMove};
use crate::explain::{explain, facts, render_line, render_score, Fact};
use crate::messages::{self as msg, Lang};

/// The puzzle set kept in the repository.
const SET: &str = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/data/puzzles.txt"));

/// The idea a puzzle teaches, found by the coach's detectors in the position and the solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// A move that attacks two or more houses at once: the opponent cannot save them all.
    DoubleAttack,
    /// A kroo (a house of 12 or more seeds) laps the board and captures, or is overloaded.
    Kroo,
    /// The feeding rules decide: an empty row must be fed, or a move empties one's own row.
    Feeding,
    /// A move would take the opponent's whole row, which captures nothing under abapa.
    GrandSlam,
    /// The opponent is left with few moves, or a waiting move keeps the seeds at home.
    Tempo,
    /// A capture that takes the most.
    Capture,
    /// A quiet move that prepares a capture.
    Quiet,
}

impl Theme {
    /// Every theme, in the order the puzzle pages list them.
    pub const ALL: [Theme; 7] = [
        Theme::Capture,
        Theme::DoubleAttack,
        Theme::Kroo,
        Theme::Feeding,
        Theme::GrandSlam,
        Theme::Tempo,
        Theme::Quiet,
    ];

    /// The name in the data file, on the command line and in the web app's requests.
    pub const fn code(self) -> &'static str {
        match self {
            Theme::DoubleAttack => "double-attack",
            Theme::Kroo => "kroo",
            Theme::Feeding => "feeding",
            Theme::GrandSlam => "grand-slam",
            Theme::Tempo => "tempo",
            Theme::Capture => "capture",
            Theme::Quiet => "quiet",
        }
    }

    /// The theme's name in words.
    pub fn name(self, lang: Lang) -> String {
        msg::format(lang, &format!("puzzle.theme.{}", self.code()), &[])
    }

    /// What to look for, without giving the move away.
    pub fn hint(self, lang: Lang) -> String {
        msg::format(lang, &format!("puzzle.hint.{}", self.code()), &[])
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A theme name that is none of [`Theme::ALL`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTheme(pub String);

impl fmt::Display for UnknownTheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Theme::ALL.iter().map(|t| t.code()).collect();
        write!(
            f,
            "unknown theme {:?}: expected one of {}",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownTheme {}

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Theme::ALL
            .into_iter()
            .find(|t| t.code().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownTheme(s.to_string()))
    }
}

/// What a puzzle asks of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Goal {
    /// Win the game: the solution wins by force, and no other move does.
    Win,
    /// Win seeds: the solution ends with more seeds than any other move (the game's result may be
    /// the same after another move).
    Gain,
}

impl Goal {
    /// Both goals.
    pub const ALL: [Goal; 2] = [Goal::Win, Goal::Gain];

    /// The name in the data file and in the web app's JSON.
    pub const fn code(self) -> &'static str {
        match self {
            Goal::Win => "win",
            Goal::Gain => "gain",
        }
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Goal {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Goal::ALL
            .into_iter()
            .find(|g| g.code() == s)
            .ok_or_else(|| s.to_string())
    }
}

/// One puzzle: the side to move plays the one move that wins.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Its number in the set, from 1.
    pub id: usize,
    /// The position, with the side to move to play.
    pub position: Position,
    /// The rule set.
    pub rules: RuleSet,
    /// The one move that wins.
    pub solution: Move,
    /// What the solution wins: the game, or seeds.
    pub goal: Goal,
    /// The idea it teaches.
    pub theme: Theme,
    /// Where the position comes from.
    pub source: String,
    /// How the solution was checked.
    pub verified: String,
    /// The solution's value, in centiseeds for the side to move (see [`crate::engine::decided_in`]).
    pub score: i32,
    /// The engine's line, the solution first.
    pub line: Vec<Move>,
}

impl Puzzle {
    /// A game from the puzzle's position (no history before it).
    pub fn game(&self) -> Game {
        Game::from_position(self.position, self.rules)
    }

    /// The puzzle as a line of the data file.
    pub fn line(&self) -> String {
        format!(
            "{} {} {} {} {} {} {} {} {}",
            self.position,
            self.rules,
            self.solution,
            self.goal,
            self.theme,
            self.source,
            self.verified,
            self.score,
            oware_rules::format_move_letters(&self.line)
        )
    }
}

/// What the coach says of an answer to a puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Feedback {
    /// The solution, with what it does.
    Right(String),
    /// A legal move that is not the solution, with what it does (the solution is not given away).
    Wrong(String),
    /// A move that cannot be played in the position.
    Illegal(String),
}

impl Feedback {
    /// The words.
    pub fn text(&self) -> &str {
        match self {
            Feedback::Right(t) | Feedback::Wrong(t) | Feedback::Illegal(t) => t,
        }
    }

    /// Whether the answer was the solution.
    pub fn is_right(&self) -> bool {
        matches!(self, Feedback::Right(_))
    }
}

impl Puzzle {
    /// The puzzle's title: its number among `total`, its theme and who is to move.
    pub fn title(&self, number: usize, total: usize, lang: Lang) -> String {
        // The heading says what the puzzle asks: a win, or seeds.
        let key = match self.goal {
            Goal::Win => "puzzle.header",
            Goal::Gain => "puzzle.headerGain",
        };
        msg::format(
            lang,
            key,
            &[
                ("n", &number.to_string()),
                ("total", &total.to_string()),
                ("theme", &self.theme.name(lang)),
                ("side", msg::side(lang, self.position.side_to_move())),
            ],
        )
    }

    /// What `mv` does in the puzzle's position, in the coach's words (from the detectors alone, so
    /// that it is the same everywhere and costs no search); `None` when it is not legal.
    pub fn why(&self, mv: Move, lang: Lang) -> Option<String> {
        explain(&self.game(), mv, &[]).map(|e| e.render_facts(lang))
    }

    /// The coach's answer to `mv`.
    pub fn answer(&self, mv: Move, lang: Lang) -> Feedback {
        let letter = mv.letter().to_string();
        match self.why(mv, lang) {
            None => Feedback::Illegal(msg::format(lang, "puzzle.illegal", &[("move", &letter)])),
            Some(why) if mv == self.solution => Feedback::Right(msg::format(
                lang,
                "puzzle.right",
                &[("why", &format!("{why} {}", self.verdict(lang)))],
            )),
            Some(why) => Feedback::Wrong(msg::format(
                lang,
                "puzzle.wrong",
                &[("move", &letter), ("why", &why)],
            )),
        }
    }

    /// The engine's verdict on the solution, from the search that verified it.
    pub fn verdict(&self, lang: Lang) -> String {
        msg::format(
            lang,
            "verdict.best",
            &[
                (
                    "score",
                    // The verifying search has no databases: a decided score's plies are its
                    // distance to the end.
                    &render_score(self.score, false, self.position.side_to_move(), lang),
                ),
                ("line", &render_line(&self.line, lang)),
            ],
        )
    }

    /// The solution given away, with what it does and the engine's verdict.
    pub fn reveal(&self, lang: Lang) -> String {
        let why = self.why(self.solution, lang).unwrap_or_default();
        let why = format!("{why} {}", self.verdict(lang));
        msg::format(
            lang,
            "puzzle.solution",
            &[("move", &self.solution.letter().to_string()), ("why", &why)],
        )
    }
}

/// What is wrong with a line of the puzzle file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PuzzleError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: PuzzleErrorKind,
}

/// The kinds of [`PuzzleError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PuzzleErrorKind {
    /// Not nine fields.
    Fields(usize),
    /// The position string is malformed.
    Position(String),
    /// Not a rule set.
    Rules(String),
    /// Not a move letter.
    Move(String),
    /// The solution is not legal in the position.
    Illegal(Move),
    /// Not a goal.
    Goal(String),
    /// Not a theme.
    Theme(UnknownTheme),
    /// The score is not a whole number.
    Score(String),
    /// The line is not move letters starting with the solution.
    Line(String),
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzle line {}: ", self.line)?;
        match &self.kind {
            PuzzleErrorKind::Fields(n) => write!(
                f,
                "expected 9 fields (position rules solution goal theme source verified score \
                 line), found {n}"
            ),
            PuzzleErrorKind::Position(e) => write!(f, "bad position: {e}"),
            PuzzleErrorKind::Rules(e) => write!(f, "bad rules: {e}"),
            PuzzleErrorKind::Move(e) => write!(f, "bad solution: {e}"),
            PuzzleErrorKind::Illegal(m) => write!(f, "the solution {m} is not legal there"),
            PuzzleErrorKind::Goal(g) => write!(f, "bad goal {g:?}: expected win or gain"),
            PuzzleErrorKind::Theme(e) => write!(f, "{e}"),
            PuzzleErrorKind::Score(s) => write!(f, "bad score {s:?}: expected centiseeds"),
            PuzzleErrorKind::Line(l) => {
                write!(
                    f,
                    "bad line {l:?}: expected move letters, the solution first"
                )
            }
        }
    }
}

impl std::error::Error for PuzzleError {}

/// Reads a puzzle file: blank lines and lines starting with `#` are skipped; ids count the puzzles
/// from 1 in the order written.
pub fn parse(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut puzzles = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |kind| PuzzleError {
            line: index + 1,
            kind,
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [position, rules, solution, goal, theme, source, verified, score, line] = fields[..]
        else {
            return Err(error(PuzzleErrorKind::Fields(fields.len())));
        };
        let position: Position = position.parse().map_err(|e: oware_rules::PositionError| {
            error(PuzzleErrorKind::Position(e.to_string()))
        })?;
        let rules: RuleSet = rules.parse().map_err(|e: oware_rules::UnknownRuleSet| {
            error(PuzzleErrorKind::Rules(e.to_string()))
        })?;
        let solution: Move = solution
            .parse()
            .map_err(|e: oware_rules::InvalidMoveLetter| {
                error(PuzzleErrorKind::Move(e.to_string()))
            })?;
        if position.check_move(solution, rules).is_some() {
            return Err(error(PuzzleErrorKind::Illegal(solution)));
        }
        let goal: Goal = goal.parse().map_err(|g| error(PuzzleErrorKind::Goal(g)))?;
        let theme: Theme = theme
            .parse()
            .map_err(|e| error(PuzzleErrorKind::Theme(e)))?;
        puzzles.push(Puzzle {
            id: puzzles.len() + 1,
            position,
            rules,
            solution,
            goal,
            theme,
            source: source.to_string(),
            verified: verified.to_string(),
            score: score
                .parse()
                .map_err(|_| error(PuzzleErrorKind::Score(score.to_string())))?,
            line: oware_rules::parse_move_letters(line)
                .ok()
                .filter(|l| l.first() == Some(&solution))
                .ok_or_else(|| error(PuzzleErrorKind::Line(line.to_string())))?,
        });
    }
    Ok(puzzles)
}

/// The puzzle set kept in the repository.
pub fn all() -> &'static [Puzzle] {
    static ALL: OnceLock<Vec<Puzzle>> = OnceLock::new();
    // The file is part of the source and a test reads it (see below): it always parses.
    ALL.get_or_init(|| parse(SET).expect("data/puzzles.txt parses"))
}

/// The puzzles of one theme, in the set's order.
pub fn with_theme(theme: Theme) -> impl Iterator<Item = &'static Puzzle> {
    all().iter().filter(move |p| p.theme == theme)
}

/// The idea the move `solution` teaches in the game's current position, from the detectors: the
/// grand slam rule when a move would take a whole row (the side to move's now, or the opponent's
/// reply after the solution), a kroo's capture or its
/// overload, the feeding rules, a double attack, tempo, a capture, or else a quiet move.
pub fn classify(game: &Game, solution: Move) -> Theme {
    let rules = game.rules();
    let pos = game.position();
    let found = facts(game, solution);
    let has = |pred: fn(&Fact) -> bool| found.iter().any(pred);
    let after = pos.play_unchecked(solution, rules).position;
    // A move of the puzzle's side that would take the whole row, or a reply of the opponent after
    // the solution that would: under abapa it takes nothing, and the puzzle turns on that rule.
    let slam = |p: &Position| detect::captures(p, rules).iter().any(|c| c.grand_slam);
    if rules == RuleSet::Abapa && (slam(pos) || slam(&after)) {
        return Theme::GrandSlam;
    }
    if has(|f| matches!(f, Fact::Captures { capture } if capture.sown >= detect::KROO_SEEDS))
        || has(|f| matches!(f, Fact::Overloads { .. }))
    {
        return Theme::Kroo;
    }
    let restricts = |p: &Position| {
        detect::feeding_rule(p, rules).is_some_and(|r| r.opponent_empty || !r.forbidden.is_empty())
    };
    if restricts(pos) || has(|f| matches!(f, Fact::ForcesFeeding)) || restricts(&after) {
        return Theme::Feeding;
    }
    if has(|f| matches!(f, Fact::DoubleAttack { .. })) {
        return Theme::DoubleAttack;
    }
    let captures = has(|f| matches!(f, Fact::Captures { .. }));
    let waiting = !captures
        && detect::tempo(pos, rules)
            .iter()
            .any(|t| t.mv == solution && t.waiting);
    if has(|f| matches!(f, Fact::Squeeze { .. })) || waiting {
        return Theme::Tempo;
    }
    if captures {
        Theme::Capture
    } else {
        Theme::Quiet
    }
}

/// Centiseeds the solution must be ahead of every other move in a search (a decided win counts as
/// 48 seeds), so that no second solution lies within one seed of it.
pub const MARGIN: i32 = 200;
/// Seeds the mover must gain net along the engine's line for a `gain` puzzle.
pub const GAIN: i32 = 2;
/// Plies of the engine's line over which the gain is counted.
pub const GAIN_PLIES: usize = 6;

/// The solution a search's `values` (best first) show, with the goal, when exactly one move is best
/// by [`MARGIN`] and it wins the game (a decided win: then no other move is one, or it would not be
/// [`MARGIN`] behind) or at least [`GAIN`] seeds net along its line.
pub fn single_winner<'a>(game: &Game, values: &'a [ScoredMove]) -> Option<(&'a ScoredMove, Goal)> {
    let [best, second, ..] = values else {
        return None;
    };
    if loss(best.score, second.score) < MARGIN {
        return None;
    }
    if decided_in(best.score).is_some_and(|p| p > 0) {
        Some((best, Goal::Win))
    } else {
        (net_gain(game, &best.line) >= GAIN).then_some((best, Goal::Gain))
    }
}

/// Seeds the mover takes minus seeds the opponent takes over the first [`GAIN_PLIES`] of `line`.
pub fn net_gain(game: &Game, line: &[Move]) -> i32 {
    let mover = game.position().side_to_move();
    let mut game = game.clone();
    let mut gain = 0;
    for &mv in line.iter().take(GAIN_PLIES) {
        let side = game.position().side_to_move();
        let Ok(outcome) = game.play(mv) else { break };
        let taken = i32::from(outcome.captured);
        gain += if side == mover { taken } else { -taken };
        if outcome.end.is_some() {
            break;
        }
    }
    gain
}

/// What the endgame databases say of a puzzle's solution (see [`check_with_databases`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DatabaseVerdict {
    /// The solution is certainly better than every other move, and the puzzle's goal: `Win` when
    /// the solution certainly wins the game, or may and a search proved it does; `Gain` otherwise.
    Holds(Goal),
    /// This other move may be as good as the solution: its upper bound reaches the solution's
    /// lower bound.
    Rival(Move),
    /// Every move certainly gives the same result (won, drawn or lost): nothing to find.
    SameResult,
    /// The solution wins the game, and this other move may win it too.
    SecondWin(Move),
    /// A search said the solution wins the game; the databases say it cannot.
    NoWin,
}

/// The game's result for the mover ending with `seeds` of the 48: -1 lost, 0 drawn, 1 won.
fn result(seeds: i32) -> i32 {
    (seeds - i32::from(oware_rules::HALF_SEEDS)).signum()
}

/// Checks `solution` in `position` with the endgame databases of `tablebase`, `claimed` being the
/// goal a search gave it: `None` when they do not hold the position (another rule set, or more seeds
/// on the board). Their values are the seeds of the board each side ends with, with no history
/// before the position: the right reading for a puzzle, which starts there. A bound that is not
/// exact counts against the puzzle.
pub fn check_with_databases(
    position: &Position,
    rules: RuleSet,
    solution: Move,
    claimed: Goal,
    tablebase: &Tablebase,
) -> Option<DatabaseVerdict> {
    if rules != tablebase.rules() {
        return None;
    }
    let values = tablebase.move_values(position)?;
    let (_, answer) = values.iter().find(|(m, _)| *m == solution)?;
    let others = || values.iter().filter(|(m, _)| *m != solution);
    if let Some((rival, _)) = others().find(|(_, v)| v.upper >= answer.lower) {
        return Some(DatabaseVerdict::Rival(*rival));
    }
    let store = i32::from(position.store(position.side_to_move()));
    let lowest = |v: &oware_egtb::ProbeValue| result(store + i32::from(v.lower));
    let highest = |v: &oware_egtb::ProbeValue| result(store + i32::from(v.upper));
    let first = lowest(answer);
    if values
        .iter()
        .all(|(_, v)| lowest(v) == first && highest(v) == first)
    {
        return Some(DatabaseVerdict::SameResult);
    }
    let wins = first == 1 || (claimed == Goal::Win && highest(answer) == 1);
    if claimed == Goal::Win && !wins {
        return Some(DatabaseVerdict::NoWin);
    }
    if !wins {
        return Some(DatabaseVerdict::Holds(Goal::Gain));
    }
    match others().find(|(_, v)| highest(v) == 1) {
        Some((second, _)) => Some(DatabaseVerdict::SecondWin(*second)),
        None => Some(DatabaseVerdict::Holds(Goal::Win)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_set_parses_and_every_solution_is_legal() {
        let all = all();
        assert!(all.len() >= 200, "{} puzzles", all.len());
        for p in all {
            assert!(p.game().check_move(p.solution).is_ok(), "{}", p.line());
            assert_eq!(parse(&p.line()).unwrap()[0].solution, p.solution);
        }
        // One position, one puzzle.
        let mut positions: Vec<_> = all
            .iter()
            .map(|p| format!("{} {}", p.position, p.rules))
            .collect();
        positions.sort();
        positions.dedup();
        assert_eq!(positions.len(), all.len());
    }

    #[test]
    fn every_theme_has_a_name_and_a_hint_in_every_language() {
        for theme in Theme::ALL {
            assert_eq!(theme.code().parse::<Theme>(), Ok(theme));
            for lang in Lang::ALL {
                assert!(!theme.name(lang).starts_with("puzzle."), "{theme} {lang}");
                assert!(!theme.hint(lang).starts_with("puzzle."), "{theme} {lang}");
            }
        }
        assert!("fork"
            .parse::<Theme>()
            .unwrap_err()
            .to_string()
            .contains("double-attack"));
    }

    #[test]
    fn bad_lines_say_what_is_wrong() {
        let start = "4-4-4-4-4-4-4-4-4-4-4-4-0-0-S";
        let cases = [
            (
                format!("{start} abapa F gain capture x y 0"),
                "expected 9 fields",
            ),
            (
                "4-4-S abapa F gain capture x y 0 F".to_string(),
                "bad position",
            ),
            (format!("{start} chess F gain capture x y 0 F"), "bad rules"),
            (
                format!("{start} abapa Z gain capture x y 0 F"),
                "bad solution",
            ),
            (format!("{start} abapa f gain capture x y 0 f"), "not legal"),
            (format!("{start} abapa F draw capture x y 0 F"), "bad goal"),
            (
                format!("{start} abapa F gain fork x y 0 F"),
                "unknown theme",
            ),
            (
                format!("{start} abapa F gain capture x y 1.5 F"),
                "bad score",
            ),
            (format!("{start} abapa F gain capture x y 0 EF"), "bad line"),
        ];
        for (line, expected) in cases {
            let text = format!("# a comment\n\n{line}\n");
            let err = parse(&text).unwrap_err();
            assert_eq!(err.line, 3, "{line}");
            assert!(err.to_string().contains(expected), "{err} for {line}");
        }
    }

    #[test]
    fn answers_in_the_coachs_words() {
        let p = &parse("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S abapa F gain capture test depth:1 512 FbA")
            .unwrap()[0];
        assert_eq!(
            p.answer("F".parse().unwrap(), Lang::En),
            Feedback::Right(
                "Right! F sows 3 seeds and takes b and c: 5 seeds. \
                 The engine's choice: +5.1; it expects F b A."
                    .into()
            )
        );
        let wrong = p.answer("D".parse().unwrap(), Lang::En);
        assert!(!wrong.is_right());
        assert!(
            wrong
                .text()
                .starts_with("Not D. D sows 4 seeds and takes b"),
            "{wrong:?}"
        );
        assert!(
            !wrong.text().contains(" F "),
            "the solution stays hidden: {wrong:?}"
        );
        assert!(matches!(
            p.answer("a".parse().unwrap(), Lang::En),
            Feedback::Illegal(_)
        ));
        assert!(p
            .answer("F".parse().unwrap(), Lang::Fr)
            .text()
            .starts_with("Bravo\u{a0}! F sème 3 graines et prend b et c\u{a0}: 5 graines. "));
        assert!(p.reveal(Lang::Ca).starts_with("La solució és F."));
        // The heading follows the goal.
        assert_eq!(p.goal, Goal::Gain);
        assert_eq!(
            p.title(1, 9, Lang::Es),
            "Problema 1 de 9 (Captura): juega Sur y gana semillas."
        );
        let win = Puzzle {
            goal: Goal::Win,
            ..p.clone()
        };
        assert_eq!(
            win.title(1, 9, Lang::Es),
            "Problema 1 de 9 (Captura): juega Sur y gana."
        );
    }

    #[test]
    fn the_set_agrees_with_the_classifier_and_its_lines() {
        for p in all() {
            assert_eq!(classify(&p.game(), p.solution), p.theme, "{}", p.line());
            assert!(
                Game::replay(p.position, p.rules, &p.line).is_ok(),
                "{}",
                p.line()
            );
        }
        // Every theme is represented.
        for theme in Theme::ALL {
            assert!(with_theme(theme).next().is_some(), "{theme}");
        }
    }

    #[test]
    fn themes_from_the_detectors() {
        let theme = |pos: &str, mv: &str| {
            let game = Game::from_position(pos.parse().unwrap(), RuleSet::Abapa);
            classify(&game, mv.parse().unwrap())
        };
        // The seeds' example: F takes b and c.
        assert_eq!(theme("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S", "F"), Theme::Capture);
        // South's E would take North's whole row: the grand slam rule decides.
        assert_eq!(
            theme("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S", "E"),
            Theme::GrandSlam
        );
        // South's A laps the board with 29 seeds and takes a and b.
        assert_eq!(theme("29-0-0-0-0-0-0-0-1-0-0-0-9-9-S", "A"), Theme::Kroo);
        // North's row is empty: South must feed it.
        assert_eq!(
            theme("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S", "F"),
            Theme::Feeding
        );
    }
}
