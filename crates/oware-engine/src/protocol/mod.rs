//! The UCI-style engine protocol (`oware engine`), over any line input and output: the engine side
//! of what GUIs, engine tools and the referee (the `oware-referee` crate) speak.
//!
//! Commands: `uci`, `isready`, `setoption name X value Y` (`Hash`, `Threads`, `Level`, `Rules`,
//! `EngineTurn`, …),
//! `ucinewgame`, `position startpos | fen <position-string> [moves <letters>]`,
//! `go [depth N] [movetime MS] [wtime MS btime MS winc MS binc MS] [movestogo N] [nodes N] [infinite]
//! [ponder]`, `stop`, `ponderhit`, `quit`. The search runs on a worker thread so that `isready`,
//! `stop` and `ponderhit` are answered while it thinks. Anything malformed or illegal is answered with
//! `info string error: …` and changes nothing. `position`, `go`, `setoption` and `ucinewgame` sent
//! during a limited search wait for its `bestmove`; during `go infinite`, `go ponder` or a `go`
//! with no limit (no depth, time, clocks or nodes: a search that only `stop` is sure to end) they
//! are refused until `stop`. The input is read ahead while a command waits, so a `stop` or `quit`
//! sent behind it acts at once: the search stops, and the waiting command goes on. Times in `go`
//! longer than 2^32 - 1 ms (49.7 days; any number of digits is read) count as that, node counts past
//! 64 bits as the largest; a `depth` or `movestogo` out of range is refused.
//!
//! Replies: `info depth D seldepth S score cp X nodes N nps N time MS hashfull H pv MMM…` after each
//! completed iteration (the pv one run of letters, `pv CdB`, as the Aualé GUI and its engine write
//! it) and `bestmove M [ponder P]`, or `bestmove 0000` when the game is over. Scores are centiseeds
//! (100 = one seed) for the side to move; a won game is reported as 30000 minus the plies to its end
//! (a lost one as the negative). Option names are one word each, as that GUI reads them.
//! docs/engine-protocol.md gives the dialect line by line.
//!
//! `MoveOverhead` (milliseconds, 30 by default, as in other engines; `Move Overhead` is taken too)
//! is what the time plan keeps off the clock at every move for the time a move takes to reach the
//! clock's keeper: raise it when a GUI, a referee or a loaded machine adds delays. `movestogo`
//! spreads the clock over the moves until it is refilled; without it the plan is for sudden death.
//!
//! `Ponder` and `OwnBook` (checks) are offered and accepted because GUIs send them; neither changes
//! anything: pondering is asked for with `go ponder`, and the engine has no opening book.
//!
//! Extra options: `Eval` (`default`; `tapered`, the default without the weights fitted to the
//! databases for small endgames, [`Weights::TAPERED`]; or `material`, to measure the evaluation
//! terms), `Weights`
//! (`name=value,…`, to try tuned evaluation weights in matches) and `EGTB` (a directory of endgame
//! databases built by `oware egtb build`, for the current rule set; empty: the databases the
//! session started with, [`StartDatabases`], which for `oware engine` are those of the user's data
//! directory, built in the background on first use, unless it was started with `--no-egtb`). With
//! databases, an awari position they cover is answered at once with the database's best move, and
//! the search uses database values and bounds wherever it reaches a covered position (under abapa,
//! widened by the positions since the last capture: see `search.rs`).
//! Moves are chosen by [`crate::player`], as everywhere else.
//!
//! `EngineTurn` (`south` or `north`) is how the Aualé GUI tells its engines which side they play
//! before a search; it is offered, checked and kept so that GUIs and referees of that dialect may
//! send it. The search scores every position from the side to move's view with a draw worth zero
//! (it has no contempt), so nothing it decides depends on the side yet.

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use oware_rules::random::SplitMix64;
use oware_rules::{format_move_letters, quoted, Game, RuleSet, Side};

use crate::input::Line;
use crate::player::{self, seed_from_clock, Choice, Oversight, Source, Strength};
use crate::tablebase::TablebaseProbe;
use crate::Weights;
use crate::{
    Engine, EngineOptions, Probe, ProbeSet, SearchControl, SearchResult, DEFAULT_MOVE_OVERHEAD,
};

mod inbox;
mod parse;

use inbox::Inbox;
use parse::{parse_go, parse_position, parse_weights, Go};

/// Larger tables than this are refused: the table is touched page by page when made.
const MAX_HASH_MB: usize = 4096;
const MAX_THREADS: usize = 256;
/// How often a command that waits for a search looks whether the search has ended (new lines
/// wake it sooner).
const STOP_POLL: Duration = Duration::from_millis(5);
/// The largest `MoveOverhead` accepted, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: u64 = 5_000;

/// The endgame databases a session starts with.
pub enum StartDatabases<'a> {
    /// None, until the `EGTB` option names a directory.
    None,
    /// The databases of a directory, as if the `EGTB` option named it first: a directory that
    /// cannot be used is reported on the protocol, and the engine plays on without databases.
    Dir(&'a str),
    /// Databases that may grow during the session (built in the background), of one or both rule
    /// sets: the search probes those of the current rule set while the `EGTB` option is empty.
    Growing(ProbeSet),
}

/// Speaks the protocol on `input` and `output` until `quit` or the end of the input, with the
/// endgame databases `databases` and the weak levels' mistakes from `oversight` (see
/// [`crate::player`]). Only a failure to read the input is an error; a closed output means the GUI
/// is gone, and the session ends with its input.
///
/// The input is read by a thread of its own, which is left to end with the input when the session
/// ends first.
pub fn run(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    databases: StartDatabases,
    oversight: Option<Arc<dyn Oversight>>,
) -> io::Result<()> {
    let mut session = Session::new(output);
    if let Some(engine) = session.engine.as_mut() {
        engine.set_oversight(oversight.clone());
    }
    session.oversight = oversight;
    match databases {
        StartDatabases::None => {}
        StartDatabases::Dir(dir) => session.set_option(&["name", "EGTB", "value", dir]),
        StartDatabases::Growing(growing) => {
            session.growing = growing;
            session.use_databases(None);
        }
    }
    session.inbox.read_from(input);
    let ended = loop {
        match session.inbox.next() {
            Ok(Line::End) => {
                // End of input: a limited search still answers (a script may pipe `go depth N` and
                // close); an infinite or ponder search stops now.
                if !(session.unbounded || session.control.is_pondering()) {
                    session.idle_engine("end of input");
                }
                break Ok(());
            }
            Err(e) => break Err(e),
            Ok(Line::TooLong) => session.out.error("line too long"),
            Ok(Line::Text(line)) => {
                if !session.handle(&line) {
                    break Ok(());
                }
            }
        }
    };
    session.finish_search();
    session.inbox.close();
    ended
}

/// Where the replies go, shared with the search thread: one line at a time, each flushed at once
/// (the other side waits for it).
#[derive(Clone)]
struct Replies(Arc<Mutex<Box<dyn Write + Send>>>);

impl Replies {
    fn send(&self, line: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A closed output means the GUI is gone; nothing useful is left to do with the error.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }

    fn error(&self, message: &str) {
        self.send(&format!("info string error: {message}"));
    }
}

/// The protocol state: options, the current game, and the engine (held by the worker while it
/// searches).
struct Session {
    out: Replies,
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
    /// The `EGTB` option: the database directory (empty: `growing`'s of `rules`).
    egtb_dir: String,
    /// The databases the session started with, used while `egtb_dir` is empty.
    growing: ProbeSet,
    /// The `MoveOverhead` option: kept off the clock at every move of a `go wtime … btime …`.
    move_overhead: Duration,
    /// The `EngineTurn` option: the side the GUI says the engine plays, once it has said so.
    engine_turn: Option<Side>,
    /// The lines read and not yet handled.
    inbox: Arc<Inbox>,
    /// The weak levels' mistakes, kept for an engine made anew.
    oversight: Option<Arc<dyn Oversight>>,
}

impl Session {
    fn new(output: impl Write + Send + 'static) -> Session {
        let engine = Engine::new(EngineOptions::default());
        Session {
            out: Replies(Arc::new(Mutex::new(Box::new(output)))),
            control: engine.control(),
            engine: Some(engine),
            worker: None,
            rules: RuleSet::Abapa,
            level: 10,
            game: Game::new(RuleSet::Abapa),
            random: seed_from_clock(),
            unbounded: false,
            egtb_dir: String::new(),
            growing: ProbeSet::none(),
            move_overhead: DEFAULT_MOVE_OVERHEAD,
            engine_turn: None,
            inbox: Arc::default(),
            oversight: None,
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
            self.out.error("the search failed; the engine was reset");
            Engine::new(EngineOptions {
                oversight: self.oversight.clone(),
                ..EngineOptions::default()
            })
        });
        self.control = engine.control();
        self.engine = Some(engine);
    }

    /// The engine, once no search is running. A search with a limit (depth, time, nodes) is waited
    /// for (it answers `bestmove` first) unless a `stop` or `quit` is already read behind this
    /// command: then it is stopped now, as that line would stop it; during a search with no limit or
    /// a `ponder` search, which only `stop` is sure to end, this is an error and `None`.
    fn idle_engine(&mut self, command: &str) -> Option<&mut Engine> {
        if self.searching() && (self.unbounded || self.control.is_pondering()) {
            self.out.error(&format!(
                "{command}: not allowed during a search that only stop ends (send stop first)"
            ));
            return None;
        }
        // A limited search ends by itself: wait for it, then take the engine back.
        while self.searching() {
            if self.inbox.stop_queued(STOP_POLL) {
                self.control.stop();
                break;
            }
        }
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
                self.out
                    .send(&format!("id name oware {}", env!("CARGO_PKG_VERSION")));
                self.out.send("id author the oware developers");
                self.out
                    .send("option name Hash type spin default 64 min 1 max 4096");
                self.out
                    .send("option name Threads type spin default 1 min 1 max 256");
                self.out
                    .send("option name Level type spin default 10 min 1 max 10");
                self.out
                    .send("option name Rules type combo default abapa var abapa var awari");
                self.out.send("option name Ponder type check default false");
                let vars: String = Weights::NAMED
                    .iter()
                    .map(|(name, _)| format!(" var {name}"))
                    .collect();
                self.out.send(&format!(
                    "option name Eval type combo default default{vars}"
                ));
                self.out
                    .send("option name Weights type string default <empty>");
                self.out
                    .send("option name EGTB type string default <empty>");
                self.out
                    .send("option name EngineTurn type combo default south var south var north");
                self.out.send(&format!(
                    "option name MoveOverhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD_MS}",
                    DEFAULT_MOVE_OVERHEAD.as_millis()
                ));
                self.out
                    .send("option name OwnBook type check default false");
                self.out.send("uciok");
            }
            "isready" => self.out.send("readyok"),
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
                        Err(e) => self.out.error(&e),
                    }
                }
            }
            "go" => self.go(rest),
            "stop" => self.finish_search(),
            "ponderhit" => {
                if self.searching() && self.control.is_pondering() {
                    self.control.ponderhit();
                } else {
                    self.out.error("ponderhit: not pondering");
                }
            }
            "quit" => {
                self.finish_search();
                return false;
            }
            other => self.out.error(&format!(
                "unknown command {other_q}",
                other_q = quoted(other)
            )),
        }
        true
    }

    fn set_option(&mut self, words: &[&str]) {
        // setoption name <name words> [value <value words>]
        let Some(("name", after)) = words.split_first().map(|(a, b)| (*a, b)) else {
            self.out
                .error("setoption: expected `setoption name <name> value <value>`");
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
                .ok_or_else(|| {
                    format!(
                        "setoption {name}: {value_q} is not a number in 1..={max}",
                        value_q = quoted(&value)
                    )
                })
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
            "eval" => Weights::named(&value)
                .ok_or_else(|| {
                    let names = Weights::NAMED.map(|(name, _)| name);
                    let (last, others) = names.split_last().expect("named weights");
                    format!(
                        "setoption Eval: {value_q} is not {} or {last}",
                        others.join(", "),
                        value_q = quoted(&value)
                    )
                })
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
            // The name once had a space, which GUIs that read one word per name cannot take; the
            // old spelling is still accepted.
            "moveoverhead" | "move overhead" => value
                .parse::<u64>()
                .ok()
                .filter(|ms| *ms <= MAX_MOVE_OVERHEAD_MS)
                .map(|ms| self.move_overhead = Duration::from_millis(ms))
                .ok_or_else(|| {
                    format!(
                        "setoption MoveOverhead: {value_q} is not a number of milliseconds in \
                         0..={MAX_MOVE_OVERHEAD_MS}",
                        value_q = quoted(&value)
                    )
                }),
            "engineturn" => match value.to_ascii_lowercase().as_str() {
                "south" => Ok(Side::South),
                "north" => Ok(Side::North),
                _ => Err(format!(
                    "setoption EngineTurn: {value_q} is not south or north",
                    value_q = quoted(&value)
                )),
            }
            .map(|side| self.engine_turn = Some(side)),
            // Offered because GUIs send them: pondering needs nothing set (`go ponder` is enough),
            // and there is no opening book to turn on or off.
            "ponder" | "ownbook" => match value.as_str() {
                "true" | "false" => Ok(()),
                _ => Err(format!(
                    "setoption {name}: {value_q} is not true or false",
                    value_q = quoted(&value)
                )),
            },
            _ => Err(format!(
                "setoption: unknown option {name_q}",
                name_q = quoted(&name)
            )),
        };
        if let Err(e) = result {
            self.out.error(&e);
        }
    }

    /// Opens the databases of the current rule set in `dir` (empty: those the session started with,
    /// if any) and hands them to the search. On failure the databases are off and the error says
    /// why.
    fn open_tablebase(&mut self, dir: &str) -> Result<(), String> {
        self.egtb_dir = dir.to_string();
        let opened = if dir.is_empty() {
            Ok(None)
        } else {
            TablebaseProbe::open(dir, self.rules)
                .map(|mut tb| {
                    // Said once per file, from whichever search thread finds it.
                    let out = self.out.clone();
                    tb.set_on_change(Arc::new(move |e| out.error(&e.to_string())));
                    Some(Arc::new(tb))
                })
                .map_err(|e| format!("setoption EGTB: {e}"))
        };
        match opened {
            Ok(tb) => {
                if let Some(tb) = &tb {
                    self.out.send(&format!(
                        "info string endgame databases: {} up to {} seeds",
                        self.rules,
                        tb.tablebase().max_seeds()
                    ));
                    if let Some(unused) = tb.tablebase().unused_levels() {
                        self.out.send(&format!("info string warning: {unused}"));
                    }
                }
                self.use_databases(tb.map(|tb| tb as Arc<dyn Probe>));
                Ok(())
            }
            Err(e) => {
                self.use_databases(None);
                Err(e)
            }
        }
    }

    /// Hands the search `opened` (databases of a directory), or, with none and no directory set,
    /// the growing databases of the current rule set.
    fn use_databases(&mut self, opened: Option<Arc<dyn Probe>>) {
        let probe = opened.or_else(|| {
            self.growing
                .live(self.rules)
                .filter(|_| self.egtb_dir.is_empty())
                .map(|live| live.clone() as Arc<dyn Probe>)
        });
        if let Some(engine) = self.engine.as_mut() {
            engine.set_probe(probe);
        }
    }

    fn go(&mut self, words: &[&str]) {
        let go = match parse_go(words) {
            Ok(go) => go,
            Err(e) => return self.out.error(&e),
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
        let level = Strength::new(self.level);
        let mut random = self.random;
        self.random = self.random.wrapping_add(SplitMix64::GAMMA);
        let Go { mut limits, ponder } = go;
        limits.move_overhead = self.move_overhead;
        let wait_for_stop = limits.infinite || ponder;
        // After `ponderhit` a ponder search goes on under its own limits: with none, it is as
        // unbounded as `go infinite`.
        self.unbounded = !limits.is_bounded();
        let out = self.out.clone();
        self.worker = Some(std::thread::spawn(move || {
            let choice = player::choose_controlled(
                &mut engine,
                &game,
                level,
                &limits,
                &mut random,
                &mut |r| print_info(&out, r),
            );
            if let Some(Choice {
                result:
                    SearchResult {
                        best: Some(mv),
                        score,
                        ..
                    },
                source: Source::Database,
                ..
            }) = &choice
            {
                out.send(&format!(
                    "info depth 0 score cp {score} pv {mv} string endgame database"
                ));
            }
            let result = choice.map(|c| c.result);
            // With `infinite` or `ponder` the answer waits for `stop` (or `ponderhit`).
            while wait_for_stop
                && !control.is_stopped()
                && (control.is_pondering() || limits.infinite)
            {
                std::thread::sleep(Duration::from_millis(2));
            }
            match result.and_then(|r| r.best.map(|b| (b, r.ponder))) {
                Some((best, Some(ponder))) => out.send(&format!("bestmove {best} ponder {ponder}")),
                Some((best, None)) => out.send(&format!("bestmove {best}")),
                None => out.send("bestmove 0000"),
            }
            engine
        }));
    }
}

fn print_info(out: &Replies, r: &SearchResult) {
    // The pv is one run of letters, as moves are written everywhere in this dialect: the Aualé GUI
    // reads only the first word after `pv`.
    out.send(&format!(
        "info depth {} seldepth {} score cp {} nodes {} nps {} time {} hashfull {} pv {}",
        r.depth,
        r.seldepth,
        r.score,
        r.nodes,
        r.nps(),
        r.time.as_millis(),
        r.hashfull,
        format_move_letters(&r.pv)
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tablebase::tests::built;

    /// An output the test reads back after the session.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    /// What the engine answers to `input`, the whole session.
    fn session(input: &str, egtb: Option<&str>) -> String {
        session_with(
            input,
            egtb.map_or(StartDatabases::None, StartDatabases::Dir),
        )
    }

    fn session_with(input: &str, databases: StartDatabases) -> String {
        let out = Shared::default();
        run(
            io::Cursor::new(input.as_bytes().to_vec()),
            out.clone(),
            databases,
            None,
        )
        .unwrap();
        let bytes = out.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn pv_is_one_run_of_letters_and_option_names_are_one_word() {
        let out = session("uci\nposition startpos moves FfEa\ngo depth 5\n", None);
        let infos: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("info depth"))
            .collect();
        let pvs: Vec<&str> = infos
            .iter()
            .map(|info| info.split_once(" pv ").expect(info).1)
            .collect();
        for pv in &pvs {
            assert!(
                !pv.is_empty() && pv.chars().all(|c| matches!(c, 'a'..='f' | 'A'..='F')),
                "{out}"
            );
        }
        assert!(pvs.iter().any(|pv| pv.len() > 2), "{out}");
        for option in out.lines().filter(|l| l.starts_with("option ")) {
            let words: Vec<&str> = option.split_whitespace().collect();
            assert_eq!(words.get(3), Some(&"type"), "{option}");
        }
        assert!(out.contains("option name MoveOverhead type spin default 30 min 0 max 5000\n"));
        assert!(out.contains("option name OwnBook type check default false\n"));
    }

    /// A model of mistakes that believes A the best move of all.
    struct FavourA;

    impl Oversight for FavourA {
        fn as_seen(&self, _: &Game, _: u8, moves: &[crate::MoveScore], _: &mut u64) -> Vec<i32> {
            let favour = |m: &crate::MoveScore| if m.mv.letter() == 'A' { 9_000 } else { 0 };
            moves.iter().map(favour).collect()
        }
    }

    #[test]
    fn the_weak_levels_use_the_model_of_mistakes_given() {
        let input = "setoption name Level value 2\nposition startpos\ngo depth 4\n\
                     setoption name Level value 10\ngo depth 4\n";
        let out = Shared::default();
        run(
            io::Cursor::new(input.as_bytes().to_vec()),
            out.clone(),
            StartDatabases::None,
            Some(Arc::new(FavourA)),
        )
        .unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        let answers: Vec<&str> = text.lines().filter(|l| l.starts_with("bestmove")).collect();
        assert_eq!(answers.len(), 2, "{text}");
        assert!(answers[0].starts_with("bestmove A"), "{text}");
        // Full strength makes no mistakes: the model is not asked, and the search prefers F.
        assert!(answers[1].starts_with("bestmove F"), "{text}");
    }

    #[test]
    fn own_book_and_both_spellings_of_move_overhead_are_accepted() {
        let out = session(
            "setoption name OwnBook value true\nsetoption name OwnBook value false\n\
             setoption name MoveOverhead value 100\nsetoption name Move Overhead value 200\n\
             isready\n",
            None,
        );
        assert_eq!(out, "readyok\n");
        let out = session("setoption name OwnBook value maybe\n", None);
        assert!(
            out.starts_with("info string error: setoption OwnBook"),
            "{out}"
        );
        let mut s = Session::new(Shared::default());
        s.handle("setoption name MoveOverhead value 100");
        assert_eq!(s.move_overhead, Duration::from_millis(100));
        s.handle("setoption name Move Overhead value 200");
        assert_eq!(s.move_overhead, Duration::from_millis(200));
    }

    #[test]
    fn the_evaluation_is_chosen_by_name() {
        let mut s = Session::new(Shared::default());
        let weights = |s: &Session| s.engine.as_ref().unwrap().options().weights;
        assert_eq!(weights(&s), Weights::DEFAULT);
        for (name, expected) in [
            ("tapered", Weights::TAPERED),
            ("material", Weights::MATERIAL),
            ("default", Weights::DEFAULT),
        ] {
            s.handle(&format!("setoption name Eval value {name}"));
            assert_eq!(weights(&s), expected, "{name}");
        }
        let out = session(
            "setoption name Eval value fitted
",
            None,
        );
        assert!(out.contains("not default, tapered or material"), "{out}");
        // The names offered are those taken, as docs/engine-protocol.md lists them.
        let out = session("uci\n", None);
        assert!(
            out.contains("option name Eval type combo default default var default var tapered var material\n"),
            "{out}"
        );
    }

    #[test]
    fn a_long_unknown_command_is_quoted_not_echoed() {
        let out = session(&format!("{}\nisready\n", "z".repeat(65_535)), None);
        let error = out.lines().next().unwrap();
        assert!(
            error.starts_with("info string error: unknown command") && error.len() < 200,
            "{} bytes: {error}",
            error.len()
        );
        assert!(out.ends_with("readyok\n"), "{out}");
    }

    #[test]
    fn engine_turn_is_offered_checked_and_kept() {
        let out = session("uci\nquit\n", None);
        assert!(
            out.contains("option name EngineTurn type combo default south var south var north\n"),
            "{out}"
        );
        let out = session(
            "setoption name EngineTurn value north\nsetoption name engineturn value SOUTH\n\
             isready\n",
            None,
        );
        assert_eq!(out, "readyok\n");
        for bad in ["east", "", "south north"] {
            let out = session(&format!("setoption name EngineTurn value {bad}\n"), None);
            assert!(
                out.starts_with("info string error: setoption EngineTurn"),
                "{bad:?}: {out}"
            );
        }
        let out = Shared::default();
        let mut s = Session::new(out.clone());
        s.handle("setoption name EngineTurn value north");
        assert_eq!(s.engine_turn, Some(Side::North));
        s.handle("setoption name EngineTurn value west");
        assert_eq!(
            s.engine_turn,
            Some(Side::North),
            "a refused value changes nothing"
        );
    }

    #[test]
    fn growing_databases_are_probed_while_no_directory_is_set() {
        let (_dir, probe) = built(RuleSet::Awari, 4);
        let awari = Arc::new(crate::tablebase::LiveProbe::new(RuleSet::Awari));
        awari.publish(probe);
        let position = "position fen 0-0-1-1-0-0-0-0-0-0-1-0-23-22-S";
        let growing = || StartDatabases::Growing(ProbeSet::growing([awari.clone()]));
        let from_database = "info depth 0 score cp 400 pv D string endgame database\nbestmove D\n";
        // Nothing said of them on the protocol: the caller reports their progress elsewhere.
        let out = session_with(
            &format!("setoption name Rules value awari\n{position}\ngo depth 6\n"),
            growing(),
        );
        assert!(out.starts_with(from_database), "{out}");
        // A directory set and then cleared: back to the growing ones.
        let out = session_with(
            &format!(
                "setoption name Rules value awari\nsetoption name EGTB value /nonexistent\n\
                 setoption name EGTB value\n{position}\ngo depth 6\n"
            ),
            growing(),
        );
        assert!(out.ends_with(from_database), "{out}");
        // None of the rule set in use (abapa here): the engine searches.
        let out = session_with(&format!("{position}\ngo depth 6\n"), growing());
        assert!(!out.contains("endgame database"), "{out}");
    }

    #[test]
    fn a_covered_position_is_answered_from_the_databases() {
        let (dir, _) = built(RuleSet::Awari, 4);
        let dir = dir.path().to_str().unwrap().to_string();
        let position = "position fen 0-0-1-1-0-0-0-0-0-0-1-0-23-22-S";
        let out = session(
            &format!("setoption name Rules value awari\n{position}\ngo depth 6\n"),
            Some(&dir),
        );
        assert!(
            out.contains("info depth 0 score cp 400 pv D string endgame database\nbestmove D\n"),
            "{out}"
        );
        // Below full strength the engine searches, databases or not.
        let out = session(
            &format!("setoption name Rules value awari\nsetoption name Level value 9\n{position}\ngo depth 6\n"),
            Some(&dir),
        );
        assert!(!out.contains("endgame database\n"), "{out}");
        assert!(out.contains("bestmove "), "{out}");
    }
}
