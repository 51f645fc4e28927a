//! `oware perft`: leaf counts for each depth, optionally divided by first move.

use std::time::Instant;

use oware_rules::{perft, Game};

use super::PositionArgs;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Deepest depth to count (plies)
    pub depth: u32,
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Also print the count under each first move (at the deepest depth)
    #[arg(long)]
    pub divide: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let game = Game::from_position(args.pos.start()?, args.pos.rules);
    for depth in 1..=args.depth {
        let started = Instant::now();
        let leaves = perft::perft_game(&game, depth);
        let ms = started.elapsed().as_millis();
        println!("depth={depth} leaves={leaves} time_ms={ms}");
    }
    if args.divide && args.depth > 0 {
        for (mv, leaves) in perft::perft_divide(&game, args.depth) {
            println!("{mv} {leaves}");
        }
    }
    Ok(())
}
