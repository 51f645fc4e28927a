//! `oware puzzle`: the puzzle set in the terminal. Shows a puzzle and reads one answer a line: a
//! move letter (right or wrong, and why, in the coach's words), `hint`, `solution`, `next`, `quit`.

use std::io::{self, Write};

use oware_coach::puzzle::{self, Puzzle, Theme};
use oware_coach::{messages, Lang};
use oware_engine::input::{read_line, Line};
use oware_rules::{Move, Side};

use super::{coach, Exit};
use oware_rules::diagram::{diagram_in, Words};

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Only the puzzles of this theme (capture, double-attack, kroo, feeding, grand-slam, tempo,
    /// quiet)
    #[arg(long, value_name = "THEME")]
    pub theme: Option<Theme>,
    /// Start at this puzzle of the selection (from 1)
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub number: usize,
    /// Language of the coach: ca, es, en or fr (default: the environment's locale, else English)
    #[arg(long, value_name = "ca|es|en|fr")]
    pub lang: Option<Lang>,
}

fn show(
    out: &mut dyn Write,
    p: &Puzzle,
    number: usize,
    total: usize,
    lang: Lang,
) -> io::Result<()> {
    writeln!(out)?;
    writeln!(out, "{}", p.title(number, total, lang))?;
    let words = Words {
        sides: [
            messages::side(lang, Side::South),
            messages::side(lang, Side::North),
        ],
        store: messages::raw(lang, "puzzle.store"),
        to_move: messages::raw(lang, "puzzle.toMove"),
    };
    write!(out, "{}", diagram_in(&p.position, &words))
}

fn ask(out: &mut dyn Write, p: &Puzzle, lang: Lang) -> io::Result<()> {
    write!(
        out,
        "{} ",
        messages::format(lang, "puzzle.ask", &[("moves", &moves(p))])
    )?;
    out.flush()
}

fn moves(p: &Puzzle) -> String {
    p.game()
        .legal_moves()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let lang = coach::language(args.lang);
    let selection: Vec<&Puzzle> = match args.theme {
        Some(theme) => puzzle::with_theme(theme).collect(),
        None => puzzle::all().iter().collect(),
    };
    if let Some(theme) = args.theme.filter(|_| selection.is_empty()) {
        let name = theme.name(lang);
        return Err(Exit::bad_input(messages::format(
            lang,
            "puzzle.none",
            &[("theme", &name)],
        )));
    }
    if args.number == 0 || args.number > selection.len() {
        return Err(Exit::bad_input(format!(
            "--number {}: expected 1 to {}",
            args.number,
            selection.len()
        )));
    }
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let total = selection.len();
    let mut index = args.number - 1;
    show(&mut out, selection[index], index + 1, total, lang)?;
    loop {
        let p = selection[index];
        ask(&mut out, p, lang)?;
        let word = match read_line(&mut input)? {
            Line::Text(line) => line,
            Line::TooLong => String::new(),
            Line::End => {
                writeln!(out)?;
                return Ok(());
            }
        };
        let solved = match word.to_ascii_lowercase().as_str() {
            "quit" | "q" | "exit" => return Ok(()),
            "hint" | "h" => {
                writeln!(out, "{}", p.theme.hint(lang))?;
                false
            }
            "solution" | "s" => {
                writeln!(out, "{}", p.reveal(lang))?;
                true
            }
            "next" | "n" => true,
            _ => match word.parse::<Move>() {
                Ok(mv) if word.len() == 1 => {
                    let feedback = p.answer(mv, lang);
                    writeln!(out, "{}", feedback.text())?;
                    feedback.is_right()
                }
                _ => {
                    let text = messages::format(lang, "puzzle.unknown", &[("moves", &moves(p))]);
                    writeln!(out, "{text}")?;
                    false
                }
            },
        };
        if solved {
            index = (index + 1) % total;
            show(&mut out, selection[index], index + 1, total, lang)?;
        }
    }
}
