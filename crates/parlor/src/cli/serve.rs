//! `parlor serve`: Parlor online's server (the `parlor-server` crate), Nocca Nocca between named players over
//! WebSockets, its database (`server.db`) in the data directory.
//!
//! The server and its async stack (axum, tokio, tower) are built only with the `server` feature, so that a player's
//! `cargo install parlor` builds none of them. Without it `parlor serve` takes any arguments and says how to get the
//! server ([`HOW_TO_GET`]).

use super::Global;
use anyhow::Result;
use clap::Args;
#[cfg(feature = "server")]
use std::net::SocketAddr;
#[cfg(feature = "server")]
use std::path::PathBuf;

/// What `parlor serve` says in a build without the `server` feature.
pub const HOW_TO_GET: &str = "this parlor was built without the server (the `server` feature): install it with \
`cargo install --locked parlor --features server`, or the server alone with `cargo install --locked parlor-server`";

/// `parlor serve` in a build without the server: whatever follows is taken, and refused with [`HOW_TO_GET`].
#[cfg(not(feature = "server"))]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The server's options (see `parlor serve --help` in a build with the `server` feature).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "ARGS"
    )]
    pub args: Vec<std::ffi::OsString>,
}

/// Says how to get the server: this build has none.
#[cfg(not(feature = "server"))]
pub fn run(_args: &ServeArgs, _global: &Global) -> Result<()> {
    anyhow::bail!("{HOW_TO_GET}")
}

/// `parlor serve`.
#[cfg(feature = "server")]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on, HOST:PORT (port 0 takes a free port; the address listened on is printed).
    #[arg(long, value_name = "ADDR", default_value = parlor_server::DEFAULT_LISTEN)]
    pub listen: SocketAddr,
    /// Where to log as well as stderr (default: `server.log` in the data directory, rotated at 8 MiB).
    #[arg(long, value_name = "FILE", conflicts_with = "no_log_file")]
    pub log_file: Option<PathBuf>,
    /// Log to stderr only.
    #[arg(long)]
    pub no_log_file: bool,
    /// How often each connection is pinged, in seconds (1 to 3600); one silent for three of these while the server
    /// runs is taken as dropped.
    #[arg(long, value_name = "SECS", default_value = "15", value_parser = parlor_server::parse_heartbeat)]
    pub heartbeat: std::time::Duration,
}

/// Serves until Ctrl-C or SIGTERM, with the database in the data directory (`--data-dir`, else Parlor's).
#[cfg(feature = "server")]
pub fn run(args: &ServeArgs, global: &Global) -> Result<()> {
    let dir = crate::paths::data_dir(global.data_dir.as_deref())?;
    let log_file = if args.no_log_file {
        None
    } else {
        Some(
            args.log_file
                .clone()
                .unwrap_or_else(|| dir.join(parlor_server::log::LOG_FILE)),
        )
    };
    let config = parlor_server::Config {
        heartbeat: args.heartbeat,
        ..parlor_server::Config::default()
    };
    Ok(parlor_server::serve_with(
        args.listen,
        &dir,
        log_file.as_deref(),
        config,
    )?)
}
