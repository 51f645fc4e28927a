//! The review of a game: every move's loss against the engine's best (from the one analysis of
//! each position, [`crate::engine::analyse`]), the evaluation over the game, each player's
//! accuracy, and the moves that gave away at least a threshold of seeds, with why and the better
//! move.

use oware_rules::{Game, Move, Side};

use crate::engine::{decided_in, loss, seeds_value, PositionAnalysis};
use crate::explain::{explain, render_line, render_outlook, Explanation, CLOSE};
use crate::messages::{self as msg, Lang};

/// How bad a move is, by the seeds it gives away; records mark them `?!`, `?` and `??`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mark {
    /// Half a seed or more.
    Inaccuracy,
    /// A seed or more.
    Mistake,
    /// Three seeds or more.
    Blunder,
}

impl Mark {
    /// The mark of a loss in centiseeds, if it earns one.
    pub fn of(loss: i32) -> Option<Mark> {
        match loss {
            l if l >= 300 => Some(Mark::Blunder),
            l if l >= 100 => Some(Mark::Mistake),
            l if l >= CLOSE => Some(Mark::Inaccuracy),
            _ => None,
        }
    }

    /// `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

/// One move of the game as the analysis of the position before it judges it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply {
    /// 0-based index of the move in the game.
    pub ply: usize,
    /// The move's number as records write it: `7.` for South, `7...` for North.
    pub label: String,
    /// The side that played it.
    pub mover: Side,
    /// The move played.
    pub played: Move,
    /// Its score, centiseeds for the mover.
    pub score: i32,
    /// The engine's best move there.
    pub best: Move,
    /// The best move's score, centiseeds for the mover.
    pub best_score: i32,
    /// Centiseeds given away against the best.
    pub loss: i32,
    /// The engine's line after the move played, the move first.
    pub line: Vec<Move>,
    /// The depth the position was searched to.
    pub depth: u32,
}

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

/// A game reviewed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Review {
    /// Every move played, judged.
    pub plies: Vec<Ply>,
    /// South's value of each position of the game, the start first and the last one last, in
    /// centiseeds (a decided game counts as 48 seeds, see [`seeds_value`]).
    pub evaluation: Vec<i32>,
    /// The moves of the player asked for that gave away the threshold or more, in the order
    /// played.
    pub mistakes: Vec<Mistake>,
}

impl Review {
    /// The share of `side`'s moves, in percent, that give away less than half a seed; `None` when
    /// they made none.
    pub fn accuracy(&self, side: Side) -> Option<u32> {
        let theirs: Vec<&Ply> = self.plies.iter().filter(|p| p.mover == side).collect();
        let good = theirs.iter().filter(|p| p.loss < CLOSE).count();
        (!theirs.is_empty()).then(|| (100 * good / theirs.len()) as u32)
    }

    /// The seeds `side` gave away per move on average, in centiseeds (a lost won game counts as 48
    /// seeds); `None` when they made no move.
    pub fn average_loss(&self, side: Side) -> Option<i32> {
        let losses: Vec<i64> = self
            .plies
            .iter()
            .filter(|p| p.mover == side)
            .map(|p| i64::from(p.loss))
            .collect();
        (!losses.is_empty()).then(|| (losses.iter().sum::<i64>() / losses.len() as i64) as i32)
    }

    /// The game's turning points, in the order played: the mistakes that change the result the
    /// engine expects for the mover, or give away [`TURNING_LOSS`] or more while the game is still
    /// open (see [`is_turning_point`]). Of more than `most`, those that gave away the most.
    pub fn turning_points(&self, most: usize) -> Vec<&Mistake> {
        let mut turning: Vec<&Mistake> = self
            .mistakes
            .iter()
            .filter(|m| {
                self.plies
                    .get(m.ply)
                    .is_some_and(|p| is_turning_point(p.best_score, p.score))
            })
            .collect();
        turning.sort_by_key(|m| (std::cmp::Reverse(m.loss), m.ply));
        turning.truncate(most);
        turning.sort_by_key(|m| m.ply);
        turning
    }
}

/// What a score says the game will come to for the mover: a win or a loss (decided, or by
/// [`WIDE_MARGIN`] or more), or still open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outlook {
    /// Won, or ahead by a wide margin.
    Winning,
    /// Neither side far ahead.
    Open,
    /// Lost, or behind by a wide margin.
    Losing,
}

/// A lead in seeds that the weaker side rarely makes up; a move in a game already this far apart
/// is a turning point only if it changes the result.
pub const WIDE_MARGIN: i32 = 800;

/// The loss, in centiseeds, that makes a move a turning point of an open game.
pub const TURNING_LOSS: i32 = 200;

impl Outlook {
    /// The outlook of a score in centiseeds for the mover.
    pub fn of(score: i32) -> Outlook {
        match seeds_value(score) {
            s if s >= WIDE_MARGIN => Outlook::Winning,
            s if s <= -WIDE_MARGIN => Outlook::Losing,
            _ => Outlook::Open,
        }
    }
}

/// Whether a move scored `played` where the best scored `best` (centiseeds for the mover) turned
/// the game: it changes the outlook (a won game let go, a lost one reached from an open one), or
/// gives away [`TURNING_LOSS`] or more while the game is open. Seeds given away in a game already
/// won or lost by a wide margin do not turn it: a review that marks them hides the real swings.
pub fn is_turning_point(best: i32, played: i32) -> bool {
    let before = Outlook::of(best);
    before != Outlook::of(played) || (before == Outlook::Open && loss(best, played) >= TURNING_LOSS)
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

/// Reviews `game` (from its start, its moves in order) with `analyse`, the one analysis of each
/// position: every move judged, South's value of every position, and the moves of `player` (both
/// players when `None`) whose loss reaches `threshold` centiseeds.
pub fn review(
    game: &Game,
    player: Option<Side>,
    analyse: &mut dyn FnMut(&Game) -> PositionAnalysis,
    threshold: i32,
) -> Review {
    let mut replay = Game::from_position(*game.start(), game.rules());
    let mut out = Review::default();
    for (ply, &played) in game.moves().iter().enumerate() {
        let mover = replay.position().side_to_move();
        let analysis = analyse(&replay);
        let (Some(best), Some(value)) = (analysis.best(), analysis.value_of(played)) else {
            break;
        };
        let south = |score: i32| if mover == Side::South { score } else { -score };
        out.evaluation.push(south(seeds_value(best.score)));
        let loss = analysis.loss_of(played).unwrap_or(0);
        let label = move_label(game.start().side_to_move(), ply);
        out.plies.push(Ply {
            ply,
            label: label.clone(),
            mover,
            played,
            score: value.score,
            best: best.mv,
            best_score: best.score,
            loss,
            line: value.line.clone(),
            depth: analysis.depth,
        });
        if player.is_none_or(|p| p == mover) && loss >= threshold.max(1) {
            if let (Some(played), Some(better)) = (
                explain(&replay, played, &analysis.values),
                explain(&replay, best.mv, &analysis.values),
            ) {
                out.mistakes.push(Mistake {
                    ply,
                    label,
                    played,
                    better,
                    loss,
                });
            }
        }
        if replay.play(played).is_err() {
            break;
        }
    }
    if out.plies.len() == game.ply_count() {
        let last = match replay.end() {
            Some(end) => match end.score.winner() {
                Some(Side::South) => 4800,
                Some(Side::North) => -4800,
                None => 0,
            },
            None => {
                let analysis = analyse(&replay);
                let mover = replay.position().side_to_move();
                let best = analysis.best().map_or(0, |b| seeds_value(b.score));
                if mover == Side::South {
                    best
                } else {
                    -best
                }
            }
        };
        out.evaluation.push(last);
    }
    out
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
                        (
                            "score",
                            &render_outlook(v.score, v.by_database, played.mover, lang),
                        ),
                        ("best", &best),
                        (
                            "bestScore",
                            &render_outlook(v.best_score, v.best_by_database, played.mover, lang),
                        ),
                    ],
                )
            }
            _ => msg::format(
                lang,
                "review.mistake",
                &[
                    ("ply", &self.label),
                    ("move", &move_letter),
                    ("loss", &msg::seeds_about(lang, self.loss)),
                    ("best", &best),
                ],
            ),
        };
        // The engine's line is not in the words: the page shows it on request, beside them.
        let mut text = format!("{head} {}", played.render_facts(lang));
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

impl Mistake {
    /// The line the engine expects after the mistake, in words ("The engine expects …"), shown
    /// apart from [`Mistake::render`]'s plain words.
    pub fn render_line(&self, lang: Lang) -> Option<String> {
        let verdict = self.played.verdict.as_ref()?;
        let line = render_line(&verdict.line, lang);
        Some(msg::format(lang, "review.line", &[("line", &line)]))
    }
}

/// The line a review prints when no move reaches the threshold.
pub fn render_clean(lang: Lang, player: Side, threshold: i32) -> String {
    msg::format(
        lang,
        "review.clean",
        &[
            ("side", msg::side(lang, player)),
            ("loss", &msg::seeds_about(lang, threshold)),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turning_points_are_changed_results_and_big_losses_in_open_games() {
        let win_in = |plies: i32| oware_engine::WIN - plies;
        // An open game thrown away: +1 to -2 seeds.
        assert!(is_turning_point(100, -200));
        // A won game let go, even for a seed's difference on the board.
        assert!(is_turning_point(win_in(9), 300));
        // An open game turned into a loss.
        assert!(is_turning_point(200, -900));
        // A seed and a half in an open game: a mistake, not a turning point.
        assert!(!is_turning_point(100, -50));
        // A lost game lost faster, or with fewer seeds: nothing turned.
        assert!(!is_turning_point(-1000, -win_in(9)));
        assert!(!is_turning_point(-900, -1400));
        // A win by a wide margin kept with fewer seeds to spare.
        assert!(!is_turning_point(1500, 900));
        assert!(!is_turning_point(win_in(5), win_in(9)));
    }

    #[test]
    fn move_labels_follow_records() {
        assert_eq!(move_label(Side::South, 0), "1.");
        assert_eq!(move_label(Side::South, 1), "1...");
        assert_eq!(move_label(Side::South, 4), "3.");
        assert_eq!(move_label(Side::North, 0), "1...");
        assert_eq!(move_label(Side::North, 1), "2.");
    }
}
