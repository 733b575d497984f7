//! The command line: `parlor [GAME [COMMAND]] [OPTIONS]`, parsed with clap.

pub mod mastermind;
pub mod nocca;
pub mod records;
pub mod twenty48;
pub mod twenty48_train;

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Parlor: classic thinking games for the terminal (2048, Mastermind, Nocca Nocca).
///
/// With no command, opens the menu. Games in progress are saved after every move and offered again on the next
/// start. Data lives in $PARLOR_DATA_DIR, or else the XDG data directory (~/.local/share/parlor on Linux).
#[derive(Debug, Parser)]
#[command(name = "parlor", version, about, long_about)]
pub struct Cli {
    /// Line-by-line plain mode for screen readers, scripts and pipes (automatic when stdin or stdout is not a terminal).
    #[arg(long, global = true)]
    pub plain: bool,
    /// Never use colour (the NO_COLOR environment variable does the same).
    #[arg(long, global = true)]
    pub no_color: bool,
    /// Do not capture the mouse in the full-screen interface.
    #[arg(long, global = true)]
    pub no_mouse: bool,
    /// The directory that holds Parlor's database (overrides PARLOR_DATA_DIR and the XDG data directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// What to do (nothing: open the menu).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// Parlor's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Play 2048, or run its analysis commands (`parlor 2048 slide ...`).
    #[command(name = "2048")]
    Twenty48(twenty48::Twenty48Cmd),
    /// Play Mastermind, as codebreaker or codemaker, or run its analysis commands (`parlor mastermind solve ...`).
    Mastermind(mastermind::MastermindCmd),
    /// Play Nocca Nocca, against a person or the computer, or run its analysis commands (`parlor nocca perft ...`).
    Nocca(nocca::NoccaCmd),
    /// List finished games, newest first.
    History(records::HistoryArgs),
    /// Show the best scores.
    Scores(records::ScoresArgs),
    /// Replay a finished game from the history.
    Replay(records::ReplayArgs),
    /// Print where Parlor keeps its data.
    DataDir,
}

/// Output format shared by the analysis commands.
#[derive(Debug, Args, Clone, Copy)]
pub struct JsonFlag {
    /// Print one JSON object on stdout instead of a readable line.
    #[arg(long)]
    pub json: bool,
}
