//! Detectors: each a pure function of a position (and, for repetitions, the positions since the last
//! capture) that finds one of the ideas the strategy texts teach: captures and threats, houses with
//! one or two seeds the opponent reaches, double attacks, the kroo, feeding and tempo, the grand slam
//! and repetitions.

use oware_rules::{repetition_end, GameEnd, Move, MoveSet, Position, RuleSet, Side, HOUSES};

/// Seeds from which a house is a kroo: it laps the board when sown.
pub const KROO_SEEDS: u8 = 12;

/// A capture a move makes (or would make, for a threat).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// The move.
    pub mv: Move,
    /// Seeds the move sows.
    pub sown: u8,
    /// The opponent's houses taken, lowest first (for a grand slam: the houses it would take).
    pub houses: Vec<usize>,
    /// Seeds taken (0 for a grand slam under abapa).
    pub seeds: u8,
    /// The move would take every seed on the opponent's row: under abapa it captures nothing.
    pub grand_slam: bool,
}

/// The houses of the opponent of the mover that `mv` empties by capture, with the row as it stood
/// after sowing. `None` when the move is not the mover's or its house is empty.
fn capture_of(pos: &Position, mv: Move, rules: RuleSet) -> Option<Capture> {
    let mover = pos.side_to_move();
    if !mover.owns(mv.house()) || pos.house(mv.house()) == 0 {
        return None;
    }
    let sown = pos.house(mv.house());
    let (gains, _) = oware_rules::sowing(mv.house(), sown as usize);
    let gains = gains.to_le_bytes();
    // Under the awari rules a capture of the whole row is made, so that play shows which houses a
    // grand slam would take; abapa then says whether it counts.
    let taken_awari = pos.play_unchecked(mv, RuleSet::Awari);
    let played = pos.play_unchecked(mv, rules);
    let opponent = mover.opponent();
    let first = opponent.first_house();
    let houses: Vec<usize> = (first..first + 6)
        .filter(|&h| pos.house(h) + gains[h] > 0 && taken_awari.position.house(h) == 0)
        .collect();
    if taken_awari.captured == 0 {
        return None;
    }
    Some(Capture {
        mv,
        sown,
        houses,
        seeds: played.captured,
        grand_slam: played.captured == 0,
    })
}

/// The capture `mv` makes in `pos`, if it is legal and captures (or is a grand slam).
pub fn capture_by(pos: &Position, rules: RuleSet, mv: Move) -> Option<Capture> {
    if pos.check_move(mv, rules).is_some() {
        return None;
    }
    capture_of(pos, mv, rules)
}

/// Every legal move of the side to move that captures (grand slams included), most seeds first.
///
/// ```
/// use oware_coach::detect::captures;
/// use oware_rules::RuleSet;
/// // The seeds' example: South's F sows three and takes b and c, five seeds.
/// let pos = "4-4-4-4-4-3-4-1-2-4-4-4-3-3-S".parse().unwrap();
/// let found = captures(&pos, RuleSet::Abapa);
/// let f = found.iter().find(|c| c.mv.letter() == 'F').unwrap();
/// assert_eq!((f.sown, f.seeds), (3, 5));
/// assert_eq!(f.houses, vec![7, 8]);
/// ```
pub fn captures(pos: &Position, rules: RuleSet) -> Vec<Capture> {
    let mut found: Vec<Capture> = pos
        .legal_moves(rules)
        .filter_map(|mv| capture_of(pos, mv, rules))
        .collect();
    found.sort_by_key(|c| (std::cmp::Reverse(c.seeds), c.mv));
    found
}

/// The captures `attacker` threatens: what they could take if it were their move now.
pub fn threats(pos: &Position, rules: RuleSet, attacker: Side) -> Vec<Capture> {
    captures(&pos.with_side_to_move(attacker), rules)
}

/// The most seeds any of `captures` takes.
pub fn most_seeds(captures: &[Capture]) -> u8 {
    captures.iter().map(|c| c.seeds).max().unwrap_or(0)
}

/// A house with one or two seeds: a third seed from the opponent makes it 2 or 3, a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exposed {
    /// The house (0..12).
    pub house: usize,
    /// Seeds in it (1 or 2).
    pub seeds: u8,
    /// The opponent's houses whose last seed falls here when sown (counted as the seeds teach:
    /// by the seeds in each of the opponent's houses).
    pub reached_by: Vec<Move>,
}

/// The houses of `side` holding one or two seeds, each with the opponent's moves that reach it.
pub fn exposed_houses(pos: &Position, side: Side) -> Vec<Exposed> {
    let first = side.first_house();
    let opponent = side.opponent().first_house();
    (first..first + 6)
        .filter(|&h| matches!(pos.house(h), 1 | 2))
        .map(|house| Exposed {
            house,
            seeds: pos.house(house),
            reached_by: (opponent..opponent + 6)
                .filter(|&o| {
                    let seeds = pos.house(o) as usize;
                    seeds > 0 && oware_rules::sowing(o, seeds).1 == house
                })
                .filter_map(Move::new)
                .collect(),
        })
        .collect()
}

/// Two or more of the defender's houses attacked at once, so that no reply saves them all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoubleAttack {
    /// The side whose move attacks.
    pub attacker: Side,
    /// The attacker's captures, most seeds first; they end in different houses.
    pub threats: Vec<Capture>,
    /// The defender's houses under attack, lowest first.
    pub targets: Vec<usize>,
    /// The least the attacker can still take after the defender's best reply.
    pub still_taken: u8,
}

/// A double attack on the side to move: the opponent threatens captures ending in two or more
/// different houses, and whatever the side to move plays, a capture remains.
pub fn double_attack(pos: &Position, rules: RuleSet) -> Option<DoubleAttack> {
    let defender = pos.side_to_move();
    let attacker = defender.opponent();
    let found = threats(pos, rules, attacker);
    let found: Vec<Capture> = found.into_iter().filter(|c| c.seeds > 0).collect();
    let mut ends: Vec<usize> = found
        .iter()
        .filter_map(|c| c.houses.last().copied())
        .collect();
    ends.sort_unstable();
    ends.dedup();
    if ends.len() < 2 {
        return None;
    }
    let mut still_taken = u8::MAX;
    for reply in pos.legal_moves(rules) {
        let after = pos.play_unchecked(reply, rules).position;
        let left = if after.legal_moves(rules).is_empty() {
            0
        } else {
            most_seeds(&captures(&after, rules))
        };
        still_taken = still_taken.min(left);
    }
    if still_taken == 0 || still_taken == u8::MAX {
        return None;
    }
    let mut targets: Vec<usize> = found.iter().flat_map(|c| c.houses.clone()).collect();
    targets.sort_unstable();
    targets.dedup();
    Some(DoubleAttack {
        attacker,
        threats: found,
        targets,
        still_taken,
    })
}

/// A move of the kroo's owner's opponent that adds seeds to the kroo so that it takes less.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overload {
    /// The opponent's move.
    pub mv: Move,
    /// Where the kroo's last seed falls after this move.
    pub lands_on: usize,
    /// What the kroo then takes.
    pub capture_after: u8,
}

/// A house of 12 or more seeds: sown, it laps the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kroo {
    /// The house (0..12).
    pub house: usize,
    /// The side whose row holds it.
    pub owner: Side,
    /// Seeds in it.
    pub seeds: u8,
    /// Full laps over the eleven other houses.
    pub laps: u8,
    /// The house the last seed falls into.
    pub lands_on: usize,
    /// What it would capture if its owner sowed it now (whoever is to move).
    pub capture: Option<Capture>,
    /// The opponent's moves that overload it so that it takes less (only when it captures now).
    pub overloads: Vec<Overload>,
}

/// Every kroo on the board, South's first.
pub fn kroos(pos: &Position, rules: RuleSet) -> Vec<Kroo> {
    (0..HOUSES)
        .filter(|&h| pos.house(h) >= KROO_SEEDS)
        .map(|house| {
            let owner = if Side::South.owns(house) {
                Side::South
            } else {
                Side::North
            };
            let seeds = pos.house(house);
            let mv = Move::new(house).expect("a house index");
            let as_owner = pos.with_side_to_move(owner);
            let capture = capture_by(&as_owner, rules, mv);
            let now = capture.as_ref().map_or(0, |c| c.seeds);
            let overloads = if now == 0 {
                Vec::new()
            } else {
                let as_opponent = pos.with_side_to_move(owner.opponent());
                as_opponent
                    .legal_moves(rules)
                    .filter_map(|o| {
                        let after = as_opponent.play_unchecked(o, rules).position;
                        if after.house(house) <= seeds {
                            return None;
                        }
                        let capture_after = capture_by(&after, rules, mv).map_or(0, |c| c.seeds);
                        (capture_after < now).then(|| Overload {
                            mv: o,
                            lands_on: oware_rules::sowing(house, after.house(house) as usize).1,
                            capture_after,
                        })
                    })
                    .collect()
            };
            Kroo {
                house,
                owner,
                seeds,
                laps: seeds / (HOUSES as u8 - 1),
                lands_on: oware_rules::sowing(house, seeds as usize).1,
                capture,
                overloads,
            }
        })
        .collect()
}

/// When a feeding rule limits the side to move's choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FeedingRule {
    /// The rule set, which decides what the rule asks.
    pub rules: RuleSet,
    /// The opponent's row is empty: under abapa a move must give them seeds.
    pub opponent_empty: bool,
    /// The moves still allowed.
    pub allowed: MoveSet,
    /// Non-empty houses the rule forbids (abapa: they do not reach the empty row; awari: they leave
    /// the opponent without seeds, by not feeding or by capturing the whole row).
    pub forbidden: MoveSet,
}

/// The feeding rule, when it forbids a move of the side to move or the opponent's row is empty.
pub fn feeding_rule(pos: &Position, rules: RuleSet) -> Option<FeedingRule> {
    if pos.is_decided_by_stores() {
        return None;
    }
    let side = pos.side_to_move();
    let first = side.first_house();
    let non_empty: MoveSet = (first..first + 6)
        .filter(|&h| pos.house(h) > 0)
        .filter_map(Move::new)
        .collect();
    let allowed = pos.legal_moves(rules);
    let forbidden = MoveSet::from_bits(non_empty.bits() & !allowed.bits());
    let opponent_empty = pos.row_seeds(side.opponent()) == 0;
    (opponent_empty || !forbidden.is_empty()).then_some(FeedingRule {
        rules,
        opponent_empty,
        allowed,
        forbidden,
    })
}

/// Tempo: what a move leaves the opponent to play with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tempo {
    /// The move.
    pub mv: Move,
    /// The opponent's legal moves after it (0: the game ends).
    pub replies: usize,
    /// The mover's row is empty after it: the opponent must feed them.
    pub forces_feeding: bool,
    /// Every seed it sows stays on the mover's row: a waiting move that gives nothing away.
    pub waiting: bool,
}

/// Tempo of every legal move of the side to move.
pub fn tempo(pos: &Position, rules: RuleSet) -> Vec<Tempo> {
    let side = pos.side_to_move();
    pos.legal_moves(rules)
        .map(|mv| {
            let after = pos.play_unchecked(mv, rules).position;
            Tempo {
                mv,
                replies: after.legal_moves(rules).len(),
                forces_feeding: after.row_seeds(side) == 0,
                waiting: mv.column() + pos.house(mv.house()) as usize <= 5,
            }
        })
        .collect()
}

/// How many waiting moves `side` has in reserve: houses whose seeds all stay on their own row.
pub fn spare_moves(pos: &Position, side: Side) -> usize {
    let first = side.first_house();
    (0..6)
        .filter(|&c| {
            let s = pos.house(first + c) as usize;
            s > 0 && c + s <= 5
        })
        .count()
}

/// Runs of two or more neighbouring houses of `side` holding at most two seeds: one sowing that
/// ends there can make them all 2 or 3 and take them together (the seeds' "bomb").
pub fn weak_runs(pos: &Position, side: Side) -> Vec<std::ops::RangeInclusive<usize>> {
    let first = side.first_house();
    let mut runs = Vec::new();
    let mut start = None;
    for h in first..=first + 6 {
        let weak = h < first + 6 && pos.house(h) <= 2;
        match (weak, start) {
            (true, None) => start = Some(h),
            (false, Some(s)) => {
                if h - s >= 2 {
                    runs.push(s..=h - 1);
                }
                start = None;
            }
            _ => {}
        }
    }
    runs
}

/// A move that brings back a position seen since the last capture: the game ends at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repeat {
    /// The move.
    pub mv: Move,
    /// How the game ends.
    pub end: GameEnd,
}

/// The moves of the side to move that repeat a position of `history` (the positions since the last
/// capture, the current one last), with how the game would end.
pub fn repetitions_ahead(history: &[Position], rules: RuleSet) -> Vec<Repeat> {
    let Some(pos) = history.last() else {
        return Vec::new();
    };
    pos.legal_moves(rules)
        .filter_map(|mv| {
            let played = pos.play_unchecked(mv, rules);
            (played.captured == 0 && history.contains(&played.position)).then(|| Repeat {
                mv,
                end: repetition_end(&played.position, rules),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{EndReason, Game, Score};

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn the_seeds_capture_of_b_and_c() {
        let p = pos("4-4-4-4-4-3-4-1-2-4-4-4-3-3-S");
        let found = captures(&p, RuleSet::Abapa);
        let summary: Vec<_> = found
            .iter()
            .map(|c| (c.mv, c.sown, c.houses.clone(), c.seeds))
            .collect();
        // E (four seeds) ends in c too; D ends in b alone.
        assert_eq!(
            summary,
            vec![
                (mv("E"), 4, vec![7, 8], 5),
                (mv("F"), 3, vec![7, 8], 5),
                (mv("D"), 4, vec![7], 2)
            ]
        );
        assert!(!found[1].grand_slam);
        assert_eq!(capture_by(&p, RuleSet::Abapa, mv("C")), None);
        // North's view of the same board: nothing to take from South's fours.
        assert!(threats(&p, RuleSet::Abapa, Side::North).is_empty());
    }

    #[test]
    fn threats_are_the_opponents_captures() {
        // South's A holds 1: North's c (4 seeds) and f (1 seed) both end there and take 2.
        let p = pos("1-4-4-4-4-4-4-4-4-4-4-1-3-3-S");
        let t = threats(&p, RuleSet::Abapa, Side::North);
        let found: Vec<_> = t
            .iter()
            .map(|c| (c.mv, c.houses.clone(), c.seeds))
            .collect();
        assert_eq!(found, vec![(mv("c"), vec![0], 2), (mv("f"), vec![0], 2)]);
    }

    #[test]
    fn grand_slam_is_marked_and_captures_nothing_under_abapa() {
        let p = pos("0-0-0-0-4-2-1-1-0-0-0-0-20-20-S");
        let found = captures(&p, RuleSet::Abapa);
        assert_eq!(found.len(), 1);
        assert!(found[0].grand_slam);
        assert_eq!(found[0].seeds, 0);
        assert_eq!(found[0].houses, vec![6, 7]);
        // Under awari the move is barred while E feeds; the feeding rule says so.
        assert!(captures(&p, RuleSet::Awari).is_empty());
        let rule = feeding_rule(&p, RuleSet::Awari).unwrap();
        assert_eq!(rule.forbidden.to_string(), "F");
        assert!(!rule.opponent_empty);
        assert!(feeding_rule(&p, RuleSet::Abapa).is_none());
        // With F forced, awari takes the whole row.
        let p = pos("0-0-0-0-0-2-1-1-0-0-0-0-22-22-S");
        let found = captures(&p, RuleSet::Awari);
        assert_eq!((found[0].seeds, found[0].grand_slam), (4, false));
    }

    #[test]
    fn exposed_houses_and_who_reaches_them() {
        // South's C and D hold 2 each; North's b (8 seeds, house 7) ends in D (3); a with 8 ends in C.
        let p = pos("5-5-2-2-5-5-8-8-0-0-0-0-4-4-S");
        let e = exposed_houses(&p, Side::South);
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].house, e[0].seeds), (2, 2));
        assert_eq!(e[0].reached_by, vec![mv("a")]);
        assert_eq!(e[1].reached_by, vec![mv("b")]);
        assert!(exposed_houses(&Position::start(), Side::South).is_empty());
    }

    #[test]
    fn double_attack_on_two_houses() {
        // North threatens A (f: 1 seed lands on A, 1 -> 2) and C (d: 5 seeds, last on C, 2 -> 3).
        // No South move saves both (F would overload f with 6 seeds; here it holds 1).
        let p = pos("1-4-2-6-6-1-4-0-0-5-0-1-9-9-S");
        let da = double_attack(&p, RuleSet::Abapa).expect("a double attack");
        assert_eq!(da.attacker, Side::North);
        assert!(da.targets.contains(&0) && da.targets.contains(&2), "{da:?}");
        assert!(da.still_taken >= 2);
        // One threat only: not a double attack.
        let p = pos("1-4-4-6-6-6-4-0-0-3-0-1-6-7-S");
        assert!(double_attack(&p, RuleSet::Abapa).is_none());
    }

    #[test]
    fn kroo_laps_the_board_and_is_overloaded() {
        // The seeds' kroo: South's A holds 29, two laps over the 11 other houses (two seeds in each)
        // and seven more from B to b; North's empty a and b end with 3 each and are taken.
        let p = pos("29-0-0-0-0-0-0-0-1-0-0-0-9-9-S");
        let ks = kroos(&p, RuleSet::Abapa);
        assert_eq!(ks.len(), 1);
        let k = &ks[0];
        assert_eq!((k.house, k.owner, k.seeds, k.laps), (0, Side::South, 29, 2));
        assert_eq!(k.lands_on, 7);
        let cap = k.capture.as_ref().unwrap();
        assert_eq!(cap.houses, vec![6, 7]);
        assert_eq!(cap.seeds, 6);
        // North's c reaches nothing of South's: no overload.
        assert!(k.overloads.is_empty());
    }

    #[test]
    fn an_opponent_seed_makes_the_kroo_land_short() {
        // South's F holds 12: one lap, and the twelfth seed into a again: a (1) ends with 3, taken.
        // North's f (6 seeds) reaches F: with 13 the kroo lands on b (4 + 2), and takes nothing.
        let p = pos("2-2-2-2-3-12-1-4-4-4-4-6-0-2-S");
        let ks = kroos(&p, RuleSet::Abapa);
        assert_eq!(ks.len(), 1);
        let k = &ks[0];
        assert_eq!(k.lands_on, 6);
        assert_eq!(k.capture.as_ref().unwrap().seeds, 3);
        assert_eq!(k.overloads.len(), 1, "{:?}", k.overloads);
        assert_eq!(k.overloads[0].mv, mv("f"));
        assert_eq!(k.overloads[0].lands_on, 7);
        assert!(k.overloads[0].capture_after < 3);
    }

    #[test]
    fn must_feed_when_the_opponent_is_empty() {
        let p = pos("1-0-0-0-0-1-0-0-0-0-0-0-23-23-S");
        let rule = feeding_rule(&p, RuleSet::Abapa).unwrap();
        assert!(rule.opponent_empty);
        assert_eq!(rule.allowed.to_string(), "F");
        assert_eq!(rule.forbidden.to_string(), "A");
        assert!(feeding_rule(&Position::start(), RuleSet::Abapa).is_none());
    }

    #[test]
    fn tempo_counts_replies_and_waiting_moves() {
        // North has one seed in f; South's F (1 seed) feeds a; South's A (1) stays home.
        let p = pos("1-0-0-0-0-1-0-0-0-0-0-1-22-23-S");
        let t = tempo(&p, RuleSet::Abapa);
        let a = t.iter().find(|t| t.mv == mv("A")).unwrap();
        assert!(a.waiting);
        assert_eq!(a.replies, 1);
        let f = t.iter().find(|t| t.mv == mv("F")).unwrap();
        assert!(!f.waiting);
        assert_eq!(f.replies, 2);
        assert_eq!(spare_moves(&p, Side::South), 1);
        // Emptying one's own row forces the opponent to feed.
        let p = pos("0-0-0-0-0-1-0-0-0-0-2-2-22-21-S");
        assert!(tempo(&p, RuleSet::Abapa)[0].forces_feeding);
    }

    #[test]
    fn weak_neighbours_make_a_bomb() {
        let p = pos("4-0-1-2-4-4-4-4-4-4-4-4-3-6-S");
        assert_eq!(weak_runs(&p, Side::South), vec![1..=3]);
        let p = pos("4-4-4-4-0-0-4-4-4-4-4-4-4-4-N");
        assert_eq!(weak_runs(&p, Side::South), vec![4..=5]);
        assert!(weak_runs(&Position::start(), Side::North).is_empty());
    }

    #[test]
    fn repetition_ahead_ends_the_game() {
        // One seed each walking round: after 11 plies the 12th brings the start back.
        let start = pos("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S");
        let mut game = Game::from_position(start, RuleSet::Abapa);
        for _ in 0..11 {
            assert!(repetitions_ahead(game.history_since_capture(), RuleSet::Abapa).is_empty());
            let m = game.legal_moves().next().unwrap();
            game.play(m).unwrap();
        }
        let r = repetitions_ahead(game.history_since_capture(), RuleSet::Abapa);
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].end.reason, EndReason::Repetition);
        assert_eq!(r[0].end.score, Score::seeds(24, 24));
    }
}
