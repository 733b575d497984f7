//! `parlor-lab distill`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use parlor_lab::endgame::Table;
use twenty48::endgame::distill::{BUCKET_SIZE, Entry, LOAD, Store};

use crate::common::keys::read_keys;

/// The bytes of a store of `n` positions, header left out: slots of 4 bytes, or 2 for a moves-only store.
fn store_bytes(n: usize, moves_only: bool) -> usize {
    let slot = if moves_only { 2 } else { 4 };
    slot * (n as f64 / LOAD).ceil() as usize + 2 * n.div_ceil(BUCKET_SIZE)
}

/// `--convert`: a store file's moves-only form, written to `{out}.p48d`.
fn convert(path: &str, floor: f32, out: &str) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let store = Store::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
    let small = store.moves_only(floor);
    let new = small.to_bytes();
    let back = Store::from_bytes(&new).unwrap_or_else(|e| panic!("read back: {e}"));
    assert_eq!(back, small);
    let out = format!("{out}.p48d");
    std::fs::write(&out, &new).unwrap_or_else(|e| panic!("{out}: {e}"));
    println!(
        "{path}: {} positions, {} bytes; moves only from {floor}: {} positions, {} bytes, written to {out}",
        store.len(),
        bytes.len(),
        small.len(),
        new.len()
    );
}

/// Distils an endgame table into stores of its most frequent positions, or converts a store to its moves-only form.
///
/// Distils an endgame table (issue 29): counts the positions a table held in play (the key logs that `auto
/// --endgame-log FILE` writes), keeps the most frequent that fit each byte budget, stores each with the table's best
/// move and success probability in a perfect hash (`endgame::distill`), writes the stores, reads them back, and
/// measures how many of the held-out logs' positions each store holds.
///
/// `cargo run --release -p parlor-lab -- distill --table ~/endgame/442-256 --keys a.keys,b.keys --test c.keys
/// --bytes 1000000,2000000,4000000 --out store`  (writes `store-1000000.p48d`, ...)
///
/// `--moves-only FLOOR` keeps only positions whose success probability is at least FLOOR and writes moves-only stores
/// (`Store::moves_only`, about 2.6 bytes a position). `--convert STORE.p48d --moves-only FLOOR --out NEW` needs no
/// table: it writes STORE's moves-only form to `NEW.p48d` (the same hash, so the same positions' moves).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The table's folder (built by `parlor-lab endgame`).
    #[arg(long, value_name = "DIR", required_unless_present = "convert")]
    table: Option<PathBuf>,
    /// The key logs counted (comma-separated files written by `auto --endgame-log`).
    #[arg(long, default_value = "")]
    keys: String,
    /// The held-out key logs the stores are measured on (comma-separated).
    #[arg(long, default_value = "")]
    test: String,
    /// The byte budgets of the stores written (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "1000000")]
    bytes: Vec<usize>,
    /// The stores' name: NAME-BYTES.p48d (with --convert, NAME.p48d).
    #[arg(long, value_name = "NAME", required_unless_present = "table")]
    out: Option<String>,
    /// Keep only positions whose success probability is at least FLOOR, in moves-only stores.
    #[arg(long, value_name = "FLOOR")]
    moves_only: Option<f32>,
    /// Write STORE's moves-only form (needs --moves-only and --out, no table).
    #[arg(long, value_name = "STORE", requires_all = ["moves_only", "out"])]
    convert: Option<String>,
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args {
        table,
        keys,
        test,
        bytes: budgets,
        out,
        moves_only,
        convert: to_convert,
    } = args;
    if let Some(path) = to_convert {
        let floor = moves_only.expect("--convert needs --moves-only FLOOR");
        convert(
            &path,
            floor,
            out.as_deref().expect("--convert needs --out NAME"),
        );
        return;
    }
    let dir = table.expect("--table DIR");
    let t0 = std::time::Instant::now();
    let table = Table::load(&dir).unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "table {} ({} positions) loaded in {:.1} s",
        table.formation(),
        table.len(),
        t0.elapsed().as_secs_f64()
    );
    let train = read_keys(&keys, usize::MAX);
    let test = read_keys(&test, usize::MAX);
    let mut freq: HashMap<u64, u64> = HashMap::new();
    for &k in &train {
        *freq.entry(k).or_default() += 1;
    }
    let mut ranked: Vec<(u64, u64)> = freq.iter().map(|(&k, &n)| (k, n)).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    println!(
        "training: {} hits, {} distinct positions",
        train.len(),
        ranked.len()
    );
    let once = ranked.iter().filter(|r| r.1 == 1).count();
    println!(
        "  met once: {once} ({:.1}% of the distinct); the most met: {}",
        100.0 * once as f64 / ranked.len().max(1) as f64,
        ranked.first().map_or(0, |r| r.1)
    );
    for top in [1_000usize, 10_000, 100_000, 250_000, 500_000, 1_000_000] {
        let covered: u64 = ranked.iter().take(top).map(|r| r.1).sum();
        println!(
            "  the {top} most met cover {:.1}% of the training hits",
            100.0 * covered as f64 / train.len().max(1) as f64
        );
    }
    let test_distinct: HashSet<u64> = test.iter().copied().collect();
    println!(
        "held out: {} hits, {} distinct positions",
        test.len(),
        test_distinct.len()
    );
    for budget in budgets {
        // The positions a store may hold: with a move, and at least the floor for a moves-only store.
        let worth: Vec<Entry> = ranked
            .iter()
            .filter_map(|&(key, _)| {
                let &(dir, value) = table.moves(table.formation().board(key))?.first()?;
                (value >= moves_only.unwrap_or(0.0)).then_some(Entry { key, dir, value })
            })
            .collect();
        let mut n = worth.len();
        while n > 0 && store_bytes(n, moves_only.is_some()) > budget {
            n = n * 99 / 100;
        }
        while n < worth.len() && store_bytes(n + 1, moves_only.is_some()) <= budget {
            n += 1;
        }
        let entries = &worth[..n];
        let t = std::time::Instant::now();
        let store = Store::build(table.formation().clone(), table.four_chance(), entries)
            .unwrap_or_else(|e| panic!("{e}"));
        let store = match moves_only {
            Some(floor) => store.moves_only(floor),
            None => store,
        };
        let built = t.elapsed().as_secs_f64();
        let bytes = store.to_bytes();
        let t = std::time::Instant::now();
        let back = Store::from_bytes(&bytes).unwrap_or_else(|e| panic!("{e}"));
        let load = t.elapsed().as_secs_f64();
        assert_eq!(back, store);
        let kept: HashSet<u64> = entries.iter().map(|e| e.key).collect();
        let mut wrong = 0;
        for e in entries {
            match back.get(e.key) {
                Some((d, _)) if d == e.dir && moves_only.is_some() => {}
                Some((d, v)) if d == e.dir && (v - e.value).abs() <= 0.5 / 65535.0 + 1e-6 => {}
                _ => wrong += 1,
            }
        }
        let held = test.iter().filter(|k| kept.contains(k)).count();
        let held_distinct = test_distinct.iter().filter(|k| kept.contains(k)).count();
        // Keys the store does not hold, taken for held ones: every table position not kept, sampled.
        let (mut asked, mut false_hits) = (0u64, 0u64);
        for (b, _) in table.entries().step_by(97) {
            let k = table.formation().key(b);
            if !kept.contains(&k) {
                asked += 1;
                false_hits += back.get(k).is_some() as u64;
            }
        }
        println!(
            "budget {budget}: {n} positions ({} with a move{}), {} bytes ({:.2} a position); built in {built:.1} s, read back and checked in {:.1} ms; {wrong} read back wrong",
            entries.len(),
            moves_only.map_or(String::new(), |f| format!(" and at least {f}")),
            bytes.len(),
            bytes.len() as f64 / entries.len().max(1) as f64,
            load * 1000.0
        );
        println!(
            "  held out: {:.1}% of the hits ({held} of {}), {:.1}% of the distinct positions; false hits {false_hits} of {asked} positions not kept ({:.5}%)",
            100.0 * held as f64 / test.len().max(1) as f64,
            test.len(),
            100.0 * held_distinct as f64 / test_distinct.len().max(1) as f64,
            100.0 * false_hits as f64 / asked.max(1) as f64
        );
        if let Some(prefix) = &out {
            let path = format!("{prefix}-{budget}.p48d");
            std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
            println!("  written to {path}");
        }
    }
}
