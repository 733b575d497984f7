//! Parlor's browser tests, one binary: the harness on its own fixture page (`harness`), then the built page
//! (`PARLOR_WEB_DIR`) played in headless Chromium. Without `PARLOR_WEB_DIR` every test prints why it skips and
//! passes.

// Helpers outside #[test] functions unwrap too: a failing step should stop the test loudly.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod coach;
mod codemaker;
mod common;
mod faces;
mod first_screen;
mod harness;
mod mastermind;
mod nocca;
mod nocca_keys;
mod offline;
mod online;
mod online_faces;
mod online_register;
mod page;
mod phone;
mod prefs;
mod prepared;
mod screens;
mod storage;
mod store;
mod themes;
mod twenty48;
