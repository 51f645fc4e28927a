//! `oware engine`: the UCI-style engine protocol on standard input and output.
//!
//! Commands: `uci`, `isready`, `setoption name X value Y` (`Hash`, `Threads`, `Level`, `Rules`),
//! `ucinewgame`, `position startpos | fen <position-string> [moves <letters>]`,
//! `go [depth N] [movetime MS] [wtime MS btime MS winc MS binc MS] [movestogo N] [nodes N] [infinite]
//! [ponder]`, `stop`, `ponderhit`, `quit`. The search runs on a worker thread so that `isready`,
//! `stop` and `ponderhit` are answered while it thinks. Anything malformed or illegal is answered with
//! `info string error: …` and changes nothing. `position`, `go`, `setoption` and `ucinewgame` sent
//! during a limited search wait for its `bestmove`; during `go infinite`, `go ponder` or a `go`
//! with no limit (no depth, time, clocks or nodes: a search that only `stop` is sure to end) they
//! are refused until `stop`.
//!
//! Replies: `info depth D seldepth S score cp X nodes N nps N time MS hashfull H pv M M …` after each
//! completed iteration (the pv one letter per word) and `bestmove M [ponder P]`, or `bestmove 0000`
//! when the game is over. Scores are centiseeds (100 = one seed) for the side to move; a won game is
//! reported as 30000 minus the plies to its end (a lost one as the negative).
//!
//! `Move Overhead` (milliseconds, 30 by default, as in other engines) is what the time plan keeps
//! off the clock at every move for the time a move takes to reach the clock's keeper: raise it when
//! a GUI, a referee or a loaded machine adds delays. `movestogo` spreads the clock over the moves
//! until it is refilled; without it the plan is for sudden death.
//!
//! Extra options: `Eval` (`default` or `material`, to measure the evaluation terms), `Weights`
//! (`name=value,…`, to try tuned evaluation weights in matches) and `EGTB` (a directory of endgame
//! databases built by `oware egtb build`, for the current rule set; empty to switch them off). With
//! databases, an awari position they cover is answered at once with the database's best move, and
//! the search uses exact database values wherever it reaches a covered position right after a capture.

use std::io::Write;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use oware_engine::tablebase::TablebaseProbe;
use oware_engine::{
    seed_from_clock, Clock, Engine, EngineOptions, Level, Limits, SearchControl, SearchResult,
    DEFAULT_MOVE_OVERHEAD,
};
use oware_rules::{Game, Position, RuleSet};

use crate::input::{read_line, Line};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Endgame database directory (as the `EGTB` option; built by `oware egtb build`)
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
}

/// Larger tables than this are refused: the table is touched page by page when made.
const MAX_HASH_MB: usize = 4096;
const MAX_THREADS: usize = 256;
/// The largest `Move Overhead` accepted, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

pub fn run(args: Args) -> anyhow::Result<()> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut session = Session::new();
    if let Some(dir) = args.egtb {
        // A bad directory is reported on the protocol and the engine plays on without databases.
        session.set_option(&["name", "EGTB", "value", &dir]);
    }
    loop {
        match read_line(&mut input)? {
            Line::End => {
                // End of input: a limited search still answers (a script may pipe `go depth N` and
                // close); an infinite or ponder search stops now.
                if !(session.unbounded || session.control.is_pondering()) {
                    session.idle_engine("end of input");
                }
                break;
            }
            Line::TooLong => error("line too long"),
            Line::Text(line) => {
                if !session.handle(&line) {
                    break;
                }
            }
        }
    }
    session.finish_search();
    Ok(())
}

/// Writes one protocol line and flushes it at once (the other side waits for it).
fn send(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed output means the GUI is gone; nothing useful is left to do with the error.
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(message: &str) {
    send(&format!("info string error: {message}"));
}

/// What `go` asked for, validated.
#[derive(Debug, Default, PartialEq)]
struct Go {
    limits: Limits,
    ponder: bool,
}

/// Parses the words after `go`.
fn parse_go(words: &[&str]) -> Result<Go, String> {
    let mut go = Go::default();
    let mut clocks = [Clock::default(); 2];
    let mut has_clock = false;
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let mut number = |what: &str| -> Result<u64, String> {
            i += 1;
            let text = words
                .get(i)
                .ok_or_else(|| format!("go {what}: a number is missing"))?;
            text.parse::<u64>()
                .map_err(|_| format!("go {what}: {text:?} is not a whole number"))
        };
        match word {
            "depth" => {
                let d = number("depth")?;
                if d == 0 || d > oware_engine::MAX_PLY as u64 - 10 {
                    return Err(format!(
                        "go depth: {d} is out of range 1..={}",
                        oware_engine::MAX_PLY - 10
                    ));
                }
                go.limits.depth = Some(d as u32);
            }
            "movetime" => go.limits.movetime = Some(Duration::from_millis(number("movetime")?)),
            "nodes" => go.limits.nodes = Some(number("nodes")?),
            "wtime" => {
                clocks[0].time = Duration::from_millis(number("wtime")?);
                has_clock = true;
            }
            "btime" => {
                clocks[1].time = Duration::from_millis(number("btime")?);
                has_clock = true;
            }
            "winc" => clocks[0].increment = Duration::from_millis(number("winc")?),
            "binc" => clocks[1].increment = Duration::from_millis(number("binc")?),
            "movestogo" => {
                let moves = number("movestogo")?;
                let in_range = u32::try_from(moves).ok().filter(|&m| m > 0);
                go.limits.moves_to_go = Some(in_range.ok_or_else(|| {
                    format!("go movestogo: {moves} is out of range 1..={}", u32::MAX)
                })?);
            }
            "infinite" => go.limits.infinite = true,
            "ponder" => go.ponder = true,
            other => return Err(format!("go: unknown word {other:?}")),
        }
        i += 1;
    }
    if has_clock {
        go.limits.clocks = Some(clocks);
    }
    Ok(go)
}

/// Parses the words after `position`: the game they describe.
fn parse_position(words: &[&str], rules: RuleSet) -> Result<Game, String> {
    let (start, rest) = match words {
        ["startpos", rest @ ..] => (Position::start(), rest),
        ["fen", text, rest @ ..] => (
            text.parse::<Position>()
                .map_err(|e| format!("position fen {text}: {e}"))?,
            rest,
        ),
        ["fen"] => return Err("position fen: the position string is missing".into()),
        _ => return Err("position: expected `startpos` or `fen <position-string>`".into()),
    };
    let moves = match rest {
        [] => Vec::new(),
        ["moves", letters @ ..] => oware_rules::parse_move_letters(&letters.concat())
            .map_err(|e| format!("position moves: {e}"))?,
        [other, ..] => return Err(format!("position: expected `moves`, found {other:?}")),
    };
    Game::replay(start, rules, &moves).map_err(|(ply, e)| {
        format!(
            "position moves: {}: {e}",
            oware_rules::describe_ply(start.side_to_move(), ply, moves[ply])
        )
    })
}

/// Evaluation weights changed by `name=value,name=value` (e.g. `threat=20,kroo=0`), starting from
/// `base`; `<empty>` or nothing leaves them as they are.
fn parse_weights(text: &str, base: oware_engine::Weights) -> Result<oware_engine::Weights, String> {
    let mut weights = base;
    for item in text.split(',').map(str::trim) {
        if item.is_empty() || item == "<empty>" {
            continue;
        }
        let (name, value) = item
            .split_once('=')
            .ok_or_else(|| format!("setoption Weights: {item:?} is not name=value"))?;
        let value: i32 = value
            .trim()
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= 10_000)
            .ok_or_else(|| {
                format!("setoption Weights: {value:?} is not a number in -10000..=10000")
            })?;
        if !weights.set(name.trim(), value) {
            return Err(format!(
                "setoption Weights: unknown term {name:?} (terms: {}, and by column {}, as \
                 <term>_a to <term>_f or all six at once; each also as <name>_opening)",
                oware_engine::BOARD_TERMS.join(", "),
                oware_engine::HOUSE_TERMS.join(", ")
            ));
        }
    }
    Ok(weights)
}

/// The protocol state: options, the current game, and the engine (held by the worker while it
/// searches).
struct Session {
    engine: Option<Engine>,
    control: Arc<SearchControl>,
    worker: Option<JoinHandle<Engine>>,
    rules: RuleSet,
    level: u8,
    game: Game,
    random: u64,
    /// The running search has no limit (`go infinite`, or a `go` with no depth, time, clocks or
    /// nodes): only `stop` is sure to end it, so commands that need the engine are refused rather
    /// than wait for it.
    unbounded: bool,
    /// The `EGTB` option: the database directory, and the databases opened for `rules`.
    egtb_dir: String,
    tablebase: Option<Arc<TablebaseProbe>>,
    /// The `Move Overhead` option: kept off the clock at every move of a `go wtime … btime …`.
    move_overhead: Duration,
}

impl Session {
    fn new() -> Session {
        let engine = Engine::new(EngineOptions::default());
        Session {
            control: engine.control(),
            engine: Some(engine),
            worker: None,
            rules: RuleSet::Abapa,
            level: 10,
            game: Game::new(RuleSet::Abapa),
            random: seed_from_clock(),
            unbounded: false,
            egtb_dir: String::new(),
            tablebase: None,
            move_overhead: DEFAULT_MOVE_OVERHEAD,
        }
    }

    fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|w| !w.is_finished())
    }

    /// Waits for the worker (after it was told to stop, or when it is done) and takes the engine back.
    fn finish_search(&mut self) {
        if self.worker.is_some() {
            self.control.stop();
            self.reclaim_engine();
        }
    }

    /// Joins the worker, if any, and takes its engine back.
    fn reclaim_engine(&mut self) {
        let Some(worker) = self.worker.take() else {
            return;
        };
        let engine = worker.join().unwrap_or_else(|_| {
            // The search panicked (a bug): start over with a fresh engine rather than die.
            error("the search failed; the engine was reset");
            Engine::new(EngineOptions::default())
        });
        self.control = engine.control();
        self.engine = Some(engine);
    }

    /// The engine, once no search is running. A search with a limit (depth, time, nodes) is waited
    /// for (it answers `bestmove` first); during a search with no limit or a `ponder` search, which
    /// only `stop` is sure to end, this is an error and `None`.
    fn idle_engine(&mut self, command: &str) -> Option<&mut Engine> {
        if self.searching() && (self.unbounded || self.control.is_pondering()) {
            error(&format!(
                "{command}: not allowed during a search that only stop ends (send stop first)"
            ));
            return None;
        }
        // A limited search ends by itself: wait for it, then take the engine back.
        self.reclaim_engine();
        self.engine.as_mut()
    }

    /// Handles one line; `false` to quit.
    fn handle(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, rest)) = words.split_first() else {
            return true;
        };
        match command {
            "uci" => {
                send(&format!("id name oware {}", env!("CARGO_PKG_VERSION")));
                send("id author the oware developers");
                send("option name Hash type spin default 64 min 1 max 4096");
                send("option name Threads type spin default 1 min 1 max 256");
                send("option name Level type spin default 10 min 1 max 10");
                send("option name Rules type combo default abapa var abapa var awari");
                send("option name Ponder type check default false");
                send("option name Eval type combo default default var default var material");
                send("option name Weights type string default <empty>");
                send("option name EGTB type string default <empty>");
                send(&format!(
                    "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                    DEFAULT_MOVE_OVERHEAD.as_millis()
                ));
                send("uciok");
            }
            "isready" => send("readyok"),
            "setoption" => self.set_option(rest),
            "ucinewgame" => {
                if let Some(engine) = self.idle_engine("ucinewgame") {
                    engine.new_game();
                    self.game = Game::new(self.rules);
                }
            }
            "position" => {
                if self.idle_engine("position").is_some() {
                    match parse_position(rest, self.rules) {
                        Ok(game) => self.game = game,
                        Err(e) => error(&e),
                    }
                }
            }
            "go" => self.go(rest),
            "stop" => self.finish_search(),
            "ponderhit" => {
                if self.searching() && self.control.is_pondering() {
                    self.control.ponderhit();
                } else {
                    error("ponderhit: not pondering");
                }
            }
            "quit" => {
                self.finish_search();
                return false;
            }
            other => error(&format!("unknown command {other:?}")),
        }
        true
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name <name words> [value <value words>]
        let Some(("name", after)) = words.split_first().map(|(a, b)| (*a, b)) else {
            error("setoption: expected `setoption name <name> value <value>`");
            return;
        };
        let split = after.iter().position(|w| *w == "value");
        let name = after[..split.unwrap_or(after.len())].join(" ");
        let value = split.map(|i| after[i + 1..].join(" ")).unwrap_or_default();
        let number = |max: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|v| (1..=max).contains(v))
                .ok_or_else(|| format!("setoption {name}: {value:?} is not a number in 1..={max}"))
        };
        if self.idle_engine("setoption").is_none() {
            return;
        }
        let Some(engine) = self.engine.as_mut() else {
            return;
        };
        let result = match name.to_ascii_lowercase().as_str() {
            "hash" => number(MAX_HASH_MB).map(|mb| engine.set_hash(mb)),
            "threads" => number(MAX_THREADS).map(|t| engine.set_threads(t)),
            "level" => number(10).map(|l| self.level = l as u8),
            "rules" => match value.parse::<RuleSet>() {
                Ok(rules) => {
                    // The current game is replayed under the new rules, or reset if it cannot be.
                    self.rules = rules;
                    self.game = Game::replay(*self.game.start(), rules, self.game.moves())
                        .unwrap_or_else(|_| Game::new(rules));
                    engine.new_game();
                    // Databases are per rule set: open the other set's, if the directory has them.
                    let dir = self.egtb_dir.clone();
                    self.open_tablebase(&dir)
                }
                Err(e) => Err(format!("setoption Rules: {e}")),
            },
            "eval" => match value.as_str() {
                "default" => Ok(oware_engine::Weights::DEFAULT),
                "material" => Ok(oware_engine::Weights::MATERIAL),
                _ => Err(format!(
                    "setoption Eval: {value:?} is not default or material"
                )),
            }
            .map(|w| engine.set_weights(w)),
            "weights" => {
                parse_weights(&value, engine.options().weights).map(|w| engine.set_weights(w))
            }
            "egtb" => {
                let dir = if value == "<empty>" {
                    String::new()
                } else {
                    value.clone()
                };
                self.open_tablebase(&dir)
            }
            "move overhead" => value
                .parse::<u64>()
                .ok()
                .filter(|ms| *ms <= MAX_MOVE_OVERHEAD_MS)
                .map(|ms| self.move_overhead = Duration::from_millis(ms))
                .ok_or_else(|| {
                    format!(
                        "setoption Move Overhead: {value:?} is not a number of milliseconds in \
                         0..={MAX_MOVE_OVERHEAD_MS}"
                    )
                }),
            "ponder" => match value.as_str() {
                "true" | "false" => Ok(()),
                _ => Err(format!("setoption Ponder: {value:?} is not true or false")),
            },
            _ => Err(format!("setoption: unknown option {name:?}")),
        };
        if let Err(e) = result {
            error(&e);
        }
    }

    /// Opens the databases of the current rule set in `dir` (empty: none) and hands them to the
    /// search. On failure the databases are off and the error says why.
    fn open_tablebase(&mut self, dir: &str) -> Result<(), String> {
        self.egtb_dir = dir.to_string();
        self.tablebase = None;
        let opened = if dir.is_empty() {
            Ok(None)
        } else {
            TablebaseProbe::open(dir, self.rules)
                .map(|tb| Some(Arc::new(tb)))
                .map_err(|e| format!("setoption EGTB: {e}"))
        };
        let result = opened.map(|tb| {
            if let Some(tb) = &tb {
                send(&format!(
                    "info string endgame databases: {} up to {} seeds",
                    self.rules,
                    tb.tablebase().max_seeds()
                ));
            }
            self.tablebase = tb;
        });
        if let Some(engine) = self.engine.as_mut() {
            let probe = self
                .tablebase
                .clone()
                .map(|tb| tb as Arc<dyn oware_engine::Probe>);
            engine.set_probe(probe);
        }
        result
    }

    fn go(&mut self, words: &[&str]) {
        let go = match parse_go(words) {
            Ok(go) => go,
            Err(e) => return error(&e),
        };
        if self.idle_engine("go").is_none() {
            return;
        }
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let control = engine.control();
        control.reset(go.ponder);
        let game = self.game.clone();
        let level = Level::new(self.level);
        let mut random = self.random;
        self.random = self.random.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let Go { mut limits, ponder } = go;
        limits.move_overhead = self.move_overhead;
        let wait_for_stop = limits.infinite || ponder;
        // After `ponderhit` a ponder search goes on under its own limits: with none, it is as
        // unbounded as `go infinite`.
        self.unbounded = !limits.is_bounded();
        let tablebase = self.tablebase.clone();
        self.worker = Some(std::thread::spawn(move || {
            let from_database = tablebase
                .filter(|_| level.is_full_strength())
                .and_then(|tb| tb.root_move(&game));
            let result = if game.is_over() {
                None
            } else if let Some((mv, value)) = from_database {
                let me = game.position().side_to_move();
                let stores = i32::from(game.position().store(me))
                    - i32::from(game.position().store(me.opponent()));
                send(&format!(
                    "info depth 0 score cp {} pv {mv} string endgame database",
                    100 * (stores + value)
                ));
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
            } else if level.is_full_strength() {
                Some(engine.search_controlled(&game, &limits, &mut print_info))
            } else {
                limits.depth = limits.depth.min(level.depth).or(level.depth);
                let analysis = engine.analyze_controlled(&game, &limits);
                level.pick(&analysis.moves, &mut random).map(|mv| {
                    let chosen = analysis
                        .moves
                        .iter()
                        .find(|s| s.mv == mv)
                        .expect("picked from scores");
                    SearchResult {
                        best: Some(mv),
                        ponder: chosen.pv.get(1).copied(),
                        score: chosen.score,
                        depth: analysis.depth,
                        seldepth: 0,
                        nodes: analysis.nodes,
                        time: analysis.time,
                        pv: chosen.pv.clone(),
                        hashfull: 0,
                    }
                })
            };
            // With `infinite` or `ponder` the answer waits for `stop` (or `ponderhit`).
            while wait_for_stop
                && !control.is_stopped()
                && (control.is_pondering() || limits.infinite)
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            match result.and_then(|r| r.best.map(|b| (b, r.ponder))) {
                Some((best, Some(ponder))) => send(&format!("bestmove {best} ponder {ponder}")),
                Some((best, None)) => send(&format!("bestmove {best}")),
                None => send("bestmove 0000"),
            }
            engine
        }));
    }
}

fn print_info(r: &SearchResult) {
    // The pv is written one letter per word, as UCI tools expect.
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    send(&format!(
        "info depth {} seldepth {} score cp {} nodes {} nps {} time {} hashfull {} pv {}",
        r.depth,
        r.seldepth,
        r.score,
        r.nodes,
        r.nps(),
        r.time.as_millis(),
        r.hashfull,
        pv.join(" ")
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_words_are_validated() {
        let go = parse_go(&["wtime", "1000", "btime", "2000", "winc", "10"]).unwrap();
        let clocks = go.limits.clocks.unwrap();
        assert_eq!(clocks[0].time, Duration::from_millis(1000));
        assert_eq!(clocks[1].time, Duration::from_millis(2000));
        assert_eq!(clocks[0].increment, Duration::from_millis(10));
        assert!(parse_go(&["depth"]).is_err());
        assert!(parse_go(&["depth", "-3"]).is_err());
        assert!(parse_go(&["depth", "0"]).is_err());
        assert!(parse_go(&["sideways"]).is_err());
        assert!(parse_go(&["infinite", "ponder"]).unwrap().ponder);
        let go = parse_go(&["wtime", "1000", "btime", "2000", "movestogo", "3"]).unwrap();
        assert_eq!(go.limits.moves_to_go, Some(3));
        assert!(parse_go(&["wtime", "1000", "btime", "2000"])
            .unwrap()
            .limits
            .moves_to_go
            .is_none());
        assert!(parse_go(&["movestogo", "0"]).is_err());
        assert!(parse_go(&["movestogo", "99999999999"]).is_err());
    }

    #[test]
    fn weights_are_validated() {
        let base = oware_engine::Weights::DEFAULT;
        let w = parse_weights("threat=20, kroo=0", base).unwrap();
        assert_eq!((w.threat, w.kroo, w.store), ([20; 6], [0; 6], base.store));
        let w = parse_weights("kroo_c=5,empty_opening=-3", base).unwrap();
        assert_eq!(
            w.kroo,
            [
                base.kroo[0],
                base.kroo[1],
                5,
                base.kroo[3],
                base.kroo[4],
                base.kroo[5]
            ]
        );
        // The opening weights in `Weights::as_array`'s order: the board terms', then six a house
        // term.
        let empty = oware_engine::BOARD_TERMS.len()
            + 6 * oware_engine::HOUSE_TERMS
                .iter()
                .position(|&t| t == "empty")
                .unwrap();
        assert_eq!(w.opening[empty..empty + 6], [-3; 6]);
        assert_eq!(parse_weights("<empty>", base).unwrap(), base);
        assert!(parse_weights("threat", base).is_err());
        assert!(parse_weights("threat=x", base).is_err());
        assert!(parse_weights("colour=3", base).is_err());
        assert!(parse_weights("threat=99999", base).is_err());
    }

    #[test]
    fn positions_are_validated() {
        let g = parse_position(&["startpos", "moves", "FfEa"], RuleSet::Abapa).unwrap();
        assert_eq!(g.ply_count(), 4);
        let g = parse_position(&["startpos", "moves", "F", "f"], RuleSet::Abapa).unwrap();
        assert_eq!(g.ply_count(), 2);
        assert!(parse_position(&["startpos", "moves", "FF"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["startpos", "moves", "Fz"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["fen", "4-4-4"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["fen"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["sideways"], RuleSet::Abapa).is_err());
        assert!(parse_position(&["startpos", "FfEa"], RuleSet::Abapa).is_err());
        let g = parse_position(
            &["fen", "4-4-4-4-4-0-5-5-5-5-4-4-0-0-N", "moves", "a"],
            RuleSet::Abapa,
        )
        .unwrap();
        assert_eq!(g.ply_count(), 1);
    }
}
