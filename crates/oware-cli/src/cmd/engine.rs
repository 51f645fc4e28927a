//! `oware engine`: the engine protocol ([`oware_engine::protocol`]) on standard input and output.

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Endgame database directory (as the `EGTB` option; built by `oware egtb build`)
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let input = std::io::BufReader::new(std::io::stdin());
    oware_engine::protocol::run(input, std::io::stdout(), args.egtb.as_deref())?;
    Ok(())
}
