//! `oware play`: a game in the terminal between two people at one keyboard, or against the computer
//! (`--computer south|north`, `--level 1..10`).
//!
//! Reads one command per line, so it works as well from a script as from a person:
//! a move letter, `undo`, `save FILE`, `load FILE`, `new`, `moves`, `hint`, `why [MOVE]`, `eval`,
//! `computer SIDE`, `level N`, `go`, `help`, `quit`.
//!
//! The computer's moves are chosen as everywhere else ([`oware_engine::player`]): with `--egtb`, a
//! position the databases cover is answered from them at full strength. Hints, the evaluation and
//! `why` come from the one analysis of the position ([`oware_coach::analyse`]), the web's.

use std::io::{self, Write};
use std::path::Path;
use std::time::Duration;

use anyhow::Context;
use std::sync::Arc;

use oware_coach::engine::decided_in;
use oware_coach::explain::render_score;
use oware_coach::{Analyst, Lang, ScoredMove};
use oware_engine::player;
use oware_engine::{Engine, EngineOptions, Probe};
use oware_rules::ogn::Record;
use oware_rules::random::SplitMix64;
use oware_rules::{Game, Move, PlayError, Side};

use super::{coach, PositionArgs};
use oware_engine::input::{read_line, Line};
use oware_rules::diagram::diagram;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Continue a game saved as an OGN record
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub load: Option<String>,
    /// The side the computer plays (default: nobody, two people play)
    #[arg(long, value_name = "south|north")]
    pub computer: Option<String>,
    /// The computer's level, 1 (beginner) to 10 (full strength)
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
    /// The computer's thinking time per move, in milliseconds
    #[arg(long, default_value_t = 1000, value_name = "MS")]
    pub movetime: u64,
    /// Search threads for the computer, hints and the evaluation (default: one per processor; at
    /// full strength two threads scored +82 Elo against one at 100 ms, docs/engine-matches.md)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Endgame database directory (built by `oware egtb build`) for the game's rule set [default:
    /// those of the user's data directory, built there in the background on first use]
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
    /// No endgame databases: none looked for in the user's data directory, none built
    #[arg(long, conflicts_with = "egtb")]
    pub no_egtb: bool,
}

const HELP: &str = "\
Commands:
  A-F / a-f     sow that house (South's houses are A-F, North's a-f)
  undo          take back the last move
  save FILE     save the game as an OGN record
  load FILE     continue a game from an OGN record
  new           start again from the starting position
  moves         show the moves so far
  hint          the computer's suggestion for the side to move
  why [MOVE]    in words, why the last move (or MOVE, now) is good or bad
  eval          show the evaluation after every move (again: stop)
  computer SIDE let the computer play south, north, or off
  level N       the computer's level, 1 (beginner) to 10 (full strength)
  go            the computer plays the side to move now
  help          this text
  quit          leave (the game is not saved)";

/// What the loop should do after a command.
enum Next {
    Continue,
    Quit,
}

/// A game at the terminal: the game being played, the text it prints, and the computer if it plays.
struct TerminalGame<W: Write> {
    game: Game,
    out: W,
    /// The computer's side, if it plays.
    computer: Option<Side>,
    level: u8,
    movetime: Duration,
    /// Search threads (at the lower levels they share out the root moves of the analysis).
    threads: usize,
    /// Show the evaluation after every move.
    live_eval: bool,
    /// Created on first use (its table takes memory).
    engine: Option<Engine>,
    /// The one analysis of a position for hints, the evaluation and `why`; created on first use.
    analyst: Option<Analyst>,
    /// The endgame databases the engine probes, if any.
    probe: Option<Arc<dyn Probe>>,
    random: u64,
}

/// Parses `south`, `north` or `off` (and `s`, `n`, `none`).
fn parse_computer_side(word: &str) -> Option<Option<Side>> {
    match word.to_ascii_lowercase().as_str() {
        "south" | "s" => Some(Some(Side::South)),
        "north" | "n" => Some(Some(Side::North)),
        "off" | "none" | "nobody" => Some(None),
        _ => None,
    }
}

impl<W: Write> TerminalGame<W> {
    fn show(&mut self) -> io::Result<()> {
        let pos = *self.game.position();
        writeln!(self.out)?;
        write!(self.out, "{}", diagram(&pos))?;
        match self.game.end() {
            Some(end) => {
                let verdict = match end.score.winner() {
                    Some(side) => format!("{side} wins"),
                    None => "Draw".to_string(),
                };
                let why = match end.reason {
                    oware_rules::EndReason::Capture => "a store holds more than 24 seeds",
                    oware_rules::EndReason::Draw => "both stores hold 24 seeds",
                    oware_rules::EndReason::NoMoves => {
                        "the player to move has no legal move; each side takes the seeds on its row"
                    }
                    oware_rules::EndReason::Repetition => "the position repeated",
                };
                writeln!(self.out, "Game over: {verdict} {} ({why}).", end.score)?;
                writeln!(self.out, "Type undo, new, save FILE or quit.")?;
            }
            None => {
                let side = pos.side_to_move();
                writeln!(
                    self.out,
                    "{side} to move. Legal moves: {}",
                    spaced(self.game.legal_moves())
                )?;
            }
        }
        Ok(())
    }

    fn prompt(&mut self) -> io::Result<()> {
        let who = if self.game.is_over() {
            "oware".to_string()
        } else {
            self.game.position().side_to_move().to_string()
        };
        write!(self.out, "{who}> ")?;
        self.out.flush()
    }

    /// Runs `work` on the engine in another thread while printing a dot every quarter second, so the
    /// person sees that the computer is thinking.
    fn thinking<T: Send>(
        &mut self,
        label: &str,
        work: impl FnOnce(&mut Engine, &Game) -> T + Send,
    ) -> io::Result<T> {
        write!(self.out, "{label}")?;
        self.out.flush()?;
        let game = self.game.clone();
        let mut engine = self.engine.take().unwrap_or_else(|| {
            Engine::new(EngineOptions {
                hash_mb: 32,
                threads: self.threads,
                probe: self.probe.clone(),
                // Levels 1-4 make the coach's human mistakes.
                oversight: Some(std::sync::Arc::new(oware_coach::HumanMistakes)),
                ..EngineOptions::default()
            })
        });
        let out = &mut self.out;
        let result = std::thread::scope(|scope| {
            let handle = scope.spawn(|| {
                let r = work(&mut engine, &game);
                (r, engine)
            });
            while !handle.is_finished() {
                std::thread::sleep(Duration::from_millis(250));
                if !handle.is_finished() {
                    let _ = write!(out, ".");
                    let _ = out.flush();
                }
            }
            handle.join()
        });
        writeln!(self.out)?;
        match result {
            Ok((r, engine)) => {
                self.engine = Some(engine);
                Ok(r)
            }
            Err(_) => Err(io::Error::other("the computer's search failed")),
        }
    }

    /// The computer plays the side to move.
    fn computer_move(&mut self) -> anyhow::Result<()> {
        if self.game.is_over() {
            return Ok(());
        }
        let side = self.game.position().side_to_move();
        let (level, time, mut random) = (self.level, self.movetime, self.random);
        let label = format!("The computer ({side}, level {level}) is thinking");
        let mv = self.thinking(&label, move |engine, game| {
            player::choose_move_with(engine, game, level, time, &mut random)
        })?;
        self.random = self.random.wrapping_add(SplitMix64::GAMMA);
        match mv {
            Some(mv) => self.play_move(mv),
            None => Ok(()),
        }
    }

    /// Lets the computer reply while it is its turn.
    fn computer_turns(&mut self) -> anyhow::Result<()> {
        while !self.game.is_over() && self.computer == Some(self.game.position().side_to_move()) {
            self.computer_move()?;
        }
        Ok(())
    }

    /// The analyst of hints, the evaluation and `why`: the web's analysis, with the databases.
    fn analyst(&mut self) -> &mut Analyst {
        let probe = self.probe.clone();
        self.analyst.get_or_insert_with(|| {
            let engine = Engine::new(EngineOptions {
                hash_mb: oware_coach::HASH_MB,
                probe,
                ..EngineOptions::default()
            });
            Analyst::with_engine(engine, oware_coach::DEPTH, None)
        })
    }

    /// The best move of the position's one analysis, with its score and line.
    fn evaluation(&mut self) -> Option<ScoredMove> {
        if self.game.is_over() {
            return None;
        }
        let game = self.game.clone();
        self.analyst().analysis(&game).values.into_iter().next()
    }

    fn show_evaluation(&mut self) -> anyhow::Result<()> {
        let side = self.game.position().side_to_move();
        if let Some(best) = self.evaluation() {
            let line: Vec<String> = best.line.iter().map(|m| m.to_string()).collect();
            let score = best.score;
            let value = if decided_in(score).is_some() {
                render_score(score, best.by_database, side, Lang::En)
            } else {
                let south = if side == Side::South { score } else { -score };
                format!("{:+.2} for South", f64::from(south) / 100.0)
            };
            writeln!(self.out, "Evaluation: {value} (line: {})", line.join(" "))?;
        }
        Ok(())
    }

    fn handle(&mut self, line: &str) -> anyhow::Result<Next> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Next::Continue);
        };
        let argument = words.next();
        match (command, argument) {
            ("quit" | "exit" | "q", _) => return Ok(Next::Quit),
            ("help" | "?", _) => writeln!(self.out, "{HELP}")?,
            ("moves", _) => {
                let record = Record::from_game(&self.game).to_string();
                let text = record.split("\n\n").nth(1).unwrap_or("").trim();
                writeln!(self.out, "{text}")?;
            }
            ("undo", _) => match self.game.undo() {
                Some(mv) => {
                    writeln!(self.out, "Took back {mv}.")?;
                    // Against the computer, take back its reply too: it is the person's turn again.
                    if self.computer == Some(self.game.position().side_to_move()) {
                        if let Some(mv) = self.game.undo() {
                            writeln!(self.out, "Took back {mv}.")?;
                        }
                    }
                    self.show()?;
                    self.computer_turns()?;
                }
                None => writeln!(self.out, "Nothing to take back.")?,
            },
            ("new", _) => {
                self.game = Game::new(self.game.rules());
                self.show()?;
                self.computer_turns()?;
            }
            ("hint", _) => match self.evaluation() {
                Some(best) => {
                    let side = self.game.position().side_to_move();
                    writeln!(
                        self.out,
                        "Hint: {} ({})",
                        best.mv,
                        render_score(best.score, best.by_database, side, Lang::En)
                    )?
                }
                None => writeln!(self.out, "The game is over.")?,
            },
            ("eval", _) => {
                self.live_eval = !self.live_eval;
                if self.live_eval {
                    self.show_evaluation()?;
                } else {
                    writeln!(self.out, "Evaluation off.")?;
                }
            }
            ("computer", Some(word)) => match parse_computer_side(word) {
                Some(side) => {
                    self.computer = side;
                    match side {
                        Some(side) => writeln!(
                            self.out,
                            "The computer plays {side} at level {}.",
                            self.level
                        )?,
                        None => writeln!(self.out, "Two people play.")?,
                    }
                    self.computer_turns()?;
                }
                None => writeln!(self.out, "computer takes south, north or off.")?,
            },
            ("level", Some(word)) => match word.parse::<u8>() {
                Ok(level) if oware_engine::LEVELS.contains(&level) => {
                    self.level = level;
                    writeln!(self.out, "Level {level}.")?;
                }
                _ => writeln!(self.out, "level takes a number from 1 to 10.")?,
            },
            ("computer" | "level", None) => {
                writeln!(self.out, "{command} needs a value (see help).")?
            }
            ("go", _) => {
                self.computer_move()?;
                self.computer_turns()?;
            }
            ("save", Some(file)) => {
                std::fs::write(file, Record::from_game(&self.game).to_string())
                    .with_context(|| format!("could not write {file}"))?;
                writeln!(self.out, "Saved to {file}.")?;
            }
            ("load", Some(file)) => {
                self.game = load_record(Path::new(file))?;
                writeln!(self.out, "Loaded {file}.")?;
                self.show()?;
                self.computer_turns()?;
            }
            ("save" | "load", None) => writeln!(self.out, "{command} needs a file name.")?,
            ("why", argument) => self.why(argument)?,
            (word, None) if word.chars().count() == 1 => {
                self.play_letter(word)?;
                self.computer_turns()?;
            }
            _ => writeln!(
                self.out,
                "Unknown command {line:?}. Type help for the commands."
            )?,
        }
        Ok(Next::Continue)
    }

    /// The coach's words on `MOVE` in the current position, or on the last move in the position
    /// it was played from; in the environment's language.
    fn why(&mut self, argument: Option<&str>) -> anyhow::Result<()> {
        let lang = coach::language(None);
        let (game, mv) = match argument {
            Some(word) => match word.parse::<Move>() {
                Ok(mv) => (self.game.clone(), mv),
                Err(_) => {
                    writeln!(self.out, "why takes a house letter (A-F, a-f), or nothing.")?;
                    return Ok(());
                }
            },
            None => {
                let mut before = self.game.clone();
                match before.undo() {
                    Some(mv) => (before, mv),
                    None => {
                        writeln!(self.out, "No move yet: type why and a house letter.")?;
                        return Ok(());
                    }
                }
            }
        };
        if let Err(e) = game.check_move(mv) {
            writeln!(self.out, "{e}.")?;
            return Ok(());
        }
        self.analyst();
        let mut analyst = self.analyst.take().expect("made just above");
        let said = coach::explain_move(&mut self.out, &game, mv, &mut analyst, lang);
        self.analyst = Some(analyst);
        said?;
        Ok(())
    }

    fn play_letter(&mut self, word: &str) -> anyhow::Result<()> {
        let Ok(mv) = word.parse::<Move>() else {
            writeln!(
                self.out,
                "{word:?} is not a house: South's houses are A-F, North's a-f."
            )?;
            return Ok(());
        };
        if self.computer == Some(self.game.position().side_to_move()) && !self.game.is_over() {
            writeln!(
                self.out,
                "It is the computer's turn (type go, or computer off)."
            )?;
            return Ok(());
        }
        self.play_move(mv)
    }

    /// Plays a move for whoever is to move, and shows the result.
    fn play_move(&mut self, mv: Move) -> anyhow::Result<()> {
        let mover = self.game.position().side_to_move();
        match self.game.play(mv) {
            Ok(outcome) => {
                if outcome.captured > 0 {
                    writeln!(
                        self.out,
                        "{mover} plays {mv} and captures {}.",
                        outcome.captured
                    )?;
                } else {
                    writeln!(self.out, "{mover} plays {mv}.")?;
                }
                self.show()?;
                if self.live_eval && !self.game.is_over() {
                    self.show_evaluation()?;
                }
            }
            Err(PlayError::GameOver(_)) => {
                writeln!(self.out, "The game is over: type undo, new or quit.")?;
            }
            Err(PlayError::Illegal(illegal)) => {
                writeln!(
                    self.out,
                    "{mv} is not allowed: {}. Legal moves: {}",
                    illegal.reason,
                    spaced(self.game.legal_moves())
                )?;
            }
        }
        Ok(())
    }
}

fn spaced(moves: oware_rules::MoveSet) -> String {
    moves.map(|m| m.to_string()).collect::<Vec<_>>().join(" ")
}

/// Reads an OGN record and replays it.
pub fn load_record(path: &Path) -> anyhow::Result<Game> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("could not read {}", path.display()))?;
    let record: Record = text
        .parse()
        .with_context(|| format!("{} is not a valid game record", path.display()))?;
    Ok(record.game()?)
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let game = match &args.load {
        Some(file) => {
            load_record(Path::new(file)).map_err(|e| super::Exit::bad_input(format!("{e:#}")))?
        }
        None => Game::from_position(args.pos.start()?, args.pos.rules),
    };
    let computer = match &args.computer {
        None => None,
        Some(word) => parse_computer_side(word).ok_or_else(|| {
            super::Exit::bad_input(format!("--computer {word:?}: expected south, north or off"))
        })?,
    };
    let probe = match &args.egtb {
        None if args.no_egtb => None,
        None => super::egtb_home::start(
            "oware play",
            &[game.rules()],
            super::egtb_home::Report::StartAndEnd,
        )?
        .and_then(|probes| probes.into_iter().next())
        .map(|probe| probe as Arc<dyn Probe>),
        Some(dir) => {
            let tablebase = super::open_databases(dir, game.rules())?;
            Some(Arc::new(tablebase) as Arc<dyn Probe>)
        }
    };
    let stdout = io::stdout();
    let mut terminal = TerminalGame {
        game,
        out: stdout.lock(),
        computer,
        level: args.level,
        movetime: Duration::from_millis(args.movetime.max(1)),
        threads: super::threads_or_every_processor(args.threads),
        live_eval: false,
        engine: None,
        analyst: None,
        probe,
        random: player::seed_from_clock(),
    };
    match computer {
        None => writeln!(
            terminal.out,
            "Oware ({}): two players at one keyboard. Type help for the commands.",
            terminal.game.rules()
        )?,
        Some(side) => writeln!(
            terminal.out,
            "Oware ({}): you play {} against the computer (level {}). Type help for the commands.",
            terminal.game.rules(),
            side.opponent(),
            terminal.level
        )?,
    }
    terminal.show()?;
    if let Err(e) = terminal.computer_turns() {
        writeln!(terminal.out, "Error: {e:#}")?;
    }
    let stdin = io::stdin();
    let mut input = stdin.lock();
    loop {
        terminal.prompt()?;
        let line = match read_line(&mut input)? {
            Line::Text(line) => line,
            Line::TooLong => {
                writeln!(terminal.out, "Error: that line is too long to be a command")?;
                continue;
            }
            Line::End => {
                writeln!(terminal.out)?;
                return Ok(());
            }
        };
        // A failed save or load is reported and the game goes on.
        match terminal.handle(&line) {
            Ok(Next::Continue) => {}
            Ok(Next::Quit) => return Ok(()),
            Err(e) => writeln!(terminal.out, "Error: {e:#}")?,
        }
    }
}
