//! `parlor serve`: Parlor online's server (the `parlor-server` crate), Nocca Nocca between named players over
//! WebSockets, its database (`server.db`) in the data directory.
//!
//! The server and its async stack (axum, tokio, tower) are built only with the `server` feature, so that a player's
//! `cargo install parlor` builds none of them. Without it `parlor serve` takes any arguments and says how to get the
//! server ([`HOW_TO_GET`]).

use super::Global;
use anyhow::Result;
use clap::Args;

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

/// `parlor serve`: the server's options ([`parlor_server::options::ServeOptions`]), each also read from an
/// environment variable (`PARLOR_LISTEN`, `PARLOR_HEARTBEAT`, ...; the data directory is Parlor's own,
/// `--data-dir` or `PARLOR_DATA_DIR`).
#[cfg(feature = "server")]
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The server's options.
    #[command(flatten)]
    pub options: parlor_server::options::ServeOptions,
}

/// Serves until Ctrl-C or SIGTERM, with the database in the data directory (`--data-dir`, else Parlor's). A bad
/// value in one of the server's environment variables is refused with the variable named.
#[cfg(feature = "server")]
pub fn run(args: &ServeArgs, global: &Global) -> Result<()> {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    parlor_server::options::check_env(&argv).map_err(anyhow::Error::msg)?;
    let dir = crate::paths::data_dir(global.data_dir.as_deref())?;
    Ok(args.options.serve(&dir)?)
}
