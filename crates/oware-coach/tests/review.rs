//! The review of a recorded game lists exactly the moves whose loss reaches the threshold.

use oware_coach::engine::loss;
use oware_coach::review::{review, Mistake};
use oware_coach::{Analyst, Lang};
use oware_rules::{parse_move_letters, Game, Position, RuleSet, Side};

/// The first 30 plies of the first master game of `/work/shared/data/master_games.suite`
/// (Wikimanqala, CC BY-SA 2.5).
const MASTER_OPENING: &str = "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDf";

const DEPTH: u32 = 5;

fn game(start: Position, letters: &str) -> Game {
    Game::replay(start, RuleSet::Abapa, &parse_move_letters(letters).unwrap()).unwrap()
}

/// Every ply's loss, computed move by move with the same engine settings.
fn losses(game: &Game, depth: u32) -> Vec<(usize, Side, i32)> {
    let mut analyst = Analyst::new(depth);
    let mut replay = Game::from_position(*game.start(), game.rules());
    let mut out = Vec::new();
    for (ply, &mv) in game.moves().iter().enumerate() {
        let values = analyst.values(&replay);
        let played = values.iter().find(|v| v.mv == mv).unwrap().score;
        out.push((
            ply,
            replay.position().side_to_move(),
            loss(values[0].score, played),
        ));
        replay.play(mv).unwrap();
    }
    out
}

#[test]
fn the_review_lists_exactly_the_moves_over_the_threshold() {
    let game = game(Position::start(), MASTER_OPENING);
    let all = losses(&game, DEPTH);
    // A threshold that some moves reach and others do not, so that the test can fail both ways.
    let mut sorted: Vec<i32> = all.iter().map(|&(_, _, l)| l).filter(|&l| l > 0).collect();
    sorted.sort_unstable();
    assert!(sorted.len() >= 3, "the opening has inaccuracies: {all:?}");
    let threshold = sorted[sorted.len() / 2];
    for player in [None, Some(Side::South), Some(Side::North)] {
        let mut analyst = Analyst::new(DEPTH);
        let reviewed = review(&game, player, &mut |g| analyst.analysis(g), threshold);
        assert_eq!(reviewed.plies.len(), game.ply_count());
        assert_eq!(reviewed.evaluation.len(), game.ply_count() + 1);
        for p in &reviewed.plies {
            assert_eq!(
                p.loss, all[p.ply].2,
                "the review's loss is the analysis' difference"
            );
        }
        let mistakes = reviewed.mistakes;
        let listed: Vec<usize> = mistakes.iter().map(|m| m.ply).collect();
        let expected: Vec<usize> = all
            .iter()
            .filter(|&&(_, side, l)| l >= threshold && player.is_none_or(|p| p == side))
            .map(|&(ply, _, _)| ply)
            .collect();
        assert_eq!(listed, expected, "{player:?} at {threshold}");
        for m in &mistakes {
            assert_eq!(m.played.mv, game.moves()[m.ply]);
            assert_ne!(m.better.mv, m.played.mv);
            assert_eq!(m.loss, all[m.ply].2);
        }
    }
    let mut analyst = Analyst::new(DEPTH);
    assert!(review(&game, None, &mut |g| analyst.analysis(g), 4801)
        .mistakes
        .is_empty());
}

#[test]
fn a_blunder_is_reviewed_with_why_and_the_better_move() {
    // South's A holds one seed that North's f reaches; South plays B, leaving it, and North takes it.
    let start: Position = "1-4-4-4-4-4-4-4-4-4-4-1-3-3-S".parse().unwrap();
    let game = game(start, "Bf");
    let mut analyst = Analyst::new(DEPTH);
    let reviewed = review(&game, Some(Side::South), &mut |g| analyst.analysis(g), 100);
    let mistakes = &reviewed.mistakes;
    assert_eq!(mistakes.len(), 1, "{mistakes:?}");
    assert_eq!(reviewed.accuracy(Side::South), Some(0));
    assert_eq!(reviewed.accuracy(Side::North), Some(100));
    // About 1.7 seeds given away in an open game: a mistake, not a turning point.
    let p = &reviewed.plies[0];
    assert!(p.loss < 200 && p.best_score > -800, "{p:?}");
    assert!(reviewed.turning_points(5).is_empty());
    let m: &Mistake = &mistakes[0];
    assert_eq!((m.ply, m.label.as_str()), (0, "1."));
    assert_eq!(m.played.mv.letter(), 'B');
    let text = m.render(Lang::En);
    assert!(text.starts_with("1. B gives away"), "{text}");
    // The refutation first: the reply the engine expects and what it takes.
    assert!(
        text.starts_with("1. B gives away about 2 seeds; A was better. After B"),
        "{text}"
    );
    assert!(text.contains(", North plays "), "{text}");
    assert!(text.contains(" and takes A: "), "{text}");
    let ca = m.render(Lang::Ca);
    assert!(ca.starts_with("1. B perd"), "{ca}");
}
