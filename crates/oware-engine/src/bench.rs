//! The fixed positions of `oware bench`: the start, positions along a master game (with their history,
//! so repetitions count) and a few endgames. Changing this list changes the node signature.

use oware_rules::{Game, Move, Position, ReplayError, RuleSet};

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
    let mut games = games_along(Position::start(), RuleSet::Abapa, &moves, 8)
        .expect("the master game is legal");
    for text in ENDGAMES {
        let pos: Position = text.parse().expect("valid bench endgame");
        games.push(Game::from_position(pos, RuleSet::Abapa));
    }
    games
}

/// The games after 0, `every`, 2 × `every`, ... plies of `moves` from `start` (each with its history),
/// before the last move and before the end of the game (recorded games may go on after the rules
/// end them). An illegal move before the end is an error.
pub fn games_along(
    start: Position,
    rules: RuleSet,
    moves: &[Move],
    every: usize,
) -> Result<Vec<Game>, ReplayError> {
    let mut game = Game::from_position(start, rules);
    let mut games = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        if game.is_over() {
            break;
        }
        if ply % every.max(1) == 0 {
            games.push(game.clone());
        }
        let side = game.position().side_to_move();
        game.play(mv).map_err(|reason| ReplayError {
            ply,
            side,
            mv,
            reason,
        })?;
    }
    Ok(games)
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
