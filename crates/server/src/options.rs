//! The server's options, shared by `parlor-server` and `parlor serve` (each flattens [`ServeOptions`] into its
//! command line): every one a flag and an environment variable (`PARLOR_` and the flag's name in capitals, `-` as
//! `_`), the flag winning over the variable, each value range-checked where it is parsed. A bad value from a
//! variable is refused with the variable named (by `parlor-server` before clap reads anything, [`check_env`]; by
//! `parlor serve` in clap's error, `from_env`).

use crate::caps::{self, parse_cap};
use crate::liveness::parse_heartbeat;
use crate::log::{self, LogFormat};
use crate::store::{Database, PgUrl};
use crate::{Config, DEFAULT_LISTEN};
use clap::Args;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The variable for `--listen`.
pub const ENV_LISTEN: &str = "PARLOR_LISTEN";
/// The variable for `--data-dir` (Parlor's own data directory's, too).
pub const ENV_DATA_DIR: &str = "PARLOR_DATA_DIR";
/// The variable for `--log-file`.
pub const ENV_LOG_FILE: &str = "PARLOR_LOG_FILE";
/// The variable for `--no-log-file` (`true`, `yes`, `on` or `1`; `false`, `no`, `off` or `0`).
pub const ENV_NO_LOG_FILE: &str = "PARLOR_NO_LOG_FILE";
/// The variable for `--log-format`.
pub const ENV_LOG_FORMAT: &str = "PARLOR_LOG_FORMAT";
/// The variable for `--heartbeat`.
pub const ENV_HEARTBEAT: &str = "PARLOR_HEARTBEAT";
/// The variable for `--max-connections-per-ip`.
pub const ENV_MAX_CONNECTIONS_PER_IP: &str = "PARLOR_MAX_CONNECTIONS_PER_IP";
/// The variable for `--max-registrations-per-hour`.
pub const ENV_MAX_REGISTRATIONS_PER_HOUR: &str = "PARLOR_MAX_REGISTRATIONS_PER_HOUR";
/// The variable for `--database`.
pub const ENV_DATABASE: &str = "PARLOR_DATABASE";

/// The options of `parlor-server` and `parlor serve` but the data directory (each takes it its own way).
#[derive(Args, Debug, Clone)]
pub struct ServeOptions {
    /// The address to listen on, HOST:PORT (port 0 takes a free port; the address listened on is printed). The
    /// same listener answers `GET /healthz` and `GET /metrics`.
    #[arg(long, value_name = "ADDR", env = ENV_LISTEN, default_value = DEFAULT_LISTEN,
          value_parser = from_env(ENV_LISTEN, "--listen", parse_listen))]
    pub listen: SocketAddr,
    /// Where to log as well as stderr (default: `server.log` in the data directory, rotated at 8 MiB).
    #[arg(long, value_name = "FILE", env = ENV_LOG_FILE)]
    pub log_file: Option<PathBuf>,
    /// Log to stderr only; with `--log-file` as well, the one on the command line wins over the one from a
    /// variable, and both from the same place are refused (from the variable: true, yes, on, 1 or false, no, off, 0).
    #[arg(long, env = ENV_NO_LOG_FILE, value_parser = from_env(ENV_NO_LOG_FILE, "--no-log-file", parse_switch))]
    pub no_log_file: bool,
    /// How the log's lines are written: `text` (a time, a level, a message and key=value fields) or `json` (one
    /// JSON object a line).
    #[arg(long, value_name = "text|json", env = ENV_LOG_FORMAT, default_value = "text",
          value_parser = from_env(ENV_LOG_FORMAT, "--log-format", str::parse::<LogFormat>))]
    pub log_format: LogFormat,
    /// How often each connection is pinged, in seconds (1 to 3600); one silent for three of these while the server
    /// runs is taken as dropped.
    #[arg(long, value_name = "SECS", env = ENV_HEARTBEAT, default_value = "15",
          value_parser = from_env(ENV_HEARTBEAT, "--heartbeat", parse_heartbeat))]
    pub heartbeat: Duration,
    /// The most connections one IP address may have open at once (1 to 1000000).
    #[arg(long, value_name = "N", env = ENV_MAX_CONNECTIONS_PER_IP,
          default_value_t = caps::MAX_CONNECTIONS_PER_IP,
          value_parser = from_env(ENV_MAX_CONNECTIONS_PER_IP, "--max-connections-per-ip", parse_cap))]
    pub max_connections_per_ip: u32,
    /// The most new names one IP address may register in an hour (1 to 1000000).
    #[arg(long, value_name = "N", env = ENV_MAX_REGISTRATIONS_PER_HOUR,
          default_value_t = caps::MAX_REGISTRATIONS_PER_HOUR,
          value_parser = from_env(ENV_MAX_REGISTRATIONS_PER_HOUR, "--max-registrations-per-hour", parse_cap))]
    pub max_registrations_per_hour: u32,
    /// The database: a PostgreSQL URL, `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (or `postgresql://...`; a
    /// Unix socket's directory as the host, percent-encoded), shown with its password masked; without it, SQLite
    /// (`server.db`) in the data directory.
    #[arg(long, value_name = "URL", env = ENV_DATABASE, hide_env_values = true,
          value_parser = DatabaseParser)]
    pub database: Option<Box<PgUrl>>,
}

/// `parse` for the option `flag` read from `var` too: an error in a value that came from the variable (the flag
/// not on the command line, the variable set to that value) says so, so that clap's error names the variable as
/// well as the flag.
fn from_env<T, E>(
    var: &'static str,
    flag: &'static str,
    parse: fn(&str) -> Result<T, E>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: Clone + Send + Sync + 'static,
    E: std::fmt::Display + 'static,
{
    move |s: &str| {
        parse(s).map_err(|e| {
            let on_command_line = std::env::args()
                .any(|a| a == flag || a.strip_prefix(flag).is_some_and(|r| r.starts_with('=')));
            if !on_command_line && std::env::var(var).is_ok_and(|v| v == s) {
                format!("{e} (the value of {var})")
            } else {
                e.to_string()
            }
        })
    }
}

/// `--database`'s parser: a [`PgUrl`], refused with why and the URL's password masked (clap's own error for a bad
/// value would show the value as given), naming [`ENV_DATABASE`] when the value came from it.
#[derive(Clone, Copy, Debug)]
pub struct DatabaseParser;

impl clap::builder::TypedValueParser for DatabaseParser {
    type Value = Box<PgUrl>;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Box<PgUrl>, clap::Error> {
        let refuse = |why: String| clap::Error::raw(clap::error::ErrorKind::ValueValidation, why);
        let Some(text) = value.to_str() else {
            return Err(refuse("--database: the URL is not UTF-8\n".into()));
        };
        text.parse::<PgUrl>().map(Box::new).map_err(|why| {
            let on_command_line = std::env::args().any(|a| {
                a == "--database"
                    || a.strip_prefix("--database")
                        .is_some_and(|r| r.starts_with('='))
            });
            let from = if !on_command_line && std::env::var(ENV_DATABASE).is_ok_and(|v| v == text) {
                format!(" (the value of {ENV_DATABASE})")
            } else {
                String::new()
            };
            refuse(format!("--database: {why}{from}\n"))
        })
    }
}

/// Parses an address to listen on, HOST:PORT.
pub fn parse_listen(s: &str) -> Result<SocketAddr, String> {
    s.parse::<SocketAddr>()
        .map_err(|e| format!("{s:?} is not HOST:PORT ({e})"))
}

/// Parses a switch's value as clap's `BoolishValueParser` does: `true`, `t`, `yes`, `y`, `on`, `1` or `false`,
/// `f`, `no`, `n`, `off`, `0` (any case).
pub fn parse_switch(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "true" | "t" | "yes" | "y" | "on" | "1" => Ok(true),
        "false" | "f" | "no" | "n" | "off" | "0" => Ok(false),
        _ => Err(format!(
            "{s:?} is not a switch (true, yes, on, 1; false, no, off, 0)"
        )),
    }
}

/// Checks every variable of [`ServeOptions`] (and [`ENV_DATA_DIR`]) that is set: the error names the first bad
/// one, with why (clap's own error for a value from a variable names the flag only). A flag given on the command
/// line wins over its variable, so a variable is checked only if its flag is not in `args`.
pub fn check_env<S: AsRef<str>>(args: &[S]) -> Result<(), String> {
    let given = |flag: &str| {
        args.iter().any(|a| {
            let a = a.as_ref();
            a == flag || a.strip_prefix(flag).is_some_and(|r| r.starts_with('='))
        })
    };
    type Check = fn(&str) -> Result<(), String>;
    let checks: [(&str, &str, Check); 8] = [
        (ENV_LISTEN, "--listen", |v| parse_listen(v).map(|_| ())),
        (ENV_NO_LOG_FILE, "--no-log-file", |v| {
            parse_switch(v).map(|_| ())
        }),
        (ENV_LOG_FORMAT, "--log-format", |v| {
            v.parse::<LogFormat>().map(|_| ())
        }),
        (ENV_HEARTBEAT, "--heartbeat", |v| {
            parse_heartbeat(v).map(|_| ()).map_err(|e| e.to_string())
        }),
        (
            ENV_MAX_CONNECTIONS_PER_IP,
            "--max-connections-per-ip",
            |v| parse_cap(v).map(|_| ()),
        ),
        (
            ENV_MAX_REGISTRATIONS_PER_HOUR,
            "--max-registrations-per-hour",
            |v| parse_cap(v).map(|_| ()),
        ),
        (ENV_DATABASE, "--database", |v| {
            v.parse::<PgUrl>().map(|_| ())
        }),
        (ENV_LOG_FILE, "--log-file", |v| {
            if v.is_empty() {
                Err("is empty (unset it for the default)".into())
            } else {
                Ok(())
            }
        }),
    ];
    let set = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    if set(ENV_LOG_FILE)
        && !given("--log-file")
        && !given("--no-log-file")
        && std::env::var(ENV_NO_LOG_FILE).is_ok_and(|v| parse_switch(&v) == Ok(true))
    {
        return Err(format!(
            "{ENV_LOG_FILE} and {ENV_NO_LOG_FILE} are both set: a log file, or none?"
        ));
    }
    for (var, flag, check) in checks {
        if given(flag) {
            continue;
        }
        match std::env::var(var) {
            Ok(v) => check(&v).map_err(|why| format!("{var}: {why}"))?,
            Err(std::env::VarError::NotPresent) => {}
            Err(std::env::VarError::NotUnicode(_)) => return Err(format!("{var} is not UTF-8")),
        }
    }
    Ok(())
}

impl ServeOptions {
    /// The server's configuration from these options.
    pub fn config(&self) -> Config {
        Config {
            heartbeat: self.heartbeat,
            max_connections_per_ip: self.max_connections_per_ip,
            max_registrations_per_hour: self.max_registrations_per_hour,
            ..Config::default()
        }
    }

    /// The log file: `--log-file`, else `server.log` in `data_dir`; none with `--no-log-file`. Given both, the one
    /// on the command line (`args`) wins over the one from its variable; both on the command line, or both from
    /// variables, are refused.
    pub fn log_file<S: AsRef<str>>(
        &self,
        data_dir: &Path,
        args: &[S],
    ) -> Result<Option<PathBuf>, String> {
        let given = |flag: &str| {
            args.iter().any(|a| {
                let a = a.as_ref();
                a == flag || a.strip_prefix(flag).is_some_and(|r| r.starts_with('='))
            })
        };
        let none = match (self.no_log_file, &self.log_file) {
            (false, _) => false,
            (true, None) => true,
            (true, Some(_)) => match (given("--no-log-file"), given("--log-file")) {
                (true, false) => true,
                (false, true) => false,
                (true, true) => {
                    return Err("--log-file and --no-log-file: a log file, or none?".into());
                }
                (false, false) => {
                    return Err(format!(
                        "{ENV_LOG_FILE} and {ENV_NO_LOG_FILE} are both set: a log file, or none?"
                    ));
                }
            },
        };
        Ok(if none {
            None
        } else {
            Some(
                self.log_file
                    .clone()
                    .unwrap_or_else(|| data_dir.join(log::LOG_FILE)),
            )
        })
    }

    /// Where the server keeps its data: `--database`'s PostgreSQL, else SQLite in `data_dir`.
    pub fn database(&self, data_dir: &Path) -> Database {
        match &self.database {
            Some(url) => Database::Postgres(url.clone()),
            None => Database::Sqlite(data_dir.to_path_buf()),
        }
    }

    /// Serves with these options and the database ([`ServeOptions::database`]) until Ctrl-C or SIGTERM
    /// ([`crate::serve_on`]).
    pub fn serve(&self, data_dir: &Path) -> crate::Result<()> {
        let args: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let log_file = self
            .log_file(data_dir, &args)
            .map_err(crate::ServerError::Options)?;
        crate::serve_on(
            self.listen,
            &self.database(data_dir),
            log_file.as_deref(),
            self.log_format,
            self.config(),
        )
    }
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_log_file_or_none_the_command_line_winning() {
        let dir = Path::new("/d");
        let opts = |log_file: Option<&str>, no_log_file| ServeOptions {
            listen: DEFAULT_LISTEN.parse().unwrap_or_else(|e| panic!("{e}")),
            log_file: log_file.map(PathBuf::from),
            no_log_file,
            log_format: LogFormat::Text,
            heartbeat: Duration::from_secs(15),
            max_connections_per_ip: 1,
            max_registrations_per_hour: 1,
            database: None,
        };
        let none: [&str; 0] = [];
        assert_eq!(
            opts(None, false).log_file(dir, &none),
            Ok(Some(PathBuf::from("/d/server.log")))
        );
        assert_eq!(opts(None, true).log_file(dir, &none), Ok(None));
        let both = opts(Some("/l"), true);
        assert_eq!(both.log_file(dir, &["--no-log-file"]), Ok(None));
        assert_eq!(
            both.log_file(dir, &["--log-file=/l"]),
            Ok(Some(PathBuf::from("/l")))
        );
        assert!(
            both.log_file(dir, &["--log-file", "/l", "--no-log-file"])
                .is_err()
        );
        assert!(both.log_file(dir, &none).is_err());
    }

    #[test]
    fn switches_parse_and_a_bad_one_says_why() {
        assert_eq!(parse_switch("TRUE"), Ok(true));
        assert_eq!(parse_switch("off"), Ok(false));
        assert!(parse_switch("maybe").is_err());
    }
}
