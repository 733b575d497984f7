//! Background work: how the core asks for long work (the computer's thinking, a solver) to run off the UI.

/// Runs work in the background. The core's [`crate::mid::jobs::Job`] wraps it: it polls for the result and asks
/// the work to stop through a flag, so a runner only has to start the work.
pub trait Runner: Send + Sync {
    /// Runs `work` in the background (the terminal: on its own thread), or at once, before returning, where
    /// there is no background ([`RunNow`]).
    fn run(&self, work: Box<dyn FnOnce() + Send>);
    /// Waits about `ms` milliseconds before polling work again (the terminal sleeps; where work runs at once there
    /// is nothing to wait for, and it returns at once).
    fn pause(&self, ms: u64) {
        let _ = ms;
    }
}

/// Runs work at once, on the caller's thread: for a machine without threads (a browser's main thread) and tests.
/// The work is finished by the time [`Runner::run`] returns, so polling finds it done.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunNow;

impl Runner for RunNow {
    fn run(&self, work: Box<dyn FnOnce() + Send>) {
        work();
    }
}
