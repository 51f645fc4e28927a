//! Game records for download and for the analysis board: a PGN-like text with tags and numbered
//! moves (`1. F f 2. E a`), and a reader that also accepts a bare position string, a bare move
//! list (`FfEa`) or both.
//!
//! Records are written with the project's OGN module (`oware_rules::ogn`); reading tries OGN
//! first and falls back to a lenient reader for pasted positions and move lists.

use oware_rules::{Game, Move, Position, RuleSet};

/// A record or position that could not be read, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

/// What a record holds: where the game starts, under which rules, and the moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    pub start: Position,
    pub rules: RuleSet,
    pub moves: Vec<Move>,
}

/// The largest record accepted, in bytes.
pub const MAX_RECORD: usize = 64 * 1024;

/// Writes a game as an OGN record (`oware_rules::ogn`), with the players' names and, for a
/// finished game, the reason it ended and the score in seeds; `ended` says how a game the rules
/// have not ended did end (a resignation), as a comment after its last move.
pub fn write_record(game: &Game, south: &str, north: &str, ended: Option<String>) -> String {
    let clean = |name: &str| name.replace(['"', '\\', '\n', '\r'], " ");
    let mut record = oware_rules::ogn::Record::from_game(game);
    if let Some(how) = ended {
        record
            .comments
            .push((game.moves().len(), how.replace(['{', '}'], " ")));
    }
    record.set_tag("South", clean(south));
    record.set_tag("North", clean(north));
    if let Some(end) = game.end() {
        record.set_tag("Termination", end.reason.word());
        record.set_tag("Score", end.score.to_string());
    }
    record.to_string()
}

/// Reads an OGN record, or (more leniently) a position string, a move list, or a position
/// followed by moves. A record whose moves do not all replay goes to the lenient reader, so the
/// analysis board can show the game up to the bad move and say what is wrong with it.
pub fn read_record(text: &str, default_rules: RuleSet) -> Result<Record, RecordError> {
    if text.len() > MAX_RECORD {
        return Err(RecordError(format!(
            "the text is too long ({} bytes, at most {MAX_RECORD})",
            text.len()
        )));
    }
    if text.trim_start().starts_with('[') {
        if let Ok(ogn) = text.parse::<oware_rules::ogn::Record>() {
            return Ok(Record {
                start: ogn.start,
                rules: ogn.rules,
                moves: ogn.moves,
            });
        }
    }
    lenient_read(text, default_rules)
}

fn lenient_read(text: &str, default_rules: RuleSet) -> Result<Record, RecordError> {
    let mut rules = default_rules;
    let mut start = Position::start();
    let mut body = String::new();
    for line in text.lines() {
        let line = line.trim();
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            let (name, value) = inner.split_once(' ').unwrap_or((inner, ""));
            let value = value.trim().trim_matches('"');
            match name.to_ascii_lowercase().as_str() {
                "rules" | "variant" => {
                    rules = value.parse().map_err(|e| RecordError(format!("{e}")))?
                }
                "position" | "fen" => {
                    start = value
                        .parse()
                        .map_err(|e| RecordError(format!("bad start position: {e}")))?
                }
                _ => {}
            }
        } else {
            body.push_str(line);
            body.push(' ');
        }
    }
    let mut moves = Vec::new();
    let mut in_comment = false;
    for token in body.split_whitespace() {
        if in_comment {
            in_comment = !token.ends_with('}');
            continue;
        }
        if token.starts_with('{') {
            in_comment = !token.ends_with('}');
            continue;
        }
        // A position string: 15 fields separated by '-'.
        if token.matches('-').count() == 14 {
            if !moves.is_empty() {
                return Err(RecordError(
                    "a position must come before the moves".to_string(),
                ));
            }
            start = token
                .parse()
                .map_err(|e| RecordError(format!("bad position {token:?}: {e}")))?;
            continue;
        }
        if is_result(token) {
            continue;
        }
        // Strip a move number (`12.` or `12...`) and capture marks (`+3`).
        let token = token.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = token.trim_start_matches('.');
        let letters = token.split('+').next().unwrap_or("");
        for c in letters.chars() {
            moves.push(Move::from_letter(c).ok_or_else(|| {
                RecordError(format!(
                    "{c:?} in {token:?} is not a move: moves are the letters A-F and a-f"
                ))
            })?);
        }
    }
    Ok(Record {
        start,
        rules,
        moves,
    })
}

fn is_result(token: &str) -> bool {
    token == "*"
        || token.split_once('-').is_some_and(|(a, b)| {
            !a.is_empty()
                && !b.is_empty()
                && a.chars().all(|c| c.is_ascii_digit() || c == '.')
                && b.chars().all(|c| c.is_ascii_digit() || c == '.')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{format_move_letters, parse_move_letters};

    #[test]
    fn written_records_read_back() {
        let moves =
            parse_move_letters("FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDd").unwrap();
        let game = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
        let text = write_record(&game, "Ama", "Kofi \"K\"", None);
        assert!(text.contains("[Variant \"abapa\"]"), "{text}");
        assert!(text.contains("[South \"Ama\"]"), "{text}");
        assert!(text.contains("1. F f 2. B e"), "{text}");
        let back = read_record(&text, RuleSet::Awari).unwrap();
        assert_eq!(back.moves, moves);
        assert_eq!(back.rules, RuleSet::Abapa);
        assert_eq!(back.start, Position::start());
    }

    #[test]
    fn reads_positions_and_move_lists() {
        let r = read_record("FfEa", RuleSet::Abapa).unwrap();
        assert_eq!(format_move_letters(&r.moves), "FfEa");
        let r = read_record("0-0-0-0-0-1-1-1-0-0-0-0-23-22-S F", RuleSet::Awari).unwrap();
        assert_eq!(r.start.to_string(), "0-0-0-0-0-1-1-1-0-0-0-0-23-22-S");
        assert_eq!(r.rules, RuleSet::Awari);
        assert_eq!(format_move_letters(&r.moves), "F");
        let r = read_record("1. F f {a comment here} 2. D+3 a 25-23", RuleSet::Abapa).unwrap();
        assert_eq!(format_move_letters(&r.moves), "FfDa");
    }

    #[test]
    fn rejects_junk_with_a_reason() {
        for bad in [
            "1. G",
            "4-4-4-S",
            "F 4-4-4-4-4-4-4-4-4-4-4-4-0-0-S",
            "[Variant \"kalah\"]",
        ] {
            let err = read_record(bad, RuleSet::Abapa).unwrap_err();
            assert!(!err.0.is_empty());
        }
        assert!(read_record(&"F".repeat(MAX_RECORD + 1), RuleSet::Abapa).is_err());
    }
}
