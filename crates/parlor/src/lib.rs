//! Parlor's front end: the command line, the full-screen interface, the plain mode and the storage behind them.
//! The games themselves live in their own crates (`twenty48`, `mastermind`, `nocca`), free of any terminal code.

#![warn(missing_docs)]

pub mod cli;
pub mod games;
pub mod paths;
pub mod plain;
pub mod registry;
pub mod storage;
pub mod tui;

use anyhow::Result;
use cli::{Cli, Command, Global, Parsed};
use std::io::{IsTerminal, Write};
use storage::Store;
use tui::View;
use tui::theme::Theme;

/// Runs Parlor with the process's arguments. Returns the exit code.
pub fn main_entry() -> std::process::ExitCode {
    let result = match cli::parse_from(std::env::args_os()) {
        Parsed::Game(game, matches, global) => {
            let env = Env::new(global);
            game.run(&matches, &env)
        }
        Parsed::General(cli) => run(cli),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "parlor: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// What every command needs from the command line: where the data is, plain or full screen, colours.
pub struct Env {
    /// The options every command takes.
    pub global: Global,
    /// Whether to use plain mode (asked for, or stdin/stdout not a terminal).
    pub plain: bool,
    /// The palette.
    pub theme: Theme,
}

impl Env {
    /// The environment for these options.
    pub fn new(global: Global) -> Env {
        // A terminal that cannot move its cursor (TERM=dumb) gets plain mode, as a pipe does.
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let plain = global.plain
            || dumb
            || !std::io::stdin().is_terminal()
            || !std::io::stdout().is_terminal();
        let theme = Theme::from_env(global.no_color);
        Env {
            global,
            plain,
            theme,
        }
    }

    /// Opens the database; a notice (a damaged file moved aside, say) is for the caller to show.
    pub fn open_store(&self) -> Result<storage::Opened> {
        let dir = paths::data_dir(self.global.data_dir.as_deref())?;
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
        let mut screen = tui::terminal::Screen::enter(!self.global.no_mouse)?;
        let mut app = tui::app::App::with_stack(stack, store, self.theme, registry::tui());
        app.set_animations(!self.global.no_animation);
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

/// Runs one of the general commands, or the menu.
pub fn run(cli: Cli) -> Result<()> {
    let env = Env::new(cli.global.clone());
    match &cli.command {
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
            let game = registry::find(&record.game).ok_or_else(|| {
                anyhow::anyhow!("this Parlor cannot replay a game of {}", record.game)
            })?;
            if env.plain {
                env.with_plain_io(|io| game.print_replay(io, &record, args.delay_ms))
            } else {
                let view = tui::game::Launch::replay(game, &record).map_err(anyhow::Error::msg)?;
                env.run_tui(vec![view], store)
            }
        }
        Some(Command::Completions(args)) => {
            cli::completions::run(args, &mut std::io::stdout().lock())
        }
        Some(Command::Man(args)) => cli::man::run(args, &mut std::io::stdout().lock()),
        Some(Command::DataDir) => {
            let dir = paths::data_dir(env.global.data_dir.as_deref())?;
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
                let games = registry::plain();
                env.with_plain_io(|io| plain::menu(io, &mut store, &games, opened.notice))
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
