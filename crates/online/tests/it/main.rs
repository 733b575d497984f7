//! parlor-online's tests: the protocol's round trips and refusals, and the referee.

// Tests stop loudly: unwrap, expect and panic are how a test fails (the workspace warns on them elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod clock;
mod protocol;
mod referee;
