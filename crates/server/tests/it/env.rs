//! `parlor-server`'s options from environment variables, through the real binary: a variable sets its option, the
//! flag wins over it, a bad value is refused with the variable named; and `PARLOR_LOG_FORMAT=json` makes every line
//! on stderr one JSON object.

use crate::client::Client;
use crate::kill::Spawned;
use parlor_online::protocol::{ErrorCode, ServerMessage};
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Every variable the server reads, cleared from each test's command so that the environment running the tests
/// changes nothing.
const VARS: [&str; 9] = [
    "PARLOR_LISTEN",
    "PARLOR_DATA_DIR",
    "PARLOR_LOG_FILE",
    "PARLOR_NO_LOG_FILE",
    "PARLOR_LOG_FORMAT",
    "PARLOR_HEARTBEAT",
    "PARLOR_MAX_CONNECTIONS_PER_IP",
    "PARLOR_MAX_REGISTRATIONS_PER_HOUR",
    "PARLOR_DATABASE",
];

fn command(vars: &[(&str, &str)], args: &[&str], stderr: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_parlor-server"));
    for v in VARS {
        cmd.env_remove(v);
    }
    cmd.envs(vars.iter().copied())
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(std::fs::File::create(stderr).unwrap()));
    cmd
}

/// Starts the server with `vars` and `args`, its stderr to `stderr`; returns it and where it listens.
pub fn start(vars: &[(&str, &str)], args: &[&str], stderr: &Path) -> (Spawned, SocketAddr) {
    let mut child = Spawned(command(vars, args, stderr).spawn().unwrap());
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server says where it listens");
    let addr = line
        .split("ws://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{line:?}"))
        .parse()
        .unwrap();
    (child, addr)
}

/// Runs the server with `vars` and `args`, which must refuse to start: its exit code and stderr.
pub fn refused(vars: &[(&str, &str)], args: &[&str], dir: &Path) -> (i32, String) {
    let stderr = dir.join("refused.txt");
    let mut child = Spawned(command(vars, args, &stderr).spawn().unwrap());
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "it did not stop: {vars:?} {args:?}"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    (
        status.code().unwrap_or(-1),
        std::fs::read_to_string(&stderr).unwrap(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn variables_set_the_options_and_flags_win_over_them() {
    let dir = tempfile::tempdir().unwrap();
    let (by_var, by_flag) = (dir.path().join("by-var"), dir.path().join("by-flag"));
    let by_var_s = by_var.to_str().unwrap();
    let stderr = dir.path().join("stderr.txt");
    // The data directory, the listener, no log file and the connection cap from variables.
    let (server, addr) = start(
        &[
            ("PARLOR_LISTEN", "127.0.0.1:0"),
            ("PARLOR_DATA_DIR", by_var_s),
            ("PARLOR_NO_LOG_FILE", "yes"),
            ("PARLOR_MAX_CONNECTIONS_PER_IP", "1"),
        ],
        &[],
        &stderr,
    );
    let (_ann, _) = Client::hello(addr, "ann").await;
    let mut second = Client::connect(addr, "second").await;
    match second.recv().await {
        ServerMessage::Error {
            code: ErrorCode::RateLimited,
            message,
            ..
        } => assert!(message.contains("at most 1 open"), "{message}"),
        other => panic!("the cap of 1 from the variable refuses the second: {other:?}"),
    }
    assert!(by_var.join(parlor_server::store::DB_FILE).exists());
    assert!(!by_var.join(parlor_server::log::LOG_FILE).exists());
    drop(server);

    // The flags win: another data directory, the log file on, a cap of 2; a bad heartbeat in its variable is not
    // read, since its flag is given.
    let by_flag_s = by_flag.to_str().unwrap();
    let (server, addr) = start(
        &[
            ("PARLOR_LISTEN", "127.0.0.1:1"),
            ("PARLOR_DATA_DIR", by_var_s),
            ("PARLOR_MAX_CONNECTIONS_PER_IP", "1"),
            ("PARLOR_HEARTBEAT", "0"),
        ],
        &[
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            by_flag_s,
            "--max-connections-per-ip=2",
            "--heartbeat",
            "5",
        ],
        &stderr,
    );
    let (_ann, _) = Client::hello(addr, "ann").await;
    let (_bob, _) = Client::hello(addr, "bob").await;
    assert!(by_flag.join(parlor_server::store::DB_FILE).exists());
    assert!(by_flag.join(parlor_server::log::LOG_FILE).exists());
    drop(server);
}

#[test]
fn a_bad_value_in_a_variable_is_refused_with_the_variable_named() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for (var, value, why) in [
        (
            "PARLOR_MAX_CONNECTIONS_PER_IP",
            "0",
            "0 is out of range (1 to 1000000)",
        ),
        (
            "PARLOR_MAX_REGISTRATIONS_PER_HOUR",
            "lots",
            "is not a whole number",
        ),
        ("PARLOR_HEARTBEAT", "4000", "out of range"),
        ("PARLOR_LISTEN", "localhost", "is not HOST:PORT"),
        (
            "PARLOR_LOG_FORMAT",
            "xml",
            "is not a log format (text or json)",
        ),
        ("PARLOR_NO_LOG_FILE", "maybe", "is not a switch"),
    ] {
        let (code, stderr) = refused(&[(var, value), ("PARLOR_DATA_DIR", data)], &[], dir.path());
        assert_eq!(code, 2, "{var}={value}: {stderr}");
        assert!(
            stderr.contains(&format!("parlor-server: {var}: ")) && stderr.contains(why),
            "{var}={value}: {stderr}"
        );
    }
    // Both a log file and none: the two variables are named.
    let (code, stderr) = refused(
        &[
            ("PARLOR_LOG_FILE", "/tmp/never-made.log"),
            ("PARLOR_NO_LOG_FILE", "1"),
            ("PARLOR_DATA_DIR", data),
        ],
        &[],
        dir.path(),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("PARLOR_LOG_FILE and PARLOR_NO_LOG_FILE are both set"),
        "{stderr}"
    );
    // A log file from its variable and none on the command line: the command line wins.
    let stderr = dir.path().join("stderr.txt");
    let quiet = dir.path().join("quiet");
    let (server, _) = start(
        &[(
            "PARLOR_LOG_FILE",
            dir.path().join("never.log").to_str().unwrap(),
        )],
        &[
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            quiet.to_str().unwrap(),
            "--no-log-file",
        ],
        &stderr,
    );
    drop(server);
    assert!(!dir.path().join("never.log").exists());
    assert!(!quiet.join(parlor_server::log::LOG_FILE).exists());
    // A bad flag is clap's to refuse, with the flag named.
    let (code, stderr) = refused(
        &[],
        &["--data-dir", data, "--max-registrations-per-hour", "0"],
        dir.path(),
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--max-registrations-per-hour"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_json_log_format_writes_one_json_object_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = dir.path().join("stderr.txt");
    let data = dir.path().join("data");
    let (mut server, addr) = start(
        &[("PARLOR_LOG_FORMAT", "json")],
        &[
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            data.to_str().unwrap(),
        ],
        &stderr,
    );
    let (ann, _) = Client::hello(addr, "ann").await;
    drop(ann);
    // Each line is written as it is logged: the hello is there once the welcome came.
    let deadline = Instant::now() + Duration::from_secs(10);
    let text = loop {
        let text = std::fs::read_to_string(&stderr).unwrap();
        if text.contains("\"hello\"") || Instant::now() > deadline {
            break text;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    server.kill().unwrap();
    server.wait().unwrap();
    let file = std::fs::read_to_string(data.join(parlor_server::log::LOG_FILE)).unwrap();
    for (what, text) in [("stderr", &text), ("the log file", &file)] {
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{what}: {l:?} is not JSON: {e}"))
            })
            .collect();
        assert!(lines.len() >= 2, "{what}: {text}");
        for l in &lines {
            assert!(
                l["timestamp"].is_string() && l["level"].is_string(),
                "{what}: {l}"
            );
        }
        let hello = lines
            .iter()
            .find(|l| l["fields"]["message"] == "hello")
            .unwrap_or_else(|| panic!("{what}: no hello in {text}"));
        assert_eq!(hello["fields"]["name"], "ann", "{hello}");
        assert_eq!(hello["level"], "INFO", "{hello}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_check_asks_the_running_server_and_says_how_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let stderr = dir.path().join("stderr.txt");
    let data = dir.path().join("data");
    let (server, addr) = start(
        &[("PARLOR_NO_LOG_FILE", "1")],
        &[
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
            data.to_str().unwrap(),
        ],
        &stderr,
    );
    // Asked on the port it listens on (as the container asks it, by PARLOR_LISTEN), then on 0.0.0.0 (asked on
    // loopback).
    let listen = addr.to_string();
    let any = format!("0.0.0.0:{}", addr.port());
    for (vars, args) in [
        (
            vec![("PARLOR_LISTEN", listen.as_str())],
            vec!["--health-check"],
        ),
        (vec![], vec!["--health-check", "--listen", any.as_str()]),
    ] {
        let out = command(&vars, &args, &dir.path().join("check.txt"))
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{said}");
        assert_eq!(said, "parlor-server: healthy: ok\n");
    }
    drop(server);
    // Nobody listening: not healthy, exit 1, with why.
    let out = command(
        &[],
        &["--health-check", "--listen", &listen],
        &dir.path().join("check.txt"),
    )
    .output()
    .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let why = std::fs::read_to_string(dir.path().join("check.txt")).unwrap();
    assert!(
        why.starts_with("parlor-server: not healthy: connecting to"),
        "{why}"
    );
}
