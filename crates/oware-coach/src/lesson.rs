//! Lessons of the seeds' strategy: captures and their chains, the kroo, the double attack, tempo,
//! feeding and the grand slam rule. Each lesson is a few steps; each step a position, a short text
//! in the seeds' own terms (from the catalogue, in every language) and the moves the learner must
//! find. Any other legal move gets the coach's words on what it does, from the detectors alone, so
//! that the answer is the same everywhere and costs no search.
//!
//! ```
//! use oware_coach::lesson;
//! use oware_coach::Lang;
//! let first = &lesson::all()[0];
//! assert_eq!(first.id, "capture-chains");
//! assert!(first.title(Lang::Fr).contains("chaînes"));
//! assert!(first.steps[0].answer(first.steps[0].moves[0], Lang::En).is_right());
//! ```

use std::sync::OnceLock;

use oware_rules::{Game, Move, Position, RuleSet};

use crate::explain::explain;
use crate::messages::{self as msg, Lang};
use crate::puzzle::{Feedback, Theme};

/// One lesson: its steps in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lesson {
    /// The lesson's name in requests and in the catalogue's keys (`lesson.<id>.title`).
    pub id: &'static str,
    /// The idea it teaches, named as the puzzles' themes.
    pub theme: Theme,
    /// The rules its positions are played under.
    pub rules: RuleSet,
    /// Its steps, in the order they are taught.
    pub steps: Vec<LessonStep>,
}

/// One step of a lesson: a position and the moves that answer it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LessonStep {
    /// The position, a fresh start (no history before it).
    pub position: Position,
    /// The moves the learner must find (any one of them will do).
    pub moves: Vec<Move>,
    /// The rules the position is played under.
    pub rules: RuleSet,
}

/// A step as the table writes it: the position, and the moves that answer it as letters.
type StepText = (&'static str, &'static str);

/// The lessons: id, theme, and each step's position and answers (move letters). The words are
/// the catalogue's `lesson.<id>.<step>` (from 1). Every position, and every answer's value at the
/// coach's depth against the best move's, is checked by the tests.
const LESSONS: &[(&str, Theme, &[StepText])] = &[
    (
        "capture-chains",
        Theme::Capture,
        &[
            ("2-0-3-0-1-1-2-4-0-3-0-2-15-15-S", "F"),
            ("1-0-2-0-0-2-1-2-0-4-1-3-15-17-S", "F"),
            ("0-1-0-0-2-3-1-2-1-5-0-3-14-16-S", "F"),
        ],
    ),
    (
        "kroo",
        Theme::Kroo,
        &[
            ("19-1-0-0-0-2-0-1-1-3-4-2-8-7-S", "A"),
            ("1-1-0-0-1-13-0-1-0-1-1-0-22-7-S", "F"),
            ("0-1-0-1-15-1-0-0-1-1-0-0-20-8-S", "E"),
        ],
    ),
    (
        "double-attack",
        Theme::DoubleAttack,
        &[
            ("0-0-0-5-1-5-0-0-1-0-1-1-20-14-S", "D"),
            ("0-1-0-1-2-0-0-1-4-0-2-0-14-23-N", "c"),
            ("0-0-0-0-1-0-0-1-4-0-6-2-13-21-N", "e"),
        ],
    ),
    (
        "tempo",
        Theme::Tempo,
        &[
            ("1-0-0-1-0-1-0-0-0-0-0-1-23-21-S", "A"),
            ("0-0-1-1-0-1-0-0-0-1-0-2-23-19-S", "D"),
            ("0-0-0-1-0-1-0-1-0-0-1-2-18-24-N", "b"),
        ],
    ),
    (
        "feeding",
        Theme::Feeding,
        &[
            ("0-0-1-0-2-1-0-0-0-0-0-0-23-21-S", "E"),
            ("0-0-0-0-0-0-0-0-0-0-2-1-22-23-N", "e"),
            ("0-0-0-0-0-0-1-0-0-0-2-1-20-24-N", "e"),
        ],
    ),
    (
        "grand-slam",
        Theme::GrandSlam,
        &[
            ("0-4-3-0-2-6-1-2-2-1-2-1-12-12-S", "E"),
            ("0-2-0-3-1-3-1-0-0-0-0-2-16-20-N", "f"),
            ("0-2-1-1-2-5-1-0-0-0-0-2-18-16-N", "f"),
        ],
    ),
];

/// Every lesson, in the order they are taught.
pub fn all() -> &'static [Lesson] {
    static ALL: OnceLock<Vec<Lesson>> = OnceLock::new();
    ALL.get_or_init(|| {
        LESSONS
            .iter()
            .map(|&(id, theme, steps)| Lesson {
                id,
                theme,
                rules: RuleSet::Abapa,
                steps: steps
                    .iter()
                    .map(|&(position, moves)| LessonStep {
                        // The table is part of the source and its tests parse every entry.
                        position: position.parse().expect("a lesson's position parses"),
                        moves: oware_rules::parse_move_letters(moves)
                            .expect("a lesson's moves are letters"),
                        rules: RuleSet::Abapa,
                    })
                    .collect(),
            })
            .collect()
    })
}

/// The lesson named `id`.
pub fn find(id: &str) -> Option<&'static Lesson> {
    all().iter().find(|l| l.id == id)
}

impl Lesson {
    /// The lesson's title.
    pub fn title(&self, lang: Lang) -> String {
        msg::format(lang, &format!("lesson.{}.title", self.id), &[])
    }

    /// What step `index` (from 0) asks, in the seeds' terms.
    pub fn text(&self, index: usize, lang: Lang) -> String {
        msg::format(lang, &format!("lesson.{}.{}", self.id, index + 1), &[])
    }
}

impl LessonStep {
    /// A game from the step's position.
    pub fn game(&self) -> Game {
        Game::from_position(self.position, self.rules)
    }

    /// The coach's answer to `mv`: what it does, and whether it is one the step asks for.
    pub fn answer(&self, mv: Move, lang: Lang) -> Feedback {
        let letter = mv.letter().to_string();
        let Some(why) = explain(&self.game(), mv, &[]).map(|e| e.render_facts(lang)) else {
            return Feedback::Illegal(msg::format(lang, "puzzle.illegal", &[("move", &letter)]));
        };
        if self.moves.contains(&mv) {
            Feedback::Right(msg::format(lang, "lesson.right", &[("why", &why)]))
        } else {
            Feedback::Wrong(msg::format(
                lang,
                "lesson.wrong",
                &[("move", &letter), ("why", &why)],
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{decided_in, loss, Analyst, DEPTH};
    use crate::explain::CLOSE;

    #[test]
    fn every_step_is_a_game_in_progress_whose_answers_are_legal() {
        assert!(all().len() >= 6);
        for lesson in all() {
            assert!(lesson.steps.len() >= 2, "{}", lesson.id);
            for (i, step) in lesson.steps.iter().enumerate() {
                let game = step.game();
                assert!(!game.is_over(), "{} step {}", lesson.id, i + 1);
                assert!(!step.moves.is_empty());
                for &mv in &step.moves {
                    assert!(
                        game.check_move(mv).is_ok(),
                        "{} step {}: {mv}",
                        lesson.id,
                        i + 1
                    );
                }
                // A step with one legal move asks nothing.
                assert!(
                    game.legal_moves().count() > 1,
                    "{} step {}",
                    lesson.id,
                    i + 1
                );
            }
        }
    }

    #[test]
    fn every_lesson_covers_the_themes_the_seeds_teach() {
        let themes: Vec<&str> = all().iter().map(|l| l.theme.code()).collect();
        for theme in [
            "capture",
            "kroo",
            "double-attack",
            "tempo",
            "feeding",
            "grand-slam",
        ] {
            assert!(themes.contains(&theme), "no lesson of {theme}");
        }
    }

    #[test]
    fn every_text_is_in_every_language() {
        for lesson in all() {
            for lang in Lang::ALL {
                let title = lesson.title(lang);
                assert!(!title.starts_with("lesson."), "{lang} {title}");
                for i in 0..lesson.steps.len() {
                    let text = lesson.text(i, lang);
                    assert!(!text.starts_with("lesson."), "{lang}: {text}");
                    if lang != Lang::En {
                        assert_ne!(text, lesson.text(i, Lang::En), "{lang}: not translated");
                    }
                }
            }
            // No step text beyond the steps.
            let extra = format!("lesson.{}.{}", lesson.id, lesson.steps.len() + 1);
            assert!(msg::keys().all(|k| k != extra), "{extra} has no step");
        }
    }

    /// The answers hold up at the depth the server analyses to: each within half a seed of the
    /// engine's best, so that no learner is told a good move is wrong, or a weak one right.
    #[test]
    fn every_answer_is_within_half_a_seed_of_the_engines_best() {
        let mut analyst = Analyst::new(DEPTH);
        for lesson in all() {
            for (i, step) in lesson.steps.iter().enumerate() {
                let analysis = analyst.analysis(&step.game());
                let best = analysis.best().expect("a game in progress").score;
                for &mv in &step.moves {
                    let value = analysis.value_of(mv).expect("a legal answer").score;
                    assert!(
                        loss(best, value) <= CLOSE,
                        "{} step {}: {mv} scores {value}, the best {best}",
                        lesson.id,
                        i + 1
                    );
                }
                // Every move within half a seed of the best is accepted: the step has no second
                // answer that it would call wrong. Where the best wins by force, the answer is the
                // quickest win: a slower one is a win too, but not the step's lesson.
                for v in &analysis.values {
                    let as_good = match decided_in(best) {
                        Some(plies) if plies > 0 => decided_in(v.score) == Some(plies),
                        _ => loss(best, v.score) <= CLOSE,
                    };
                    if as_good {
                        assert!(
                            step.moves.contains(&v.mv),
                            "{} step {}: {} is as good ({} against {best}) but not accepted",
                            lesson.id,
                            i + 1,
                            v.mv,
                            v.score
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn answers_say_what_a_move_does() {
        let step = &find("capture-chains").unwrap().steps[1];
        let right = step.answer(step.moves[0], Lang::En);
        assert!(right.is_right());
        assert!(right.text().contains("takes a and b: 5 seeds"), "{right:?}");
        let wrong = step.answer("A".parse().unwrap(), Lang::Es);
        assert!(!wrong.is_right());
        assert!(wrong.text().starts_with("A no es"), "{wrong:?}");
        assert!(matches!(
            step.answer("B".parse().unwrap(), Lang::En),
            Feedback::Illegal(_)
        ));
    }
}
