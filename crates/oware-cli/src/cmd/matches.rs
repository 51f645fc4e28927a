//! `oware match`: a referee between two engines that speak the protocol of `oware engine`.
//!
//! Each opening is played twice, the engines swapping sides. Every move is checked with the rules
//! crate: an illegal move, a malformed answer, a crash or a long silence loses the game. The engines
//! think a fixed time a move (`--movetime`), or play on game clocks (`--tc`: sudden death, with or
//! without an increment, or so many moves in so much time, again and again), where the referee keeps
//! the clocks and an engine whose clock runs out (by more than `--time-margin`) loses. The games are
//! written as OGN; the score is reported as wins/draws/losses of the first engine with the Elo
//! difference and its 95% interval.

use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::Context;
use oware_rules::ogn::{Outcome, Record};
use oware_rules::{Game, Move, Position, RuleSet, Side};

use super::Exit;
use crate::input::{read_line, Line};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// An engine command line, run with `sh -c` (give it twice: the first engine, then the second)
    #[arg(long = "engine", value_name = "COMMAND", required = true)]
    pub engines: Vec<String>,
    /// Number of games (each opening is played twice, sides swapped)
    #[arg(long, default_value_t = 20)]
    pub games: usize,
    /// Thinking time per move in milliseconds
    #[arg(long, default_value_t = 100)]
    pub movetime: u64,
    /// Game clocks instead of a time per move: seconds each side starts with, and seconds added
    /// after each of its moves (`10+0.1`; `60` for no increment); with `MOVES/` before them, the
    /// clock gains those seconds again after each MOVES moves of its side (`40/60`: 40 moves in a
    /// minute, again and again). An engine whose clock runs out loses the game.
    #[arg(
        long = "tc",
        value_name = "[MOVES/]SECONDS[+INC]",
        conflicts_with = "movetime"
    )]
    pub time_control: Option<TimeControl>,
    /// With --tc: how many milliseconds past its clock an engine may answer and still not lose on
    /// time (the pipe and the system's scheduling take a share of each move's time); the clock then
    /// stands at zero
    #[arg(
        long,
        value_name = "MS",
        default_value_t = 0,
        requires = "time_control"
    )]
    pub time_margin: u64,
    /// Openings, one per line: a move list (`FfEa`) or a position string; `#` starts a comment
    /// (default: every pair of first moves, 36 openings)
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Rule set
    #[arg(long, short = 'r', default_value = "abapa", value_name = "abapa|awari")]
    pub rules: RuleSet,
    /// Where to write the games (OGN, one record after another)
    #[arg(long, default_value = "match.ogn", value_name = "FILE")]
    pub out: PathBuf,
    /// Extra `setoption` lines for both engines, as `Name=Value` (e.g. `Hash=16`)
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Extra `setoption` lines for the first engine only, sent after the `--option` ones (so they
    /// win over them)
    #[arg(long = "option1", value_name = "NAME=VALUE")]
    pub options1: Vec<String>,
    /// Extra `setoption` lines for the second engine only, sent after the `--option` ones
    #[arg(long = "option2", value_name = "NAME=VALUE")]
    pub options2: Vec<String>,
}

/// Parses `NAME=VALUE` options (`flag` names the command-line flag in the error).
fn parse_options<'a>(
    flag: &str,
    options: impl IntoIterator<Item = &'a String>,
) -> Result<Vec<(String, String)>, String> {
    options
        .into_iter()
        .map(|option| match option.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_string(), value.trim().to_string()))
            }
            _ => Err(format!("{flag} {option:?}: expected NAME=VALUE")),
        })
        .collect()
}

/// Game clocks: what each side starts with and what it gains after each of its moves, and, in a
/// repeating control, after how many of its moves it gains the start time again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    start: Duration,
    increment: Duration,
    /// Moves a side plays on one period's time; `None` for sudden death.
    period: Option<u32>,
}

impl TimeControl {
    /// The moves a side has left in its period, this one included (the protocol's `movestogo`),
    /// after it has played `played` moves; `None` in sudden death.
    fn moves_to_go(&self, played: u32) -> Option<u32> {
        self.period.map(|period| period - played % period)
    }

    /// A side's clock after a move in time: what was `left` less what it `thought`, plus the
    /// increment, plus the start time again when the move ends a period (`played`: the side's
    /// moves, this one included).
    fn after_move(&self, left: Duration, thought: Duration, played: u32) -> Duration {
        let refill = match self.period {
            Some(period) if played.is_multiple_of(period) => self.start,
            _ => Duration::ZERO,
        };
        left.saturating_sub(thought) + self.increment + refill
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        let seconds = |part: &str, what: &str| -> Result<Duration, String> {
            let value: f64 = part
                .trim()
                .parse()
                .map_err(|_| format!("{what} {part:?} is not a number of seconds"))?;
            // A day is far beyond any match; the bound keeps the milliseconds sent in range.
            if !(0.0..=86_400.0).contains(&value) {
                return Err(format!("{what} {part:?} must be 0 to 86400 seconds"));
            }
            Ok(Duration::from_secs_f64(value))
        };
        let (period, clock) = match text.split_once('/') {
            Some((moves, clock)) => {
                let moves = moves.trim();
                let period = moves.parse::<u32>().ok().filter(|m| (1..=1000).contains(m));
                let period = period.ok_or_else(|| {
                    format!("the moves {moves:?} before '/' must be a number from 1 to 1000 (as in 40/60 seconds)")
                })?;
                (Some(period), clock)
            }
            None => (None, text),
        };
        let (start, increment) = clock.split_once('+').unwrap_or((clock, "0"));
        let tc = TimeControl {
            start: seconds(start, "the time")?,
            increment: seconds(increment, "the increment")?,
            period,
        };
        if tc.start < Duration::from_millis(1) {
            return Err(format!(
                "the time in {text:?} must be at least 0.001 seconds"
            ));
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    /// As PGN's `TimeControl` tag writes it: the moves of a period and `/` in a repeating
    /// control, the seconds, and `+` the increment when there is one.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(moves) = self.period {
            write!(f, "{moves}/")?;
        }
        write!(f, "{}", self.start.as_secs_f64())?;
        if !self.increment.is_zero() {
            write!(f, "+{}", self.increment.as_secs_f64())?;
        }
        Ok(())
    }
}

/// How the engines are given their time.
#[derive(Debug, Clone, Copy)]
enum Pace {
    /// This many milliseconds a move.
    MoveTime(u64),
    /// The clocks, and how far past its clock an engine may answer (`--time-margin`).
    Clock(TimeControl, Duration),
}

/// A game longer than this is stopped and scored as a repetition would be (it cannot happen between
/// sensible engines; it bounds a misbehaving one).
const MAX_PLIES: usize = 1000;

/// What the referee holds of an engine's output, whatever the engine writes: lines longer than
/// [`crate::input::MAX_LINE`] are dropped, at most `QUEUED_LINES` wait to be read, and of one answer
/// (up to `uciok`, `readyok` or `bestmove`) the first `KEPT_LINES` are kept, where the `id` lines
/// and a refusal come.
const QUEUED_LINES: usize = 256;
const KEPT_LINES: usize = 1000;

/// An opening: a start position and moves from it.
#[derive(Debug, Clone, PartialEq)]
struct Opening {
    start: Position,
    moves: Vec<Move>,
}

fn default_openings() -> Vec<Opening> {
    let mut list = Vec::new();
    for a in "ABCDEF".chars() {
        for b in "abcdef".chars() {
            list.push(Opening {
                start: Position::start(),
                moves: vec![Move::from_letter(a).unwrap(), Move::from_letter(b).unwrap()],
            });
        }
    }
    list
}

/// Reads openings, checking that each is legal and leaves a game to play.
fn parse_openings(text: &str, rules: RuleSet) -> Result<Vec<Opening>, String> {
    let mut list = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (start, moves_text) = match line.split_once(char::is_whitespace) {
            Some((first, rest)) if first.contains('-') => (first, rest),
            _ if line.contains('-') => (line, ""),
            _ => ("", line),
        };
        let start = if start.is_empty() {
            Position::start()
        } else {
            start
                .parse()
                .map_err(|e| format!("line {}: bad position: {e}", i + 1))?
        };
        let moves = oware_rules::parse_move_letters(moves_text)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
        let game = Game::replay(start, rules, &moves)
            .map_err(|(ply, e)| format!("line {}: ply {}: {e}", i + 1, ply + 1))?;
        if game.is_over() {
            return Err(format!("line {}: the opening ends the game", i + 1));
        }
        list.push(Opening { start, moves });
    }
    if list.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(list)
}

/// A running engine process.
struct EngineProcess {
    command: String,
    name: String,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl EngineProcess {
    fn start(command: &str, rules: RuleSet, options: &[(String, String)]) -> anyhow::Result<Self> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start engine {command:?}"))?;
        let input = child.stdin.take().context("engine stdin")?;
        let output = child.stdout.take().context("engine stdout")?;
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
        };
        engine.send("uci")?;
        let lines = engine.wait_for("uciok", Duration::from_secs(10))?;
        if let Some(name) = lines.iter().find_map(|l| l.strip_prefix("id name ")) {
            engine.name = name.trim().to_string();
        }
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
    fn check_accepted(&mut self, what: &str) -> anyhow::Result<()> {
        self.send("isready")?;
        let lines = self.wait_for("readyok", Duration::from_secs(30))?;
        if let Some(error) = lines
            .iter()
            .find_map(|l| l.strip_prefix("info string error"))
        {
            return Err(Refused(format!(
                "engine {:?} refused {what}: {}",
                self.command,
                error.trim_start_matches(':').trim()
            ))
            .into());
        }
        Ok(())
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .with_context(|| format!("engine {:?} stopped reading", self.command))
    }

    /// Lines up to and including the first whose first word is `word` (of a long answer, the
    /// first [`KEPT_LINES`] and that one).
    fn wait_for(&mut self, word: &str, timeout: Duration) -> anyhow::Result<Vec<String>> {
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
                    anyhow::bail!("engine {:?}: no {word} within {timeout:?}", self.command)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    anyhow::bail!("engine {:?} exited", self.command)
                }
            }
        }
    }

    /// Asks for a move in `game` with `go` and `limits`, waiting at most `wait` for it; the raw
    /// word after `bestmove`, and the time from `go` to the answer.
    fn best_move(
        &mut self,
        game: &Game,
        limits: &str,
        wait: Duration,
    ) -> anyhow::Result<(String, Duration)> {
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

/// An engine refused a command of the referee (a position, an option): the match cannot go on.
#[derive(Debug)]
struct Refused(String);

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refused {}

/// How one game ended for the engine playing South.
struct Played {
    game: Game,
    outcome: Outcome,
    /// Why, in words (the rules' end reason, or a forfeit).
    reason: String,
    /// South's and North's time left at the end, on clocks.
    clocks: [Duration; 2],
}

fn play_game(
    engines: [&mut EngineProcess; 2], // [South, North]
    opening: &Opening,
    rules: RuleSet,
    pace: Pace,
) -> anyhow::Result<Played> {
    let [south, north] = engines;
    south.send("ucinewgame")?;
    north.send("ucinewgame")?;
    let mut game = Game::replay(opening.start, rules, &opening.moves)
        .map_err(|(ply, e)| anyhow::anyhow!("opening ply {}: {e}", ply + 1))?;
    // South's and North's time left, on clocks, and the moves each has played on them.
    let mut clocks = match pace {
        Pace::Clock(tc, _) => [tc.start; 2],
        Pace::MoveTime(_) => [Duration::ZERO; 2],
    };
    let mut played = [0u32; 2];
    while !game.is_over() {
        if game.ply_count() >= MAX_PLIES {
            let end = oware_rules::repetition_end(game.position(), rules);
            let outcome = match end.score.winner() {
                Some(Side::South) => Outcome::SouthWins,
                Some(Side::North) => Outcome::NorthWins,
                None => Outcome::Draw,
            };
            return Ok(Played {
                game,
                outcome,
                reason: format!("stopped after {MAX_PLIES} plies, {}", end.score),
                clocks,
            });
        }
        let side = game.position().side_to_move();
        let engine = if side == Side::South {
            &mut *south
        } else {
            &mut *north
        };
        let forfeit = |why: String| {
            let outcome = match side {
                Side::South => Outcome::NorthWins,
                Side::North => Outcome::SouthWins,
            };
            (outcome, format!("{side} forfeits: {why}"))
        };
        // The mover's time left, on clocks.
        let left = clocks[side.index()];
        let answer = match pace {
            // Generous: the engine is judged on legality here, not on its clock.
            Pace::MoveTime(ms) => engine.best_move(
                &game,
                &format!("movetime {ms}"),
                Duration::from_millis(ms.saturating_mul(3).saturating_add(5000)),
            ),
            Pace::Clock(tc, margin) => {
                let inc = tc.increment.as_millis();
                let mut limits = format!(
                    "wtime {} btime {} winc {inc} binc {inc}",
                    clocks[0].as_millis(),
                    clocks[1].as_millis()
                );
                if let Some(moves) = tc.moves_to_go(played[side.index()]) {
                    limits += &format!(" movestogo {moves}");
                }
                // A few seconds past the flag, to tell a late answer from none.
                engine.best_move(&game, &limits, left + margin + Duration::from_secs(5))
            }
        };
        let thought = answer.as_ref().map_or(Duration::ZERO, |&(_, t)| t);
        let flag_fell = matches!(pace, Pace::Clock(_, margin) if thought > left + margin);
        let problem = match answer {
            Err(e) if e.is::<Refused>() => return Err(e),
            Err(e) => Some(format!("{e:#}")),
            Ok(_) if flag_fell => Some(format!(
                "out of time (thought {} ms with {} ms left)",
                thought.as_millis(),
                left.as_millis()
            )),
            Ok((word, _)) => match word.parse::<Move>() {
                Err(_) => Some(format!("answered bestmove {word:?}")),
                Ok(mv) => match game.play(mv) {
                    Ok(_) => None,
                    Err(e) => Some(format!("{mv}: {e}")),
                },
            },
        };
        if let Some(why) = problem {
            if flag_fell {
                clocks[side.index()] = Duration::ZERO;
            }
            let (outcome, reason) = forfeit(why);
            return Ok(Played {
                game,
                outcome,
                reason,
                clocks,
            });
        }
        if let Pace::Clock(tc, _) = pace {
            // In time (the flag did not fall, or fell by less than the margin): the time thought
            // comes off, the increment on, and at the end of a period the start time again.
            let mover = side.index();
            played[mover] += 1;
            clocks[mover] = tc.after_move(left, thought, played[mover]);
        }
    }
    let end = game.end().expect("the loop ends with the game");
    Ok(Played {
        outcome: Outcome::of_game(&game),
        reason: format!("{} {}", end.score, end.reason),
        game,
        clocks,
    })
}

/// Wins, draws and losses of the first engine.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
}

impl Tally {
    fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction and the Elo difference with its 95% interval (normal approximation on the
    /// per-game scores; the ends are clamped where the score is 0 or 1).
    fn elo(&self) -> (f64, f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let p = w + d / 2.0;
        let variance = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
        let margin = 1.96 * (variance / n).sqrt();
        let elo = |p: f64| {
            let p = p.clamp(0.001, 0.999);
            // `+ 0.0` turns a negative zero into zero, so an even score prints as +0.
            -400.0 * (1.0 / p - 1.0).log10() + 0.0
        };
        (p, elo(p), elo(p - margin), elo(p + margin))
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.engines.len() != 2 {
        return Err(Exit::bad_input(format!(
            "give exactly two --engine commands, found {}",
            args.engines.len()
        )));
    }
    if args.games == 0 {
        return Err(Exit::bad_input("--games must be at least 1"));
    }
    if args.movetime == 0 || args.movetime > 3_600_000 {
        return Err(Exit::bad_input(
            "--movetime must be 1..=3600000 milliseconds",
        ));
    }
    if args.time_margin > 3_600_000 {
        return Err(Exit::bad_input(
            "--time-margin must be 0..=3600000 milliseconds",
        ));
    }
    let pace = match args.time_control {
        Some(tc) => Pace::Clock(tc, Duration::from_millis(args.time_margin)),
        None => Pace::MoveTime(args.movetime),
    };
    let both = parse_options("--option", &args.options).map_err(Exit::bad_input)?;
    let mut options1 = both.clone();
    options1.extend(parse_options("--option1", &args.options1).map_err(Exit::bad_input)?);
    let mut options2 = both;
    options2.extend(parse_options("--option2", &args.options2).map_err(Exit::bad_input)?);
    let openings = match &args.openings {
        None => default_openings(),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Exit::bad_input(format!("{}: {e}", path.display())))?;
            parse_openings(&text, args.rules)
                .map_err(|e| Exit::bad_input(format!("{}: {e}", path.display())))?
        }
    };
    let mut first = EngineProcess::start(&args.engines[0], args.rules, &options1)?;
    let mut second = EngineProcess::start(&args.engines[1], args.rules, &options2)?;
    let mut out = std::fs::File::create(&args.out)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    let date = today();
    let mut tally = Tally::default();
    let pace_text = match pace {
        Pace::MoveTime(ms) => format!("{ms} ms per move"),
        Pace::Clock(tc, margin) if margin.is_zero() => format!("clocks of {tc} s"),
        Pace::Clock(tc, margin) => {
            format!("clocks of {tc} s (margin {} ms)", margin.as_millis())
        }
    };
    eprintln!(
        "match: {} vs {}, {} games, {pace_text}, {} rules",
        first.name, second.name, args.games, args.rules
    );
    for round in 0..args.games {
        let opening = &openings[(round / 2) % openings.len()];
        let first_is_south = round % 2 == 0;
        let engines = if first_is_south {
            [&mut first, &mut second]
        } else {
            [&mut second, &mut first]
        };
        let (south_name, north_name) = (engines[0].name.clone(), engines[1].name.clone());
        let played = play_game(engines, opening, args.rules, pace)?;
        let first_won = match played.outcome {
            Outcome::SouthWins => Some(first_is_south),
            Outcome::NorthWins => Some(!first_is_south),
            _ => None,
        };
        match first_won {
            Some(true) => tally.wins += 1,
            Some(false) => tally.losses += 1,
            None => tally.draws += 1,
        }
        let mut record = Record::from_game(&played.game);
        record.outcome = played.outcome;
        record.set_tag("Event", "oware match");
        record.set_tag("Site", "?");
        record.set_tag("Date", date.clone());
        record.set_tag("Round", (round + 1).to_string());
        record.set_tag("South", south_name);
        record.set_tag("North", north_name);
        record.set_tag("Termination", played.reason.clone());
        if let Pace::Clock(tc, _) = pace {
            record.set_tag("TimeControl", tc.to_string());
        }
        writeln!(out, "{record}").context("writing the games")?;
        let (p, elo, _, _) = tally.elo();
        // On clocks, the time each side had left: how much of it the engines use.
        let clocks = match pace {
            Pace::Clock(..) => format!(
                " | clocks {:.1} s, {:.1} s",
                played.clocks[0].as_secs_f64(),
                played.clocks[1].as_secs_f64()
            ),
            Pace::MoveTime(_) => String::new(),
        };
        eprintln!(
            "game {:>3}/{}: {} {:<8} {:<40} | first engine +{} ={} -{} ({:.1}%, Elo {:+.0}){clocks}",
            round + 1,
            args.games,
            if first_is_south {
                "first=South"
            } else {
                "first=North"
            },
            played.outcome.token(),
            played.reason,
            tally.wins,
            tally.draws,
            tally.losses,
            p * 100.0,
            elo
        );
    }
    let (p, elo, low, high) = tally.elo();
    println!("first engine:  {}", first.name);
    println!("second engine: {}", second.name);
    println!(
        "games {}  wins {}  draws {}  losses {}  score {:.1}%",
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        p * 100.0
    );
    println!("elo difference {elo:+.0}  95% interval [{low:+.0}, {high:+.0}]");
    println!("games written to {}", args.out.display());
    Ok(())
}

/// Today's date as OGN writes it (`2026.11.22`), from the system clock (UTC).
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_checked() {
        let list = parse_openings("# comment\nFf\n\nFfEa # four plies\n", RuleSet::Abapa).unwrap();
        assert_eq!(list.len(), 2);
        assert_eq!(list[1].moves.len(), 4);
        let list = parse_openings("4-4-4-4-4-0-5-5-5-5-4-4-0-0-N a\n", RuleSet::Abapa).unwrap();
        assert_eq!(list[0].moves.len(), 1);
        assert!(parse_openings("FF\n", RuleSet::Abapa).is_err());
        assert!(parse_openings("4-4-4 F\n", RuleSet::Abapa).is_err());
        assert!(parse_openings("# nothing\n", RuleSet::Abapa).is_err());
        assert_eq!(default_openings().len(), 36);
    }

    #[test]
    fn time_controls_are_seconds_and_an_increment() {
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc.start, Duration::from_secs(10));
        assert_eq!(tc.increment, Duration::from_millis(100));
        assert_eq!(tc.to_string(), "10+0.1");
        let tc: TimeControl = "0.5".parse().unwrap();
        assert_eq!(
            (tc.start, tc.increment),
            (Duration::from_millis(500), Duration::ZERO)
        );
        assert_eq!(tc.to_string(), "0.5");
        assert_eq!(tc.moves_to_go(7), None);
        for bad in [
            "", "+1", "x+1", "10+", "10+y", "-1", "0", "10+-1", "1e9", "NaN", "10+1+1", "40/",
            "40/x", "40/0", "40/60/2",
        ] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("second"), "{bad:?}: {err}");
        }
        for bad in ["/60", "0/60", "-3/60", "x/60", "1001/60", "2.5/60"] {
            let err = bad.parse::<TimeControl>().unwrap_err();
            assert!(err.contains("moves"), "{bad:?}: {err}");
        }
    }

    #[test]
    fn repeating_time_controls_count_the_moves_of_each_period() {
        let tc: TimeControl = "40/60+0.5".parse().unwrap();
        assert_eq!(tc.start, Duration::from_secs(60));
        assert_eq!(tc.increment, Duration::from_millis(500));
        assert_eq!(tc.to_string(), "40/60+0.5");
        assert_eq!(
            " 3 /1.5".parse::<TimeControl>().unwrap().to_string(),
            "3/1.5"
        );
        // Before a side's first move it has the whole period to go; after 39, one; after 40 the
        // next period starts.
        assert_eq!(tc.moves_to_go(0), Some(40));
        assert_eq!(tc.moves_to_go(39), Some(1));
        assert_eq!(tc.moves_to_go(40), Some(40));
        assert_eq!(tc.moves_to_go(81), Some(39));
        // The clock after a move: the time thought off, the increment on, and the period's time
        // again after each 40th move.
        let ms = Duration::from_millis;
        assert_eq!(tc.after_move(ms(5_000), ms(700), 39), ms(4_800));
        assert_eq!(tc.after_move(ms(5_000), ms(700), 40), ms(64_800));
        assert_eq!(tc.after_move(ms(500), ms(700), 41), ms(500));
        // Sudden death never refills the clock.
        let tc: TimeControl = "0.5+0.01".parse().unwrap();
        for played in 1..100 {
            assert_eq!(tc.after_move(ms(400), ms(100), played), ms(310));
        }
    }

    #[test]
    fn options_are_name_value_pairs() {
        let given = ["Hash=16".to_string(), " Level = 3 ".to_string()];
        assert_eq!(
            parse_options("--option1", &given),
            Ok(vec![
                ("Hash".to_string(), "16".to_string()),
                ("Level".to_string(), "3".to_string())
            ])
        );
        let bad = ["Hash".to_string()];
        let err = parse_options("--option2", &bad).unwrap_err();
        assert!(
            err.contains("--option2") && err.contains("NAME=VALUE"),
            "{err}"
        );
        assert!(parse_options("--option", &["=3".to_string()]).is_err());
    }

    #[test]
    fn elo_from_the_tally() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (p, elo, low, high) = even.elo();
        assert_eq!(p, 0.5);
        assert!(elo.abs() < 1e-9);
        assert!(low < 0.0 && high > 0.0);
        let strong = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        let (_, elo, low, _) = strong.elo();
        assert!((elo - 190.8).abs() < 1.0, "{elo}");
        assert!(low > 0.0);
    }

    #[test]
    fn dates_are_civil() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
