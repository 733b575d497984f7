//! Solves a board and prints its counts and the start position's value:
//! `retrograde RxC [checkpoint-file [table-file]]` (checkpoints at most every 5 minutes).

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use nocca::{Dims, Position, SolveOptions, Stage, Table};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dims: Dims = args
        .get(1)
        .map(|s| s.parse().expect("board RxC"))
        .unwrap_or(Dims::new(4, 4).expect("4x4"));
    let options = SolveOptions {
        checkpoint: args.get(2).map(Into::into),
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
    if let Some(path) = args.get(3) {
        table
            .save(std::path::Path::new(path))
            .expect("save the table");
        eprintln!("{:8.1}s saved {path}", t.elapsed().as_secs_f64());
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
