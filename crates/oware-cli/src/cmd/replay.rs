//! `oware replay`: play moves from a position, print every position and the result.

use oware_rules::{Game, Move};

use super::{Exit, PositionArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Moves as concatenated letters (`FfEa`); spaces are allowed
    pub moves: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let start = args.pos.start()?;
    let letters: Vec<char> = args.moves.chars().filter(|c| !c.is_whitespace()).collect();
    let moves: Vec<Move> = letters
        .iter()
        .map_while(|&c| Move::from_letter(c))
        .collect();
    let (game, error) = Game::replay_until_illegal(start, args.pos.rules, &moves);
    for position in &game.positions()[1..] {
        println!("{position}");
    }
    if let Some(error) = error {
        return Err(Exit::bad_input(error.to_string()));
    }
    if let Some(letter) = letters.get(moves.len()) {
        return Err(Exit::bad_input(format!(
            "ply {}: {letter:?} is not a move (A-F for South, a-f for North)",
            moves.len() + 1
        )));
    }
    match game.end() {
        Some(end) => println!("result {} {}", end.score, end.reason),
        None => {
            let p = game.position();
            println!(
                "result {}-{} ongoing",
                p.store(oware_rules::Side::South),
                p.store(oware_rules::Side::North)
            );
        }
    }
    Ok(())
}
