//! `parlor-lab starts`: what [`Args`] says.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Subcommand;
use twenty48::ai::ntuple::game_rng;
use twenty48::ai::{EvalKind, Player, SearchConfig};
use twenty48::{Game, Rules, Status};

use crate::common::config::Think;
use crate::common::starts_file::read_starts;

/// The spawns' four chance, as in the app's games.
const FOUR_CHANCE: f64 = 0.1;

/// Late-game starts: collected from the shipped player's games, and played on.
///
/// Late-game starts: how often the shipped player, timed or at a fixed depth, turns a board that already holds a
/// large tile into the next one. Games from an empty board spend most of their moves before the stage that decides
/// them; played from a saved board of that stage, two players meet the same boards and the same first spawns, and a
/// game costs a third of a whole one.
///
/// `cargo run --release -p parlor-lab -- starts collect --depth 2 --games 300 --seed 200001 --exponent 14
/// --out STARTS` plays games with the shipped player (the network and the compiled-in endgame stores) at a fixed
/// depth, so that the boards do not depend on the load, and writes the first board of each game whose largest tile
/// is at least 2^E, one a line: `seed S board B`.
///
/// `cargo run --release -p parlor-lab -- starts play STARTS (--depth D | --ms-per-move T) [--goal E]
/// [--cutoff C] [--seed K] [--out FILE]` plays each board until its largest tile is 2^E (`--goal`, 15 by default:
/// 32768) or no move is left, a fresh shipped player each, spawning from ChaCha8 on stream S of seed K (1 by
/// default), and prints one line a start, `seed S  max M  moves N  T ms/move  end B` (B the last board). With
/// `--out FILE` the lines are appended to FILE and the starts FILE already holds are skipped, so a long run resumes
/// start by start. The last line says how many reached the goal, with a 95% interval.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plays games at a fixed depth and writes the first board of each whose largest tile is at least 2^E.
    Collect {
        /// Search depth of the games.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: u32,
        /// Games played.
        #[arg(long, default_value_t = 100)]
        games: u64,
        /// Seed of the first game.
        #[arg(long, default_value_t = 200_001)]
        seed: u64,
        /// The largest tile's exponent a start holds, 2 to 17.
        #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u8).range(2..=17))]
        exponent: u8,
        /// The file of starts to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Plays each start of a file on with a fresh shipped player.
    Play {
        /// The file of starts (written by `collect`).
        starts: PathBuf,
        #[command(flatten)]
        think: Think,
        /// Play until the largest tile is 2^E, 2 to 17.
        #[arg(long, default_value_t = 15, value_parser = clap::value_parser!(u8).range(2..=17))]
        goal: u8,
        /// The probability cut-off, from 0 to below 1.
        #[arg(long, value_parser = cutoff)]
        cutoff: Option<f32>,
        /// Seed of the spawns (start S spawns from its stream S).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Append the lines to FILE, and skip the starts it holds.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// A cut-off from 0 to below 1.
fn cutoff(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(c) if (0.0..1.0).contains(&c) => Ok(c),
        _ => Err(format!("'{s}' is not a number from 0 to below 1")),
    }
}

/// The shipped player (the network and the compiled-in endgame stores) for `cfg`, or why the network could not be
/// loaded: a measure of the heuristic in its place would be a wrong figure.
fn shipped_player(cfg: &SearchConfig) -> Result<Player, String> {
    match Player::with_eval(cfg.clone(), EvalKind::Network) {
        (player, None) => Ok(player),
        (_, Some(e)) => Err(format!("the network: {e}")),
    }
}

fn collect(depth: u32, games: u64, seed: u64, exponent: u8, out: &PathBuf) -> Result<(), String> {
    let cfg = SearchConfig::depth(depth);
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
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    eprintln!(
        "{found} of {games} games reached 2^{exponent}; their first such boards written to {}",
        out.display()
    );
    Ok(())
}

fn play(
    path: &std::path::Path,
    cfg: &SearchConfig,
    goal: u8,
    cutoff: Option<f32>,
    seed: u64,
    out: Option<&PathBuf>,
) -> Result<(), String> {
    let starts = read_starts(path)?;
    let mut done = BTreeSet::new();
    let mut lines: Vec<String> = Vec::new();
    if let Some(out) = out
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
    let mut file = match out {
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
        let mut player = shipped_player(cfg)?;
        if let Some(c) = cutoff {
            player.set_cutoff(c);
        }
        let mut rng = game_rng(seed, s);
        let (mut board, mut moves, t0) = (start, 0u64, Instant::now());
        while board.max_exponent() < goal {
            let Some(d) = player.best_move(&board, FOUR_CHANCE) else {
                break;
            };
            board = board.slide(d).board;
            twenty48::spawn(&mut board, &mut rng, FOUR_CHANCE);
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

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    let result = match args.command {
        Command::Collect {
            depth,
            games,
            seed,
            exponent,
            out,
        } => collect(depth, games, seed, exponent, &out),
        Command::Play {
            starts,
            think,
            goal,
            cutoff,
            seed,
            out,
        } => play(&starts, &think.config(), goal, cutoff, seed, out.as_ref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
