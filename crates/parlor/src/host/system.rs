//! The terminal's services: the system clock, the process id and threads.

use super::{Clock, Entropy, Runner};
use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// The system clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn unix_nanos(&self) -> u128 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    }

    fn monotonic_ms(&self) -> u64 {
        static START: OnceLock<Instant> = OnceLock::new();
        let start = *START.get_or_init(Instant::now);
        u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// The process id tells Parlors apart.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProcessId;

impl Entropy for ProcessId {
    fn instance(&self) -> u64 {
        u64::from(std::process::id())
    }
}

/// Every piece of work on its own thread.
#[derive(Clone, Copy, Debug, Default)]
pub struct Threads;

impl Runner for Threads {
    fn run(&self, work: Box<dyn FnOnce() + Send>) {
        std::thread::spawn(work);
    }

    fn pause(&self, ms: u64) {
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_monotonic_clock_never_goes_back() {
        let a = SystemClock.monotonic_ms();
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(SystemClock.monotonic_ms() >= a + 5);
        assert!(SystemClock.unix_nanos() > 1_600_000_000_000_000_000);
    }
}
