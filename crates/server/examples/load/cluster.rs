//! A PostgreSQL cluster of the load tool's own, in a temporary directory: `initdb` (found on PATH, else the newest
//! /usr/lib/postgresql/*/bin), started by `pg_ctl` on a free port of 127.0.0.1 (TCP, as nodes on other machines
//! would reach it), with PostgreSQL's settings as installed but `synchronous_commit` (said by the caller), and a
//! database `parlor` made in it. Stopped (`pg_ctl stop -m fast`) and its directory removed when dropped. initdb
//! refuses to run as root: as root, the cluster is made and run as `nobody` (through `runuser`), its directory
//! theirs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The cluster's superuser, who owns the database.
const USER: &str = "parlor";
/// The longest `initdb` or `pg_ctl` may take.
const COMMAND_TIME: Duration = Duration::from_secs(120);

/// A running cluster; stopped and removed when dropped.
pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    /// The user it runs as (`nobody` when run as root).
    user: Option<String>,
    /// The TCP port it listens on, on 127.0.0.1.
    pub port: u16,
}

/// The directory holding `initdb` and `pg_ctl`: `given`, else PATH's, else the newest /usr/lib/postgresql/*/bin.
pub fn find_bin(given: Option<&Path>) -> Result<PathBuf, String> {
    let has = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    if let Some(d) = given {
        return if has(d) {
            Ok(d.to_path_buf())
        } else {
            Err(format!("{}: no initdb and pg_ctl there", d.display()))
        };
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(d) = on_path.into_iter().find(|d| has(d)) {
        return Ok(d);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .map_err(|e| {
            format!("PostgreSQL (initdb) not found: not on PATH, and /usr/lib/postgresql: {e}")
        })?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((v, e.path().join("bin")))
        })
        .filter(|(_, d)| has(d))
        .collect();
    versions.sort();
    versions
        .pop()
        .map(|(_, d)| d)
        .ok_or_else(|| "PostgreSQL (initdb) not found in /usr/lib/postgresql/*/bin".to_string())
}

/// Runs `cmd`, its output to `log`, waiting at most [`COMMAND_TIME`].
fn run(mut cmd: Command, log: &Path) -> Result<(), String> {
    let out = std::fs::File::create(log).map_err(|e| format!("{}: {e}", log.display()))?;
    let err = out.try_clone().map_err(|e| e.to_string())?;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| format!("{cmd:?}: {e}"))?;
    let deadline = Instant::now() + COMMAND_TIME;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("{cmd:?} took over {COMMAND_TIME:?}"));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "{cmd:?}: {status}\n{}",
            std::fs::read_to_string(log).unwrap_or_default()
        ))
    }
}

/// The output of `id ARGS`, trimmed.
fn id(args: &[&str]) -> Result<String, String> {
    let out = Command::new("id")
        .args(args)
        .output()
        .map_err(|e| format!("id: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// A free TCP port on 127.0.0.1 (free when asked: the cluster takes it a moment later).
fn free_port() -> Result<u16, String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    Ok(l.local_addr().map_err(|e| e.to_string())?.port())
}

impl Cluster {
    /// Makes and starts a cluster with the programs in `bin`, `synchronous_commit` on or off.
    pub fn start(bin: PathBuf, synchronous_commit: bool) -> Result<Cluster, String> {
        let dir = tempfile::Builder::new()
            .prefix("parlor-load-pg")
            .tempdir()
            .map_err(|e| e.to_string())?;
        let user = (id(&["-u"])? == "0").then(|| "nobody".to_string());
        if let Some(u) = &user {
            let uid = id(&["-u", u])?
                .parse()
                .map_err(|e| format!("id -u {u}: {e}"))?;
            let gid = id(&["-g", u])?
                .parse()
                .map_err(|e| format!("id -g {u}: {e}"))?;
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid))
                .map_err(|e| format!("chown {}: {e}", dir.path().display()))?;
        }
        let c = Cluster {
            dir,
            bin,
            user,
            port: free_port()?,
        };
        let mut initdb = c.command("initdb");
        initdb
            .arg("-D")
            .arg(c.data())
            .args(["-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"]);
        run(initdb, &c.dir.path().join("initdb.txt"))?;
        let mut start = c.command("pg_ctl");
        start
            .arg("-D")
            .arg(c.data())
            .arg("-l")
            .arg(c.dir.path().join("server.txt"))
            .args(["-w", "-t", "60", "-o"])
            .arg(format!(
                "-c listen_addresses=127.0.0.1 -p {} -k {} -c synchronous_commit={}",
                c.port,
                c.dir.path().display(),
                if synchronous_commit { "on" } else { "off" }
            ))
            .arg("start");
        run(start, &c.dir.path().join("pg_ctl.txt"))?;
        let mut client = postgres::Client::connect(&c.url("postgres"), postgres::NoTls)
            .map_err(|e| format!("connecting to the cluster: {e}"))?;
        client
            .batch_execute("CREATE DATABASE parlor")
            .map_err(|e| format!("CREATE DATABASE parlor: {e}"))?;
        Ok(c)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The cluster's program `name`, run as its user.
    fn command(&self, name: &str) -> Command {
        let program = self.bin.join(name);
        match &self.user {
            Some(u) => {
                let mut cmd = Command::new("runuser");
                cmd.args(["-u", u, "--"]).arg(program);
                cmd
            }
            None => Command::new(program),
        }
    }

    /// The URL of the database `name`, over TCP on 127.0.0.1.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D")
            .arg(self.data())
            .args(["-m", "fast", "-w", "-t", "30", "stop"]);
        if let Err(e) = run(stop, &self.dir.path().join("stop.txt")) {
            eprintln!(
                "load: the cluster in {} did not stop: {e}",
                self.dir.path().display()
            );
        }
    }
}
