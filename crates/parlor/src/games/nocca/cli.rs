//! `parlor nocca ...`: the analysis commands (`perft`, `match`, `bench`); the play flags (`--mode`, `--level`,
//! `--colour`, `--first`, `--board`) come from the game's settings.

use crate::cli::JsonFlag;
use crate::cli::play::CliGame;
use crate::cli::values::Listed;
use crate::figures;
use crate::games::nocca::Nocca;
use anyhow::{Result, anyhow};
use clap::builder::ValueParser;
use clap::{Args, Subcommand};
use nocca::{Dims, Level, Position};
use std::io::Write;

/// Every board, `3x3` to `6x5`.
pub fn boards() -> Vec<String> {
    (3..=6)
        .flat_map(|r| (3..=5).map(move |c| format!("{r}x{c}")))
        .collect()
}

fn parse_level(s: &str) -> Result<Level, String> {
    s.parse::<Level>().map_err(|e| e.to_string())
}

fn parse_dims(s: &str) -> Result<Dims, String> {
    s.parse::<Dims>().map_err(|e| e.to_string())
}

/// Nocca Nocca analysis commands.
#[derive(Debug, Subcommand)]
pub enum NoccaAction {
    /// Count the move sequences of exactly DEPTH plies (a goal move ends a sequence); from the start: 21, 441,
    /// 9240, 193600, 4166360, 89656695. From depth 7 (about 9 s, each ply about 20 times more) the progress is
    /// shown and Ctrl-C stops the count.
    Perft {
        /// Plies.
        #[arg(value_parser = clap::value_parser!(u32).range(0..=20))]
        depth: u32,
        /// The position: rows from row 1 (Black's home) separated by '/', cells by ',', a cell '-' or its pieces
        /// bottom to top as b/w, then a space and the side to move
        /// (default: b,b,b,b,b/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/-,-,-,-,-/w,w,w,w,w b). It may start with '-'.
        #[arg(
            long,
            value_name = "POSITION",
            allow_hyphen_values = true,
            conflicts_with = "board"
        )]
        position: Option<String>,
        /// Start from the start position of this board instead: ROWSxCOLS, 3 to 6 rows and 3 to 5 columns.
        #[arg(long, value_name = "RxC", value_parser = parse_dims)]
        board: Option<Dims>,
        /// Also count per first move.
        #[arg(long)]
        divide: bool,
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Play the computer against itself, level A against level B, alternating colours (each level uses a fixed node
    /// budget, so the result depends only on the seed): A's score with its 95% confidence interval (Wilson's score interval
    /// over the games, a draw counting half a point).
    Match(MatchArgs),
    /// Search a fixed set of positions to a fixed depth: nodes, time, nodes per second and the node-count
    /// signature.
    Bench {
        /// Output format.
        #[command(flatten)]
        json: JsonFlag,
    },
    /// Solve a board (ROWSxCOLS) by retrograde analysis, or load its table: counts of won, lost and drawn
    /// positions, the start position's value, and with --position that position's value and every move's. The
    /// memory, disk and time a solve takes are stated before it starts, and a board this machine cannot hold is
    /// refused (on 24 GB: up to 4x5).
    Solve(crate::games::nocca::solve::SolveArgs),
}

/// `parlor nocca match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Level of player A: beginner, casual, strong, expert (or 1-4).
    #[arg(long, value_parser = parse_level)]
    pub a: Level,
    /// Level of player B.
    #[arg(long, value_parser = parse_level)]
    pub b: Level,
    /// Number of games (pairs share a random opening, A black then white).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Seed of the openings and the engines' random choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[command(flatten)]
    pub json: JsonFlag,
}

impl CliGame for Nocca {
    type Analysis = NoccaAction;
    const ABOUT: &'static str = "Play Nocca Nocca (continuing the game in progress of the same settings, if there \
        is one), or run its analysis commands.\n\nExamples: `parlor nocca --mode two`, `parlor nocca --level expert \
        --colour white`, `parlor nocca --mode watch --level strong`, `parlor nocca --board 4x4`, `parlor nocca \
        perft 4 --json`, `parlor nocca perft 1 --position \"-,-,-/-,b,-/w,-,- b\"`, `parlor nocca match --a \
        beginner --b casual --games 20 --seed 1`.";

    const FILES: &'static [(&'static str, &'static str)] = &[(
        "$PARLOR_DATA_DIR/tables/",
        "Nocca Nocca's solved boards, checksummed; deleting them only costs the time to solve them again.",
    )];

    fn values(cmd: &str, id: &str) -> Option<ValueParser> {
        Some(match id {
            "a" | "b" => {
                Listed::new(parse_level, ["beginner", "casual", "strong", "expert"]).into()
            }
            "board" if cmd == "perft" || cmd == "solve" => Listed::new(parse_dims, boards()).into(),
            _ => return None,
        })
    }

    fn analyse(action: &NoccaAction, env: &crate::cli::env::Env) -> Result<()> {
        if let NoccaAction::Solve(args) = action {
            // Solving writes its tables to the data directory and shows progress on a terminal.
            return crate::games::nocca::solve::run(args, env);
        }
        analyse(action, &mut std::io::stdout().lock())
    }
}

/// Runs an analysis command, writing its result to `out`.
pub fn analyse(action: &NoccaAction, out: &mut dyn Write) -> Result<()> {
    match action {
        NoccaAction::Perft {
            depth,
            position,
            board,
            divide,
            json,
        } => {
            let pos: Position = match position {
                Some(p) => p.parse().map_err(|e| anyhow!("bad position '{p}': {e}"))?,
                None => Position::start(board.unwrap_or(Dims::STANDARD)),
            };
            let (nodes, split) = perft_shown(&pos, *depth)?;
            let split = if *divide { split } else { Vec::new() };
            if json.json {
                let mut v = serde_json::json!({"depth": depth, "nodes": nodes});
                if *divide {
                    v["moves"] = split
                        .iter()
                        .map(|(m, n)| serde_json::json!({"move": m.to_string(), "nodes": n}))
                        .collect();
                }
                writeln!(out, "{v}")?;
            } else {
                for (m, n) in &split {
                    writeln!(out, "{m}: {n}")?;
                }
                writeln!(out, "perft {depth}: {nodes} nodes")?;
            }
            Ok(())
        }
        NoccaAction::Match(args) => run_match(args, out),
        NoccaAction::Solve(args) => {
            crate::games::nocca::solve::analyse(args, &crate::paths::data_dir(None)?, out)
        }
        NoccaAction::Bench { json } => {
            let r = nocca::bench();
            let ms = r.elapsed.as_secs_f64() * 1000.0;
            if json.json {
                let v = serde_json::json!({"nodes": r.nodes, "ms": (ms * 10.0).round() / 10.0,
                    "nps": r.nps.round(), "signature": r.signature});
                writeln!(out, "{v}")?;
            } else {
                writeln!(
                    out,
                    "{} nodes in {ms:.1} ms: {:.0} nodes/s (signature {})",
                    r.nodes, r.nps, r.signature
                )?;
            }
            Ok(())
        }
    }
}

fn run_match(args: &MatchArgs, out: &mut dyn Write) -> Result<()> {
    let bar = crate::cli::progress_bar(
        u64::from(args.games),
        "{bar:40} {pos}/{len} games · {elapsed_precise} · eta {eta}",
    );
    let r = nocca::play_match(args.a, args.b, args.games, args.seed, &mut |done, _| {
        bar.set_position(u64::from(done))
    });
    bar.finish_and_clear();
    let round3 = |x: f64| (x * 1000.0).round() / 1000.0;
    // The engine's Wilson interval: true for a handful of games and for a score of 0 or 1.
    let ci95 = r.ci95;
    if args.json.json {
        let v = serde_json::json!({
            "a": r.a.name(), "b": r.b.name(), "games": r.games, "seed": args.seed,
            "a_wins": r.a_wins, "b_wins": r.b_wins, "draws": r.draws,
            "score": round3(r.score_a), "ci95": [round3(ci95.0), round3(ci95.1)],
            "avg_plies": (r.avg_plies * 10.0).round() / 10.0,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "{} vs {}: {}, {}, {} in {}; score {:.3} (95% CI {:.3}-{:.3}); {:.1} plies per game",
            r.a,
            r.b,
            figures::count(r.a_wins, "win"),
            figures::count(r.b_wins, "loss"),
            figures::count(r.draws, "draw"),
            figures::count(r.games, "game"),
            r.score_a,
            ci95.0,
            ci95.1,
            r.avg_plies
        )?;
    }
    Ok(())
}

/// From this depth on, perft takes seconds (depth 7 of the standard board: about 9 s, and each ply about 20 times
/// more): it shows its progress, first move by first move, and Ctrl-C (SIGINT) or SIGTERM stops it.
pub const PERFT_PROGRESS_DEPTH: u32 = 7;

/// Counts perft of `pos` at `depth` with the count of each first move; at [`PERFT_PROGRESS_DEPTH`] and beyond, with
/// progress on standard error (a bar on a terminal, else a line per first move) and stoppable by SIGINT or
/// SIGTERM: then `Err` says how far it got.
fn perft_shown(pos: &Position, depth: u32) -> Result<(u64, Vec<(nocca::Move, u64)>)> {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let moves = pos.legal_moves();
    let stop = Arc::new(AtomicBool::new(false));
    let large = depth >= PERFT_PROGRESS_DEPTH;
    if large {
        for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
            signal_hook::flag::register(signal, Arc::clone(&stop))?;
        }
    }
    let terminal = large && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let bar = if terminal {
        let b = indicatif::ProgressBar::new(moves.len() as u64);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "perft {msg} {bar:30} {pos}/{len} first moves · {elapsed_precise}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(depth.to_string());
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let started = std::time::Instant::now();
    let mut split = Vec::with_capacity(moves.len());
    let mut last = (0usize, 0u64);
    let counted = nocca::perft_stoppable(pos, depth, &stop, &mut |p| {
        split.push((moves[p.done - 1], p.nodes - last.1));
        last = (p.done, p.nodes);
        bar.set_position(p.done as u64);
        if large && !terminal {
            eprintln!(
                "parlor: perft {depth}: {} of {} first moves, {} sequences so far, {:.1} s",
                p.done,
                p.total,
                p.nodes,
                started.elapsed().as_secs_f64()
            );
        }
    });
    bar.finish_and_clear();
    match counted {
        Some(nodes) => Ok((nodes, split)),
        None => Err(anyhow!(
            "perft {depth} stopped after {} of {} first moves ({} sequences counted so far, {:.1} s)",
            last.0,
            moves.len(),
            last.1,
            started.elapsed().as_secs_f64()
        )),
    }
}
