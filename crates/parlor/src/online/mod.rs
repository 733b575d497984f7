//! `parlor online`: the terminal client of Parlor online (issue 28). Nocca Nocca against people on a `parlor serve`
//! server, full screen ([`screen`]) or line by line ([`plain`]), over one connection kept on a thread of its own
//! ([`link`]) that reconnects and takes every game up where it was. What the client knows is a [`model::Model`]
//! both front ends share; the player's name and token are kept in the configuration directory ([`identity`]); a
//! finished game can be added to the local history ([`import`]), replayable like a local game.

pub mod identity;
pub mod import;
pub mod link;
pub mod model;
pub mod plain;
pub mod screen;

use crate::cli::env::Env;
use crate::cli::online::OnlineArgs;
use anyhow::{Result, anyhow};

/// Runs `parlor online`.
pub fn run(args: &OnlineArgs, env: &Env) -> Result<()> {
    let dir = env.config_dir.clone().ok_or_else(|| {
        anyhow!("no configuration directory for the player's name and token: pass --config-dir")
    })?;
    let me = identity::load_or_create(&dir, args.name.as_deref())?;
    if let Some(game) = args.import {
        let mut store = env.open_store_noting()?;
        let line = import::fetch_and_import(&args.url, &me, game, &mut store)?;
        println!("{line}");
        return Ok(());
    }
    if env.plain {
        plain::run(&args.url, me, env)
    } else {
        screen::run(&args.url, me, env)
    }
}
