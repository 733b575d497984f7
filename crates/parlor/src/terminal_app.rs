//! The terminal application: the command line's commands and the menu, run with the environment they share
//! ([`Env`]: data and settings folders, plain or full screen, colours). The program's top: it alone reads the
//! registry and hands the games down.

pub use crate::cli::env::Env;

use crate::{cli, menu_view, online, paths, plain, registry, settings, storage, tui};
use anyhow::Result;
use cli::{Cli, Command, Parsed};
use std::io::Write;

/// Runs Parlor with the process's arguments. Returns the exit code.
pub fn main_entry() -> std::process::ExitCode {
    let result = match cli::parse_from(std::env::args_os(), &registry::cli()) {
        Parsed::Game(game, matches, global) => {
            let env = Env::new(global, registry::tui());
            // One menu everywhere: the menu `q` goes back to from a game opened by its command has the Online
            // entry too.
            online::offer_in_menu(&env, registry::online());
            game.run(&matches, &env)
        }
        Parsed::General(cli) => run(cli),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        // The reader went away (`parlor man | head -3`): it has what it wanted, so Parlor ends quietly and
        // successfully, as a command whose output was all read would.
        Err(e) if closed_pipe(&e) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "parlor: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Whether `e` comes from writing to a pipe (or socket) whose reader has closed it.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Runs a command that reports on the database (history, scores, statistics) to standard output.
fn report(
    env: &Env,
    games: &[&'static dyn crate::mid::AnyGame],
    command: impl FnOnce(cli::records::Report) -> Result<()>,
) -> Result<()> {
    let store = env.open_store_noting()?;
    let out = &mut std::io::stdout().lock();
    command(cli::records::Report {
        games,
        store: &store,
        out,
    })
}

/// The store, finished game `id` and its game, for a command that `done` it (`reviewed`) and needs to `verb` its
/// game (`review`): why not, when the game is not there, cannot be read, or is of a game this Parlor lacks.
fn finished(
    env: &Env,
    id: i64,
    done: &str,
    verb: &str,
) -> Result<(
    storage::Store,
    storage::GameRecord,
    &'static dyn registry::Registered,
)> {
    let store = env.open_store_noting()?;
    let record = storage::Storage::game(&store, id)
        .map_err(|e| anyhow::anyhow!("game #{id} cannot be {done}: {e:#}"))?
        .ok_or_else(|| cli::review::not_found(id))?;
    let game = registry::find(&record.game)
        .ok_or_else(|| anyhow::anyhow!("this Parlor cannot {verb} a game of {}", record.game))?;
    Ok((store, record, game))
}

/// Runs one of the general commands, or the menu.
pub fn run(cli: Cli) -> Result<()> {
    let env = Env::new(cli.global.clone(), registry::tui());
    let games = env.settings.catalog().games();
    match &cli.command {
        Some(Command::History(args)) => report(&env, games, |r| cli::records::history(args, r)),
        Some(Command::Scores(args)) => report(&env, games, |r| cli::records::scores(args, r)),
        Some(Command::Stats(args)) => report(&env, games, |r| cli::stats::run(args, r)),
        Some(Command::Replay(args)) => {
            let store = env.open_store_noting()?;
            let record = cli::records::find(&store, args.id)?;
            let game = registry::find(&record.game).ok_or_else(|| {
                anyhow::anyhow!("this Parlor cannot replay a game of {}", record.game)
            })?;
            if env.plain {
                env.with_plain_io(|io| game.print_replay(io, &record, args.delay_ms))
            } else {
                let view =
                    tui::launch::Launch::replay(game, &record).map_err(anyhow::Error::msg)?;
                env.run_tui(vec![view], store)
            }
        }
        Some(Command::Review(args)) => {
            let (store, record, game) = finished(&env, args.id, "reviewed", "review")?;
            let review = cli::review::review_of(&store, game, &record, &env.contexts)?;
            cli::review::print(&review, args.json.json, &mut std::io::stdout().lock())
        }
        Some(Command::Practise(args)) => {
            let (store, record, game) = finished(&env, args.id, "practised", "play")?;
            let number = usize::try_from(args.r#move).unwrap_or(usize::MAX);
            cli::play::CliLaunch::practise(game, &env, store, &record, number)
        }
        Some(Command::Serve(args)) => cli::serve::run(args, &env.global),
        Some(Command::Online(args)) => online::run(args, &env, registry::online()),
        Some(Command::Export(args)) => cli::transfer::export(args, &env),
        Some(Command::Import(args)) => cli::transfer::import(args, &env),
        Some(Command::Completions(args)) => {
            cli::completions::run(args, command(), &mut std::io::stdout().lock())
        }
        Some(Command::Man(args)) => {
            cli::man::run(args, &registry::cli(), &mut std::io::stdout().lock())
        }
        Some(Command::Settings) => {
            let mut err = std::io::stderr().lock();
            for p in &env.settings_problems {
                writeln!(err, "parlor: note: {p}")?;
            }
            let mut out = std::io::stdout().lock();
            match &env.config_dir {
                Some(dir) => writeln!(out, "# {}", dir.join(settings::file::FILE).display())?,
                None => writeln!(out, "# no configuration directory: pass --config-dir")?,
            }
            write!(out, "{}", settings::file::render(&env.settings))?;
            Ok(())
        }
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
            let notice = match (opened.notice, env.settings_notice()) {
                (Some(a), Some(b)) => Some(format!("{a} {b}")),
                (a, b) => a.or(b),
            };
            if env.plain {
                let games = registry::plain();
                env.with_plain_io(|io| plain::menu(io, &mut store, &games, notice))
            } else {
                online::offer_in_menu(&env, registry::online());
                env.run_tui(vec![menu_view(notice)], store)
            }
        }
    }
}

/// The whole command line, with every registered game's command.
pub fn command() -> clap::Command {
    cli::command(&registry::cli())
}
