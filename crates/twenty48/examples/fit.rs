//! Fits a small n-tuple network to an endgame table's exact values (`twenty48::endgame::fit`), on the positions met
//! in play (key logs written by `auto --endgame-log`), and measures it on a held-out log.
//!
//! `cargo run --release -p twenty48 --example fit -- --table ~/endgame/443-256c --keys keys-a.bin --valid keys-b.bin --epochs 6 --alpha 0.1 --out fit.p48f`
//!
//! For every logged position (each as often as it was logged) every move the formation allows is an example: its
//! after-state and the table's success probability of it. Each epoch visits the positions in a new order (a seeded
//! ChaCha8 shuffle, `--seed`, default 1) with the rate `--alpha` divided by the epoch's number. After each epoch it
//! prints the root mean square error on the held-out log and what playing the fit's move costs there: the mean of
//! (best move's value - the fit's move's value) a position, and the share of positions where the fit's move is the
//! best or within half a hundredth of it. `--limit N` uses the first N logged positions of each file. The fit is
//! written after every epoch (atomically: a temporary file, then a rename).
//!
//! `--sample N` adds about N positions drawn from the whole table (each kept when a hash of its key falls in a band;
//! the next tenth of that band is held out and measured after each epoch). `--bands N,WIDTH` gives the fit a set of
//! weights per band of the free tiles' sum (`Fit::with_bands`). `--from FILE` starts from a fit written before (with
//! `--epochs 0`, only measures it). `--search P` measures at the end the fit's moves chosen by a search P spawns deep
//! with the fit at the leaves (`Fit::search_value`), and 0 to P-1 beside it.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Instant;

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use twenty48::bitboard::{Bitboard, tables};
use twenty48::direction::Direction;
use twenty48::endgame::Table;
use twenty48::endgame::fit::Fit;

/// The logged positions of one file: each distinct position's examples once, and the order they were logged in.
struct Examples {
    /// (after-state, table value) of every allowed move of every distinct position.
    moves: Vec<(Bitboard, f32)>,
    /// Where each distinct position's examples begin and how many there are.
    spans: Vec<(u32, u8)>,
    /// Each logged position, as an index into `spans`.
    logged: Vec<u32>,
}

#[path = "common/keys.rs"]
mod keys;
use keys::read_keys;

/// SplitMix64's finaliser (as `endgame::distill` hashes keys).
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn examples(table: &Table, keys: &[u64]) -> Examples {
    let f = table.formation();
    let t = tables();
    let mut index: HashMap<u64, u32> = HashMap::new();
    let mut ex = Examples {
        moves: Vec::new(),
        spans: Vec::new(),
        logged: Vec::with_capacity(keys.len()),
    };
    for &key in keys {
        let i = *index.entry(key).or_insert_with(|| {
            let b = f.board(key);
            let start = ex.moves.len() as u32;
            for d in Direction::ALL {
                if let Some(after) = f.allowed(t, b, d)
                    && let Some(v) = table.after_value(after).filter(|v| v.is_finite())
                {
                    ex.moves.push((after, v));
                }
            }
            ex.spans
                .push((start, (ex.moves.len() as u32 - start) as u8));
            ex.spans.len() as u32 - 1
        });
        if ex.spans[i as usize].1 > 0 {
            ex.logged.push(i);
        }
    }
    ex
}

/// Root mean square error over the logged positions' examples, the mean loss a position of playing the fit's move,
/// and the share of positions where that loss is under half a hundredth.
fn measure(fit: &Fit, ex: &Examples, plies: u32) -> (f64, f64, f64) {
    let (mut sq, mut n, mut loss, mut near) = (0f64, 0u64, 0f64, 0u64);
    for &i in &ex.logged {
        let (start, len) = ex.spans[i as usize];
        let moves = &ex.moves[start as usize..start as usize + len as usize];
        let (mut best, mut chosen, mut chosen_fit) = (f32::MIN, 0f32, f32::MIN);
        for &(after, v) in moves {
            let e = if plies == 0 {
                fit.eval(after)
            } else {
                fit.search_value(after, plies, 0.1)
            };
            sq += ((v - e) as f64).powi(2);
            n += 1;
            best = best.max(v);
            if e > chosen_fit {
                (chosen_fit, chosen) = (e, v);
            }
        }
        let l = (best - chosen) as f64;
        loss += l;
        near += u64::from(l < 0.005);
    }
    let m = ex.logged.len().max(1) as f64;
    ((sq / n.max(1) as f64).sqrt(), loss / m, near as f64 / m)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut table_dir, mut keys, mut valid, mut out) = (None, None, None, None);
    let (mut epochs, mut alpha, mut seed, mut limit) = (6usize, 0.1f32, 1u64, usize::MAX);
    let mut search = 0u32;
    let mut sample = 0usize;
    let (mut bands, mut band_width) = (1usize, u32::MAX);
    let mut held_sample = None;
    let mut from = None;
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--table" => table_dir = Some(PathBuf::from(value)),
            "--keys" => keys = Some(value),
            "--valid" => valid = Some(value),
            "--out" => out = Some(PathBuf::from(value)),
            "--epochs" => epochs = value.parse().expect("--epochs"),
            "--alpha" => alpha = value.parse().expect("--alpha"),
            "--seed" => seed = value.parse().expect("--seed"),
            "--limit" => limit = value.parse().expect("--limit"),
            "--search" => search = value.parse().expect("--search"),
            "--sample" => sample = value.parse().expect("--sample"),
            "--bands" => {
                let (n, w) = value.split_once(',').expect("--bands N,WIDTH");
                (bands, band_width) = (n.parse().expect("bands"), w.parse().expect("width"));
            }
            "--from" => from = Some(PathBuf::from(value)),
            _ => panic!("unknown option {flag}"),
        }
    }
    let table_dir = table_dir.expect("--table DIR");
    let t0 = Instant::now();
    let table = Table::load(&table_dir).unwrap_or_else(|e| panic!("{}: {e}", table_dir.display()));
    eprintln!(
        "table {} ({}, {} positions) loaded in {:.1} s",
        table_dir.display(),
        table.formation(),
        table.len(),
        t0.elapsed().as_secs_f64()
    );
    let t0 = Instant::now();
    let mut train_keys = read_keys(&keys.expect("--keys FILE[,FILE...]"), limit);
    if sample > 0 {
        // Positions of the whole table, each kept when a hash of its key falls under the share asked for (a held-out
        // sample uses the next band of the hash).
        let share = (sample as f64 / table.len() as f64).min(1.0);
        let cut = (share * u64::MAX as f64) as u64;
        let f = table.formation().clone();
        let before = train_keys.len();
        let mut held = Vec::new();
        for (b, _) in table.entries() {
            let key = f.key(b);
            let h = mix(key ^ seed);
            if h < cut {
                train_keys.push(key);
            } else if h < cut.saturating_add(cut / 10) {
                held.push(key);
            }
        }
        eprintln!(
            "sampled {} positions of the table ({} held out)",
            train_keys.len() - before,
            held.len()
        );
        held_sample = Some(examples(&table, &held));
    }
    let train = examples(&table, &train_keys);
    let valid = valid.map(|p| examples(&table, &read_keys(&p, limit)));
    eprintln!(
        "examples: {} logged positions ({} distinct, {} moves){} in {:.1} s",
        train.logged.len(),
        train.spans.len(),
        train.moves.len(),
        valid.as_ref().map_or(String::new(), |v| format!(
            "; held out {} ({} distinct)",
            v.logged.len(),
            v.spans.len()
        )),
        t0.elapsed().as_secs_f64()
    );
    let formation = table.formation().clone();
    drop(table);
    let mut fit = match &from {
        Some(path) => Fit::from_bytes(&std::fs::read(path).expect("read --from"))
            .unwrap_or_else(|e| panic!("{}: {e}", path.display())),
        None => {
            let tuples = Fit::default_tuples(&formation);
            Fit::with_bands(formation, tuples, bands, band_width).expect("tuples and bands")
        }
    };
    eprintln!(
        "fit: {} tuples {:?}, {} weights",
        fit.tuples().len(),
        fit.tuples(),
        fit.len()
    );
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order = train.logged.clone();
    for epoch in 1..=epochs {
        let t0 = Instant::now();
        for i in (1..order.len()).rev() {
            let j = ((rng.next_u64() as u128 * (i as u128 + 1)) >> 64) as usize;
            order.swap(i, j);
        }
        let rate = alpha / epoch as f32;
        let mut sq = 0f64;
        let mut n = 0u64;
        for &i in &order {
            let (start, len) = train.spans[i as usize];
            for &(after, v) in &train.moves[start as usize..start as usize + len as usize] {
                sq += (fit.learn(after, v, rate) as f64).powi(2);
                n += 1;
            }
        }
        let (train_rmse, train_loss, train_near) = measure(&fit, &train, 0);
        let held = valid.as_ref().map(|v| measure(&fit, v, 0));
        if let Some(h) = &held_sample {
            let (r, l, near) = measure(&fit, h, 0);
            println!("  held-out table sample: rmse {r:.5} loss {l:.5} near {near:.4}");
        }
        println!(
            "epoch {epoch} (alpha {rate:.4}, {:.1} s): learning rmse {:.5}; train rmse {train_rmse:.5} loss {train_loss:.5} near {:.4}{}; {} weights not zero",
            t0.elapsed().as_secs_f64(),
            (sq / n.max(1) as f64).sqrt(),
            train_near,
            held.map_or(String::new(), |(r, l, near)| format!(
                "; held out rmse {r:.5} loss {l:.5} near {near:.4}"
            )),
            fit.nonzero()
        );
        if let Some(path) = &out {
            let tmp = path.with_extension("tmp");
            std::fs::write(&tmp, fit.to_bytes()).expect("write the fit");
            std::fs::rename(&tmp, path).expect("rename the fit");
        }
    }
    if let Some(v) = &valid {
        for plies in 0..=search {
            let t0 = Instant::now();
            let (r, l, near) = measure(&fit, v, plies);
            println!(
                "searched {plies} spawns deep ({:.1} s): held out rmse {r:.5} loss {l:.5} near {near:.4}",
                t0.elapsed().as_secs_f64()
            );
        }
    }
}
