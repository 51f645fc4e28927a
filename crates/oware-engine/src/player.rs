//! Choosing the move to play: the one path that the protocol's `go`, the web server's computer,
//! `oware play` (its moves and hints) and the tuning example all take, so that a position gets the
//! same kind of answer whoever asks.
//!
//! At full strength a position the engine's endgame databases cover is answered from them at once
//! (see [`Probe::root_move`]); otherwise the engine searches. Lower levels search shallower and never
//! take the database's move: a beginner who plays endings perfectly is no beginner. Levels 5–9 add
//! noise to the scores of the root moves (a slightly worse move, never a random one: a move is only
//! chosen if its searched score is within twice the noise of the best). Levels 1–4 make a person's
//! mistakes instead: the engine's [`Oversight`] (the coach's model, given in
//! [`EngineOptions::oversight`]) says how a player of that level sees each move (a double attack
//! missed, a threat on a house of one or two seeds overlooked, the opponent's kroo ignored), and
//! the level plays the move that looks best to that player. No level plays a move that loses by
//! force while another does not.

use std::time::{Duration, Instant};

use oware_rules::{Game, Move};

use crate::{Engine, EngineOptions, Limits, MoveScore, Probe, SearchResult, WIN_THRESHOLD};

/// Lowest and highest playing level accepted by [`choose_move`].
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// How well the computer plays: what one of the levels players choose from (1 to 10, [`LEVELS`])
/// means to the search: its depth (plies; `None` = as deep as time allows), the largest noise added
/// to a root move's score, in centiseeds, and whose human mistakes it makes. ("Level" in the code
/// is a database's seed count; see docs/glossary.md.)
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strength {
    /// Search depth in plies; `None`: as deep as time allows.
    pub depth: Option<u32>,
    /// The largest noise added to a root move's score, in centiseeds.
    pub noise: i32,
    /// The level (1..=4) whose mistakes the engine's [`Oversight`] makes on the searched scores
    /// before the choice; `None`: none (levels 5..=10, and any level the caller sets up itself).
    pub mistakes: Option<u8>,
}

/// The highest level that makes a person's mistakes ([`Oversight`]) rather than noise.
pub const HUMAN_LEVELS: u8 = 4;

impl Strength {
    /// The settings of `level` (clamped to 1..=10).
    pub fn new(level: u8) -> Strength {
        let level = level.clamp(*LEVELS.start(), *LEVELS.end());
        let (depth, noise) = match level {
            1 => (Some(2), 0),
            2 => (Some(3), 0),
            3 => (Some(4), 0),
            4 => (Some(4), 0),
            5 => (Some(5), 70),
            6 => (Some(6), 50),
            7 => (Some(8), 30),
            8 => (Some(11), 15),
            9 => (Some(16), 6),
            _ => (None, 0),
        };
        Strength {
            depth,
            noise,
            mistakes: (level <= HUMAN_LEVELS).then_some(level),
        }
    }
}

/// How a player of a weak level sees the root moves: a model of a person's mistakes, which the
/// coach provides (the engine knows nothing of double attacks or kroos) and callers that play weak
/// levels give the engine in [`EngineOptions::oversight`].
pub trait Oversight: Send + Sync {
    /// The scores of `moves` (every root move of `game`, searched to the level's depth, with its
    /// line) as a player of `level` (1..=[`HUMAN_LEVELS`]) believes them, in the same order. What
    /// the player overlooks this turn is drawn from `random`. A decided score (beyond
    /// [`WIN_THRESHOLD`]) is kept whatever is returned for it.
    fn as_seen(&self, game: &Game, level: u8, moves: &[MoveScore], random: &mut u64) -> Vec<i32>;
}

/// Picks a move for the side to move in `game` at `level` (1 = beginner .. 10 = full strength),
/// thinking for at most about `max_time`. `None` when the game is over.
pub fn choose_move(game: &Game, level: u8, max_time: Duration) -> Option<Move> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 16,
        ..EngineOptions::default()
    });
    choose_move_with(&mut engine, game, level, max_time, &mut seed_from_clock())
}

/// [`choose_move`] with a given engine (its table and databases are used) and random state (for
/// repeatable tests).
pub fn choose_move_with(
    engine: &mut Engine,
    game: &Game,
    level: u8,
    max_time: Duration,
    random: &mut u64,
) -> Option<Move> {
    let limits = Limits::movetime(max_time);
    choose(
        engine,
        game,
        Strength::new(level),
        &limits,
        random,
        &mut |_| {},
    )
    .and_then(|choice| choice.result.best)
}

/// Where a chosen move came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The endgame databases' best move, without a search.
    Database,
    /// A search at full strength, or the analysis a lower level picks from.
    Search,
}

/// A chosen move, with what the protocol reports of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The move (`best`), its expected reply, score, line and the search's figures. From the
    /// databases: depth 0, no nodes, and the final store difference the database promises as the
    /// score.
    pub result: SearchResult,
    /// Whether the move came from the databases or a search.
    pub source: Source,
    /// At a level below full strength, every root move's score that the level picked from, best
    /// first; empty otherwise.
    pub moves: Vec<MoveScore>,
}

/// Chooses a move for the side to move in `game` at `level` within `limits` (the level's depth
/// caps theirs), calling `progress` after each completed iteration of a full-strength search.
/// `None` when the game is over. Starts the engine's clock, as [`Engine::search`] does.
pub fn choose(
    engine: &mut Engine,
    game: &Game,
    level: Strength,
    limits: &Limits,
    random: &mut u64,
    progress: &mut dyn FnMut(&SearchResult),
) -> Option<Choice> {
    engine.control().reset(false);
    choose_controlled(engine, game, level, limits, random, progress)
}

/// Like [`choose`], without resetting the engine's control: the caller has called
/// [`crate::SearchControl::reset`] (e.g. with pondering on) and may stop the search at any time.
pub fn choose_controlled(
    engine: &mut Engine,
    game: &Game,
    level: Strength,
    limits: &Limits,
    random: &mut u64,
    progress: &mut dyn FnMut(&SearchResult),
) -> Option<Choice> {
    if game.is_over() {
        return None;
    }
    if level.is_full_strength() {
        if let Some(result) = database_move(engine, game) {
            return Some(Choice {
                result,
                source: Source::Database,
                moves: Vec::new(),
            });
        }
        let result = engine.search_controlled(game, limits, progress);
        return result.best.is_some().then_some(Choice {
            result,
            source: Source::Search,
            moves: Vec::new(),
        });
    }
    let limits = Limits {
        depth: limits.depth.min(level.depth).or(level.depth),
        ..limits.clone()
    };
    let analysis = engine.analyse_controlled(game, &limits);
    let oversight = engine.options().oversight.clone();
    let mv = match (level.mistakes, oversight) {
        (Some(weak), Some(model)) => {
            let seen = model.as_seen(game, weak, &analysis.moves, random);
            pick_seen(&analysis.moves, &seen, random)?
        }
        _ => level.pick(&analysis.moves, random)?,
    };
    let chosen = analysis.moves.iter().find(|s| s.mv == mv)?;
    let result = SearchResult {
        best: Some(mv),
        ponder: chosen.pv.get(1).copied(),
        score: chosen.score,
        depth: analysis.depth,
        seldepth: 0,
        nodes: analysis.nodes,
        time: analysis.time,
        pv: chosen.pv.clone(),
        hashfull: 0,
    };
    Some(Choice {
        result,
        source: Source::Search,
        moves: analysis.moves,
    })
}

/// The databases' move where the engine has databases that answer at the root, as a result: the
/// score is the final store difference they promise (the stores now plus the value over the
/// board), in centiseeds.
fn database_move(engine: &Engine, game: &Game) -> Option<SearchResult> {
    let probe: &dyn Probe = engine.options().probe.as_deref()?;
    let (mv, value) = probe.root_move(game)?;
    let pos = game.position();
    let me = pos.side_to_move();
    let stores = i32::from(pos.store(me)) - i32::from(pos.store(me.opponent()));
    Some(SearchResult {
        best: Some(mv),
        ponder: None,
        score: 100 * (stores + value),
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: vec![mv],
        hashfull: 0,
    })
}

impl Strength {
    /// Full strength: no depth limit, no noise.
    pub fn is_full_strength(&self) -> bool {
        self.depth.is_none() && self.noise == 0
    }

    /// Picks among analysed root moves (see [`Engine::analyse`]): each score gets a uniform noise in
    /// `-noise..=noise`, the highest wins; a move that loses by force is never picked while another
    /// does not.
    pub fn pick(&self, scores: &[MoveScore], random: &mut u64) -> Option<Move> {
        let best = scores.iter().map(|m| m.score).max()?;
        let safe = |s: i32| s > -WIN_THRESHOLD || best <= -WIN_THRESHOLD;
        let noise = self.noise.max(0);
        scores
            .iter()
            .filter(|m| safe(m.score))
            .map(|m| {
                let n = (next_random(random) % (2 * noise as u64 + 1)) as i32 - noise;
                (m.score + n, m.mv)
            })
            .max_by_key(|&(s, _)| s)
            .map(|(_, mv)| mv)
    }
}

/// The move that looks best among `moves` with the scores `seen` (as an [`Oversight`] returns
/// them; a decided score, or a missing one, is the searched score), one at random among equals; a
/// move that loses by force is never picked while another does not.
fn pick_seen(moves: &[MoveScore], seen: &[i32], random: &mut u64) -> Option<Move> {
    let best = moves.iter().map(|m| m.score).max()?;
    let believed: Vec<(i32, Move)> = moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.score > -WIN_THRESHOLD || best <= -WIN_THRESHOLD)
        .map(|(i, m)| {
            let decided = m.score.abs() >= WIN_THRESHOLD;
            match seen.get(i) {
                Some(&s) if !decided => (s, m.mv),
                _ => (m.score, m.mv),
            }
        })
        .collect();
    let top = believed.iter().map(|&(s, _)| s).max()?;
    let equals: Vec<Move> = believed
        .iter()
        .filter(|&&(s, _)| s == top)
        .map(|&(_, mv)| mv)
        .collect();
    let index = (next_random(random) % equals.len() as u64) as usize;
    equals.get(index).copied()
}

/// A random seed from the clock, for the levels' noise.
pub fn seed_from_clock() -> u64 {
    let t = Instant::now();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ (t.elapsed().as_nanos() as u64).rotate_left(32) ^ 0x5851_f42d_4c95_7f2d
}
fn next_random(state: &mut u64) -> u64 {
    oware_rules::random::SplitMix64::step(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::tests::built;
    use oware_rules::{Position, RuleSet};
    use std::sync::Arc;

    /// Awari, South to move, 3 seeds on the board, South one seed ahead: C and D both win, D with
    /// all three seeds (the databases' best move). A search that probes the databases as it goes
    /// plays D too: a larger win scores higher, however the line ends.
    pub(crate) const COVERED: &str = "0-0-1-1-0-0-0-0-0-0-1-0-23-22-S";

    fn covered() -> Game {
        Game::from_position(COVERED.parse::<Position>().unwrap(), RuleSet::Awari)
    }

    fn letter(choice: &Option<Choice>) -> Option<char> {
        choice.as_ref()?.result.best.map(Move::letter)
    }

    #[test]
    fn full_strength_plays_the_database_move_where_it_covers_the_position() {
        let (_dir, probe) = built(RuleSet::Awari, 4);
        let limits = Limits::depth(8);
        let full = Strength::new(10);
        let mut random = 1;
        let mut with_databases = Engine::new(EngineOptions {
            hash_mb: 1,
            probe: Some(Arc::new(probe)),
            ..EngineOptions::default()
        });
        let searched = with_databases.search(&covered(), &limits, &mut |_| {});
        assert_eq!(searched.best.map(Move::letter), Some('D'));
        let choice = choose(
            &mut with_databases,
            &covered(),
            full,
            &limits,
            &mut random,
            &mut |_| {},
        );
        assert_eq!(letter(&choice), Some('D'));
        let choice = choice.unwrap();
        assert_eq!(choice.source, Source::Database);
        // South's stores lead by one and it takes the last three seeds: four seeds ahead at the end.
        assert_eq!((choice.result.score, choice.result.depth), (400, 0));
        let mv = choose_move_with(
            &mut with_databases,
            &covered(),
            10,
            Duration::from_millis(50),
            &mut random,
        );
        assert_eq!(mv.map(Move::letter), Some('D'));

        // A lower level searches, and gives the moves it picked from.
        let choice = choose(
            &mut with_databases,
            &covered(),
            Strength::new(5),
            &limits,
            &mut random,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!(choice.source, Source::Search);
        assert_eq!(choice.moves.len(), covered().legal_moves().len());
    }

    /// A model that believes one move the best of all.
    struct Favour(char);

    impl Oversight for Favour {
        fn as_seen(&self, _: &Game, _: u8, moves: &[MoveScore], _: &mut u64) -> Vec<i32> {
            moves
                .iter()
                .map(|m| {
                    if m.mv.letter() == self.0 {
                        9_000
                    } else {
                        m.score
                    }
                })
                .collect()
        }
    }

    #[test]
    fn weak_levels_play_what_the_oversight_believes_best() {
        let game = Game::new(RuleSet::Abapa);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            oversight: Some(Arc::new(Favour('A'))),
            ..EngineOptions::default()
        });
        for level in 1..=HUMAN_LEVELS {
            let choice = choose(
                &mut engine,
                &game,
                Strength::new(level),
                &Limits::depth(8),
                &mut 1,
                &mut |_| {},
            );
            assert_eq!(letter(&choice), Some('A'), "level {level}");
            // The moves reported are the search's, not the player's beliefs.
            assert!(choice.unwrap().moves.iter().all(|m| m.score < 9_000));
        }
        // From level 5 the model is not asked.
        assert_eq!(Strength::new(5).mistakes, None);
        assert_eq!(Strength::new(HUMAN_LEVELS).mistakes, Some(HUMAN_LEVELS));
    }

    #[test]
    fn a_believed_move_that_loses_by_force_is_not_played_and_equals_are_drawn() {
        let scored = |letter: &str, score| MoveScore {
            mv: letter.parse().unwrap(),
            score,
            pv: vec![letter.parse().unwrap()],
        };
        let moves = [
            scored("A", -WIN_THRESHOLD - 5),
            scored("B", -300),
            scored("C", -200),
        ];
        let mut random = 3;
        let mv = pick_seen(&moves, &[5_000, -300, -200], &mut random);
        assert_eq!(mv.map(Move::letter), Some('C'));
        // B and C look alike: each is played from some random states.
        let mut played = std::collections::BTreeSet::new();
        for seed in 0..32 {
            let mut random = seed;
            played.extend(pick_seen(&moves, &[5_000, 0, 0], &mut random).map(Move::letter));
        }
        assert_eq!(played.into_iter().collect::<String>(), "BC");
        assert_eq!(pick_seen(&[], &[], &mut random), None);
    }

    #[test]
    fn nothing_is_chosen_when_the_game_is_over() {
        let (_dir, probe) = built(RuleSet::Awari, 2);
        let mut engine = Engine::new(EngineOptions {
            hash_mb: 1,
            probe: Some(Arc::new(probe)),
            ..EngineOptions::default()
        });
        let over: Position = "0-0-0-0-0-0-0-0-0-0-0-0-25-23-S".parse().unwrap();
        let game = Game::from_position(over, RuleSet::Awari);
        assert!(game.is_over());
        for level in [1, 10] {
            let choice = choose(
                &mut engine,
                &game,
                Strength::new(level),
                &Limits::depth(4),
                &mut 1,
                &mut |_| {},
            );
            assert_eq!(choice, None);
        }
    }
}
