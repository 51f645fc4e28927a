//! An engine process the referee talks to: started with `sh -c`, asked for moves over the protocol,
//! with a bound on everything it may write or make the referee wait for.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use oware_rules::{format_move_letters, Game, Move, Position, RuleSet, Side};

use crate::Competitor;
use oware_engine::input::{read_line, Line};
use oware_engine::Limits;

/// What the referee holds of an engine's output, whatever the engine writes: lines longer than
/// [`oware_engine::input::MAX_LINE`] are dropped, at most `QUEUED_LINES` wait to be read, and of one
/// answer (up to `uciok`, `readyok` or `bestmove`) the first `KEPT_LINES` are kept, where the `id`
/// lines, the options and a refusal come.
const QUEUED_LINES: usize = 256;
const KEPT_LINES: usize = 1000;

/// The option by which an engine of the Aualé GUI's dialect learns which side it plays.
const ENGINE_TURN: &str = "EngineTurn";

/// What went wrong with an engine. All but [`RefereeError::Refused`] lose the game being played
/// for that engine; a refusal stops the match.
#[derive(Debug)]
pub enum RefereeError {
    /// The command could not be started.
    Start {
        /// The engine's command line.
        command: String,
        /// Why it could not start.
        source: io::Error,
    },
    /// The engine no longer reads what it is sent.
    StoppedReading {
        /// The engine's command line.
        command: String,
        /// The error writing to it.
        source: io::Error,
    },
    /// No answer (`word`) in time.
    Silent {
        /// The engine's command line.
        command: String,
        /// The answer waited for.
        word: String,
        /// How long the referee waited.
        timeout: Duration,
    },
    /// The engine's output ended: it exited.
    Exited {
        /// The engine's command line.
        command: String,
    },
    /// The engine answered `info string error` to the referee's options or position: a setup it
    /// cannot play, not a lost game.
    Refused(String),
}

impl std::fmt::Display for RefereeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RefereeError::Start { command, source } => {
                write!(f, "cannot start engine {command:?}: {source}")
            }
            RefereeError::StoppedReading { command, source } => {
                write!(f, "engine {command:?} stopped reading: {source}")
            }
            RefereeError::Silent {
                command,
                word,
                timeout,
            } => write!(f, "engine {command:?}: no {word} within {timeout:?}"),
            RefereeError::Exited { command } => write!(f, "engine {command:?} exited"),
            RefereeError::Refused(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RefereeError {}

/// An engine's answer to `go`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The raw word after `bestmove`.
    pub word: String,
    /// The time from `go` to the answer.
    pub thought: Duration,
    /// What the engine last said of its search before answering, if it said anything.
    pub report: Option<SearchInfo>,
}

/// What an engine says of its search in an `info` line: the depth, the score and the principal
/// variation. Engines write the pv one run of letters (`pv CdB`, the Aualé dialect, and ours) or one
/// letter per word (`pv C d B`, as UCI writes chess moves); both are read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// `depth N`.
    pub depth: Option<u32>,
    /// `score cp N` or `score mate N`, as written (`cp -25`).
    pub score: Option<String>,
    /// `pv …`: the moves as letters, however they were spaced.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Reads an `info` line; `None` for other lines and for an `info` with neither a score nor a
    /// pv (a `string`, a `currmove`). Words it does not know are skipped, as GUIs skip them; `string`
    /// ends what is read (the rest is text).
    pub fn parse(line: &str) -> Option<SearchInfo> {
        let mut words = line.split_whitespace().peekable();
        if words.next() != Some("info") {
            return None;
        }
        let letters =
            |w: &str| !w.is_empty() && w.chars().all(|c| matches!(c, 'a'..='f' | 'A'..='F'));
        let mut report = SearchInfo::default();
        while let Some(word) = words.next() {
            match word {
                "depth" => report.depth = words.next().and_then(|d| d.parse().ok()),
                "score" => {
                    // `cp N` or `mate N`, with `lowerbound` or `upperbound` around them.
                    while let Some(&w) = words.peek() {
                        match w {
                            "cp" | "mate" => {
                                words.next();
                                let value = words.next().and_then(|v| v.parse::<i64>().ok());
                                report.score = value.map(|v| format!("{w} {v}"));
                            }
                            "lowerbound" | "upperbound" => {
                                words.next();
                            }
                            _ => break,
                        }
                    }
                }
                "pv" => {
                    let mut pv = String::new();
                    while let Some(w) = words.next_if(|w| letters(w)) {
                        pv.push_str(w);
                    }
                    report.pv = oware_rules::parse_move_letters(&pv).unwrap_or_default();
                }
                "string" => break,
                _ => {}
            }
        }
        (report.score.is_some() || !report.pv.is_empty()).then_some(report)
    }

    /// The report as a comment of a game record (`depth 17 score cp -25 pv DfAbC`), with the pv cut
    /// where a move of it is illegal from `game`, the position the engine was asked about.
    pub fn comment(&self, game: &Game) -> String {
        let mut game = game.clone();
        let legal = self
            .pv
            .iter()
            .take_while(|&&mv| game.play(mv).is_ok())
            .count();
        let mut words = Vec::new();
        if let Some(depth) = self.depth {
            words.push(format!("depth {depth}"));
        }
        if let Some(score) = &self.score {
            words.push(format!("score {score}"));
        }
        if legal > 0 {
            words.push(format!("pv {}", format_move_letters(&self.pv[..legal])));
        }
        words.join(" ")
    }
}

/// A running engine process.
pub struct EngineProcess {
    command: String,
    /// The engine's `id name`, or its command when it gives none.
    pub name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// The engine offered `EngineTurn`: it is told its side before each search.
    offers_engine_turn: bool,
}

impl EngineProcess {
    /// Starts `command`, waits for `uciok`, and sets the rule set and `options` (name, value),
    /// checking that the engine accepts them.
    pub fn start(
        command: &str,
        rules: RuleSet,
        options: &[(String, String)],
    ) -> Result<Self, RefereeError> {
        let started = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let start_error = |source| RefereeError::Start {
            command: command.to_string(),
            source,
        };
        let mut child = started.map_err(start_error)?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(start_error(io::Error::other("no pipe to the engine")));
        };
        // A bounded queue: an engine that writes faster than the referee reads is held up by the
        // pipe instead of filling the referee's memory.
        let (tx, lines) = sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                match read_line(&mut reader) {
                    Ok(Line::Text(line)) => {
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                    // No protocol answer is that long.
                    Ok(Line::TooLong) => {}
                    Ok(Line::End) | Err(_) => break,
                }
            }
        });
        let mut engine = EngineProcess {
            command: command.to_string(),
            name: command.to_string(),
            child,
            input,
            lines,
            offers_engine_turn: false,
        };
        engine.send("uci")?;
        let lines = engine.wait_for("uciok", Duration::from_secs(10))?;
        if let Some(name) = lines.iter().find_map(|l| l.strip_prefix("id name ")) {
            engine.name = name.trim().to_string();
        }
        engine.offers_engine_turn = offers_option(&lines, ENGINE_TURN);
        engine.send(&format!("setoption name Rules value {}", rules.name()))?;
        for (name, value) in options {
            engine.send(&format!("setoption name {name} value {value}"))?;
        }
        engine.check_accepted("the match's options")?;
        Ok(engine)
    }

    /// Sends `isready` and reads up to `readyok`: an `info string error` on the way means the engine
    /// refused what it was just sent. That is a setup the engine cannot play, not a lost game: the
    /// match stops with the engine's words.
    fn check_accepted(&mut self, what: &str) -> Result<(), RefereeError> {
        self.send("isready")?;
        let lines = self.wait_for("readyok", Duration::from_secs(30))?;
        if let Some(error) = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string error"))
        {
            return Err(RefereeError::Refused(format!(
                "engine {:?} refused {what}: {}",
                self.command,
                error.trim_start_matches(':').trim()
            )));
        }
        Ok(())
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), RefereeError> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|source| RefereeError::StoppedReading {
                command: self.command.clone(),
                source,
            })
    }

    /// Lines up to and including the first whose first word is `word` (of a long answer, the
    /// first [`KEPT_LINES`] and that one).
    fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, RefereeError> {
        self.wait_for_each(word, timeout, &mut |_| {})
    }

    /// [`EngineProcess::wait_for`], showing every line to `each` as it comes, kept or not.
    fn wait_for_each(
        &mut self,
        word: &str,
        timeout: Duration,
        each: &mut dyn FnMut(&str),
    ) -> Result<Vec<String>, RefereeError> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    each(&line);
                    let done = line.split_whitespace().next() == Some(word);
                    if done || seen.len() < KEPT_LINES {
                        seen.push(line);
                    }
                    if done {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(RefereeError::Silent {
                        command: self.command.clone(),
                        word: word.to_string(),
                        timeout,
                    })
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(RefereeError::Exited {
                        command: self.command.clone(),
                    })
                }
            }
        }
    }

    /// Asks for a move in `game` with `go` and `limits` (the words after `go`), waiting at most
    /// `wait` for it. An engine that offered `EngineTurn` is first told the side it plays here (the
    /// side to move).
    pub fn go(
        &mut self,
        game: &Game,
        limits: &str,
        wait: Duration,
    ) -> Result<Answer, RefereeError> {
        if self.offers_engine_turn {
            let side = match game.position().side_to_move() {
                Side::South => "south",
                Side::North => "north",
            };
            self.send(&format!("setoption name {ENGINE_TURN} value {side}"))?;
        }
        let moves: String = game.moves().iter().map(|m| m.letter()).collect();
        let start = if *game.start() == Position::start() {
            "startpos".to_string()
        } else {
            format!("fen {}", game.start())
        };
        let position = if moves.is_empty() {
            format!("position {start}")
        } else {
            format!("position {start} moves {moves}")
        };
        self.send(&position)?;
        self.check_accepted(&format!("`{position}`"))?;
        self.send(&format!("go {limits}"))?;
        let asked = Instant::now();
        // The last report is read as the lines come: a long answer keeps only its first lines.
        let mut report = None;
        let lines = self.wait_for_each("bestmove", wait, &mut |line| {
            if let Some(r) = SearchInfo::parse(line) {
                report = Some(r);
            }
        })?;
        let thought = asked.elapsed();
        let last = lines.last().map(String::as_str).unwrap_or("");
        Ok(Answer {
            word: last.split_whitespace().nth(1).unwrap_or("").to_string(),
            thought,
            report,
        })
    }
}

/// The words after `go` for `limits`: a time per move, or the clocks (South's as white's, as the
/// protocol names them) with `movestogo` where the clocks are refilled; empty otherwise.
fn go_words(limits: &Limits) -> String {
    let mut words = Vec::new();
    if let Some(time) = limits.movetime {
        words.push(format!("movetime {}", time.as_millis()));
    }
    if let Some([south, north]) = limits.clocks {
        words.push(format!(
            "wtime {} btime {} winc {} binc {}",
            south.time.as_millis(),
            north.time.as_millis(),
            south.increment.as_millis(),
            north.increment.as_millis()
        ));
        if let Some(moves) = limits.moves_to_go {
            words.push(format!("movestogo {moves}"));
        }
    }
    if let Some(depth) = limits.depth {
        words.push(format!("depth {depth}"));
    }
    words.join(" ")
}

impl Competitor for EngineProcess {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self) -> Result<(), RefereeError> {
        self.send("ucinewgame")
    }

    fn best_move(
        &mut self,
        game: &Game,
        limits: &Limits,
        wait: Duration,
    ) -> Result<Answer, RefereeError> {
        self.go(game, &go_words(limits), wait)
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether an engine's answer to `uci` offers the option `name` (`option name <name> type …`;
/// names compare without regard to case, as `setoption` takes them).
fn offers_option(lines: &[String], name: &str) -> bool {
    lines.iter().any(|line| {
        let words: Vec<&str> = line.split_whitespace().collect();
        let ["option", "name", rest @ ..] = words.as_slice() else {
            return false;
        };
        let end = rest.iter().position(|w| *w == "type").unwrap_or(rest.len());
        rest[..end].join(" ").eq_ignore_ascii_case(name)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offered_options_are_read_from_the_option_lines() {
        let lines: Vec<String> = [
            "id name x",
            "option name Move Overhead type spin default 30 min 0 max 5000",
            "option name EngineTurn type combo default south var south var north",
            "info string EngineTurn is not an option line",
            "uciok",
        ]
        .map(String::from)
        .to_vec();
        assert!(offers_option(&lines, "EngineTurn"));
        assert!(offers_option(&lines, "engineturn"));
        assert!(offers_option(&lines, "Move Overhead"));
        assert!(!offers_option(&lines, "Move"));
        assert!(!offers_option(&lines[..2], "EngineTurn"));
        assert!(!offers_option(&lines[3..], "EngineTurn"));
    }

    #[test]
    fn limits_are_sent_as_the_protocol_writes_them() {
        let ms = Duration::from_millis;
        assert_eq!(go_words(&Limits::movetime(ms(250))), "movetime 250");
        let clock = |time, increment| oware_engine::Clock { time, increment };
        let limits = Limits {
            clocks: Some([clock(ms(9_500), ms(100)), clock(ms(10_000), ms(100))]),
            moves_to_go: Some(12),
            ..Limits::default()
        };
        assert_eq!(
            go_words(&limits),
            "wtime 9500 btime 10000 winc 100 binc 100 movestogo 12"
        );
    }

    #[test]
    fn reports_are_read_with_the_pv_in_either_form() {
        let letters = |s: &str| oware_rules::parse_move_letters(s).unwrap();
        let aalina = "info depth 17 score cp -25 pv DfAbCaBcAbCcB";
        let spaced = "info depth 17 seldepth 30 score cp -25 nodes 5 pv D f A b C a B c A b C c B";
        for line in [aalina, spaced] {
            let report = SearchInfo::parse(line).unwrap();
            assert_eq!(report.depth, Some(17), "{line}");
            assert_eq!(report.score.as_deref(), Some("cp -25"), "{line}");
            assert_eq!(report.pv, letters("DfAbCaBcAbCcB"), "{line}");
        }
        // Words after the pv, unknown words, bounds and mates.
        let report =
            SearchInfo::parse("info score upperbound mate -3 frob 9 pv Cd string pv AAAA").unwrap();
        assert_eq!(report.score.as_deref(), Some("mate -3"));
        assert_eq!(report.pv, letters("Cd"));
        let report = SearchInfo::parse("info pv C d hashfull 3 time 5").unwrap();
        assert_eq!((report.pv, report.depth), (letters("Cd"), None));
        assert_eq!(SearchInfo::parse("info string pv CdB"), None);
        assert_eq!(SearchInfo::parse("info depth 3 currmove C"), None);
        assert_eq!(SearchInfo::parse("bestmove C ponder d"), None);
        // In a record, the pv stops at its first illegal move.
        let report = SearchInfo::parse("info depth 4 score cp 7 pv FfFa").unwrap();
        let game = Game::new(RuleSet::Abapa);
        assert_eq!(report.comment(&game), "depth 4 score cp 7 pv Ff");
        let report = SearchInfo::parse("info score cp 7 pv a").unwrap();
        assert_eq!(report.comment(&game), "score cp 7");
    }
}
