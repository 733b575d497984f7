//! Parlor's front end: the command line, the full-screen interface, the plain mode and the storage behind them.
//! The games themselves live in their own crates (`twenty48`, `mastermind`, `nocca`), free of any terminal code.

#![warn(missing_docs)]

pub mod cli;
pub mod games;
pub mod paths;
pub mod plain;
pub mod rules_text;
pub mod storage;
pub mod tui;

use anyhow::Result;
use clap::Parser;
use cli::{Cli, Command};
use std::io::{IsTerminal, Write};
use storage::Store;
use tui::theme::Theme;
use tui::{Ctx, View};

/// Runs Parlor with the process's arguments. Returns the exit code.
pub fn main_entry() -> std::process::ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "parlor: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// What every command needs from the command line: where the data is, plain or full screen, colours.
pub struct Env {
    /// The parsed command line.
    pub cli: Cli,
    /// Whether to use plain mode (asked for, or stdin/stdout not a terminal).
    pub plain: bool,
    /// The palette.
    pub theme: Theme,
}

impl Env {
    /// Opens the database; a notice (a damaged file moved aside, say) is for the caller to show.
    pub fn open_store(&self) -> Result<storage::Opened> {
        let dir = paths::data_dir(self.cli.data_dir.as_deref())?;
        Store::open(&dir)
    }

    /// Opens the database for a command that prints and exits: a notice goes to stderr.
    pub fn open_store_noting(&self) -> Result<Store> {
        let opened = self.open_store()?;
        if let Some(n) = opened.notice {
            let _ = writeln!(std::io::stderr(), "parlor: note: {n}");
        }
        Ok(opened.store)
    }

    /// Runs the full-screen interface on `stack` (the last screen on top) until the player quits.
    pub fn run_tui(&self, stack: Vec<Box<dyn View>>, store: Store) -> Result<()> {
        let mut screen = tui::terminal::Screen::enter(!self.cli.no_mouse)?;
        let mut app = tui::app::App::with_stack(stack, store, self.theme, None);
        let result = app.run(&mut screen.terminal, &screen.stop);
        drop(screen);
        result
    }

    /// Runs `f` with plain-mode I/O on stdin and stdout.
    pub fn with_plain_io<T>(&self, f: impl FnOnce(&mut plain::Io) -> Result<T>) -> Result<T> {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let mut io = plain::Io::new(&mut input, &mut out);
        f(&mut io)
    }
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let plain = cli.plain || !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal();
    let theme = Theme::from_env(cli.no_color);
    let env = Env { cli, plain, theme };
    match &env.cli.command {
        Some(Command::Twenty48(cmd)) => cli::twenty48::run_command(cmd, &env),
        Some(Command::Mastermind(cmd)) => cli::mastermind::run(cmd, &env),
        Some(Command::Nocca(cmd)) => cli::nocca::run(cmd, &env),
        Some(Command::History(args)) => cli::records::history(
            args,
            &env.open_store_noting()?,
            &mut std::io::stdout().lock(),
        ),
        Some(Command::Scores(args)) => cli::records::scores(
            args,
            &env.open_store_noting()?,
            &mut std::io::stdout().lock(),
        ),
        Some(Command::Replay(args)) => {
            let store = env.open_store_noting()?;
            let record = cli::records::find(&store, args.id)?;
            if env.plain {
                env.with_plain_io(|io| plain::replay(io, &record, args.delay_ms))
            } else {
                let view = tui::records::replay_view(&record)?;
                env.run_tui(vec![view], store)
            }
        }
        Some(Command::Completions(args)) => {
            cli::completions::run(args, &mut std::io::stdout().lock())
        }
        Some(Command::Man(args)) => cli::man::run(args, &mut std::io::stdout().lock()),
        Some(Command::DataDir) => {
            let dir = paths::data_dir(env.cli.data_dir.as_deref())?;
            writeln!(
                std::io::stdout().lock(),
                "{}",
                dir.join(storage::DB_FILE).display()
            )?;
            Ok(())
        }
        None => {
            let opened = env.open_store()?;
            let mut store = opened.store;
            if env.plain {
                env.with_plain_io(|io| plain::menu(io, &mut store, opened.notice))
            } else {
                env.run_tui(vec![menu_view(opened.notice)], store)
            }
        }
    }
}

/// The main menu screen, with an optional notice at the top.
pub fn menu_view(notice: Option<String>) -> Box<dyn View> {
    Box::new(tui::menu::MenuView::new(notice))
}

/// Builds a context for tests and tools that drive views without a terminal.
pub fn test_ctx(store: &mut Store) -> Ctx<'_> {
    Ctx {
        store,
        theme: Theme { color: false },
        seed: None,
    }
}
