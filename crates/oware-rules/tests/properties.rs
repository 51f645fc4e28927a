//! Property tests: conservation of seeds, feeding, notation round trips, over random positions
//! reached by random play and over arbitrary boards.

use oware_rules::ogn::Record;
use oware_rules::{
    format_move_letters, Game, GameText, Move, PackedPosition, Position, RuleSet, Side, HOUSES,
    TOTAL_SEEDS,
};
use proptest::prelude::*;

fn rules() -> impl Strategy<Value = RuleSet> {
    prop_oneof![Just(RuleSet::Abapa), Just(RuleSet::Awari)]
}

/// Any distribution of the 48 seeds over the 12 houses and 2 stores, with either side to move.
fn any_position() -> impl Strategy<Value = Position> {
    (
        prop::collection::vec(0usize..14, TOTAL_SEEDS as usize),
        any::<bool>(),
    )
        .prop_map(|(slots, north)| {
            let mut houses = [0u8; HOUSES];
            let mut stores = [0u8; 2];
            for s in slots {
                if s < HOUSES {
                    houses[s] += 1;
                } else {
                    stores[s - HOUSES] += 1;
                }
            }
            let side = if north { Side::North } else { Side::South };
            Position::new(houses, stores, side).unwrap()
        })
}

/// A game reached by random legal moves from the start.
fn random_game() -> impl Strategy<Value = Game> {
    (rules(), prop::collection::vec(any::<u8>(), 0..200)).prop_map(|(rules, choices)| {
        let mut game = Game::new(rules);
        for c in choices {
            let moves: Vec<Move> = game.legal_moves().collect();
            if moves.is_empty() {
                break;
            }
            game.play(moves[c as usize % moves.len()]).unwrap();
        }
        game
    })
}

fn total(p: &Position) -> u32 {
    p.houses().iter().map(|&h| h as u32).sum::<u32>()
        + p.store(Side::South) as u32
        + p.store(Side::North) as u32
}

/// The packed position of `pos` answers every question as `pos` does, and plays every non-empty
/// house of the side to move (legal or not: the arithmetic must hold for all) to the same position
/// with the same capture.
fn packed_agrees(pos: &Position, rules: RuleSet) -> Result<(), TestCaseError> {
    let packed = PackedPosition::from_position(pos);
    prop_assert_eq!(packed.to_position(), *pos);
    prop_assert_eq!(
        packed.legal_moves(rules),
        pos.legal_moves(rules),
        "{} {}",
        pos,
        rules
    );
    prop_assert_eq!(packed.is_decided_by_stores(), pos.is_decided_by_stores());
    prop_assert_eq!(packed.side_to_move(), pos.side_to_move());
    for side in Side::BOTH {
        prop_assert_eq!(packed.row_seeds(side), pos.row_seeds(side));
        prop_assert_eq!(packed.store(side), pos.store(side));
    }
    for house in 0..HOUSES {
        prop_assert_eq!(packed.house(house), pos.house(house));
    }
    let gathered = pos.gathered();
    prop_assert_eq!(
        packed.gathered_stores(),
        [gathered.store(Side::South), gathered.store(Side::North)]
    );
    let mover = pos.side_to_move();
    let mut seen_by_mover = [0u8; HOUSES];
    for column in 0..6 {
        seen_by_mover[column] = pos.house(mover.first_house() + column);
        seen_by_mover[6 + column] = pos.house(mover.opponent().first_house() + column);
    }
    prop_assert_eq!(packed.mover_houses(), seen_by_mover);
    for house in mover.first_house()..mover.first_house() + 6 {
        if pos.house(house) == 0 {
            continue;
        }
        let mv = Move::new(house).unwrap();
        let expected = pos.play_unchecked(mv, rules);
        let (after, captured) = packed.play(mv, rules);
        prop_assert_eq!(
            after.to_position(),
            expected.position,
            "{} {} {}",
            pos,
            mv,
            rules
        );
        prop_assert_eq!(captured, expected.captured, "{} {} {}", pos, mv, rules);
        prop_assert_eq!(after, PackedPosition::from_position(&expected.position));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn the_packed_position_plays_as_the_position(pos in any_position(), rules in rules()) {
        packed_agrees(&pos, rules)?;
    }

    #[test]
    fn the_packed_position_plays_as_the_position_along_games(game in random_game()) {
        for pos in game.positions() {
            packed_agrees(pos, game.rules())?;
        }
    }

    #[test]
    fn seeds_are_conserved_and_only_the_mover_captures(pos in any_position(), rules in rules()) {
        for mv in pos.legal_moves(rules) {
            let played = pos.play_unchecked(mv, rules);
            let after = played.position;
            prop_assert_eq!(total(&after), 48);
            let me = pos.side_to_move();
            prop_assert_eq!(after.store(me), pos.store(me) + played.captured);
            prop_assert_eq!(after.store(me.opponent()), pos.store(me.opponent()));
            prop_assert_eq!(after.side_to_move(), me.opponent());
            prop_assert_eq!(after.house(mv.house()), 0);
        }
    }

    #[test]
    fn abapa_moves_always_leave_the_opponent_seeds(pos in any_position()) {
        for mv in pos.legal_moves(RuleSet::Abapa) {
            let after = pos.play_unchecked(mv, RuleSet::Abapa).position;
            prop_assert!(after.row_seeds(pos.side_to_move().opponent()) > 0, "{} {}", pos, mv);
        }
    }

    #[test]
    fn awari_starves_only_when_every_move_does(pos in any_position()) {
        let opp = pos.side_to_move().opponent();
        let legal = pos.legal_moves(RuleSet::Awari);
        let starving: Vec<bool> = legal
            .map(|mv| pos.play_unchecked(mv, RuleSet::Awari).position.row_seeds(opp) == 0)
            .collect();
        if starving.iter().any(|&s| s) {
            prop_assert!(starving.iter().all(|&s| s), "{}", pos);
        }
    }

    #[test]
    fn every_move_not_listed_is_refused_with_a_reason(pos in any_position(), rules in rules()) {
        let legal = pos.legal_moves(rules);
        for h in 0..HOUSES {
            let mv = Move::new(h).unwrap();
            prop_assert_eq!(pos.check_move(mv, rules).is_none(), legal.contains(mv));
        }
    }

    #[test]
    fn position_strings_round_trip(pos in any_position()) {
        let text = pos.to_string();
        prop_assert_eq!(text.parse::<Position>().unwrap(), pos);
    }

    #[test]
    fn malformed_position_strings_are_refused_not_panicked_on(text in "[0-9SN-]{0,40}") {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(total(&pos), 48);
        }
    }

    #[test]
    fn game_records_round_trip(game in random_game()) {
        let record = Record::from_game(&game);
        let text = record.to_string();
        let back: Record = text.parse().unwrap();
        prop_assert_eq!(&back.game().unwrap(), &game);
        prop_assert_eq!(&back.to_string(), &text);
        // The general reader reads the same game from the record, and from the bare moves.
        let read = GameText::parse(&text).unwrap();
        prop_assert_eq!(&read.game(RuleSet::Abapa).unwrap(), &game);
        let bare = format!("{} {}", game.start(), format_move_letters(game.moves()));
        prop_assert_eq!(&GameText::parse(&bare).unwrap().game(game.rules()).unwrap(), &game);
    }

    #[test]
    fn the_game_reader_never_panics(text in "[\\[\\]{}\"+.*/ 0-9A-Fa-fSNx\n-]{0,60}") {
        if let Ok(read) = GameText::parse(&text) {
            let _ = read.game(RuleSet::Abapa);
        }
        let _ = text.parse::<Record>();
    }

    #[test]
    fn undo_is_the_inverse_of_play(game in random_game()) {
        let mut g = game.clone();
        if let Some(mv) = g.legal_moves().next() {
            g.play(mv).unwrap();
            g.undo();
            prop_assert_eq!(g, game);
        }
    }
}
