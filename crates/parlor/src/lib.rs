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

fn open_store(cli: &Cli) -> Result<storage::Opened> {
    let dir = paths::data_dir(cli.data_dir.as_deref())?;
    Store::open(&dir)
}

/// Opens the store for a command that prints and exits: a notice goes to stderr.
fn open_store_noting(cli: &Cli) -> Result<Store> {
    let opened = open_store(cli)?;
    if let Some(n) = opened.notice {
        let _ = writeln!(std::io::stderr(), "parlor: note: {n}");
    }
    Ok(opened.store)
}

/// Runs one parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let stdout = std::io::stdout();
    let plain = cli.plain || !std::io::stdin().is_terminal() || !stdout.is_terminal();
    let theme = Theme::from_env(cli.no_color);
    match &cli.command {
        Some(Command::Twenty48(cmd)) => {
            if let Some(action) = &cmd.action {
                return cli::twenty48::run(action, &mut stdout.lock());
            }
            let options = cmd.play.options()?;
            let opened = open_store(&cli)?;
            let mut store = opened.store;
            // Without --seed, continue the latest game in progress of the same options, if any.
            let saved = if cmd.play.seed.is_none() {
                store
                    .unfinished(Some(games::twenty48::GAME))?
                    .into_iter()
                    .find(|u| u.variant == options.variant())
            } else {
                None
            };
            let session = match &saved {
                Some(u) => games::twenty48::Session::resume(u)?,
                None => games::twenty48::Session::new(
                    options,
                    cmd.play.seed.unwrap_or_else(games::fresh_seed),
                )?,
            };
            if plain {
                let stdin = std::io::stdin();
                let mut input = stdin.lock();
                let mut out = stdout.lock();
                let mut io = plain::Io::new(&mut input, &mut out);
                if let Some(n) = opened.notice {
                    io.say(format!("Note: {n}"))?;
                }
                if saved.is_some() {
                    io.say("Continuing your game in progress (r starts a new one).")?;
                }
                plain::twenty48::play(&mut io, session, &mut store)?;
                Ok(())
            } else {
                let mut session = session;
                session.refresh_best(&store);
                let view: Box<dyn View> = Box::new(tui::twenty48::Twenty48View::new(session));
                run_tui(&cli, vec![menu(opened.notice), view], store, theme, None)
            }
        }
        Some(Command::History(args)) => {
            cli::records::history(args, &open_store_noting(&cli)?, &mut stdout.lock())
        }
        Some(Command::Scores(args)) => {
            cli::records::scores(args, &open_store_noting(&cli)?, &mut stdout.lock())
        }
        Some(Command::Replay(args)) => {
            let store = open_store_noting(&cli)?;
            let record = cli::records::find(&store, args.id)?;
            if plain {
                let stdin = std::io::stdin();
                let mut input = stdin.lock();
                let mut out = stdout.lock();
                let mut io = plain::Io::new(&mut input, &mut out);
                match record.game.as_str() {
                    games::twenty48::GAME => {
                        plain::twenty48::replay(&mut io, &record, args.delay_ms)
                    }
                    other => {
                        anyhow::bail!("this version of Parlor cannot replay a game of {other}")
                    }
                }
            } else {
                let view = tui::records::replay_view(&record)?;
                run_tui(&cli, vec![view], store, theme, None)
            }
        }
        Some(Command::DataDir) => {
            let dir = paths::data_dir(cli.data_dir.as_deref())?;
            writeln!(stdout.lock(), "{}", dir.join(storage::DB_FILE).display())?;
            Ok(())
        }
        None => {
            let opened = open_store(&cli)?;
            let mut store = opened.store;
            if plain {
                let stdin = std::io::stdin();
                let mut input = stdin.lock();
                let mut out = stdout.lock();
                let mut io = plain::Io::new(&mut input, &mut out);
                plain::menu(&mut io, &mut store, opened.notice)
            } else {
                run_tui(&cli, vec![menu(opened.notice)], store, theme, None)
            }
        }
    }
}

fn menu(notice: Option<String>) -> Box<dyn View> {
    Box::new(tui::menu::MenuView::new(notice))
}

fn run_tui(
    cli: &Cli,
    stack: Vec<Box<dyn View>>,
    store: Store,
    theme: Theme,
    seed: Option<u64>,
) -> Result<()> {
    let mut screen = tui::terminal::Screen::enter(!cli.no_mouse)?;
    let mut app = tui::app::App::with_stack(stack, store, theme, seed);
    let result = app.run(&mut screen.terminal, &screen.stop);
    drop(screen);
    result
}

/// Builds a context for tests and tools that drive views without a terminal.
pub fn test_ctx(store: &mut Store) -> Ctx<'_> {
    Ctx {
        store,
        theme: Theme { color: false },
        seed: None,
    }
}
