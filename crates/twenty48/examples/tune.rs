//! Tunes the evaluation weights by self-play and prints the curve and the result.
//!
//! `cargo run --release -p twenty48 --example tune -- --iterations 40 --games 8 --depth 2 --seed 1`

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::ExitCode;

use twenty48::ai::{TuneConfig, Weights, tune};

fn main() -> ExitCode {
    let mut cfg = TuneConfig::default();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            eprintln!("error: {flag} needs a value");
            return ExitCode::from(2);
        };
        let ok = match flag.as_str() {
            "--iterations" => value.parse().map(|v| cfg.iterations = v).is_ok(),
            "--games" => value.parse().map(|v| cfg.games = v).is_ok(),
            "--depth" => value.parse().map(|v| cfg.depth = v).is_ok(),
            "--seed" => value.parse().map(|v| cfg.seed = v).is_ok(),
            "--sigma" => value.parse().map(|v| cfg.sigma = v).is_ok(),
            "--max-moves" => value.parse().map(|v| cfg.max_moves = Some(v)).is_ok(),
            "--start" => {
                let parts: Vec<f32> = value
                    .split(',')
                    .filter_map(|p| p.trim().parse().ok())
                    .collect();
                match <[f32; 8]>::try_from(parts) {
                    Ok(a) => {
                        cfg.start = Weights::from_array(a);
                        true
                    }
                    Err(_) => false,
                }
            }
            _ => false,
        };
        if !ok {
            eprintln!("error: bad argument {flag} {value}");
            return ExitCode::from(2);
        }
    }
    println!("# {cfg:?}");
    println!("# iteration fitness best sigma");
    let result = tune(&cfg, |s| {
        println!(
            "{} {:.0} {:.0} {:.3}",
            s.iteration, s.fitness, s.best, s.sigma
        )
    });
    println!("# best fitness {:.0}", result.fitness);
    println!("# weights {:?}", result.weights);
    let a = result.weights.to_array();
    println!("# --start {}", a.map(|x| x.to_string()).join(","));
    ExitCode::SUCCESS
}
