//! `parlor-lab late`: what [`Args`] says.

use std::path::PathBuf;
use std::process::ExitCode;

use twenty48::ai::ntuple::{
    POOL_CAPACITY, Starts, game_rng, greedy_move_downgraded, load, spawn_bitboard,
};
use twenty48::bitboard::max_exponent;

/// Greedy play from late-game positions: how often a network turns a board that holds 16384 into 32768.
///
/// Greedy play from late-game positions: how often a network turns a board that already holds 16384 into 32768.
///
/// `cargo run --release -p parlor-lab -- late --net FILE --starts CKPT --stamp GAMES --positions 2000 --seed 1`
///
/// The positions are the first `--positions` boards of the pool of late-game starts saved beside the training
/// checkpoint `CKPT` (the file `CKPT.starts`, stamped with the game count `GAMES`). Position `i` is played greedily to
/// the end with the spawns of `game_rng(seed, i)`, so two networks meet the same boards and the same spawns: a
/// low-noise comparison of their late game, which games from an empty board reach too rarely to measure. `--show K`
/// prints the first K positions and the boards they ended on. `--downgrade E` reads after-states through tile
/// downgrading from a largest tile of 2^E (`twenty48::ai::ntuple::downgrade`).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The network (a training checkpoint).
    #[arg(long, value_name = "FILE")]
    net: PathBuf,
    /// The training checkpoint whose pool of late-game starts (CKPT.starts) is played.
    #[arg(long, value_name = "CKPT")]
    starts: PathBuf,
    /// The game count the pool is stamped with.
    #[arg(long, value_name = "GAMES")]
    stamp: u64,
    /// Positions played.
    #[arg(long, default_value_t = 2000)]
    positions: u64,
    /// Seed of the spawns.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print the first K positions and the boards they ended on.
    #[arg(long, value_name = "K", default_value_t = 0)]
    show: u64,
    /// Read after-states through tile downgrading from a largest tile of 2^E.
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u8).range(1..=15))]
    downgrade: Option<u8>,
}

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    let Args {
        net: net_path,
        starts: starts_path,
        stamp,
        positions,
        seed,
        show,
        downgrade: down,
    } = args;
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
