//! The server alone, `parlor-server [--data-dir DIR] [OPTIONS]` (or `parlor-server --health-check` to ask a running
//! one): the same server that `parlor serve` runs
//! ([`parlor_server::options::ServeOptions`]), without the rest of Parlor (the restart tests kill it with SIGKILL as
//! a real process). Every option is also read from an environment variable (`PARLOR_LISTEN`, `PARLOR_DATA_DIR`,
//! ...; see `--help`); a flag wins over its variable.

use clap::Parser;
use parlor_server::options::{ENV_DATA_DIR, ServeOptions, check_env};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Parlor online's server alone: Nocca Nocca between named players, rated, and the daily challenges.
#[derive(Parser, Debug)]
#[command(name = "parlor-server", version)]
struct Args {
    /// Where the database (and, unless told otherwise, the log) is kept.
    #[arg(long, value_name = "DIR", env = ENV_DATA_DIR, default_value = ".")]
    data_dir: PathBuf,
    /// Asks the server listening on `--listen` (on loopback if that is every interface) for `/healthz` and exits:
    /// 0 if it is healthy, 1 if not (the container's HEALTHCHECK). Serves nothing.
    #[arg(long)]
    health_check: bool,
    #[command(flatten)]
    options: ServeOptions,
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    // Help and the version are shown whatever the variables hold.
    let asks_help = argv
        .iter()
        .skip(1)
        .any(|a| matches!(a.as_str(), "-h" | "--help" | "-V" | "--version"));
    if !asks_help && let Err(e) = check_env(&argv) {
        eprintln!("parlor-server: {e}");
        return ExitCode::from(2);
    }
    let args = Args::parse();
    if args.health_check {
        return match parlor_server::health::check(args.options.listen, Duration::from_secs(5)) {
            Ok(body) => {
                println!("parlor-server: healthy: {body}");
                ExitCode::SUCCESS
            }
            Err(why) => {
                eprintln!("parlor-server: not healthy: {why}");
                ExitCode::FAILURE
            }
        };
    }
    match args.options.serve(&args.data_dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("parlor-server: {e}");
            ExitCode::FAILURE
        }
    }
}
