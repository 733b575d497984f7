//! `parlor man`: the manual page (roff), generated from the same clap definitions that parse the command line.

use anyhow::{Context, Result};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `parlor man`.
#[derive(Debug, Args)]
#[command(
    after_help = "Where to put it: parlor man > ~/.local/share/man/man1/parlor.1 (then `man parlor`), or \
    `parlor man --dir ~/.local/share/man/man1` for one page per command."
)]
pub struct ManArgs {
    /// Write parlor.1 and one page per command (parlor-2048.1, ...) into DIR instead of parlor.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Writes the manual page to `out`, or every page into `args.dir`.
pub fn run(args: &ManArgs, out: &mut dyn Write) -> Result<()> {
    let cmd = crate::cli::command();
    match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(cmd, dir)
                .with_context(|| format!("writing the manual pages into {}", dir.display()))?;
        }
        None => {
            clap_mangen::Man::new(cmd).render(out)?;
            out.flush()?;
        }
    }
    Ok(())
}
