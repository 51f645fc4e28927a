//! The fixed positions of `oware bench`: the start, positions along a master game (with their history,
//! so repetitions count) and a few endgames. Changing this list changes the node signature.

use oware_rules::{Game, Move, Position, RuleSet};

/// A master game (abapa) that the bench positions are taken from.
const MASTER_GAME: &str =
    "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";

/// Endgames (position strings) with no earlier history.
const ENDGAMES: [&str; 3] = [
    "0-0-0-3-1-2-1-2-0-0-1-1-18-19-S",
    "2-0-1-0-0-5-0-0-4-0-1-0-17-18-N",
    "0-1-0-0-0-9-1-0-0-0-2-0-16-19-S",
];

/// The bench positions as games (each with its history), in a fixed order.
pub fn bench_games() -> Vec<Game> {
    let moves: Vec<Move> = oware_rules::parse_move_letters(MASTER_GAME).expect("valid letters");
    let mut games = Vec::new();
    for plies in (0..moves.len()).step_by(8) {
        let game = Game::replay(Position::start(), RuleSet::Abapa, &moves[..plies])
            .expect("the master game is legal");
        if !game.is_over() {
            games.push(game);
        }
    }
    for text in ENDGAMES {
        let pos: Position = text.parse().expect("valid bench endgame");
        games.push(Game::from_position(pos, RuleSet::Abapa));
    }
    games
}

#[cfg(test)]
mod tests {
    #[test]
    fn bench_positions_are_playable() {
        let games = super::bench_games();
        assert!(games.len() >= 10);
        assert!(games.iter().all(|g| !g.is_over()));
    }
}
