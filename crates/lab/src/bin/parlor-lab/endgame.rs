//! `parlor-lab endgame`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use parlor_lab::endgame::{EndgameError, LayerReport, Pass, Solver, Table};
use twenty48::endgame::Formation;

/// Builds one formation's endgame table and prints every layer as it finishes.
///
/// Builds one formation's endgame table (exact success probabilities) and prints every layer as it finishes.
///
/// `cargo run --release -p parlor-lab -- endgame --formation fedc/89ab/..../.... --target 128`
/// `cargo run --release -p parlor-lab -- endgame --formation fedc/89ab/..../.... --target 256 --dir ~/endgame/44-256`
///
/// `--formation` is a picture of four rows (`.` a free cell, a hex digit a fixed tile's exponent: `b` = 2048); the rules
/// are in `crates/twenty48/src/endgame/formation.rs`. With `--dir` every finished layer is written there and a build run again resumes
/// after the last layer written (a damaged layer file is refused and computed again); without it everything stays in
/// memory. `--quiet` prints only the totals.
///
/// `--next-formation PICTURE [--next-target N]` chains the table to the next stage's: the formation has a goal cell
/// `*` (where the target must be built), the next formation's fixed cells are this one's and the goal cell, and a move
/// that builds the target in the goal cell is worth the next table's value of its result (`Solver::chained`). The
/// build runs this formation's forward pass, then builds the next stage's table (in `DIR/next` with `--dir`) with the
/// positions this one hands to it added to its starts (`Solver::exits`, `Solver::add_starts`), then this one's
/// backward pass; the totals count both tables' positions. `--next-target` is the next table's target (this one's by
/// default):
///
/// `cargo run --release -p parlor-lab -- endgame --formation '..../..../..*b/fedc' --target 256 --next-formation ..../..../..ab/fedc --dir ~/endgame/443-256c`
/// (five minutes on one core, 6.3 GB; the same with a 512 would need some 30 GB of disk, `BENCHMARKS.md`)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The formation: four rows, `.` a free cell, `*` the goal cell, a hex digit a fixed tile's exponent.
    #[arg(long, default_value = "fedc/89ab/..../....")]
    formation: String,
    /// The tile to build in the free cells.
    #[arg(long, default_value_t = 256)]
    target: u64,
    /// Write every finished layer to DIR (and resume from it).
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
    /// The probability of a 4, 0 to 1.
    #[arg(long, default_value_t = 0.1, value_parser = probability)]
    four: f64,
    /// Chain the table to the next stage's, of this formation.
    #[arg(long, value_name = "PICTURE")]
    next_formation: Option<String>,
    /// The next table's target (this one's by default).
    #[arg(long, requires = "next_formation")]
    next_target: Option<u64>,
    /// Print only the totals.
    #[arg(long)]
    quiet: bool,
}

/// A probability, 0 to 1.
fn probability(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("'{s}' is not a probability from 0 to 1")),
    }
}

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

/// This formation's forward pass, the next stage's table with this one's exits added to its starts, then this one's
/// backward pass valued by it.
fn chain(
    mut solver: Solver,
    next: Formation,
    four: f64,
    dir: Option<&std::path::Path>,
    report: &mut dyn FnMut(&LayerReport),
) -> Result<Solver, EndgameError> {
    solver.forward(report)?;
    let t = Instant::now();
    let exits = solver.exits(&next)?;
    println!(
        "{} positions of the next stage ({next}) met on leaving this one, in {:.1} s",
        exits.len(),
        t.elapsed().as_secs_f64()
    );
    let next_dir = dir.map(|d| d.join("next"));
    let mut inner = match &next_dir {
        Some(d) => Solver::on_disk(next, four, d)?,
        None => Solver::in_memory(next, four),
    };
    inner.add_starts(exits)?;
    inner.build(report)?;
    let table = match &next_dir {
        Some(d) => Table::load(d)?,
        None => inner.table()?,
    };
    println!(
        "next stage: {} positions, success from its starts {:.6}",
        table.len(),
        inner.start_probability()?.mean
    );
    let mut solver = solver.chained(Arc::new(table))?;
    solver.backward(report)?;
    Ok(solver)
}

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    let Args {
        formation: picture,
        target,
        dir,
        four,
        next_formation: next,
        next_target,
        quiet,
    } = args;
    let f = match Formation::parse(&picture, target) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    println!("formation {f}, probability of a 4: {four}");
    let mut solver = match &dir {
        Some(d) => match Solver::on_disk(f, four, d) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {}: {e}", d.display());
                return ExitCode::FAILURE;
            }
        },
        None => Solver::in_memory(f, four),
    };
    let next = match next.map(|p| Formation::parse(&p, next_target.unwrap_or(target))) {
        Some(Ok(f)) => Some(f),
        Some(Err(e)) => {
            eprintln!("error: --next-formation: {e}");
            return ExitCode::from(2);
        }
        None => None,
    };
    let chained = next.is_some();
    let t0 = Instant::now();
    let (mut states, mut fwd_s, mut back_s, mut held) = (0usize, 0f64, 0f64, 0usize);
    let mut report = |r: &LayerReport| {
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
    let built = match next {
        None => solver.build(&mut report).map(|()| solver),
        Some(nf) => chain(solver, nf, four, dir.as_deref(), &mut report),
    };
    let solver = match built {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let start = solver.start_probability().expect("the starting layers");
    if chained {
        let (asked, missed) = solver.next_misses();
        println!(
            "moves reaching the goal: {asked}; of those, results the next table does not hold (counted 0): {missed}"
        );
    }
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
