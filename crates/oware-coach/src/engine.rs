//! The one analysis of a position: every legal move's score and line, searched to one fixed depth
//! on a cleared table with one thread, so that a position gets the same numbers on every run, in
//! every view (the analysis table, the coach, the review, hints) and on every machine. The server
//! runs it on its pooled engines and caches it; the terminal runs it through an [`Analyst`].

use std::time::Duration;

use oware_engine::tablebase::proven_by_database;
use oware_engine::{plies_to_end, Engine, EngineOptions, Limits, MoveScore};
use oware_rules::{Game, Move};

/// The depth every move of a position is searched to, in plies: deep enough for the tactics the
/// coach explains and for a strong table, quick enough for a review of a whole game (a typical
/// middle-game position takes well under a tenth of a second in a release build).
pub const DEPTH: u32 = 20;

/// The transposition table of an analysis, in MiB: the part of the table in use grows with the
/// search up to this size, and where it stops changes what the search finds, so every analysis
/// uses the same.
pub const HASH_MB: usize = 16;

/// One legal move as the engine sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoredMove {
    /// The move.
    pub mv: Move,
    /// Centiseeds for the side to move; decided games are beyond ±29 000 (see [`plies_to_end`]).
    pub score: i32,
    /// The line the engine expects, this move first.
    pub line: Vec<Move>,
    /// The score is a decided game that the endgame databases proved: its line reaches a position
    /// they answer before the game ends. Its distance to the end is then unknown (the score's
    /// plies count to where the search asked the databases), and [`decided_in`] must not be read
    /// as one.
    pub by_database: bool,
}

/// The analysis of one position: every legal move, best first (ties in house order), and the depth
/// every one of them was searched to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PositionAnalysis {
    /// Plies every move was searched to (less than asked only when the time cap ran out).
    pub depth: u32,
    /// Every legal move, best first; empty when the game is over.
    pub values: Vec<ScoredMove>,
}

impl PositionAnalysis {
    /// The best move's value, if the game goes on.
    pub fn best(&self) -> Option<&ScoredMove> {
        self.values.first()
    }

    /// The value of `mv`, if it is legal.
    pub fn value_of(&self, mv: Move) -> Option<&ScoredMove> {
        self.values.iter().find(|v| v.mv == mv)
    }

    /// Centiseeds `mv` gives away against the best move (see [`loss`]).
    pub fn loss_of(&self, mv: Move) -> Option<i32> {
        Some(loss(self.best()?.score, self.value_of(mv)?.score))
    }
}

/// Analyses the game's current position (its history since the last capture counts for
/// repetitions) with `engine`: every move to `depth` plies, stopped early only by `cap`. The
/// engine's table is cleared first, so that what earlier searches left in it does not change the
/// numbers, and the search uses one thread whatever the engine is set to: more threads would
/// share the table in an order that changes from run to run, and so would the numbers.
pub fn analyse(
    engine: &mut Engine,
    game: &Game,
    depth: u32,
    cap: Option<Duration>,
) -> PositionAnalysis {
    if game.is_over() {
        return PositionAnalysis::default();
    }
    engine.new_game();
    let threads = engine.options().threads;
    engine.set_threads(1);
    let found = engine.analyse(
        game,
        &Limits {
            depth: Some(depth.max(1)),
            movetime: cap,
            ..Limits::default()
        },
    );
    engine.set_threads(threads);
    let probe = engine.options().probe.clone();
    let mut values: Vec<ScoredMove> = found
        .moves
        .into_iter()
        .map(|MoveScore { mv, score, pv }| ScoredMove {
            mv,
            score,
            by_database: decided_in(score).is_some()
                && probe
                    .as_deref()
                    .is_some_and(|probe| proven_by_database(game, &pv, probe)),
            line: pv,
        })
        .collect();
    values.sort_by_key(|v| (-v.score, v.mv));
    PositionAnalysis {
        depth: found.depth,
        values,
    }
}

/// An engine kept for [`analyse`] between positions, for the terminal.
pub struct Analyst {
    engine: Engine,
    depth: u32,
    cap: Option<Duration>,
}

impl Analyst {
    /// An analyst searching every move to `depth` plies (at least 1), with a small table of its
    /// own and no time cap.
    pub fn new(depth: u32) -> Analyst {
        Analyst::with_engine(
            Engine::new(EngineOptions {
                hash_mb: HASH_MB,
                threads: 1,
                ..EngineOptions::default()
            }),
            depth,
            None,
        )
    }

    /// An analyst on a given engine (its endgame databases; its table should be [`HASH_MB`] for
    /// the numbers of every other view), stopped at `cap` per position if it is given.
    pub fn with_engine(engine: Engine, depth: u32, cap: Option<Duration>) -> Analyst {
        Analyst {
            engine,
            depth: depth.max(1),
            cap,
        }
    }

    /// The depth every move is searched to, in plies.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The analysis of the game's current position.
    pub fn analysis(&mut self, game: &Game) -> PositionAnalysis {
        analyse(&mut self.engine, game, self.depth, self.cap)
    }

    /// Every legal move of the game's current position, best first; empty when the game is over.
    pub fn values(&mut self, game: &Game) -> Vec<ScoredMove> {
        self.analysis(game).values
    }
}

/// The plies to the end when `score` is a decided game: positive when the side to move wins.
pub fn decided_in(score: i32) -> Option<i32> {
    plies_to_end(score)
}

/// The moves of a line of `plies` plies, as the move list numbers them: each player's sowing is a
/// move, and a line of 13 plies that starts with the winner's move takes 7 of their moves.
pub fn moves_in(plies: u32) -> u32 {
    plies.div_ceil(2)
}

/// A score in centiseeds with a decided game counted as all 48 seeds, so that losing a won game
/// weighs more than any seeds.
pub fn seeds_value(score: i32) -> i32 {
    match decided_in(score) {
        Some(p) if p > 0 => 4800,
        Some(_) => -4800,
        None => score.clamp(-4800, 4800),
    }
}

/// The seeds one score gives away against another, in centiseeds, never negative (see
/// [`seeds_value`]).
pub fn loss(best: i32, played: i32) -> i32 {
    (seeds_value(best) - seeds_value(played)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oware_rules::{RuleSet, Side};

    #[test]
    fn values_cover_every_legal_move_best_first_and_repeat() {
        let game = Game::new(RuleSet::Abapa);
        let mut analyst = Analyst::new(4);
        let first = analyst.analysis(&game);
        assert_eq!(first.depth, 4);
        assert_eq!(first.values.len(), 6);
        assert!(first.values.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(first.values.iter().all(|v| v.line.first() == Some(&v.mv)));
        assert_eq!(analyst.analysis(&game), first);
        let best = first.best().unwrap();
        assert_eq!(first.loss_of(best.mv), Some(0));
    }

    #[test]
    fn a_deeper_search_between_two_analyses_changes_nothing() {
        // The table is cleared for each analysis: what a deeper search left there does not leak.
        let game = Game::new(RuleSet::Abapa);
        let mut analyst = Analyst::new(6);
        let first = analyst.analysis(&game);
        let mut deeper = Analyst::new(12);
        let engine = &mut deeper.engine;
        engine.analyse(&game, &Limits::depth(12));
        let again = analyse(engine, &game, 6, None);
        assert_eq!(again, first);
    }

    /// An analyst at the analysis' own depth whose engine probes awari databases of up to 6
    /// seeds, built here.
    fn awari_analyst_with_databases() -> Analyst {
        let levels = oware_egtb_build::build::build_in_memory(
            RuleSet::Awari,
            6,
            oware_egtb_build::SearchBudget::Auto(0),
        )
        .unwrap();
        let probe = oware_engine::tablebase::TablebaseProbe::new(
            oware_egtb::Tablebase::from_levels(levels),
        );
        let engine = Engine::new(EngineOptions {
            hash_mb: HASH_MB,
            threads: 1,
            probe: Some(std::sync::Arc::new(probe)),
            ..EngineOptions::default()
        });
        Analyst::with_engine(engine, DEPTH, None)
    }

    #[test]
    fn a_win_the_databases_proved_has_no_distance() {
        // Six seeds on the board: every move reaches a position the databases answer, and the
        // search scores it where it probed, a ply from here, though the game goes on for long
        // after (without databases the search sees North win in 32 plies).
        let pos = "0-0-1-1-1-0-1-1-0-0-1-0-21-21-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Awari);
        let with = awari_analyst_with_databases().analysis(&game);
        let best = with.best().unwrap();
        assert!(decided_in(best.score).is_some_and(|p| p < 0), "{best:?}");
        assert!(best.by_database, "{best:?}");
        assert!(with
            .values
            .iter()
            .all(|v| v.by_database == decided_in(v.score).is_some()));
        let words = crate::explain::render_score(
            best.score,
            best.by_database,
            Side::South,
            crate::Lang::En,
        );
        assert_eq!(words, "North wins (endgame database)");
        let without = Analyst::new(DEPTH).analysis(&game);
        assert!(without.values.iter().all(|v| !v.by_database));
        // Every move loses all six seeds; among losses by the same margin, the slowest proved.
        assert_eq!(decided_in(without.best().unwrap().score), Some(-40));
    }

    #[test]
    fn a_win_whose_line_ends_the_game_keeps_its_distance_with_databases() {
        // South's F takes the last four seeds and ends the game: the databases prove nothing the
        // line does not show.
        let pos = "0-0-0-0-0-2-1-1-0-0-0-0-22-22-S".parse().unwrap();
        let game = Game::from_position(pos, RuleSet::Awari);
        let analysis = awari_analyst_with_databases().analysis(&game);
        let f = analysis.value_of(Move::from_letter('F').unwrap()).unwrap();
        assert_eq!(decided_in(f.score), Some(1));
        assert!(!f.by_database);
    }

    #[test]
    fn losses_in_seeds_and_decided_games() {
        assert_eq!(loss(250, 100), 150);
        assert_eq!(loss(100, 250), 0);
        let win = oware_engine::WIN - 3;
        assert_eq!(loss(win, 0), 4800);
        assert_eq!(loss(win, -win), 9600);
        assert_eq!(decided_in(win), Some(3));
        assert_eq!(decided_in(120), None);
    }

    #[test]
    fn moves_count_each_players_sowings() {
        assert_eq!(moves_in(1), 1);
        assert_eq!(moves_in(13), 7);
        assert_eq!(moves_in(14), 7);
    }
}
