//! One module per subcommand, and what they share.

use std::fmt;
use std::sync::Arc;

use oware_engine::tablebase::TablebaseProbe;
use oware_rules::{Position, RuleSet};

pub mod analyse;
pub mod bench;
pub mod coach;
pub mod egtb;
pub mod egtb_home;
pub mod engine;
pub mod matches;
pub mod perft;
pub mod play;
pub mod puzzle;
pub mod replay;
pub mod serve;
pub mod show;

/// An error that asks for a particular exit status (the default for other errors is 1).
#[derive(Debug)]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

impl Exit {
    /// Status 2: the input (a move, a position, a record) was wrong.
    pub fn bad_input(message: impl Into<String>) -> anyhow::Error {
        Exit {
            code: 2,
            message: message.into(),
        }
        .into()
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Exit {}

/// The options that choose the rules and the start position, shared by several subcommands.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Start position as `h0-…-h11-southStore-northStore-S|N` (default: the starting position)
    #[arg(long, short = 'p', value_name = "POS")]
    pub position: Option<String>,
    /// Rule set
    #[arg(long, short = 'r', default_value = "abapa", value_name = "abapa|awari")]
    pub rules: RuleSet,
}

impl PositionArgs {
    /// The start position, or an input error (status 2) saying what is wrong with it.
    pub fn start(&self) -> anyhow::Result<Position> {
        parse_position(
            self.position
                .as_deref()
                .unwrap_or("4-4-4-4-4-4-4-4-4-4-4-4-0-0-S"),
        )
    }
}

/// Parses a position string, as an input error (status 2) when malformed.
pub fn parse_position(text: &str) -> anyhow::Result<Position> {
    text.parse()
        .map_err(|e| Exit::bad_input(format!("bad position {text:?}: {e}")))
}

/// Search threads from a `--threads` option: as given, or one per processor by default.
pub fn threads_or_every_processor(threads: Option<u16>) -> usize {
    threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    )
}

/// Opens the endgame databases of `rules` in `dir` for `--egtb`: an input error (status 2) when they
/// cannot be used; level files left unused (above a missing level) are a warning on standard
/// error, and so, once per file, is a file that changes while the command runs.
pub fn open_databases(dir: &str, rules: RuleSet) -> anyhow::Result<TablebaseProbe> {
    let mut tablebase =
        TablebaseProbe::open(dir, rules).map_err(|e| Exit::bad_input(format!("--egtb: {e}")))?;
    if let Some(unused) = tablebase.tablebase().unused_levels() {
        eprintln!("oware: warning: {unused}");
    }
    tablebase.set_on_change(Arc::new(|e| eprintln!("oware: {e}")));
    Ok(tablebase)
}
