//! The `oware` command. Each subcommand lives in its own module under `cmd/`; this file only wires
//! them together.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd;

#[derive(Parser)]
#[command(name = "oware", version, about = "Oware (awalé, awari): play, analyse, solve", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count move paths from a position, for each depth up to DEPTH
    Perft(cmd::perft::Args),
    /// Play a list of moves and print every position and the result
    Replay(cmd::replay::Args),
    /// Draw a position as a board diagram
    Show(cmd::show::Args),
    /// Play a game in the terminal
    Play(cmd::play::Args),
    /// Solve puzzles in the terminal: find the one move that wins
    Puzzle(cmd::puzzle::Args),
    /// Speak the UCI-style engine protocol on standard input and output
    Engine(cmd::engine::Args),
    /// Analyse a position or a game record
    #[command(alias = "analyze")]
    Analyse(cmd::analyse::Args),
    /// Referee a match between two protocol engines
    Match(cmd::matches::Args),
    /// Search a fixed set of positions and print a node-count signature
    Bench(cmd::bench::Args),
    /// Build, probe, verify endgame databases
    Egtb(cmd::egtb::Args),
    /// Start the web server
    Serve(cmd::serve::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if matches!(
        cli.command,
        Command::Perft(_)
            | Command::Replay(_)
            | Command::Show(_)
            | Command::Analyse(_)
            | Command::Bench(_)
            | Command::Egtb(_)
    ) {
        stop_quietly_when_the_reader_goes();
    }
    let result = match cli.command {
        Command::Perft(args) => cmd::perft::run(args),
        Command::Replay(args) => cmd::replay::run(args),
        Command::Show(args) => cmd::show::run(args),
        Command::Play(args) => cmd::play::run(args),
        Command::Puzzle(args) => cmd::puzzle::run(args),
        Command::Engine(args) => cmd::engine::run(args),
        Command::Analyse(args) => cmd::analyse::run(args),
        Command::Match(args) => cmd::matches::run(args),
        Command::Bench(args) => cmd::bench::run(args),
        Command::Egtb(args) => cmd::egtb::run(args),
        Command::Serve(args) => cmd::serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let code = err.downcast_ref::<cmd::Exit>().map_or(1, |e| e.code);
            eprintln!("oware: {err:#}");
            ExitCode::from(code)
        }
    }
}

/// Commands that print a report stop quietly when the program reading it goes away (`oware egtb stats
/// | head`), as command-line tools do, instead of panicking in `println!` on a broken pipe. Not the
/// others: `serve`, `match`, `engine` and `play` write to sockets, engines and terminals whose other end
/// may close, and must see that as an error to handle, not die of it.
fn stop_quietly_when_the_reader_goes() {
    #[cfg(unix)]
    // SAFETY: restores one signal's default action at start-up, before any other thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
