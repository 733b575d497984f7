//! Trains the n-tuple network by self-play, for long background runs.
//!
//! `nice -n 19 cargo run --release -p twenty48 --example train -- --checkpoint /work/ntuple/net.p48 --log /work/ntuple/curve.tsv --games 10000000 --minutes 90`
//!
//! Resumes from `--checkpoint` when the file exists (its game count says where the run stands), saves it every
//! `--every-minutes` (default 5) and at the end, and appends one line per block to `--log` (columns of
//! `Progress::LOG_HEADER`). Options: `--threads K` (default 2), `--seed S` (1), `--alpha A` (0.1), `--block N` (1000),
//! `--init V` (optimistic initial value of every after-state for a new network, default 0), `--minutes M` (stop
//! after M minutes), `--tc` (temporal coherence learning; its sums are saved beside the checkpoint and resumed with
//! it), `--stages 16384` (stages by the largest tile; a checkpoint in other stages is promoted), `--downgrade 14`
//! (play and learn through tile downgrading from 16384), `--late-of MAIN` (train a late-stage network instead, for the
//! boards that hold 16384 or more, read through downgrading, beside the network MAIN, `shipped` for the compiled-in
//! one; a new checkpoint starts as a copy of MAIN; `--late-from 14` sets the stage's exponent, `--image-rewards`
//! counts the rewards in the image's points, `--late-search D` chooses the late moves by a depth-D search over both
//! networks instead of greedily, and `--search-targets` moves each chosen after-state toward that search's value of
//! it; see `twenty48::ai::ntuple::late`). `--pool-from STARTS` fills a new pool of late-game starts with the boards of a
//! file written by `starts collect` (with `--restart`); with `--late-of`, `--fixed-pool` keeps the pool as it began
//! (the games add none of their boards), and `--stores` plays the compiled-in endgame stores' move where they hold
//! the board, as the shipped player does.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[path = "common/starts_file.rs"]
mod starts_file;
use starts_file::read_starts;
use twenty48::ai::ntuple::{
    FEATURES, LateConfig, Network, Progress, TrainConfig, TrainingState, check_stages, compiled_in,
    load, train_late, train_with,
};

struct Args {
    cfg: TrainConfig,
    checkpoint: Option<PathBuf>,
    log: Option<PathBuf>,
    every: Duration,
    minutes: Option<f64>,
    init: f32,
    tc: bool,
    stages: Option<Vec<u8>>,
    late_of: Option<String>,
    late: LateConfig,
    pool_from: Option<String>,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        cfg: TrainConfig::default(),
        checkpoint: None,
        log: None,
        every: Duration::from_secs(300),
        minutes: None,
        init: 0.0,
        tc: false,
        stages: None,
        late_of: None,
        late: LateConfig::default(),
        pool_from: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        // The flags that take no value.
        let switch = match flag.as_str() {
            "--tc" => Some(&mut a.tc),
            "--image-rewards" => Some(&mut a.late.image_rewards),
            "--stores" => Some(&mut a.late.stores),
            "--fixed-pool" => Some(&mut a.late.fixed_pool),
            "--search-targets" => Some(&mut a.late.search_targets),
            _ => None,
        };
        if let Some(on) = switch {
            *on = true;
            continue;
        }
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let bad = |e: &dyn std::fmt::Display| format!("bad value for {flag}: {e}");
        match flag.as_str() {
            "--games" => a.cfg.games = value()?.parse().map_err(|e| bad(&e))?,
            "--threads" => a.cfg.threads = value()?.parse().map_err(|e| bad(&e))?,
            "--seed" => a.cfg.seed = value()?.parse().map_err(|e| bad(&e))?,
            "--alpha" => a.cfg.alpha = value()?.parse().map_err(|e| bad(&e))?,
            "--block" => a.cfg.block = value()?.parse().map_err(|e| bad(&e))?,
            "--init" => a.init = value()?.parse().map_err(|e| bad(&e))?,
            "--checkpoint" => a.checkpoint = Some(value()?.into()),
            "--log" => a.log = Some(value()?.into()),
            "--every-minutes" => {
                let m: f64 = value()?.parse().map_err(|e| bad(&e))?;
                a.every = Duration::from_secs_f64(m.max(0.0) * 60.0);
            }
            "--minutes" => a.minutes = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--restart" => {
                a.cfg.restart = value()?.parse().map_err(|e| bad(&e))?;
                if !(0.0..=1.0).contains(&a.cfg.restart) {
                    return Err(format!("bad value for {flag}: a share from 0 to 1"));
                }
            }
            "--restart-from" => {
                let tile: u64 = value()?.parse().map_err(|e| bad(&e))?;
                if !tile.is_power_of_two() || !(4..=32768).contains(&tile) {
                    return Err(format!("bad value for {flag}: a tile from 4 to 32768"));
                }
                a.cfg.restart_tile = tile.trailing_zeros() as u8;
            }
            "--late-of" => a.late_of = Some(value()?),
            "--pool-from" => a.pool_from = Some(value()?),
            "--late-from" => match value()?.parse::<u8>() {
                Ok(e @ 2..=15) => a.late.from = e,
                _ => return Err(format!("bad value for {flag}: an exponent from 2 to 15")),
            },
            "--late-search" => match value()?.parse::<u32>() {
                Ok(d @ 1..=4) => a.late.search_depth = d,
                _ => return Err(format!("bad value for {flag}: a depth from 1 to 4")),
            },
            "--downgrade" => match value()?.parse::<u8>() {
                Ok(e @ 1..=15) => a.cfg.downgrade = Some(e),
                _ => return Err(format!("bad value for {flag}: an exponent from 1 to 15")),
            },
            "--stages" => {
                let v = value()?;
                let exps = v
                    .split(',')
                    .map(|t| match t.trim().parse::<u64>() {
                        Ok(t) if t.is_power_of_two() && (4..=32768).contains(&t) => {
                            Ok(t.trailing_zeros() as u8)
                        }
                        _ => Err(format!("bad value for {flag}: tiles from 4 to 32768")),
                    })
                    .collect::<Result<Vec<u8>, String>>()?;
                check_stages(&exps).map_err(|e| bad(&e))?;
                a.stages = Some(exps);
            }
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if a.late.search_targets && a.late.search_depth < 2 {
        return Err("--search-targets needs --late-search 2 or more".into());
    }
    let late_only = a.late.image_rewards
        || a.late.search_depth > 1
        || a.late.search_targets
        || a.late.fixed_pool
        || a.late.stores;
    if late_only && a.late_of.is_none() {
        return Err(
            "--image-rewards, --late-search, --search-targets, --fixed-pool and --stores need --late-of"
                .into(),
        );
    }
    if a.pool_from.is_some() && a.cfg.restart <= 0.0 {
        return Err("--pool-from needs --restart above 0".into());
    }
    Ok(a)
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "usage: train [--games N] [--threads K] [--seed S] [--alpha A] [--block N] [--init V] [--checkpoint FILE] [--every-minutes M] [--log FILE] [--minutes M] [--tc] [--restart SHARE] [--restart-from TILE] [--stages TILES] [--downgrade E] [--late-of MAIN] [--late-from E] [--image-rewards] [--late-search D] [--search-targets] [--pool-from STARTS] [--fixed-pool] [--stores]"
            );
            return ExitCode::from(2);
        }
    };
    let main_net = match args.late_of.as_deref() {
        None => None,
        Some(main) => match if main == "shipped" {
            compiled_in()
        } else {
            load(std::path::Path::new(main))
        } {
            Ok(n) => Some(n),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let fresh_late = args.checkpoint.as_ref().is_none_or(|p| !p.exists());
    let late_copy = match (&args.late_of, fresh_late) {
        (Some(main), true) => {
            println!(
                "a new late stage from 2^{}: a copy of {main}",
                args.late.from
            );
            match if main == "shipped" {
                compiled_in()
            } else {
                load(std::path::Path::new(main))
            } {
                Ok(n) => {
                    n.set_games(0);
                    Some(n)
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::FAILURE;
                }
            }
        }
        _ => None,
    };
    let net = match &args.checkpoint {
        _ if late_copy.is_some() => late_copy.expect("checked"),
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
    let state = match TrainingState::resume(
        args.checkpoint.as_deref(),
        &net,
        args.tc,
        args.cfg.restart > 0.0,
    ) {
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
                println!("--pool-from {file}: not read, the pool was resumed");
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
        if saved.elapsed() >= args.every && !out_of_time {
            saved = Instant::now();
            if !checkpoint(net) {
                failed = true;
                return false;
            }
        }
        !out_of_time
    };
    match &main_net {
        Some(main) => train_late(
            main,
            &net,
            args.late,
            state.tc.as_ref(),
            state.starts.as_ref(),
            &args.cfg,
            on_block,
        ),
        None => train_with(
            &net,
            state.tc.as_ref(),
            state.starts.as_ref(),
            &args.cfg,
            on_block,
        ),
    }
    if failed || !checkpoint(&net) {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
