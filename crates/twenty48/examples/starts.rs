//! Late-game starts: how often the shipped player, timed or at a fixed depth, turns a board that already holds a
//! large tile into the next one. Games from an empty board spend most of their moves before the stage that decides
//! them; played from a saved board of that stage, two players meet the same boards and the same first spawns, and a
//! game costs a third of a whole one.
//!
//! `cargo run --release -p twenty48 --example starts -- collect --depth 2 --games 300 --seed 200001 --exponent 14
//! --out STARTS` plays games with the shipped player (the network and the compiled-in endgame stores) at a fixed
//! depth, so that the boards do not depend on the load, and writes the first board of each game whose largest tile
//! is at least 2^E, one a line: `seed S board B`.
//!
//! `cargo run --release -p twenty48 --example starts -- play STARTS (--depth D | --ms-per-move T) [--goal E]
//! [--cutoff C] [--cutoff-shrink FROM,OCTAVES] [--fours K] [--budget-share S] [--stage-share E,EARLY,DRAIN]
//! [--late FILE] [--guard FROM,MARGIN] [--seed K] [--out FILE]` plays each
//! board until its largest tile is 2^E (`--goal`, 15 by default: 32768) or no move is left, a fresh shipped player
//! each, spawning from ChaCha8 on stream S of seed K (1 by default), and prints one line a start,
//! `seed S  max M  moves N  T ms/move  end B` (B the last board). `--cutoff`, `--cutoff-shrink`, `--fours` (at most K 4-spawns on a search
//! path), `--budget-share` and `--stage-share` set the player as `auto`'s flags of those names do; `--late FILE` reads the boards
//! of 16384 and more with the late-stage network FILE (`Player::set_late_network`, trained by `train --late-of`); `--guard FROM,MARGIN` keeps the large tiles' formation at the root
//! when that costs little (`Player::set_formation_guard`). With `--out FILE` the lines are appended to
//! FILE and the starts FILE already holds are skipped, so a long run resumes start by start. The last line says how
//! many reached the goal, with a 95% interval.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use twenty48::ai::ntuple::game_rng;
use twenty48::ai::{CutoffShrink, EvalKind, FormationGuard, Player, SearchConfig, StageShare};
use twenty48::{Game, Rules, Status};

#[path = "common/starts_file.rs"]
mod starts_file;
use starts_file::read_starts;
#[path = "common/config.rs"]
mod config;
use config::search_config;

/// The spawns' four chance, as in the app's games.
const FOUR_CHANCE: f64 = 0.1;

/// A tile's exponent from 2 to 17, the value of `flag`.
fn tile_exponent(flag: &str, value: &str) -> Result<u8, String> {
    value
        .parse()
        .ok()
        .filter(|e| (2..=17).contains(e))
        .ok_or(format!("{flag}: an exponent from 2 to 17, not {value:?}"))
}

/// The shipped player (the network and the compiled-in endgame stores) for `cfg`, or why the network could not be
/// loaded: a measure of the heuristic in its place would be a wrong figure.
fn shipped_player(cfg: &SearchConfig) -> Result<Player, String> {
    match Player::with_eval(cfg.clone(), EvalKind::Network) {
        (player, None) => Ok(player),
        (_, Some(e)) => Err(format!("the network: {e}")),
    }
}

fn collect(args: &[String]) -> Result<(), String> {
    let (mut cfg, mut games, mut seed, mut exponent, mut out) =
        (SearchConfig::depth(2), 100u64, 200_001u64, 14u8, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--depth" | "--ms-per-move" => cfg = search_config(flag, value()?)?,
            "--games" => games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--exponent" => exponent = tile_exponent(flag, value()?)?,
            "--out" => out = Some(PathBuf::from(value()?)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let out = out.ok_or("collect needs --out FILE")?;
    let rules = Rules::new(4, FOUR_CHANCE, 2048).map_err(|e| e.to_string())?;
    let mut text = String::new();
    let mut found = 0;
    for s in seed..seed + games {
        let mut player = shipped_player(&cfg)?;
        let mut game = Game::new(rules, s);
        while game.status() != Status::Over && game.board().max_exponent() < exponent {
            game.keep_going();
            let Some(d) = player.best_move(game.board(), FOUR_CHANCE) else {
                break;
            };
            game.slide(d).map_err(|e| e.to_string())?;
        }
        if game.board().max_exponent() >= exponent {
            text.push_str(&format!("seed {s} board {}\n", game.board()));
            found += 1;
        }
    }
    std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "{found} of {games} games reached 2^{exponent}; their first such boards written to {}",
        out.display()
    );
    Ok(())
}

fn play(args: &[String]) -> Result<(), String> {
    let (mut cfg, mut goal, mut seed, mut out) = (None, 15u8, 1u64, None);
    let (mut cutoff, mut budget_share, mut stage_share, mut fours) = (None, None, None, None);
    let (mut shrink, mut late, mut guard) = (None, None, None);
    let mut it = args.iter();
    let path = it.next().ok_or("play needs a file of starts")?;
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--depth" | "--ms-per-move" => cfg = Some(search_config(flag, value()?)?),
            "--goal" => goal = tile_exponent(flag, value()?)?,
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--cutoff" => {
                cutoff = Some(
                    value()?
                        .parse::<f32>()
                        .ok()
                        .filter(|c| (0.0..1.0).contains(c))
                        .ok_or("--cutoff: from 0 to below 1")?,
                )
            }
            "--budget-share" => {
                budget_share = Some(
                    value()?
                        .parse::<f64>()
                        .map_err(|e| format!("--budget-share: {e}"))?,
                )
            }
            "--stage-share" => stage_share = Some(value()?.parse::<StageShare>()?),
            "--cutoff-shrink" => shrink = Some(value()?.parse::<CutoffShrink>()?),
            "--guard" => guard = Some(value()?.parse::<FormationGuard>()?),
            "--fours" => {
                fours = Some(
                    value()?
                        .parse::<u32>()
                        .map_err(|e| format!("--fours: {e}"))?,
                )
            }
            "--late" => {
                let p = value()?;
                let net = twenty48::ai::ntuple::load(std::path::Path::new(p))
                    .map_err(|e| format!("--late: {e}"))?;
                late = Some(std::sync::Arc::new(net));
            }
            "--out" => out = Some(PathBuf::from(value()?)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let cfg = cfg.ok_or("play needs --depth D or --ms-per-move T")?;
    let starts = read_starts(path)?;
    let mut done = BTreeSet::new();
    let mut lines: Vec<String> = Vec::new();
    if let Some(out) = &out
        && let Ok(text) = std::fs::read_to_string(out)
    {
        for line in text.lines() {
            if let Some(s) = line
                .strip_prefix("seed ")
                .and_then(|l| l.split_whitespace().next())
            {
                done.insert(
                    s.parse::<u64>()
                        .map_err(|e| format!("{}: {e}", out.display()))?,
                );
                lines.push(line.to_string());
            }
        }
        eprintln!("{}: {} starts already played", out.display(), done.len());
    }
    let mut file = match &out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| format!("{}: {e}", p.display()))?,
        ),
        None => None,
    };
    for (s, start) in starts.into_iter().filter(|(s, _)| !done.contains(s)) {
        let mut player = shipped_player(&cfg)?;
        if let Some(c) = cutoff {
            player.set_cutoff(c);
        }
        if let Some(b) = budget_share {
            player.set_budget_share(b)?;
        }
        player.set_stage_share(stage_share);
        player.set_cutoff_shrink(shrink);
        player.set_four_limit(fours);
        player.set_late_network(late.clone());
        player.set_formation_guard(guard);
        let mut rng = game_rng(seed, s);
        let (mut board, mut moves, t0) = (start, 0u64, Instant::now());
        while board.max_exponent() < goal {
            let Some(d) = player.best_move(&board, FOUR_CHANCE) else {
                break;
            };
            board = board.slide(d).board;
            twenty48::spawn::spawn(&mut board, &mut rng, FOUR_CHANCE);
            moves += 1;
        }
        let ms = t0.elapsed().as_secs_f64() * 1000.0 / moves.max(1) as f64;
        let line = format!(
            "seed {s}  max {}  moves {moves}  {ms:.3} ms/move  end {board}",
            board.max_tile()
        );
        println!("{line}");
        if let Some(f) = &mut file {
            writeln!(f, "{line}").map_err(|e| e.to_string())?;
        }
        lines.push(line);
    }
    let n = lines.len();
    let won = lines
        .iter()
        .filter(|l| {
            l.split_whitespace()
                .nth(3)
                .and_then(|m| m.parse::<u64>().ok())
                .is_some_and(|m| m >= 1 << goal)
        })
        .count();
    let (lo, hi) = wilson(won, n);
    println!(
        "{won} of {n} starts reached {} ({:.1}%, 95% {:.1}-{:.1})",
        1u64 << goal,
        100.0 * won as f64 / n.max(1) as f64,
        100.0 * lo,
        100.0 * hi
    );
    Ok(())
}

/// The 95% Wilson interval of `k` successes in `n`.
fn wilson(k: usize, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let den = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / den;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / den;
    (centre - half, centre + half)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("collect") => collect(&args[1..]),
        Some("play") => play(&args[1..]),
        _ => Err("usage: starts collect [--depth D | --ms-per-move T] [--games N] [--seed S] [--exponent E] --out FILE | starts play FILE (--depth D | --ms-per-move T) [--goal E] [--cutoff C] [--cutoff-shrink FROM,OCTAVES] [--fours K] [--budget-share S] [--stage-share E,EARLY,DRAIN] [--late FILE] [--seed K] [--out FILE]".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
