//! Builds one formation's endgame table (exact success probabilities) and prints every layer as it finishes.
//!
//! `cargo run --release -p twenty48 --example endgame -- --formation fedc/89ab/..../.... --target 128`
//! `cargo run --release -p twenty48 --example endgame -- --formation fedc/89ab/..../.... --target 256 --dir ~/endgame/44-256`
//!
//! `--formation` is a picture of four rows (`.` a free cell, a hex digit a fixed tile's exponent: `b` = 2048); the rules
//! are in `src/endgame/formation.rs`. With `--dir` every finished layer is written there and a build run again resumes
//! after the last layer written (a damaged layer file is refused and computed again); without it everything stays in
//! memory. `--quiet` prints only the totals.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use twenty48::endgame::{Formation, Pass, Solver};

/// The process's peak resident memory in MB (Linux), or 0.
fn peak_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb / 1024.0)
}

fn main() -> ExitCode {
    let mut formation = None;
    let mut target = 256u64;
    let mut dir = None;
    let mut four = 0.1f64;
    let mut quiet = false;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || {
            args.next()
                .unwrap_or_else(|| panic!("{flag} needs a value"))
        };
        match flag.as_str() {
            "--formation" => formation = Some(value()),
            "--target" => target = value().parse().expect("--target: a tile value"),
            "--dir" => dir = Some(PathBuf::from(value())),
            "--four" => four = value().parse().expect("--four: a probability"),
            "--quiet" => quiet = true,
            _ => {
                eprintln!(
                    "usage: endgame --formation PICTURE [--target N] [--dir DIR] [--four P] [--quiet]"
                );
                return ExitCode::from(2);
            }
        }
    }
    let picture = formation.unwrap_or_else(|| "fedc/89ab/..../....".to_string());
    let f = match Formation::parse(&picture, target) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    println!("formation {f}, probability of a 4: {four}");
    let mut solver = match &dir {
        Some(d) => Solver::on_disk(f, four, d).expect("the table's folder"),
        None => Solver::in_memory(f, four),
    };
    let t0 = Instant::now();
    let (mut states, mut fwd_s, mut back_s, mut held) = (0usize, 0f64, 0f64, 0usize);
    let mut report = |r: &twenty48::endgame::LayerReport| {
        match r.pass {
            Pass::Forward => {
                states += r.states;
                fwd_s += r.seconds;
            }
            Pass::Backward => back_s += r.seconds,
        }
        held = held.max(r.held_bytes);
        if let Some(why) = &r.refused {
            println!("refused: {why}");
        }
        if !quiet {
            println!(
                "{:?} sum {:5}: {:11} states, {:8.2} s{}, layers held {:.1} MB, peak {:.0} MB",
                r.pass,
                r.sum,
                r.states,
                r.seconds,
                if r.resumed { " (read back)" } else { "" },
                r.held_bytes as f64 / 1e6,
                peak_mb()
            );
        }
    };
    if let Err(e) = solver.build(&mut report) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let start = solver.start_probability().expect("the starting layers");
    println!(
        "{states} states; forward {fwd_s:.1} s, backward {back_s:.1} s, total {:.1} s; layers held at most {:.0} MB, peak resident {:.0} MB",
        t0.elapsed().as_secs_f64(),
        held as f64 / 1e6,
        peak_mb()
    );
    if let Some(d) = &dir {
        let bytes: u64 = std::fs::read_dir(d)
            .map(|it| {
                it.filter_map(|e| e.ok()?.metadata().ok())
                    .map(|m| m.len())
                    .sum()
            })
            .unwrap_or(0);
        println!("files in {}: {:.1} MB", d.display(), bytes as f64 / 1e6);
    }
    println!(
        "success from the starts (two tiles in the free cells): {:.6} (starts from {:.6} to {:.6}); {:.1}% of starts have an allowed move, and from those: {:.6}",
        start.mean,
        start.lo,
        start.hi,
        100.0 * start.live_share,
        start.live_mean
    );
    ExitCode::SUCCESS
}
