//! Game records for download: OGN (`oware_rules::ogn`) with the players' names and, for a finished
//! game, how it ended. The analysis board reads records back with [`oware_rules::GameText`].

use oware_rules::Game;

/// Writes a game as an OGN record, with the players' names and, for a finished game, the reason it
/// ended and the score in seeds; `ended` says how a game the rules have not ended did end (a
/// resignation), as a comment after its last move.
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

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{parse_move_letters, GameText, Position, RuleSet};

    #[test]
    fn written_records_read_back() {
        let moves =
            parse_move_letters("FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDd").unwrap();
        let game = Game::replay(Position::start(), RuleSet::Abapa, &moves).unwrap();
        let text = write_record(&game, "Ama", "Kofi \"K\"", None);
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
}
