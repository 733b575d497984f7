//! `parlor online`'s command line: the server to connect to and the name to play under. The client itself is the
//! `online` room, run by the program's top.

use clap::Args;

/// The server `parlor online` connects to when none is given (`parlor serve`'s default address).
pub const DEFAULT_URL: &str = "ws://127.0.0.1:7878";

/// `parlor online`.
#[derive(Debug, Args)]
pub struct OnlineArgs {
    /// The server's address, ws://HOST:PORT (a `parlor serve`; for TLS, a reverse proxy in front of it).
    #[arg(value_name = "URL", default_value = DEFAULT_URL)]
    pub url: String,
    /// The name to play under (kept with the player's token in the configuration directory; the first run without
    /// it takes the login name).
    #[arg(long, value_name = "NAME")]
    pub name: Option<String>,
    /// Add the finished online game GAME (by its server number) to the local history, replayable like a local
    /// game, then quit.
    #[arg(long, value_name = "GAME")]
    pub import: Option<u64>,
}
