//! The review of a game: each of a player's moves that gives away at least a threshold of seeds
//! against the engine's best, with why and the better move.

use oware_rules::{Game, Move, Side};

use crate::engine::{decided_in, loss, Analyst};
use crate::explain::{explain, render_line, render_score, Explanation};
use crate::messages::{self as msg, Lang};

/// A move that gave seeds away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// 0-based index of the move in the game.
    pub ply: usize,
    /// The move's number as records write it: `7.` for South, `7...` for North.
    pub label: String,
    /// The move played, explained.
    pub played: Explanation,
    /// The engine's best move there, explained.
    pub better: Explanation,
    /// Centiseeds given away.
    pub loss: i32,
}

/// The record's move number of `ply` in a game that starts with `first` to move.
pub fn move_label(first: Side, ply: usize) -> String {
    let offset = usize::from(first == Side::North);
    let number = (ply + offset) / 2 + 1;
    // Even plies from South's first move are South's.
    match (ply + offset) % 2 {
        0 => format!("{number}."),
        _ => format!("{number}..."),
    }
}

/// Reviews `game` (from its start, its moves in order) for `player` (both players when `None`):
/// each move whose loss against the best reaches `threshold` centiseeds, in the order played.
pub fn review(
    game: &Game,
    player: Option<Side>,
    analyst: &mut Analyst,
    threshold: i32,
) -> Vec<Mistake> {
    let mut replay = Game::from_position(*game.start(), game.rules());
    let mut mistakes = Vec::new();
    for (ply, &played) in game.moves().iter().enumerate() {
        let mover = replay.position().side_to_move();
        if player.is_none_or(|p| p == mover) {
            if let Some(mistake) = judge(&replay, ply, played, analyst, threshold) {
                mistakes.push(mistake);
            }
        }
        if replay.play(played).is_err() {
            break;
        }
    }
    mistakes
}

fn judge(
    game: &Game,
    ply: usize,
    played: Move,
    analyst: &mut Analyst,
    threshold: i32,
) -> Option<Mistake> {
    let values = analyst.values(game);
    let best = values.first()?;
    let value = values.iter().find(|v| v.mv == played)?;
    let lost = loss(best.score, value.score);
    if lost < threshold.max(1) {
        return None;
    }
    Some(Mistake {
        ply,
        label: move_label(game.start().side_to_move(), ply),
        played: explain(game, played, &values)?,
        better: explain(game, best.mv, &values)?,
        loss: lost,
    })
}

impl Mistake {
    /// The mistake in words: what it gave away, why, what the engine expects after it, and what the
    /// better move does.
    pub fn render(&self, lang: Lang) -> String {
        let played = &self.played;
        let best = self.better.mv.letter().to_string();
        let move_letter = played.mv.letter().to_string();
        let head = match &played.verdict {
            Some(v) if decided_in(v.score).is_some() || decided_in(v.best_score).is_some() => {
                msg::format(
                    lang,
                    "review.mistakeDecided",
                    &[
                        ("ply", &self.label),
                        ("move", &move_letter),
                        ("score", &render_score(v.score, lang)),
                        ("best", &best),
                        ("bestScore", &render_score(v.best_score, lang)),
                    ],
                )
            }
            _ => msg::format(
                lang,
                "review.mistake",
                &[
                    ("ply", &self.label),
                    ("move", &move_letter),
                    ("loss", &msg::seeds_amount(lang, self.loss)),
                    ("best", &best),
                ],
            ),
        };
        let mut text = format!("{head} {}", played.render_facts(lang));
        if let Some(v) = &played.verdict {
            let line = render_line(&v.line, lang);
            text.push(' ');
            text.push_str(&msg::format(lang, "review.line", &[("line", &line)]));
        }
        let better = match self.better.best_point() {
            Some(fact) => self.better.render_fact(fact, lang),
            None => {
                let line = self
                    .better
                    .verdict
                    .as_ref()
                    .map_or_else(String::new, |v| render_line(&v.line, lang));
                msg::format(
                    lang,
                    "review.betterLine",
                    &[("best", &best), ("line", &line)],
                )
            }
        };
        text.push(' ');
        text.push_str(&better);
        text
    }
}

/// The line a review prints when no move reaches the threshold.
pub fn render_clean(lang: Lang, player: Side, threshold: i32) -> String {
    msg::format(
        lang,
        "review.clean",
        &[
            ("side", msg::side(lang, player)),
            ("loss", &msg::seeds_amount(lang, threshold)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_labels_follow_records() {
        assert_eq!(move_label(Side::South, 0), "1.");
        assert_eq!(move_label(Side::South, 1), "1...");
        assert_eq!(move_label(Side::South, 4), "3.");
        assert_eq!(move_label(Side::North, 0), "1...");
        assert_eq!(move_label(Side::North, 1), "2.");
    }
}
