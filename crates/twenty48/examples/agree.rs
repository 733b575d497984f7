//! Searches the same positions with several players and says how often their moves agree: a measure of a change to
//! the search that, at a fixed depth, does not depend on the machine's load, and needs hundreds of positions rather
//! than hundreds of games.
//!
//! `cargo run --release -p twenty48 --example agree -- record --seed 5003 --depth 3 --out POSITIONS` plays a game
//! with the shipped player (the network, and the endgame stores on the boards they hold) and writes each position it
//! met, one a line (`--ms-per-move T` instead of `--depth D` plays a timed game, which the load can change). Every
//! player below asks the stores too, so the boards they hold get the same move from all of them.
//!
//! `cargo run --release -p twenty48 --example agree -- search POSITIONS [--from A] [--to B] (--depth D |
//! --ms-per-move T) [--cutoff C] [--cutoff-shrink FROM,OCTAVES] [--prob-classes off|same] [--fresh] [--budget-share S]
//! [--moves FILE] [--against FILE...]` searches positions A..B in order with one player, whose table lives across them as in a
//! game (`--fresh`: emptied before each root move, so that no value comes from another root move or position: the
//! reference), and prints the chance nodes, table probes and hits, the mean depth reached and the time a position.
//! `--moves FILE` writes the moves chosen (one letter a position); `--against FILE` counts the positions where the
//! moves differ from those in FILE (written by an earlier run over the same positions).

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::process::ExitCode;

use twenty48::ai::{CutoffShrink, EvalKind, Player, ProbClasses, SearchConfig, TableLife};
use twenty48::{Board, Direction, Game, Rules, Status};

#[path = "common/config.rs"]
mod config;
use config::search_config;

/// One letter a move (the first of its name, in capitals), `-` where there was none.
fn letter(d: Option<Direction>) -> char {
    d.map_or('-', |d| {
        char::from(d.name().as_bytes()[0].to_ascii_uppercase())
    })
}

fn record(args: &[String]) -> Result<(), String> {
    let (mut seed, mut cfg, mut out) = (5003u64, SearchConfig::depth(3), None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--seed" => seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--depth" | "--ms-per-move" => cfg = search_config(flag, value()?)?,
            "--out" => out = Some(PathBuf::from(value()?)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let out = out.ok_or("record needs --out FILE")?;
    let (mut player, _) = Player::with_eval(cfg, EvalKind::Network);
    let mut game = Game::new(Rules::new(4, 0.1, 2048).map_err(|e| e.to_string())?, seed);
    let mut text = String::new();
    while game.status() != Status::Over {
        game.keep_going();
        let board = *game.board();
        let Some(d) = player.best_move(&board, 0.1) else {
            break;
        };
        text.push_str(&format!("{board}\n"));
        game.slide(d).map_err(|e| e.to_string())?;
    }
    std::fs::write(&out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "seed {seed}: {} positions, score {}, max {}, written to {}",
        game.moves_made(),
        game.score(),
        game.board().max_tile(),
        out.display()
    );
    Ok(())
}

fn search(args: &[String]) -> Result<(), String> {
    let path = args.first().ok_or("search needs a positions file")?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let boards: Vec<Board> = text
        .lines()
        .enumerate()
        .map(|(i, l)| l.parse().map_err(|e| format!("{path}:{}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    let (mut from, mut to, mut cfg, mut cutoff) = (0usize, boards.len(), None, None);
    let (mut classes, mut fresh, mut moves_out, mut against) = (None, false, None, Vec::new());
    let (mut share, mut shrink) = (None, None);
    let mut it = args[1..].iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--from" => from = value()?.parse().map_err(|e| format!("--from: {e}"))?,
            "--to" => to = value()?.parse().map_err(|e| format!("--to: {e}"))?,
            "--depth" | "--ms-per-move" => cfg = Some(search_config(flag, value()?)?),
            "--cutoff" => {
                cutoff = Some(
                    value()?
                        .parse::<f32>()
                        .map_err(|e| format!("--cutoff: {e}"))?,
                )
            }
            "--cutoff-shrink" => shrink = Some(value()?.parse::<CutoffShrink>()?),
            "--prob-classes" => classes = Some(value()?.parse::<ProbClasses>()?),
            "--fresh" => fresh = true,
            "--budget-share" => {
                share = Some(
                    value()?
                        .parse::<f64>()
                        .map_err(|e| format!("--budget-share: {e}"))?,
                )
            }
            "--moves" => moves_out = Some(PathBuf::from(value()?)),
            "--against" => against.push(PathBuf::from(value()?)),
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    let to = to.min(boards.len());
    if from >= to {
        return Err(format!("no positions in {from}..{to}"));
    }
    let cfg = cfg.ok_or("search needs --depth D or --ms-per-move T")?;
    let (mut player, _) = Player::with_eval(cfg, EvalKind::Network);
    if let Some(c) = cutoff {
        player.set_cutoff(c);
    }
    player.set_cutoff_shrink(shrink);
    if let Some(c) = classes {
        player.set_prob_classes(c);
    }
    if fresh {
        player.set_table(TableLife::RootMove, false);
    }
    if let Some(share) = share {
        player.set_budget_share(share)?;
    }
    let (mut nodes, mut probes, mut hits, mut depths) = (0u64, 0u64, 0u64, 0u64);
    let mut moves = String::new();
    let t = std::time::Instant::now();
    for b in &boards[from..to] {
        moves.push(letter(player.best_move(b, 0.1)));
        let st = player.last_stats();
        (nodes, probes, hits, depths) = (
            nodes + st.nodes,
            probes + st.probes,
            hits + st.hits,
            depths + u64::from(st.depth),
        );
    }
    let n = (to - from) as f64;
    println!(
        "positions {from}..{to}: {nodes} chance nodes, {probes} probes, {hits} hits ({:.1}%), mean depth {:.3}, {:.3} ms a position",
        100.0 * hits as f64 / probes.max(1) as f64,
        depths as f64 / n,
        t.elapsed().as_secs_f64() * 1000.0 / n
    );
    if let Some(out) = moves_out {
        std::fs::write(&out, &moves).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for other in against {
        let theirs =
            std::fs::read_to_string(&other).map_err(|e| format!("{}: {e}", other.display()))?;
        if theirs.chars().count() != moves.chars().count() {
            return Err(format!(
                "{} holds {} moves, not {}",
                other.display(),
                theirs.chars().count(),
                moves.chars().count()
            ));
        }
        let differ = moves
            .chars()
            .zip(theirs.chars())
            .filter(|(a, b)| a != b)
            .count();
        println!(
            "against {}: {differ} of {} moves differ ({:.1}%)",
            other.display(),
            to - from,
            100.0 * differ as f64 / n
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let outcome = match args.first().map(String::as_str) {
        Some("record") => record(&args[1..]),
        Some("search") => search(&args[1..]),
        _ => Err("usage: agree record [--seed S] [--depth D | --ms-per-move T] --out FILE | agree search POSITIONS [--from A] [--to B] (--depth D | --ms-per-move T) [--cutoff C] [--cutoff-shrink FROM,OCTAVES] [--prob-classes off|same] [--fresh] [--budget-share S] [--moves FILE] [--against FILE...]".into()),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
