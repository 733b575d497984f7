//! Greedy play from late-game positions: how often a network turns a board that already holds 16384 into 32768.
//!
//! `cargo run --release -p twenty48 --example late -- --net FILE --starts CKPT --stamp GAMES --positions 2000 --seed 1`
//!
//! The positions are the first `--positions` boards of the pool of late-game starts saved beside the training
//! checkpoint `CKPT` (the file `CKPT.starts`, stamped with the game count `GAMES`). Position `i` is played greedily to
//! the end with the spawns of `game_rng(seed, i)`, so two networks meet the same boards and the same spawns: a
//! low-noise comparison of their late game, which games from an empty board reach too rarely to measure. `--show K`
//! prints the first K positions and the boards they ended on. `--downgrade E` reads after-states through tile
//! downgrading from a largest tile of 2^E (`twenty48::ai::ntuple::downgrade`).

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;

use twenty48::ai::ntuple::{
    POOL_CAPACITY, Starts, game_rng, greedy_move_downgraded, load, spawn_bitboard,
};
use twenty48::bitboard::max_exponent;

/// The options: network, checkpoint of the pool, its stamp, positions, seed, positions shown, downgrading from.
type Args = (PathBuf, PathBuf, u64, u64, u64, u64, Option<u8>);

fn parse_args() -> Result<Args, String> {
    let (mut net, mut starts, mut stamp, mut positions, mut seed, mut show) =
        (None, None, None, 2000, 1, 0);
    let mut down = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = |e: &dyn std::fmt::Display| format!("bad value for {flag}: {e}");
        match flag.as_str() {
            "--net" => net = Some(PathBuf::from(value)),
            "--starts" => starts = Some(PathBuf::from(value)),
            "--stamp" => stamp = Some(value.parse().map_err(|e| bad(&e))?),
            "--positions" => positions = value.parse().map_err(|e| bad(&e))?,
            "--seed" => seed = value.parse().map_err(|e| bad(&e))?,
            "--show" => show = value.parse().map_err(|e| bad(&e))?,
            "--downgrade" => match value.parse::<u8>() {
                Ok(e @ 1..=15) => down = Some(e),
                _ => return Err(format!("bad value for {flag}: an exponent from 1 to 15")),
            },
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    match (net, starts, stamp) {
        (Some(n), Some(s), Some(g)) => Ok((n, s, g, positions, seed, show, down)),
        _ => Err("--net, --starts and --stamp are needed".into()),
    }
}

fn main() -> ExitCode {
    let (net_path, starts_path, stamp, positions, seed, show, down) = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "usage: late --net FILE --starts CKPT --stamp GAMES [--positions N] [--seed S] [--show K] [--downgrade E]"
            );
            return ExitCode::from(2);
        }
    };
    let net = match load(&net_path) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let pool = match Starts::load(&starts_path, stamp, POOL_CAPACITY) {
        Ok(Some(p)) => p,
        Ok(None) => {
            eprintln!(
                "error: no pool stamped {stamp} beside {}",
                starts_path.display()
            );
            return ExitCode::FAILURE;
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (mut played, mut reached, mut moves, mut points) = (0u64, 0u64, 0u64, 0u64);
    let t0 = std::time::Instant::now();
    for i in 0..positions.min(pool.len() as u64) {
        let Some(mut b) = pool.pick(i) else { break };
        if max_exponent(b) >= 15 {
            continue;
        }
        let start = b;
        let mut rng = game_rng(seed, i);
        while let Some((after, reward, _)) = greedy_move_downgraded(&net, b, down) {
            points += reward;
            moves += 1;
            b = spawn_bitboard(after, &mut rng, 0.1);
        }
        if i < show {
            println!("position {i}: from\n{}to\n{}", grid(start), grid(b));
        }
        played += 1;
        reached += u64::from(max_exponent(b) >= 15);
    }
    println!(
        "network {} ({} games, {} stages): {played} positions, 32768 reached from {reached} ({:.2}%), {:.0} points and {:.0} moves a position, {:.1} s",
        net_path.display(),
        net.games(),
        net.stages(),
        100.0 * reached as f64 / played.max(1) as f64,
        points as f64 / played.max(1) as f64,
        moves as f64 / played.max(1) as f64,
        t0.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}

/// A bitboard as four rows of tiles.
fn grid(b: u64) -> String {
    let mut out = String::new();
    for r in 0..4 {
        for c in 0..4 {
            let e = (b >> (4 * (4 * r + c))) & 0xF;
            let t = if e == 0 { 0 } else { 1u64 << e };
            out.push_str(&format!("{t:>6}"));
        }
        out.push('\n');
    }
    out
}
