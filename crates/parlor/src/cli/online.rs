//! `parlor online`'s command line: the server to connect to and the name to play under. The client itself is the
//! `online` room, run by the program's top.

use clap::Args;
use std::path::PathBuf;

/// The server `parlor online` connects to when none is given (`parlor serve`'s default address).
pub const DEFAULT_URL: &str = "ws://127.0.0.1:7878";

/// `parlor online`.
#[derive(Debug, Args)]
pub struct OnlineArgs {
    /// The server's address: `ws://HOST:PORT` (a `parlor serve`), or `wss://HOST[:PORT]` for one behind a TLS
    /// reverse proxy (its certificate checked against the web's usual roots, and --ca-cert's).
    #[arg(value_name = "URL", default_value = DEFAULT_URL, value_parser = server_url)]
    pub url: String,
    /// Trust the CA certificates of FILE (PEM) for a wss:// server too, besides the web's usual roots: a server
    /// whose certificate is signed by a private CA (read when `parlor online` starts; a file without a usable
    /// certificate stops it there).
    #[arg(long, value_name = "FILE")]
    pub ca_cert: Option<PathBuf>,
    /// The name to play under (kept with the player's token in the configuration directory; the first run without
    /// it takes the login name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Add the finished online game GAME (by its server number) to the local history, replayable like a local
    /// game, then quit.
    #[arg(long, value_name = "GAME")]
    pub import: Option<u64>,
}

/// Checks a server address as the command line is read: ws:// or wss://, a host, a port if any.
fn server_url(url: &str) -> Result<String, String> {
    parlor_online::address::target(url)
        .map(|_| url.to_string())
        .map_err(|e| e.to_string())
}
