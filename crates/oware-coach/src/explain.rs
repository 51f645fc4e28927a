//! Why a move is good or bad, in one or two sentences made from the detectors and the engine's score
//! and line.

use oware_rules::{Game, GameEnd, Move, Position, Side};

use crate::detect::{self, Capture};
use crate::engine::{decided_in, loss, moves_in, PositionAnalysis, ScoredMove};
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
    /// After the move the mover threatens a capture they did not threaten before (a single
    /// attack; two at once are a double attack).
    Threatens {
        /// The capture threatened.
        capture: Capture,
    },
    /// The move brings one of the mover's houses to 12 seeds or more: a kroo, to lap the board
    /// later.
    BuildsKroo {
        /// The house.
        house: usize,
        /// Seeds in it after the move.
        seeds: u8,
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
    /// After the move the mover's row holds neighbouring houses of two seeds or fewer that one
    /// sowing of the opponent reaches: a capture of them all together (a "bomb") is near.
    LeavesWeakRun {
        /// The houses of the run, lowest first.
        houses: Vec<usize>,
    },
    /// In an endgame, the waiting moves each side keeps in reserve after the move (moves whose
    /// seeds stay on the mover's own row): the side with more can wait the other out.
    Spares {
        /// The mover's waiting moves.
        mine: usize,
        /// The opponent's waiting moves.
        theirs: usize,
    },
    /// The engine's line after the move: its first capture, made `after` these moves (the move
    /// first). For a bad move it is the refutation: what the opponent's best reply does.
    LineCaptures {
        /// The moves before the capture, the move explained first.
        after: Vec<Move>,
        /// The side that captures.
        by: Side,
        /// The capture.
        capture: Capture,
    },
    /// The best move captures now, more than this move: the capture it passes up.
    Misses {
        /// The best move's capture.
        capture: Capture,
    },
    /// A move that gives seeds away and captures nothing, where nothing nearer says why: what it
    /// sows (the reason is in the engine's line, beyond what the coach looks at).
    Sows {
        /// Seeds the move sows.
        sown: u8,
    },
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
                | Fact::Threatens { .. }
                | Fact::BuildsKroo { .. }
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
    let repeat = detect::repetitions_ahead(game.history_since_capture(), rules)
        .into_iter()
        .find(|r| r.mv == mv);
    match (repeat, outcome.end) {
        (Some(r), _) => facts.push(Fact::Repeats { end: r.end }),
        (None, Some(end)) => facts.push(Fact::Ends { end }),
        (None, None) => {}
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
    } else {
        let before = detect::most_seeds(&detect::threats(&pos, rules, mover));
        let threats = detect::threats(&after, rules, mover);
        if let Some(capture) = threats.into_iter().find(|c| c.seeds > before.max(1)) {
            facts.push(Fact::Threatens { capture });
        }
    }
    let first = mover.first_house();
    if let Some(house) = (first..first + 6).find(|&h| {
        h != mv.house() && pos.house(h) < detect::KROO_SEEDS && after.house(h) >= detect::KROO_SEEDS
    }) {
        facts.push(Fact::BuildsKroo {
            house,
            seeds: after.house(house),
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
    if let Some(houses) = new_weak_run(&pos, &after, mover) {
        facts.push(Fact::LeavesWeakRun { houses });
    }
    let tempo = detect::tempo(&pos, rules)
        .into_iter()
        .find(|t| t.mv == mv)
        .expect("the move is legal");
    let replies_before = pos.with_side_to_move(opponent).legal_moves(rules).len();
    if tempo.replies <= 2 && tempo.replies < replies_before {
        facts.push(Fact::Squeeze {
            replies: tempo.replies,
        });
    }
    if tempo.forces_feeding {
        facts.push(Fact::ForcesFeeding);
    }
    if facts.is_empty() {
        // A quiet move in an endgame is about waiting moves: who runs out first must give seeds.
        let (mine, theirs) = (
            detect::spare_moves(&after, mover),
            detect::spare_moves(&after, opponent),
        );
        if u32::from(after.row_seeds(Side::South)) + u32::from(after.row_seeds(Side::North))
            <= ENDGAME_SEEDS
            && mine != theirs
        {
            facts.push(Fact::Spares { mine, theirs });
        }
    }
    if facts.is_empty() {
        facts.push(Fact::Quiet {
            sown: pos.house(mv.house()),
        });
    }
    facts
}

/// Seeds on the board from which waiting moves decide the game more than captures do.
const ENDGAME_SEEDS: u32 = 16;

/// A run of weak neighbouring houses of `mover` that the move makes (it was not there before)
/// and that a sowing of the opponent reaches.
fn new_weak_run(before: &Position, after: &Position, mover: Side) -> Option<Vec<usize>> {
    let old = detect::weak_runs(before, mover);
    let reached: Vec<usize> = detect::exposed_houses(after, mover)
        .into_iter()
        .filter(|e| !e.reached_by.is_empty())
        .map(|e| e.house)
        .collect();
    detect::weak_runs(after, mover)
        .into_iter()
        .filter(|run| {
            !old.iter()
                .any(|o| o.start() <= run.start() && run.end() <= o.end())
        })
        .find(|run| run.clone().any(|h| reached.contains(&h)))
        .map(|run| run.collect())
}

/// Plies of the engine's line the coach reads for a capture that explains a move; further when
/// nothing nearer does.
const LOOK_AHEAD: usize = 3;
const LOOK_FURTHER: usize = 7;

/// The first capture in the engine's line after the move (the move's own capture is a fact of its
/// own), within `look_ahead` plies.
fn line_capture(game: &Game, line: &[Move], look_ahead: usize) -> Option<Fact> {
    let rules = game.rules();
    let mut pos = *game.position();
    for (i, &m) in line.iter().enumerate().take(look_ahead + 1) {
        if pos.check_move(m, rules).is_some() {
            return None;
        }
        if i > 0 {
            if let Some(capture) =
                detect::capture_by(&pos, rules, m).filter(|c| c.seeds > 0 && !c.grand_slam)
            {
                return Some(Fact::LineCaptures {
                    after: line[..i].to_vec(),
                    by: pos.side_to_move(),
                    capture,
                });
            }
        }
        pos = pos.play_unchecked(m, rules).position;
    }
    None
}

/// The engine's judgement of a move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// Centiseeds for the mover.
    pub score: i32,
    /// `score` is a decided game the endgame databases proved, at an unknown distance (see
    /// [`ScoredMove::by_database`]).
    pub by_database: bool,
    /// The best move.
    pub best: Move,
    /// The best move's score, in centiseeds for the mover.
    pub best_score: i32,
    /// The same as `by_database`, for `best_score`.
    pub best_by_database: bool,
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
    pub verdict: Option<Judgement>,
}

/// The explanation of `mv` with the engine's `values` of the position (from
/// [`crate::engine::analyse`]; an empty slice gives an explanation without a verdict). `None` when
/// the move is not legal.
pub fn explain(game: &Game, mv: Move, values: &[ScoredMove]) -> Option<Explanation> {
    game.check_move(mv).ok()?;
    let verdict = values.first().and_then(|best| {
        let played = values.iter().find(|v| v.mv == mv)?;
        Some(Judgement {
            score: played.score,
            by_database: played.by_database,
            best: best.mv,
            best_score: best.score,
            best_by_database: best.by_database,
            loss: loss(best.score, played.score),
            line: played.line.clone(),
        })
    });
    let mover = game.position().side_to_move();
    let mut facts = facts(game, mv);
    if let Some(v) = &verdict {
        let bad = v.loss >= CLOSE;
        let pos = game.position();
        let taken = |m: Move| {
            detect::capture_by(pos, game.rules(), m).filter(|c| c.seeds > 0 && !c.grand_slam)
        };
        let own = taken(mv).map_or(0, |c| c.seeds);
        let misses = taken(v.best)
            .filter(|c| bad && c.seeds > own)
            .map(|capture| Fact::Misses { capture });
        // A bad move is explained by the opponent's reply, a good one by what its line wins: the
        // line's first capture, if the right side makes it. When nothing else says why a bad
        // move is bad, the coach reads further down the line.
        let wanted = if bad { mover.opponent() } else { mover };
        let said = misses.is_some()
            || facts.iter().any(|f| {
                matches!(
                    f,
                    Fact::LeavesThreat { .. }
                        | Fact::LeavesDoubleAttack { .. }
                        | Fact::KrooOverloaded { .. }
                        | Fact::LeavesWeakRun { .. }
                )
            });
        let look_ahead = if bad && !said {
            LOOK_FURTHER
        } else {
            LOOK_AHEAD
        };
        let found = line_capture(game, &v.line, look_ahead)
            .filter(|f| matches!(f, Fact::LineCaptures { by, .. } if *by == wanted));
        if let Some(Fact::LineCaptures { after, by, capture }) = found {
            // The reply itself is what the threat it leaves said: say it once.
            facts.retain(|f| {
                !matches!(f, Fact::LeavesThreat { capture: c } if bad && after.len() == 1 && c.mv == capture.mv)
                    && !matches!(f, Fact::Quiet { .. } | Fact::Spares { .. })
            });
            let fact = Fact::LineCaptures { after, by, capture };
            if bad {
                facts.insert(0, fact);
            } else {
                facts.push(fact);
            }
        }
        if let Some(misses) = misses {
            facts.retain(|f| !matches!(f, Fact::Quiet { .. } | Fact::Spares { .. }));
            facts.push(misses);
        }
        if bad {
            // "Leaves nothing to take" would make a bad move sound harmless.
            for f in &mut facts {
                if let Fact::Quiet { sown } = *f {
                    *f = Fact::Sows { sown };
                }
            }
        }
    }
    Some(Explanation {
        mv,
        mover,
        facts,
        verdict,
    })
}

/// Every legal move explained with the position's analysis, the engine's best first.
pub fn explain_all(game: &Game, analysis: &PositionAnalysis) -> Vec<Explanation> {
    analysis
        .values
        .iter()
        .filter_map(|v| explain(game, v.mv, &analysis.values))
        .collect()
}

impl Explanation {
    /// The facts that make the first sentences: for a move that gives seeds away, the opponent's
    /// reply first; then what the move does and what it allows or prevents, at most two more.
    pub fn main_facts(&self) -> Vec<&Fact> {
        // What a bad move allows, or the capture it passes up, says why it is bad.
        let reasons: Vec<&Fact> = self
            .facts
            .iter()
            .filter(|f| {
                matches!(f, Fact::LineCaptures { by, .. } if *by != self.mover)
                    || matches!(f, Fact::Misses { .. })
            })
            .collect();
        let rest = || self.facts.iter().filter(|f| !reasons.contains(f));
        let action = rest().find(|f| f.is_action());
        let consequence = rest()
            .find(|f| !f.is_action())
            .filter(|_| reasons.is_empty());
        let mut chosen: Vec<&Fact> = action
            .into_iter()
            .chain(reasons.iter().copied())
            .chain(consequence)
            .collect();
        if chosen.len() < 2 {
            let more = rest().find(|f| !chosen.contains(f));
            chosen.extend(more);
        }
        chosen
    }

    /// The first fact that speaks for the move: what it does, or a threat it parries, or the
    /// moves it takes from the opponent, or what its line wins.
    pub fn best_point(&self) -> Option<&Fact> {
        self.facts.iter().find(|f| {
            f.is_action() && !matches!(f, Fact::GrandSlam { .. })
                || matches!(
                    f,
                    Fact::Parries { .. }
                        | Fact::Squeeze { .. }
                        | Fact::ForcesFeeding
                        | Fact::Spares { .. }
                )
                || matches!(f, Fact::LineCaptures { by, .. } if *by == self.mover)
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
            Some(v) => format!("{facts} {}", render_verdict(v, self.mv, self.mover, lang)),
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

/// A score as the coach says it, for `mover`: `+1.5` in seeds, or who wins in how many moves
/// (each player's sowing is a move, as the move list numbers them) and plies: "South wins in 7
/// moves (13 plies)"; or, for a decided score the endgame databases proved (`by_database`, see
/// [`ScoredMove::by_database`]), who wins and how it is known: "South wins (endgame database)".
pub fn render_score(score: i32, by_database: bool, mover: Side, lang: Lang) -> String {
    match decided_in(score) {
        Some(p) if by_database => {
            let winner = if p > 0 { mover } else { mover.opponent() };
            msg::format(
                lang,
                "score.winsByDatabase",
                &[("side", msg::side(lang, winner))],
            )
        }
        Some(p) => {
            let plies = p.unsigned_abs();
            let winner = if p > 0 { mover } else { mover.opponent() };
            msg::format(
                lang,
                "score.wins",
                &[
                    ("side", msg::side(lang, winner)),
                    ("moves", &msg::count(lang, "moves", moves_in(plies))),
                    ("plies", &msg::count(lang, "plies", plies)),
                ],
            )
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

/// A score for a sentence that names no side: who wins and when, or the seeds and whose they are.
pub fn render_outlook(score: i32, by_database: bool, mover: Side, lang: Lang) -> String {
    let value = render_score(score, by_database, mover, lang);
    if decided_in(score).is_some() {
        value
    } else {
        msg::format(
            lang,
            "score.for",
            &[("score", &value), ("side", msg::side(lang, mover))],
        )
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
        Fact::Threatens { capture } => args_capture("fact.threatens", capture, opponent),
        Fact::BuildsKroo { house, seeds: n } => msg::format(
            lang,
            "fact.buildsKroo",
            &[
                ("move", &letter),
                ("house", &msg::houses(lang, &[*house])),
                ("seeds", &seeds(*n)),
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
        Fact::LeavesWeakRun { houses } => msg::format(
            lang,
            "fact.leavesWeakRun",
            &[
                ("move", &letter),
                ("houses", &msg::houses(lang, houses)),
                ("opponent", opponent),
            ],
        ),
        Fact::Spares { mine, theirs } => msg::format(
            lang,
            "fact.spares",
            &[
                ("move", &letter),
                ("mine", &msg::count(lang, "waiting", *mine as u32)),
                ("theirs", &msg::count(lang, "waiting", *theirs as u32)),
                ("opponent", opponent),
            ],
        ),
        Fact::LineCaptures { after, by, capture } => {
            let line = render_line(after, lang);
            msg::format(
                lang,
                "fact.lineCaptures",
                &[
                    ("line", &line),
                    ("side", msg::side(lang, *by)),
                    ("reply", &capture.mv.letter().to_string()),
                    ("houses", &msg::houses(lang, &capture.houses)),
                    ("seeds", &seeds(capture.seeds)),
                ],
            )
        }
        Fact::Misses { capture } => args_capture("fact.misses", capture, opponent),
        Fact::Sows { sown } => msg::format(
            lang,
            "fact.sows",
            &[("move", &letter), ("sown", &seeds(*sown))],
        ),
        Fact::Quiet { sown } => msg::format(
            lang,
            "fact.quiet",
            &[("move", &letter), ("sown", &seeds(*sown))],
        ),
    }
}

fn render_verdict(v: &Judgement, mv: Move, mover: Side, lang: Lang) -> String {
    let score = render_score(v.score, v.by_database, mover, lang);
    let line = render_line(&v.line, lang);
    let best = v.best.letter().to_string();
    let best_score = render_score(v.best_score, v.best_by_database, mover, lang);
    let decided = decided_in(v.score).is_some() || decided_in(v.best_score).is_some();
    if v.best == mv || v.score == v.best_score {
        msg::format(lang, "verdict.best", &[("score", &score), ("line", &line)])
    } else if decided {
        msg::format(
            lang,
            "verdict.decided",
            &[
                ("move", &mv.letter().to_string()),
                ("best", &best),
                (
                    "bestScore",
                    &render_outlook(v.best_score, v.best_by_database, mover, lang),
                ),
                (
                    "score",
                    &render_outlook(v.score, v.by_database, mover, lang),
                ),
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
                ("loss", &msg::seeds_about(lang, v.loss)),
                ("best", &best),
                ("line", &line),
            ],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Analyst;
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
        assert!(e.render(Lang::Fr).contains("prend b et c\u{a0}: 5 graines"));
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
            "En awari, F est interdit\u{a0}: il laisserait Nord sans graines."
        );
        assert!(rule_note(&game("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S"), Lang::En).is_none());
        assert!(rule_note(&Game::new(RuleSet::Abapa), Lang::En).is_none());
    }

    #[test]
    fn of_two_lost_moves_the_slower_loss_is_the_best() {
        let g = game("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S");
        let all = explain_all(&g, &Analyst::new(6).analysis(&g));
        let worse = all[1].render(Lang::En);
        assert!(!worse.contains("The engine's choice"), "{worse}");
        assert!(worse.contains("With F, North wins in"), "{worse}");
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
        let all = explain_all(&g, &Analyst::new(4).analysis(&g));
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
    fn a_bad_move_is_explained_by_the_reply_or_the_capture_it_passes_up() {
        // The seeds' example: F takes b and c; E takes them too but North's f then takes E; C, B
        // and A take nothing and pass F's capture up.
        let g = game("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S");
        let all = explain_all(&g, &Analyst::new(12).analysis(&g));
        let said = |m: &str| all.iter().find(|e| e.mv == mv(m)).unwrap().render(Lang::En);
        assert!(said("F").starts_with("F sows 3 seeds and takes b and c: 5 seeds."));
        let e = said("E");
        assert!(e.contains(", North plays f and takes E: "), "{e}");
        for m in ["C", "B", "A"] {
            let text = said(m);
            assert!(
                text.starts_with(&format!("{m} passes up F, which takes b and c: 5 seeds.")),
                "{text}"
            );
            assert!(!text.contains("leaves nothing to take"), "{text}");
            assert!(text.contains("gives away about"), "{text}");
        }
        let fr = all
            .iter()
            .find(|e| e.mv == mv("C"))
            .unwrap()
            .render(Lang::Fr);
        assert!(
            fr.starts_with("C laisse passer F, qui prend b et c\u{a0}: 5 graines."),
            "{fr}"
        );
    }

    #[test]
    fn scores_and_lines_in_words() {
        let s = Side::South;
        assert_eq!(render_score(150, false, s, Lang::En), "+1.5");
        assert_eq!(render_score(-250, false, s, Lang::Fr), "-2,5");
        assert_eq!(render_score(-4, false, s, Lang::En), "0.0");
        assert_eq!(render_score(0, false, s, Lang::Ca), "0,0");
        assert_eq!(render_score(-5, false, s, Lang::En), "-0.1");
        assert_eq!(render_score(1234, false, s, Lang::En), "+12.3");
        let win = oware_engine::WIN - 13;
        assert_eq!(
            render_score(win, false, s, Lang::En),
            "South wins in 7 moves (13 plies)"
        );
        assert_eq!(
            render_score(-(oware_engine::WIN - 14), false, s, Lang::Es),
            "Norte gana en 7 jugadas (14 medias jugadas)"
        );
        assert_eq!(
            render_score(oware_engine::WIN - 1, false, Side::North, Lang::Fr),
            "Nord gagne en 1 coup (1 demi-coup)"
        );
        assert_eq!(
            render_score(win, true, s, Lang::En),
            "South wins (endgame database)"
        );
        assert_eq!(
            render_outlook(-win, true, s, Lang::Ca),
            "Nord guanya (base de dades de finals)"
        );
        assert_eq!(
            render_score(-win, true, Side::North, Lang::Es),
            "Sur gana (base de datos de finales)"
        );
        assert_eq!(
            render_score(win, true, s, Lang::Fr),
            "Sud gagne (base de données de finales)"
        );
        assert_eq!(render_outlook(150, false, s, Lang::Ca), "+1,5 per a Sud");
        assert_eq!(render_line(&[mv("F"), mv("b")], Lang::En), "F b");
        assert_eq!(render_line(&[], Lang::Ca), "el final de la partida");
    }
}
