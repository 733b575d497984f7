//! The server alone, `parlor-server [--listen ADDR] [--data-dir DIR]`: the same [`parlor_server::serve`] that
//! `parlor serve` runs, without the rest of Parlor (the restart tests kill it with SIGKILL as a real process).

use anyhow::{Context, Result, bail};
use std::net::SocketAddr;
use std::path::PathBuf;

fn main() -> Result<()> {
    let mut listen: SocketAddr = parlor_server::DEFAULT_LISTEN
        .parse()
        .context("the default address")?;
    let mut data_dir = PathBuf::from(".");
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
            other => {
                bail!("unknown argument {other:?}: parlor-server [--listen ADDR] [--data-dir DIR]")
            }
        }
    }
    parlor_server::serve(listen, &data_dir)
}
