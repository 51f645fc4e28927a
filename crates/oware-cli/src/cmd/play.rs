//! `oware play`: a game in the terminal between two people at one keyboard.
//!
//! Reads one command per line, so it works as well from a script as from a person:
//! a move letter, `undo`, `save FILE`, `load FILE`, `new`, `moves`, `help`, `quit`.

use std::io::{self, BufRead, Write};
use std::path::Path;

use anyhow::Context;
use oware_rules::ogn::Record;
use oware_rules::{Game, Move, PlayError};

use super::PositionArgs;
use crate::display::diagram;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub pos: PositionArgs,
    /// Continue a game saved as an OGN record
    #[arg(long, value_name = "FILE", conflicts_with = "position")]
    pub load: Option<String>,
}

const HELP: &str = "\
Commands:
  A-F / a-f     sow that house (South's houses are A-F, North's a-f)
  undo          take back the last move
  save FILE     save the game as an OGN record
  load FILE     continue a game from an OGN record
  new           start again from the starting position
  moves         show the moves so far
  help          this text
  quit          leave (the game is not saved)";

/// What the loop should do after a command.
enum Next {
    Continue,
    Quit,
}

/// The game being played and the text it prints.
struct Session<W: Write> {
    game: Game,
    out: W,
}

impl<W: Write> Session<W> {
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
                    self.show()?;
                }
                None => writeln!(self.out, "Nothing to take back.")?,
            },
            ("new", _) => {
                self.game = Game::new(self.game.rules());
                self.show()?;
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
            }
            ("save" | "load", None) => writeln!(self.out, "{command} needs a file name.")?,
            (word, None) if word.chars().count() == 1 => self.play_letter(word)?,
            _ => writeln!(
                self.out,
                "Unknown command {line:?}. Type help for the commands."
            )?,
        }
        Ok(Next::Continue)
    }

    fn play_letter(&mut self, word: &str) -> anyhow::Result<()> {
        let Ok(mv) = word.parse::<Move>() else {
            writeln!(
                self.out,
                "{word:?} is not a house: South's houses are A-F, North's a-f."
            )?;
            return Ok(());
        };
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
    record
        .game()
        .map_err(|(ply, e)| anyhow::anyhow!("ply {}: {e}", ply + 1))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let game = match &args.load {
        Some(file) => {
            load_record(Path::new(file)).map_err(|e| super::Exit::bad_input(format!("{e:#}")))?
        }
        None => Game::from_position(args.pos.start()?, args.pos.rules),
    };
    let stdout = io::stdout();
    let mut session = Session {
        game,
        out: stdout.lock(),
    };
    writeln!(
        session.out,
        "Oware ({}): two players at one keyboard. Type help for the commands.",
        session.game.rules()
    )?;
    session.show()?;
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    loop {
        session.prompt()?;
        let Some(line) = lines.next() else {
            writeln!(session.out)?;
            return Ok(());
        };
        // A failed save or load is reported and the game goes on.
        match session.handle(&line?) {
            Ok(Next::Continue) => {}
            Ok(Next::Quit) => return Ok(()),
            Err(e) => writeln!(session.out, "Error: {e:#}")?,
        }
    }
}
