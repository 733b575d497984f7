//! Windows console control events, where Unix has signals: Ctrl-C and Ctrl-Break (keys only outside raw mode, so
//! in the full screen they come from another program, as `kill -INT` would on Unix), the console window closing,
//! the user logging off and the system shutting down. Each raises the full screen's stop flag, as SIGINT, SIGTERM
//! and SIGHUP do on Unix; if the event loop has not quit shortly after, what can be restored of the terminal is
//! restored and the process exits. Every move is saved as it is made, so nothing is lost either way (after a
//! close, log-off or shutdown event Windows ends the process within seconds whatever the handler does).
//!
//! The handler is the `ctrlc` crate's (`SetConsoleCtrlHandler`). A process has one: it is installed the first time
//! [`watch`] is called, and later calls add their flag to those it raises.

use anyhow::{Result, anyhow};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// The flags the handler raises, and what it calls before exiting.
struct Watchers {
    /// Raised on any control event.
    stops: Vec<Arc<AtomicBool>>,
    /// Called when the event loop has not quit in time, just before the process exits.
    restore: Option<fn()>,
}

/// The flags raised by a control event.
static WATCHERS: Mutex<Watchers> = Mutex::new(Watchers {
    stops: Vec::new(),
    restore: None,
});

/// Whether the handler was installed, or why it could not be.
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// How long the event loop is given to quit on its own before the process exits (as on Unix).
const GRACE: std::time::Duration = std::time::Duration::from_millis(750);

/// On a console control event (Ctrl-C, Ctrl-Break, close, log-off, shutdown), raises `stop`; if the process is
/// still running [`GRACE`] later, calls `restore` and exits with status 0.
pub fn watch(stop: Arc<AtomicBool>, restore: fn()) -> Result<()> {
    let installed = INSTALLED.get_or_init(|| {
        ctrlc::set_handler(on_event).map_err(|e| format!("cannot watch console events: {e}"))
    });
    if let Err(e) = installed {
        return Err(anyhow!("{e}"));
    }
    let mut w = WATCHERS.lock().unwrap_or_else(|e| e.into_inner());
    w.stops.push(stop);
    w.restore = Some(restore);
    Ok(())
}

/// The handler, on `ctrlc`'s own thread.
fn on_event() {
    let restore = {
        let w = WATCHERS.lock().unwrap_or_else(|e| e.into_inner());
        for stop in &w.stops {
            stop.store(true, Ordering::SeqCst);
        }
        w.restore
    };
    std::thread::sleep(GRACE);
    if let Some(restore) = restore {
        restore();
    }
    std::process::exit(0);
}
