//! `parlor-lab perft`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use nocca::{Dims, Position, perft};

/// Counts the positions reached from the start, or from a given position, at every depth up to DEPTH.
///
/// Perft from the start (or a given position): `cargo run --release -p parlor-lab -- perft 7 [POSITION]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The deepest depth counted.
    #[arg(default_value_t = 6)]
    depth: u32,
    /// The position to count from, in the notation `Position` reads (its words may be given apart); the
    /// standard start by default.
    position: Vec<String>,
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args { depth, position } = args;
    let pos = if position.is_empty() {
        Position::start(Dims::STANDARD)
    } else {
        match position.join(" ").parse::<Position>() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("bad position: {e}");
                std::process::exit(2);
            }
        }
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&pos, d);
        let s = t.elapsed().as_secs_f64();
        println!(
            "depth {d}: {n} nodes in {s:.3} s ({:.1} M/s)",
            n as f64 / s.max(1e-9) / 1e6
        );
    }
}
