//! Perft from the start (or a given position): `cargo run -p nocca --release --example perft -- 7 [POSITION]`.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use nocca::{Dims, Position, perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let rest: Vec<String> = args.collect();
    let pos = if rest.is_empty() {
        Position::start(Dims::STANDARD)
    } else {
        match rest.join(" ").parse::<Position>() {
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
