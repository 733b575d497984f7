//! The integration tests of `parlor`, gathered into one test binary (`tests/it/`, a module per former file).
//!
//! One binary, not one per file: every test binary links the app, its dependencies and the engines again, and
//! linking ~40 binaries was most of a fresh `cargo test --workspace` (issue 26). Run one file's tests with
//! `cargo test -p parlor --test it -- words::`; the helpers they share are [`common`].
//!
//! The tests share one process and run in parallel: none sets an environment variable of this process (each
//! passes what it needs to the `parlor` it starts), and a test that changes what the whole process shares (the
//! data directory of Mastermind's trees, a background build outliving the test) runs alone in a child process of
//! this binary ([`common::in_own_process`]). Snapshots are in `snapshots/`, named `it__<module>__<name>.snap`.

// Tests stop loudly: unwrap, expect and panic are how a test fails (the workspace warns on them elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// The end-to-end tests drive the real binary as a terminal would: signals, a pseudo-terminal's window size and
// resource limits (a full disk) go through libc.
#![allow(unsafe_code)]

mod cli_faults;
mod common;
mod damaged_rows;
mod distribution;
mod duplicates;
mod feel;
mod file_sizes;
mod fit;
mod fuzz;
mod keys_shown;
mod launcher;
mod layers;
mod layout;
mod mastermind_cli;
mod mastermind_game;
mod mastermind_plain;
mod mastermind_screens;
mod mastermind_super_best;
mod mastermind_trees;
mod nocca_cli;
mod nocca_game;
mod nocca_perfect;
mod nocca_plain;
mod nocca_screens;
mod nocca_solve;
mod nocca_solve_cost;
mod one_folder_per_game;
mod online;
mod online_away;
mod online_daily;
mod online_keys;
mod online_menu;
mod online_older;
mod online_past;
mod online_tls;
mod online_token;
mod online_tui;
mod plain;
mod practice;
mod readme;
mod record_once;
mod review;
mod review_screen;
mod rules_md;
mod screens;
mod serve_env;
mod settings;
mod stats;
mod storage;
mod storage_faults;
mod suspend;
mod themes;
mod think_elsewhere;
mod transfer;
mod tree_building;
mod tui;
mod twenty48_largest;
mod twenty48_train;
mod words;
