//! `parlor serve`: Parlor online's server (the `parlor-server` crate), Nocca Nocca between named players over
//! WebSockets, its database (`server.db`) in the data directory.

use super::Global;
use anyhow::Result;
use clap::Args;
use std::net::SocketAddr;

/// `parlor serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The address to listen on, HOST:PORT (port 0 takes a free port; the address listened on is printed).
    #[arg(long, value_name = "ADDR", default_value = parlor_server::DEFAULT_LISTEN)]
    pub listen: SocketAddr,
}

/// Serves until Ctrl-C or SIGTERM, with the database in the data directory (`--data-dir`, else Parlor's).
pub fn run(args: &ServeArgs, global: &Global) -> Result<()> {
    let dir = crate::paths::data_dir(global.data_dir.as_deref())?;
    parlor_server::serve(args.listen, &dir)
}
