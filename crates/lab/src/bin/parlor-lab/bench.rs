//! `parlor-lab bench`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

/// Runs the search benchmark: fixed positions searched to a fixed depth, with the nodes, the time and a signature.
///
/// Search benchmark (fixed positions, fixed depth): `cargo run --release -p parlor-lab -- bench`.
#[derive(Debug, clap::Args)]
pub struct Args {}

/// Runs the tool.
pub fn main(Args {}: Args) {
    let r = nocca::bench();
    println!(
        "bench: {} nodes in {:.3} s, {:.0} nodes/s, signature {}",
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nps,
        r.signature
    );
}
