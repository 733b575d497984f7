//! `parlor-lab anytime`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Subcommand;
use mastermind::{SolveError, StrategyTree, Variant};

/// Runs the anytime lookahead search on a variant, keeping the best verified tree in a file.
///
/// `nice -n 19 cargo run --release -p parlor-lab -- anytime super 3600 /tmp/super.pmt`
/// (variant, seconds, output file; one line per schedule on stdout). Stops after the time limit, leaving
/// the best tree so far in the file (written atomically: the file is always a complete tree).
///
/// Resumable: when the file already holds a tree of the variant, it is read and replayed first and only
/// a better tree replaces it; the index of the next schedule to run is kept beside it in `FILE.next`, so
/// running the same command again carries on where the last run stopped (a schedule cut short by the
/// time limit is run again from its start). A fourth argument overrides the first schedule to run, or,
/// as `widths=7,12,3,2`, runs that one schedule (not recorded in `FILE.next`).
///
/// `... -- anytime verify /tmp/super.pmt` reads a tree file back and replays every secret.
/// `... -- anytime schedules super` prints the schedules with their indices.
/// `... -- anytime compact /tmp/super.pmt crates/mastermind/data/super-best.pmct` writes the
/// tree in the compact form the engine compiles in (then set `SUPER_BEST_TOTAL` and `SUPER_BEST_MAX` in
/// `src/best.rs` to the figures it prints).
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// The variant to search.
    #[arg(default_value = "super")]
    variant: Variant,
    /// Seconds to search.
    #[arg(default_value_t = 60)]
    seconds: u64,
    /// The tree file kept (and resumed from).
    #[arg(value_name = "FILE", default_value = "anytime.pmt")]
    out: String,
    /// The first schedule to run (its index), or `widths=7,12,3,2`: that one schedule, not recorded.
    #[arg(value_name = "FIRST|widths=W,...", value_parser = first)]
    first: Option<First>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Reads a tree file back (checksum, structure) and replays every secret.
    Verify {
        /// The tree file.
        #[arg(default_value = "anytime.pmt")]
        path: String,
    },
    /// Prints the schedules of a variant with their indices.
    Schedules {
        /// The variant.
        #[arg(default_value = "super")]
        variant: Variant,
    },
    /// Writes a tree file's tree in the compact form the engine compiles in, after replaying every secret.
    Compact {
        /// The tree file.
        #[arg(value_name = "TREE.pmt")]
        path: String,
        /// The compact file written.
        #[arg(value_name = "OUT.pmct")]
        out: String,
    },
}

/// Where to start: a schedule's index, or one schedule of given widths.
#[derive(Clone, Debug)]
enum First {
    Index(usize),
    Widths(Vec<usize>),
}

/// Reads [`First`]: `3` or `widths=7,12,3,2`.
fn first(text: &str) -> Result<First, String> {
    match text.strip_prefix("widths=") {
        Some(w) => w
            .split(',')
            .map(|x| x.trim().parse().map_err(|e| format!("width {x:?}: {e}")))
            .collect::<Result<_, _>>()
            .map(First::Widths),
        None => text
            .parse()
            .map(First::Index)
            .map_err(|e| format!("schedule {text:?}: {e}")),
    }
}

/// Runs the tool.
pub fn main(args: Args) {
    let cli = args;
    match cli.command {
        Some(Command::Verify { path }) => verify(&path),
        Some(Command::Schedules { variant }) => {
            for (i, w) in schedules(&variant).iter().enumerate() {
                println!("{i}: {w:?}");
            }
        }
        Some(Command::Compact { path, out }) => compact(&path, &out),
        None => run(cli.variant, cli.seconds, cli.out, cli.first),
    }
}

/// The schedules of `variant`'s search.
fn schedules(variant: &Variant) -> Vec<Vec<usize>> {
    let root = usize::from(variant.pegs()).min(usize::from(variant.colours())) + 2;
    mastermind::anytime_schedules(root.max(7))
}

/// `anytime verify FILE`: reads a tree file (checksum, structure, replay of every secret).
fn verify(path: &str) {
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
}

/// `anytime compact FILE OUT`: writes a tree file's tree in the compact form compiled into the engine
/// (`crates/mastermind/data/super-best.pmct`), after replaying every secret.
fn compact(path: &str, out: &str) {
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
}

/// The search: the schedules from `first` on until `seconds` have passed, the best tree kept in `out`.
fn run(variant: Variant, seconds: u64, out: String, first: Option<First>) {
    let next_file = format!("{out}.next");
    let (schedules, recorded, first) = match first {
        // One schedule of given widths (its index is not recorded).
        Some(First::Widths(w)) => (vec![w], false, 0),
        Some(First::Index(i)) => (schedules(&variant), true, i),
        // The one the last run had reached.
        None => (
            schedules(&variant),
            true,
            std::fs::read_to_string(&next_file)
                .ok()
                .and_then(|s| s.trim().parse().ok())
                .unwrap_or(0),
        ),
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
