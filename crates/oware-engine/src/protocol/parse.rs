//! The words of the protocol's commands, checked: `go`, `position` and the `Weights` option.

use std::time::Duration;

use oware_rules::{quoted, Game, GameText, RuleSet};

use crate::Weights;
use crate::{Clock, Limits, MAX_PLY};

/// The longest time `go` takes, for a move or on a clock (`u32::MAX` milliseconds, 49.7 days):
/// longer ones count as this. A GUI that sends an absurd time means "no hurry"; the bound keeps
/// every sum and product of times the time plan makes far from overflowing.
pub(super) const MAX_GO_TIME: Duration = Duration::from_millis(u32::MAX as u64);

/// A whole number of the protocol's commands: digits, however many. One too large for 64 bits
/// counts as the largest; each caller clamps or refuses it.
fn whole_number(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(text.parse().unwrap_or(u64::MAX))
}

/// What `go` asked for, validated.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Go {
    pub limits: Limits,
    pub ponder: bool,
}

/// Parses the words after `go`.
pub(super) fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut clocks = [Clock::default(); 2];
    let mut has_clock = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        // The word after `word`, as a number, and as it was written.
        let mut number = |what: &str| -> Result<(u64, &str), String> {
            i += 1;
            let text = words
                .get(i)
                .ok_or_else(|| format!("go {what}: a number is missing"))?;
            whole_number(text).map(|n| (n, *text)).ok_or_else(|| {
                format!(
                    "go {what}: {text_q} is not a whole number",
                    text_q = quoted(text)
                )
            })
        };
        let mut time =
            |what: &str| number(what).map(|(ms, _)| Duration::from_millis(ms).min(MAX_GO_TIME));
        match word {
            "depth" => {
                let (d, text) = number("depth")?;
                if d == 0 || d > MAX_PLY as u64 - 10 {
                    return Err(format!(
                        "go depth: {text} is out of range 1..={}",
                        MAX_PLY - 10
                    ));
                }
                go.limits.depth = Some(d as u32);
            }
            "movetime" => go.limits.movetime = Some(time("movetime")?),
            "nodes" => go.limits.nodes = Some(number("nodes")?.0),
            "wtime" => {
                clocks[0].time = time("wtime")?;
                has_clock = true;
            }
            "btime" => {
                clocks[1].time = time("btime")?;
                has_clock = true;
            }
            "winc" => clocks[0].increment = time("winc")?,
            "binc" => clocks[1].increment = time("binc")?,
            "movestogo" => {
                let (moves, text) = number("movestogo")?;
                let in_range = u32::try_from(moves).ok().filter(|&m| m > 0);
                go.limits.moves_to_go = Some(in_range.ok_or_else(|| {
                    format!("go movestogo: {text} is out of range 1..={}", u32::MAX)
                })?);
            }
            "infinite" => go.limits.infinite = true,
            "ponder" => go.ponder = true,
            other => {
                return Err(format!(
                    "go: unknown word {other_q}",
                    other_q = quoted(other)
                ))
            }
        }
        i += 1;
    }
    if has_clock {
        go.limits.clocks = Some(clocks);
    }
    Ok(go)
}

/// Parses the words after `position`: the game they describe. The command's shape
/// (`startpos` or `fen <position-string>`, then `moves <letters>`) is checked here; the position
/// and the moves are read by the rules crate's reader of games as text.
pub(super) fn parse_position(words: &[&str], rules: RuleSet) -> Result<Game, String> {
    let rest = match words {
        ["startpos", rest @ ..] => rest,
        ["fen", _, rest @ ..] => rest,
        ["fen"] => return Err("position fen: the position string is missing".into()),
        _ => return Err("position: expected `startpos` or `fen <position-string>`".into()),
    };
    match rest {
        [] | ["moves", ..] => {}
        [other, ..] => {
            return Err(format!(
                "position: expected `moves`, found {other_q}",
                other_q = quoted(other)
            ))
        }
    }
    GameText::parse(&words.join(" "))
        .and_then(|text| text.game(rules))
        .map_err(|e| format!("position: {}", e.kind))
}

/// Evaluation weights changed by `name=value,name=value` (e.g. `threat=20,kroo=0`), starting from
/// `base`; `<empty>` or nothing leaves them as they are.
pub(super) fn parse_weights(text: &str, base: Weights) -> Result<Weights, String> {
    let mut weights = base;
    for item in text.split(',').map(str::trim) {
        if item.is_empty() || item == "<empty>" {
            continue;
        }
        let (name, value) = item.split_once('=').ok_or_else(|| {
            format!(
                "setoption Weights: {item_q} is not name=value",
                item_q = quoted(item)
            )
        })?;
        let value: i32 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= 10_000)
            .ok_or_else(|| {
                format!(
                    "setoption Weights: {value_q} is not a number in -10000..=10000",
                    value_q = quoted(value)
                )
            })?;
        if !weights.set(name.trim(), value) {
            return Err(format!(
                "setoption Weights: unknown term {name_q} (terms: {}, and by column {}, as \
                 <term>_a to <term>_f or all six at once; each also as <name>_opening)",
                crate::BOARD_TERMS.join(", "),
                crate::HOUSE_TERMS.join(", "),
                name_q = quoted(name)
            ));
        }
    }
    Ok(weights)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_words_are_validated() {
        let go = parse_go(&["wtime", "1000", "btime", "2000", "winc", "10"]).unwrap();
        let clocks = go.limits.clocks.unwrap();
        assert_eq!(clocks[0].time, Duration::from_millis(1000));
        assert_eq!(clocks[1].time, Duration::from_millis(2000));
        assert_eq!(clocks[0].increment, Duration::from_millis(10));
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["depth", "-3"]).is_err());
        assert!(parse_go(&["depth", "0"]).is_err());
        assert!(parse_go(&["sideways"]).is_err());
        assert!(parse_go(&["infinite", "ponder"]).unwrap().ponder);
        let go = parse_go(&["wtime", "1000", "btime", "2000", "movestogo", "3"]).unwrap();
        assert_eq!(go.limits.moves_to_go, Some(3));
        assert!(parse_go(&["wtime", "1000", "btime", "2000"])
            .unwrap()
            .limits
            .moves_to_go
            .is_none());
        assert!(parse_go(&["movestogo", "0"]).is_err());
        assert!(parse_go(&["movestogo", "99999999999"]).is_err());
    }

    #[test]
    fn absurd_numbers_are_clamped_or_refused() {
        let forty_nines = "9".repeat(40);
        let huge = [
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            &forty_nines,
        ];
        for text in huge {
            let go = parse_go(&["movetime", text]).unwrap();
            assert_eq!(go.limits.movetime, Some(MAX_GO_TIME), "{text}");
            let go = parse_go(&["wtime", text, "btime", text, "winc", text, "binc", text]).unwrap();
            let clock = Clock {
                time: MAX_GO_TIME,
                increment: MAX_GO_TIME,
            };
            assert_eq!(go.limits.clocks, Some([clock; 2]), "{text}");
            // The time plan of the largest clocks, on the last move before a refill and in sudden
            // death, stays within them.
            for moves_to_go in [Some(1), None] {
                let limits = Limits {
                    moves_to_go,
                    ..go.limits.clone()
                };
                let (soft, hard) = limits.time_budget(oware_rules::Side::South).unwrap();
                assert!(soft <= hard && hard <= MAX_GO_TIME, "{text}");
            }
            assert_eq!(
                parse_go(&["nodes", text])
                    .unwrap()
                    .limits
                    .nodes
                    .map(|n| n >= 4294967296),
                Some(true)
            );
            let error = parse_go(&["depth", text]).unwrap_err();
            assert!(
                error.contains(text) && error.contains("out of range"),
                "{error}"
            );
            let error = parse_go(&["movestogo", text]).unwrap_err();
            assert!(
                error.contains(text) && error.contains("out of range"),
                "{error}"
            );
        }
        assert_eq!(
            parse_go(&["movetime", "4294967295"])
                .unwrap()
                .limits
                .movetime,
            Some(Duration::from_millis(4_294_967_295))
        );
        for bad in ["-1", "+5", "1e9", "", "1.5"] {
            assert!(parse_go(&["movetime", bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn weights_are_validated() {
        let base = crate::Weights::DEFAULT;
        let w = parse_weights("threat=20, kroo=0", base).unwrap();
        assert_eq!((w.threat, w.kroo, w.store), ([20; 6], [0; 6], base.store));
        let w = parse_weights("kroo_c=5,empty_opening=-3", base).unwrap();
        assert_eq!(
            w.kroo,
            [
                base.kroo[0],
                base.kroo[1],
                5,
                base.kroo[3],
                base.kroo[4],
                base.kroo[5]
            ]
        );
        // The opening weights in `Weights::as_array`'s order: the board terms', then six a house
        // term.
        let empty = crate::BOARD_TERMS.len()
            + 6 * crate::HOUSE_TERMS
                .iter()
                .position(|&t| t == "empty")
                .unwrap();
        assert_eq!(w.opening[empty..empty + 6], [-3; 6]);
        assert_eq!(parse_weights("<empty>", base).unwrap(), base);
        assert!(parse_weights("threat", base).is_err());
        assert!(parse_weights("threat=x", base).is_err());
        assert!(parse_weights("colour=3", base).is_err());
        assert!(parse_weights("threat=99999", base).is_err());
    }

    #[test]
    fn positions_are_validated() {
        let g = parse_position(&["startpos", "moves", "FfEa"], RuleSet::Abapa).unwrap();
        assert_eq!(g.ply_count(), 4);
        let g = parse_position(&["startpos", "moves", "F", "f"], RuleSet::Abapa).unwrap();
        assert_eq!(g.ply_count(), 2);
        assert!(parse_position(&["startpos", "moves", "FF"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["startpos", "moves", "Fz"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["fen", "4-4-4"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["fen"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["sideways"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["startpos", "FfEa"], RuleSet::Abapa).is_err());
        let g = parse_position(
            &["fen", "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N", "moves", "a"],
            RuleSet::Abapa,
        )
        .unwrap();
        assert_eq!(g.ply_count(), 1);
    }
}
