//! `parlor-lab retrograde`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use std::path::PathBuf;

use nocca::{Dims, Position, SolveOptions, Stage, Table};

/// Solves a board by retrograde analysis and prints its counts and the start position's value.
///
/// Solves a board and prints its counts and the start position's value:
/// `retrograde RxC [checkpoint-file [table-file]]` (checkpoints at most every 5 minutes).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board, rows x columns.
    #[arg(value_name = "RxC", default_value = "4x4")]
    dims: Dims,
    /// Where to keep checkpoints (at most every 5 minutes), resumed from when it exists.
    checkpoint: Option<PathBuf>,
    /// Where to save the solved table.
    table: Option<PathBuf>,
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args {
        dims,
        checkpoint,
        table: table_file,
    } = args;
    let options = SolveOptions {
        checkpoint,
        checkpoint_every: std::time::Duration::from_secs(300),
        cancel: None,
    };
    let t = Instant::now();
    let mut last = Stage::Init;
    let table = Table::solve(dims, &options, &mut |p| {
        if p.stage != last || p.done == p.total {
            if p.done == p.total {
                eprintln!(
                    "{:8.1}s {:?} done: {} decided of {} slots",
                    t.elapsed().as_secs_f64(),
                    p.stage,
                    p.decided,
                    p.slots
                );
            }
            last = p.stage;
        }
    })
    .expect("solve");
    if let Some(path) = table_file {
        table.save(&path).expect("save the table");
        eprintln!(
            "{:8.1}s saved {}",
            t.elapsed().as_secs_f64(),
            path.display()
        );
    }
    let c = table.counts();
    let start = table.value(&Position::start(dims)).expect("start");
    println!(
        "{dims}: {:.2} s; positions {} = won {} + lost {} + drawn {}; longest win {}, loss {}; start: {start}",
        t.elapsed().as_secs_f64(),
        c.total(),
        c.won,
        c.lost,
        c.drawn,
        c.longest_win,
        c.longest_loss
    );
}
