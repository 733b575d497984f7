//! The tests of `parlor-lab`, gathered into one test binary: the endgame solver, its checkpoints and the stores
//! distilled from its tables, and weight tuning.

// Tests stop loudly: unwrap, expect and panic are how a test fails (the workspace warns on them elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod endgame;
mod tune;
