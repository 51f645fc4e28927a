//! The review of a game: each of a player's moves that gives away at least a threshold of seeds
//! against the engine's best, with why and the better move.

use oware_rules::{Game, Move, Side};

use crate::engine::{loss, Analyst};
use crate::explain::{explain, Explanation};
use crate::messages::{self as msg, Lang};

/// A move that gave seeds away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mistake {
    /// 0-based index of the move in the game.
    pub ply: usize,
    /// The move's number as records write it: `7.` for South, `7...` for North.
    pub label: String,
    pub played: Explanation,
    pub better: Explanation,
    /// Centiseeds given away.
    pub loss: i32,
}

/// The record's move number of `ply` in a game that starts with `first` to move.
pub fn move_label(first: Side, ply: usize) -> String {
    let offset = usize::from(first == Side::North);
    let number = (ply + offset) / 2 + 1;
    let side = if (ply + offset) % 2 == 0 {
        Side::South
    } else {
        Side::North
    };
    match side {
        Side::South => format!("{number}."),
        Side::North => format!("{number}..."),
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
    /// The mistake in words: what it gave away, why, and what the better move does.
    pub fn render(&self, lang: Lang) -> String {
        let head = msg::format(
            lang,
            "review.mistake",
            &[
                ("ply", &self.label),
                ("move", &self.played.mv.letter().to_string()),
                ("loss", &msg::seeds_amount(lang, self.loss)),
                ("best", &self.better.mv.letter().to_string()),
            ],
        );
        format!(
            "{head} {} {}",
            self.played.render_facts(lang),
            self.better.render_facts(lang)
        )
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
