//! Runs the anytime lookahead search on a variant, writing every improved (verified) tree to a file.
//!
//! `nice -n 19 cargo run --release -p mastermind --example anytime -- super 3600 /tmp/super.pmt`
//! (variant, seconds, output file; one line per schedule on stdout). Stops after the time limit, leaving
//! the best tree so far in the file (written atomically: the file is always a complete tree).
//! A fourth argument skips the first schedules (resume: `... super 3600 /tmp/super.pmt 2`). Only a tree
//! better than the ones this run found before is written, so resuming may replace a better file: keep a copy.
//! `... --example anytime -- verify /tmp/super.pmt` reads a tree file back and replays every secret.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `anytime verify FILE`: reads a tree file (checksum, structure, replay of every secret).
    if args.get(1).map(String::as_str) == Some("verify") {
        let path = args.get(2).map_or("anytime.pmt", |s| s.as_str());
        match mastermind::StrategyTree::load(std::path::Path::new(path)) {
            Ok(tree) => match tree.verify() {
                Ok(r) => println!(
                    "{path}: {} ({} nodes), replayed: {r}",
                    tree.variant(),
                    tree.nodes().len()
                ),
                Err(e) => println!("{path}: replay failed: {e}"),
            },
            Err(e) => println!("{path}: {e}"),
        }
        return;
    }
    let variant: mastermind::Variant = args
        .get(1)
        .map_or("super", |s| s.as_str())
        .parse()
        .unwrap_or(mastermind::Variant::SUPER);
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let out = args.get(3).cloned().unwrap_or_else(|| "anytime.pmt".into());
    // Optional: the first schedule to run (to resume a run that was stopped).
    let first: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);
    let stop = Arc::new(AtomicBool::new(false));
    let timer = Arc::clone(&stop);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(seconds));
        timer.store(true, Ordering::Relaxed);
    });
    let root = usize::from(variant.pegs()).min(usize::from(variant.colours())) + 2;
    let t = Instant::now();
    let mut improved =
        |w: &[usize], tree: &mastermind::StrategyTree, r: &mastermind::SolveReport| {
            let saved = tree.save(std::path::Path::new(&out));
            println!(
                "{:8.1} s widths {w:?}: {r} (saved: {})",
                t.elapsed().as_secs_f64(),
                saved.map_or_else(|e| e.to_string(), |()| out.clone())
            );
        };
    match mastermind::anytime_search(
        &variant,
        &mastermind::anytime_schedules(root.max(7))[first.min(9)..],
        &stop,
        &mut improved,
    ) {
        Ok((_, r)) => println!("{:8.1} s best: {r}", t.elapsed().as_secs_f64()),
        Err(e) => println!("error: {e}"),
    }
}
