//! Plays out every secret of a variant with a strategy and prints the figures and the time.
//!
//! `cargo run --release -p parlor-mastermind --example solve -- classic optimal`

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use clap::Parser;
use mastermind::{Strategy, Variant};

/// Plays out every secret of a variant with a strategy and prints the figures and the time.
#[derive(Debug, Parser)]
#[command(name = "solve")]
struct Args {
    /// The variant.
    #[arg(default_value = "classic")]
    variant: Variant,
    /// The strategy.
    #[arg(default_value = "knuth")]
    strategy: Strategy,
}

fn main() {
    let Args { variant, strategy } = Args::parse();
    let t = Instant::now();
    match mastermind::solve_all(&variant, strategy, &mut |_, _| {}) {
        Ok(r) => println!(
            "{variant} {strategy}: {r} in {:.3} s",
            t.elapsed().as_secs_f64()
        ),
        Err(e) => println!("{variant} {strategy}: error {e}"),
    }
}
