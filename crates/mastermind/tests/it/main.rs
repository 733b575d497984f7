//! The integration tests of `mastermind`, gathered into one test binary (`tests/it/`, a module per former file).
//!
//! One binary, not one per file: every test binary links the crate and its dependencies again, and linking ~40
//! binaries was most of a fresh `cargo test --workspace` (issue 26). Run one file's tests with
//! `cargo test -p parlor-mastermind --test it -- strategies::`.

// Tests stop loudly: unwrap, expect and panic are how a test fails (the workspace warns on them elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod optimal_oracle;
mod properties;
mod strategies;
mod super_best;
