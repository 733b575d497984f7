//! Helpers for the end-to-end tests: run the real `parlor` binary in a private data directory.

#![allow(dead_code)]

pub mod app;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_parlor");

/// The variable naming the one test a child process of this test binary runs (see [`in_own_process`]).
const OWN_PROCESS: &str = "PARLOR_TEST_OWN_PROCESS";

/// Whether the calling test runs its body here: `true` in a process of its own, which this function starts.
///
/// Every integration test shares one process (`main.rs`). A test that changes what the whole process shares (a
/// data directory set once for the process, a background build that outlives the test) calls this first with
/// `module_path!()` and its own name: in the shared process it runs this test binary again with only that test
/// (`NAME --exact`, the variable saying which), waits, fails if the test failed there, and returns `false`; in
/// that child process it returns `true`.
pub fn in_own_process(module: &str, test: &str) -> bool {
    // `module_path!()` is `it::file`; a test's name leaves out the crate.
    let module = module.split_once("::").map_or(module, |(_, m)| m);
    let name = format!("{module}::{test}");
    if std::env::var_os(OWN_PROCESS).is_some_and(|v| v == name.as_str()) {
        return true;
    }
    let o = Command::new(std::env::current_exe().expect("the test binary"))
        .args([&name, "--exact", "--include-ignored", "--test-threads", "1"])
        .env(OWN_PROCESS, &name)
        .stdin(Stdio::null())
        .output()
        .expect("run the test binary");
    let text = format!("{}{}", out(&o), err(&o));
    assert!(
        o.status.success(),
        "{name}, in a process of its own:\n{text}"
    );
    assert!(
        text.contains("test result: ok. 1 passed"),
        "{name} did not run in a process of its own:\n{text}"
    );
    false
}

/// A `parlor` command with its own data directory and no colour.
pub fn parlor(dir: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.args(args)
        .env("PARLOR_DATA_DIR", dir)
        .env("NO_COLOR", "1");
    c
}

/// Runs `parlor ARGS` with `input` on stdin (a pipe, so plain mode is automatic).
pub fn run(dir: &Path, args: &[&str], input: &str) -> Output {
    feed(parlor(dir, args), input.as_bytes())
}

/// Runs a prepared `parlor` command with `input` on stdin (a pipe), stdout and stderr captured.
pub fn feed(mut cmd: Command, input: &[u8]) -> Output {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn parlor");
    // A parlor that refuses at once exits without reading its input, and the write can come after it closed the
    // pipe (more likely with every test of the crate running in this process at once): what it printed and its
    // status say what happened, so a broken pipe is not the test's failure.
    match child.stdin.take().expect("stdin").write_all(input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("write stdin"),
    }
    child.wait_with_output().expect("wait for parlor")
}

/// Stdout as text.
pub fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The last board printed in plain mode (the last block of lines starting with '+' or '|').
pub fn last_board(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.starts_with('+'))
        .expect("a board was printed");
    let mut start = end;
    while start > 0 && (lines[start - 1].starts_with('+') || lines[start - 1].starts_with('|')) {
        start -= 1;
    }
    lines[start..=end].join("\n")
}

/// Moves that cycle through every direction, `n` times over, one per line.
pub fn cycle_moves(n: usize) -> String {
    "a\ns\nd\nw\n".repeat(n)
}

/// A printed board without its new/merged marks, to compare positions.
pub fn unmarked(board: &str) -> String {
    board.replace("+|", " |").replace("*|", " |")
}

pub mod pty;

/// Every `.rs` file under `dir`, at any depth, added to `files` (the source-walking checks: layers, file sizes,
/// one folder per game).
pub fn walk_rust_files(dir: &std::path::Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk_rust_files(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}
