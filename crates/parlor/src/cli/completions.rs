//! `parlor completions SHELL`: the shell completion script, generated from the same clap definitions that parse the
//! command line, so it always knows every command and flag.

use anyhow::Result;
use clap::Args;
use clap_complete::Shell;
use std::io::Write;

/// Arguments of `parlor completions`.
#[derive(Debug, Args)]
#[command(after_help = "Where to put the script:\n  \
    bash: parlor completions bash > ~/.local/share/bash-completion/completions/parlor\n  \
    zsh:  parlor completions zsh > ~/.zfunc/_parlor   (with fpath+=(~/.zfunc) before compinit in ~/.zshrc)\n  \
    fish: parlor completions fish > ~/.config/fish/completions/parlor.fish")]
pub struct CompletionsArgs {
    /// The shell to write the completion script for.
    #[arg(value_enum)]
    pub shell: Shell,
}

/// Writes the completion script of the whole command line `cmd` for `args.shell` to `out`.
pub fn run(args: &CompletionsArgs, mut cmd: clap::Command, out: &mut dyn Write) -> Result<()> {
    // Into memory first: clap_complete panics on a failed write (a closed pipe), and this returns the error instead.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "parlor", &mut script);
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}
