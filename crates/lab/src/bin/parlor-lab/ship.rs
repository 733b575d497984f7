//! `parlor-lab ship`: what [`Args`] says.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use twenty48::ai::ntuple::{load, save_compact, save_fixed16};

/// Writes a training checkpoint in a compact form, reads it back and reports its size, load time and largest change.
///
/// Writes a training checkpoint in the compact form a network ships in (byte planes 3 or 2, zlib level 9), then
/// reads it back and reports its size, the time to load it, and the largest change it makes to a weight.
///
/// `cargo run --release -p parlor-lab -- ship /work/ntuple/net.p48 /tmp/twenty48-ntuple.p48 [3|2|16]`
/// (16: 16-bit fixed point with a scale per tuple)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The training checkpoint.
    from: PathBuf,
    /// The file to write.
    to: PathBuf,
    /// The encoding: 3 or 2 byte planes, or 16 (16-bit fixed point with a scale per tuple).
    #[arg(default_value_t = 3, value_parser = planes)]
    planes: usize,
}

/// 2, 3 or 16.
fn planes(s: &str) -> Result<usize, String> {
    match s {
        "2" => Ok(2),
        "3" => Ok(3),
        "16" => Ok(16),
        _ => Err(format!("'{s}' is not 2, 3 or 16")),
    }
}

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    let Args { from, to, planes } = args;
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
