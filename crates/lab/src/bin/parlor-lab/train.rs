//! `parlor-lab train`: what [`Args`] says.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::common::starts_file::read_starts;
use twenty48::ai::ntuple::{
    FEATURES, Network, Progress, TrainConfig, TrainingState, check_stages, load, train_with,
};

/// Trains the n-tuple network by self-play.
///
/// Trains the n-tuple network by self-play, for long background runs.
///
/// `nice -n 19 cargo run --release -p parlor-lab -- train --checkpoint /work/ntuple/net.p48 --log /work/ntuple/curve.tsv --games 10000000 --minutes 90`
///
/// Resumes from `--checkpoint` when the file exists (its game count says where the run stands), saves it every
/// `--every-minutes` (default 5) and at the end, and appends one line per block to `--log` (columns of
/// `Progress::LOG_HEADER`). Options: `--threads K` (default 2), `--seed S` (1), `--alpha A` (0.1), `--block N` (1000),
/// `--init V` (optimistic initial value of every after-state for a new network, default 0), `--minutes M` (stop
/// after M minutes), `--tc` (temporal coherence learning; its sums are saved beside the checkpoint and resumed with
/// it), `--stages 16384` (stages by the largest tile; a checkpoint in other stages is promoted), `--downgrade 14`
/// (play and learn through tile downgrading from 16384), `--pool-from STARTS` (fill a new pool of late-game starts with
/// the boards of a file written by `starts collect`, with `--restart`). `--help` lists every option.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Stop once the network has been trained on this many games in all.
    #[arg(long, default_value_t = TrainConfig::default().games)]
    games: u64,
    /// Threads playing training games (1 makes a run reproducible).
    #[arg(long, default_value_t = TrainConfig::default().threads)]
    threads: usize,
    /// Seed of the training games' spawns.
    #[arg(long, default_value_t = TrainConfig::default().seed)]
    seed: u64,
    /// Learning rate.
    #[arg(long, default_value_t = TrainConfig::default().alpha)]
    alpha: f32,
    /// Games per progress line.
    #[arg(long, default_value_t = TrainConfig::default().block)]
    block: u64,
    /// Optimistic initial value of every after-state of a new network.
    #[arg(long, default_value_t = 0.0)]
    init: f32,
    /// The network file: resumed from when it exists, saved every --every-minutes and at the end.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,
    /// Append one line a block to FILE.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Minutes between checkpoints.
    #[arg(long, default_value_t = 5.0)]
    every_minutes: f64,
    /// Stop after this many minutes (a checkpoint is saved first).
    #[arg(long)]
    minutes: Option<f64>,
    /// Temporal coherence learning (its sums are saved beside the checkpoint and resumed with it).
    #[arg(long)]
    tc: bool,
    /// Share of games, 0 to 1, started from a pool of late-game positions.
    #[arg(long, default_value_t = 0.0, value_parser = share)]
    restart: f64,
    /// Positions enter the pool of late-game starts once they hold this tile (4 to 32768).
    #[arg(long, value_parser = tile)]
    restart_from: Option<u8>,
    /// Stages by the largest tile: tiles (comma-separated, rising) at which a new set of weights takes over.
    #[arg(long, value_name = "TILES", value_parser = stages)]
    stages: Option<Vec<u8>>,
    /// Play and learn through tile downgrading from a largest tile of 2^E.
    #[arg(long, value_name = "E", value_parser = clap::value_parser!(u8).range(1..=15))]
    downgrade: Option<u8>,
    /// Fill a new pool of late-game starts with the boards of STARTS (written by `starts collect`; needs --restart).
    #[arg(long, value_name = "STARTS")]
    pool_from: Option<PathBuf>,
}

/// A share from 0 to 1.
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a share from 0 to 1")),
    }
}

/// A tile from 4 to 32768, as its exponent.
fn tile(s: &str) -> Result<u8, String> {
    match s.trim().parse::<u64>() {
        Ok(t) if t.is_power_of_two() && (4..=32768).contains(&t) => Ok(t.trailing_zeros() as u8),
        _ => Err(format!("'{s}' is not a tile from 4 to 32768")),
    }
}

/// Stage tiles, comma-separated, rising.
fn stages(s: &str) -> Result<Vec<u8>, String> {
    let exps = s
        .split(',')
        .map(tile)
        .collect::<Result<Vec<u8>, String>>()?;
    check_stages(&exps).map_err(|e| e.to_string())?;
    Ok(exps)
}

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    if args.pool_from.is_some() && args.restart <= 0.0 {
        eprintln!("error: --pool-from needs --restart above 0");
        return ExitCode::from(2);
    }
    let mut cfg = TrainConfig {
        games: args.games,
        threads: args.threads,
        seed: args.seed,
        alpha: args.alpha,
        block: args.block,
        restart: args.restart,
        downgrade: args.downgrade,
        ..TrainConfig::default()
    };
    if let Some(e) = args.restart_from {
        cfg.restart_tile = e;
    }
    let every = Duration::from_secs_f64(args.every_minutes.max(0.0) * 60.0);
    let net = match &args.checkpoint {
        Some(path) if path.exists() => match load(path) {
            Ok(net) => {
                println!("resuming from {} at game {}", path.display(), net.games());
                match &args.stages {
                    Some(from) if from.as_slice() != net.stage_from() => {
                        println!("promoting to stages from exponents {from:?}");
                        match net.promoted(from) {
                            Ok(n) => n,
                            Err(e) => {
                                eprintln!("error: {e}");
                                return ExitCode::FAILURE;
                            }
                        }
                    }
                    _ => net,
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        _ => match Network::staged(
            args.init / FEATURES as f32,
            args.stages.as_deref().unwrap_or(&[]),
        ) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let state =
        match TrainingState::resume(args.checkpoint.as_deref(), &net, args.tc, cfg.restart > 0.0) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    if args.tc {
        let how = if state.tc_resumed {
            "sums resumed"
        } else {
            "fresh sums"
        };
        println!("temporal coherence: {how}");
    }
    if let Some(pool) = &state.starts {
        if let Some(file) = &args.pool_from {
            if pool.is_empty() {
                match read_starts(file) {
                    Ok(starts) => {
                        for (_, board) in &starts {
                            if let Some(b) = board.to_bitboard() {
                                pool.push(b);
                            }
                        }
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            } else {
                println!(
                    "--pool-from {}: not read, the pool was resumed",
                    file.display()
                );
            }
        }
        println!("late-game starts: {} boards in the pool", pool.len());
    }
    let mut log = match &args.log {
        Some(path) => match std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
        {
            Ok(mut f) => {
                if f.metadata().map(|m| m.len() == 0).unwrap_or(false) {
                    let _ = writeln!(f, "{}", Progress::LOG_HEADER);
                }
                Some(f)
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => None,
    };
    let start = Instant::now();
    let mut saved = Instant::now();
    let mut failed = false;
    let checkpoint = |net: &Network| {
        if let Some(path) = &args.checkpoint {
            let t = Instant::now();
            match state.save(net, path) {
                Ok(()) => println!(
                    "checkpoint {} at game {} ({:.1} s)",
                    path.display(),
                    net.games(),
                    t.elapsed().as_secs_f64()
                ),
                Err(e) => {
                    eprintln!("error: {e}");
                    return false;
                }
            }
        }
        true
    };
    let on_block = |net: &Network, p: &Progress| {
        println!(
            "{}\t{} restarts ({} reached 32768)",
            p.log_line(),
            p.restarts,
            p.restarts_reached_top
        );
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{}", p.log_line());
        }
        let out_of_time = args
            .minutes
            .is_some_and(|m| start.elapsed().as_secs_f64() >= m * 60.0);
        if saved.elapsed() >= every && !out_of_time {
            saved = Instant::now();
            if !checkpoint(net) {
                failed = true;
                return false;
            }
        }
        !out_of_time
    };
    train_with(
        &net,
        state.tc.as_ref(),
        state.starts.as_ref(),
        &cfg,
        on_block,
    );
    if failed || !checkpoint(&net) {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
