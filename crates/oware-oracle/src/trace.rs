//! Reading the traces written by `tests/oracle/openspiel_traces.py`: a header line, then one JSON
//! line per game with OpenSpiel's actions and its view of every state (see that script for the
//! format and for OpenSpiel's conventions).

use std::fmt;

use serde_json::Value;

/// The format written in the header line; a different one is refused rather than misread.
pub const FORMAT: &str = "oware-openspiel-traces/1";

/// OpenSpiel's player id of a terminal state.
pub const TERMINAL_PLAYER: i64 = -4;

/// The header line of a trace file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceHeader {
    /// The OpenSpiel version that played the games.
    pub openspiel_version: String,
    /// The random seed the games were played with.
    pub seed: u64,
    /// Games in the file.
    pub games: usize,
}

/// Who is to move in an OpenSpiel state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToMove {
    /// OpenSpiel's player 0 or 1 (our South or North).
    Player(usize),
    /// The game is over.
    Terminal,
}

/// OpenSpiel's view of one state, in our index order (which is also OpenSpiel's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OsState {
    /// Seeds in each house.
    pub board: [u8; 12],
    /// Seeds in each player's store (player 0, our South, first).
    pub stores: [u8; 2],
    /// Who is to move.
    pub to_move: ToMove,
    /// Bit `i` set when OpenSpiel's action `i` (house `i` of the mover's row) is legal.
    pub legal_mask: u8,
}

/// One game as OpenSpiel played it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTrace {
    /// The game's index in the file.
    pub index: usize,
    /// OpenSpiel's actions, 0..6: the house within the mover's row.
    pub actions: Vec<u8>,
    /// `states[k]` is the state after `k` actions; there is one more state than actions.
    pub states: Vec<OsState>,
    /// Set when OpenSpiel's 1000-ply cap (not a rule) stopped the game unfinished.
    pub truncated: bool,
    /// OpenSpiel's returns of the last state: +1 win, -1 loss, 0 draw (all 0 while not over).
    pub returns: [i8; 2],
}

/// What is wrong with a trace file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceError {
    /// A line is not JSON.
    Json {
        /// The line, from 1.
        line: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// A line is JSON but not what the format says.
    Malformed {
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        what: String,
    },
    /// The file has no header line.
    Empty,
    /// The header declares another format.
    WrongFormat {
        /// The format the header names.
        found: String,
    },
    /// The header promises a number of games the file does not hold.
    GameCount {
        /// Games the header declares.
        declared: usize,
        /// Games in the file.
        found: usize,
    },
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::Json { line, message } => write!(f, "line {line}: not JSON: {message}"),
            TraceError::Malformed { line, what } => write!(f, "line {line}: {what}"),
            TraceError::Empty => f.write_str("the trace file is empty (no header line)"),
            TraceError::WrongFormat { found } => {
                write!(f, "the trace format is {found:?}, expected {FORMAT:?}")
            }
            TraceError::GameCount { declared, found } => write!(
                f,
                "the header declares {declared} games but the file holds {found} (truncated file?)"
            ),
        }
    }
}

impl std::error::Error for TraceError {}

/// A whole trace file: its header and its games.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traces {
    /// The header line.
    pub header: TraceHeader,
    /// The games, in order.
    pub games: Vec<GameTrace>,
}

/// Parses a whole trace file.
pub fn parse_traces(text: &str) -> Result<Traces, TraceError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l))
        .filter(|(_, l)| !l.trim().is_empty());
    let (header_line, header_text) = lines.next().ok_or(TraceError::Empty)?;
    let header = parse_header(header_line, header_text)?;
    let games = lines
        .map(|(line, text)| parse_game(line, text))
        .collect::<Result<Vec<_>, _>>()?;
    if games.len() != header.games {
        return Err(TraceError::GameCount {
            declared: header.games,
            found: games.len(),
        });
    }
    Ok(Traces { header, games })
}

fn json(line: usize, text: &str) -> Result<Value, TraceError> {
    serde_json::from_str(text).map_err(|e| TraceError::Json {
        line,
        message: e.to_string(),
    })
}

fn malformed(line: usize, what: impl Into<String>) -> TraceError {
    TraceError::Malformed {
        line,
        what: what.into(),
    }
}

fn field<'a>(line: usize, value: &'a Value, name: &str) -> Result<&'a Value, TraceError> {
    value
        .get(name)
        .ok_or_else(|| malformed(line, format!("missing field {name:?}")))
}

fn int_in(line: usize, value: &Value, what: &str, min: i64, max: i64) -> Result<i64, TraceError> {
    match value.as_i64() {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(malformed(
            line,
            format!("{what} should be an integer in {min}..={max}, found {value}"),
        )),
    }
}

fn array<'a>(line: usize, value: &'a Value, what: &str) -> Result<&'a Vec<Value>, TraceError> {
    value
        .as_array()
        .ok_or_else(|| malformed(line, format!("{what} should be an array, found {value}")))
}

fn parse_header(line: usize, text: &str) -> Result<TraceHeader, TraceError> {
    let value = json(line, text)?;
    let format = field(line, &value, "format")?
        .as_str()
        .ok_or_else(|| malformed(line, "\"format\" should be a string"))?;
    if format != FORMAT {
        return Err(TraceError::WrongFormat {
            found: format.to_string(),
        });
    }
    let openspiel_version = field(line, &value, "openspiel_version")?
        .as_str()
        .ok_or_else(|| malformed(line, "\"openspiel_version\" should be a string"))?
        .to_string();
    let seed = int_in(line, field(line, &value, "seed")?, "seed", 0, i64::MAX)? as u64;
    let games = int_in(line, field(line, &value, "games")?, "games", 0, 100_000_000)? as usize;
    Ok(TraceHeader {
        openspiel_version,
        seed,
        games,
    })
}

fn parse_state(line: usize, value: &Value) -> Result<OsState, TraceError> {
    let items = array(line, value, "a state")?;
    if items.len() != 16 {
        return Err(malformed(
            line,
            format!(
                "a state should hold 16 integers (12 houses, 2 stores, player, legal mask), found {}",
                items.len()
            ),
        ));
    }
    let mut board = [0u8; 12];
    for (house, item) in items[..12].iter().enumerate() {
        board[house] = int_in(line, item, "a house", 0, 48)? as u8;
    }
    let stores = [
        int_in(line, &items[12], "a store", 0, 48)? as u8,
        int_in(line, &items[13], "a store", 0, 48)? as u8,
    ];
    let to_move = match int_in(line, &items[14], "the player to move", TERMINAL_PLAYER, 1)? {
        0 => ToMove::Player(0),
        1 => ToMove::Player(1),
        TERMINAL_PLAYER => ToMove::Terminal,
        other => {
            return Err(malformed(
                line,
                format!("the player to move should be 0, 1 or -4, found {other}"),
            ))
        }
    };
    let legal_mask = int_in(line, &items[15], "the legal-action mask", 0, 63)? as u8;
    Ok(OsState {
        board,
        stores,
        to_move,
        legal_mask,
    })
}

fn parse_game(line: usize, text: &str) -> Result<GameTrace, TraceError> {
    let value = json(line, text)?;
    let index = int_in(line, field(line, &value, "game")?, "game", 0, i64::MAX)? as usize;
    let actions = array(line, field(line, &value, "actions")?, "\"actions\"")?
        .iter()
        .map(|a| int_in(line, a, "an action", 0, 5).map(|a| a as u8))
        .collect::<Result<Vec<_>, _>>()?;
    let states = array(line, field(line, &value, "states")?, "\"states\"")?
        .iter()
        .map(|s| parse_state(line, s))
        .collect::<Result<Vec<_>, _>>()?;
    if states.len() != actions.len() + 1 {
        return Err(malformed(
            line,
            format!(
                "{} actions need {} states, found {}",
                actions.len(),
                actions.len() + 1,
                states.len()
            ),
        ));
    }
    let truncated = field(line, &value, "truncated")?
        .as_bool()
        .ok_or_else(|| malformed(line, "\"truncated\" should be true or false"))?;
    let returns_items = array(line, field(line, &value, "returns")?, "\"returns\"")?;
    if returns_items.len() != 2 {
        return Err(malformed(line, "\"returns\" should hold 2 numbers"));
    }
    let mut returns = [0i8; 2];
    for (r, item) in returns.iter_mut().zip(returns_items) {
        // OpenSpiel writes returns as floats (1.0); the script converts them to integers.
        *r = int_in(line, item, "a return", -1, 1)? as i8;
    }
    Ok(GameTrace {
        index,
        actions,
        states,
        truncated,
        returns,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        r#"{"format":"oware-openspiel-traces/1","openspiel_version":"2.0.2","seed":1,"games":1}"#;

    #[test]
    fn parses_a_small_trace() {
        let text = format!(
            "{HEADER}\n{}\n",
            r#"{"game":0,"actions":[5],"states":[[4,4,4,4,4,4,4,4,4,4,4,4,0,0,0,63],[4,4,4,4,4,0,5,5,5,5,4,4,0,0,1,63]],"truncated":true,"returns":[0,0]}"#
        );
        let traces = parse_traces(&text).unwrap();
        assert_eq!(traces.header.openspiel_version, "2.0.2");
        let game = &traces.games[0];
        assert_eq!(game.actions, vec![5]);
        assert_eq!(game.states[1].board[6], 5);
        assert_eq!(game.states[1].to_move, ToMove::Player(1));
        assert_eq!(game.states[1].legal_mask, 63);
        assert!(game.truncated);
    }

    #[test]
    fn refuses_damaged_traces_with_a_reason() {
        assert_eq!(parse_traces(""), Err(TraceError::Empty));
        assert!(matches!(
            parse_traces("{\"format\":\"other\"}"),
            Err(TraceError::WrongFormat { .. })
        ));
        assert!(matches!(
            parse_traces(&format!("{HEADER}\n")),
            Err(TraceError::GameCount {
                declared: 1,
                found: 0
            })
        ));
        assert!(matches!(
            parse_traces(&format!("{HEADER}\n{{\"game\":0,")),
            Err(TraceError::Json { line: 2, .. })
        ));
        // One state missing.
        let short = r#"{"game":0,"actions":[5],"states":[[4,4,4,4,4,4,4,4,4,4,4,4,0,0,0,63]],"truncated":false,"returns":[0,0]}"#;
        let err = parse_traces(&format!("{HEADER}\n{short}")).unwrap_err();
        assert!(err.to_string().contains("1 actions need 2 states"), "{err}");
        // An action out of range.
        let bad = r#"{"game":0,"actions":[6],"states":[[4,4,4,4,4,4,4,4,4,4,4,4,0,0,0,63],[4,4,4,4,4,4,4,4,4,4,4,4,0,0,0,63]],"truncated":false,"returns":[0,0]}"#;
        let err = parse_traces(&format!("{HEADER}\n{bad}")).unwrap_err();
        assert!(err.to_string().contains("an action"), "{err}");
    }
}
