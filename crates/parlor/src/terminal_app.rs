//! The terminal application: the command line's commands, the environment they share (data and settings
//! folders, plain or full screen, colours), and the full-screen loop on a real terminal.

use crate::cli::{self, Cli, Command, Global, Parsed};
use crate::storage::{self, Store};
use crate::tui::theme::Theme;
use crate::tui::{self, View};
use crate::{games, menu_view, paths, plain, registry, settings};
use anyhow::Result;
use std::io::{IsTerminal, Write};

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
    /// The player's settings (defaults where the file has none or a mistake).
    pub settings: settings::Settings,
    /// The mistakes found in the settings file, one line each, naming the line.
    pub settings_problems: Vec<String>,
    /// Where the settings file lives (`None`: no home directory and no `--config-dir`).
    pub config_dir: Option<std::path::PathBuf>,
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
        let config_dir = paths::config_dir(global.config_dir.as_deref()).ok();
        let loaded = match &config_dir {
            Some(dir) => settings::file::load(dir),
            None => settings::file::Loaded {
                settings: settings::Settings::default(),
                problems: Vec::new(),
            },
        };
        let name = global.theme.unwrap_or_else(|| loaded.settings.theme());
        let theme = Theme::from_env(name, global.no_color);
        // Nocca's solved tables and Mastermind's optimal trees live beside the database.
        if let Ok(dir) = paths::data_dir(global.data_dir.as_deref()) {
            games::nocca::tables::use_data_dir(&dir);
            games::mastermind::trees::use_data_dir(&dir);
        }
        Env {
            global,
            plain,
            theme,
            settings: loaded.settings,
            settings_problems: loaded.problems,
            config_dir,
        }
    }

    /// The settings file's mistakes as one notice (for the menu or the first line of plain mode), if any.
    pub fn settings_notice(&self) -> Option<String> {
        (!self.settings_problems.is_empty()).then(|| {
            format!(
                "Settings: {} (the rest of the file is used).",
                self.settings_problems.join("; ")
            )
        })
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
        let keeper = self
            .config_dir
            .clone()
            .map(|dir| Box::new(settings::file::FileKeeper::new(dir)) as Box<dyn settings::Keeper>);
        app.set_settings(self.settings.clone(), keeper);
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
        io.settings = self.settings.clone();
        io.config_dir = self.config_dir.clone();
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
        Some(Command::Stats(args)) => cli::stats::run(
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
                env.run_tui(vec![menu_view(notice)], store)
            }
        }
    }
}
