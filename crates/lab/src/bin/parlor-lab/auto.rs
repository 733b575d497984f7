//! `parlor-lab auto`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use parlor_lab::endgame::Advisor;
use twenty48::ai::ntuple::Network;
use twenty48::ai::{
    Advice, EvalKind, GameReport, Player, Policy, ProbClasses, SearchConfig, TableLife, Weights,
    autoplay_player, ntuple, summarize,
};
use twenty48::endgame::Stores;
use twenty48::endgame::distill::Store;
use twenty48::{Board, Rules};

/// Plays AI games and prints one line per game plus a summary.
///
/// Plays AI games and prints one line per game plus a summary: the player as the app ships it, or with another
/// network, other weights, nneonneo/2048-ai's depth rule, a full endgame table or other distilled stores.
///
/// `cargo run --release -p parlor-lab -- auto --games 10 --seed 1 --ms-per-move 0.5`
/// `cargo run --release -p parlor-lab -- auto --games 10 --depth 2 --eval network`
///
/// `--eval network` without `--net`, `--endgame` or `--endgame-store` plays as the app does: the compiled-in network
/// with the compiled-in endgame stores (unless `--no-store`). `--endgame DIR` asks the full table in DIR (built by
/// `parlor-lab endgame`) first, and `--endgame-log FILE` appends the formation key (8 bytes, little-endian) of every board
/// it held, the key logs that `parlor-lab distill` reads. `--out FILE` appends each game's line to FILE and, when
/// FILE already holds games, plays only the seeds it lacks (a long run resumes game by game after an interruption;
/// the summary covers every game in FILE). `--help` lists every option.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 10)]
    games: usize,
    /// Seed of the first game (the others follow it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A fixed search depth in moves, 1 to 40 (deterministic with one thread).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40), conflicts_with = "ms_per_move")]
    depth: Option<u32>,
    /// A time budget a move in milliseconds (0.5 without --depth).
    #[arg(long, value_parser = positive)]
    ms_per_move: Option<f64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Board size, 3 to 8.
    #[arg(long, default_value_t = 4)]
    size: usize,
    /// The heuristic's weights: `nneonneo`, or eight numbers (base,empty,merges,mono,mono_power,sum,sum_power,edge).
    #[arg(long, value_parser = weights)]
    weights: Option<Weights>,
    /// The depth rule: `iterative`, `nneonneo` (max(3, distinct tiles - 2) levels of spawns) or `MIN,OFFSET`.
    #[arg(long, value_parser = policy)]
    policy: Option<Policy>,
    /// How long table entries live: root, move, game (an entry searched deeper also hits), move-exact, game-exact.
    #[arg(long, value_parser = table)]
    table: Option<(TableLife, bool)>,
    /// The probability cut-off (0 disables it).
    #[arg(long)]
    cutoff: Option<f32>,
    /// Stop each game after this many moves.
    #[arg(long)]
    max_moves: Option<usize>,
    /// The evaluation on 4x4 boards: heuristic or network.
    #[arg(long, default_value = "heuristic", value_parser = eval_kind)]
    eval: EvalKind,
    /// Evaluate with the network in FILE (a training checkpoint) instead of the compiled-in one.
    #[arg(long, value_name = "FILE")]
    net: Option<PathBuf>,
    /// Append each game's line to FILE, and play only the seeds it does not hold yet.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Ask the full endgame table in DIR first (built by `parlor-lab endgame`).
    #[arg(long, value_name = "DIR")]
    endgame: Option<PathBuf>,
    /// Play a table's or store's move only when its success probability is at least this.
    #[arg(long, default_value_t = twenty48::endgame::shipped::MIN_SUCCESS)]
    endgame_min: f32,
    /// Append the formation key of every board the table held to FILE (8 bytes, little-endian).
    #[arg(long, value_name = "FILE", requires = "endgame")]
    endgame_log: Option<PathBuf>,
    /// With --endgame-log: on each board where a depth-D search without the table plays another move than the
    /// table's, log the key once for each hundredth of success probability that move loses by the table (needs the
    /// network), instead of once.
    #[arg(long, value_name = "D", requires = "endgame_log")]
    endgame_log_differ: Option<u32>,
    /// With --endgame-log: the table logs but does not play (the stores or the search do).
    #[arg(long, requires = "endgame_log")]
    endgame_log_only: bool,
    /// Ask the table only on boards whose largest tile is at least 2^E.
    #[arg(long, value_name = "E", default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=15))]
    endgame_from: u8,
    /// Play distilled stores' moves outright, the first store that holds the board (comma-separated files).
    #[arg(long, value_name = "FILE,...", value_delimiter = ',')]
    endgame_store: Vec<PathBuf>,
    /// With the compiled-in network: play without the compiled-in stores.
    #[arg(long)]
    no_store: bool,
}

/// A positive number.
fn positive(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("'{s}' is not a positive number")),
    }
}

/// `nneonneo` or eight numbers.
fn weights(s: &str) -> Result<Weights, String> {
    if s == "nneonneo" {
        return Ok(Weights::NNEONNEO);
    }
    let parts = s
        .split(',')
        .map(|p| p.trim().parse::<f32>().map_err(|e| format!("'{p}': {e}")))
        .collect::<Result<Vec<f32>, String>>()?;
    let parts = <[f32; 8]>::try_from(parts).map_err(|_| "eight numbers, comma-separated")?;
    Ok(Weights::from_array(parts))
}

/// `iterative`, `nneonneo` or `MIN,OFFSET`.
fn policy(s: &str) -> Result<Policy, String> {
    match s {
        "iterative" => Ok(Policy::Iterative),
        "nneonneo" => Ok(Policy::NNEONNEO),
        other => {
            let (min, offset) = other
                .split_once(',')
                .ok_or("iterative, nneonneo or MIN,OFFSET")?;
            Ok(Policy::Distinct {
                min: min.trim().parse().map_err(|e| format!("'{min}': {e}"))?,
                offset: offset
                    .trim()
                    .parse()
                    .map_err(|e| format!("'{offset}': {e}"))?,
            })
        }
    }
}

/// A table life.
fn table(s: &str) -> Result<(TableLife, bool), String> {
    Ok(match s {
        "root" => (TableLife::RootMove, true),
        "move" => (TableLife::Move, true),
        "game" => (TableLife::Game, true),
        "move-exact" => (TableLife::Move, false),
        "game-exact" => (TableLife::Game, false),
        _ => return Err("root, move, game, move-exact or game-exact".into()),
    })
}

/// `heuristic` or `network`.
fn eval_kind(s: &str) -> Result<EvalKind, String> {
    s.parse()
        .map_err(|e: twenty48::EvalKindError| e.to_string())
}

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    let rules = match Rules::new(args.size, 0.1, 2048) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let cfg = SearchConfig {
        depth: args.depth,
        ms_per_move: match args.depth {
            Some(_) => None,
            None => Some(args.ms_per_move.unwrap_or(0.5)),
        },
        threads: usize::from(args.threads),
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
            Ok(n) => {
                eprintln!(
                    "compiled-in network ({} training games) loaded in {:.2} s",
                    n.games(),
                    t0.elapsed().as_secs_f64()
                );
                Some(Arc::clone(n))
            }
            Err(e) => {
                eprintln!("warning: {e}; playing with the heuristic");
                None
            }
        },
        (None, EvalKind::Heuristic) => None,
    };
    let advisor = args.endgame.as_ref().map(|dir| {
        let t = std::time::Instant::now();
        let a = Arc::new(Advisor::load(dir).unwrap_or_else(|e| panic!("endgame table: {e}")));
        eprintln!(
            "endgame table {} ({}, {} positions) loaded in {:.1} s",
            dir.display(),
            a.table().formation(),
            a.table().len(),
            t.elapsed().as_secs_f64()
        );
        a
    });
    let store = if args.endgame_store.is_empty() {
        None
    } else {
        let stores = args
            .endgame_store
            .iter()
            .map(|path| {
                let bytes =
                    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let s =
                    Store::from_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                eprintln!(
                    "endgame store {} ({}, {} positions, {} bytes)",
                    path.display(),
                    s.formation(),
                    s.len(),
                    bytes.len()
                );
                s
            })
            .collect();
        Some(Arc::new(Stores::new(stores)))
    };
    // The shipped player: the compiled-in network with the compiled-in stores.
    let store = store.or_else(|| {
        if args.no_store || args.endgame.is_some() || args.net.is_some() || network.is_none() {
            return None;
        }
        match twenty48::endgame::shipped::shipped() {
            Ok(s) => {
                eprintln!("compiled-in endgame stores ({s})");
                Some(Arc::clone(s))
            }
            Err(e) => {
                eprintln!("warning: endgame store: {e}; playing without it");
                None
            }
        }
    });
    let (store_asked, store_hits, taken) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let key_log = args.endgame_log.as_ref().map(|path| {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
        Arc::new(Mutex::new(std::io::BufWriter::new(f)))
    });
    let mut reports = Vec::with_capacity(args.games);
    if let Some(path) = &args.out
        && let Ok(text) = std::fs::read_to_string(path)
    {
        reports.extend(text.lines().filter_map(parse_report));
        eprintln!("{}: {} games already played", path.display(), reports.len());
    }
    let mut out_file = args.out.as_ref().map(|path| {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()))
    });
    let (mut probes, mut hits, mut nodes) = (0u64, 0u64, 0u64);
    for i in 0..args.games as u64 {
        let seed = args.seed.wrapping_add(i);
        if reports.iter().any(|r| r.seed == seed) {
            continue;
        }
        let mut player = match (&network, args.weights) {
            (Some(n), _) => Player::with_network(cfg.clone(), Arc::clone(n)),
            (None, Some(w)) => Player::with_weights(cfg.clone(), w),
            (None, None) => Player::new(cfg.clone()),
        };
        if let Some(p) = args.policy {
            player.set_policy(p);
        }
        if let Some((life, at_least)) = args.table {
            player.set_table(life, at_least, ProbClasses::Same);
        }
        if let Some(c) = args.cutoff {
            player.set_cutoff(c);
        }
        let store_advice: Option<Advice> = store.as_ref().map(|s| {
            let (s, min) = (Arc::clone(s), args.endgame_min);
            let (asked, hits) = (Arc::clone(&store_asked), Arc::clone(&store_hits));
            let advice: Advice = Arc::new(move |b| {
                asked.fetch_add(1, Ordering::Relaxed);
                let (d, _) = s.advise(b, min)?;
                hits.fetch_add(1, Ordering::Relaxed);
                Some(d)
            });
            advice
        });
        player.set_advice(store_advice.clone());
        if let Some(a) = &advisor {
            let fallback = store_advice;
            let (a, min, taken) = (Arc::clone(a), args.endgame_min, Arc::clone(&taken));
            let log = key_log.clone();
            let searcher = args.endgame_log_differ.map(|depth| {
                let net = network.as_ref().expect(
                    "--endgame-log-differ needs the network (--eval network or --net FILE)",
                );
                Mutex::new(Player::with_network(
                    SearchConfig::depth(depth),
                    Arc::clone(net),
                ))
            });
            let (log_only, from) = (args.endgame_log_only, args.endgame_from);
            let table = move |b| {
                if twenty48::bitboard::max_exponent(b) < from {
                    return None;
                }
                let (d, v) = a.advise(b)?;
                if v < min {
                    return None;
                }
                taken.fetch_add(1, Ordering::Relaxed);
                let copies = searcher.as_ref().map_or(1, |s| {
                    let board = Board::from_bitboard(b);
                    match s.lock().expect("the searcher").best_move(&board, 0.1) {
                        Some(m) if m != d => {
                            let after = twenty48::bitboard::slide(b, m);
                            let lost = v - a.after_value(after).unwrap_or(0.0);
                            (lost.max(0.0) * 100.0).round() as usize
                        }
                        _ => 0,
                    }
                });
                if let (Some(log), Some((key, _))) = (&log, a.key_of(b)) {
                    let mut log = log.lock().expect("the key log");
                    for _ in 0..copies {
                        log.write_all(&key.to_le_bytes())
                            .expect("write the key log");
                    }
                }
                if log_only { None } else { Some(d) }
            };
            player.set_advice(Some(Arc::new(move |b| {
                table(b).or_else(|| fallback.as_ref().and_then(|f| f(b)))
            })));
        }
        let report = autoplay_player(&rules, seed, &mut player, args.max_moves);
        if let Some(log) = &key_log {
            log.lock()
                .expect("the key log")
                .flush()
                .expect("write the key log");
        }
        println!("{report}");
        if let Some(f) = &mut out_file {
            writeln!(f, "{report}").expect("write the --out file");
        }
        (probes, hits, nodes) = (
            probes + report.probes,
            hits + report.hits,
            nodes + report.nodes,
        );
        reports.push(report);
    }
    if store.is_some() {
        let (asked, hits) = (
            store_asked.load(Ordering::Relaxed),
            store_hits.load(Ordering::Relaxed),
        );
        println!(
            "endgame store: asked on {asked} boards, its move played on {hits} ({:.2}%)",
            100.0 * hits as f64 / asked.max(1) as f64
        );
    }
    if let Some(a) = &advisor {
        let load = |c: &AtomicU64| c.load(Ordering::Relaxed);
        println!(
            "endgame table: asked on {} boards, held {} ({:.2}%), {}",
            load(&a.asked),
            load(&a.hits),
            100.0 * load(&a.hits) as f64 / load(&a.asked).max(1) as f64,
            if args.endgame_log_only {
                format!("logged {} (it does not play)", load(&taken))
            } else {
                format!("its move played on {}", load(&taken))
            }
        );
    }
    reports.sort_by_key(|r| r.seed);
    println!("{}", summarize(&reports));
    if probes > 0 {
        println!(
            "table: {probes} probes, {hits} hits ({:.1}%), {nodes} chance nodes expanded (games played now)",
            100.0 * hits as f64 / probes as f64
        );
    }
    ExitCode::SUCCESS
}

/// A game's line as printed (`seed 7  score 123456  max 8192  moves 5000  0.450 ms/move`), read back.
fn parse_report(line: &str) -> Option<GameReport> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() != 10 || w[0] != "seed" || w[2] != "score" || w[4] != "max" || w[6] != "moves" {
        return None;
    }
    let moves: usize = w[7].parse().ok()?;
    let ms_per_move: f64 = w[8].parse().ok()?;
    Some(GameReport {
        seed: w[1].parse().ok()?,
        score: w[3].parse().ok()?,
        max_tile: w[5].parse().ok()?,
        moves,
        total_ms: ms_per_move * moves as f64,
        nodes: 0,
        probes: 0,
        hits: 0,
    })
}
