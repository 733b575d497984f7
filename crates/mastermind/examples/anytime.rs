//! Runs the anytime lookahead search on a variant, keeping the best (verified) tree in a file.
//!
//! `nice -n 19 cargo run --release -p parlor-mastermind --example anytime -- super 3600 /tmp/super.pmt`
//! (variant, seconds, output file; one line per schedule on stdout). Stops after the time limit, leaving
//! the best tree so far in the file (written atomically: the file is always a complete tree).
//!
//! Resumable: when the file already holds a tree of the variant, it is read and replayed first and only
//! a better tree replaces it; the index of the next schedule to run is kept beside it in `FILE.next`, so
//! running the same command again carries on where the last run stopped (a schedule cut short by the
//! time limit is run again from its start). A fourth argument overrides the first schedule to run, or,
//! as `widths=7,12,3,2`, runs that one schedule (not recorded in `FILE.next`).
//!
//! `... --example anytime -- verify /tmp/super.pmt` reads a tree file back and replays every secret.
//! `... --example anytime -- schedules super` prints the schedules with their indices.
//! `... --example anytime -- compact /tmp/super.pmt crates/mastermind/data/super-best.pmct` writes the
//! tree in the compact form the engine compiles in (then set `SUPER_BEST_TOTAL` and `SUPER_BEST_MAX` in
//! `src/best.rs` to the figures it prints).

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mastermind::{SolveError, StrategyTree, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    // `anytime verify FILE`: reads a tree file (checksum, structure, replay of every secret).
    if args.get(1).map(String::as_str) == Some("verify") {
        let path = args.get(2).map_or("anytime.pmt", |s| s.as_str());
        match StrategyTree::load(Path::new(path)) {
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
    // `anytime compact FILE OUT`: writes a tree file's tree in the compact form compiled into the engine
    // (`crates/mastermind/data/super-best.pmct`), after replaying every secret.
    if args.get(1).map(String::as_str) == Some("compact") {
        let (Some(path), Some(out)) = (args.get(2), args.get(3)) else {
            eprintln!("usage: anytime compact TREE.pmt OUT.pmct");
            std::process::exit(2);
        };
        let written = StrategyTree::load(Path::new(path))
            .map_err(|e| e.to_string())
            .and_then(|t| mastermind::to_compact(&t).map_err(|e| e.to_string()))
            .and_then(|b| {
                std::fs::write(out, &b)
                    .map(|()| b.len())
                    .map_err(|e| e.to_string())
            })
            .and_then(|len| {
                let bytes = std::fs::read(out).map_err(|e| e.to_string())?;
                let tree = mastermind::from_compact(&bytes, mastermind::Strategy::Best)
                    .map_err(|e| e.to_string())?;
                Ok((len, tree.claimed()))
            });
        match written {
            Ok((len, r)) => println!("{out}: {len} bytes, read back and replayed: {r}"),
            Err(e) => {
                eprintln!("anytime compact: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let listing = args.get(1).map(String::as_str) == Some("schedules");
    let args = if listing { &args[1..] } else { &args[..] };
    let variant: Variant = match args.get(1).map_or("super", |s| s.as_str()).parse() {
        Ok(v) => v,
        Err(e) => {
            eprintln!("anytime: {e}");
            std::process::exit(2);
        }
    };
    let root = usize::from(variant.pegs()).min(usize::from(variant.colours())) + 2;
    let schedules = mastermind::anytime_schedules(root.max(7));
    if listing {
        for (i, w) in schedules.iter().enumerate() {
            println!("{i}: {w:?}");
        }
        return;
    }
    let seconds: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let out = args.get(3).cloned().unwrap_or_else(|| "anytime.pmt".into());
    let next_file = format!("{out}.next");
    // `widths=7,12,3,2` as the fourth argument runs that one schedule (its index is not recorded).
    let custom: Option<Vec<usize>> = args
        .get(4)
        .and_then(|s| s.strip_prefix("widths="))
        .map(|w| {
            w.split(',')
                .map(|x| x.trim().parse().unwrap_or(1))
                .collect()
        });
    let recorded = custom.is_none();
    let schedules = custom.map_or(schedules, |w| vec![w]);
    // The first schedule to run: the argument, else the one the last run had reached.
    let first: usize = if recorded {
        args.get(4)
            .and_then(|s| s.parse().ok())
            .or_else(|| {
                std::fs::read_to_string(&next_file)
                    .ok()?
                    .trim()
                    .parse()
                    .ok()
            })
            .unwrap_or(0)
    } else {
        0
    };
    // The tree already kept (if any): only a better one replaces it.
    let mut kept = match StrategyTree::load(Path::new(&out)) {
        Ok(tree) if tree.variant() == &variant => match tree.verify() {
            Ok(r) => {
                println!("kept: {out}: {r}");
                Some(r.total)
            }
            Err(e) => {
                eprintln!("anytime: {out} does not replay ({e}); not overwriting it");
                std::process::exit(1);
            }
        },
        Ok(tree) => {
            eprintln!("anytime: {out} holds a tree of {}", tree.variant());
            std::process::exit(1);
        }
        Err(_) if !Path::new(&out).exists() => None,
        Err(e) => {
            eprintln!("anytime: {out}: {e}; not overwriting it");
            std::process::exit(1);
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    let timer = Arc::clone(&stop);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(seconds));
        timer.store(true, Ordering::Relaxed);
    });
    let t = Instant::now();
    for (i, widths) in schedules.iter().enumerate().skip(first) {
        let started = Instant::now();
        match mastermind::lookahead_tree(&variant, widths, &stop) {
            Ok((tree, r)) => {
                let better = kept.is_none_or(|k| r.total < k);
                let saved = if better {
                    match tree.save(Path::new(&out)) {
                        Ok(()) => {
                            kept = Some(r.total);
                            format!("saved to {out}")
                        }
                        Err(e) => format!("NOT saved: {e}"),
                    }
                } else {
                    "not better than the kept tree".to_string()
                };
                println!(
                    "{:8.1} s schedule {i} widths {widths:?} ({:.1} s): {r} ({saved})",
                    t.elapsed().as_secs_f64(),
                    started.elapsed().as_secs_f64()
                );
                if !recorded {
                    continue;
                }
                if let Err(e) = std::fs::write(&next_file, format!("{}\n", i + 1)) {
                    eprintln!("anytime: {next_file}: {e}");
                }
            }
            Err(SolveError::Cancelled) => {
                println!(
                    "{:8.1} s schedule {i} widths {widths:?} stopped by the time limit",
                    t.elapsed().as_secs_f64()
                );
                break;
            }
            Err(e) => {
                println!("error: {e}");
                std::process::exit(1);
            }
        }
    }
    match kept {
        Some(k) => println!("{:8.1} s best kept: {k} guesses", t.elapsed().as_secs_f64()),
        None => println!("{:8.1} s no tree", t.elapsed().as_secs_f64()),
    }
}
