//! `oware show`: a board diagram.

use oware_rules::diagram::diagram;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The position string `h0-…-h11-southStore-northStore-S|N`
    pub position: String,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let pos = super::parse_position(&args.position)?;
    print!("{}", diagram(&pos));
    Ok(())
}
