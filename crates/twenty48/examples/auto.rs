//! Plays AI games and prints one line per game plus a summary.
//!
//! `cargo run --release -p twenty48 --example auto -- --games 10 --seed 1 --ms-per-move 0.5`
//! `cargo run --release -p twenty48 --example auto -- --games 10 --depth 3 --threads 1 --size 4`
//! `--weights base,empty,merges,mono,mono_power,sum,sum_power,edge` overrides the tuned weights.

use std::process::ExitCode;

use twenty48::Rules;
use twenty48::ai::{SearchConfig, TUNED, Weights, autoplay_with, summarize};

fn parse_args() -> Result<(usize, u64, SearchConfig, usize, Weights), String> {
    let mut games = 10usize;
    let mut seed = 1u64;
    let mut cfg = SearchConfig {
        depth: None,
        ms_per_move: None,
        threads: 1,
    };
    let mut size = 4usize;
    let mut weights = TUNED;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let bad = |e: &dyn std::fmt::Display| format!("bad value for {flag}: {e}");
        match flag.as_str() {
            "--games" => games = value()?.parse().map_err(|e| bad(&e))?,
            "--seed" => seed = value()?.parse().map_err(|e| bad(&e))?,
            "--ms-per-move" => cfg.ms_per_move = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--depth" => cfg.depth = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--threads" => cfg.threads = value()?.parse().map_err(|e| bad(&e))?,
            "--size" => size = value()?.parse().map_err(|e| bad(&e))?,
            "--weights" => {
                let parts: Vec<f32> = value()?
                    .split(',')
                    .filter_map(|p| p.trim().parse().ok())
                    .collect();
                weights = Weights::from_array(
                    <[f32; 8]>::try_from(parts).map_err(|_| "--weights needs 8 numbers")?,
                );
            }
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if cfg.depth.is_none() && cfg.ms_per_move.is_none() {
        cfg.ms_per_move = Some(0.5);
    }
    Ok((games, seed, cfg, size, weights))
}

fn main() -> ExitCode {
    let (games, seed, cfg, size, weights) = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "usage: auto [--games N] [--seed S] [--ms-per-move T | --depth D] [--threads K] [--size N] [--weights w1,..,w8]"
            );
            return ExitCode::from(2);
        }
    };
    let rules = match Rules::new(size, 0.1, 2048) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut reports = Vec::with_capacity(games);
    for i in 0..games as u64 {
        let report = autoplay_with(&rules, seed.wrapping_add(i), &cfg, weights, None);
        println!("{report}");
        reports.push(report);
    }
    println!("{}", summarize(&reports));
    ExitCode::SUCCESS
}
