//! The server alone, `parlor-server [--listen ADDR] [--data-dir DIR] [--log-file FILE | --no-log-file]
//! [--heartbeat SECS]`: the same [`parlor_server::serve_with`] that `parlor serve` runs, without the rest of Parlor (the restart tests kill it
//! with SIGKILL as a real process).

use anyhow::{Context, Result, bail};
use std::net::SocketAddr;
use std::path::PathBuf;

fn main() -> Result<()> {
    let mut listen: SocketAddr = parlor_server::DEFAULT_LISTEN
        .parse()
        .context("the default address")?;
    let mut data_dir = PathBuf::from(".");
    // None: the default, `server.log` in the data directory; Some(None): no log file.
    let mut log_file: Option<Option<PathBuf>> = None;
    let mut config = parlor_server::Config::default();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--listen" => {
                let value = args.next().context("--listen needs ADDR")?;
                listen = value
                    .parse()
                    .with_context(|| format!("--listen {value:?}"))?;
            }
            "--data-dir" => data_dir = args.next().context("--data-dir needs DIR")?.into(),
            "--log-file" => {
                log_file = Some(Some(args.next().context("--log-file needs FILE")?.into()))
            }
            "--no-log-file" => log_file = Some(None),
            "--heartbeat" => {
                let value = args.next().context("--heartbeat needs SECS")?;
                config.heartbeat = parlor_server::parse_heartbeat(&value)
                    .map_err(|e| anyhow::anyhow!("--heartbeat: {e}"))?;
            }
            other => {
                bail!(
                    "unknown argument {other:?}: parlor-server [--listen ADDR] [--data-dir DIR] [--log-file FILE | --no-log-file] [--heartbeat SECS]"
                )
            }
        }
    }
    let log_file = log_file.unwrap_or_else(|| Some(data_dir.join(parlor_server::log::LOG_FILE)));
    parlor_server::serve_with(listen, &data_dir, log_file.as_deref(), config)
}
