//! Game records for download: OGN (`oware_rules::ogn`) with the players' names and, for a finished
//! game, how it ended. The analysis board reads records back with [`oware_rules::GameText`].

use oware_rules::{Ending, Game, Side};

/// What a record says about a game beyond its moves.
pub struct RecordInfo<'a> {
    /// South's name.
    pub south: &'a str,
    /// North's name.
    pub north: &'a str,
    /// When the game was created, in seconds since the Unix epoch (`Date` and `Time`, UTC).
    pub created: u64,
    /// The clock: each side's time and the increment, in milliseconds.
    pub clock: Option<(u64, u64)>,
    /// How the players or a clock ended a game the rules had not ended.
    pub ended: Option<Ending>,
}

/// The `Termination` tag of a game the rules did not end, and a comment in words on how it ended
/// (`North resigned`).
fn termination(ending: Ending) -> (&'static str, String) {
    match ending {
        Ending::Rules(end) => (end.reason.word(), String::new()),
        Ending::Resigned(side) => ("resignation", format!("{side} resigned")),
        Ending::TimeOut(side) => ("time", format!("{side}'s time ran out")),
        Ending::Forfeit(side) => ("forfeit", format!("{side} forfeited")),
        Ending::Agreed => ("agreement", "draw agreed".to_string()),
        Ending::Aborted => ("aborted", "aborted before the first move".to_string()),
    }
}

/// Writes a game as an OGN record: the players' names, when it was played (`Date`, `Time`), the
/// time control, and for a finished game its result and how it ended (`Termination`; `Score` in
/// seeds when the rules ended it). A game the players or a clock ended has that result, with a
/// comment after its last move saying how.
pub fn write_record(game: &Game, info: &RecordInfo) -> String {
    let clean = |name: &str| name.replace(['"', '\\', '\n', '\r'], " ");
    let mut record = oware_rules::ogn::Record::from_game(game);
    let (date, time) = oware_rules::ogn::date_and_time(info.created);
    record.set_tag("Date", date);
    record.set_tag("South", clean(info.south));
    record.set_tag("North", clean(info.north));
    record.set_tag("Time", time);
    record.set_tag(
        "TimeControl",
        match info.clock {
            // As PGN writes it: seconds per side, `+` the increment in seconds.
            Some((ms, increment)) => format!("{}+{}", ms / 1000, increment / 1000),
            None => "-".to_string(),
        },
    );
    if let Some(end) = game.end() {
        record.set_tag("Termination", end.reason.word());
        record.set_tag("Score", end.score.to_string());
    } else if let Some(ending) = info.ended {
        let (tag, how) = termination(ending);
        // The stores as they stand: the seeds left on the board go to no one.
        let pos = game.position();
        let score = format!("{}-{}", pos.store(Side::South), pos.store(Side::North));
        record.outcome = ending.outcome();
        record.set_tag("Result", record.outcome.token());
        record.set_tag("Termination", tag);
        record
            .comments
            .push((game.moves().len(), format!("{how}, {score}")));
    }
    record.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::ogn::Outcome;
    use oware_rules::{parse_move_letters, GameText, Position, RuleSet};

    #[test]
    fn written_records_read_back() {
        let moves =
            parse_move_letters("FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDd").unwrap();
        let game = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
        let info = RecordInfo {
            south: "Ama",
            north: "Kofi \"K\"",
            created: 1_795_000_000,
            clock: Some((300_000, 2_000)),
            ended: None,
        };
        let text = write_record(&game, &info);
        assert!(text.contains("[Date \"2026.11.18\"]"), "{text}");
        assert!(text.contains("[TimeControl \"300+2\"]"), "{text}");
        assert!(text.contains("[Variant \"abapa\"]"), "{text}");
        assert!(text.contains("[South \"Ama\"]"), "{text}");
        assert!(text.contains("[North \"Kofi  K \"]"), "{text}");
        assert!(text.contains("1. F f 2. B e"), "{text}");
        let back = GameText::parse(&text).unwrap();
        assert_eq!(back.game(RuleSet::Awari).unwrap(), game);
        // The strict reader agrees.
        let record: oware_rules::ogn::Record = text.parse().unwrap();
        assert_eq!(record.game().unwrap(), game);
    }

    #[test]
    fn a_resigned_game_keeps_its_result_and_reads_back() {
        let moves = parse_move_letters("FfEa").unwrap();
        let game = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
        let info = RecordInfo {
            south: "Ama",
            north: "Kofi",
            created: 0,
            clock: None,
            ended: Some(Ending::Resigned(Side::South)),
        };
        let text = write_record(&game, &info);
        assert!(text.contains("[Result \"0-1\"]"), "{text}");
        assert!(text.contains("[Termination \"resignation\"]"), "{text}");
        assert!(text.contains("[Date \"1970.01.01\"]"), "{text}");
        assert!(text.contains("[Time \"00:00:00\"]"), "{text}");
        assert!(
            text.trim_end().ends_with("{South resigned, 0-0} 0-1"),
            "{text}"
        );
        let record: oware_rules::ogn::Record = text.parse().unwrap();
        assert_eq!(record.outcome, Outcome::NorthWins);
    }
}
