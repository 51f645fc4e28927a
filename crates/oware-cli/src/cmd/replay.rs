//! `oware replay`: play moves from a position, print every position and the result.

use oware_rules::{Game, Move, ReplayError};

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
    let mut game = Game::from_position(start, args.pos.rules);
    let letters: Vec<char> = args.moves.chars().filter(|c| !c.is_whitespace()).collect();
    for (ply, &letter) in letters.iter().enumerate() {
        let Some(mv) = Move::from_letter(letter) else {
            return Err(Exit::bad_input(format!(
                "ply {}: {letter:?} is not a move (A-F for South, a-f for North)",
                ply + 1
            )));
        };
        let side = game.position().side_to_move();
        if let Err(reason) = game.play(mv) {
            let error = ReplayError {
                ply,
                side,
                mv,
                reason,
            };
            return Err(Exit::bad_input(error.to_string()));
        }
        println!("{}", game.position());
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
