//! `oware analyse`: every legal move of a position with its score and line, or, for a game record,
//! each move's loss against the best move, with mistakes marked. The numbers are the one analysis
//! of each position ([`oware_coach::analyse`]) that the web's table, coach and review show; the
//! marks and losses are [`oware_coach::review`]'s.

use std::path::Path;
use std::time::Duration;

use std::sync::Arc;

use oware_coach::explain::render_score;
use oware_coach::{Analyst, Lang, Mark};
use oware_engine::tablebase::TablebaseProbe;
use oware_engine::{Engine, EngineOptions};
use oware_rules::{Game, GameText, GameTextError, Position, RuleSet};

use super::{coach, Exit};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// A position string (`h0-…-h11-south-north-S|N`), or a file holding a game: an OGN record, a
    /// move list (`FfEa…`) played from the start, or a position string and the moves from it
    pub target: String,
    /// The most thinking time per position in milliseconds (default: none; the depth decides)
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// The depth every move is searched to, in plies (default: 20, the web's; with --movetime,
    /// whichever comes first)
    #[arg(long)]
    pub depth: Option<u32>,
    /// Rule set, for a position string or a plain move list (an OGN record names its own)
    #[arg(long, short = 'r', default_value = "abapa", value_name = "abapa|awari")]
    pub rules: RuleSet,
    /// Transposition table size in MiB (the web's analysis uses 16: another size may change the
    /// numbers slightly)
    #[arg(long, default_value_t = oware_coach::HASH_MB)]
    pub hash: usize,
    /// Endgame database directory (built by `oware egtb build`): the search uses it, and positions it
    /// covers show each move's database value
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
    /// Say in words why each legal move is good or bad (for a game: each mistake of a seed or more,
    /// why, and the better move). The target may also be a move list such as FfEa: the position
    /// after it.
    #[arg(long)]
    pub explain: bool,
    /// Language of the explanations: ca, es, en or fr (default: from LC_ALL, LC_MESSAGES or LANG,
    /// else English)
    #[arg(long, value_name = "ca|es|en|fr", requires = "explain")]
    pub lang: Option<oware_coach::Lang>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(d) = args.depth {
        if d == 0 || d > oware_engine::MAX_PLY as u32 - 10 {
            return Err(Exit::bad_input("--depth must be 1..=110"));
        }
    }
    let target = args.target.trim();
    let out = &mut std::io::stdout().lock();
    if let Ok(pos) = target.parse::<Position>() {
        let game = Game::from_position(pos, args.rules);
        let (mut analyst, tablebase) = analyst(&args, game.rules())?;
        if args.explain {
            let lang = coach::language(args.lang);
            return Ok(coach::explain_position(out, &game, &mut analyst, lang)?);
        }
        return analyse_position(&mut analyst, &game, tablebase.as_deref());
    }
    let path = Path::new(&args.target);
    let text = if path.exists() {
        std::fs::read_to_string(path)
            .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?
    } else if args.explain && oware_rules::parse_move_letters(target).is_ok() {
        // A move list: the position after it is explained.
        let game = read_game(target, args.rules)
            .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
        let (mut analyst, _) = analyst(&args, game.rules())?;
        let lang = coach::language(args.lang);
        return Ok(coach::explain_position(out, &game, &mut analyst, lang)?);
    } else {
        // Neither a position nor a file: say what the position string lacks, if it looks like one.
        let why = match target.parse::<Position>() {
            Err(e) if args.target.contains('-') => format!("bad position: {e}"),
            _ if args.explain => "neither a position, a move list nor a file".to_string(),
            _ => "no such file".to_string(),
        };
        return Err(Exit::bad_input(format!("{}: {why}", args.target)));
    };
    let game = read_game(&text, args.rules)
        .map_err(|e| Exit::bad_input(format!("{}: {e}", args.target)))?;
    let (mut analyst, _) = analyst(&args, game.rules())?;
    if args.explain {
        let lang = coach::language(args.lang);
        return Ok(coach::review_game(out, &game, &mut analyst, lang)?);
    }
    analyse_game(&mut analyst, &game)
}

/// The analyst of the options: the depth, the time cap, the table and the databases.
fn analyst(args: &Args, rules: RuleSet) -> anyhow::Result<(Analyst, Option<Arc<TablebaseProbe>>)> {
    let mut engine = Engine::new(EngineOptions {
        hash_mb: args.hash.clamp(1, 4096),
        ..EngineOptions::default()
    });
    let tablebase = attach_tablebase(&mut engine, args.egtb.as_deref(), rules)?;
    let analyst = Analyst::with_engine(
        engine,
        args.depth.unwrap_or(oware_coach::DEPTH),
        args.movetime.map(Duration::from_millis),
    );
    Ok((analyst, tablebase))
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

fn analyse_position(
    analyst: &mut Analyst,
    game: &Game,
    tablebase: Option<&TablebaseProbe>,
) -> anyhow::Result<()> {
    let pos = game.position();
    println!("position {pos} ({})", game.rules());
    if let Some(end) = game.end() {
        println!("the game is over: {} {}", end.score, end.reason);
        return Ok(());
    }
    let mover = pos.side_to_move();
    println!("{mover} to move");
    let started = std::time::Instant::now();
    let analysis = analyst.analysis(game);
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
    println!("move  score  loss   database  line");
    for v in &analysis.values {
        let db = database
            .as_ref()
            .and_then(|(_, moves)| moves.iter().find(|(m, _)| *m == v.mv))
            .map_or("-".to_string(), |(_, p)| {
                if p.exact {
                    p.value.to_string()
                } else {
                    format!(">={}", p.lower)
                }
            });
        let loss = f64::from(analysis.loss_of(v.mv).unwrap_or(0)) / 100.0;
        let decided = oware_coach::engine::decided_in(v.score)
            .map(|_| {
                let words = render_score(v.score, v.by_database, mover, Lang::En);
                format!("  ({words})")
            })
            .unwrap_or_default();
        println!(
            "{:<5} {:<6} {:<6.2} {:<9} {}{decided}",
            v.mv.to_string(),
            seeds(v.score),
            loss,
            db,
            line(&v.line),
        );
    }
    println!(
        "depth {} (every move), {} ms",
        analysis.depth,
        started.elapsed().as_millis()
    );
    Ok(())
}

/// A score in seeds with two decimals, or `won`/`lost` for a decided game (said in words beside).
fn seeds(score: i32) -> String {
    match oware_coach::engine::decided_in(score) {
        Some(p) if p > 0 => "won".to_string(),
        Some(_) => "lost".to_string(),
        None => format!("{:+.2}", f64::from(score) / 100.0),
    }
}

fn analyse_game(analyst: &mut Analyst, game: &Game) -> anyhow::Result<()> {
    println!(
        "game of {} plies ({} moves) from {} ({})",
        game.ply_count(),
        oware_coach::engine::moves_in(game.ply_count() as u32),
        game.start(),
        game.rules()
    );
    println!("move    side   played  score   best  best score  loss  line");
    let reviewed = coach::reviewed(game, analyst, coach::REVIEW_THRESHOLD);
    for p in &reviewed.plies {
        let mark = Mark::of(p.loss).map_or("", Mark::symbol);
        println!(
            "{:<7} {:<6} {:<7} {:<7} {:<5} {:<11} {:<5.2} {}",
            p.label,
            p.mover.to_string(),
            format!("{}{mark}", p.played),
            seeds(p.score),
            p.best.to_string(),
            seeds(p.best_score),
            f64::from(p.loss) / 100.0,
            line(&p.line)
        );
    }
    match game.end() {
        Some(end) => println!("result {} {}", end.score, end.reason),
        None => println!("result unfinished"),
    }
    for side in oware_rules::Side::BOTH {
        let mistakes = reviewed
            .plies
            .iter()
            .filter(|p| p.mover == side && p.loss >= coach::REVIEW_THRESHOLD)
            .count();
        println!(
            "{side}: {mistakes} mistakes (loss >= 1 seed), accuracy {}%, average loss {:.2} seeds per move",
            reviewed.accuracy(side).unwrap_or(100),
            f64::from(reviewed.average_loss(side).unwrap_or(0)) / 100.0
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
