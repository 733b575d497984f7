//! Turns for the browsers: at most a few Chromiums run at once, however many tests the harness runs in parallel.
//! The limit is `PARLOR_E2E_BROWSERS` (1 to 8; by default 2, one a core of the 2-core machine the tests are sized
//! for); a test of two players holds a second browser inside its turn ([`crate::Session::beside`]).

use crate::{Error, Result};
use std::sync::{Condvar, Mutex, PoisonError};

/// The environment variable that sets how many browsers may run at once.
pub const BROWSERS_VAR: &str = "PARLOR_E2E_BROWSERS";
/// The limit when the variable is not set.
const DEFAULT_BROWSERS: usize = 2;
/// The most the variable may ask for.
const MAX_BROWSERS: usize = 8;

/// Browsers running now.
static RUNNING: Mutex<usize> = Mutex::new(0);
/// Signalled when a turn ends.
static ENDED: Condvar = Condvar::new();

/// A browser's turn, held for as long as it runs; dropping it lets the next one start.
#[derive(Debug)]
pub struct Turn(());

/// The limit `value` (the variable's text, if set) asks for.
fn limit(value: Option<&str>) -> Result<usize> {
    let Some(value) = value else {
        return Ok(DEFAULT_BROWSERS);
    };
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=MAX_BROWSERS).contains(&n) => Ok(n),
        _ => Err(Error::new(format!(
            "{BROWSERS_VAR}={value:?}: give a whole number of browsers from 1 to {MAX_BROWSERS}"
        ))),
    }
}

/// Waits for a turn: until fewer browsers than the limit run.
pub fn take() -> Result<Turn> {
    let limit = limit(std::env::var(BROWSERS_VAR).ok().as_deref())?;
    let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
    while *running >= limit {
        running = ENDED.wait(running).unwrap_or_else(PoisonError::into_inner);
    }
    *running += 1;
    Ok(Turn(()))
}

impl Drop for Turn {
    fn drop(&mut self) {
        let mut running = RUNNING.lock().unwrap_or_else(PoisonError::into_inner);
        *running = running.saturating_sub(1);
        ENDED.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_is_two_by_default_and_checked_when_given() {
        assert_eq!(limit(None).ok(), Some(2));
        assert_eq!(limit(Some("1")).ok(), Some(1));
        assert_eq!(limit(Some(" 8 ")).ok(), Some(8));
        for bad in ["0", "9", "-1", "two", ""] {
            let e = limit(Some(bad))
                .err()
                .map(|e| e.to_string())
                .unwrap_or_default();
            assert!(e.contains("from 1 to 8"), "{bad:?}: {e}");
        }
    }
}
