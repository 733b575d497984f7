//! A real PostgreSQL cluster for the tests, made in a temporary directory and removed when the last test holding it
//! drops it (also on a panic): `initdb` (found on PATH, else in /usr/lib/postgresql/*/bin, the newest), started with
//! `pg_ctl` on a Unix socket in that directory only (no TCP), without fsync, and a database per test. initdb refuses
//! to run as root: as root, the cluster is made and run as `nobody` (through `runuser`), its directory theirs.
//!
//! Without PostgreSQL each test that needs it prints "skipped: PostgreSQL (initdb) not found" and returns; with
//! `PARLOR_REQUIRE_POSTGRES=1` (CI sets it) a missing PostgreSQL fails the test instead.

use parlor_server::PgUrl;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

/// The port in the socket's name (`.s.PGSQL.5432`): nothing listens on TCP.
const PORT: u16 = 5432;
/// The cluster's superuser, who owns every test database.
const USER: &str = "parlor";
/// The longest initdb or pg_ctl may take.
const COMMAND_TIME: Duration = Duration::from_secs(120);

/// A running cluster; stopped and removed when dropped.
pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    /// The user it runs as (`nobody` when the tests run as root).
    user: Option<String>,
    next_db: AtomicU64,
}

/// The cluster the tests running now share.
static SHARED: Mutex<Weak<Cluster>> = Mutex::new(Weak::new());

/// The running cluster (started if none is), or none if PostgreSQL is not installed: the test then says it is
/// skipped and returns (or fails, with `PARLOR_REQUIRE_POSTGRES=1`).
pub fn cluster() -> Option<Arc<Cluster>> {
    let mut shared = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = shared.upgrade() {
        return Some(c);
    }
    let Some(bin) = find_bin() else {
        assert!(
            std::env::var("PARLOR_REQUIRE_POSTGRES").as_deref() != Ok("1"),
            "PostgreSQL (initdb) not found, and PARLOR_REQUIRE_POSTGRES=1 requires it"
        );
        eprintln!("skipped: PostgreSQL (initdb) not found");
        return None;
    };
    let c = Arc::new(Cluster::start(bin));
    *shared = Arc::downgrade(&c);
    Some(c)
}

/// The directory holding `initdb` and `pg_ctl`: PATH's, else the newest /usr/lib/postgresql/*/bin.
fn find_bin() -> Option<PathBuf> {
    let has = |d: &Path| d.join("initdb").is_file() && d.join("pg_ctl").is_file();
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default();
    if let Some(d) = on_path.into_iter().find(|d| has(d)) {
        return Some(d);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((v, e.path().join("bin")))
        })
        .filter(|(_, d)| has(d))
        .collect();
    versions.sort();
    versions.pop().map(|(_, d)| d)
}

/// Runs `cmd`, its output to `log`, waiting at most [`COMMAND_TIME`]; panics with the log if it fails.
fn run(mut cmd: Command, log: &Path) {
    let out = std::fs::File::create(log).unwrap();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .spawn()
        .unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    let deadline = Instant::now() + COMMAND_TIME;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} took over {COMMAND_TIME:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        status.success(),
        "{cmd:?}: {status}\n{}",
        std::fs::read_to_string(log).unwrap_or_default()
    );
}

/// The output of `id ARGS`, trimmed.
fn id(args: &[&str]) -> String {
    let out = Command::new("id").args(args).output().unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

impl Cluster {
    fn start(bin: PathBuf) -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("parlor-pg")
            .tempdir()
            .unwrap();
        let user = (id(&["-u"]) == "0").then(|| "nobody".to_string());
        if let Some(u) = &user {
            let uid = id(&["-u", u]).parse().unwrap();
            let gid = id(&["-g", u]).parse().unwrap();
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).unwrap();
        }
        let c = Cluster {
            dir,
            bin,
            user,
            next_db: AtomicU64::new(1),
        };
        let data = c.data();
        let mut initdb = c.command("initdb");
        initdb
            .arg("-D")
            .arg(&data)
            .args(["-U", USER, "-A", "trust", "-E", "UTF8", "--no-sync"]);
        run(initdb, &c.dir.path().join("initdb.txt"));
        let mut start = c.command("pg_ctl");
        start
            .arg("-D")
            .arg(&data)
            .arg("-l")
            .arg(c.dir.path().join("server.txt"))
            .args(["-w", "-t", "60", "-o"])
            .arg(format!(
                "-F -c fsync=off -c listen_addresses='' -k {} -p {PORT}",
                c.dir.path().display()
            ))
            .arg("start");
        run(start, &c.dir.path().join("pg_ctl.txt"));
        c
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

    /// The URL of the database `name` in this cluster (through its socket).
    pub fn url(&self, name: &str) -> PgUrl {
        let host = self.dir.path().display().to_string().replace('/', "%2F");
        format!("postgresql://{USER}@{host}:{PORT}/{name}")
            .parse()
            .unwrap()
    }

    /// A new, empty database: its URL.
    pub fn database(&self) -> PgUrl {
        let name = format!("t{}", self.next_db.fetch_add(1, Ordering::Relaxed));
        let sql = format!("CREATE DATABASE {name}");
        admin(&self.url("postgres"), &sql);
        self.url(&name)
    }
}

/// Runs `sql` on the database at `url`, on a thread of its own (the client blocks; so can any caller, async or not).
pub fn admin(url: &PgUrl, sql: &str) {
    let (url, sql) = (url.clone(), sql.to_string());
    std::thread::spawn(move || {
        let mut client = url.config().connect(postgres::NoTls).unwrap();
        client.batch_execute(&sql).unwrap();
    })
    .join()
    .unwrap();
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let mut stop = self.command("pg_ctl");
        stop.arg("-D")
            .arg(self.data())
            .args(["-m", "immediate", "-w", "-t", "30", "stop"]);
        let log = self.dir.path().join("stop.txt");
        // Not a panic inside a drop that may run while a test panics: a failed stop is only said.
        if let Ok(out) = std::fs::File::create(&log)
            && let Ok(err) = out.try_clone()
            && let Ok(mut child) = stop.stdout(out).stderr(err).spawn()
        {
            let deadline = Instant::now() + Duration::from_secs(40);
            while Instant::now() < deadline {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            eprintln!(
                "the test cluster in {} did not stop",
                self.dir.path().display()
            );
        }
    }
}
