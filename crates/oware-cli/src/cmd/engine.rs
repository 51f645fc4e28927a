//! `oware engine`: the engine protocol ([`oware_engine::protocol`]) on standard input and output.

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Endgame database directory (as the `EGTB` option; built by `oware egtb build`)
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let input = std::io::BufReader::new(std::io::stdin());
    // The `Level` option's weak levels make the coach's human mistakes.
    let oversight: std::sync::Arc<dyn oware_engine::Oversight> =
        std::sync::Arc::new(oware_coach::HumanMistakes);
    oware_engine::protocol::run(
        input,
        std::io::stdout(),
        args.egtb.as_deref(),
        Some(oversight),
    )?;
    Ok(())
}
