//! Parlor online's client: the rooms' game against people on a `parlor serve` server, and the daily challenges
//! (each reached through the registry's [`Played`](crate::tui::room::Played), never by name). The core of it builds
//! for every front end: what the client knows ([`model::Model`]), the connection protocol as a sans-I/O state
//! machine ([`conn::Conn`]: hello, resume after the last event, acknowledgements, the wait between tries), and the
//! full screen ([`screen`]) over a [`screen::Wire`], the platform's socket. The terminal (`parlor online`) adds its
//! socket on a thread of its own ([`link`]), plain mode ([`plain`]), the name and token kept in the configuration
//! directory ([`identity`]), the menu's Online entry ([`offer_in_menu`]) and the import of a finished game into the
//! local history ([`import`]); the page (`parlor-web`) adds its `WebSocket` and keeps the name and token in the
//! browser. Both say when an opponent's connection drops and count its grace period down ([`away`]).

pub mod away;
pub mod conn;
pub mod connect;
pub mod identity;
pub mod import;
#[cfg(feature = "terminal")]
pub mod link;
pub mod model;
#[cfg(feature = "terminal")]
pub mod plain;
pub mod screen;
pub mod shown;
pub mod text;

#[cfg(feature = "terminal")]
pub use terminal::{offer_in_menu, run};

#[cfg(feature = "terminal")]
mod terminal {
    use super::identity::{self, Identity};
    use super::link::{self, Down, Up};
    use super::screen::{OnlineView, Wire};
    use super::{import, plain};
    use crate::cli::env::Env;
    use crate::cli::online::OnlineArgs;
    use crate::tui::room::Played;
    use anyhow::{Result, anyhow};
    use std::sync::mpsc::{Receiver, Sender};

    /// Runs `parlor online`, of the games `played`.
    pub fn run(args: &OnlineArgs, env: &Env, played: Played) -> Result<()> {
        let dir = env.config_dir.clone().ok_or_else(|| {
            anyhow!("no configuration directory for the player's name and token: pass --config-dir")
        })?;
        if let Some(file) = &args.ca_cert {
            link::trust(link::read_ca_file(file).map_err(|e| anyhow!(e))?)
                .map_err(|e| anyhow!(e))?;
        }
        let me = identity::load_or_create(&dir, args.name.as_deref())?;
        if let Some(game) = args.import {
            let mut store = env.open_store_noting()?;
            if me.token.is_empty() {
                return Err(anyhow!(
                    "{} has not played on a server yet (no token): there is no game of theirs to import",
                    me.name
                ));
            }
            let line = import::fetch_and_import(played.room, &args.url, &me, game, &mut store)?;
            println!("{line}");
            return Ok(());
        }
        if env.plain {
            plain::run(&args.url, me, env, played)
        } else {
            screen(&args.url, me, env, played)
        }
    }

    /// The link thread's channels, as the screen's wire.
    struct Channels {
        up: Sender<Up>,
        rx: Receiver<Down>,
    }

    impl Wire for Channels {
        fn up(&mut self, up: Up) {
            let _ = self.up.send(up);
        }

        fn down(&mut self) -> Vec<Down> {
            self.rx.try_iter().collect()
        }
    }

    /// The configuration directory the menu's Online entry keeps the name, its token and the server in (set once,
    /// by [`offer_in_menu`]; none without one).
    static MENU_CONFIG: std::sync::OnceLock<Option<std::path::PathBuf>> =
        std::sync::OnceLock::new();

    /// The games Parlor online plays, as the menu's Online entry plays them (set once, by [`offer_in_menu`]).
    static MENU_PLAYED: std::sync::OnceLock<Played> = std::sync::OnceLock::new();

    /// Offers Parlor online of the games `played` in the full-screen menu: its Online entry asks the server and the
    /// name (prefilled with the ones kept in `env`'s configuration directory, else `parlor online`'s defaults),
    /// connects, and leaving the lobby comes back to the menu.
    pub fn offer_in_menu(env: &Env, played: Played) {
        let _ = MENU_CONFIG.set(env.config_dir.clone());
        let _ = MENU_PLAYED.set(played);
        crate::tui::menu::offer_online(open_from_menu, played.room.title());
    }

    /// The menu's Online entry: the question of the server and the name.
    fn open_from_menu() -> Box<dyn crate::tui::View> {
        let dir = MENU_CONFIG.get().cloned().flatten();
        let server = dir
            .as_deref()
            .and_then(identity::kept_server)
            .unwrap_or_else(|| crate::cli::online::DEFAULT_URL.to_string());
        let name = dir
            .as_deref()
            .and_then(identity::kept)
            .map_or_else(identity::offered_name, |id| id.name);
        let played = MENU_PLAYED.get().copied();
        let title = played.map_or("games", |p| p.room.title());
        let connect = move |server: &str, name: &str| match played {
            Some(played) => from_menu(dir.as_deref(), server, name, played),
            None => Err("Parlor online was not offered in the menu".to_string()),
        };
        Box::new(
            super::connect::ConnectView::new(&server, &name, title, Box::new(connect))
                .kept_in("the configuration directory"),
        )
    }

    /// Connects from the menu to `server` as `name`, the identity and the server kept in `dir`: the online screen,
    /// or why not.
    fn from_menu(
        dir: Option<&std::path::Path>,
        server: &str,
        name: &str,
        played: Played,
    ) -> Result<OnlineView, String> {
        parlor_online::address::target(server).map_err(|e| e.to_string())?;
        let dir = dir.ok_or(
            "no configuration directory for the player's name and token: start Parlor with --config-dir",
        )?;
        let me = identity::load_or_create(dir, Some(name)).map_err(|e| format!("{e:#}"))?;
        identity::keep_server(dir, server).map_err(|e| format!("{e:#}"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        let keep = identity::keeper(Some(dir.to_path_buf()));
        let up = link::start(
            server,
            me.clone(),
            played.dailies.iter().map(|d| d.fresh()).collect(),
            keep,
            Box::new(move |d| tx.send(d).is_ok()),
        );
        Ok(
            OnlineView::new(server, &me.name, played, Box::new(Channels { up, rx }))
                .leaving_to_menu(),
        )
    }

    /// Runs the full screen until the player quits.
    fn screen(url: &str, me: Identity, env: &Env, played: Played) -> Result<()> {
        let opened = env.open_store()?;
        let (tx, rx) = std::sync::mpsc::channel();
        let keep = identity::keeper(env.config_dir.clone());
        let dailies = played.dailies.iter().map(|d| d.fresh()).collect();
        let up = link::start(
            url,
            me.clone(),
            dailies,
            keep,
            Box::new(move |d| tx.send(d).is_ok()),
        );
        // Finished games go into the store the screens share (`i`): the history shows them at once.
        let view = OnlineView::new(url, &me.name, played, Box::new(Channels { up, rx }));
        env.run_tui(vec![Box::new(view)], opened.store)
    }
}
