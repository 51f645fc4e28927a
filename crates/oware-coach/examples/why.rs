//! Prints the coach's explanation of every legal move of a position:
//! `cargo run -p oware-coach --example why -- 4-4-4-4-4-3-4-1-2-4-4-4-3-3-S [ca|es|en|fr] [depth]`.

use oware_coach::{explain_all, Analyst, Lang};
use oware_rules::{Game, Position, RuleSet};

fn main() {
    let mut args = std::env::args().skip(1);
    let position = args.next().unwrap_or_else(|| Position::start().to_string());
    let Ok(position) = position.parse::<Position>() else {
        eprintln!("not a position: {position}");
        std::process::exit(2);
    };
    let lang = args.next().and_then(|l| l.parse().ok()).unwrap_or(Lang::En);
    let depth = args.next().and_then(|d| d.parse().ok()).unwrap_or(8);
    let game = Game::from_position(position, RuleSet::Abapa);
    for why in explain_all(&game, &mut Analyst::new(depth)) {
        println!("{}  {}", why.mv, why.render(lang));
    }
}
