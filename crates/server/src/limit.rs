//! Rate limits: token buckets, with time passed in (milliseconds), so they are tested without a clock.

/// Messages a connection may send in a burst, and how many a second it may keep sending.
pub const PER_CONNECTION: (u32, u32) = (40, 20);

/// Messages a player may send in a burst over all their connections, and how many a second.
pub const PER_PLAYER: (u32, u32) = (60, 30);

/// Messages refused for the rate, with no whole second of keeping to it between them, after which a connection is
/// closed.
pub const CLOSE_AFTER_REFUSED: u32 = 1000;

/// A token bucket: holds up to `capacity` tokens, gains `per_sec` a second, and each message takes one.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    capacity: f64,
    per_ms: f64,
    tokens: f64,
    at_ms: u64,
}

impl Bucket {
    /// A full bucket at `now_ms`.
    pub fn new((capacity, per_sec): (u32, u32), now_ms: u64) -> Bucket {
        Bucket {
            capacity: f64::from(capacity),
            per_ms: f64::from(per_sec) / 1000.0,
            tokens: f64::from(capacity),
            at_ms: now_ms,
        }
    }

    /// Takes a token at `now_ms` if there is one.
    pub fn take(&mut self, now_ms: u64) -> bool {
        let elapsed = now_ms.saturating_sub(self.at_ms);
        self.at_ms = self.at_ms.max(now_ms);
        self.tokens = (self.tokens + elapsed as f64 * self.per_ms).min(self.capacity);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_then_the_rate() {
        let mut b = Bucket::new((5, 10), 1_000);
        assert_eq!((0..8).filter(|_| b.take(1_000)).count(), 5);
        // 10 a second: one every 100 ms.
        assert!(!b.take(1_050));
        assert!(b.take(1_100));
        assert!(!b.take(1_150));
        // A long rest fills it up to its capacity, no more.
        assert_eq!((0..8).filter(|_| b.take(60_000)).count(), 5);
        // Time going backwards gives nothing.
        assert!(!b.take(10));
    }
}
