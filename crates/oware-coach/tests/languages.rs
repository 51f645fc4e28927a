//! Every explanation, in every language, along real games: no placeholder left unfilled, and no
//! English in the other languages.

use oware_coach::explain::{explain, facts};
use oware_coach::{Analyst, Lang};
use oware_rules::{parse_move_letters, Game, Position, RuleSet};

/// The first master game of `/work/shared/data/master_games.suite` (Wikimanqala, CC BY-SA 2.5).
const MASTER_GAME: &str =
    "FfBeBcDaAbCcDbAcCaDcBeAbBcCdDfAeAfDbCdBcAaBbEeAaDfCaDdEfBbAcAfEaDbEcAeAdBeCfFf";

/// English words that must not appear in the other languages' explanations.
const ENGLISH: [&str; 16] = [
    "the", "and", "takes", "seed", "seeds", "leaves", "after", "game", "engine", "win", "loss",
    "reach", "safe", "nothing", "choice", "against",
];

fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
}

#[test]
fn every_move_of_a_master_game_explained_in_four_languages() {
    let moves = parse_move_letters(MASTER_GAME).unwrap();
    let mut game = Game::from_position(Position::start(), RuleSet::Abapa);
    let mut analyst = Analyst::new(3);
    let mut kinds = std::collections::BTreeSet::new();
    for &played in &moves {
        let values = analyst.values(&game);
        for value in &values {
            let why = explain(&game, value.mv, &values).unwrap();
            for fact in &why.facts {
                kinds.insert(kind(fact));
            }
            let english = why.render(Lang::En);
            assert!(english.starts_with(value.mv.letter()) || english.starts_with("After"));
            for lang in Lang::ALL {
                let text = why.render(lang);
                assert!(!text.contains('{') && !text.contains('}'), "{lang}: {text}");
                if lang == Lang::En {
                    continue;
                }
                assert_ne!(text, english);
                for word in words(&text) {
                    assert!(
                        !ENGLISH.contains(&word.as_str()),
                        "{lang}: English word {word:?} in {text:?} (English: {english:?})"
                    );
                }
            }
        }
        game.play(played).unwrap();
    }
    // The game shows the coach many of its ideas, not just one sentence.
    for kind in [
        "Captures",
        "LeavesThreat",
        "Parries",
        "Quiet",
        "LineCaptures",
        "Misses",
    ] {
        assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
    }
}

fn kind(fact: &oware_coach::Fact) -> String {
    format!("{fact:?}")
        .split([' ', '{'])
        .next()
        .unwrap()
        .to_string()
}

/// Positions from random playouts under both rule sets (endgames, kroos, starved rows): every legal
/// move's facts are found and said in every language without a panic or an unfilled placeholder.
#[test]
fn random_playouts_are_explained_without_fail() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n as u64) as usize
    };
    let mut kinds = std::collections::BTreeSet::new();
    for rules in [RuleSet::Abapa, RuleSet::Awari] {
        for _ in 0..12 {
            let mut game = Game::new(rules);
            while !game.is_over() {
                for mv in game.legal_moves() {
                    let why = explain(&game, mv, &[]).unwrap();
                    assert!(!why.facts.is_empty());
                    assert_eq!(why.facts, facts(&game, mv));
                    kinds.extend(why.facts.iter().map(kind));
                    for lang in Lang::ALL {
                        let text = why.render(lang);
                        assert!(!text.contains('{'), "{lang}: {text}");
                    }
                }
                let _ = oware_coach::explain::rule_note(&game, Lang::Ca);
                let legal: Vec<_> = game.legal_moves().collect();
                game.play(legal[next(legal.len())]).unwrap();
            }
            let last = *game.position();
            assert!(oware_coach::detect::captures(&last, rules).len() <= 6);
        }
    }
    // Threats made, kroos built, and the endgame's ideas: weak neighbouring houses, waiting moves.
    for kind in [
        "LeavesWeakRun",
        "Spares",
        "Squeeze",
        "ForcesFeeding",
        "Threatens",
        "BuildsKroo",
    ] {
        assert!(kinds.contains(kind), "no {kind} in {kinds:?}");
    }
}
