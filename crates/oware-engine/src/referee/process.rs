//! An engine process the referee talks to: started with `sh -c`, asked for moves over the protocol,
//! with a bound on everything it may write or make the referee wait for.

use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use oware_rules::{Game, Position, RuleSet, Side};

use crate::input::{read_line, Line};

/// What the referee holds of an engine's output, whatever the engine writes: lines longer than
/// [`crate::input::MAX_LINE`] are dropped, at most `QUEUED_LINES` wait to be read, and of one
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
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
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

    /// Asks for a move in `game` with `go` and `limits`, waiting at most `wait` for it; the raw
    /// word after `bestmove`, and the time from `go` to the answer. An engine that offered
    /// `EngineTurn` is first told the side it plays here (the side to move).
    pub fn best_move(
        &mut self,
        game: &Game,
        limits: &str,
        wait: Duration,
    ) -> Result<(String, Duration), RefereeError> {
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
        let lines = self.wait_for("bestmove", wait)?;
        let thought = asked.elapsed();
        let last = lines.last().map(String::as_str).unwrap_or("");
        Ok((
            last.split_whitespace().nth(1).unwrap_or("").to_string(),
            thought,
        ))
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
}
