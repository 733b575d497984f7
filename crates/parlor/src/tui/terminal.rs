//! Entering and leaving the full-screen mode. The terminal is put back (raw mode off, main screen, cursor shown, mouse
//! capture off) on every way out: a normal quit, an error, a panic (before its message is printed, so the message is
//! readable), and SIGTERM, SIGHUP, SIGINT or SIGQUIT (turned into a clean quit by a flag the event loop checks; in raw
//! mode `Ctrl-C` and `Ctrl-\` are keys, so SIGINT and SIGQUIT come from `kill`, and their default action would end
//! the process with the terminal still raw).
//!
//! Suspending (Ctrl-Z, a key in raw mode, or SIGTSTP from `kill -TSTP`) gives the terminal back the same way before
//! the process stops, so the shell it returns to is usable; on SIGCONT the full screen is taken back and redrawn
//! whole ([`suspend_if_asked`], called by the event loop).
//!
//! On Windows, console control events take the signals' place (Ctrl-C, Ctrl-Break, the window closing, log-off;
//! `crate::host::ctrl_windows`), and there is no suspend: stopping a process and continuing it is a Unix feature,
//! so Ctrl-Z is an ordinary key there.

use anyhow::Result;
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{Stdout, stdout};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the full-screen mode is on, so that restoring happens once (leaving the alternate screen twice would
/// move the cursor back over what was printed in between, such as a panic message).
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// Whether mouse capture was asked for on entering (taken back after a suspend).
static MOUSE: AtomicBool = AtomicBool::new(false);

/// Raised by SIGTSTP or Ctrl-Z: the event loop suspends at its next turn.
static SUSPEND: AtomicBool = AtomicBool::new(false);

/// Whether a key is Ctrl-Z, which suspends the full screen as it would a cooked-mode program (on Unix: Windows has
/// no suspend, and there Ctrl-Z is an ordinary key).
pub fn is_suspend(key: &crate::input::KeyEvent) -> bool {
    cfg!(unix)
        && key.modifiers.contains(crate::input::KeyModifiers::CONTROL)
        && matches!(
            key.code,
            crate::input::KeyCode::Char('z') | crate::input::KeyCode::Char('Z')
        )
}

/// Asks the event loop to suspend (Ctrl-Z).
pub fn request_suspend() {
    SUSPEND.store(true, Ordering::SeqCst);
}

/// If a suspend was asked for (SIGTSTP, Ctrl-Z): gives the terminal back (main screen, cursor shown, mouse
/// reporting off, cooked mode), stops the process as SIGTSTP's default action would, and once continued (SIGCONT)
/// takes the full screen back. Returns whether it suspended: the caller then redraws everything.
pub fn suspend_if_asked() -> Result<bool> {
    if !SUSPEND.swap(false, Ordering::SeqCst) || !ACTIVE.load(Ordering::SeqCst) {
        return Ok(false);
    }
    restore();
    stop_until_continued()?;
    take_back(MOUSE.load(Ordering::SeqCst))?;
    Ok(true)
}

/// Stops the process until SIGCONT (SIGTSTP's default action, which our handler replaced, is to stop).
#[cfg(unix)]
fn stop_until_continued() -> Result<()> {
    signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP)?;
    Ok(())
}

/// Windows cannot stop a process to be continued later; nothing asks for a suspend there ([`is_suspend`]).
#[cfg(not(unix))]
fn stop_until_continued() -> Result<()> {
    Ok(())
}

/// Raw mode, the alternate screen and, if `mouse`, mouse capture: the full screen's terminal modes.
fn take_back(mouse: bool) -> Result<()> {
    ACTIVE.store(true, Ordering::SeqCst);
    enable_raw_mode()?;
    let mut out = stdout();
    let entered = if mouse {
        execute!(out, EnterAlternateScreen, EnableMouseCapture)
    } else {
        execute!(out, EnterAlternateScreen)
    };
    if let Err(e) = entered {
        restore();
        return Err(e.into());
    }
    Ok(())
}

/// Puts the terminal back as it was. Safe to call more than once: only the first call after entering acts.
pub fn restore() {
    if !ACTIVE.swap(false, Ordering::SeqCst) {
        return;
    }
    let mut out = stdout();
    let _ = execute!(
        out,
        DisableMouseCapture,
        LeaveAlternateScreen,
        crossterm::cursor::Show
    );
    let _ = disable_raw_mode();
}

/// The full-screen terminal; restores the terminal when dropped.
pub struct Screen {
    /// The ratatui terminal to draw on.
    pub terminal: Terminal<CrosstermBackend<Stdout>>,
    /// Raised by SIGTERM, SIGHUP, SIGINT and SIGQUIT.
    pub stop: Arc<AtomicBool>,
}

impl Screen {
    /// Enters raw mode and the alternate screen, with mouse capture if `mouse`.
    pub fn enter(mouse: bool) -> Result<Screen> {
        let stop = Arc::new(AtomicBool::new(false));
        watch_signals(Arc::clone(&stop))?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
        MOUSE.store(mouse, Ordering::SeqCst);
        take_back(mouse)?;
        let terminal = match Terminal::new(CrosstermBackend::new(stdout())) {
            Ok(t) => t,
            Err(e) => {
                restore();
                return Err(e.into());
            }
        };
        Ok(Screen { terminal, stop })
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        restore();
    }
}

/// On SIGTSTP, asks the event loop to suspend. On SIGTERM, SIGHUP, SIGINT or SIGQUIT, asks the event loop to quit cleanly (it checks `stop` several times a
/// second). If it has not stopped shortly after (a closed terminal can leave the input reader stuck), restores what
/// can be restored and exits: every move is saved as it is made, so nothing is lost.
#[cfg(unix)]
fn watch_signals(stop: Arc<AtomicBool>) -> Result<()> {
    let mut signals = signal_hook::iterator::Signals::new([
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGQUIT,
    ])?;
    let mut stops = signal_hook::iterator::Signals::new([signal_hook::consts::SIGTSTP])?;
    std::thread::spawn(move || {
        for _ in stops.forever() {
            SUSPEND.store(true, Ordering::SeqCst);
        }
    });
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            stop.store(true, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_millis(750));
            restore();
            std::process::exit(0);
        }
    });
    Ok(())
}

/// On Windows, the console control events (Ctrl-C, Ctrl-Break, close, log-off, shutdown) do what the signals do on
/// Unix: ask the event loop to quit cleanly, and restore and exit if it has not shortly after.
#[cfg(windows)]
fn watch_signals(stop: Arc<AtomicBool>) -> Result<()> {
    crate::host::ctrl_windows::watch(stop, restore)
}
