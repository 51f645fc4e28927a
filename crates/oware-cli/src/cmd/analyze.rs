//! `oware analyze`: every legal move of a position with its score and line, or, for a game record,
//! each move's loss against the best move, with mistakes marked.

use std::path::Path;
use std::time::Duration;

use std::sync::Arc;

use oware_engine::tablebase::TablebaseProbe;
use oware_engine::{describe_score, Engine, EngineOptions, Limits, MoveScore};
use oware_rules::{Game, GameText, GameTextError, Position, RuleSet};

use super::{coach, Exit};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A position string (`h0-…-h11-south-north-S|N`), or a file holding a game: an OGN record, a
    /// move list (`FfEa…`) played from the start, or a position string and the moves from it
    pub target: String,
    /// Thinking time per position in milliseconds (default: 1000 for a position, 300 per move of a
    /// game)
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Search depth limit in plies (with the time limit, whichever comes first)
    #[arg(long)]
    pub depth: Option<u32>,
    /// Rule set, for a position string or a plain move list (an OGN record names its own)
    #[arg(long, short = 'r', default_value = "abapa", value_name = "abapa|awari")]
    pub rules: RuleSet,
    /// Transposition table size in MiB
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Endgame database directory (built by `oware egtb build`): the search uses it, and positions it
    /// covers show each move's database value
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
    /// Search threads: each takes the next move to analyse (default: one per processor)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Say in words why each legal move is good or bad (for a game: each mistake of a seed or more,
    /// why, and the better move). The target may also be a move list such as FfEa: the position
    /// after it. The engine searches every move to a fixed depth (--depth, 12 by default).
    #[arg(long)]
    pub explain: bool,
    /// Language of the explanations: ca, es, en or fr (default: from LC_ALL, LC_MESSAGES or LANG,
    /// else English)
    #[arg(long, value_name = "ca|es|en|fr", requires = "explain")]
    pub lang: Option<oware_coach::Lang>,
}

/// Losses (in centiseeds) from which a move is marked: inaccuracy `?!`, mistake `?`, blunder `??`.
const MARKS: [(i32, &str); 3] = [(300, "??"), (100, "?"), (50, "?!")];

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(d) = args.depth {
        if d == 0 || d > oware_engine::MAX_PLY as u32 - 10 {
            return Err(Exit::bad_input("--depth must be 1..=110"));
        }
    }
    if args.explain {
        return explain(&args);
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash.clamp(1, 4096),
        threads: super::threads_or_every_processor(args.threads),
        ..EngineOptions::default()
    });
    let limits = |default_ms: u64| Limits {
        depth: args.depth,
        movetime: Some(Duration::from_millis(args.movetime.unwrap_or(default_ms))),
        ..Limits::default()
    };
    if let Ok(pos) = args.target.trim().parse::<Position>() {
        let game = Game::from_position(pos, args.rules);
        let tablebase = attach_tablebase(&mut engine, args.egtb.as_deref(), game.rules())?;
        return analyze_position(&mut engine, &game, &limits(1000), tablebase.as_deref());
    }
    let path = Path::new(&args.target);
    if !path.exists() {
        // Neither a position nor a file: say what the position string lacks, if it looks like one.
        let why = match args.target.trim().parse::<Position>() {
            Err(e) if args.target.contains('-') => format!("bad position: {e}"),
            _ => "no such file".to_string(),
        };
        return Err(Exit::bad_input(format!("{}: {why}", args.target)));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
    let game = read_game(&text, args.rules)
        .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
    attach_tablebase(&mut engine, args.egtb.as_deref(), game.rules())?;
    analyze_game(&mut engine, &game, &limits(300))
}

/// `--explain`: a position, or the position after a move list, with every move explained; a game
/// file reviewed.
fn explain(args: &Args) -> anyhow::Result<()> {
    let lang = coach::language(args.lang);
    let depth = args.depth.unwrap_or(coach::DEFAULT_DEPTH);
    let out = &mut std::io::stdout().lock();
    let target = args.target.trim();
    if let Ok(pos) = target.parse::<Position>() {
        let game = Game::from_position(pos, args.rules);
        return Ok(coach::explain_position(out, &game, depth, lang)?);
    }
    let path = Path::new(&args.target);
    if !path.exists() {
        oware_rules::parse_move_letters(target).map_err(|_| {
            Exit::bad_input(format!(
                "{}: neither a position, a move list nor a file",
                args.target
            ))
        })?;
        let game = read_game(target, args.rules)
            .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
        return Ok(coach::explain_position(out, &game, depth, lang)?);
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
    let game = read_game(&text, args.rules)
        .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
    Ok(coach::review_game(out, &game, depth, lang)?)
}

/// A game written as text ([`GameText`]: an OGN record, a move list, a position and moves), played
/// under the rules it names or `rules`.
fn read_game(text: &str, rules: RuleSet) -> Result<Game, GameTextError> {
    GameText::parse(text).and_then(|text| text.game(rules))
}

/// Opens the databases of `rules` in `dir`, if one is given, and lets the engine's search probe them.
fn attach_tablebase(
    engine: &mut Engine,
    dir: Option<&str>,
    rules: RuleSet,
) -> anyhow::Result<Option<Arc<TablebaseProbe>>> {
    let Some(dir) = dir else { return Ok(None) };
    let tablebase = Arc::new(super::open_databases(dir, rules)?);
    engine.set_probe(Some(tablebase.clone()));
    Ok(Some(tablebase))
}

fn line(pv: &[oware_rules::Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn analyze_position(
    engine: &mut Engine,
    game: &Game,
    limits: &Limits,
    tablebase: Option<&TablebaseProbe>,
) -> anyhow::Result<()> {
    let pos = game.position();
    println!("position {pos} ({})", game.rules());
    if let Some(end) = game.end() {
        println!("the game is over: {} {}", end.score, end.reason);
        return Ok(());
    }
    println!("{} to move", pos.side_to_move());
    let analysis = engine.analyze(game, limits);
    // Database values, from the mover's side in the rule set's units (awari: seed difference over
    // the board; abapa: seeds of the board the mover ends with, or a lower bound marked `>=`).
    let database = tablebase.and_then(|tb| {
        let tb = tb.tablebase();
        Some((tb.probe(pos)?, tb.move_values(pos)?))
    });
    if let Some((value, _)) = &database {
        let units = match game.rules() {
            RuleSet::Awari => "seed difference over the board",
            RuleSet::Abapa => "seeds of the board the mover ends with",
        };
        let exact = if value.exact { "exact" } else { "lower bound" };
        println!("database: {} ({exact}; {units})", value.value);
    }
    println!("move  score      database  line");
    for s in &analysis.moves {
        let db = database
            .as_ref()
            .and_then(|(_, moves)| moves.iter().find(|(m, _)| *m == s.mv))
            .map_or("-".to_string(), |(_, p)| {
                if p.exact {
                    p.value.to_string()
                } else {
                    format!(">={}", p.lower)
                }
            });
        println!(
            "{:<5} {:<10} {:<9} {}",
            s.mv.to_string(),
            describe_score(s.score),
            db,
            line(&s.pv)
        );
    }
    println!(
        "depth {} (every move), {} nodes in {} ms on {} thread{}",
        analysis.depth,
        analysis.nodes,
        analysis.time.as_millis(),
        engine.options().threads,
        if engine.options().threads == 1 {
            ""
        } else {
            "s"
        }
    );
    Ok(())
}

fn analyze_game(engine: &mut Engine, game: &Game, limits: &Limits) -> anyhow::Result<()> {
    println!(
        "game of {} plies from {} ({})",
        game.ply_count(),
        game.start(),
        game.rules()
    );
    println!("ply  side   move  score      best  best score  loss  line");
    let mut replay = Game::from_position(*game.start(), game.rules());
    let mut total_loss = [0i64; 2];
    let mut mistakes = [0usize; 2];
    for (ply, &mv) in game.moves().iter().enumerate() {
        let side = replay.position().side_to_move();
        let scores: Vec<MoveScore> = engine.analyze(&replay, limits).moves;
        let best = &scores[0];
        let played = scores
            .iter()
            .find(|s| s.mv == mv)
            .expect("the record's moves are legal");
        let loss = oware_coach::engine::loss(best.score, played.score);
        let mark = MARKS
            .iter()
            .find(|(limit, _)| loss >= *limit)
            .map_or("", |(_, m)| m);
        if loss >= 100 {
            mistakes[side.index()] += 1;
        }
        total_loss[side.index()] += i64::from(loss);
        println!(
            "{:<4} {:<6} {:<5} {:<10} {:<5} {:<11} {:<5} {}",
            ply + 1,
            side.to_string(),
            format!("{mv}{mark}"),
            describe_score(played.score),
            best.mv.to_string(),
            describe_score(best.score),
            loss,
            line(&best.pv)
        );
        replay
            .play(mv)
            .map_err(|e| anyhow::anyhow!("ply {}: {e}", ply + 1))?;
    }
    match game.end() {
        Some(end) => println!("result {} {}", end.score, end.reason),
        None => println!("result unfinished"),
    }
    for side in oware_rules::Side::BOTH {
        let moves = (game.ply_count() + usize::from(side != game.start().side_to_move())) / 2;
        println!(
            "{side}: {} mistakes (loss >= 1 seed), average loss {:.2} seeds per move",
            mistakes[side.index()],
            total_loss[side.index()] as f64 / 100.0 / moves.max(1) as f64
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_read_from_records_and_move_lists() {
        let g = read_game("FfEa\n", RuleSet::Abapa).unwrap();
        assert_eq!(g.ply_count(), 4);
        let g = read_game("[Variant \"awari\"]\n\n1. F f 2. E a *\n", RuleSet::Abapa).unwrap();
        assert_eq!((g.ply_count(), g.rules()), (4, RuleSet::Awari));
        assert!(read_game("FF", RuleSet::Abapa)
            .unwrap_err()
            .to_string()
            .contains("ply 2"));
        assert!(read_game("1. F f 2. Q *", RuleSet::Abapa).is_err());
    }
}
