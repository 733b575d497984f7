//! Time and the instance number, as the core reads them.

/// The time, as the core reads it: timestamps of records, animation frames, time limits of the computer's thinking.
pub trait Clock: Send + Sync {
    /// Nanoseconds since the Unix epoch (wall time: record timestamps, fresh seeds, session ids).
    fn unix_nanos(&self) -> u128;
    /// Milliseconds since an arbitrary start that never goes back (animations and time limits).
    fn monotonic_ms(&self) -> u64;
}

/// What tells this running program apart from others that share its saved games (session ids, fresh seeds).
pub trait Entropy: Send + Sync {
    /// A number that differs between programs running at once (the terminal: the process id).
    fn instance(&self) -> u64;
}

/// A clock stopped at zero and instance 0: the default where the machine gave nothing (no time passes, every
/// fresh seed is alike).
#[derive(Clone, Copy, Debug, Default)]
pub struct Stopped;

impl Clock for Stopped {
    fn unix_nanos(&self) -> u128 {
        0
    }

    fn monotonic_ms(&self) -> u64 {
        0
    }
}

impl Entropy for Stopped {
    fn instance(&self) -> u64 {
        0
    }
}
