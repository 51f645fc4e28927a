//! Why a move is good or bad, in one or two sentences made from the detectors and the engine's score
//! and line.

use oware_rules::{EndReason, Game, GameEnd, Move, Side};

use crate::detect::{self, Capture};
use crate::engine::{decided_in, loss, Analyst, MoveValue};
use crate::messages::{self as msg, Lang};

/// Losses below this (centiseeds) make a move "nearly as good" as the best.
pub const CLOSE: i32 = 50;

/// Something a move does, found by the detectors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact {
    /// The move brings back an earlier position and ends the game.
    Repeats {
        /// How the game ends.
        end: GameEnd,
    },
    /// The move ends the game otherwise (a store passes 24, or the opponent cannot move).
    Ends {
        /// How the game ends.
        end: GameEnd,
    },
    /// The move captures (a kroo when it sows 12 or more).
    Captures {
        /// What it takes.
        capture: Capture,
    },
    /// The move would take the opponent's whole row: under abapa it captures nothing.
    GrandSlam {
        /// What it would take.
        capture: Capture,
    },
    /// After the move the opponent cannot save every attacked house.
    DoubleAttack {
        /// The opponent's houses attacked.
        targets: Vec<usize>,
    },
    /// The move adds to the opponent's kroo so that it takes less.
    Overloads {
        /// The kroo's house.
        house: usize,
        /// Seeds the kroo would take before the move.
        before: u8,
        /// Seeds it would take after.
        after: u8,
    },
    /// The opponent's row was empty: the move feeds it, as the rules require.
    MustFeed,
    /// After the move the opponent's `reply` attacks two or more houses at once.
    LeavesDoubleAttack {
        /// The opponent's attacking reply.
        reply: Move,
        /// The mover's houses it attacks.
        targets: Vec<usize>,
    },
    /// After the move the opponent captures: their best capture.
    LeavesThreat {
        /// The opponent's best capture.
        capture: Capture,
    },
    /// After the move the opponent's `reply` overloads the mover's kroo.
    KrooOverloaded {
        /// The opponent's reply.
        reply: Move,
        /// The mover's kroo.
        house: usize,
        /// Seeds the kroo would take before the reply.
        before: u8,
        /// Seeds it would take after.
        after: u8,
    },
    /// The opponent threatened `threat` before the move; afterwards nothing they can take touches
    /// its houses.
    Parries {
        /// The opponent's threat before the move.
        threat: Capture,
    },
    /// The move leaves the opponent few moves (tempo).
    Squeeze {
        /// The opponent's legal moves after it.
        replies: usize,
    },
    /// The move empties the mover's row: the opponent must feed it.
    ForcesFeeding,
    /// Nothing of the above.
    Quiet {
        /// Seeds the move sows.
        sown: u8,
    },
}

impl Fact {
    /// What the move does itself (`true`) or what it allows or prevents (`false`).
    fn is_action(&self) -> bool {
        matches!(
            self,
            Fact::Repeats { .. }
                | Fact::Ends { .. }
                | Fact::Captures { .. }
                | Fact::GrandSlam { .. }
                | Fact::DoubleAttack { .. }
                | Fact::Overloads { .. }
                | Fact::MustFeed
        )
    }
}

/// The facts about `mv` in the game's current position, most telling first; empty when the move is
/// not legal or the game is over.
pub fn facts(game: &Game, mv: Move) -> Vec<Fact> {
    if game.check_move(mv).is_err() {
        return Vec::new();
    }
    let rules = game.rules();
    let pos = *game.position();
    let mover = pos.side_to_move();
    let opponent = mover.opponent();
    let mut after_game = game.clone();
    let Ok(outcome) = after_game.play(mv) else {
        return Vec::new();
    };
    let after = *after_game.position();
    let mut facts = Vec::new();
    match outcome.end {
        Some(end) if end.reason == EndReason::Repetition => facts.push(Fact::Repeats { end }),
        Some(end) => facts.push(Fact::Ends { end }),
        None => {}
    }
    if let Some(capture) = detect::capture_by(&pos, rules, mv) {
        facts.push(if capture.grand_slam {
            Fact::GrandSlam { capture }
        } else {
            Fact::Captures { capture }
        });
    }
    if outcome.end.is_some() {
        return facts;
    }
    if let Some(da) = detect::double_attack(&after, rules) {
        facts.push(Fact::DoubleAttack {
            targets: da.targets,
        });
    }
    for kroo in detect::kroos(&pos, rules) {
        let Some(before) = kroo.capture.filter(|_| kroo.owner == opponent) else {
            continue;
        };
        let kroo_move = Move::new(kroo.house).expect("a house");
        let now = detect::capture_by(&after, rules, kroo_move).map_or(0, |c| c.seeds);
        if after.house(kroo.house) > kroo.seeds && now < before.seeds {
            facts.push(Fact::Overloads {
                house: kroo.house,
                before: before.seeds,
                after: now,
            });
        }
    }
    if detect::feeding_rule(&pos, rules).is_some_and(|r| r.opponent_empty) {
        facts.push(Fact::MustFeed);
    }
    // What the opponent can do next.
    let replies = after.legal_moves(rules);
    if let Some((reply, targets)) = replies.into_iter().find_map(|reply| {
        let next = after.play_unchecked(reply, rules).position;
        detect::double_attack(&next, rules).map(|da| (reply, da.targets))
    }) {
        facts.push(Fact::LeavesDoubleAttack { reply, targets });
    }
    let threats_after = detect::captures(&after, rules);
    let threats_before = detect::threats(&pos, rules, opponent);
    if let Some(threat) = threats_after.iter().find(|c| c.seeds > 0) {
        facts.push(Fact::LeavesThreat {
            capture: threat.clone(),
        });
    }
    for kroo in detect::kroos(&after, rules) {
        if let Some(first) = kroo.overloads.first().filter(|_| kroo.owner == mover) {
            facts.push(Fact::KrooOverloaded {
                reply: first.mv,
                house: kroo.house,
                before: kroo.capture.as_ref().map_or(0, |c| c.seeds),
                after: first.capture_after,
            });
        }
    }
    // A threat is parried when nothing the opponent can take afterwards touches its houses.
    if let Some(threat) = threats_before.iter().find(|c| c.seeds > 0) {
        let touched = threats_after
            .iter()
            .any(|c| c.seeds > 0 && c.houses.iter().any(|h| threat.houses.contains(h)));
        if !touched {
            facts.push(Fact::Parries {
                threat: threat.clone(),
            });
        }
    }
    let replies_before = pos.with_side_to_move(opponent).legal_moves(rules).len();
    if replies.len() <= 2 && replies.len() < replies_before {
        facts.push(Fact::Squeeze {
            replies: replies.len(),
        });
    }
    if after.row_seeds(mover) == 0 {
        facts.push(Fact::ForcesFeeding);
    }
    if facts.is_empty() {
        facts.push(Fact::Quiet {
            sown: pos.house(mv.house()),
        });
    }
    facts
}

/// The engine's judgement of a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Centiseeds for the mover.
    pub score: i32,
    /// The best move.
    pub best: Move,
    /// The best move's score, in centiseeds for the mover.
    pub best_score: i32,
    /// Centiseeds given away against the best (0 for the best move).
    pub loss: i32,
    /// The line the engine expects after the move, the move first.
    pub line: Vec<Move>,
}

/// A move with what it does and what the engine thinks of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// The move explained.
    pub mv: Move,
    /// The side that plays it.
    pub mover: Side,
    /// What the move does, from the detectors.
    pub facts: Vec<Fact>,
    /// What the engine thinks of it; `None` when no analysis was given.
    pub verdict: Option<Verdict>,
}

/// The explanation of `mv` with the engine's `values` of the position (from
/// [`Analyst::values`]; an empty slice gives an explanation without a verdict). `None` when the
/// move is not legal.
pub fn explain(game: &Game, mv: Move, values: &[MoveValue]) -> Option<Explanation> {
    game.check_move(mv).ok()?;
    let verdict = values.first().and_then(|best| {
        let played = values.iter().find(|v| v.mv == mv)?;
        Some(Verdict {
            score: played.score,
            best: best.mv,
            best_score: best.score,
            loss: loss(best.score, played.score),
            line: played.line.clone(),
        })
    });
    Some(Explanation {
        mv,
        mover: game.position().side_to_move(),
        facts: facts(game, mv),
        verdict,
    })
}

/// Every legal move explained, the engine's best first.
pub fn explain_all(game: &Game, analyst: &mut Analyst) -> Vec<Explanation> {
    let values = analyst.values(game);
    values
        .iter()
        .filter_map(|v| explain(game, v.mv, &values))
        .collect()
}

impl Explanation {
    /// The facts that make the first sentence: what the move does and what it allows or prevents,
    /// at most two.
    pub fn main_facts(&self) -> Vec<&Fact> {
        let action = self.facts.iter().find(|f| f.is_action());
        let consequence = self.facts.iter().find(|f| !f.is_action());
        let mut chosen: Vec<&Fact> = action.into_iter().chain(consequence).collect();
        if chosen.len() < 2 {
            let more = self.facts.iter().find(|f| !chosen.contains(f));
            chosen.extend(more);
        }
        chosen
    }

    /// The first fact that speaks for the move: what it does, or a threat it parries, or the
    /// moves it takes from the opponent.
    pub fn best_point(&self) -> Option<&Fact> {
        self.facts.iter().find(|f| {
            f.is_action() && !matches!(f, Fact::GrandSlam { .. })
                || matches!(
                    f,
                    Fact::Parries { .. } | Fact::Squeeze { .. } | Fact::ForcesFeeding
                )
        })
    }

    /// One fact in words.
    pub fn render_fact(&self, fact: &Fact, lang: Lang) -> String {
        render_fact(fact, self.mv, self.mover, lang)
    }

    /// The facts in words, without the engine's verdict.
    pub fn render_facts(&self, lang: Lang) -> String {
        self.main_facts()
            .into_iter()
            .map(|f| render_fact(f, self.mv, self.mover, lang))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// One or two sentences: the facts, then the engine's verdict.
    pub fn render(&self, lang: Lang) -> String {
        let facts = self.render_facts(lang);
        match &self.verdict {
            Some(v) => format!("{facts} {}", render_verdict(v, self.mv, lang)),
            None => facts,
        }
    }
}

/// What the feeding rule forbids in the game's current position, in words; `None` when it forbids
/// nothing.
pub fn rule_note(game: &Game, lang: Lang) -> Option<String> {
    if game.is_over() {
        return None;
    }
    let pos = game.position();
    let rule = detect::feeding_rule(pos, game.rules())?;
    if rule.forbidden.is_empty() {
        return None;
    }
    let moves: Vec<String> = rule.forbidden.map(|m| m.letter().to_string()).collect();
    let key = if rule.opponent_empty {
        "rule.mustFeed"
    } else {
        "rule.noStarving"
    };
    Some(msg::format(
        lang,
        key,
        &[
            ("moves", &msg::list(lang, &moves)),
            ("opponent", msg::side(lang, pos.side_to_move().opponent())),
        ],
    ))
}

/// A score as the coach says it: `+1.5` in seeds, or a win or loss in so many plies.
pub fn render_score(score: i32, lang: Lang) -> String {
    match decided_in(score) {
        Some(p) => {
            let plies = msg::count(lang, "plies", p.unsigned_abs());
            let key = if p > 0 { "score.win" } else { "score.loss" };
            msg::format(lang, key, &[("plies", &plies)])
        }
        None => {
            // Rounded to tenths first, so that a score that rounds to nothing reads `0.0`, not
            // `-0.0` or `+0.0`.
            let tenths = (f64::from(score) / 10.0).round() as i32;
            let sign = match tenths.signum() {
                1 => "+",
                -1 => "-",
                _ => "",
            };
            let (whole, tenth) = (tenths.unsigned_abs() / 10, tenths.unsigned_abs() % 10);
            format!("{sign}{whole}{}{tenth}", msg::raw(lang, "decimal"))
        }
    }
}

/// A line of moves, `F b A`, or the end of the game when empty.
pub fn render_line(line: &[Move], lang: Lang) -> String {
    if line.is_empty() {
        return msg::raw(lang, "line.end").to_string();
    }
    line.iter()
        .map(|m| m.letter().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn render_end(end: &GameEnd) -> String {
    end.score.to_string()
}

fn render_fact(fact: &Fact, mv: Move, mover: Side, lang: Lang) -> String {
    let letter = mv.letter().to_string();
    let opponent = msg::side(lang, mover.opponent());
    let seeds = |n: u8| msg::count(lang, "seeds", u32::from(n));
    let args_capture = |key: &str, c: &Capture, who: &str| {
        msg::format(
            lang,
            key,
            &[
                ("move", &letter),
                ("reply", &c.mv.letter().to_string()),
                ("sown", &seeds(c.sown)),
                ("houses", &msg::houses(lang, &c.houses)),
                ("seeds", &seeds(c.seeds)),
                ("opponent", who),
            ],
        )
    };
    match fact {
        Fact::Repeats { end } => msg::format(
            lang,
            "fact.repeats",
            &[("move", &letter), ("score", &render_end(end))],
        ),
        Fact::Ends { end } => msg::format(
            lang,
            "fact.ends",
            &[("move", &letter), ("score", &render_end(end))],
        ),
        Fact::Captures { capture } => {
            let key = if capture.sown >= detect::KROO_SEEDS {
                "fact.krooCaptures"
            } else {
                "fact.captures"
            };
            args_capture(key, capture, opponent)
        }
        Fact::GrandSlam { capture } => args_capture("fact.grandSlam", capture, opponent),
        Fact::DoubleAttack { targets } => msg::format(
            lang,
            "fact.doubleAttack",
            &[
                ("move", &letter),
                ("houses", &msg::houses(lang, targets)),
                ("opponent", opponent),
            ],
        ),
        Fact::Overloads {
            house,
            before,
            after,
        } => msg::format(
            lang,
            "fact.overloads",
            &[
                ("move", &letter),
                ("opponent", opponent),
                ("house", &msg::houses(lang, &[*house])),
                ("before", &seeds(*before)),
                ("after", &seeds(*after)),
            ],
        ),
        Fact::MustFeed => msg::format(
            lang,
            "fact.mustFeed",
            &[("move", &letter), ("opponent", opponent)],
        ),
        Fact::LeavesDoubleAttack { reply, targets } => msg::format(
            lang,
            "fact.leavesDoubleAttack",
            &[
                ("move", &letter),
                ("opponent", opponent),
                ("reply", &reply.letter().to_string()),
                ("houses", &msg::houses(lang, targets)),
            ],
        ),
        Fact::LeavesThreat { capture } => args_capture("fact.leavesThreat", capture, opponent),
        Fact::KrooOverloaded {
            reply,
            house,
            before,
            after,
        } => msg::format(
            lang,
            "fact.krooOverloaded",
            &[
                ("move", &letter),
                ("opponent", opponent),
                ("reply", &reply.letter().to_string()),
                ("house", &msg::houses(lang, &[*house])),
                ("before", &seeds(*before)),
                ("after", &seeds(*after)),
            ],
        ),
        Fact::Parries { threat } => msg::format(
            lang,
            "fact.parries",
            &[
                ("move", &letter),
                ("houses", &msg::houses(lang, &threat.houses)),
                ("opponent", opponent),
                ("reply", &threat.mv.letter().to_string()),
            ],
        ),
        Fact::Squeeze { replies } => msg::format(
            lang,
            "fact.squeeze",
            &[
                ("move", &letter),
                ("opponent", opponent),
                ("replies", &msg::count(lang, "moves", *replies as u32)),
            ],
        ),
        Fact::ForcesFeeding => msg::format(
            lang,
            "fact.forcesFeeding",
            &[
                ("move", &letter),
                ("side", msg::side(lang, mover)),
                ("opponent", opponent),
            ],
        ),
        Fact::Quiet { sown } => msg::format(
            lang,
            "fact.quiet",
            &[("move", &letter), ("sown", &seeds(*sown))],
        ),
    }
}

fn render_verdict(v: &Verdict, mv: Move, lang: Lang) -> String {
    let score = render_score(v.score, lang);
    let line = render_line(&v.line, lang);
    let best = v.best.letter().to_string();
    let best_score = render_score(v.best_score, lang);
    let decided = decided_in(v.score).is_some() || decided_in(v.best_score).is_some();
    if v.best == mv || v.score == v.best_score {
        msg::format(lang, "verdict.best", &[("score", &score), ("line", &line)])
    } else if decided {
        msg::format(
            lang,
            "verdict.decided",
            &[
                ("best", &best),
                ("bestScore", &best_score),
                ("score", &score),
                ("line", &line),
            ],
        )
    } else if v.loss < CLOSE {
        msg::format(
            lang,
            "verdict.close",
            &[
                ("best", &best),
                ("score", &score),
                ("bestScore", &best_score),
            ],
        )
    } else {
        msg::format(
            lang,
            "verdict.worse",
            &[
                ("loss", &msg::seeds_amount(lang, v.loss)),
                ("best", &best),
                ("bestScore", &best_score),
                ("line", &line),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{Position, RuleSet};

    fn game(position: &str) -> Game {
        Game::from_position(position.parse::<Position>().unwrap(), RuleSet::Abapa)
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn the_seeds_example_says_f_takes_b_and_c() {
        let g = game("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S");
        let e = explain(&g, mv("F"), &[]).unwrap();
        let en = e.render(Lang::En);
        assert!(
            en.starts_with("F sows 3 seeds and takes b and c: 5 seeds."),
            "{en}"
        );
        assert!(e
            .render(Lang::Ca)
            .starts_with("F sembra 3 llavors i captura b i c: 5 llavors."));
        assert!(e.render(Lang::Es).contains("captura b y c: 5 semillas"));
        assert!(e.render(Lang::Fr).contains("prend b et c : 5 graines"));
    }

    #[test]
    fn a_move_that_leaves_a_house_open_says_who_takes_it() {
        // South's A (1 seed) is attacked by North's f; B sows into C..F and leaves A as it is.
        let g = game("1-4-4-4-4-4-4-4-4-4-4-1-3-3-S");
        let facts = facts(&g, mv("B"));
        assert!(
            facts
                .iter()
                .any(|f| matches!(f, Fact::LeavesThreat { capture } if capture.houses == vec![0])),
            "{facts:?}"
        );
        // A itself moves the seed away: the threat is parried.
        let facts = self::facts(&g, mv("A"));
        assert!(
            facts.iter().any(|f| matches!(f, Fact::Parries { .. })),
            "{facts:?}"
        );
        let e = explain(&g, mv("A"), &[]).unwrap().render(Lang::En);
        assert!(e.contains("keeps A safe from North's"), "{e}");
    }

    #[test]
    fn grand_slam_and_feeding_are_explained() {
        let g = game("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S");
        let e = explain(&g, mv("F"), &[]).unwrap();
        assert!(matches!(e.facts[0], Fact::GrandSlam { .. }));
        assert!(e.render(Lang::En).contains("grand slam"));
        let g = game("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
        let e = explain(&g, mv("F"), &[]).unwrap();
        assert!(e.facts.contains(&Fact::MustFeed), "{:?}", e.facts);
        // A is illegal there: no explanation.
        assert!(explain(&g, mv("A"), &[]).is_none());
    }

    #[test]
    fn the_feeding_rules_are_named_with_the_moves_they_forbid() {
        let g = game("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
        assert_eq!(
            rule_note(&g, Lang::En).unwrap(),
            "North has no seeds: a move must give them some, so A may not be played."
        );
        let awari = |p: &str| Game::from_position(p.parse().unwrap(), RuleSet::Awari);
        let g = awari("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S");
        assert_eq!(
            rule_note(&g, Lang::Fr).unwrap(),
            "En awari, F est interdit : il laisserait Nord sans graines."
        );
        assert!(rule_note(&game("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S"), Lang::En).is_none());
        assert!(rule_note(&Game::new(RuleSet::Abapa), Lang::En).is_none());
    }

    #[test]
    fn of_two_lost_moves_the_slower_loss_is_the_best() {
        let g = game("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S");
        let all = explain_all(&g, &mut Analyst::new(6));
        let worse = all[1].render(Lang::En);
        assert!(!worse.contains("The engine's choice"), "{worse}");
        assert!(worse.contains(" is better ("), "{worse}");
    }

    #[test]
    fn creating_a_double_attack_is_seen() {
        // North to move; after North's c (1 seed into d), d (5) and f (1) attack A and C. North's f
        // takes A at once and leaves one threat at most.
        let g = game("1-4-2-6-6-1-4-0-1-4-0-1-9-9-N");
        let facts = facts(&g, mv("f"));
        assert!(
            !facts.iter().any(|f| matches!(f, Fact::DoubleAttack { .. })),
            "{facts:?}"
        );
        let found = self::facts(&g, mv("c"))
            .into_iter()
            .find(|f| matches!(f, Fact::DoubleAttack { .. }));
        assert!(found.is_some());
    }

    #[test]
    fn overloading_the_opponents_kroo_is_explained() {
        // South's F (12) takes a now; North's f (6 seeds) reaches F and makes it land on b.
        let g = game("2-2-2-2-3-12-1-4-4-4-4-6-0-2-N");
        let e = explain(&g, mv("f"), &[]).unwrap();
        assert_eq!(
            e.facts[0],
            Fact::Overloads {
                house: 5,
                before: 3,
                after: 0
            }
        );
        assert!(e.render(Lang::En).starts_with(
            "f overloads South's kroo in F: it would take 0 seeds instead of 3 seeds."
        ));
        // The other moves leave the kroo its capture.
        let e = explain(&g, mv("b"), &[]).unwrap();
        assert!(e
            .facts
            .iter()
            .any(|f| matches!(f, Fact::LeavesThreat { capture } if capture.mv == mv("F"))));
    }

    #[test]
    fn a_repetition_is_explained_with_the_final_score() {
        let start: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S".parse().unwrap();
        let mut g = Game::from_position(start, RuleSet::Abapa);
        for _ in 0..11 {
            let m = g.legal_moves().next().unwrap();
            g.play(m).unwrap();
        }
        let m = g.legal_moves().next().unwrap();
        let e = explain(&g, m, &[]).unwrap();
        assert!(matches!(e.facts[0], Fact::Repeats { .. }), "{:?}", e.facts);
        let text = e.render(Lang::Es);
        assert!(
            text.contains("repite una posición anterior: la partida termina 24-24"),
            "{text}"
        );
    }

    #[test]
    fn verdicts_name_the_better_move() {
        let g = game("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S");
        let mut analyst = Analyst::new(4);
        let all = explain_all(&g, &mut analyst);
        assert_eq!(all.len(), 6);
        assert_eq!(all[0].mv, mv("F"));
        let first = all[0].render(Lang::En);
        assert!(first.contains("The engine's choice"), "{first}");
        let worst = all.last().unwrap();
        let v = worst.verdict.as_ref().unwrap();
        assert!(v.loss >= CLOSE);
        let text = worst.render(Lang::En);
        assert!(text.contains("against F"), "{text}");
        for lang in Lang::ALL {
            for e in &all {
                assert!(!e.render(lang).contains('{'), "{}", e.render(lang));
            }
        }
    }

    #[test]
    fn scores_and_lines_in_words() {
        assert_eq!(render_score(150, Lang::En), "+1.5");
        assert_eq!(render_score(-250, Lang::Fr), "-2,5");
        assert_eq!(render_score(-4, Lang::En), "0.0");
        assert_eq!(render_score(0, Lang::Ca), "0,0");
        assert_eq!(render_score(-5, Lang::En), "-0.1");
        assert_eq!(render_score(1234, Lang::En), "+12.3");
        let win = oware_engine::WIN - 3;
        assert_eq!(render_score(win, Lang::En), "a win in 3 plies");
        assert_eq!(render_score(-win, Lang::Es), "derrota en 3 medias jugadas");
        assert_eq!(render_line(&[mv("F"), mv("b")], Lang::En), "F b");
        assert_eq!(render_line(&[], Lang::Ca), "el final de la partida");
    }
}
