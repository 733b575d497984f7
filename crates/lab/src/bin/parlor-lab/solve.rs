//! `parlor-lab solve`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use mastermind::{Strategy, Variant};

/// Plays out every secret of a variant with a strategy and prints the figures and the time.
///
/// `cargo run --release -p parlor-lab -- solve classic optimal`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The variant.
    #[arg(default_value = "classic")]
    variant: Variant,
    /// The strategy.
    #[arg(default_value = "knuth")]
    strategy: Strategy,
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args { variant, strategy } = args;
    let t = Instant::now();
    match mastermind::solve_all(&variant, strategy, &mut |_, _| {}) {
        Ok(r) => println!(
            "{variant} {strategy}: {r} in {:.3} s",
            t.elapsed().as_secs_f64()
        ),
        Err(e) => println!("{variant} {strategy}: error {e}"),
    }
}
