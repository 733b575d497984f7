//! Builds one formation's endgame table (exact success probabilities) and prints every layer as it finishes.
//!
//! `cargo run --release -p twenty48 --example endgame -- --formation fedc/89ab/..../.... --target 128`
//! `cargo run --release -p twenty48 --example endgame -- --formation fedc/89ab/..../.... --target 256 --dir ~/endgame/44-256`
//!
//! `--formation` is a picture of four rows (`.` a free cell, a hex digit a fixed tile's exponent: `b` = 2048); the rules
//! are in `src/endgame/formation.rs`. With `--dir` every finished layer is written there and a build run again resumes
//! after the last layer written (a damaged layer file is refused and computed again); without it everything stays in
//! memory. `--quiet` prints only the totals.
//!
//! `--next-formation PICTURE [--next-target N]` chains the table to the next stage's: the formation has a goal cell
//! `*` (where the target must be built), the next formation's fixed cells are this one's and the goal cell, and a move
//! that builds the target in the goal cell is worth the next table's value of its result (`Solver::chained`). The
//! build runs this formation's forward pass, then builds the next stage's table (in `DIR/next` with `--dir`) with the
//! positions this one hands to it added to its starts (`Solver::exits`, `Solver::add_starts`), then this one's
//! backward pass; the totals count both tables' positions. `--next-target` is the next table's target (this one's by
//! default):
//!
//! `cargo run --release -p twenty48 --example endgame -- --formation '..../..../..*b/fedc' --target 256 --next-formation ..../..../..ab/fedc --dir ~/endgame/443-256c`
//! (five minutes on one core, 6.3 GB; the same with a 512 would need some 30 GB of disk, `BENCHMARKS.md`)

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use twenty48::endgame::{Formation, Pass, Solver, Table};

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
    report: &mut dyn FnMut(&twenty48::endgame::LayerReport),
) -> Result<Solver, twenty48::endgame::EndgameError> {
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

fn main() -> ExitCode {
    let mut formation = None;
    let mut target = 256u64;
    let mut dir = None;
    let mut four = 0.1f64;
    let mut quiet = false;
    let mut next = None;
    let mut next_target = None;
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
            "--next-formation" => next = Some(value()),
            "--next-target" => {
                next_target = Some(value().parse().expect("--next-target: a tile value"));
            }
            _ => {
                eprintln!(
                    "usage: endgame --formation PICTURE [--target N] [--dir DIR] [--four P] [--next-formation PICTURE [--next-target N]] [--quiet]"
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
