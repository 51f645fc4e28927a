//! A game written as text, in any of the forms people paste and programs write: an OGN record
//! (tags, numbered moves, `{comments}`, a result), a position string, a move list (`FfEa` or
//! `F f E a`), a position followed by moves, or the engine protocol's `startpos moves FfEa` and
//! `fen <position> moves …`. [`GameText::parse`] reads all of them; [`GameText::game`] plays the
//! moves. The strict reader of OGN records ([`crate::ogn::Record`]) shares the scanner of this
//! module, so tags, comments and move words are read one way everywhere.
//!
//! ```
//! use oware_rules::{GameText, RuleSet};
//! let text = GameText::parse("[Variant \"awari\"]\n\n1. F f {quiet} 2. E a *")?;
//! assert_eq!(text.rules, Some(RuleSet::Awari));
//! assert_eq!(text.moves.len(), 4);
//! let game = text.game(RuleSet::Abapa)?;
//! assert_eq!(game.rules(), RuleSet::Awari);
//!
//! let text = GameText::parse("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N fEa")?;
//! assert_eq!(text.game(RuleSet::Abapa)?.ply_count(), 3);
//!
//! let e = GameText::parse("FfEa\nFF").unwrap().game(RuleSet::Abapa).unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "line 2: ply 6 (North's move F) is illegal: that house belongs to the other player"
//! );
//! # Ok::<(), oware_rules::GameTextError>(())
//! ```

use std::fmt;

use crate::game::{Ending, Game, ReplayError};
use crate::position::{Position, PositionError};
use crate::types::{quoted, Move, RuleSet, UnknownRuleSet};

/// One thing read from a game's text, with the 1-based line it is on (where it starts).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Item<'a> {
    pub line: usize,
    pub kind: ItemKind<'a>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ItemKind<'a> {
    /// A tag line. `quoted` when written `[Name "value"]` (escapes `\"` and `\\` undone), not when
    /// written `[Name value]`; `raw` is the whole line.
    Tag {
        name: &'a str,
        value: String,
        quoted: bool,
        raw: &'a str,
    },
    /// The text between `{` and `}`, which may span lines.
    Comment(String),
    /// A word: anything between whitespace, `{` and the ends of lines.
    Word(&'a str),
}

/// Splits a game's text into tag lines, comments and words. A line that begins with `[` outside a
/// comment is a tag line; it must end with `]` and hold a name.
pub(crate) fn scan(text: &str) -> Result<Vec<Item<'_>>, GameTextError> {
    let mut items = Vec::new();
    // A comment still open: where it began and its text so far.
    let mut open: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let mut rest = line;
        if open.is_none() && line.trim_start().starts_with('[') {
            let raw = line.trim();
            let (name, value, quoted) = parse_tag(raw).ok_or_else(|| GameTextError {
                line: line_no,
                kind: GameTextErrorKind::BadTag(raw.to_string()),
            })?;
            items.push(Item {
                line: line_no,
                kind: ItemKind::Tag {
                    name,
                    value,
                    quoted,
                    raw,
                },
            });
            continue;
        }
        loop {
            if let Some((start, comment)) = open.as_mut() {
                match rest.find('}') {
                    Some(close) => {
                        comment.push_str(&rest[..close]);
                        items.push(Item {
                            line: *start,
                            kind: ItemKind::Comment(std::mem::take(comment)),
                        });
                        open = None;
                        rest = &rest[close + 1..];
                    }
                    None => {
                        comment.push_str(rest);
                        comment.push('\n');
                        break;
                    }
                }
            }
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            if let Some(after) = rest.strip_prefix('{') {
                open = Some((line_no, String::new()));
                rest = after;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            items.push(Item {
                line: line_no,
                kind: ItemKind::Word(&rest[..end]),
            });
            rest = &rest[end..];
        }
    }
    match open {
        Some((line, _)) => Err(GameTextError {
            line,
            kind: GameTextErrorKind::UnclosedComment,
        }),
        None => Ok(items),
    }
}

/// Splits a tag line into its name and value: `[Name "value"]` (quoted, with `\"` and `\\`
/// escapes), or else `[Name value]`.
fn parse_tag(line: &str) -> Option<(&str, String, bool)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let rest = rest.trim();
    Some(match quoted_value(rest) {
        Some(value) => (name, value, true),
        None => (name, rest.to_string(), false),
    })
}

/// The value of `"…"` with its escapes undone, or `None` when `text` is not one quoted string.
fn quoted_value(text: &str) -> Option<String> {
    let quoted = text.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some(value)
}

/// A move number, `12.` before South's move or `12...` before North's: the number and whether it
/// announces North's move.
pub(crate) fn move_number(word: &str) -> Option<(usize, bool)> {
    let (digits, north) = match word.strip_suffix("...") {
        Some(d) => (d, true),
        None => (word.strip_suffix('.')?, false),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, north))
}

/// A move word: one or more move letters, optionally followed by `+N`, the seeds the last of them
/// captures. `None` when the word is not of that form.
pub(crate) fn move_word(word: &str) -> Option<(Vec<Move>, Option<u8>)> {
    let (letters, capture) = match word.split_once('+') {
        Some((letters, n)) => {
            let all_digits = !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
            (letters, Some(n.parse::<u8>().ok().filter(|_| all_digits)?))
        }
        None => (word, None),
    };
    if letters.is_empty() {
        return None;
    }
    let moves = letters
        .chars()
        .map(Move::from_letter)
        .collect::<Option<Vec<Move>>>()?;
    Some((moves, capture))
}

/// A final score written in seeds, `25-23` or `23.5-24.5`, as some programs end their move text.
fn is_score(word: &str) -> bool {
    let number = |s: &str| {
        let (whole, half) = s.split_once('.').unwrap_or((s, ""));
        !whole.is_empty()
            && whole.len() <= 2
            && whole.bytes().all(|b| b.is_ascii_digit())
            && (half.is_empty() || half == "5")
    };
    word.split_once('-')
        .is_some_and(|(a, b)| number(a) && number(b))
}

/// A game read from text: what the text says, before the moves are played.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameText {
    /// The rule set named by a `Variant` (or `Rules`) tag.
    pub rules: Option<RuleSet>,
    /// The start position given by a `FEN` (or `Position`) tag or a position string before the
    /// moves.
    pub start: Option<Position>,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Every tag, in the order written, `Variant` and `FEN` included.
    pub tags: Vec<(String, String)>,
    /// Comments, each with the number of moves written before it.
    pub comments: Vec<(usize, String)>,
    /// The result that ends the move text: an OGN result (`1-0`, `0-1`, `1/2-1/2`, `*`) or a score
    /// in seeds (`25-23`), as written.
    pub result: Option<String>,
    /// For each move, the line it is on and the capture written after it (`+N`), if any.
    written: Vec<(usize, Option<u8>)>,
}

impl GameText {
    /// Reads `text` (see the module documentation). Tags are recognised by name whatever their
    /// case; move numbers are skipped without being checked (the strict OGN reader checks them);
    /// nothing but comments may follow the result.
    pub fn parse(text: &str) -> Result<GameText, GameTextError> {
        let mut out = GameText::default();
        let error = |line: usize, kind| GameTextError { line, kind };
        for item in scan(text)? {
            let line = item.line;
            let word = match item.kind {
                ItemKind::Comment(comment) => {
                    out.comments.push((out.moves.len(), comment));
                    continue;
                }
                ItemKind::Tag { name, value, .. } => {
                    match name.to_ascii_lowercase().as_str() {
                        "variant" | "rules" => {
                            let rules = value
                                .parse()
                                .map_err(|e| error(line, GameTextErrorKind::UnknownRules(e)))?;
                            out.rules = Some(rules);
                        }
                        "fen" | "position" => out.set_start(&value, line)?,
                        _ => {}
                    }
                    out.tags.push((name.to_string(), value));
                    continue;
                }
                ItemKind::Word(word) => word,
            };
            if let Some(result) = &out.result {
                return Err(error(
                    line,
                    GameTextErrorKind::TextAfterResult(format!("{word} after {result}")),
                ));
            }
            if Outcome::from_token(word).is_some() || is_score(word) {
                out.result = Some(word.to_string());
                continue;
            }
            // The engine protocol's words around a position and its moves.
            if matches!(word, "startpos" | "fen" | "moves") || move_number(word).is_some() {
                continue;
            }
            // Three or more fields between dashes (a score has two): meant as a position string.
            if word.split('-').count() >= 3 {
                out.set_start(word, line)?;
                continue;
            }
            // A move number written against its move, `12.F`.
            let after_number = word.trim_start_matches(|c: char| c.is_ascii_digit());
            let letters = match after_number.strip_prefix('.') {
                Some(rest) if after_number.len() < word.len() => rest.trim_start_matches('.'),
                _ => word,
            };
            let (moves, capture) = move_word(letters)
                .ok_or_else(|| error(line, GameTextErrorKind::BadWord(word.to_string())))?;
            let last = moves.len() - 1;
            for (i, mv) in moves.into_iter().enumerate() {
                out.moves.push(mv);
                out.written
                    .push((line, if i == last { capture } else { None }));
            }
        }
        Ok(out)
    }

    fn set_start(&mut self, text: &str, line: usize) -> Result<(), GameTextError> {
        if !self.moves.is_empty() {
            return Err(GameTextError {
                line,
                kind: GameTextErrorKind::PositionAfterMoves,
            });
        }
        let start = text.parse().map_err(|e| GameTextError {
            line,
            kind: GameTextErrorKind::BadPosition(e),
        })?;
        self.start = Some(start);
        Ok(())
    }

    /// The start position: the one written, or the usual start.
    pub fn start_or_default(&self) -> Position {
        self.start.unwrap_or_else(Position::start)
    }

    /// The game: the moves played from the start under the rules the text names (or `rules`). A
    /// move that cannot be played, a `+N` that is not the move's capture, or an OGN result that is
    /// not how the moves end the game is an error naming its line.
    pub fn game(&self, rules: RuleSet) -> Result<Game, GameTextError> {
        let mut game = Game::from_position(self.start_or_default(), self.rules.unwrap_or(rules));
        for (ply, (&mv, &(line, written))) in self.moves.iter().zip(&self.written).enumerate() {
            let side = game.position().side_to_move();
            let played = game.play(mv).map_err(|reason| GameTextError {
                line,
                kind: GameTextErrorKind::Illegal(ReplayError {
                    ply,
                    side,
                    mv,
                    reason,
                }),
            })?;
            if let Some(written) = written.filter(|&w| w != played.captured) {
                return Err(GameTextError {
                    line,
                    kind: GameTextErrorKind::CaptureMismatch {
                        ply,
                        mv,
                        written,
                        actual: played.captured,
                    },
                });
            }
        }
        let written = self.result.as_deref().and_then(Outcome::from_token);
        if let Some(written) = written.filter(|_| game.is_over()) {
            let actual = Outcome::of_game(&game);
            if written != actual {
                let line = self.written.last().map_or(1, |&(line, _)| line);
                return Err(GameTextError {
                    line,
                    kind: GameTextErrorKind::ResultMismatch {
                        written: written.token().to_string(),
                        expected: actual.token().to_string(),
                    },
                });
            }
        }
        Ok(game)
    }
}

/// What is wrong with a game's text, and on which line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTextError {
    /// 1-based line of the text.
    pub line: usize,
    /// What is wrong.
    pub kind: GameTextErrorKind,
}

/// What can be wrong with a game's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameTextErrorKind {
    /// A line that begins with `[` but is not a tag, `[Name value]` (the strict reader of records:
    /// not `[Name "value"]`).
    BadTag(String),
    /// The same tag twice (the strict reader).
    DuplicateTag(String),
    /// A move number out of sequence (the strict reader).
    MoveNumber {
        /// The number that should come next.
        expected: String,
        /// The number written.
        found: String,
    },
    /// A `{` with no closing `}`.
    UnclosedComment,
    /// A `Variant` or `Rules` tag that names neither rule set.
    UnknownRules(UnknownRuleSet),
    /// A start position that is not a valid position string.
    BadPosition(PositionError),
    /// A start position after moves.
    PositionAfterMoves,
    /// A word that is neither moves, a move number, a position nor a result (the strict reader:
    /// one move a word, no position in the move text).
    BadWord(String),
    /// A word after the result.
    TextAfterResult(String),
    /// A move that cannot be played.
    Illegal(ReplayError),
    /// A `+N` capture annotation that does not match the real capture (`ply` counts from 0).
    CaptureMismatch {
        /// The move's index in the game, from 0.
        ply: usize,
        /// The move.
        mv: Move,
        /// The capture written after it.
        written: u8,
        /// The seeds it really captures.
        actual: u8,
    },
    /// An OGN result that contradicts how the moves end the game (or, in a record, its `Result`
    /// tag).
    ResultMismatch {
        /// The result written.
        written: String,
        /// The result the moves give.
        expected: String,
    },
}

impl fmt::Display for GameTextErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameTextErrorKind::BadTag(t) => {
                write!(f, "bad tag {}: expected [Name \"value\"]", quoted(t))
            }
            GameTextErrorKind::DuplicateTag(t) => write!(f, "tag {} given twice", quoted(t)),
            GameTextErrorKind::MoveNumber { expected, found } => write!(
                f,
                "move number {} out of sequence, expected {expected:?}",
                quoted(found)
            ),
            GameTextErrorKind::UnclosedComment => {
                write!(f, "comment opened with '{{' is never closed")
            }
            GameTextErrorKind::UnknownRules(e) => e.fmt(f),
            GameTextErrorKind::BadPosition(e) => write!(f, "bad start position: {e}"),
            GameTextErrorKind::PositionAfterMoves => {
                write!(f, "the start position must come before the moves")
            }
            GameTextErrorKind::BadWord(w) => write!(
                f,
                "{} is not a move, a move number, a position or a result: moves are the \
                 letters A-F and a-f",
                quoted(w)
            ),
            GameTextErrorKind::TextAfterResult(t) => {
                write!(f, "text after the result: {}", quoted(t))
            }
            GameTextErrorKind::Illegal(e) => e.fmt(f),
            GameTextErrorKind::CaptureMismatch {
                ply,
                mv,
                written,
                actual,
            } => write!(
                f,
                "ply {} ({mv}): written as capturing {written}, but it captures {actual}",
                ply + 1
            ),
            GameTextErrorKind::ResultMismatch { written, expected } => {
                write!(f, "result {} does not match {expected:?}", quoted(written))
            }
        }
    }
}

impl fmt::Display for GameTextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

impl std::error::Error for GameTextError {}

/// How a game stands: the token that ends the move text and the value of the `Result` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Outcome {
    /// South won: `1-0`.
    SouthWins,
    /// North won: `0-1`.
    NorthWins,
    /// A draw: `1/2-1/2`.
    Draw,
    /// The game goes on, or its end is not given: `*`.
    #[default]
    Unfinished,
}

impl Outcome {
    /// The token that writes the outcome (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub const fn token(self) -> &'static str {
        match self {
            Outcome::SouthWins => "1-0",
            Outcome::NorthWins => "0-1",
            Outcome::Draw => "1/2-1/2",
            Outcome::Unfinished => "*",
        }
    }

    /// Reads what [`Outcome::token`] writes; `None` for anything else.
    pub fn from_token(token: &str) -> Option<Outcome> {
        [
            Outcome::SouthWins,
            Outcome::NorthWins,
            Outcome::Draw,
            Outcome::Unfinished,
        ]
        .into_iter()
        .find(|o| o.token() == token)
    }

    /// The outcome of a finished game, or `Unfinished`.
    pub fn of_game(game: &Game) -> Outcome {
        game.end()
            .map_or(Outcome::Unfinished, |end| Ending::Rules(end).outcome())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{format_move_letters, Side};

    fn letters(text: &str) -> String {
        format_move_letters(&GameText::parse(text).unwrap().moves)
    }

    #[test]
    fn every_form_of_a_game_reads_the_same_moves() {
        for text in [
            "FfEa",
            "F f E a",
            "Ff\nEa",
            "1. F f 2. E a",
            "1.F f 2.E a *",
            "{opening} 1. F f {a comment} 2. E a 0-0",
            "startpos moves FfEa",
            "[Variant \"abapa\"]\n[South \"Ama\"]\n\n1. F f 2. E a *\n",
        ] {
            assert_eq!(letters(text), "FfEa", "{text:?}");
        }
    }

    #[test]
    fn positions_tags_and_comments_are_kept() {
        let north_first = "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N";
        for text in [
            format!("{north_first} fEa"),
            format!("fen {north_first} moves f E a"),
            format!("[FEN \"{north_first}\"]\n[rules awari]\n\n1... f 2. E a"),
        ] {
            let read = GameText::parse(&text).unwrap();
            assert_eq!(read.start, Some(north_first.parse().unwrap()), "{text}");
            assert_eq!(format_move_letters(&read.moves), "fEa");
            assert_eq!(read.start_or_default().side_to_move(), Side::North);
        }
        let read =
            GameText::parse("[Rules \"awari\"]\n{first} F {second\nline} f 1/2-1/2").unwrap();
        assert_eq!(read.rules, Some(RuleSet::Awari));
        assert_eq!(read.tags, vec![("Rules".to_string(), "awari".to_string())]);
        assert_eq!(
            read.comments,
            vec![(0, "first".to_string()), (1, "second\nline".to_string())]
        );
        assert_eq!(read.result.as_deref(), Some("1/2-1/2"));
    }

    #[test]
    fn errors_quote_a_short_prefix_of_a_long_input() {
        for text in [
            format!("[Event {}", "x".repeat(100_000)),
            format!("F f {}", "Q".repeat(100_000)),
            format!("F f * {}", "E".repeat(100_000)),
            format!("4-4-4-4-4-4-4-4-4-4-4-{}-0-0-S", "9".repeat(100_000)),
        ] {
            let e = GameText::parse(&text).unwrap_err().to_string();
            assert!(e.len() < 200, "{} bytes: {e}", e.len());
            assert!(e.contains("bytes)"), "{e}");
        }
    }

    #[test]
    fn errors_name_the_line_and_what_is_wrong() {
        let cases: [(&str, usize, &str); 10] = [
            ("[Variant \"kalah\"]\nF", 1, "unknown rule set"),
            ("[FEN \"1-2-3\"]", 1, "bad start position"),
            ("F f\nE Q", 2, "\"Q\" is not a move"),
            ("F 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S", 1, "before the moves"),
            ("F\n{never closed\nf", 2, "never closed"),
            ("F f * E", 1, "after the result"),
            ("[Variant abapa", 1, "bad tag"),
            ("F+x", 1, "\"F+x\""),
            ("4-4-4-4-4-4-4-4-4-4-4-x-0-0-S", 1, "house 11 (f)"),
            ("1-2-3", 1, "15 fields"),
        ];
        for (text, line, what) in cases {
            let e = GameText::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(what), "{text:?}: {e}");
        }
        // Errors in play name the move's line.
        let cases: [(&str, usize, &str); 3] = [
            (
                "F f\nE a\nE",
                3,
                "ply 5 (South's move E) is illegal: that house is empty",
            ),
            (
                "1. F f 2. E+1 a",
                1,
                "written as capturing 1, but it captures 0",
            ),
            (
                "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S\nF+2 0-1",
                2,
                "result \"0-1\" does not match \"1-0\"",
            ),
        ];
        for (text, line, what) in cases {
            let e = GameText::parse(text)
                .unwrap()
                .game(RuleSet::Abapa)
                .unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn scanning_keeps_tags_comments_and_words_apart() {
        let items = scan("[Event \"a \\\"b\\\"\"]\n{x\ny} 1.{z}F").unwrap();
        let kinds: Vec<_> = items.into_iter().map(|i| (i.line, i.kind)).collect();
        assert_eq!(
            kinds,
            vec![
                (
                    1,
                    ItemKind::Tag {
                        name: "Event",
                        value: "a \"b\"".to_string(),
                        quoted: true,
                        raw: "[Event \"a \\\"b\\\"\"]",
                    }
                ),
                (2, ItemKind::Comment("x\ny".to_string())),
                (3, ItemKind::Word("1.")),
                (3, ItemKind::Comment("z".to_string())),
                (3, ItemKind::Word("F")),
            ]
        );
    }
}
