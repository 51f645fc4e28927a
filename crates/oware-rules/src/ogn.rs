//! OGN game records: the PGN-like format of existing oware programs.
//!
//! ```text
//! [Variant "abapa"]
//! [Event "Casual game"]
//! [Site "?"]
//! [Date "2026.11.22"]
//! [Round "-"]
//! [South "Ama"]
//! [North "Kofi"]
//! [Result "*"]
//!
//! 1. F f 2. E a {a quiet start} 3. D b+2 *
//! ```
//!
//! Tags come first, one per line; `FEN` (a position string) is optional and gives the start position.
//! Moves are numbered per pair (`1. F f`; a game that starts with North to move begins `1... f`), a
//! capture may be annotated `+N` (checked against the real capture), `{comments}` may follow any move
//! or stand before the first, and the move text ends with the result: `1-0` (South won), `0-1`,
//! `1/2-1/2` or `*` (unfinished).
//!
//! [`Record`]'s `Display` writes the canonical form; parsing that form gives the same record back,
//! and writing it again gives the same text.
//!
//! ```
//! use oware_rules::ogn::Record;
//! let text = "[Variant \"abapa\"]\n\n1. F f 2. E a *\n";
//! let record: Record = text.parse().unwrap();
//! assert_eq!(record.moves.len(), 4);
//! let game = record.game().unwrap();
//! assert_eq!(game.ply_count(), 4);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::game::{Game, ReplayError};
use crate::position::Position;
pub use crate::text::Outcome;
use crate::text::{move_number, move_word, scan, GameTextError, GameTextErrorKind, ItemKind};

use crate::types::{Move, RuleSet, Side};

/// The tags every record carries, in the order they are written.
pub const ROSTER: [&str; 8] = [
    "Variant", "Event", "Site", "Date", "Round", "South", "North", "Result",
];

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// A game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// All tags in the order written, the roster first. `Variant`, `FEN` and `Result` are kept in
    /// step with [`Record::rules`], [`Record::start`] and [`Record::outcome`] by the writer.
    pub tags: Vec<(String, String)>,
    /// The rule set, as the `Variant` tag names it.
    pub rules: RuleSet,
    /// The start position, from the `FEN` tag or the rule set's usual one.
    pub start: Position,
    /// Whether the start position is given by a `FEN` tag (written even when it is the usual start).
    pub has_fen: bool,
    /// The moves, in order.
    pub moves: Vec<Move>,
    /// Comments, each with the number of moves played before it (0 = before the first move).
    pub comments: Vec<(usize, String)>,
    /// How the game stands, as the `Result` tag and the move text's last token say.
    pub outcome: Outcome,
}

/// What is wrong with a record, and on which line: the errors of the general reader, which
/// also has the kinds only the strict reader finds (a tag given twice, a move number out of
/// sequence).
pub type OgnError = GameTextError;

impl Record {
    /// A record of `game` with the roster tags set to `?` (and `Variant`, `Result` filled in).
    pub fn from_game(game: &Game) -> Record {
        let has_fen = *game.start() != Position::start();
        let mut record = Record {
            tags: Vec::new(),
            rules: game.rules(),
            start: *game.start(),
            has_fen,
            moves: game.moves().to_vec(),
            comments: Vec::new(),
            outcome: Outcome::of_game(game),
        };
        for name in ROSTER {
            record.tags.push((name.to_string(), "?".to_string()));
        }
        record.sync_tags();
        record
    }

    /// The value of a tag, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, keeping its place if it exists, else adding it at the end.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// Replays the moves. Records built by parsing are already known to replay.
    pub fn game(&self) -> Result<Game, ReplayError> {
        Game::replay(self.start, self.rules, &self.moves)
    }

    /// Brings `Variant`, `FEN` and `Result` in line with the fields.
    fn sync_tags(&mut self) {
        self.set_tag("Variant", self.rules.name());
        self.set_tag("Result", self.outcome.token());
        if self.has_fen {
            self.set_tag("FEN", self.start.to_string());
        } else {
            self.tags.retain(|(n, _)| n != "FEN");
        }
    }
}

/// The UTC date as the `Date` tag writes it (`2026.11.26`) and the time as the `Time` tag does
/// (`21:57:03`), of a moment given in seconds since the Unix epoch.
pub fn date_and_time(seconds: u64) -> (String, String) {
    let days = (seconds / 86_400) as i64;
    let of_day = seconds % 86_400;
    // Days to a civil date in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        format!("{year:04}.{month:02}.{day:02}"),
        format!(
            "{:02}:{:02}:{:02}",
            of_day / 3600,
            of_day % 3600 / 60,
            of_day % 60
        ),
    )
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl fmt::Display for Record {
    /// The canonical text: tags, a blank line, the move text wrapped at 79 columns, a final newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut record = self.clone();
        record.sync_tags();
        for (name, value) in &record.tags {
            writeln!(f, "[{name} \"{}\"]", escape(value))?;
        }
        writeln!(f)?;
        let mut words: Vec<String> = Vec::new();
        let comment_at = |ply: usize| {
            self.comments
                .iter()
                .filter(move |(at, _)| *at == ply)
                .map(|(_, c)| format!("{{{c}}}"))
        };
        words.extend(comment_at(0));
        let game = self.game().ok();
        let mut side = self.start.side_to_move();
        for (ply, mv) in self.moves.iter().enumerate() {
            let number = moves_number(self.start.side_to_move(), ply);
            let captured = game.as_ref().map_or(0, |g| g.captures()[ply]);
            let played = if captured > 0 {
                format!("{mv}+{captured}")
            } else {
                mv.to_string()
            };
            // A move number stays on the line of its move: the wrapping below breaks only
            // between words, and the number and the move are one.
            words.push(if side == Side::South {
                format!("{number}. {played}")
            } else if ply == 0 {
                format!("{number}... {played}")
            } else {
                played
            });
            words.extend(comment_at(ply + 1));
            side = side.opponent();
        }
        words.push(self.outcome.token().to_string());
        let mut line_len = 0;
        for word in words {
            if line_len > 0 && line_len + 1 + word.len() > 79 {
                writeln!(f)?;
                line_len = 0;
            }
            if line_len > 0 {
                f.write_str(" ")?;
                line_len += 1;
            }
            f.write_str(&word)?;
            line_len += word.len();
        }
        writeln!(f)
    }
}

/// The move-pair number of `ply` in a game whose first mover is `first`.
fn moves_number(first: Side, ply: usize) -> usize {
    let offset = if first == Side::North { 1 } else { 0 };
    (ply + offset) / 2 + 1
}

impl FromStr for Record {
    type Err = OgnError;

    /// Reads a record strictly: quoted tags before the move text, each once; move numbers in
    /// sequence; one move a word; `+N` annotations and the result checked against the moves.
    /// ([`crate::GameText`] reads the same text, and looser forms, without these checks.)
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |line: usize, kind| GameTextError { line, kind };
        let items = scan(text)?;
        let mut tags: Vec<(String, String)> = Vec::new();
        let mut tag_lines: Vec<usize> = Vec::new();
        let mut body_at = items.len();
        for (i, item) in items.iter().enumerate() {
            let ItemKind::Tag {
                name,
                value,
                quoted,
                raw,
            } = &item.kind
            else {
                body_at = i;
                break;
            };
            if !quoted {
                return Err(err(item.line, GameTextErrorKind::BadTag(raw.to_string())));
            }
            if tags.iter().any(|(n, _)| n == name) {
                return Err(err(
                    item.line,
                    GameTextErrorKind::DuplicateTag(name.to_string()),
                ));
            }
            tags.push((name.to_string(), value.clone()));
            tag_lines.push(item.line);
        }
        let find = |name: &str| {
            let at = tags.iter().position(|(n, _)| n == name)?;
            Some((tags[at].1.clone(), tag_lines[at]))
        };
        let rules = match find("Variant") {
            None => RuleSet::Abapa,
            Some((v, line)) => v
                .parse()
                .map_err(|e| err(line, GameTextErrorKind::UnknownRules(e)))?,
        };
        let (start, has_fen) = match find("FEN") {
            None => (Position::start(), false),
            Some((v, line)) => (
                v.parse()
                    .map_err(|e| err(line, GameTextErrorKind::BadPosition(e)))?,
                true,
            ),
        };

        let mut game = Game::from_position(start, rules);
        let mut comments = Vec::new();
        let mut outcome: Option<Outcome> = None;
        for item in &items[body_at..] {
            let line = item.line;
            let word = match &item.kind {
                ItemKind::Comment(text) => {
                    comments.push((game.ply_count(), text.clone()));
                    continue;
                }
                ItemKind::Tag { raw, .. } => {
                    return Err(err(line, GameTextErrorKind::BadWord(raw.to_string())))
                }
                ItemKind::Word(word) => *word,
            };
            if let Some(o) = outcome {
                return Err(err(
                    line,
                    GameTextErrorKind::TextAfterResult(format!("{word} after {o}")),
                ));
            }
            if let Some(o) = Outcome::from_token(word) {
                outcome = Some(o);
                continue;
            }
            // A move number: `12.` before South's move, `12...` before North's (first move only,
            // or after a comment).
            if move_number(word).is_some() {
                let expected = moves_number(start.side_to_move(), game.ply_count());
                let dots = match game.position().side_to_move() {
                    Side::South => ".",
                    Side::North => "...",
                };
                let expected = format!("{expected}{dots}");
                if word != expected {
                    return Err(err(
                        line,
                        GameTextErrorKind::MoveNumber {
                            expected,
                            found: word.to_string(),
                        },
                    ));
                }
                continue;
            }
            let (mv, written) = match move_word(word) {
                Some((moves, written)) if moves.len() == 1 => (moves[0], written),
                _ => return Err(err(line, GameTextErrorKind::BadWord(word.to_string()))),
            };
            let ply = game.ply_count();
            let side = game.position().side_to_move();
            let played = game.play(mv).map_err(|reason| {
                let replay = ReplayError {
                    ply,
                    side,
                    mv,
                    reason,
                };
                err(line, GameTextErrorKind::Illegal(replay))
            })?;
            if let Some(written) = written.filter(|&w| w != played.captured) {
                return Err(err(
                    line,
                    GameTextErrorKind::CaptureMismatch {
                        ply,
                        mv,
                        written,
                        actual: played.captured,
                    },
                ));
            }
        }
        let last_line = text.lines().count().max(1);
        let tag_result = find("Result");
        let outcome = match (outcome, tag_result) {
            (Some(o), Some((t, line))) if o.token() != t => {
                return Err(err(
                    line,
                    GameTextErrorKind::ResultMismatch {
                        written: t,
                        expected: o.token().to_string(),
                    },
                ))
            }
            (Some(o), _) => o,
            (None, Some((t, line))) => Outcome::from_token(&t).ok_or_else(|| {
                err(
                    line,
                    GameTextErrorKind::ResultMismatch {
                        written: t.clone(),
                        expected: "1-0, 0-1, 1/2-1/2 or *".into(),
                    },
                )
            })?,
            (None, None) => Outcome::of_game(&game),
        };
        if game.is_over() && outcome != Outcome::of_game(&game) {
            return Err(err(
                last_line,
                GameTextErrorKind::ResultMismatch {
                    written: outcome.token().to_string(),
                    expected: Outcome::of_game(&game).token().to_string(),
                },
            ));
        }
        let mut record = Record {
            tags,
            rules,
            start,
            has_fen,
            moves: game.moves().to_vec(),
            comments,
            outcome,
        };
        // Missing roster tags are added (as `?`) so that every written record carries them.
        for name in ROSTER.iter().rev() {
            if record.tag(name).is_none() {
                let at = ROSTER
                    .iter()
                    .position(|n| n == name)
                    .unwrap()
                    .min(record.tags.len());
                record.tags.insert(at, (name.to_string(), "?".to_string()));
            }
        }
        record.sync_tags();
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "[Variant \"abapa\"]
[Event \"Club night\"]
[Site \"Barcelona\"]
[Date \"2026.11.22\"]
[Round \"1\"]
[South \"Ama \\\"the quick\\\"\"]
[North \"Kofi\"]
[Result \"*\"]
[Annotator \"nobody\"]

{opening} 1. F f 2. E a {a quiet start} 3. D b *
";

    #[test]
    fn canonical_text_round_trips_exactly() {
        let record: Record = SAMPLE.parse().unwrap();
        assert_eq!(record.tag("South"), Some("Ama \"the quick\""));
        assert_eq!(
            record.comments,
            vec![(0, "opening".to_string()), (4, "a quiet start".to_string())]
        );
        assert_eq!(record.to_string(), SAMPLE);
        let again: Record = record.to_string().parse().unwrap();
        assert_eq!(again, record);
    }

    #[test]
    fn captures_are_annotated_and_checked() {
        // From a master game: the 19th move (j) captures.
        let letters =
            "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";
        let moves = crate::parse_move_letters(letters).unwrap();
        let game = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
        let text = Record::from_game(&game).to_string();
        assert!(text.contains('+'), "{text}");
        let back: Record = text.parse().unwrap();
        assert_eq!(back.moves, moves);
        // A wrong annotation is an error naming the ply.
        let ply = game.captures().iter().position(|&c| c > 0).unwrap();
        let actual = game.captures()[ply];
        let wrong = text.replacen(
            &format!("{}+{actual}", moves[ply]),
            &format!("{}+{}", moves[ply], actual + 1),
            1,
        );
        let e = wrong.parse::<Record>().unwrap_err();
        assert!(
            matches!(e.kind, GameTextErrorKind::CaptureMismatch { .. }),
            "{e}"
        );
        assert!(e.to_string().contains(&format!("ply {}", ply + 1)), "{e}");
    }

    #[test]
    fn a_move_number_never_ends_a_line() {
        let moves = crate::parse_move_letters(
            "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdFfBeBcDaAbCcDbAcCaDcBeAb",
        )
        .unwrap();
        let game = Game::replay_until_illegal(Position::start(), RuleSet::Abapa, &moves).0;
        let text = Record::from_game(&game).to_string();
        let moves_text: Vec<&str> = text.lines().skip_while(|l| !l.is_empty()).skip(1).collect();
        assert!(moves_text.len() > 1, "the record wraps: {text}");
        for line in &moves_text {
            assert!(line.len() <= 79, "{line}");
            let last = line.split(' ').next_back().unwrap();
            assert!(!last.ends_with('.'), "a number left at the end of {line:?}");
        }
        let back: Record = text.parse().unwrap();
        assert_eq!(back.game().unwrap(), game);
    }

    #[test]
    fn north_first_and_fen() {
        let start: Position = "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N".parse().unwrap();
        let mut game = Game::from_position(start, RuleSet::Awari);
        game.play(Move::from_letter('f').unwrap()).unwrap();
        game.play(Move::from_letter('E').unwrap()).unwrap();
        let text = Record::from_game(&game).to_string();
        assert!(
            text.contains("[FEN \"4-4-4-4-4-0-5-5-5-5-4-4-0-0-N\"]"),
            "{text}"
        );
        assert!(text.contains("[Variant \"awari\"]"));
        assert!(text.contains("1... f 2. E *"), "{text}");
        let back: Record = text.parse().unwrap();
        assert_eq!(back.game().unwrap(), game);
        assert_eq!(back.to_string(), text);
    }

    #[test]
    fn errors_name_the_line_and_never_panic() {
        let cases: [(&str, usize); 9] = [
            ("[Variant abapa]\n\n1. F *", 1),
            ("[Variant \"kalah\"]\n\n1. F *", 1),
            ("[Variant \"abapa\"]\n[FEN \"1-2-3\"]\n\n1. F *", 2),
            ("[Variant \"abapa\"]\n\n1. F f\n2. Q *", 4),
            ("\n1. F F *", 2),
            ("1. F f 3. E *", 1),
            ("1. F f {never closed\n2. E", 1),
            ("1. F f * 2. E", 1),
            ("[Result \"1-0\"]\n\n1. F f *", 1),
        ];
        for (text, line) in cases {
            let e = text.parse::<Record>().unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
        // Junk of every kind: an error or a record, never a panic.
        for text in [
            "",
            "[",
            "]",
            "[A \"\\",
            "{",
            "}",
            "1...",
            "+",
            "F+",
            "F+999",
            "[A \"b\"] c",
        ] {
            let _ = text.parse::<Record>();
            // The general reader too (it shares the scanner).
            if let Ok(read) = crate::GameText::parse(text) {
                let _ = read.game(RuleSet::Abapa);
            }
        }
    }

    #[test]
    fn a_finished_game_must_have_its_real_result() {
        let start: Position = "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S".parse().unwrap();
        let text = format!("[FEN \"{start}\"]\n\n1. F+2 0-1\n");
        let e = text.parse::<Record>().unwrap_err();
        assert!(
            matches!(e.kind, GameTextErrorKind::ResultMismatch { .. }),
            "{e}"
        );
        let ok: Record = format!("[FEN \"{start}\"]\n\n1. F+2 1-0\n")
            .parse()
            .unwrap();
        assert_eq!(ok.outcome, Outcome::SouthWins);
    }

    #[test]
    fn long_games_wrap_and_round_trip() {
        let suite = include_str!("../tests/data/master_games.suite");
        for line in suite.lines().filter(|l| !l.trim().is_empty()) {
            let line: crate::GameLine = line.parse().unwrap();
            // Several of these games were played on after a store passed 24; the record stops
            // where the rules end the game.
            let mut game = Game::from_position(line.start, RuleSet::Abapa);
            for mv in line.moves {
                if game.is_over() {
                    break;
                }
                game.play(mv).unwrap();
            }
            let text = Record::from_game(&game).to_string();
            assert!(text.lines().all(|l| l.len() <= 79));
            let back: Record = text.parse().unwrap();
            assert_eq!(back.game().unwrap(), game);
            assert_eq!(back.to_string(), text);
        }
    }

    #[test]
    fn dates_and_times_are_civil_and_in_utc() {
        assert_eq!(date_and_time(0), ("1970.01.01".into(), "00:00:00".into()));
        // 2000-02-29 12:34:56 UTC, a leap day.
        assert_eq!(
            date_and_time(951_827_696),
            ("2000.02.29".into(), "12:34:56".into())
        );
        assert_eq!(
            date_and_time(1_795_000_000),
            ("2026.11.18".into(), "11:06:40".into())
        );
    }
}
