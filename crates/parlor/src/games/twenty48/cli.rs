//! `parlor 2048 ...`: the analysis commands (`slide`, `auto`); the play flags come from the game's settings.

use crate::cli::JsonFlag;
use crate::cli::play::CliGame;
use crate::cli::values::Listed;
use crate::games::twenty48::Twenty48;
use anyhow::{Result, anyhow};
use clap::builder::ValueParser;
use clap::{Args, Subcommand};
use std::io::Write;
use twenty48::{Board, Direction};

fn parse_ms(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(ms) if (0.01..=60_000.0).contains(&ms) => Ok(ms),
        _ => Err(format!(
            "'{s}' is not a number of milliseconds from 0.01 to 60000"
        )),
    }
}

fn parse_probability(s: &str) -> Result<f64, String> {
    let p: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(format!("{p} is not between 0 and 1"))
    }
}

/// 2048 analysis commands.
#[derive(Debug, Subcommand)]
pub enum Twenty48Action {
    /// Slide a board one way, without spawning a tile: prints the new board, the points gained and whether it moved.
    Slide {
        /// The board: rows top to bottom separated by '/', cells by ',' or spaces, 0 or '.' for empty
        /// (e.g. 2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2).
        board: String,
        /// up, down, left or right.
        direction: String,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
    /// The computer plays whole games from seeds S, S+1, ...: a line per game and a summary (tiles reached, scores,
    /// speed).
    Auto(AutoArgs),
    /// Train the n-tuple network that evaluates positions for the computer player, by self-play.
    Train(crate::games::twenty48::train::TrainArgs),
}

/// `parlor 2048 auto`: the computer plays whole games.
#[derive(Debug, Args)]
pub struct AutoArgs {
    /// How many games (1 to 1000000).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub games: u64,
    /// Seed of the first game; the others use the following seeds (0 to 2^64-1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Thinking time per move in milliseconds, 0.01 to 60000 (iterative deepening). Default: 20, unless --depth is
    /// given.
    #[arg(long, value_parser = parse_ms)]
    pub ms_per_move: Option<f64>,
    /// Fixed search depth, 1 to 12 (with --ms-per-move: the deepest iteration allowed). One thread and a fixed
    /// depth make the games reproducible.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: Option<u32>,
    /// Search threads (1 to 64).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Board size, from 3 to 8.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(3..=8))]
    pub size: u8,
    /// Probability that a new tile is a 4 (0 to 1).
    #[arg(long, default_value_t = 0.1, value_parser = parse_probability)]
    pub four_chance: f64,
    /// Evaluation of positions on 4x4 boards: network (the learned network that ships with Parlor) or heuristic (the
    /// hand-made evaluation; other sizes always use it).
    #[arg(long, default_value = "network")]
    pub eval: twenty48::ai::EvalKind,
    /// Output format.
    #[command(flatten)]
    pub json: JsonFlag,
}

/// Plays the games of `parlor 2048 auto`, printing a line per game and a summary.
fn auto(args: &AutoArgs, out: &mut dyn Write) -> Result<()> {
    use twenty48::ai::{SearchConfig, summarize};
    let rules = twenty48::Rules::new(usize::from(args.size), args.four_chance, 2048)
        .map_err(|e| anyhow!("{e}"))?;
    if let Some(ms) = args.ms_per_move
        && !(ms > 0.0 && ms.is_finite())
    {
        return Err(anyhow!(
            "--ms-per-move must be a positive number of milliseconds"
        ));
    }
    let cfg = SearchConfig {
        depth: args.depth,
        ms_per_move: args.ms_per_move.or(if args.depth.is_some() {
            None
        } else {
            Some(20.0)
        }),
        threads: usize::from(args.threads),
    };
    let bar = indicatif::ProgressBar::new(args.games);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games · {elapsed_precise} · eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut reports = Vec::new();
    for i in 0..args.games {
        let mut player = crate::games::twenty48::train::player(&cfg, args.eval);
        let r = twenty48::ai::autoplay_player(&rules, args.seed.wrapping_add(i), &mut player, None);
        if !args.json.json {
            bar.suspend(|| {
                writeln!(
                    out,
                    "seed {:<6} score {:>7}  max tile {:>6}  moves {:>6}  {:.3} ms/move",
                    r.seed,
                    r.score,
                    r.max_tile,
                    r.moves,
                    r.ms_per_move()
                )
            })?;
        }
        reports.push(r);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let s = summarize(&reports);
    if args.json.json {
        let games: Vec<_> = reports
            .iter()
            .map(|r| {
                serde_json::json!({"seed": r.seed, "score": r.score, "max_tile": r.max_tile, "moves": r.moves,
                    "ms_per_move": r.ms_per_move()})
            })
            .collect();
        let reached: serde_json::Map<_, _> = s
            .reached
            .iter()
            .map(|(t, share)| (t.to_string(), serde_json::json!(share)))
            .collect();
        let v = serde_json::json!({
            "games": games,
            "summary": {"games": s.games, "reached": reached, "mean": s.mean_score, "median": s.median_score,
                "min": s.min_score, "max": s.max_score, "moves": s.moves, "moves_per_second": s.moves_per_sec,
                "ms_per_move": s.ms_per_move},
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(out, "{s}")?;
    }
    Ok(())
}

impl CliGame for Twenty48 {
    type Analysis = Twenty48Action;
    const ABOUT: &'static str = "Play 2048 (continuing the game in progress of the same settings, if there is \
        one), or run its analysis commands.\n\nExamples: `parlor 2048 --size 5`, `parlor 2048 --four-chance 0.5`, \
        `parlor 2048 slide 2,2,0,0/0,0,0,0/0,0,0,0/0,0,0,0 left --json`, `parlor 2048 auto --games 10 --depth 2`.";

    const FILES: &'static [(&'static str, &'static str)] = &[(
        "twenty48-ntuple.p48",
        "A 2048 network to play with instead of the one compiled in: the file $PARLOR_2048_WEIGHTS names, else this \
         file beside the parlor binary.",
    )];
    const ENVIRONMENT: &'static [(&'static str, &'static str)] = &[(
        twenty48::ai::ntuple::WEIGHTS_ENV,
        "The 2048 network's file.",
    )];

    fn values(_cmd: &str, id: &str) -> Option<ValueParser> {
        Some(match id {
            "direction" => {
                Listed::new(|s: &str| Ok(s.to_string()), ["up", "down", "left", "right"]).into()
            }
            "eval" => Listed::new(
                |s: &str| {
                    s.parse::<twenty48::ai::EvalKind>()
                        .map_err(|e| e.to_string())
                },
                ["network", "heuristic"],
            )
            .into(),
            _ => return None,
        })
    }

    fn analyse(action: &Twenty48Action, _env: &crate::cli::env::Env) -> Result<()> {
        run(action, &mut std::io::stdout().lock())
    }
}

/// Runs an analysis command.
pub fn run(action: &Twenty48Action, out: &mut dyn Write) -> Result<()> {
    match action {
        Twenty48Action::Auto(args) => auto(args, out),
        Twenty48Action::Train(args) => crate::games::twenty48::train::train(args, out),
        Twenty48Action::Slide {
            board,
            direction,
            json,
        } => {
            let b: Board = board
                .parse()
                .map_err(|e| anyhow!("bad board '{board}': {e}"))?;
            let d: Direction = direction
                .parse()
                .map_err(|e| anyhow!("bad direction '{direction}': {e}"))?;
            // The engine decides what cannot be held (a 2^64 tile, 2^64 points): such a slide is refused.
            let s = b.try_slide(d).map_err(|e| anyhow!("sliding {d}: {e}"))?;
            if json.json {
                let v = serde_json::json!({"board": s.board.to_string(), "gained": s.gained, "moved": s.moved});
                writeln!(out, "{v}")?;
            } else {
                let moved = if s.moved { "moved" } else { "nothing moved" };
                writeln!(out, "{} (gained {}, {moved})", s.board, s.gained)?;
            }
            Ok(())
        }
    }
}
