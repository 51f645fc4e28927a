//! `oware match`: a referee between two engines that speak the protocol of `oware engine`
//! ([`oware_engine::referee`]): the arguments, the match loop and what it prints.
//!
//! Each opening is played twice, the engines swapping sides. The games are written as OGN, each move
//! followed by what its engine last reported of its search (`{depth 12 score cp 25 pv CdB}`); the
//! score is reported as wins/draws/losses of the first engine with the Elo difference and its 95%
//! interval.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use oware_engine::referee::{
    default_openings, parse_openings, play_game, today, EngineProcess, Pace, Tally, TimeControl,
};
use oware_rules::ogn::{Outcome, Record};
use oware_rules::RuleSet;

use super::Exit;

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
        None => default_openings(args.rules),
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
        let played = play_game(engines, opening, pace)?;
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
        // Each move's depth, score and line as its engine reported them.
        record.comments = played.comments.clone();
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
