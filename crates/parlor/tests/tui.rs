//! The real binary in a pseudo-terminal (tmux): start, move, undo, quit, resize; and the terminal is restored after
//! a quit, Ctrl-C, SIGTERM and a panic. Needs tmux (`.ci/run` installs it when missing).

mod common;
use common::BIN;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    /// Runs `parlor ARGS` in a new 80x24 pane; when it exits, the pane prints its exit code and `stty -a`.
    fn start(name: &str, dir: &Path, args: &str, extra_env: &str) -> Tmux {
        let socket = format!("parlor-test-{}-{name}", std::process::id());
        let pidfile = dir.join("pid");
        let inner = format!(
            "echo \\$\\$ > '{}'; exec env PARLOR_DATA_DIR='{}' NO_COLOR=1 {extra_env} '{BIN}' {args}",
            pidfile.display(),
            dir.display()
        );
        let script =
            format!("sh -c \"{inner}\"; echo \"exit=$?\"; stty -a; echo END-OF-STTY; sleep 120");
        let t = Tmux { socket };
        let ok = t
            .tmux(&["new-session", "-d", "-x", "80", "-y", "24", &script])
            .status
            .success();
        assert!(ok, "tmux could not start");
        t
    }

    fn tmux(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .env("TERM", "xterm-256color")
            .output()
            .expect("tmux is needed for these tests (apt-get install tmux)")
    }

    fn send(&self, keys: &[&str]) {
        for k in keys {
            self.tmux(&["send-keys", k]);
            std::thread::sleep(Duration::from_millis(60));
        }
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-S", "-200"]).stdout)
            .into_owned()
    }

    fn query(&self, format: &str) -> String {
        String::from_utf8_lossy(&self.tmux(&["display-message", "-p", format]).stdout)
            .trim()
            .to_string()
    }

    fn wait_for(&self, needle: &str) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "timed out waiting for {needle:?}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// After the program left: the exit line and a terminal back in its normal state.
    fn assert_restored(&self, exit: &str) -> String {
        let s = self.wait_for("END-OF-STTY");
        assert!(s.contains(exit), "expected {exit}: {s}");
        let stty = s.split(exit).nth(1).unwrap_or_default();
        assert!(
            stty.contains(" icanon") && !stty.contains("-icanon"),
            "raw mode still on: {s}"
        );
        assert!(
            stty.contains(" echo ") && !stty.contains("-echo "),
            "echo still off: {s}"
        );
        assert_eq!(
            self.query("#{alternate_on}"),
            "0",
            "still on the alternate screen"
        );
        assert_eq!(self.query("#{cursor_flag}"), "1", "cursor hidden");
        assert_eq!(
            self.query("#{mouse_any_flag}"),
            "0",
            "mouse capture still on"
        );
        s
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
    }
}

#[test]
fn play_undo_quit_restores_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("quit", dir.path(), "2048 --seed 3", "");
    t.wait_for("Score 0");
    assert_eq!(
        t.query("#{alternate_on}"),
        "1",
        "full screen uses the alternate screen"
    );
    t.send(&["Left"]);
    t.wait_for("Moves 1");
    t.send(&["u"]);
    t.wait_for("assisted");
    t.send(&["?"]);
    t.wait_for("Help: 2048");
    t.send(&["?", "q"]);
    t.wait_for("Parlor · classic thinking games");
    t.send(&["q"]);
    t.assert_restored("exit=0");
}

#[test]
fn resize_shows_too_small_and_recovers() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("resize", dir.path(), "2048 --seed 4", "");
    t.wait_for("Score 0");
    t.tmux(&["resize-window", "-x", "30", "-y", "8"]);
    t.wait_for("terminal too small");
    t.tmux(&["resize-window", "-x", "80", "-y", "24"]);
    t.wait_for("Score 0");
    t.send(&["q", "q"]);
    t.assert_restored("exit=0");
}

#[test]
fn ctrl_c_quits_restores_and_keeps_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("ctrlc", dir.path(), "2048 --seed 5", "");
    t.wait_for("Score 0");
    t.send(&["Right"]);
    t.wait_for("Moves 1");
    t.send(&["C-c"]);
    t.assert_restored("exit=0");
    let saved = parlor::storage::Store::open(dir.path())
        .unwrap()
        .store
        .unfinished(None)
        .unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].seed, 5);
}

#[test]
fn sigterm_quits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("term", dir.path(), "", "");
    t.wait_for("Parlor · classic thinking games");
    let pid = std::fs::read_to_string(dir.path().join("pid")).unwrap();
    let ok = Command::new("kill")
        .args(["-TERM", pid.trim()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
    t.assert_restored("exit=0");
}

#[test]
fn a_panic_restores_the_terminal_and_shows_its_message() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("panic", dir.path(), "2048 --seed 6", "PARLOR_TEST_PANIC=1");
    t.wait_for("Score 0");
    t.send(&["F12"]);
    let s = t.assert_restored("exit=101");
    assert!(s.contains("test panic requested"), "{s}");
}

#[test]
fn closing_the_terminal_ends_the_process_and_keeps_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let t = Tmux::start("hangup", dir.path(), "2048 --seed 8", "");
    t.wait_for("Score 0");
    t.send(&["Up"]);
    t.wait_for("Moves 1");
    let pid = std::fs::read_to_string(dir.path().join("pid"))
        .unwrap()
        .trim()
        .to_string();
    t.tmux(&["kill-server"]);
    let start = Instant::now();
    while Path::new(&format!("/proc/{pid}")).exists() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        if stat.split_whitespace().nth(2) == Some("Z") {
            break; // exited, not yet reaped
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "parlor still running after its terminal closed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let saved = parlor::storage::Store::open(dir.path())
        .unwrap()
        .store
        .unfinished(None)
        .unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].moves, "up");
}
