//! Plays out every secret of a variant with a strategy and prints the figures and the time.
//!
//! `cargo run --release -p parlor-mastermind --example solve -- classic optimal`

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let variant: mastermind::Variant = args
        .get(1)
        .map_or("classic", |s| s.as_str())
        .parse()
        .unwrap_or_default();
    let strategy: mastermind::Strategy = args
        .get(2)
        .map_or("knuth", |s| s.as_str())
        .parse()
        .unwrap_or(mastermind::Strategy::Knuth);
    let t = Instant::now();
    match mastermind::solve_all(&variant, strategy, &mut |_, _| {}) {
        Ok(r) => println!(
            "{variant} {strategy}: {r} in {:.3} s",
            t.elapsed().as_secs_f64()
        ),
        Err(e) => println!("{variant} {strategy}: error {e}"),
    }
}
