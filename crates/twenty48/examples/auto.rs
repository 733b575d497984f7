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
//! `--tt buckets` searches with the compact bucket table, `--tt slots` with the slot table (the player's default table
//! without the flag), `--fours K` allows at most K 4-spawns on a search path, `--prob-classes off` keys table entries
//! by the board and depth only, not by the octave of their path probability too (`ai::ProbClasses`; `same`, also
//! `on`, is the default), `--budget-share S` sets the share of the time budget the search aims at
//! (`Player::set_budget_share`, from 0.1 to 1; 0.85 without the flag), `--stage-share E,EARLY,DRAIN` moves time from
//! the opening to the late game (`ai::StageShare`: EARLY of the budget before a largest tile of 2^E, the rest kept and
//! spent after it, DRAIN of what is kept a move; `off` for none), `--cutoff-shrink FROM,OCTAVES` halves the cut-off
//! OCTAVES times more at each iteration deeper than FROM (`ai::CutoffShrink`; `off`, the default, keeps it),
//! `--policy danger` chooses the depth from the
//! board (`ai::danger_depth`, from `--depth` as the base), `--corner-lock E` keeps the largest tile in its corner
//! once it is at least 2^E (`Player::set_corner_lock`; `off`, the default, has no such rule), `--late FILE` reads
//! the boards that hold 16384 or more with the late-stage network in FILE (`Player::set_late_network`; made by
//! `train --late-of`).
//! `--endgame DIR` asks the endgame table in DIR (built by `examples/endgame.rs`) first: on a board that matches its
//! formation and that it holds, the table's best move is played when its success probability is at least
//! `--endgame-min P` (default 0.0001), and the search runs otherwise. `--endgame-confirm D` searches D moves deep on
//! such a board instead, the table valuing the leaves it covers (`endgame::confirm`; needs the network);
//! `--endgame-store FILE[,FILE...]` plays distilled stores' moves outright, the first store that holds the board
//! (`endgame::distill`, `endgame::Stores`; with `--endgame` too, the stores are asked when the table does not hold the
//! board); `--eval network` without `--net`, `--endgame` or `--endgame-store` plays as the app does, the compiled-in
//! network with the compiled-in stores (`endgame::shipped`) unless `--no-store`;
//! `--endgame-log FILE` appends the formation key (8 bytes, little-endian) of every board the table held;
//! `--endgame-log-differ D` (needs the network) appends instead, on each board where a depth-D search without the
//! table plays another move than the table's, the key once for each hundredth of success probability that move loses
//! by the table (rounded; none below half a hundredth): `distill`, which keeps the keys met most often, then keeps the
//! positions where the search alone loses most, often and by much. `--endgame-log-only` lets the table log without
//! playing: the stores (or the search) play, and the keys logged are those of the boards the player's own games
//! bring to the table (to distill a store again from the games it plays itself). `--endgame-from E` asks the table
//! only on boards whose largest tile is at least 2^E (`off`, the default: on every board), and so is
//! `--endgame-late-store FILE`, a store asked before the others (the compiled-in ones when no `--endgame-store`).
//! `--endgame-fit FILE` plays, on every board that reads in its formation, the move of a tuple network fitted to a
//! table's values (`endgame::fit`, made by `examples/fit.rs`), the stores being asked on other boards; with
//! `--endgame-fit-margin M` a search (the player's own configuration) chooses the move instead unless the fit values
//! its own move more than M above the search's; with `--endgame DIR` too, the table does not play but judges the fit's
//! moves (what they lose by the table, printed at the end).
//! `--deeper-from E,D` searches D moves deep instead once the board's largest tile is at least 2^E (on the boards no
//! store holds; a fixed-depth measure of what more search in the late game is worth).
//! `--out FILE` appends each game's line to FILE and, when FILE already holds games, plays only the seeds it lacks
//! (a long run resumes game by game after an interruption; the summary covers every game in FILE).

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use twenty48::Rules;
use twenty48::ai::ntuple::Network;
use twenty48::ai::{
    CutoffShrink, EvalKind, GameReport, Player, Policy, ProbClasses, SearchConfig, StageShare,
    TableKind, TableLife, Weights, autoplay_player, ntuple, summarize,
};
use twenty48::endgame::Advisor;

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
    tt: Option<TableKind>,
    fours: Option<u32>,
    prob_classes: Option<ProbClasses>,
    budget_share: Option<f64>,
    stage_share: Option<Option<StageShare>>,
    cutoff_shrink: Option<Option<CutoffShrink>>,
    corner_lock: Option<Option<u8>>,
    out: Option<PathBuf>,
    endgame: Option<PathBuf>,
    endgame_min: f32,
    endgame_confirm: Option<u32>,
    endgame_log_differ: Option<u32>,
    endgame_log: Option<PathBuf>,
    endgame_store: Option<String>,
    endgame_fit: Option<PathBuf>,
    endgame_fit_margin: Option<f32>,
    endgame_log_only: bool,
    endgame_from: u8,
    endgame_late_store: Option<PathBuf>,
    deeper_from: Option<(u8, u32)>,
    no_store: bool,
    late: Option<PathBuf>,
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
    let mut tt = None;
    let mut fours = None;
    let mut prob_classes = None;
    let mut budget_share = None;
    let mut stage_share = None;
    let mut cutoff_shrink = None;
    let mut corner_lock = None;
    let mut out = None;
    let mut endgame = None;
    let mut endgame_min = twenty48::endgame::shipped::MIN_SUCCESS;
    let mut endgame_confirm = None;
    let mut endgame_log = None;
    let mut endgame_log_differ = None;
    let mut endgame_store = None;
    let mut endgame_fit = None;
    let mut endgame_fit_margin = None;
    let mut endgame_log_only = false;
    let mut endgame_from = 0;
    let mut endgame_late_store = None;
    let mut deeper_from = None;
    let mut no_store = false;
    let mut late = None;
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
                    "danger" => Policy::Danger,
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
            "--downgrade" => downgrade = Some(off_or_exponent(&flag, &value()?, 15)?),
            "--tt" => {
                tt = Some(match value()?.as_str() {
                    "slots" => TableKind::Slots,
                    "buckets" => TableKind::Buckets,
                    _ => return Err("--tt: slots or buckets".into()),
                })
            }
            "--fours" => fours = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--prob-classes" => prob_classes = Some(value()?.parse()?),
            "--budget-share" => budget_share = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--stage-share" => {
                stage_share = Some(match value()?.as_str() {
                    "off" => None,
                    v => Some(v.parse::<StageShare>()?),
                })
            }
            "--cutoff-shrink" => {
                cutoff_shrink = Some(match value()?.as_str() {
                    "off" => None,
                    v => Some(v.parse::<CutoffShrink>()?),
                })
            }
            "--corner-lock" => corner_lock = Some(off_or_exponent(&flag, &value()?, 17)?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--late" => late = Some(PathBuf::from(value()?)),
            "--endgame" => endgame = Some(PathBuf::from(value()?)),
            "--endgame-min" => endgame_min = value()?.parse().map_err(|e| bad(&e))?,
            "--endgame-confirm" => endgame_confirm = Some(value()?.parse().map_err(|e| bad(&e))?),
            "--endgame-log-differ" => {
                endgame_log_differ = Some(value()?.parse().map_err(|e| bad(&e))?)
            }
            "--endgame-log" => endgame_log = Some(PathBuf::from(value()?)),
            "--endgame-store" => endgame_store = Some(value()?),
            "--endgame-fit" => endgame_fit = Some(PathBuf::from(value()?)),
            "--endgame-fit-margin" => {
                endgame_fit_margin = Some(value()?.parse().map_err(|e| bad(&e))?)
            }
            "--no-store" => no_store = true,
            "--endgame-log-only" => endgame_log_only = true,
            "--endgame-from" => {
                endgame_from = off_or_exponent(&flag, &value()?, 15)?.unwrap_or(0);
            }
            "--endgame-late-store" => endgame_late_store = Some(PathBuf::from(value()?)),
            "--deeper-from" => {
                let v = value()?;
                let (e, d) = v.split_once(',').ok_or_else(|| bad(&"E,D"))?;
                let e = off_or_exponent(&flag, e, 15)?.unwrap_or(0);
                let d: u32 = d.parse().map_err(|e| bad(&e))?;
                if !(1..=12).contains(&d) {
                    return Err(format!("{flag}: a depth from 1 to 12"));
                }
                deeper_from = Some((e, d));
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
        tt,
        fours,
        prob_classes,
        budget_share,
        stage_share,
        cutoff_shrink,
        corner_lock,
        out,
        endgame,
        endgame_min,
        endgame_confirm,
        endgame_log,
        endgame_log_differ,
        endgame_store,
        endgame_fit,
        endgame_fit_margin,
        endgame_log_only,
        endgame_from,
        endgame_late_store,
        deeper_from,
        no_store,
        late,
    })
}

/// The file at `path` read and parsed, or a stop with the reason.
fn read_file<T, E: std::fmt::Display>(
    path: &std::path::Path,
    parse: impl FnOnce(&[u8]) -> Result<T, E>,
) -> T {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `off` (`None`) or a tile exponent from 1 to `max`, for `flag`.
fn off_or_exponent(flag: &str, value: &str, max: u8) -> Result<Option<u8>, String> {
    match value {
        "off" => Ok(None),
        v => match v.parse::<u8>() {
            Ok(e) if (1..=max).contains(&e) => Ok(Some(e)),
            _ => Err(format!("{flag}: off or an exponent from 1 to {max}")),
        },
    }
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            eprintln!(
                "usage: auto [--games N] [--seed S] [--ms-per-move T | --depth D] [--threads K] [--size N] [--weights w1,..,w8 | nneonneo] [--policy iterative | nneonneo | MIN,OFFSET] [--table root|move|game|move-exact|game-exact] [--cutoff C] [--max-moves M] [--eval heuristic|network] [--net FILE] [--downgrade off|E] [--tt slots|buckets] [--fours K] [--prob-classes off|same] [--budget-share S] [--stage-share off|E,EARLY,DRAIN] [--cutoff-shrink off|FROM,OCTAVES] [--corner-lock off|E] [--out FILE] [--endgame DIR] [--endgame-min P] [--endgame-confirm D] [--endgame-log FILE [--endgame-log-differ D] [--endgame-log-only]] [--endgame-from off|E] [--endgame-late-store FILE] [--deeper-from E,D] [--endgame-store FILE[,FILE...]] [--endgame-fit FILE [--endgame-fit-margin M]] [--no-store] [--late FILE]"
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
    let late_net: Option<Arc<Network>> = match &args.late {
        None => None,
        Some(path) => match ntuple::load(path) {
            Ok(n) => Some(Arc::new(n)),
            Err(e) => {
                eprintln!("error: --late: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
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
    let late_store = args.endgame_late_store.as_ref().map(|path| {
        let s = read_file(path, twenty48::endgame::distill::Store::from_bytes);
        eprintln!(
            "late endgame store {} ({}, {} positions), asked first from a largest tile of 2^{}",
            path.display(),
            s.formation(),
            s.len(),
            args.endgame_from
        );
        Arc::new(twenty48::endgame::Stores::new(vec![s]))
    });
    let fit = args.endgame_fit.as_ref().map(|path| {
        let f = read_file(path, twenty48::endgame::fit::Fit::from_bytes);
        eprintln!(
            "endgame fit {} ({}, {} tuples, {} weights)",
            path.display(),
            f.formation(),
            f.tuples().len(),
            f.len()
        );
        Arc::new(f)
    });
    let fit_moves = Arc::new(std::sync::atomic::AtomicU64::new(0));
    // With a table beside the fit: the success probability the fit's moves lose by the table (millionths), and the
    // moves that lose half a hundredth or more.
    let fit_lost = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let fit_errs = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let taken = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let store = args.endgame_store.as_ref().map(|paths| {
        let stores = paths
            .split(',')
            .map(|path| {
                let t = std::time::Instant::now();
                let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
                let s = twenty48::endgame::distill::Store::from_bytes(&bytes)
                    .unwrap_or_else(|e| panic!("{path}: {e}"));
                eprintln!(
                    "endgame store {path} ({}, {} positions, {} bytes) read in {:.1} ms",
                    s.formation(),
                    s.len(),
                    bytes.len(),
                    t.elapsed().as_secs_f64() * 1000.0
                );
                s
            })
            .collect();
        Arc::new(twenty48::endgame::Stores::new(stores))
    });
    // The shipped player: the compiled-in network with the compiled-in stores.
    let store = store.or_else(|| {
        if args.no_store || args.endgame.is_some() || args.net.is_some() || network.is_none() {
            return None;
        }
        let t = std::time::Instant::now();
        match twenty48::endgame::shipped::shipped() {
            Ok(s) => {
                eprintln!(
                    "compiled-in endgame stores ({s}) read in {:.1} ms",
                    t.elapsed().as_secs_f64() * 1000.0
                );
                Some(Arc::clone(s))
            }
            Err(e) => {
                eprintln!("warning: endgame store: {e}; playing without it");
                None
            }
        }
    });
    let (store_asked, store_hits) = (
        Arc::new(std::sync::atomic::AtomicU64::new(0)),
        Arc::new(std::sync::atomic::AtomicU64::new(0)),
    );
    // Hits where the confirming search chose another move than the table's best.
    let differed = Arc::new(std::sync::atomic::AtomicU64::new(0));
    let key_log = args.endgame_log.as_ref().map(|path| {
        let f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap_or_else(|e| panic!("cannot open {}: {e}", path.display()));
        Arc::new(std::sync::Mutex::new(std::io::BufWriter::new(f)))
    });
    let confirm_net = args.endgame_confirm.map(|_| {
        Arc::clone(
            network
                .as_ref()
                .expect("--endgame-confirm needs the network (--eval network or --net FILE)"),
        )
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
        if let Some(kind) = args.tt {
            player.set_table_kind(kind);
        }
        player.set_four_limit(args.fours);
        if let Some(classes) = args.prob_classes {
            player.set_prob_classes(classes);
        }
        if let Some(share) = args.budget_share
            && let Err(e) = player.set_budget_share(share)
        {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
        if let Some(stage) = args.stage_share {
            player.set_stage_share(stage);
        }
        if let Some(shrink) = args.cutoff_shrink {
            player.set_cutoff_shrink(shrink);
        }
        if let Some(from) = args.corner_lock {
            player.set_corner_lock(from);
        }
        player.set_late_network(late_net.clone());
        let store_advice: Option<twenty48::ai::Advice> = store.as_ref().map(|s| {
            let (s, min) = (Arc::clone(s), args.endgame_min);
            let (asked, hits) = (Arc::clone(&store_asked), Arc::clone(&store_hits));
            let (late, from) = (late_store.clone(), args.endgame_from);
            let advice: twenty48::ai::Advice = Arc::new(move |b| {
                asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let late = late
                    .as_ref()
                    .filter(|_| twenty48::bitboard::max_exponent(b) >= from)
                    .and_then(|l| l.advise(b, min));
                let (d, _) = late.or_else(|| s.advise(b, min))?;
                hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Some(d)
            });
            advice
        });
        let store_advice = match &fit {
            None => store_advice,
            Some(f) => {
                let (f, moves) = (Arc::clone(f), Arc::clone(&fit_moves));
                let judge = advisor.clone();
                let (fit_lost, fit_errs) = (Arc::clone(&fit_lost), Arc::clone(&fit_errs));
                let margin = args.endgame_fit_margin;
                let searcher = margin.map(|_| {
                    let player = match &network {
                        Some(n) => Player::with_network(args.cfg.clone(), Arc::clone(n)),
                        None => Player::new(args.cfg.clone()),
                    };
                    std::sync::Mutex::new(player)
                });
                let advice: twenty48::ai::Advice = Arc::new(move |b| {
                    let Some(values) = f.move_values(b) else {
                        return store_advice.as_ref().and_then(|s| s(b));
                    };
                    // Never empty: a board with no allowed move is not read.
                    let (d, v) = values
                        .iter()
                        .copied()
                        .reduce(|best, m| if m.1 > best.1 { m } else { best })?;
                    // With a margin the search decides, unless the fit values its own move more than the margin
                    // above the search's.
                    if let (Some(m), Some(s)) = (margin, &searcher) {
                        let board = twenty48::Board::from_bitboard(b);
                        let searched = s.lock().expect("the searcher").best_move(&board, 0.1)?;
                        match values.iter().find(|(x, _)| *x == searched) {
                            Some(&(_, sv)) if v - sv <= m => return Some(searched),
                            None => return Some(searched),
                            _ => {}
                        }
                    }
                    if let Some(a) = &judge
                        && let (Some((_, best)), Some(got)) =
                            (a.advise(b), a.after_value(twenty48::bitboard::slide(b, d)))
                    {
                        let lost = (best - got).max(0.0);
                        fit_lost.fetch_add(
                            (lost * 1e6).round() as u64,
                            std::sync::atomic::Ordering::Relaxed,
                        );
                        if lost >= 0.005 {
                            fit_errs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                    moves.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    Some(d)
                });
                Some(advice)
            }
        };
        // From a largest tile of 2^E, a search D moves deep (a second player) chooses the moves the stores do not.
        let store_advice = match args.deeper_from {
            None => store_advice,
            Some((from, depth)) => {
                let deep = std::sync::Mutex::new(match &network {
                    Some(n) => Player::with_network(SearchConfig::depth(depth), Arc::clone(n)),
                    None => Player::new(SearchConfig::depth(depth)),
                });
                let advice: twenty48::ai::Advice = Arc::new(move |b| {
                    store_advice.as_ref().and_then(|s| s(b)).or_else(|| {
                        if twenty48::bitboard::max_exponent(b) < from {
                            return None;
                        }
                        let board = twenty48::Board::from_bitboard(b);
                        deep.lock()
                            .expect("the deeper player")
                            .best_move(&board, 0.1)
                    })
                });
                Some(advice)
            }
        };
        player.set_advice(store_advice.clone());
        if let Some(a) = advisor.as_ref().filter(|_| fit.is_none()) {
            let fallback = store_advice;
            let (a, min, taken) = (Arc::clone(a), args.endgame_min, Arc::clone(&taken));
            let (log, net, depth, differed) = (
                key_log.clone(),
                confirm_net.clone(),
                args.endgame_confirm,
                Arc::clone(&differed),
            );
            let searcher = args.endgame_log_differ.map(|depth| {
                let net = network.as_ref().expect(
                    "--endgame-log-differ needs the network (--eval network or --net FILE)",
                );
                std::sync::Mutex::new(Player::with_network(
                    twenty48::ai::SearchConfig::depth(depth),
                    Arc::clone(net),
                ))
            });
            let log_only = args.endgame_log_only;
            let from = args.endgame_from;
            let table = move |b| {
                if twenty48::bitboard::max_exponent(b) < from {
                    return None;
                }
                let (d, v) = a.advise(b)?;
                if v < min {
                    return None;
                }
                taken.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let copies = searcher.as_ref().map_or(1, |s| {
                    let board = twenty48::Board::from_bitboard(b);
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
                if log_only {
                    return None;
                }
                let (Some(net), Some(depth)) = (&net, depth) else {
                    return Some(d);
                };
                let eval = ntuple::Downgraded {
                    net,
                    from: ntuple::DOWNGRADE_FROM,
                };
                let (c, _) = twenty48::endgame::confirm::confirm(&a, &eval, b, depth, 0.1)?;
                if c != d {
                    differed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                Some(c)
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
            store_asked.load(std::sync::atomic::Ordering::Relaxed),
            store_hits.load(std::sync::atomic::Ordering::Relaxed),
        );
        println!(
            "endgame store: asked on {asked} boards, its move played on {hits} ({:.2}%)",
            100.0 * hits as f64 / asked.max(1) as f64
        );
    }
    if fit.is_some() {
        let load = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
        println!(
            "endgame fit: its move played on {} boards{}",
            load(&fit_moves),
            if args.endgame_fit_margin.is_some() {
                " (over the search's)"
            } else {
                ""
            }
        );
        if advisor.is_some() {
            println!(
                "  by the table, they lose {:.5} a move on average; {} of them lose half a hundredth or more",
                load(&fit_lost) as f64 / 1e6 / load(&fit_moves).max(1) as f64,
                load(&fit_errs)
            );
        }
    }
    if let Some(a) = advisor.as_ref().filter(|_| fit.is_none()) {
        let load = |c: &std::sync::atomic::AtomicU64| c.load(std::sync::atomic::Ordering::Relaxed);
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
        if args.endgame_confirm.is_some() {
            println!(
                "confirming search: another move than the table's on {} of them",
                load(&differed)
            );
        }
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
