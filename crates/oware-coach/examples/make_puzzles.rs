//! Makes the puzzle set, `crates/oware-coach/data/puzzles.txt`: positions of the master games and of
//! the engine's self-play where exactly one move wins material or the game by a clear margin, each
//! tagged with its theme by the coach's detectors ([`oware_coach::puzzle::classify`]).
//!
//! ```text
//! oware egtb build --rules abapa --max-seeds 12 --dir /tmp/egtb-abapa
//! cargo run --release -p oware-coach --example make_puzzles -- \
//!     crates/oware-rules/tests/data/master_games.suite 300 /tmp/egtb-abapa \
//!     > crates/oware-coach/data/puzzles.txt
//! ```
//!
//! Every position is first screened cheaply (every move searched to `SCREEN_DEPTH` plies); the few
//! that pass are searched again to `VERIFY_DEPTH` plies, and kept only when the deeper search agrees:
//! the same single best move, ahead of every other move by `MARGIN` centiseeds (so no second
//! solution lies within one seed of it), and winning the game or at least `GAIN` seeds more than the
//! opponent takes along the engine's line. Self-play games start from a random opening and are played
//! by the engine's weaker levels, whose slips leave tactics on the board. Two puzzles of one game are
//! at least `GAP` plies apart, and no theme takes more than `PER_THEME` puzzles. With the abapa
//! endgame databases (the optional third argument), a candidate they cover is kept only when they
//! agree: the solution's value certainly above every other move's. The run is
//! deterministic (fixed depths, a fixed random seed): the same command makes the same file.

use std::collections::BTreeSet;

use oware_coach::puzzle::{
    check_with_databases, classify, single_winner, DatabaseVerdict, Puzzle, GAIN, MARGIN,
};
use oware_coach::{Analyst, ScoredMove};
use oware_egtb::Tablebase;
use oware_engine::{MoveScore, Strength};
use oware_rules::{Game, GameLine, Move, RuleSet};

/// Depth of the cheap first look at every position.
const SCREEN_DEPTH: u32 = 10;
/// Depth of the search that verifies a candidate.
const VERIFY_DEPTH: u32 = 24;
/// Plies of the engine's line kept with a puzzle.
const LINE_PLIES: usize = 8;
/// Depth the self-play levels search to.
const PLAY_DEPTH: u32 = 5;
/// Plies between two puzzles of one game, so that the set holds no near copies.
const GAP: usize = 6;
/// The most puzzles of one theme: the commonest (captures, endgame tempo) would crowd out the rest.
const PER_THEME: usize = 80;

struct Maker {
    screen: Analyst,
    verify: Analyst,
    seen: BTreeSet<String>,
    found: Vec<Puzzle>,
    screened: usize,
    verified: usize,
    /// The game and ply of the last puzzle kept.
    last: Option<(String, usize)>,
    /// The abapa endgame databases, when given: positions they cover must agree with them too.
    databases: Option<Tablebase>,
    /// Puzzles the databases confirmed, and candidates they turned down.
    confirmed: usize,
    refuted: usize,
}

impl Maker {
    /// Looks at the position of `game` (its history is dropped: a puzzle is its position).
    fn consider(&mut self, game: &Game, from: &str) {
        let ply = game.ply_count();
        if matches!(&self.last, Some((g, p)) if g == from && ply < p + GAP) {
            return;
        }
        let pos = *game.position();
        let game = Game::from_position(pos, game.rules());
        if game.is_over() || game.legal_moves().len() < 2 || !self.seen.insert(pos.to_string()) {
            return;
        }
        self.screened += 1;
        let Some(candidate) = single_winner(&game, &self.screen.values(&game)).map(|(v, _)| v.mv)
        else {
            return;
        };
        self.verified += 1;
        let values = self.verify.values(&game);
        let Some((verified, mut goal)) =
            single_winner(&game, &values).filter(|(v, _)| v.mv == candidate)
        else {
            return;
        };
        let checked = self
            .databases
            .as_ref()
            .and_then(|d| check_with_databases(&pos, game.rules(), candidate, goal, d));
        match checked {
            None => {}
            Some(DatabaseVerdict::Holds(g)) => goal = g,
            Some(_) => {
                self.refuted += 1;
                return;
            }
        }
        let theme = classify(&game, candidate);
        if self.found.iter().filter(|p| p.theme == theme).count() >= PER_THEME {
            return;
        }
        self.last = Some((from.to_string(), ply));
        if checked.is_some() {
            self.confirmed += 1;
        }
        self.found.push(Puzzle {
            id: self.found.len() + 1,
            position: pos,
            rules: game.rules(),
            solution: candidate,
            goal,
            theme,
            source: format!("{from}:{ply}"),
            verified: match (checked, &self.databases) {
                (Some(_), Some(d)) => format!("depth:{VERIFY_DEPTH}+egtb{}", d.max_seeds()),
                _ => format!("depth:{VERIFY_DEPTH}"),
            },
            score: verified.score,
            line: verified.line.iter().copied().take(LINE_PLIES).collect(),
        });
    }
}

/// A small deterministic generator (xorshift64), so that the set can be made again.
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (suite, games, databases) = match args.as_slice() {
        [suite, games] => (suite, games, None),
        [suite, games, dir] => (suite, games, Some(dir)),
        _ => {
            eprintln!(
                "usage: make_puzzles MASTER_GAMES.suite SELF_PLAY_GAMES [ABAPA_DATABASES_DIR]"
            );
            std::process::exit(2);
        }
    };
    let databases = databases.map(|dir| {
        Tablebase::open(dir, RuleSet::Abapa).expect("abapa endgame databases in the directory")
    });
    let games: u64 = games.parse().expect("a number of games");
    let mut maker = Maker {
        screen: Analyst::new(SCREEN_DEPTH),
        verify: Analyst::new(VERIFY_DEPTH),
        seen: BTreeSet::new(),
        found: Vec::new(),
        screened: 0,
        verified: 0,
        last: None,
        databases,
        confirmed: 0,
        refuted: 0,
    };
    let text = std::fs::read_to_string(suite).expect("the master games");
    for (number, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let GameLine { start, moves } = line.parse().expect("a game line");
        let mut game = Game::from_position(start, RuleSet::Abapa);
        for mv in moves {
            maker.consider(&game, &format!("master:{}", number + 1));
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    eprintln!("master games: {} puzzles", maker.found.len());
    let mut player = Analyst::new(PLAY_DEPTH);
    let mut random = 0x2545_f491_4f6c_dd1d_u64;
    for number in 1..=games {
        let mut game = Game::new(RuleSet::Abapa);
        let opening = 2 + next(&mut random) % 5;
        for _ in 0..opening {
            let moves: Vec<Move> = game.legal_moves().collect();
            game.play(moves[(next(&mut random) % moves.len() as u64) as usize])
                .expect("a legal move");
        }
        // Each game is played by two levels from 2 to 6: weak enough to leave tactics about.
        let levels = [
            2 + (next(&mut random) % 5) as u8,
            2 + (next(&mut random) % 5) as u8,
        ];
        while !game.is_over() && game.ply_count() < 200 {
            maker.consider(&game, &format!("selfplay:{number}"));
            let values = player.values(&game);
            let level = levels[game.ply_count() % 2];
            let Some(mv) = pick(level, &values, &mut random) else {
                break;
            };
            game.play(mv).expect("a legal move");
        }
        if number % 20 == 0 {
            eprintln!(
                "{number} games: {} puzzles ({} positions screened, {} verified)",
                maker.found.len(),
                maker.screened,
                maker.verified
            );
        }
    }
    println!(
        "# The puzzle set: made by crates/oware-coach/examples/make_puzzles.rs (docs/puzzles.md)."
    );
    println!(
        "# Each: one move ahead of every other by {MARGIN} centiseeds or more at depth {VERIFY_DEPTH}, \
         winning the game or {GAIN} seeds net."
    );
    if maker.databases.is_some() {
        println!(
            "# Positions the abapa endgame databases cover are kept only when they agree (depth:{VERIFY_DEPTH}+egtbN)."
        );
    }
    println!("# format 2: position rules solution goal theme source verified score line");
    for p in &maker.found {
        println!("{}", p.line());
    }
    eprintln!(
        "{} puzzles from {} positions ({} verified; the databases confirmed {} and turned down {})",
        maker.found.len(),
        maker.screened,
        maker.verified,
        maker.confirmed,
        maker.refuted
    );
}

/// The self-play's move among `values` for a player of strength `strength` (2..=6): the playing
/// levels' rule for noise on the scores (never a move lost by force while another is not), with the
/// noise the set was made with: random slips leave the tactics about that puzzles need, and the
/// setting is the generator's own, apart from how the playing levels evolve.
fn pick(strength: u8, values: &[ScoredMove], random: &mut u64) -> Option<Move> {
    let noise = match strength {
        2 => 200,
        3 => 120,
        4 => 90,
        5 => 70,
        _ => 50,
    };
    let level = Strength {
        depth: None,
        noise,
        mistakes: None,
    };
    let scores: Vec<MoveScore> = values
        .iter()
        .map(|v| MoveScore {
            mv: v.mv,
            score: v.score,
            pv: v.line.clone(),
        })
        .collect();
    level.pick(&scores, random)
}
