//! `parlor serve`'s options from environment variables, through the real binary: the server's variables
//! (`PARLOR_LISTEN`, `PARLOR_NO_LOG_FILE`, ...) with Parlor's own `PARLOR_DATA_DIR`, the operator's endpoint
//! answering on the listener they set; and a bad value refused with the variable named.

use crate::common::BIN;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a wait here takes.
const WAIT: Duration = Duration::from_secs(20);

fn serve(vars: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    for v in [
        "PARLOR_LISTEN",
        "PARLOR_LOG_FILE",
        "PARLOR_NO_LOG_FILE",
        "PARLOR_LOG_FORMAT",
        "PARLOR_HEARTBEAT",
        "PARLOR_MAX_CONNECTIONS_PER_IP",
        "PARLOR_MAX_REGISTRATIONS_PER_HOUR",
    ] {
        cmd.env_remove(v);
    }
    cmd.arg("serve")
        .envs(vars.iter().copied())
        .stdin(Stdio::null());
    cmd
}

#[test]
fn serve_takes_its_options_from_variables_and_names_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let mut child = serve(&[
        ("PARLOR_LISTEN", "127.0.0.1:0"),
        ("PARLOR_DATA_DIR", data),
        ("PARLOR_NO_LOG_FILE", "true"),
    ])
    .stdout(Stdio::piped())
    .stderr(Stdio::null())
    .spawn()
    .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(WAIT)
        .expect("parlor serve says where it listens");
    let addr = line
        .split("ws://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("{line:?}"))
        .to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{line}");
    // /healthz on the listener PARLOR_LISTEN chose.
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("ok\n"), "{answer}");
    let _ = child.kill();
    let _ = child.wait();
    assert!(dir.path().join("server.db").exists());
    assert!(
        !dir.path().join("server.log").exists(),
        "PARLOR_NO_LOG_FILE"
    );

    let out = serve(&[("PARLOR_DATA_DIR", data), ("PARLOR_HEARTBEAT", "0")])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + WAIT;
    let mut out = out;
    let status = loop {
        if let Some(s) = out.try_wait().unwrap() {
            break s;
        }
        assert!(Instant::now() < deadline, "parlor serve did not refuse");
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut stderr = String::new();
    out.stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!status.success(), "{stderr}");
    assert!(
        stderr.contains(
            "0 s is out of range: the heartbeat is 1 to 3600 s (the value of PARLOR_HEARTBEAT)"
        ),
        "{stderr}"
    );
}
