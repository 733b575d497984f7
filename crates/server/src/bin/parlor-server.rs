//! The server alone, `parlor-server [--listen ADDR] [--data-dir DIR] [--log-file FILE | --no-log-file]
//! [--heartbeat SECS]`: the same [`parlor_server::serve_with`] that `parlor serve` runs, without the rest of Parlor
//! (the restart tests kill it with SIGKILL as a real process).

use clap::Parser;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Parlor online's server alone: Nocca Nocca between named players, rated, and the daily challenges.
#[derive(Parser, Debug)]
#[command(name = "parlor-server", version)]
struct Args {
    /// The address to listen on (port 0 takes a free port).
    #[arg(long, value_name = "ADDR", default_value = parlor_server::DEFAULT_LISTEN)]
    listen: SocketAddr,
    /// Where the database (and, unless told otherwise, the log) is kept.
    #[arg(long, value_name = "DIR", default_value = ".")]
    data_dir: PathBuf,
    /// The log file (else `server.log` in the data directory).
    #[arg(long, value_name = "FILE", conflicts_with = "no_log_file")]
    log_file: Option<PathBuf>,
    /// Log to stderr only.
    #[arg(long)]
    no_log_file: bool,
    /// How often each connection is pinged, in whole seconds (1 to 3600).
    #[arg(long, value_name = "SECS", default_value = "15", value_parser = parlor_server::parse_heartbeat)]
    heartbeat: Duration,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let log_file = if args.no_log_file {
        None
    } else {
        Some(
            args.log_file
                .unwrap_or_else(|| args.data_dir.join(parlor_server::log::LOG_FILE)),
        )
    };
    let config = parlor_server::Config {
        heartbeat: args.heartbeat,
        ..parlor_server::Config::default()
    };
    match parlor_server::serve_with(args.listen, &args.data_dir, log_file.as_deref(), config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parlor-server: {e}");
            ExitCode::FAILURE
        }
    }
}
