//! `oware engine`: the engine protocol ([`oware_engine::protocol`]) on standard input and output.

use oware_engine::protocol::StartDatabases;
use oware_engine::ProbeSet;
use oware_rules::RuleSet;

use super::egtb_home;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Endgame database directory (as the `EGTB` option; built by `oware egtb build`) [default:
    /// those of the user's data directory, built there in the background on first use, with their
    /// progress on standard error]
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
    /// No endgame databases: none looked for in the user's data directory, none built
    #[arg(long, conflicts_with = "egtb")]
    pub no_egtb: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let databases = match &args.egtb {
        Some(dir) => StartDatabases::Dir(dir),
        None if args.no_egtb => StartDatabases::None,
        None => {
            let rules = [RuleSet::Abapa, RuleSet::Awari];
            match egtb_home::start("oware engine", &rules, egtb_home::Report::EachLevel)? {
                Some(probes) => StartDatabases::Growing(ProbeSet::growing(probes)),
                None => StartDatabases::None,
            }
        }
    };
    let input = std::io::BufReader::new(std::io::stdin());
    // The `Level` option's weak levels make the coach's human mistakes.
    let oversight: std::sync::Arc<dyn oware_engine::Oversight> =
        std::sync::Arc::new(oware_coach::HumanMistakes);
    oware_engine::protocol::run(input, std::io::stdout(), databases, Some(oversight))?;
    Ok(())
}
