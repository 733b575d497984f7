//! parlor-server's tests, on loopback only (127.0.0.1, port 0), each wait bounded by a timeout: many games at once,
//! dropped connections inside and outside the grace period, a
//! server paused and woken, a store whose write stalls, hostile messages, and a killed server restarted on its
//! database.

// Tests stop loudly: unwrap, expect and panic are how a test fails (the workspace warns on them elsewhere).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod away;
mod client;
mod clock;
mod contract;
mod daily;
mod env;
mod hooked;
mod hostile;
mod kill;
mod kill_clocks;
mod lobby;
mod lobby_nodes;
mod logfile;
mod many;
mod names;
mod nodes;
mod nodes_cut;
mod nodes_kill;
mod nodes_many;
mod ops;
mod past_day;
mod pause;
mod pg_server;
mod ping;
mod postgres;
mod queue_many;
mod ranked;
mod rating;
mod reconnect;
mod restart;
mod several;
mod stall;
mod times;
mod tokens;
