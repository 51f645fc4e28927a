//! `oware match`: a referee between two engines that speak the protocol of `oware engine`, or the
//! ladder of this engine's playing levels (`--ladder`); the match itself is
//! [`oware_referee`]'s, and this is its arguments and what it prints.
//!
//! Each opening is played twice, the engines swapping sides. The games are written as OGN, each move
//! followed by what its engine last reported of its search (`{depth 12 score cp 25 pv CdB}`); the
//! score is reported as wins/draws/losses of the first engine with the Elo difference and its 95%
//! interval.

use std::fs::File;
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use oware_engine::{EngineOptions, LEVELS};
use oware_referee::{
    default_openings, ladder, parse_openings, EngineProcess, GameReport, Match, Opening, Pace,
    TimeControl, STEP_SCORE,
};
use oware_rules::RuleSet;

use super::Exit;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// An engine command line, run with `sh -c` (give it twice: the first engine, then the second)
    #[arg(
        long = "engine",
        value_name = "COMMAND",
        required_unless_present = "ladder"
    )]
    pub engines: Vec<String>,
    /// Instead of two engines: this engine's playing levels from FROM to TO, each against the next
    /// one up in this process (`--games` games a step, the stronger level first), and a table of
    /// the stronger level's score at each step
    #[arg(long, value_name = "FROM-TO", value_parser = parse_ladder, conflicts_with = "engines")]
    pub ladder: Option<RangeInclusive<u8>>,
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

/// Reads `FROM-TO`, two levels with FROM below TO.
fn parse_ladder(text: &str) -> Result<RangeInclusive<u8>, String> {
    let levels = text
        .split_once('-')
        .and_then(|(from, to)| {
            Some((
                from.trim().parse::<u8>().ok()?,
                to.trim().parse::<u8>().ok()?,
            ))
        })
        .filter(|(from, to)| LEVELS.contains(from) && LEVELS.contains(to) && from < to);
    match levels {
        Some((from, to)) => Ok(from..=to),
        None => Err(format!(
            "{text:?}: expected two levels FROM-TO with {} <= FROM < TO <= {}",
            LEVELS.start(),
            LEVELS.end()
        )),
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.ladder.is_none() && args.engines.len() != 2 {
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
    let pace_text = match pace {
        Pace::MoveTime(ms) => format!("{ms} ms per move"),
        Pace::Clock(tc, margin) if margin.is_zero() => format!("clocks of {tc} s"),
        Pace::Clock(tc, margin) => {
            format!("clocks of {tc} s (margin {} ms)", margin.as_millis())
        }
    };
    if let Some(levels) = args.ladder.clone() {
        let mut out = create(&args.out)?;
        return run_ladder(levels, &args, &openings, pace, &pace_text, &mut out);
    }
    let mut first = EngineProcess::start(&args.engines[0], args.rules, &options1)?;
    let mut second = EngineProcess::start(&args.engines[1], args.rules, &options2)?;
    let mut out = create(&args.out)?;
    eprintln!(
        "match: {} vs {}, {} games, {pace_text}, {} rules",
        first.name, second.name, args.games, args.rules
    );
    let mut contest = Match::new(&mut first, &mut second, &openings, args.games, pace);
    for report in contest.by_ref() {
        let report = report?;
        write_game(&mut out, &report)?;
        eprintln!("{}", progress(&report, args.games, pace));
    }
    let tally = contest.tally();
    let [first_name, second_name] = contest.names();
    let (p, elo, low, high) = tally.elo();
    println!("first engine:  {first_name}");
    println!("second engine: {second_name}");
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

/// The file the games are written to.
fn create(path: &std::path::Path) -> anyhow::Result<File> {
    File::create(path).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes one game's record.
fn write_game(out: &mut File, report: &GameReport) -> anyhow::Result<()> {
    writeln!(out, "{}", report.record).context("writing the games")
}

/// The line said after each game: its result and the first engine's tally so far.
fn progress(report: &GameReport, games: usize, pace: Pace) -> String {
    let tally = report.tally;
    let (p, elo, _, _) = tally.elo();
    let played = &report.played;
    // On clocks, the time each side had left: how much of it the engines use.
    let clocks = match pace {
        Pace::Clock(..) => format!(
            " | clocks {:.1} s, {:.1} s",
            played.clocks[0].as_secs_f64(),
            played.clocks[1].as_secs_f64()
        ),
        Pace::MoveTime(_) => String::new(),
    };
    format!(
        "game {:>3}/{}: {} {:<8} {:<40} | first engine +{} ={} -{} ({:.1}%, Elo {:+.0}){clocks}",
        report.round,
        games,
        if report.first_is_south {
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
    )
}

/// The ladder: each level against the next, the games written to `out`, each step's line as it
/// ends and a table of them all at the end. Fails (status 1) when a step scores 60% or less for
/// the stronger level.
fn run_ladder(
    levels: RangeInclusive<u8>,
    args: &Args,
    openings: &[Opening],
    pace: Pace,
    pace_text: &str,
    out: &mut File,
) -> anyhow::Result<()> {
    eprintln!(
        "ladder: levels {} to {}, {} games a step, {pace_text}, {} rules",
        levels.start(),
        levels.end(),
        args.games,
        args.rules
    );
    let options = EngineOptions {
        hash_mb: 16,
        oversight: Some(Arc::new(oware_coach::HumanMistakes)),
        ..EngineOptions::default()
    };
    let mut written = Ok(());
    let steps = ladder(
        levels,
        args.games,
        openings,
        pace,
        &options,
        &mut |lower, report| {
            if written.is_ok() {
                written = write_game(out, report);
            }
            if report.round == args.games {
                let t = report.tally;
                eprintln!(
                    "level {} vs {lower}: +{} ={} -{} ({:.1}%)",
                    lower + 1,
                    t.wins,
                    t.draws,
                    t.losses,
                    t.elo().0 * 100.0
                );
            }
        },
    )?;
    written?;
    println!("| levels | games | stronger wins | draws | stronger loses | stronger's score | Elo (95% interval) |");
    println!("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
    for step in &steps {
        let t = step.tally;
        let (p, elo, low, high) = t.elo();
        println!(
            "| {} vs {} | {} | {} | {} | {} | {:.1}% | {elo:+.0} [{low:+.0}, {high:+.0}] |",
            step.higher(),
            step.lower,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            p * 100.0
        );
    }
    println!("games written to {}", args.out.display());
    let weak: Vec<String> = steps
        .iter()
        .filter(|s| !s.passes())
        .map(|s| format!("{} vs {}", s.higher(), s.lower))
        .collect();
    if weak.is_empty() {
        Ok(())
    } else {
        Err(anyhow::anyhow!(
            "the stronger level scored {:.0}% or less at: {}",
            STEP_SCORE * 100.0,
            weak.join(", ")
        ))
    }
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

    #[test]
    fn a_ladder_is_two_levels_upwards() {
        assert_eq!(parse_ladder("1-10"), Ok(1..=10));
        assert_eq!(parse_ladder("4-5"), Ok(4..=5));
        for bad in ["5-5", "6-2", "0-3", "1-11", "3", "a-b", ""] {
            let err = parse_ladder(bad).unwrap_err();
            assert!(err.contains("FROM-TO"), "{bad}: {err}");
        }
    }
}
