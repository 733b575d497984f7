//! A `parlor-server` process of the load tool's (killed when dropped), its resident memory, and what its
//! `GET /metrics` says of the store's calls and the moves' round trips inside it.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A running server, killed when dropped.
pub struct Node {
    child: Child,
    /// Where it listens.
    pub addr: SocketAddr,
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Node {
    /// Starts `bin` with its data in `data`, on the PostgreSQL database at `database` if given (else SQLite), its
    /// stderr to `stderr`; every load client comes from 127.0.0.1, so the caps per address are raised past them.
    pub fn start(
        bin: &Path,
        data: &Path,
        database: Option<&str>,
        stderr: &Path,
    ) -> Result<Node, String> {
        let mut cmd = Command::new(bin);
        for (var, _) in std::env::vars().filter(|(v, _)| v.starts_with("PARLOR_")) {
            cmd.env_remove(var);
        }
        cmd.args(["--listen", "127.0.0.1:0", "--no-log-file", "--data-dir"])
            .arg(data)
            .args([
                "--max-connections-per-ip",
                "1000000",
                "--max-registrations-per-hour",
                "1000000",
            ]);
        if let Some(url) = database {
            cmd.args(["--database", url]);
        }
        let err =
            std::fs::File::create(stderr).map_err(|e| format!("{}: {e}", stderr.display()))?;
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(err)
            .spawn()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let mut node = Node {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
        };
        let line = rx.recv_timeout(Duration::from_secs(30)).unwrap_or_default();
        node.addr = line
            .split("ws://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|a| a.parse().ok())
            .ok_or_else(|| {
                format!(
                    "the server did not say where it listens ({line:?}): {}",
                    std::fs::read_to_string(stderr).unwrap_or_default()
                )
            })?;
        Ok(node)
    }

    /// Its resident memory, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }

    /// Its `/metrics` text (empty if it could not be read).
    pub async fn metrics(&self) -> String {
        let Ok(mut s) = tokio::net::TcpStream::connect(self.addr).await else {
            return String::new();
        };
        let ask = format!(
            "GET /metrics HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        if s.write_all(ask.as_bytes()).await.is_err() {
            return String::new();
        }
        let mut body = String::new();
        let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_string(&mut body)).await;
        body
    }
}

/// A histogram read from a metrics text: the cumulated count under each bucket bound (in seconds; infinite for
/// the last), the sum in seconds and the count.
#[derive(Debug, Clone, Default)]
pub struct Hist {
    buckets: Vec<(f64, u64)>,
    sum: f64,
    count: u64,
}

/// A histogram in short: how many, their mean, and the bucket bounds under which half and 99% fall (in
/// milliseconds; infinite past the last bound).
#[derive(Debug, Clone, Copy, Default)]
pub struct Summary {
    pub count: u64,
    pub mean_ms: f64,
    pub p50_ms: f64,
    pub p99_ms: f64,
}

impl Hist {
    /// The histogram `name` in `text` (empty if it is not there).
    pub fn read(text: &str, name: &str) -> Hist {
        let mut h = Hist::default();
        for line in text.lines() {
            let Some(rest) = line.strip_prefix(name) else {
                continue;
            };
            if let Some(b) = rest.strip_prefix("_bucket{le=\"") {
                let mut parts = b.split("\"} ");
                let bound = parts.next().unwrap_or("");
                let n = parts
                    .next()
                    .and_then(|n| n.trim().parse().ok())
                    .unwrap_or(0);
                let bound = bound.parse().unwrap_or(f64::INFINITY);
                h.buckets.push((bound, n));
            } else if let Some(s) = rest.strip_prefix("_sum ") {
                h.sum = s.trim().parse().unwrap_or(0.0);
            } else if let Some(c) = rest.strip_prefix("_count ") {
                h.count = c.trim().parse().unwrap_or(0);
            }
        }
        h
    }

    /// What was counted after `before` was read.
    pub fn since(&self, before: &Hist) -> Hist {
        let at = |b: f64| {
            before
                .buckets
                .iter()
                .find(|(x, _)| *x == b)
                .map_or(0, |(_, n)| *n)
        };
        Hist {
            buckets: self
                .buckets
                .iter()
                .map(|&(b, n)| (b, n.saturating_sub(at(b))))
                .collect(),
            sum: self.sum - before.sum,
            count: self.count.saturating_sub(before.count),
        }
    }

    /// The histogram in short.
    pub fn summary(&self) -> Summary {
        let under = |q: f64| {
            let want = ((self.count as f64 * q).ceil() as u64).max(1);
            self.buckets
                .iter()
                .find(|(_, n)| *n >= want)
                .map_or(f64::INFINITY, |(b, _)| b * 1000.0)
        };
        Summary {
            count: self.count,
            mean_ms: if self.count == 0 {
                0.0
            } else {
                self.sum * 1000.0 / self.count as f64
            },
            p50_ms: under(0.5),
            p99_ms: under(0.99),
        }
    }
}
