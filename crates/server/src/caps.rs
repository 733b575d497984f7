//! Caps per address: at most so many WebSocket connections open at once from one IP address, and at most so many
//! new names registered from one address in any hour ([`Config`](crate::Config)'s `max_connections_per_ip` and
//! `max_registrations_per_hour`). A connection past its cap is told why (an error, `RateLimited`) and closed; a
//! registration past it is refused the same way and the connection may say `hello` with a name already
//! registered. Everyone else plays on. Time is passed in (milliseconds), so the window is tested without a clock.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

/// Connections one address may have open at once, by default: a household or a small office behind one address,
/// each player with a few tabs.
pub const MAX_CONNECTIONS_PER_IP: u32 = 64;

/// Names one address may register in an hour, by default: a family or a class signing up together, not a script
/// making throwaway names.
pub const MAX_REGISTRATIONS_PER_HOUR: u32 = 20;

/// The window of the registration cap.
pub const HOUR_MS: u64 = 60 * 60 * 1000;

/// The largest either cap may be set to.
pub const MAX_CAP: u32 = 1_000_000;

/// Parses a cap (1 to [`MAX_CAP`]), for the command line.
pub fn parse_cap(s: &str) -> Result<u32, String> {
    let n: u32 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number"))?;
    if (1..=MAX_CAP).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} is out of range (1 to {MAX_CAP})"))
    }
}

/// Every address's open connections and recent registrations.
#[derive(Debug)]
pub struct Caps {
    max_connections: u32,
    max_registrations: u32,
    open: Mutex<HashMap<IpAddr, u32>>,
    /// Each address's registrations (their times) within the last hour, oldest first.
    registered: Mutex<HashMap<IpAddr, VecDeque<u64>>>,
}

/// A connection counted against its address's cap, until dropped.
#[derive(Debug)]
pub struct Opened {
    caps: Arc<Caps>,
    ip: IpAddr,
}

impl Drop for Opened {
    fn drop(&mut self) {
        let mut open = self.caps.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

impl Caps {
    /// Caps of `max_connections` open at once and `max_registrations` an hour per address.
    pub fn new(max_connections: u32, max_registrations: u32) -> Caps {
        Caps {
            max_connections,
            max_registrations,
            open: Mutex::new(HashMap::new()),
            registered: Mutex::new(HashMap::new()),
        }
    }

    /// The connection cap.
    pub fn max_connections(&self) -> u32 {
        self.max_connections
    }

    /// The registration cap (per hour).
    pub fn max_registrations(&self) -> u32 {
        self.max_registrations
    }

    /// Counts a new connection from `ip`, or none if that address has its cap open already.
    pub fn open(self: &Arc<Self>, ip: IpAddr) -> Option<Opened> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.max_connections {
            return None;
        }
        *n += 1;
        Some(Opened {
            caps: Arc::clone(self),
            ip,
        })
    }

    /// Takes one of `ip`'s registrations at `now_ms` if it has one left in the hour before (false if not).
    pub fn register(&self, ip: IpAddr, now_ms: u64) -> bool {
        let mut registered = self.registered.lock().unwrap_or_else(|e| e.into_inner());
        // Addresses whose last registration is over an hour old are forgotten, so the map stays small.
        registered.retain(|_, times| times.back().is_some_and(|&t| now_ms < t + HOUR_MS));
        let times = registered.entry(ip).or_default();
        while times.front().is_some_and(|&t| now_ms >= t + HOUR_MS) {
            times.pop_front();
        }
        if times.len() >= usize::try_from(self.max_registrations).unwrap_or(usize::MAX) {
            return false;
        }
        times.push_back(now_ms);
        true
    }

    /// Gives back the registration taken at `at_ms` by `ip` (the name was not registered after all).
    pub fn unregister(&self, ip: IpAddr, at_ms: u64) {
        let mut registered = self.registered.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(times) = registered.get_mut(&ip)
            && let Some(i) = times.iter().rposition(|&t| t == at_ms)
        {
            times.remove(i);
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn connections_are_capped_per_address_and_given_back() {
        let caps = Arc::new(Caps::new(2, 1));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let one = caps.open(a).unwrap();
        let _two = caps.open(a).unwrap();
        assert!(caps.open(a).is_none());
        // Another address has its own.
        assert!(caps.open(b).is_some());
        drop(one);
        assert!(caps.open(a).is_some());
    }

    #[test]
    fn registrations_are_capped_per_address_in_any_hour() {
        let caps = Caps::new(1, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "::1".parse().unwrap();
        assert!(caps.register(a, 1_000));
        assert!(caps.register(a, 2_000));
        assert!(!caps.register(a, 3_000));
        assert!(caps.register(b, 3_000));
        // One given back (the name was taken) leaves room for another.
        caps.unregister(a, 2_000);
        assert!(caps.register(a, 4_000));
        assert!(!caps.register(a, 1_000 + HOUR_MS - 1));
        // An hour after the first, it no longer counts.
        assert!(caps.register(a, 1_000 + HOUR_MS));
        assert!(!caps.register(a, 1_000 + HOUR_MS));
    }

    #[test]
    fn caps_parse_in_range_only() {
        assert_eq!(parse_cap("64"), Ok(64));
        assert!(parse_cap("0").is_err());
        assert!(parse_cap("-1").is_err());
        assert!(parse_cap("1000001").is_err());
        assert!(parse_cap("many").is_err());
    }
}
