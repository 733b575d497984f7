//! The real `parlor` binary in a pseudo-terminal, read through a terminal emulator: the tests see exactly what a
//! user's terminal would show, and check the modes the program leaves behind when it ends.
//!
//! `portable-pty` opens the pseudo-terminal and starts the binary as the session leader with the pty as its
//! controlling terminal (so it gets SIGWINCH on a resize and SIGHUP when the terminal closes); a reader thread feeds
//! every byte the program writes to a `vt100` parser, which keeps the screen and the terminal modes (alternate
//! screen, cursor visibility, mouse reporting). The pty's own modes (raw mode, echo) are read with `tcgetattr`.
//!
//! ```ignore
//! let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "3"]));
//! p.wait_for("Score 0");
//! p.press(Key::Left);
//! p.wait_for("Moves 1");
//! p.press(Key::Char('q'));
//! p.finish().assert_restored_with(0);
//! ```
//!
//! Synchronisation is always on what the screen shows ([`Pty::wait_for`]) or on the process ([`Pty::wait_exit`]),
//! each with a timeout, never on a fixed sleep.

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, SlavePty, native_pty_system};
use std::fs::File;
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::os::fd::{AsRawFd, FromRawFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How long [`Pty::wait_for`] and [`Pty::wait_exit`] wait before failing the test (generous: CI machines are slow
/// and shared; a passing test never waits this long).
pub const TIMEOUT: Duration = Duration::from_secs(20);

/// What to start: arguments, extra environment and the terminal's size.
pub struct Spawn {
    args: Vec<String>,
    env: Vec<(String, String)>,
    cols: u16,
    rows: u16,
}

impl Spawn {
    /// `parlor ARGS` with its data in `data_dir`, no colour, `TERM=xterm-256color`, no backtraces, in an 80x24
    /// terminal.
    pub fn new(data_dir: &Path, args: &[&str]) -> Spawn {
        Spawn {
            args: args.iter().map(|a| a.to_string()).collect(),
            env: vec![
                ("PARLOR_DATA_DIR".into(), data_dir.display().to_string()),
                ("NO_COLOR".into(), "1".into()),
                ("TERM".into(), "xterm-256color".into()),
                // A backtrace would push a panic's message off a 24-row screen.
                ("RUST_BACKTRACE".into(), "0".into()),
            ],
            cols: 80,
            rows: 24,
        }
    }

    /// Adds (or overrides) one environment variable.
    pub fn env(mut self, key: &str, value: &str) -> Spawn {
        self.env.retain(|(k, _)| k != key);
        self.env.push((key.into(), value.into()));
        self
    }

    /// The terminal's size in columns and rows.
    pub fn size(mut self, cols: u16, rows: u16) -> Spawn {
        self.cols = cols;
        self.rows = rows;
        self
    }
}

/// A key as a terminal sends it.
#[derive(Clone, Copy, Debug)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter (carriage return, as a terminal sends it).
    Enter,
    /// Escape, alone.
    Esc,
    /// The up arrow.
    Up,
    /// The down arrow.
    Down,
    /// The left arrow.
    Left,
    /// The right arrow.
    Right,
    /// Page Down.
    PageDown,
    /// Ctrl and a letter (`Ctrl('c')` is byte 0x03, which a terminal in raw mode passes on as a key).
    Ctrl(char),
    /// Function key F1..=F12.
    F(u8),
}

impl Key {
    /// The bytes a terminal sends for this key; arrows follow the cursor-key mode the program has set.
    fn bytes(self, application_cursor: bool) -> Vec<u8> {
        let arrow = |c: u8| {
            if application_cursor {
                vec![0x1b, b'O', c]
            } else {
                vec![0x1b, b'[', c]
            }
        };
        match self {
            Key::Char(c) => c.to_string().into_bytes(),
            Key::Enter => vec![b'\r'],
            Key::Esc => vec![0x1b],
            Key::Up => arrow(b'A'),
            Key::Down => arrow(b'B'),
            Key::Right => arrow(b'C'),
            Key::Left => arrow(b'D'),
            Key::PageDown => b"\x1b[6~".to_vec(),
            Key::Ctrl(c) => vec![(c.to_ascii_lowercase() as u8) & 0x1f],
            Key::F(n) => {
                let seq = match n {
                    1 => "\x1bOP",
                    2 => "\x1bOQ",
                    3 => "\x1bOR",
                    4 => "\x1bOS",
                    5 => "\x1b[15~",
                    6 => "\x1b[17~",
                    7 => "\x1b[18~",
                    8 => "\x1b[19~",
                    9 => "\x1b[20~",
                    10 => "\x1b[21~",
                    11 => "\x1b[23~",
                    12 => "\x1b[24~",
                    _ => panic!("no function key F{n}"),
                };
                seq.as_bytes().to_vec()
            }
        }
    }
}

/// How the process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    /// The exit code (1 when killed by a signal).
    pub code: u32,
    /// The signal's description when it was killed by one (`strsignal`, e.g. "Interrupt").
    pub signal: Option<String>,
}

/// The screen and modes of the terminal, and the pty's line discipline flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineModes {
    /// `c_iflag`.
    pub iflag: libc::tcflag_t,
    /// `c_oflag`.
    pub oflag: libc::tcflag_t,
    /// `c_lflag` (ECHO, ICANON, ISIG, ...).
    pub lflag: libc::tcflag_t,
}

impl LineModes {
    /// Whether typed characters are echoed.
    pub fn echo(&self) -> bool {
        self.lflag & libc::ECHO != 0
    }
    /// Whether input is line-buffered (off in raw mode).
    pub fn canonical(&self) -> bool {
        self.lflag & libc::ICANON != 0
    }
    /// Whether Ctrl-C and Ctrl-\ raise signals (off in raw mode).
    pub fn signals(&self) -> bool {
        self.lflag & libc::ISIG != 0
    }
}

/// What is left once the program has ended: its exit, the terminal's last screen and modes, and the pty's modes.
pub struct Ended {
    /// How it ended.
    pub exit: Exit,
    /// The emulated terminal after every byte the program wrote.
    pub screen: vt100::Screen,
    /// The pty's modes after the program ended.
    pub modes: LineModes,
    /// The pty's modes before the program started.
    pub modes_before: LineModes,
}

impl Ended {
    /// The visible text of the last screen.
    pub fn text(&self) -> String {
        self.screen.contents()
    }

    /// Asserts the program exited with `code` (not killed by a signal) and gave the terminal back as it found it:
    /// line discipline as before (echo, canonical input, signal keys), main screen, cursor shown, mouse reporting
    /// off.
    pub fn assert_restored_with(&self, code: u32) {
        self.assert_terminal_restored();
        assert_eq!(
            self.exit,
            Exit { code, signal: None },
            "unexpected exit; last screen:\n{}",
            self.text()
        );
    }

    /// The terminal half of [`Ended::assert_restored_with`], whatever the exit.
    pub fn assert_terminal_restored(&self) {
        let text = self.text();
        assert!(self.modes.echo(), "echo still off; screen:\n{text}");
        assert!(
            self.modes.canonical(),
            "raw mode still on (ICANON off); screen:\n{text}"
        );
        assert!(
            self.modes.signals(),
            "raw mode still on (ISIG off); screen:\n{text}"
        );
        assert_eq!(
            self.modes, self.modes_before,
            "line discipline not as it was before the program started"
        );
        assert!(
            !self.screen.alternate_screen(),
            "still on the alternate screen:\n{text}"
        );
        assert!(!self.screen.hide_cursor(), "cursor still hidden:\n{text}");
        assert_eq!(
            self.screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse capture still on"
        );
    }
}

/// The screen, shared between the reader thread and the test, with a condition variable signalled on new output.
struct Shared {
    parser: Mutex<vt100::Parser>,
    changed: Condvar,
}

/// A running `parlor` in a pseudo-terminal. Dropping it kills the process if it is still running.
pub struct Pty {
    master: Option<Box<dyn MasterPty + Send>>,
    /// Our own handle on the terminal side, so that the pty (and its modes) outlive the program.
    slave: Option<Box<dyn SlavePty + Send>>,
    /// A duplicate of the master for writing keys (portable-pty's writer sends an EOF when dropped).
    input: File,
    child: Box<dyn Child + Send + Sync>,
    pid: i32,
    shared: Arc<Shared>,
    stop_reader: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
    modes_before: LineModes,
    exit: Option<Exit>,
}

/// Duplicates `fd` with close-on-exec (so no other test's child inherits it).
fn dup_cloexec(fd: i32) -> File {
    // SAFETY: F_DUPFD_CLOEXEC returns a new descriptor that we own, or -1.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    assert!(new >= 0, "dup: {}", std::io::Error::last_os_error());
    // SAFETY: `new` is a fresh, open descriptor owned by nobody else.
    unsafe { File::from_raw_fd(new) }
}

/// A terminal dimension, which is never 0.
fn nonzero(n: u16) -> NonZeroU16 {
    NonZeroU16::new(n).expect("a terminal is at least 1x1")
}

/// The pty's line discipline flags, read through the master.
fn line_modes(fd: i32) -> LineModes {
    // SAFETY: termios is plain data; tcgetattr fills it or fails.
    let mut t: libc::termios = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::tcgetattr(fd, &mut t) };
    assert_eq!(r, 0, "tcgetattr: {}", std::io::Error::last_os_error());
    LineModes {
        iflag: t.c_iflag,
        oflag: t.c_oflag,
        lflag: t.c_lflag,
    }
}

/// Feeds everything the program writes to the parser until end of file or `stop`; polls so that `stop` is seen.
fn read_loop(mut from: File, shared: Arc<Shared>, stop: Arc<AtomicBool>) {
    let mut buf = [0u8; 8192];
    while !stop.load(Ordering::SeqCst) {
        let mut pfd = libc::pollfd {
            fd: from.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&mut pfd, 1, 50) };
        if ready <= 0 {
            continue;
        }
        match from.read(&mut buf) {
            Ok(0) | Err(_) => break, // EIO once no process holds the terminal side
            Ok(n) => {
                let mut parser = shared.parser.lock().unwrap();
                parser.process(&buf[..n]);
                shared.changed.notify_all();
            }
        }
    }
    shared.changed.notify_all();
}

impl Pty {
    /// Opens a pseudo-terminal of the given size and starts `parlor` in it.
    pub fn spawn(spec: Spawn) -> Pty {
        let pair = native_pty_system()
            .openpty(PtySize {
                rows: spec.rows,
                cols: spec.cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("open a pseudo-terminal");
        let fd = pair.master.as_raw_fd().expect("the master's descriptor");
        let modes_before = line_modes(fd);
        let mut cmd = CommandBuilder::new(super::BIN);
        cmd.args(&spec.args);
        for (k, v) in &spec.env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("start parlor");
        let pid = child.process_id().expect("a process id") as i32;
        let shared = Arc::new(Shared {
            parser: Mutex::new(vt100::Parser::new(
                nonzero(spec.rows),
                nonzero(spec.cols),
                0,
            )),
            changed: Condvar::new(),
        });
        let stop_reader = Arc::new(AtomicBool::new(false));
        let reader = {
            let (from, shared, stop) = (
                dup_cloexec(fd),
                Arc::clone(&shared),
                Arc::clone(&stop_reader),
            );
            std::thread::spawn(move || read_loop(from, shared, stop))
        };
        Pty {
            input: dup_cloexec(fd),
            master: Some(pair.master),
            slave: Some(pair.slave),
            child,
            pid,
            shared,
            stop_reader,
            reader: Some(reader),
            modes_before,
            exit: None,
        }
    }

    /// The process id (also its process group and session: it is the session leader).
    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// The visible text of the screen now.
    pub fn text(&self) -> String {
        self.shared.parser.lock().unwrap().screen().contents()
    }

    /// Runs `f` on the screen as it is now (for the modes: `alternate_screen()`, `hide_cursor()`, ...).
    pub fn with_screen<T>(&self, f: impl FnOnce(&vt100::Screen) -> T) -> T {
        f(self.shared.parser.lock().unwrap().screen())
    }

    /// Waits until the screen shows `needle` and returns the screen's text; fails the test after [`TIMEOUT`].
    pub fn wait_for(&self, needle: &str) -> String {
        self.wait_until(needle, |s| s.contents().contains(needle))
    }

    /// Waits until the screen satisfies `done` (described by `what` in the failure message) and returns its text.
    /// Use it for modes too: a program writes its text and its modes in separate sequences, so a mode is only
    /// certain once it has been waited for.
    pub fn wait_until(&self, what: &str, done: impl Fn(&vt100::Screen) -> bool) -> String {
        let deadline = Instant::now() + TIMEOUT;
        let mut parser = self.shared.parser.lock().unwrap();
        loop {
            if done(parser.screen()) {
                return parser.screen().contents();
            }
            let now = Instant::now();
            assert!(
                now < deadline,
                "timed out waiting for {what:?}; screen:\n{}",
                parser.screen().contents()
            );
            parser = self
                .shared
                .changed
                .wait_timeout(parser, deadline - now)
                .unwrap()
                .0;
        }
    }

    /// Types one key.
    pub fn press(&mut self, key: Key) {
        let app_cursor = self.with_screen(|s| s.application_cursor());
        self.input
            .write_all(&key.bytes(app_cursor))
            .expect("write to the terminal");
    }

    /// Types several keys, each as its own write (like a person typing quickly; avoid a lone Esc followed by
    /// other keys, which a program may read as one Alt sequence).
    pub fn press_all(&mut self, keys: &[Key]) {
        for &k in keys {
            self.press(k);
        }
    }

    /// Resizes the terminal: the emulator first, then the pty (which sends SIGWINCH to the program).
    pub fn resize(&self, cols: u16, rows: u16) {
        self.shared
            .parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(nonzero(rows), nonzero(cols));
        self.master
            .as_ref()
            .expect("terminal open")
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("resize the pty");
    }

    /// The pty's line discipline now (the program still running).
    pub fn modes(&self) -> LineModes {
        let fd = self
            .master
            .as_ref()
            .and_then(|m| m.as_raw_fd())
            .expect("the terminal is open");
        line_modes(fd)
    }

    /// Waits until the program is stopped (`T` in `/proc/PID/stat`: SIGSTOP, SIGTSTP), at most [`TIMEOUT`].
    pub fn wait_stopped(&self) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let stat =
                std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).unwrap_or_default();
            // The state follows the command name, which is in parentheses.
            let state = stat.rsplit(") ").next().and_then(|r| r.chars().next());
            if state == Some('T') {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "parlor not stopped after {TIMEOUT:?} (state {state:?}); screen:\n{}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Sends `signal` (e.g. `libc::SIGTERM`) to the program.
    pub fn signal(&self, signal: i32) {
        // SAFETY: kill has no memory effects.
        let r = unsafe { libc::kill(self.pid, signal) };
        assert_eq!(r, 0, "kill: {}", std::io::Error::last_os_error());
    }

    /// Closes the terminal as a terminal emulator's window closing does: the master side goes away, and the
    /// kernel hangs up the program's terminal (SIGHUP). The screen is no longer read after this.
    pub fn close_terminal(&mut self) {
        self.stop_reader.store(true, Ordering::SeqCst);
        if let Some(r) = self.reader.take() {
            r.join().expect("reader thread");
        }
        // Our other handles on the master go too; the terminal side we hold does not keep the master open.
        self.input = File::open("/dev/null").expect("/dev/null");
        self.master = None;
        self.slave = None;
    }

    /// Waits for the program to exit, at most [`TIMEOUT`]; fails the test if it does not.
    pub fn wait_exit(&mut self) -> Exit {
        if let Some(e) = &self.exit {
            return e.clone();
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for parlor") {
                let exit = Exit {
                    code: status.exit_code(),
                    signal: status.signal().map(str::to_string),
                };
                self.exit = Some(exit.clone());
                return exit;
            }
            assert!(
                Instant::now() < deadline,
                "parlor still running after {TIMEOUT:?}; screen:\n{}",
                self.text()
            );
            // Polling the process (no way to wait on a child with a timeout in std); the screen syncs elsewhere.
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits for the program to exit, reads the pty's modes, then every byte it wrote (the reader reaches end of
    /// file once our own handle on the terminal side is closed), and returns what is left.
    pub fn finish(mut self) -> Ended {
        let exit = self.wait_exit();
        let fd = self
            .master
            .as_ref()
            .and_then(|m| m.as_raw_fd())
            .expect("finish() needs the terminal open");
        let modes = line_modes(fd);
        self.slave = None;
        if let Some(r) = self.reader.take() {
            let deadline = Instant::now() + TIMEOUT;
            while !r.is_finished() && Instant::now() < deadline {
                // The reader ends at end of file; this bounds the wait should something else hold the terminal.
                std::thread::sleep(Duration::from_millis(5));
            }
            self.stop_reader.store(true, Ordering::SeqCst);
            r.join().expect("reader thread");
        }
        let screen = self.shared.parser.lock().unwrap().screen().clone();
        Ended {
            exit,
            screen,
            modes,
            modes_before: self.modes_before,
        }
    }
}

impl Drop for Pty {
    fn drop(&mut self) {
        if self.exit.is_none() {
            // SAFETY: kill has no memory effects; the child is ours and not yet reaped.
            unsafe { libc::kill(self.pid, libc::SIGKILL) };
            let _ = self.child.wait();
        }
        self.stop_reader.store(true, Ordering::SeqCst);
        if let Some(r) = self.reader.take() {
            let _ = r.join();
        }
    }
}
