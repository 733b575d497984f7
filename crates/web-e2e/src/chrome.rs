//! chromedriver started on a free port of 127.0.0.1 in a process group of its own, and stopped (with the Chromium it
//! started) when dropped; and the capabilities that make Chromium headless, offline and fresh.

use crate::{Error, Result};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The chromedriver binary: `$CHROMEDRIVER`, or Debian's `/usr/bin/chromedriver`.
pub fn chromedriver_path() -> PathBuf {
    std::env::var_os("CHROMEDRIVER")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("/usr/bin/chromedriver"), PathBuf::from)
}

/// The browser binary: `$CHROME`, or Debian's `/usr/bin/chromium`.
pub fn chromium_path() -> PathBuf {
    std::env::var_os("CHROME")
        .filter(|v| !v.is_empty())
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from)
}

/// The command-line flags headless Chromium runs with here: no sandbox (CI runs as root), no GPU process, and
/// nothing that reaches for the network (the machine has none).
pub const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--window-size=1280,900",
];

/// The WebDriver capabilities for a fresh headless Chromium whose profile lives in `profile`.
pub fn capabilities(profile: &Path) -> serde_json::Map<String, serde_json::Value> {
    let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| (*s).to_string()).collect();
    args.push(format!("--user-data-dir={}", profile.display()));
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), "chrome".into());
    caps.insert(
        "goog:chromeOptions".into(),
        serde_json::json!({
            "binary": chromium_path().display().to_string(),
            "args": args,
        }),
    );
    caps
}

/// A running chromedriver; dropping it kills its process group (chromedriver and any Chromium it left).
pub struct Driver {
    child: Child,
    port: u16,
}

impl Driver {
    /// Starts chromedriver on a free port, its log in `log`, and waits (at most `within`) until it says it is ready.
    /// A port taken by another process before chromedriver could bind it is given up for another (three tries).
    pub fn start(log: &Path, within: Duration) -> Result<Self> {
        let mut tries = 0;
        loop {
            tries += 1;
            match Self::start_once(log, within) {
                Err(e) if tries < 3 && e.to_string().contains("Address already in use") => continue,
                started => return started,
            }
        }
    }

    fn start_once(log: &Path, within: Duration) -> Result<Self> {
        let binary = chromedriver_path();
        if !binary.is_file() {
            return Err(Error::new(format!(
                "no chromedriver at {} (apt-get install chromium chromium-driver, or set CHROMEDRIVER)",
                binary.display()
            )));
        }
        let port = free_port()?;
        let log_file = std::fs::File::create(log)?;
        let child = Command::new(&binary)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(log_file.try_clone()?)
            .stderr(log_file)
            .process_group(0)
            .spawn()
            .map_err(|e| Error::new(format!("starting {}: {e}", binary.display())))?;
        let mut driver = Self { child, port };
        let deadline = Instant::now() + within;
        loop {
            // Ready, and on its own port: another chromedriver (a test beside this one) may have taken the port
            // between `free_port` and this one's start, and would answer /status in its place; this one says it
            // started only once the port is its own.
            if driver.ready()
                && std::fs::read_to_string(log).is_ok_and(|said| said.contains(STARTED))
            {
                return Ok(driver);
            }
            if let Ok(Some(status)) = driver.child.try_wait() {
                let said = std::fs::read_to_string(log).unwrap_or_default();
                return Err(Error::new(format!(
                    "chromedriver exited ({status}) before it was ready; it said: {said}"
                )));
            }
            if Instant::now() > deadline {
                return Err(Error::new(format!(
                    "waited {within:?} for chromedriver on port {port} to answer /status with ready"
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The WebDriver URL, such as `http://127.0.0.1:9515`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// chromedriver's process id (also its process group's).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    fn ready(&self) -> bool {
        let Ok(mut stream) = TcpStream::connect_timeout(
            &std::net::SocketAddr::from(([127, 0, 0, 1], self.port)),
            Duration::from_millis(200),
        ) else {
            return false;
        };
        let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
        if write!(
            stream,
            "GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        )
        .is_err()
        {
            return false;
        }
        let mut reply = String::new();
        let _ = stream.read_to_string(&mut reply);
        reply.contains("\"ready\":true") || reply.contains("\"ready\": true")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Some(pid) = rustix::process::Pid::from_raw(self.child.id().cast_signed()) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What chromedriver writes once it listens on its port.
const STARTED: &str = "ChromeDriver was started successfully";

fn free_port() -> Result<u16> {
    let listener = TcpListener::bind("127.0.0.1:0")?;
    Ok(listener.local_addr()?.port())
}
