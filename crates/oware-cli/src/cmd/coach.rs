//! The coach in the terminal: `oware analyze --explain` (every legal move of a position explained,
//! or a game's mistakes reviewed) and `why` in `oware play`.

use std::io::{self, Write};

use oware_coach::explain::rule_note;
use oware_coach::review::{render_clean, review};
use oware_coach::{explain, explain_all, messages, Analyst, Lang};
use oware_rules::{Game, Move, Side};

pub use oware_coach::DEFAULT_DEPTH;

/// Losses from this many centiseeds are listed in a review (one seed).
pub const REVIEW_THRESHOLD: i32 = 100;

/// `--lang` when given, else the environment's locale, else English.
pub fn language(choice: Option<Lang>) -> Lang {
    choice.unwrap_or_else(|| Lang::from_environment(|name| std::env::var(name).ok()))
}

/// Every legal move of the game's current position, best first, each with its explanation.
pub fn explain_position(
    out: &mut dyn Write,
    game: &Game,
    depth: u32,
    lang: Lang,
) -> io::Result<()> {
    let pos = game.position();
    writeln!(out, "position {pos} ({})", game.rules())?;
    if let Some(end) = game.end() {
        return writeln!(out, "the game is over: {} {}", end.score, end.reason);
    }
    let mut analyst = Analyst::new(depth);
    writeln!(
        out,
        "{}",
        messages::format(
            lang,
            "explain.header",
            &[
                ("side", messages::side(lang, pos.side_to_move())),
                ("n", &analyst.depth().to_string()),
            ],
        )
    )?;
    if let Some(note) = rule_note(game, lang) {
        writeln!(out, "{note}")?;
    }
    for why in explain_all(game, &mut analyst) {
        writeln!(out, "{}  {}", why.mv, why.render(lang))?;
    }
    Ok(())
}

/// One move of the game's current position explained (`why` in `oware play`).
pub fn explain_move(
    out: &mut dyn Write,
    game: &Game,
    mv: Move,
    depth: u32,
    lang: Lang,
) -> io::Result<()> {
    let values = Analyst::new(depth).values(game);
    match explain(game, mv, &values) {
        Some(why) => writeln!(out, "{}", why.render(lang)),
        None => writeln!(out, "{mv} cannot be played here"),
    }
}

/// The mistakes of both players in the order played, each with why and the better move.
pub fn review_game(out: &mut dyn Write, game: &Game, depth: u32, lang: Lang) -> io::Result<()> {
    writeln!(
        out,
        "game of {} plies from {} ({})",
        game.ply_count(),
        game.start(),
        game.rules()
    )?;
    let mistakes = review(game, None, &mut Analyst::new(depth), REVIEW_THRESHOLD);
    for m in &mistakes {
        writeln!(out, "{}", m.render(lang))?;
    }
    for side in Side::BOTH {
        if !mistakes.iter().any(|m| m.played.mover == side) {
            writeln!(out, "{}", render_clean(lang, side, REVIEW_THRESHOLD))?;
        }
    }
    Ok(())
}
