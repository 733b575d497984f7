//! The server's own time: the milliseconds it has been running, with the stretches it was not running left out.
//!
//! Game clocks, first-move limits, grace periods and offers all count in this time. A server process that is stopped
//! (SIGSTOP, a debugger, a virtual machine paused) reads its monotonic clock as having run on meanwhile, so on waking
//! it would end every timed game on time and every held seat on grace at once, for a wait that was the server's, not
//! the players'. The server reads this clock at least every tick; two readings further apart than
//! [`RunClock::stall`] mean it did not run in between, and of such a gap only one tick is counted.
//!
//! [`Reading`] is the rule with made-up instants (tested below); [`RunClock`] reads the process's monotonic clock.

use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The rule: raw milliseconds (since the start, as the monotonic clock says) in, running milliseconds out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reading {
    /// The latest raw time read.
    last_raw_ms: u64,
    /// The milliseconds left out so far: the server was not running.
    stopped_ms: u64,
}

impl Reading {
    /// The running time at raw time `raw_ms`. A gap since the last reading longer than `stall_ms` counts as
    /// `tick_ms` only (the server was stopped; its first tick after waking is the only one it missed); a reading
    /// earlier than the last (two threads racing) is taken as the last.
    pub fn at(&mut self, raw_ms: u64, stall_ms: u64, tick_ms: u64) -> u64 {
        let raw = raw_ms.max(self.last_raw_ms);
        let gap = raw - self.last_raw_ms;
        if gap > stall_ms {
            self.stopped_ms = self.stopped_ms.saturating_add(gap - tick_ms.min(gap));
        }
        self.last_raw_ms = raw;
        raw.saturating_sub(self.stopped_ms)
    }

    /// The milliseconds left out so far.
    pub fn stopped_ms(&self) -> u64 {
        self.stopped_ms
    }
}

/// The server's running time, read from the process's monotonic clock.
#[derive(Debug)]
pub struct RunClock {
    start: Instant,
    tick_ms: u64,
    stall_ms: u64,
    reading: Mutex<Reading>,
}

impl RunClock {
    /// A clock started now, read at least every `tick`: a gap of more than [`RunClock::stall`] (ten ticks, at
    /// least a second) is a stop.
    pub fn new(tick: Duration) -> RunClock {
        let tick_ms = u64::try_from(tick.as_millis()).unwrap_or(u64::MAX);
        RunClock {
            start: Instant::now(),
            tick_ms,
            stall_ms: RunClock::stall(tick_ms),
            reading: Mutex::new(Reading::default()),
        }
    }

    /// The longest gap between two readings that still counts whole, for a clock read every `tick_ms`: ten ticks,
    /// and at least a second (a loaded machine delays a tick by tens of milliseconds, not by a second).
    pub fn stall(tick_ms: u64) -> u64 {
        tick_ms.saturating_mul(10).max(1_000)
    }

    fn reading(&self) -> std::sync::MutexGuard<'_, Reading> {
        // A reading is two integers, whole after any panic.
        self.reading.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The milliseconds the server has been running.
    pub fn now_ms(&self) -> u64 {
        let raw = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.reading().at(raw, self.stall_ms, self.tick_ms)
    }

    /// The milliseconds left out so far (Unix time is the start's plus the running time plus these).
    pub fn stopped_ms(&self) -> u64 {
        self.reading().stopped_ms()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TICK: u64 = 100;
    const STALL: u64 = 1_000;

    #[test]
    fn readings_a_tick_apart_count_whole() {
        let mut r = Reading::default();
        for raw in (0..=5_000).step_by(100) {
            assert_eq!(r.at(raw, STALL, TICK), raw);
        }
        assert_eq!(r.stopped_ms(), 0);
    }

    #[test]
    fn a_late_tick_under_load_still_counts_whole() {
        let mut r = Reading::default();
        assert_eq!(r.at(100, STALL, TICK), 100);
        assert_eq!(
            r.at(1_100, STALL, TICK),
            1_100,
            "a gap of exactly the stall counts"
        );
        assert_eq!(r.stopped_ms(), 0);
    }

    #[test]
    fn a_stop_counts_as_one_tick() {
        let mut r = Reading::default();
        assert_eq!(r.at(1_000, STALL, TICK), 1_000);
        // Stopped for a minute: only one tick of it is running time.
        assert_eq!(r.at(61_000, STALL, TICK), 1_100);
        assert_eq!(r.stopped_ms(), 59_900);
        // Afterwards the time runs on from there.
        assert_eq!(r.at(61_100, STALL, TICK), 1_200);
        // A second stop adds up.
        assert_eq!(r.at(71_100, STALL, TICK), 1_300);
        assert_eq!(r.stopped_ms(), 69_800);
    }

    #[test]
    fn a_reading_behind_the_last_is_taken_as_the_last() {
        let mut r = Reading::default();
        assert_eq!(r.at(500, STALL, TICK), 500);
        assert_eq!(r.at(400, STALL, TICK), 500, "time never runs backwards");
        assert_eq!(r.at(600, STALL, TICK), 600);
    }

    #[test]
    fn the_stall_is_ten_ticks_and_at_least_a_second() {
        assert_eq!(RunClock::stall(100), 1_000);
        assert_eq!(RunClock::stall(10), 1_000);
        assert_eq!(RunClock::stall(500), 5_000);
        assert_eq!(RunClock::stall(u64::MAX), u64::MAX);
    }

    #[test]
    fn the_process_clock_runs() {
        let clock = RunClock::new(Duration::from_millis(100));
        let a = clock.now_ms();
        std::thread::sleep(Duration::from_millis(20));
        let b = clock.now_ms();
        assert!(b >= a + 20, "{a} then {b}");
        assert_eq!(clock.stopped_ms(), 0);
    }
}
