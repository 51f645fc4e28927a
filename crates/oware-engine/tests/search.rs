//! The search against exact answers: immediate wins, forced results in small endgames checked by a
//! brute-force solver over `Game` (which applies every rule, repetitions included), the stop flag,
//! levels, and play against a greedy player.

use std::sync::Arc;
use std::time::{Duration, Instant};

use oware_engine::{
    choose_move, plies_to_end, Engine, EngineOptions, Limits, Probe, PROOF_PREMIUM, WIN,
};
use oware_rules::{Game, Move, Position, RuleSet, Side};

fn game(pos: &str, rules: RuleSet) -> Game {
    Game::from_position(pos.parse().unwrap(), rules)
}

fn engine() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 4,
        ..EngineOptions::default()
    })
}

fn two_threads() -> Engine {
    Engine::new(EngineOptions {
        hash_mb: 4,
        threads: 2,
        ..EngineOptions::default()
    })
}

#[test]
fn takes_the_winning_capture() {
    // F captures 2 from a: 25 seeds, an immediate win.
    let g = game("0-0-0-1-0-1-1-1-0-0-0-0-23-21-S", RuleSet::Abapa);
    let r = engine().search(&g, &Limits::depth(6), &mut |_| {});
    assert_eq!(r.best, Some(Move::from_letter('F').unwrap()));
    assert_eq!(r.score, WIN - 1);
    assert_eq!(plies_to_end(r.score), Some(1));
}

#[test]
fn game_over_has_no_move() {
    let g = game("4-4-4-4-4-3-0-0-0-0-0-0-25-0-N", RuleSet::Abapa);
    let r = engine().search(&g, &Limits::depth(4), &mut |_| {});
    assert_eq!(r.best, None);
    assert!(choose_move(&g, 10, Duration::from_millis(10)).is_none());
}

/// The exact result (+1 win, 0 draw, -1 loss) for the side to move, by playing every line to its end;
/// `None` when that takes more than `budget` nodes (the tree of a small endgame can still be huge).
fn solve(game: &mut Game, alpha: i32, beta: i32, budget: &mut u64) -> Option<i32> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let mut alpha = alpha;
    if let Some(end) = game.end() {
        let me = game.position().side_to_move();
        return Some(
            (end.score.halves(me) as i32 - end.score.halves(me.opponent()) as i32).signum(),
        );
    }
    let mut best = -2;
    for mv in game.legal_moves() {
        game.play(mv).unwrap();
        let v = solve(game, -beta, -alpha, budget).map(|v| -v);
        game.undo();
        let v = v?;
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    Some(best)
}

fn random_endgame(state: &mut u64, seeds: u8) -> Position {
    loop {
        let mut houses = [0u8; 12];
        for _ in 0..seeds {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            houses[(*state % 12) as usize] += 1;
        }
        let side = if *state & 256 == 0 {
            Side::South
        } else {
            Side::North
        };
        let off = 48 - seeds;
        let pos = Position::new(houses, [off / 2, off - off / 2], side).unwrap();
        if !pos.legal_moves(RuleSet::Abapa).is_empty() {
            return pos;
        }
    }
}

#[test]
fn small_endgames_agree_with_a_brute_force_solver() {
    let mut state = 0x1234_5678_9abc_def1u64;
    let mut decided = 0;
    let mut solved = 0;
    let total = 80;
    for rules in [RuleSet::Abapa, RuleSet::Awari] {
        for i in 0..total / 2 {
            let pos = random_endgame(&mut state, 2 + (i % 3) as u8);
            let mut g = Game::from_position(pos, rules);
            let Some(exact) = solve(&mut g, -2, 2, &mut 200_000) else {
                continue;
            };
            solved += 1;
            let r = engine().search(&g, &Limits::depth(60), &mut |_| {});
            match plies_to_end(r.score) {
                Some(p) => {
                    decided += 1;
                    assert_eq!(p.signum(), exact, "{rules} {pos}: engine {}", r.score);
                }
                None => assert_eq!(exact, 0, "{rules} {pos}: engine {}", r.score),
            }
            if exact == 0 {
                assert!(plies_to_end(r.score).is_none(), "{rules} {pos}");
            }
        }
    }
    assert!(solved > total / 2, "only {solved} solved");
    assert!(decided > solved / 4, "only {decided} decided");
}

#[test]
fn a_repetition_is_scored_by_each_rule_set() {
    // One seed each, walking round the board: a 12-ply cycle. South has more seeds... no: equal seeds,
    // equal stores, so under both rule sets the repetition is a draw; with North's store one higher,
    // North wins under abapa (each gathers its own row) and under awari (split).
    let g = game("0-0-0-0-0-1-0-0-0-0-0-1-23-23-S", RuleSet::Abapa);
    let r = engine().search(&g, &Limits::depth(30), &mut |_| {});
    assert_eq!(r.score, 0, "draw by repetition");
    // South 2 seeds on its row, North 1; stores 22-23: at the repetition abapa gives 24-24.
    let g = game("0-0-0-0-1-1-0-0-0-0-0-1-22-23-S", RuleSet::Abapa);
    let r = engine().search(&g, &Limits::depth(40), &mut |_| {});
    let exact = solve(&mut g.clone(), -2, 2, &mut 10_000_000).unwrap();
    assert_eq!(plies_to_end(r.score).map_or(0, i32::signum), exact);
}

#[test]
fn the_game_history_counts_for_repetitions() {
    // Play the 12-ply cycle from the draw position minus its last move: the engine at the root must
    // see that the only move repeats the start, a draw, even though the position alone looks won.
    let start: Position = "0-0-0-0-0-1-0-0-0-0-0-1-23-23-S".parse().unwrap();
    let mut g = Game::from_position(start, RuleSet::Abapa);
    for _ in 0..11 {
        let mv = g.legal_moves().next().unwrap();
        g.play(mv).unwrap();
    }
    assert!(!g.is_over());
    assert_eq!(g.legal_moves().len(), 1);
    let r = engine().search(&g, &Limits::depth(10), &mut |_| {});
    assert_eq!(r.score, 0);
    let mut replay = g.clone();
    replay.play(r.best.unwrap()).unwrap();
    assert!(replay.is_over());
}

#[test]
fn stop_from_another_thread_returns_a_legal_move() {
    let mut e = engine();
    let control = e.control();
    let g = Game::new(RuleSet::Abapa);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        control.stop();
    });
    let t = Instant::now();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let r = e.search(&g, &limits, &mut |_| {});
    stopper.join().unwrap();
    assert!(t.elapsed() < Duration::from_secs(5));
    assert!(g.legal_moves().contains(r.best.unwrap()));
    assert!(r.depth >= 1);
}

#[test]
fn analysis_scores_every_legal_move_best_first() {
    let g = game("0-0-0-1-0-1-1-1-0-0-0-0-23-21-S", RuleSet::Abapa);
    let analysis = engine().analyse(&g, &Limits::depth(6));
    // A won game may still be won by more seeds: the analysis goes on to the depth asked.
    assert_eq!(analysis.depth, 6);
    assert!(analysis.nodes > 0);
    let scores = analysis.moves;
    assert_eq!(scores.len(), g.legal_moves().len());
    assert_eq!(scores[0].mv, Move::from_letter('F').unwrap());
    assert!(scores.windows(2).all(|w| w[0].score >= w[1].score));
    for s in &scores {
        let replay = Game::replay(*g.position(), RuleSet::Abapa, &s.pv);
        assert!(replay.is_ok(), "{:?}", s.pv);
    }
}

#[test]
fn every_level_plays_legal_moves() {
    let g = Game::replay(
        Position::start(),
        RuleSet::Abapa,
        &oware_rules::parse_move_letters("FfBeBc").unwrap(),
    )
    .unwrap();
    let mut e = engine();
    let mut random = 7u64;
    for level in 1..=10 {
        let mv = oware_engine::player::choose_move_with(
            &mut e,
            &g,
            level,
            Duration::from_millis(20),
            &mut random,
        );
        assert!(g.legal_moves().contains(mv.unwrap()), "level {level}");
    }
}

#[test]
fn lazy_smp_threads_search_and_agree_on_a_forced_win() {
    let mut e = two_threads();
    let g = game("0-0-0-1-0-1-1-1-0-0-0-0-23-21-S", RuleSet::Abapa);
    let r = e.search(&g, &Limits::depth(8), &mut |_| {});
    assert_eq!(r.score, WIN - 1);
}

#[test]
fn an_analysis_on_two_threads_scores_every_move_as_the_solver_does() {
    // Each root move goes to one of the threads: every move must still get its exact result.
    let mut state = 0x0bad_cafe_f00d_1234u64;
    let mut checked = 0;
    for i in 0..80 {
        let pos = random_endgame(&mut state, 3 + (i % 2) as u8);
        let g = Game::from_position(pos, RuleSet::Abapa);
        let mut e = two_threads();
        let scores = e.analyse(&g, &Limits::depth(40)).moves;
        assert_eq!(scores.len(), g.legal_moves().len(), "{pos}");
        assert!(scores.windows(2).all(|w| w[0].score >= w[1].score));
        for s in &scores {
            assert_eq!(s.pv.first(), Some(&s.mv), "{pos}");
            let mut after = g.clone();
            after.play(s.mv).unwrap();
            let Some(exact) = solve(&mut after, -2, 2, &mut 200_000).map(|v| -v) else {
                continue;
            };
            checked += 1;
            let found = plies_to_end(s.score).map_or(0, i32::signum);
            assert_eq!(found, exact, "{pos} {}: score {}", s.mv, s.score);
        }
    }
    assert!(checked > 40, "only {checked} moves solved");
}

#[test]
fn an_analysis_on_two_threads_stops_on_time_and_when_told() {
    let mut e = two_threads();
    let g = Game::new(RuleSet::Abapa);
    let t = Instant::now();
    let analysis = e.analyse(&g, &Limits::movetime(Duration::from_millis(100)));
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(analysis.moves.len(), 6);
    assert!(analysis.depth >= 4, "depth {}", analysis.depth);
    let control = e.control();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        control.stop();
    });
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    let t = Instant::now();
    let scores = e.analyse_controlled(&g, &limits).moves;
    stopper.join().unwrap();
    assert!(t.elapsed() < Duration::from_secs(5));
    assert_eq!(scores.len(), 6);
    assert!(scores.iter().all(|s| s.pv.first() == Some(&s.mv)));
}

/// Captures the most seeds now; among equal captures, the first move.
fn greedy(game: &Game) -> Move {
    let pos = game.position();
    game.legal_moves()
        .max_by_key(|&mv| {
            (
                pos.play_unchecked(mv, game.rules()).captured,
                -(mv.house() as i32),
            )
        })
        .unwrap()
}

#[test]
fn full_strength_beats_a_greedy_player() {
    let mut e = engine();
    for engine_side in [Side::South, Side::North] {
        let mut g = Game::new(RuleSet::Abapa);
        while !g.is_over() {
            let mv = if g.position().side_to_move() == engine_side {
                e.search(&g, &Limits::depth(8), &mut |_| {}).best.unwrap()
            } else {
                greedy(&g)
            };
            g.play(mv).unwrap();
        }
        assert_eq!(
            g.end().unwrap().score.winner(),
            Some(engine_side),
            "{:?}",
            g.moves()
        );
    }
}

struct EverythingIsADraw;

impl Probe for EverythingIsADraw {
    fn probe(&self, pos: &Position, _rules: RuleSet) -> Option<i32> {
        (pos.board_seeds() <= 10).then_some(0)
    }
}

#[test]
fn the_probe_hook_is_consulted_after_captures() {
    // Every capture leads to a position the (fake) databases know: the rest is shared evenly. E and
    // F capture 2: 23-21 with the rest shared, a win by two seeds, and no line does better.
    let search = |rules| {
        let mut e = Engine::new(EngineOptions {
            hash_mb: 1,
            probe: Some(Arc::new(EverythingIsADraw)),
            ..EngineOptions::default()
        });
        let g = game("0-0-0-0-2-1-1-1-1-0-0-0-21-21-S", rules);
        e.search(&g, &Limits::depth(4), &mut |_| {})
    };
    // Awari with the root in the databases' reach: every line ends in a proof, a decided score.
    let r = search(RuleSet::Awari);
    assert!(plies_to_end(r.score).is_some_and(|p| p > 0), "{}", r.score);
    // Abapa: a history since the last capture leaves the databases only bounds, and lines end in
    // evaluations too, so database values are scored in seeds, with the premium of a proof.
    let r = search(RuleSet::Abapa);
    assert_eq!(r.score, 2 * 100 + PROOF_PREMIUM);
}

/// The bench positions' node totals at depths 12 and 16, as `oware bench -d 12` / `-d 16` print
/// them: pinned so that a change meant as pure speed (same search, same tree) is caught if it changes
/// the tree. Depth 16 is there because a change of the position key or of the table only moves
/// entries between buckets, which shows only once the table holds enough of them (the multiply
/// key left depth 12 at 97,216 and moved depth 16 from 472,927 to 472,933). A change that alters
/// the search on purpose updates these numbers, with match evidence in docs/engine-matches.md
/// (the weights refitted at depth 10 moved them from 97,216 and 472,933; the table that starts a
/// game with 1 MiB in use moved depth 16 from 426,600; internal iterative reduction with reductions
/// from the second move in non-PV nodes moved them from 67,404 and 426,704; the single-reply
/// extension from 59,291 and 300,520; the tapered evaluation with the columns' seeds from 60,134 and
/// 305,505; the house terms weighed by column from 72,283 and 364,480; the medium and large
/// houses from 77,933 and 340,300; the weights refitted by Levenberg-Marquardt steps from 67,360
/// and 326,206; the weights blended and rounded for each stage of the game from 59,760 and
/// 359,442; the singular extension from 66,212 and 296,344; its multi-cut from 64,378 and 425,337; decided
/// scores that count the final margin, and database bounds, from 63,873 and 383,000; the endgame
/// weights fitted to the databases from 64,553 and 392,913).
#[test]
fn bench_signature_at_depths_12_and_16_is_pinned() {
    let games: Vec<Vec<Game>> = oware_engine::bench_games()
        .into_iter()
        .map(|g| vec![g])
        .collect();
    let options = EngineOptions {
        hash_mb: 64,
        ..EngineOptions::default()
    };
    let total = |depth: u32| {
        oware_engine::bench::run(&games, &options, &Limits::depth(depth), false, |_| {}).nodes
    };
    assert_eq!((total(12), total(16)), (62_970, 384_657));
}

/// A `movetime` search goes on until the time is up (see `Limits::time_budget`), but not once the
/// result is decided.
#[test]
fn a_decided_result_does_not_wait_for_the_movetime() {
    let won = game("0-0-0-1-0-1-1-1-0-0-0-0-23-21-S", RuleSet::Abapa);
    let began = Instant::now();
    let r = engine().search(&won, &Limits::movetime(Duration::from_secs(5)), &mut |_| {});
    assert_eq!(plies_to_end(r.score), Some(1));
    assert!(began.elapsed() < Duration::from_secs(5));
}
