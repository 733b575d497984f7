//! The server's log: every line to stderr and, unless turned off, to a file in the data directory
//! ([`LOG_FILE`]), bounded in size: once it would pass [`LOG_MAX_BYTES`] it is renamed to `server.log.1` (the one
//! before that is dropped) and a new one begun, so the logs never take more than twice that. Each line is written
//! to the file as it is logged (no buffer), so a server killed with SIGKILL has logged everything up to then.
//!
//! Each line is one event, in text (a time, a level, the message and `key=value` fields) or JSON (one object a
//! line), as `--log-format` says ([`LogFormat`]).
//!
//! Logged: every refusal of a client's message (with the connection's number and the error's code), every storage
//! failure, every game's start and end, and where the server listens and when it stops.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, filter::LevelFilter};

/// The log file's name in the data directory.
pub const LOG_FILE: &str = "server.log";

/// Why the log file could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("{what}: {source}")]
pub struct LogError {
    /// What was being done (`opening server.log`).
    what: String,
    /// Why it failed.
    source: std::io::Error,
}

/// The largest a log file grows before it is rotated.
pub const LOG_MAX_BYTES: u64 = 8 * 1024 * 1024;

/// A size-bounded log file that rotates itself.
#[derive(Debug)]
pub struct LogFile {
    inner: Mutex<Inner>,
    max_bytes: u64,
}

#[derive(Debug)]
struct Inner {
    path: PathBuf,
    file: File,
    size: u64,
}

fn append(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).append(true).open(path)
}

impl LogFile {
    /// Opens `path` for appending (making it if needed), rotated once it would pass `max_bytes`.
    pub fn open(path: &Path, max_bytes: u64) -> Result<LogFile, LogError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|source| LogError {
                what: format!("making {}", dir.display()),
                source,
            })?;
        }
        let file = append(path).map_err(|source| LogError {
            what: format!("opening {}", path.display()),
            source,
        })?;
        let size = file.metadata().map(|m| m.len()).unwrap_or(0);
        Ok(LogFile {
            inner: Mutex::new(Inner {
                path: path.to_path_buf(),
                file,
                size,
            }),
            max_bytes,
        })
    }

    /// Appends `bytes` (one whole log line), rotating first if they would take the file past its bound.
    fn write_line(&self, bytes: &[u8]) -> std::io::Result<()> {
        let mut inner = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        if inner.size > 0 && inner.size.saturating_add(len) > self.max_bytes {
            let mut old = inner.path.clone().into_os_string();
            old.push(".1");
            std::fs::rename(&inner.path, &old)?;
            inner.file = append(&inner.path)?;
            inner.size = 0;
        }
        inner.file.write_all(bytes)?;
        inner.size = inner.size.saturating_add(len);
        Ok(())
    }
}

/// One log line's way into a [`LogFile`].
pub struct LineWriter<'a>(&'a LogFile);

impl Write for LineWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write_line(buf)?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A [`LogFile`] shared by the subscriber.
#[derive(Clone, Debug)]
pub struct SharedLog(pub Arc<LogFile>);

impl<'a> MakeWriter<'a> for SharedLog {
    type Writer = LineWriter<'a>;

    fn make_writer(&'a self) -> Self::Writer {
        LineWriter(&self.0)
    }
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// A time, a level, the message and its fields as `key=value` (colours on stderr when it is a terminal).
    #[default]
    Text,
    /// One JSON object a line: `timestamp`, `level`, and `fields` with the `message` and the rest.
    Json,
}

impl std::str::FromStr for LogFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        <LogFormat as clap::ValueEnum>::from_str(s, false)
            .map_err(|_| format!("{s:?} is not a log format (text or json)"))
    }
}

/// [`init_as`] in the text format.
pub fn init(file: Option<&Path>) -> Result<(), LogError> {
    init_as(file, LogFormat::Text)
}

/// Sets the process's logging up (once; later calls change nothing): lines at `info` and above, one event a line
/// in `format`, to stderr and, if `file` is given, to that file as well (without colours). Returns an error only
/// if the file cannot be opened.
pub fn init_as(file: Option<&Path>, format: LogFormat) -> Result<(), LogError> {
    let file = match file {
        Some(path) => Some(SharedLog(Arc::new(LogFile::open(path, LOG_MAX_BYTES)?))),
        None => None,
    };
    let _ = match format {
        LogFormat::Text => tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .with_target(false)
                    .with_writer(std::io::stderr)
                    .with_filter(LevelFilter::INFO),
            )
            .with(file.map(|f| {
                tracing_subscriber::fmt::layer()
                    .with_ansi(false)
                    .with_target(false)
                    .with_writer(f)
                    .with_filter(LevelFilter::INFO)
            }))
            .try_init(),
        LogFormat::Json => tracing_subscriber::registry()
            .with(
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_target(false)
                    .with_writer(std::io::stderr)
                    .with_filter(LevelFilter::INFO),
            )
            .with(file.map(|f| {
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_target(false)
                    .with_writer(f)
                    .with_filter(LevelFilter::INFO)
            }))
            .try_init(),
    };
    Ok(())
}

#[cfg(test)]
#[allow(clippy::panic)]
mod tests {
    use super::*;

    #[test]
    fn a_log_file_past_its_bound_is_rotated_once() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join(LOG_FILE);
        let log = LogFile::open(&path, 100).unwrap_or_else(|e| panic!("{e}"));
        let line = [b'a'; 40];
        for _ in 0..2 {
            log.write_line(&line).unwrap_or_else(|e| panic!("{e}"));
        }
        // 86 bytes: under the bound, no rotation.
        log.write_line(b"third\n").unwrap_or_else(|e| panic!("{e}"));
        let read = |p: &Path| std::fs::read(p).unwrap_or_else(|e| panic!("{e}"));
        let old = dir.path().join("server.log.1");
        assert_eq!(read(&path).len(), 86);
        assert!(!old.exists());
        // Another 40 would make 126: the file is rotated first.
        log.write_line(&line).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&path), line);
        assert_eq!(read(&old).len(), 86);
        // Opened again, it counts what is there (40 bytes, past a bound of 10): the next line rotates it, and the
        // older file is replaced.
        drop(log);
        let log = LogFile::open(&path, 10).unwrap_or_else(|e| panic!("{e}"));
        log.write_line(b"fourth\n")
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read(&path), b"fourth\n");
        assert_eq!(read(&old), line);
    }
}
