//! The command line: `parlor [GAME [COMMAND]] [OPTIONS]`. The general commands are clap derive types; each game's
//! command (`parlor GAME`) is built from the games handed over by the program's top, its flags from the game's
//! setting table.

pub mod completions;
pub mod env;
pub mod man;
pub mod online;
pub mod play;
pub mod records;
pub mod review;
pub mod serve;
pub mod stats;
pub mod transfer;
pub mod values;
pub mod version;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use play::CliLaunch;
use std::path::PathBuf;

/// Parlor: classic thinking games for the terminal.
///
/// With no command, opens the menu. Games in progress are saved after every move and offered again on the next
/// start. Data lives in $PARLOR_DATA_DIR, or else the XDG data directory (~/.local/share/parlor on Linux).
#[derive(Debug, Parser)]
#[command(name = "parlor", version)]
pub struct Cli {
    /// The options every command takes.
    #[command(flatten)]
    pub global: Global,
    /// What to do (nothing: open the menu).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The options every command takes (listed apart, under their own heading, in every command's help).
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = GLOBAL_HEADING)]
pub struct Global {
    /// Line-by-line plain mode for screen readers, scripts and pipes (automatic when stdin or stdout is not a terminal).
    #[arg(long, global = true)]
    pub plain: bool,
    /// Never use colour (the NO_COLOR environment variable does the same).
    #[arg(long, global = true)]
    pub no_color: bool,
    /// Do not capture the mouse in the full-screen interface.
    #[arg(long, global = true)]
    pub no_mouse: bool,
    /// Do not animate moves in the full-screen interface (slides, pieces moving).
    #[arg(long, global = true)]
    pub no_animation: bool,
    /// The directory that holds Parlor's database (overrides PARLOR_DATA_DIR and the XDG data directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// The directory that holds settings.toml (overrides PARLOR_CONFIG_DIR and the XDG config directory).
    #[arg(long, global = true, value_name = "DIR")]
    pub config_dir: Option<PathBuf>,
    /// The colour theme for this run (the settings keep one for every run).
    #[arg(long, global = true, value_name = "NAME", value_enum)]
    pub theme: Option<crate::settings::ThemeName>,
}

/// The heading the options every command takes are listed under in each command's help.
pub const GLOBAL_HEADING: &str = "Global options";

/// Parlor's general commands (each game's own command comes from the registry).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List finished games, newest first.
    History(records::HistoryArgs),
    /// Show the best scores.
    Scores(records::ScoresArgs),
    /// Show statistics per game and variant: played, won, win rate, streaks, best, average and charts' numbers.
    Stats(stats::StatsArgs),
    /// Replay a finished game from the history.
    Replay(records::ReplayArgs),
    /// Review a finished game with the engine: every move's mark (inaccuracy, mistake, blunder), the summary and
    /// the accuracy; kept with the game once made.
    Review(review::ReviewArgs),
    /// Practise from a position of a finished game: a new game from the position before move MOVE (a marked one,
    /// say), with the game's own seed, recorded as practice, never as a scored game.
    #[command(alias = "practice")]
    Practise(review::PractiseArgs),
    /// Write every game (finished, in progress, set aside) and the settings to one file, as a browser's Parlor
    /// exports them.
    Export(transfer::ExportArgs),
    /// Add the games of a file written by `parlor export` or a browser's Export (a game already here is not added
    /// twice).
    Import(transfer::ImportArgs),
    /// Print where Parlor keeps its data.
    DataDir,
    /// Print the settings in effect as settings.toml would hold them, and any mistake found in that file (the
    /// menu's Settings changes them).
    Settings,
    /// Print the shell completion script for bash, zsh, fish, elvish or PowerShell.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a directory.
    Man(man::ManArgs),
    /// Play Nocca Nocca online against people on a `parlor serve` server: the lobby, challenges, the queue,
    /// watching, and importing a finished game into the local history.
    Online(online::OnlineArgs),
    /// Run Parlor online's server: Nocca Nocca between named players over WebSockets (Ctrl-C stops it).
    #[cfg_attr(
        not(feature = "server"),
        command(
            about = "Run Parlor online's server: not in this build (`cargo install parlor --features server`, or \
                     `cargo install parlor-server`)"
        )
    )]
    Serve(serve::ServeArgs),
}

/// Output format shared by the analysis commands.
#[derive(Debug, Args, Clone, Copy)]
pub struct JsonFlag {
    /// Print one JSON object on stdout instead of a readable line.
    #[arg(long)]
    pub json: bool,
}

/// The whole command line: the general commands, then one command for each of `games`, in menu order.
pub fn command(games: &[&'static dyn CliLaunch]) -> clap::Command {
    let any: Vec<&dyn crate::mid::AnyGame> = games.iter().map(|&g| g as _).collect();
    let mut cmd = Cli::command().long_version(version::long(&any));
    for (i, g) in games.iter().enumerate() {
        cmd = cmd.subcommand(g.command().display_order(i));
    }
    let ids = games.iter().map(|g| g.id()).collect();
    values::with_values(cmd, &values::game_ids(ids))
}

/// What the command line asks for.
pub enum Parsed {
    /// A game's command, with its matches.
    Game(&'static dyn CliLaunch, clap::ArgMatches, Global),
    /// A general command, or the menu.
    General(Cli),
}

/// Parses the command line, whose game commands are those of `games` (exits with clap's message on a bad one, as
/// clap does).
pub fn parse_from<I, T>(args: I, games: &[&'static dyn CliLaunch]) -> Parsed
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let matches = command(games).get_matches_from(args);
    if let Some((name, sub)) = matches.subcommand()
        && let Some(g) = crate::mid::find(games, name)
    {
        let global = Global::from_arg_matches(&matches).unwrap_or_default();
        return Parsed::Game(g, sub.clone(), global);
    }
    match Cli::from_arg_matches(&matches) {
        Ok(cli) => Parsed::General(cli),
        Err(e) => e.exit(),
    }
}

/// A progress bar of `len` steps drawn with `template` on a terminal's standard error; elsewhere a hidden one.
pub fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let b = indicatif::ProgressBar::new(len);
        b.set_style(
            indicatif::ProgressStyle::with_template(template)
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    }
}
