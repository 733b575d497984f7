//! Plays AI games and prints one line per game plus a summary.
//!
//! `cargo run --release -p twenty48 --example auto -- --games 10 --seed 1 --ms-per-move 0.5`
//! `cargo run --release -p twenty48 --example auto -- --games 10 --depth 3 --threads 1 --size 4`
//! `--weights base,empty,merges,mono,mono_power,sum,sum_power,edge` (or `nneonneo`) overrides the tuned weights;
//! `--policy nneonneo` (or `MIN,OFFSET`) searches to a depth set by the number of distinct tiles.
//! `--eval network` evaluates with the shipped n-tuple network (falling back to the heuristic with a message when it
//! cannot be loaded), `--net FILE` with the network in FILE (a training checkpoint); `--downgrade off` reads late-game
//! boards as they are (by default the network reads boards that hold 16384 through tile downgrading; `--downgrade E`
//! from a largest tile of 2^E).

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use twenty48::Rules;
use twenty48::ai::ntuple::Network;
use twenty48::ai::{
    EvalKind, Player, Policy, SearchConfig, TableLife, Weights, autoplay_player, ntuple, summarize,
};

struct Args {
    games: usize,
    seed: u64,
    cfg: SearchConfig,
    size: usize,
    weights: Option<Weights>,
    policy: Option<Policy>,
    table: Option<(TableLife, bool)>,
    max_moves: Option<usize>,
    cutoff: Option<f32>,
    eval: EvalKind,
    net: Option<PathBuf>,
    downgrade: Option<Option<u8>>,
}

fn parse_args() -> Result<Args, String> {
    let mut games = 10usize;
    let mut seed = 1u64;
    let mut cfg = SearchConfig {
        depth: None,
        ms_per_move: None,
        threads: 1,
    };
    let mut size = 4usize;
    let mut weights = None;
    let mut policy = None;
    let mut table = None;
    let mut max_moves = None;
    let mut cutoff = None;
    let mut eval = EvalKind::Heuristic;
    let mut net = None;
    let mut downgrade = None;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        let bad = |e: &dyn std::fmt::Display| format!("bad value for {flag}: {e}");
        match flag.as_str() {
            "--games" => games = value()?.parse().map_err(|e| bad(&e))?,
            "--seed" => seed = value()?.parse().map_err(|e| bad(&e))?,
            "--ms-per-move" => cfg.ms_per_move = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--depth" => cfg.depth = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--threads" => cfg.threads = value()?.parse().map_err(|e| bad(&e))?,
            "--size" => size = value()?.parse().map_err(|e| bad(&e))?,
            "--policy" => {
                let v = value()?;
                policy = Some(match v.as_str() {
                    "iterative" => Policy::Iterative,
                    "nneonneo" => Policy::NNEONNEO,
                    other => {
                        let (min, offset) = other
                            .split_once(',')
                            .ok_or("--policy: iterative, nneonneo or MIN,OFFSET")?;
                        Policy::Distinct {
                            min: min.parse().map_err(|e| bad(&e))?,
                            offset: offset.parse().map_err(|e| bad(&e))?,
                        }
                    }
                });
            }
            "--eval" => eval = value()?.parse()?,
            "--net" => net = Some(PathBuf::from(value()?)),
            "--downgrade" => {
                downgrade = Some(match value()?.as_str() {
                    "off" => None,
                    v => match v.parse::<u8>() {
                        Ok(e @ 1..=15) => Some(e),
                        _ => return Err("--downgrade: off or an exponent from 1 to 15".into()),
                    },
                })
            }
            "--cutoff" => cutoff = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--max-moves" => max_moves = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--table" => {
                table = Some(match value()?.as_str() {
                    "root" => (TableLife::RootMove, true),
                    "move" => (TableLife::Move, true),
                    "game" => (TableLife::Game, true),
                    "move-exact" => (TableLife::Move, false),
                    "game-exact" => (TableLife::Game, false),
                    _ => return Err("--table: root, move, game, move-exact or game-exact".into()),
                });
            }
            "--weights" => {
                let v = value()?;
                if v == "nneonneo" {
                    weights = Some(Weights::NNEONNEO);
                    continue;
                }
                let parts: Vec<f32> = v.split(',').filter_map(|p| p.trim().parse().ok()).collect();
                weights = Some(Weights::from_array(
                    <[f32; 8]>::try_from(parts).map_err(|_| "--weights needs 8 numbers")?,
                ));
            }
            _ => return Err(format!("unknown argument {flag}")),
        }
    }
    if cfg.depth.is_none() && cfg.ms_per_move.is_none() {
        cfg.ms_per_move = Some(0.5);
    }
    Ok(Args {
        games,
        seed,
        cfg,
        size,
        weights,
        policy,
        table,
        max_moves,
        cutoff,
        eval,
        net,
        downgrade,
    })
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "usage: auto [--games N] [--seed S] [--ms-per-move T | --depth D] [--threads K] [--size N] [--weights w1,..,w8 | nneonneo] [--policy iterative | nneonneo | MIN,OFFSET] [--table root|move|game|move-exact|game-exact] [--cutoff C] [--max-moves M] [--eval heuristic|network] [--net FILE] [--downgrade off|E]"
            );
            return ExitCode::from(2);
        }
    };
    let rules = match Rules::new(args.size, 0.1, 2048) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let t0 = std::time::Instant::now();
    let network: Option<Arc<Network>> = match (&args.net, args.eval) {
        (Some(path), _) => match ntuple::load(path) {
            Ok(n) => {
                eprintln!(
                    "network {} ({} training games) loaded in {:.2} s",
                    path.display(),
                    n.games(),
                    t0.elapsed().as_secs_f64()
                );
                Some(Arc::new(n))
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        },
        (None, EvalKind::Network) => match ntuple::shipped() {
            Ok(n) => Some(Arc::clone(n)),
            Err(e) => {
                eprintln!("warning: {e}; playing with the heuristic");
                None
            }
        },
        (None, EvalKind::Heuristic) => None,
    };
    let mut reports = Vec::with_capacity(args.games);
    for i in 0..args.games as u64 {
        let mut player = match (&network, args.weights) {
            (Some(n), _) => Player::with_network(args.cfg.clone(), Arc::clone(n)),
            (None, Some(w)) => Player::with_weights(args.cfg.clone(), w),
            (None, None) => Player::new(args.cfg.clone()),
        };
        if let Some(p) = args.policy {
            player.set_policy(p);
        }
        if let Some((life, at_least)) = args.table {
            player.set_table(life, at_least);
        }
        if let Some(from) = args.downgrade {
            player.set_downgrade(from);
        }
        if let Some(c) = args.cutoff {
            player.set_cutoff(c);
        }
        let seed = args.seed.wrapping_add(i);
        let report = autoplay_player(&rules, seed, &mut player, args.max_moves);
        println!("{report}");
        reports.push(report);
    }
    println!("{}", summarize(&reports));
    ExitCode::SUCCESS
}
