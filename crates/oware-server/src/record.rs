//! Game records for download and for the analysis board: a PGN-like text with tags and numbered
//! moves (`1. F f 2. E a`), and a reader that also accepts a bare position string, a bare move
//! list (`FfEa`) or both.
//!
//! This is the server's own small reader and writer; the project's full OGN module
//! (`oware_rules::ogn`) is being written separately and can replace it.

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

/// Writes a game as a record with tags.
pub fn write_record(game: &Game, south: &str, north: &str) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, name: &str, value: &str| {
        let value = value.replace(['"', '\\', '\n', '\r'], " ");
        out.push_str(&format!("[{name} \"{value}\"]\n"));
    };
    tag(&mut out, "Game", "Oware");
    tag(&mut out, "Rules", game.rules().name());
    tag(&mut out, "South", south);
    tag(&mut out, "North", north);
    if *game.start() != Position::start() {
        tag(&mut out, "Position", &game.start().to_string());
    }
    let result = game.end().map_or("*".to_string(), |e| e.score.to_string());
    tag(&mut out, "Result", &result);
    if let Some(end) = game.end() {
        tag(&mut out, "Termination", end.reason.word());
    }
    out.push('\n');
    let first = game.start().side_to_move();
    let mut line = String::new();
    for (ply, (mv, cap)) in game.moves().iter().zip(game.captures()).enumerate() {
        // Number the moves by pairs, South's first; a game that starts with North gets `1...`.
        let south_moves = mv.side() == oware_rules::Side::South;
        let index = ply + usize::from(first == oware_rules::Side::North);
        if south_moves {
            line.push_str(&format!("{}. ", index / 2 + 1));
        } else if ply == 0 {
            line.push_str(&format!("{}... ", index / 2 + 1));
        }
        line.push(mv.letter());
        if *cap > 0 {
            line.push_str(&format!("+{cap}"));
        }
        line.push(' ');
    }
    line.push_str(&result);
    out.push_str(&wrap(&line, 80));
    out.push('\n');
    out
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut len = 0;
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        if len > 0 && len + 1 + word.len() > width {
            out.push('\n');
            len = 0;
        } else if len > 0 {
            out.push(' ');
            len += 1;
        }
        out.push_str(word);
        len += word.len();
    }
    out
}

/// Reads a record, a position string, a move list, or a position followed by moves.
pub fn read_record(text: &str, default_rules: RuleSet) -> Result<Record, RecordError> {
    if text.len() > MAX_RECORD {
        return Err(RecordError(format!(
            "the text is too long ({} bytes, at most {MAX_RECORD})",
            text.len()
        )));
    }
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
        let text = write_record(&game, "Ama", "Kofi \"K\"");
        assert!(text.contains("[Rules \"abapa\"]"));
        assert!(text.starts_with("[Game"));
        assert!(text.contains("1. F f 2. B e"));
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
            "[Rules \"kalah\"]",
        ] {
            let err = read_record(bad, RuleSet::Abapa).unwrap_err();
            assert!(!err.0.is_empty());
        }
        assert!(read_record(&"F".repeat(MAX_RECORD + 1), RuleSet::Abapa).is_err());
    }
}
