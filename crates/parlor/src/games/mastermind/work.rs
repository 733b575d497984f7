//! How far a strategy tree's build has got, measured: the CPU time the process has spent since the build started,
//! against the CPU time such a build takes ([`mastermind::estimated_solve_seconds`], fitted to measured solves).
//!
//! The engine's own count (secrets in finished classes) is no measure of time: Bulls and Cows' small classes finish
//! in the first seconds (32% after 3 s) and its largest class holds the rest of the two minutes (71% for a minute
//! and more). CPU time grows with the work whatever the machine's load, so its share of the estimate moves all the
//! way, and the time left is read from the rate it has been growing at. Past the estimate there is no honest share
//! to show: [`Work::share`] is `None` and the front ends say the build is taking longer than estimated.

use std::time::Duration;

/// The CPU time this process has used, in seconds (user and system, every thread), where the system says
/// (`/proc/self/stat` on Linux, in the terminal); `None` elsewhere.
#[cfg(not(feature = "terminal"))]
pub fn process_cpu_seconds() -> Option<f64> {
    None
}

/// The CPU time this process has used, in seconds (user and system, every thread), where the system says
/// (`/proc/self/stat` on Linux); `None` elsewhere.
#[cfg(feature = "terminal")]
pub fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name, field 2, is in parentheses and may hold spaces: count fields after its ')'.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 (utime) and 15 (stime), in clock ticks of 1/100 s (USER_HZ, fixed at 100 for /proc).
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// One build's measure.
#[derive(Clone, Debug)]
pub struct Work {
    /// CPU seconds the build is expected to take.
    pub estimate: f64,
    /// When it started (the installed monotonic clock's milliseconds).
    started_ms: u64,
    cpu_at_start: Option<f64>,
    /// (wall seconds since the start, CPU seconds spent) at most every second, for the rate.
    samples: Vec<(f64, f64)>,
}

/// The share shown stops short of the end: only the engine's "done" makes it whole.
const MOST: f64 = 0.99;

/// The time left is read from the CPU rate over about this long.
const RATE_WINDOW: f64 = 10.0;

impl Work {
    /// A build starting now, expected to take `estimate` CPU seconds.
    pub fn start(estimate: f64) -> Work {
        Work {
            estimate: estimate.max(0.01),
            started_ms: crate::host::clock().monotonic_ms(),
            cpu_at_start: process_cpu_seconds(),
            samples: Vec::new(),
        }
    }

    /// The CPU seconds spent so far (wall seconds where the system gives no CPU time, as if one core worked).
    pub fn spent(&self) -> f64 {
        match (self.cpu_at_start, process_cpu_seconds()) {
            (Some(a), Some(b)) => (b - a).max(0.0),
            _ => self.elapsed().as_secs_f64(),
        }
    }

    /// Wall time since the start.
    pub fn elapsed(&self) -> Duration {
        Duration::from_millis(
            crate::host::clock()
                .monotonic_ms()
                .saturating_sub(self.started_ms),
        )
    }

    /// Takes a sample (call it now and then: the rate, and so the time left, come from the samples).
    pub fn sample(&mut self) {
        let t = self.elapsed().as_secs_f64();
        if self.samples.last().is_none_or(|&(last, _)| t - last >= 1.0) {
            self.samples.push((t, self.spent()));
            let keep_from = self
                .samples
                .iter()
                .position(|&(s, _)| t - s <= RATE_WINDOW)
                .unwrap_or(0);
            // Keep one sample older than the window, so that the rate always spans it.
            self.samples.drain(..keep_from.saturating_sub(1));
        }
    }

    /// The share of the estimate spent, `None` once past nearly all of it (then the build takes longer than
    /// estimated, and no share would be true).
    pub fn share(&self) -> Option<f64> {
        let s = self.spent() / self.estimate;
        (s <= MOST).then_some(s)
    }

    /// The wall time left: the CPU seconds left over the recent CPU rate (seconds of CPU per second; two busy
    /// cores make 2). `None` past the estimate, or before there is a rate (the first two seconds).
    pub fn left(&self) -> Option<Duration> {
        self.share()?;
        let (&(t0, c0), &(t1, c1)) = (self.samples.first()?, self.samples.last()?);
        let rate = (c1 - c0) / (t1 - t0);
        if t1 - t0 < 1.0 || !rate.is_finite() || rate <= 0.0 {
            return None;
        }
        Some(Duration::from_secs_f64(
            ((self.estimate - self.spent()).max(0.0) / rate).min(1e7),
        ))
    }
}

/// A duration as people say it: `45 s`, `2 min 10 s`, `1 h 5 min`.
pub fn spoken(d: Duration) -> String {
    let s = d.as_secs_f64().round() as u64;
    match s {
        0..60 => format!("{s} s"),
        60..3600 => format!("{} min {} s", s / 60, s % 60),
        _ => format!("{} h {} min", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn the_process_cpu_time_is_read_and_grows_with_work() {
        let Some(before) = process_cpu_seconds() else {
            return; // no /proc: the wall clock stands in, tested below
        };
        // Work until the reading has grown by a tenth of a second: on a loaded machine that may take many times as
        // long on the wall clock, so the bound is generous and only a reading that never grows fails.
        let start = Instant::now();
        let mut x = 0u64;
        let mut after = before;
        while after - before < 0.1 && start.elapsed() < Duration::from_secs(60) {
            for _ in 0..1_000_000 {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            after = process_cpu_seconds().unwrap_or(before);
        }
        std::hint::black_box(x);
        assert!(after - before >= 0.1, "{before} -> {after}");
    }

    #[test]
    fn the_share_stops_short_of_the_end_and_is_none_past_the_estimate() {
        let mut w = Work::start(1e9);
        w.sample();
        let s = w.share().unwrap_or(1.0);
        assert!((0.0..0.01).contains(&s), "{s}");
        let mut w = Work::start(0.01);
        w.cpu_at_start = w.cpu_at_start.map(|c| c - 5.0);
        if w.cpu_at_start.is_some() {
            assert_eq!(w.share(), None);
            assert_eq!(w.left(), None);
        }
    }

    #[test]
    fn durations_read_as_spoken() {
        assert_eq!(spoken(Duration::from_secs(45)), "45 s");
        assert_eq!(spoken(Duration::from_secs(130)), "2 min 10 s");
        assert_eq!(spoken(Duration::from_secs(3900)), "1 h 5 min");
    }
}
