//! Writes a training checkpoint in the compact form a network ships in (byte planes 3 or 2, zlib level 9), then
//! reads it back and reports its size, the time to load it, and the largest change it makes to a weight.
//!
//! `cargo run --release -p twenty48 --example ship -- /work/ntuple/net.p48 /tmp/twenty48-ntuple.p48 [3|2|16]`
//! (16: 16-bit fixed point with a scale per tuple)

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use twenty48::ai::ntuple::{load, save_compact, save_fixed16};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (from, to, planes) = match args.as_slice() {
        [from, to] => (from, to, 3),
        [from, to, p] if ["2", "3", "16"].contains(&p.as_str()) => {
            (from, to, p.parse::<usize>().unwrap_or(3))
        }
        _ => {
            eprintln!(
                "usage: ship CHECKPOINT OUT [ENCODING: 3 planes (default), 2 planes, or 16 (fixed point)]"
            );
            return ExitCode::from(2);
        }
    };
    let (from, to) = (PathBuf::from(from), PathBuf::from(to));
    let run = || -> Result<(), Box<dyn std::error::Error>> {
        let start = Instant::now();
        let net = load(&from)?;
        let exact_seconds = start.elapsed().as_secs_f64();
        if planes == 16 {
            save_fixed16(&net, &to)?;
        } else {
            save_compact(&net, &to, planes)?;
        }
        let start = Instant::now();
        let back = load(&to)?;
        let seconds = start.elapsed().as_secs_f64();
        let size = std::fs::metadata(&to)?.len();
        let worst = (0..net.len())
            .map(|i| (net.weight(i) - back.weight(i)).abs())
            .fold(0f32, f32::max);
        println!(
            "{}: {} games, {} bytes ({:.1} MiB), loaded in {:.2} s (the checkpoint in {:.2} s); largest change of a weight {worst}",
            to.display(),
            back.games(),
            size,
            size as f64 / (1u64 << 20) as f64,
            seconds,
            exact_seconds
        );
        Ok(())
    };
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
