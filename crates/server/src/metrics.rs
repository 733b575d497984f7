//! What `GET /metrics` shows: the server's counters, gauges and histograms in Prometheus's text format (version
//! 0.0.4), written by hand. The server has a dozen series with fixed labels, so a few atomics and forty lines of
//! text formatting cost less than a metrics crate and its registry; the format is checked by the tests that read
//! it back over HTTP.
//!
//! Shown: open connections, players online, games in play (gauges, the last two read from the hub when scraped),
//! moves accepted (a counter: moves a second are its rate), each move's round trip (from the hub taking the move,
//! right after its connection read it, to its event sent to the players, a histogram: its percentiles come from
//! the buckets), each call on the store (a histogram), and the errors sent to clients, by code (and the caps'
//! refusals by their own kinds).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The histograms' bucket bounds, in seconds: from a tenth of a millisecond to ten seconds.
pub const BUCKETS: [f64; 14] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 10.0,
];

/// A histogram of durations with the bounds [`BUCKETS`].
#[derive(Debug, Default)]
pub struct Histogram {
    /// How many fell in each bucket (not cumulated), the last one for those past every bound.
    counts: [AtomicU64; BUCKETS.len() + 1],
    /// The sum of every duration, in nanoseconds.
    sum_ns: AtomicU64,
}

impl Histogram {
    /// Counts one duration.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        let i = BUCKETS
            .iter()
            .position(|&b| secs <= b)
            .unwrap_or(BUCKETS.len());
        if let Some(c) = self.counts.get(i) {
            c.fetch_add(1, Ordering::Relaxed);
        }
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.sum_ns.fetch_add(ns, Ordering::Relaxed);
    }

    /// How many durations were counted.
    pub fn count(&self) -> u64 {
        self.counts.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    fn render(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulated = 0u64;
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            cumulated += count.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulated}");
        }
        let total = self.count();
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {total}");
        let sum = self.sum_ns.load(Ordering::Relaxed) as f64 / 1e9;
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {total}");
    }
}

/// The server's measures, shared by its connections, its hub and its store's threads.
#[derive(Debug, Default)]
pub struct Metrics {
    /// WebSocket connections open now.
    pub connections: AtomicU64,
    /// Moves the referee accepted.
    pub moves: AtomicU64,
    /// Each accepted move's round trip.
    pub move_round_trip: Histogram,
    /// Each call on the store, from its thread taking it to its answer.
    pub store_calls: Histogram,
    /// Messages and connections refused, by the error's code (`RateLimited`, `IllegalMove`, ...).
    refusals: Mutex<BTreeMap<String, u64>>,
}

/// What the hub is asked for when the metrics are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HubCounts {
    /// Players with a connection open.
    pub players_online: usize,
    /// Games in play.
    pub games_in_play: usize,
}

impl Metrics {
    /// Counts a refusal of kind `kind`.
    pub fn refused(&self, kind: &str) {
        let mut r = self.refusals.lock().unwrap_or_else(|e| e.into_inner());
        *r.entry(kind.to_string()).or_insert(0) += 1;
    }

    /// The refusals of kind `kind` so far.
    pub fn refusals_of(&self, kind: &str) -> u64 {
        let r = self.refusals.lock().unwrap_or_else(|e| e.into_inner());
        r.get(kind).copied().unwrap_or(0)
    }

    /// Every measure in Prometheus's text format, with the hub's counts.
    pub fn render(&self, hub: HubCounts) -> String {
        let mut out = String::new();
        let mut gauge = |name: &str, help: &str, kind: &str, value: u64| {
            let _ = writeln!(out, "# HELP {name} {help}");
            let _ = writeln!(out, "# TYPE {name} {kind}");
            let _ = writeln!(out, "{name} {value}");
        };
        gauge(
            "parlor_connections_open",
            "WebSocket connections open.",
            "gauge",
            self.connections.load(Ordering::Relaxed),
        );
        gauge(
            "parlor_players_online",
            "Players with at least one connection open.",
            "gauge",
            u64::try_from(hub.players_online).unwrap_or(u64::MAX),
        );
        gauge(
            "parlor_games_in_play",
            "Games in play.",
            "gauge",
            u64::try_from(hub.games_in_play).unwrap_or(u64::MAX),
        );
        gauge(
            "parlor_moves_total",
            "Moves accepted by the referee.",
            "counter",
            self.moves.load(Ordering::Relaxed),
        );
        self.move_round_trip.render(
            &mut out,
            "parlor_move_round_trip_seconds",
            "From a move taken by the hub to its event sent to the players.",
        );
        self.store_calls.render(
            &mut out,
            "parlor_store_call_seconds",
            "Each call on the store, on its thread.",
        );
        let _ = writeln!(
            out,
            "# HELP parlor_refusals_total Messages and connections refused, by the error's code."
        );
        let _ = writeln!(out, "# TYPE parlor_refusals_total counter");
        let r = self.refusals.lock().unwrap_or_else(|e| e.into_inner());
        for (kind, n) in r.iter() {
            let _ = writeln!(out, "parlor_refusals_total{{kind=\"{kind}\"}} {n}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_is_cumulated_in_its_text() {
        let m = Metrics::default();
        m.move_round_trip.observe(Duration::from_micros(50));
        m.move_round_trip.observe(Duration::from_millis(3));
        m.move_round_trip.observe(Duration::from_secs(20));
        m.refused("IllegalMove");
        m.refused("IllegalMove");
        let text = m.render(HubCounts {
            players_online: 2,
            games_in_play: 1,
        });
        for line in [
            "parlor_players_online 2",
            "parlor_games_in_play 1",
            "parlor_move_round_trip_seconds_bucket{le=\"0.0001\"} 1",
            "parlor_move_round_trip_seconds_bucket{le=\"0.0025\"} 1",
            "parlor_move_round_trip_seconds_bucket{le=\"0.005\"} 2",
            "parlor_move_round_trip_seconds_bucket{le=\"10\"} 2",
            "parlor_move_round_trip_seconds_bucket{le=\"+Inf\"} 3",
            "parlor_move_round_trip_seconds_count 3",
            "parlor_store_call_seconds_count 0",
            "parlor_refusals_total{kind=\"IllegalMove\"} 2",
        ] {
            assert!(text.lines().any(|l| l == line), "{line:?} not in:\n{text}");
        }
        assert_eq!(m.refusals_of("IllegalMove"), 2);
    }
}
