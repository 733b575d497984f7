//! `parlor 2048 train`: trains the 2048 n-tuple network by self-play, with a progress bar, checkpoints and a log;
//! and the `--eval` choice of `parlor 2048 auto`.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow};
use clap::Args;
use twenty48::ai::ntuple::{self, FEATURES, Network, Progress, TrainConfig, TrainingState};
use twenty48::ai::{EvalKind, Player, SearchConfig};

/// `parlor 2048 train`: temporal-difference learning over self-play games.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// The network file: resumed from when it exists, saved to every --every-minutes and at the end (written to a
    /// temporary file, then renamed). Play reads it when $PARLOR_2048_WEIGHTS names it.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: PathBuf,
    /// Stop once the network has been trained on this many games in all, earlier sittings included (1 to 10^12).
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    pub games: u64,
    /// Stop after this many minutes, 0.1 to 100000 (a checkpoint is saved first).
    #[arg(long, value_parser = |s: &str| in_range(s, 0.1, 100_000.0))]
    pub minutes: Option<f64>,
    /// Minutes between checkpoints (0.1 to 1440).
    #[arg(long, default_value_t = 5.0, value_parser = |s: &str| in_range(s, 0.1, 1440.0))]
    pub every_minutes: f64,
    /// Threads playing training games (they share the weights without locks; 1 makes a run reproducible).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Seed of the training games' spawns.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learning rate, 0.0001 to 1: a TD error e moves a value by alpha * e.
    #[arg(long, default_value_t = 0.1, value_parser = |s: &str| in_range(s, 0.0001, 1.0).map(|v| v as f32))]
    pub alpha: f32,
    /// Games per progress report and log line.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
    pub block: u64,
    /// Initial value of every after-state of a new network, -1000000 to 1000000 (a positive value is optimistic
    /// initialisation).
    #[arg(long, default_value_t = 0.0, value_parser = |s: &str| in_range(s, -1e6, 1e6).map(|v| v as f32))]
    pub init: f32,
    /// Temporal coherence learning: each weight learns at its own rate |E|/A (E the sum of its errors, A of their
    /// sizes), times --alpha (1.0 is the usual choice with it). The sums are saved beside the checkpoint
    /// (FILE.tc-errors, FILE.tc-sizes) and resumed with it.
    #[arg(long)]
    pub tc: bool,
    /// Share of games, 0 to 1, started from a pool of late-game positions that earlier games passed through (kept
    /// beside the checkpoint as FILE.starts and resumed with it): practice for the tiles greedy play rarely reaches.
    #[arg(long, default_value_t = 0.0, value_parser = |s: &str| in_range(s, 0.0, 1.0))]
    pub restart: f64,
    /// Positions enter the pool of late-game starts once they hold this tile (a power of two, 4 to 32768).
    #[arg(long, default_value_t = 8192, value_parser = tile)]
    pub restart_from: u64,
    /// Stages by the largest tile: a comma-separated list of tiles (powers of two, 4 to 32768, rising, at most 3) at
    /// which a new set of weights takes over, e.g. 16384 (the late game gets its own weights). A new network starts
    /// with them; a checkpoint in other stages is promoted (each new stage starts as a copy of the weights it takes
    /// over from, and with --tc at the full learning rate). Without it a checkpoint keeps its stages and a new network
    /// has one.
    #[arg(long, value_name = "TILES", value_parser = stage_tiles)]
    pub stages: Option<StageTiles>,
    /// Append the training curve here (tab-separated: games, mean score, best score, rates of 2048, 8192, 16384
    /// and 32768, moves per second; the figures are over the games played from an empty board).
    #[arg(long, value_name = "FILE")]
    pub log: Option<PathBuf>,
}

/// A number from `min` to `max` (the range is said in the error).
fn in_range(s: &str, min: f64, max: f64) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(format!("'{s}' is not a number from {min} to {max}")),
    }
}

/// The stage thresholds of `--stages`, as exponents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StageTiles(pub Vec<u8>);

/// `--stages`: tiles, comma-separated, rising.
fn stage_tiles(s: &str) -> Result<StageTiles, String> {
    let exps = s
        .split(',')
        .map(|t| tile(t.trim()).map(|t| t.trailing_zeros() as u8))
        .collect::<Result<Vec<u8>, String>>()?;
    ntuple::check_stages(&exps).map_err(|e| format!("'{s}': {e}"))?;
    Ok(StageTiles(exps))
}

/// A tile value: a power of two from 4 to 32768.
fn tile(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(t) if t.is_power_of_two() && (4..=32768).contains(&t) => Ok(t),
        _ => Err(format!(
            "'{s}' is not a tile from 4 to 32768 (a power of two)"
        )),
    }
}

/// Runs `parlor 2048 train`.
pub fn train(args: &TrainArgs, out: &mut dyn Write) -> Result<()> {
    if !(args.alpha > 0.0 && args.alpha.is_finite()) {
        return Err(anyhow!("--alpha must be a positive number"));
    }
    if !(args.every_minutes >= 0.0 && args.every_minutes.is_finite()) {
        return Err(anyhow!("--every-minutes must be a number of minutes"));
    }
    let net = if args.checkpoint.exists() {
        let net = ntuple::load(&args.checkpoint)?;
        writeln!(
            out,
            "Resuming {} at game {}.",
            args.checkpoint.display(),
            net.games()
        )?;
        match &args.stages {
            Some(StageTiles(from)) if from.as_slice() != net.stage_from() => {
                writeln!(
                    out,
                    "Promoting it to {} stages (from tiles {}).",
                    from.len() + 1,
                    tiles(from)
                )?;
                net.promoted(from).map_err(|e| anyhow!(e))?
            }
            _ => net,
        }
    } else {
        let from = args.stages.as_ref().map_or(&[][..], |s| &s.0[..]);
        Network::staged(args.init / FEATURES as f32, from).map_err(|e| anyhow!(e))?
    };
    let state = TrainingState::resume(Some(&args.checkpoint), &net, args.tc, args.restart > 0.0)?;
    if args.tc && !state.tc_resumed && net.games() > 0 {
        writeln!(
            out,
            "Temporal coherence starts afresh (no sums saved for game {}).",
            net.games()
        )?;
    }
    let save = |net: &Network| state.save(net, &args.checkpoint);
    let mut log = match &args.log {
        Some(path) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("{}", path.display()))?;
            if f.metadata()?.len() == 0 {
                writeln!(f, "{}", Progress::LOG_HEADER)?;
            }
            Some(f)
        }
        None => None,
    };
    let cfg = TrainConfig {
        games: args.games,
        threads: usize::from(args.threads),
        seed: args.seed,
        alpha: args.alpha,
        block: args.block,
        restart: args.restart,
        restart_tile: args.restart_from.trailing_zeros() as u8,
        ..TrainConfig::default()
    };
    let bar = indicatif::ProgressBar::new(args.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games · {elapsed_precise} · eta {eta} · {msg}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    bar.set_position(net.games().min(args.games));
    let every = Duration::from_secs_f64(args.every_minutes * 60.0);
    let (start, mut saved) = (Instant::now(), Instant::now());
    let mut failure: Option<anyhow::Error> = None;
    ntuple::train_with(
        &net,
        state.tc.as_ref(),
        state.starts.as_ref(),
        &cfg,
        |net, p| {
            bar.set_position(p.games);
            bar.set_message(format!(
                "mean {:.0}, 2048 {:.0}%, 16384 {:.1}%, 32768 {:.1}%{}",
                p.mean_score(),
                100.0 * p.rate(0),
                100.0 * p.rate(2),
                100.0 * p.rate(3),
                if p.restarts > 0 {
                    format!(" (and {} late-game starts)", p.restarts)
                } else {
                    String::new()
                }
            ));
            if let Some(f) = log.as_mut()
                && let Err(e) = writeln!(f, "{}", p.log_line())
            {
                failure = Some(e.into());
                return false;
            }
            let out_of_time = args
                .minutes
                .is_some_and(|m| start.elapsed().as_secs_f64() >= m * 60.0);
            if saved.elapsed() >= every && !out_of_time {
                saved = Instant::now();
                if let Err(e) = save(net) {
                    failure = Some(e.into());
                    return false;
                }
            }
            !out_of_time
        },
    );
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    save(&net)?;
    writeln!(
        out,
        "Trained on {} games; saved {}.",
        net.games(),
        args.checkpoint.display()
    )?;
    Ok(())
}

/// A player for `parlor 2048 auto` with the chosen evaluation; when the network cannot be loaded, the heuristic and a
/// warning on stderr (once per run).
pub fn player(cfg: &SearchConfig, eval: EvalKind) -> Player {
    static WARNED: std::sync::Once = std::sync::Once::new();
    let (player, error) = Player::with_eval(cfg.clone(), eval);
    if let Some(e) = error {
        WARNED.call_once(|| eprintln!("warning: {e}; playing with the heuristic evaluation"));
    }
    player
}

/// Exponents as tiles, comma-separated.
fn tiles(exps: &[u8]) -> String {
    exps.iter()
        .map(|e| (1u64 << e).to_string())
        .collect::<Vec<_>>()
        .join(",")
}
