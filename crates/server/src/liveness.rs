//! Whether a connection's client is still there: the heartbeat's bookkeeping, apart from the socket so that it can be
//! tested with made-up instants.
//!
//! The server pings every connection each heartbeat ([`crate::Config::heartbeat`]); a connection that sends nothing,
//! not even the pong, for three heartbeats is taken as dropped. The silence is counted only while the server itself
//! runs: a heartbeat that comes two or more heartbeats after the one before means the server was not running in
//! between (a paused or suspended process, a machine asleep), and the clients could not have been heard then, so
//! each gets three heartbeats again from that moment instead of all being dropped at once as the server wakes.

use std::time::{Duration, Instant};

/// How many heartbeats of silence drop a connection.
pub const SILENT_BEATS: u32 = 3;

/// One connection's heartbeat: when it was last heard and when the server last looked.
#[derive(Clone, Copy, Debug)]
pub struct Liveness {
    heartbeat: Duration,
    last_heard: Instant,
    last_beat: Instant,
}

/// What a heartbeat decides for a connection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beat {
    /// Ping the client and go on.
    Ping,
    /// Silent for [`SILENT_BEATS`] heartbeats while the server ran: taken as dropped.
    Drop,
}

impl Liveness {
    /// A connection opened (and so heard) at `now`.
    pub fn new(heartbeat: Duration, now: Instant) -> Liveness {
        Liveness {
            heartbeat,
            last_heard: now,
            last_beat: now,
        }
    }

    /// Something came from the client at `now` (a message, a ping or a pong).
    pub fn heard(&mut self, now: Instant) {
        self.last_heard = now;
    }

    /// A heartbeat at `now`: whether to ping the client or take it as dropped.
    pub fn beat(&mut self, now: Instant) -> Beat {
        if now.saturating_duration_since(self.last_beat) >= self.heartbeat * 2 {
            // The server did not run since the last beat: its clients' silence is its own.
            self.last_heard = now;
        }
        self.last_beat = now;
        if now.saturating_duration_since(self.last_heard) >= self.heartbeat * SILENT_BEATS {
            Beat::Drop
        } else {
            Beat::Ping
        }
    }
}

/// The heartbeats `parlor serve --heartbeat SECS` takes, in whole seconds: often enough for any proxy's idle
/// timeout, rarely enough to be sure a connection is gone.
pub const HEARTBEAT_SECS: std::ops::RangeInclusive<u64> = 1..=3600;

/// Why a `--heartbeat` value was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeartbeatError {
    /// Not a whole number.
    #[error("{0:?} is not a whole number of seconds")]
    NotANumber(String),
    /// Outside [`HEARTBEAT_SECS`].
    #[error(
        "{0} s is out of range: the heartbeat is {lo} to {hi} s",
        lo = HEARTBEAT_SECS.start(),
        hi = HEARTBEAT_SECS.end()
    )]
    OutOfRange(u64),
}

/// `--heartbeat`'s value read: whole seconds in [`HEARTBEAT_SECS`], or why not.
pub fn parse_heartbeat(text: &str) -> Result<Duration, HeartbeatError> {
    let secs: u64 = text
        .trim()
        .parse()
        .map_err(|_| HeartbeatError::NotANumber(text.to_string()))?;
    if !HEARTBEAT_SECS.contains(&secs) {
        return Err(HeartbeatError::OutOfRange(secs));
    }
    Ok(Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEAT: Duration = Duration::from_secs(15);

    #[test]
    fn the_heartbeat_option_takes_whole_seconds_in_range_and_says_why_not() {
        assert_eq!(parse_heartbeat("15"), Ok(Duration::from_secs(15)));
        assert_eq!(parse_heartbeat("1"), Ok(Duration::from_secs(1)));
        assert_eq!(parse_heartbeat("3600"), Ok(Duration::from_secs(3600)));
        for (bad, why) in [
            ("0", "out of range"),
            ("3601", "out of range"),
            ("-1", "not a whole number"),
            ("1.5", "not a whole number"),
            ("", "not a whole number"),
        ] {
            let e = parse_heartbeat(bad).unwrap_err();
            assert!(e.to_string().contains(why), "{bad:?}: {e}");
        }
    }

    #[test]
    fn a_client_silent_for_three_heartbeats_is_dropped_and_one_heard_is_kept() {
        let t0 = Instant::now();
        let mut silent = Liveness::new(BEAT, t0);
        let mut talking = Liveness::new(BEAT, t0);
        for k in 1..=2 {
            let now = t0 + BEAT * k;
            assert_eq!(silent.beat(now), Beat::Ping, "beat {k}");
            talking.heard(now - Duration::from_secs(1));
            assert_eq!(talking.beat(now), Beat::Ping, "beat {k}");
        }
        let now = t0 + BEAT * 3;
        assert_eq!(silent.beat(now), Beat::Drop);
        talking.heard(now - Duration::from_secs(1));
        assert_eq!(talking.beat(now), Beat::Ping);
    }

    #[test]
    fn a_server_that_was_not_running_gives_its_clients_three_heartbeats_again() {
        let t0 = Instant::now();
        let mut c = Liveness::new(BEAT, t0);
        assert_eq!(c.beat(t0 + BEAT), Beat::Ping);
        // Paused for ten minutes: the next beat comes late, and the client, not heard since t0, is kept and pinged.
        let woke = t0 + BEAT + Duration::from_secs(600);
        assert_eq!(c.beat(woke), Beat::Ping);
        // A burst of late beats right after waking changes nothing.
        assert_eq!(c.beat(woke + Duration::from_millis(1)), Beat::Ping);
        // Still silent three heartbeats after waking: now it is dropped.
        assert_eq!(c.beat(woke + BEAT), Beat::Ping);
        assert_eq!(c.beat(woke + BEAT * 2), Beat::Ping);
        assert_eq!(c.beat(woke + BEAT * 3), Beat::Drop);
    }

    #[test]
    fn a_late_beat_shorter_than_two_heartbeats_counts_the_silence_as_usual() {
        let t0 = Instant::now();
        let mut c = Liveness::new(BEAT, t0);
        assert_eq!(c.beat(t0 + BEAT), Beat::Ping);
        // A beat 1.5 heartbeats late (a busy server, not a stopped one) does not forgive the silence.
        let late = t0 + BEAT * 2 + BEAT / 2;
        assert_eq!(c.beat(late), Beat::Ping);
        assert_eq!(c.beat(t0 + BEAT * 3 + BEAT / 2), Beat::Drop);
    }
}
