//! What every command needs from the command line: where the data is, plain or full screen, colours, settings, and
//! the games (handed over by the program's top).

use super::Global;
use crate::mid::Contexts;
use crate::tui::View;
use crate::tui::launch::Launch;
use crate::tui::theme::Theme;
use crate::{paths, plain, settings, storage, tui};
use anyhow::Result;
use std::io::{IsTerminal, Write};
use storage::Store;

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
    /// The games, as the full screen reaches them (handed over by the program's top, from the registry).
    pub games: Vec<&'static dyn Launch>,
    /// Every game's context for this run (made from the data directory), which the sessions play in.
    pub contexts: Contexts,
}

impl Env {
    /// The environment for these options and these games.
    pub fn new(global: Global, games: Vec<&'static dyn Launch>) -> Env {
        // A terminal that cannot move its cursor (TERM=dumb) gets plain mode, as a pipe does.
        let dumb = std::env::var_os("TERM").is_some_and(|t| t == "dumb");
        let plain = global.plain
            || dumb
            || !std::io::stdin().is_terminal()
            || !std::io::stdout().is_terminal();
        let config_dir = paths::config_dir(global.config_dir.as_deref()).ok();
        // What the games keep (solved tables, strategy trees) lives beside the database.
        let data_dir = paths::data_dir(global.data_dir.as_deref()).ok();
        let contexts = Contexts::new(&games, data_dir.as_deref());
        let catalog = crate::tui::launch::catalog(&games).with_contexts(contexts.clone());
        let loaded = match &config_dir {
            Some(dir) => settings::file::load(dir, &catalog),
            None => settings::file::Loaded {
                settings: settings::Settings::new(&catalog),
                problems: Vec::new(),
            },
        };
        let name = global.theme.unwrap_or_else(|| loaded.settings.theme());
        let theme = Theme::from_env(name, global.no_color);
        Env {
            global,
            plain,
            theme,
            settings: loaded.settings,
            settings_problems: loaded.problems,
            config_dir,
            games,
            contexts,
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
        let opened = Store::open(&dir)?;
        Ok(storage::Opened {
            store: opened.store.knowing(self.games.iter().map(|g| g.id())),
            notice: opened.notice,
        })
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
        let mut app = tui::app::App::with_stack(stack, store, self.theme, self.games.clone());
        let keeper = self
            .config_dir
            .clone()
            .map(|dir| Box::new(settings::file::FileKeeper::new(dir)) as Box<dyn settings::Keeper>);
        app.set_settings(self.settings.clone(), keeper);
        app.set_animations(!self.global.no_animation);
        app.set_contexts(self.contexts.clone());
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
        io.contexts = self.contexts.clone();
        f(&mut io)
    }
}
