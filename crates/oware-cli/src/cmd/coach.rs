//! The coach in the terminal: `oware analyse --explain` (every legal move of a position explained,
//! or a game's mistakes reviewed) and `why` in `oware play`. Every number comes from the one
//! analysis of a position ([`oware_coach::analyse`]), the web's too.

use std::io::{self, Write};

use oware_coach::explain::rule_note;
use oware_coach::review::{render_clean, review, Review};
use oware_coach::{explain, explain_all, messages, Analyst, Lang};
use oware_rules::{Game, Move, Side};

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
    analyst: &mut Analyst,
    lang: Lang,
) -> io::Result<()> {
    let pos = game.position();
    writeln!(out, "position {pos} ({})", game.rules())?;
    if let Some(end) = game.end() {
        return writeln!(out, "the game is over: {} {}", end.score, end.reason);
    }
    let analysis = analyst.analysis(game);
    writeln!(
        out,
        "{}",
        messages::format(
            lang,
            "explain.header",
            &[
                ("side", messages::side(lang, pos.side_to_move())),
                ("n", &analysis.depth.to_string()),
            ],
        )
    )?;
    if let Some(note) = rule_note(game, lang) {
        writeln!(out, "{note}")?;
    }
    for why in explain_all(game, &analysis) {
        writeln!(out, "{}  {}", why.mv, why.render(lang))?;
    }
    Ok(())
}

/// One move of the game's current position explained (`why` in `oware play`).
pub fn explain_move(
    out: &mut dyn Write,
    game: &Game,
    mv: Move,
    analyst: &mut Analyst,
    lang: Lang,
) -> io::Result<()> {
    let values = analyst.values(game);
    match explain(game, mv, &values) {
        Some(why) => writeln!(out, "{}", why.render(lang)),
        None => writeln!(out, "{mv} cannot be played here"),
    }
}

/// The review of a game by the one analysis of each position.
pub fn reviewed(game: &Game, analyst: &mut Analyst, threshold: i32) -> Review {
    review(game, None, &mut |g| analyst.analysis(g), threshold)
}

/// The mistakes of both players in the order played, each with why and the better move.
pub fn review_game(
    out: &mut dyn Write,
    game: &Game,
    analyst: &mut Analyst,
    lang: Lang,
) -> io::Result<()> {
    writeln!(
        out,
        "game of {} plies from {} ({})",
        game.ply_count(),
        game.start(),
        game.rules()
    )?;
    let reviewed = reviewed(game, analyst, REVIEW_THRESHOLD);
    for m in &reviewed.mistakes {
        match m.render_line(lang) {
            Some(line) => writeln!(out, "{} {line}", m.render(lang))?,
            None => writeln!(out, "{}", m.render(lang))?,
        }
    }
    for side in Side::BOTH {
        if !reviewed.mistakes.iter().any(|m| m.played.mover == side) {
            writeln!(out, "{}", render_clean(lang, side, REVIEW_THRESHOLD))?;
        }
    }
    Ok(())
}
