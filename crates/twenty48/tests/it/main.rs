//! The integration tests of `twenty48`, gathered into one test binary (`tests/it/`, a module per former file).
//!
//! One binary, not one per file: every test binary links the crate and its dependencies again, and linking ~40
//! binaries was most of a fresh `cargo test --workspace` (issue 26). Run one file's tests with
//! `cargo test -p parlor-2048 --test it -- game::`. The tests share one process: a test that needs the process to
//! itself (`ntuple_fallback`, which names the weights file in the environment) runs again in a child process.

// Tests stop loudly: unwrap, expect and panic are how a test fails (the workspace warns on them elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod ai;
mod game;
mod largest_tiles;
mod ntuple_fallback;
mod props;
mod public_items;
mod shipped_moves;
mod slide_oracle;
mod stores;
