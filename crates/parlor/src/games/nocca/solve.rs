//! `parlor nocca solve RxC [--position P] [--json]`: solve a board (or load its table) and print its counts, the
//! start position's value, and a position's value with every move's.

use crate::cli::JsonFlag;
use anyhow::{Context, Result, anyhow};
use clap::Args;
use nocca::{Dims, Origin, Position, Stage, Table, Value};
use std::io::Write;
use std::path::Path;
use std::time::Instant;

/// `parlor nocca solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board, ROWSxCOLS (rows 3-6, columns 3-5), e.g. 4x4. Boards up to 4x4 take seconds; 4x5 about 12
    /// minutes of CPU (about 6 on 2 idle cores), 2.1 GB of memory and 4.2 GB of disk while solving. The estimate
    /// is stated before a solve starts, and a solve this machine cannot hold (more than half its memory, more than
    /// is available or more disk than is free: 5x5 needs about 15 GB of memory, 6x5 about 75 GB) is refused.
    #[arg(value_parser = parse_dims)]
    pub board: Dims,
    /// A position of that board to evaluate (as for `perft --position`; it may start with '-'), e.g.
    /// "b,b,b/-,-,-/w,w,w b".
    #[arg(long, value_name = "POSITION", allow_hyphen_values = true)]
    pub position: Option<String>,
    /// Output format.
    #[command(flatten)]
    pub json: JsonFlag,
}

fn parse_dims(s: &str) -> Result<Dims, String> {
    s.parse::<Dims>().map_err(|e| e.to_string())
}

/// Peak resident memory of this process in bytes (Linux), if known.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `parlor nocca solve` with the data directory of `env`.
pub fn run(args: &SolveArgs, env: &crate::cli::env::Env) -> Result<()> {
    let dir = crate::paths::data_dir(env.global.data_dir.as_deref())?;
    analyse(args, &dir, &mut std::io::stdout().lock())
}

/// Runs `parlor nocca solve`, tables in `data_dir`, writing the result to `out`.
pub fn analyse(args: &SolveArgs, data_dir: &Path, out: &mut dyn Write) -> Result<()> {
    let dims = args.board;
    let position: Option<Position> = match &args.position {
        Some(p) => {
            let pos: Position = p.parse().map_err(|e| anyhow!("bad position '{p}': {e}"))?;
            if pos.dims() != dims {
                return Err(anyhow!(
                    "the position is on a {} board, not {dims}",
                    pos.dims()
                ));
            }
            for colour in nocca::Colour::ALL {
                if pos.piece_count(colour) != dims.cols() {
                    return Err(anyhow!(
                        "the position has {} {colour} pieces: a game in progress on {dims} has {} a side",
                        pos.piece_count(colour),
                        dims.cols()
                    ));
                }
            }
            Some(pos)
        }
        None => None,
    };
    let dir = super::tables::table_dir(data_dir);
    // A table of the right length is loaded (a damaged one is solved again, and said); anything else is solved:
    // its cost is stated first, and a solve this machine cannot hold is refused before anything is allocated.
    let kept = std::fs::metadata(Table::path_in(&dir, dims))
        .is_ok_and(|m| m.is_file() && m.len() == Table::file_len(dims));
    let cost = crate::games::nocca::solve_estimate::estimate(dims);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if kept {
        eprintln!(
            "parlor: loading the {dims} table ({})",
            crate::games::nocca::solve_estimate::bytes(cost.table)
        );
    } else {
        eprintln!("parlor: {}", cost.describe(cores));
        if let Err(why) = crate::games::nocca::solve_estimate::machine_fits(dims, &dir) {
            return Err(anyhow!(
                "{dims} is not solved here: {why} (see crates/nocca/BENCHMARKS.md for what larger boards take)"
            ));
        }
    }
    let bar = crate::cli::progress_bar(1, "{msg:18} {bar:40} {percent:>3}% · {elapsed_precise}");
    let started = Instant::now();
    // Away from a terminal (no bar), progress is one line on standard error per stage.
    let lines = bar.is_hidden();
    let mut last_stage = String::new();
    let (table, origin) = Table::load_or_solve(&dir, dims, &mut |p| {
        let stage = match p.stage {
            Stage::Resume => "resuming".to_string(),
            Stage::Init => "counting moves".to_string(),
            Stage::Round(d) => format!("ply {d}"),
            Stage::Checkpoint => "checkpoint".to_string(),
        };
        if lines && stage != last_stage {
            eprintln!(
                "parlor: {dims} {stage} ({} so far)",
                crate::games::nocca::solve_estimate::duration(started.elapsed().as_secs_f64())
            );
            last_stage = stage.clone();
        }
        bar.set_length(p.total);
        bar.set_position(p.done);
        bar.set_message(format!("{dims} {stage}"));
    })
    .with_context(|| format!("solving {dims}"))?;
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if let Origin::Solved { rejected: Some(e) } = &origin {
        let _ = writeln!(
            std::io::stderr(),
            "parlor: note: {e}; solved the board again"
        );
    }
    let c = table.counts();
    let start = table
        .value(&Position::start(dims))
        .map_err(|e| anyhow!("{e}"))?;
    let memory = peak_memory();
    let source = match origin {
        Origin::Loaded => "loaded",
        Origin::Solved { .. } => "solved",
    };
    let report = match &position {
        Some(pos) => {
            let v = table.value(pos).map_err(|e| anyhow!("{e}"))?;
            let moves = table.move_values(pos).map_err(|e| anyhow!("{e}"))?;
            Some((pos, v, moves))
        }
        None => None,
    };
    if args.json.json {
        let value =
            |v: Value| serde_json::json!({"value": v.outcome_name(), "distance": v.distance()});
        let mut j = serde_json::json!({
            "board": dims.to_string(), "source": source,
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "peak_memory_bytes": memory, "table_bytes": table.memory_bytes(),
            "positions": c.total(), "won": c.won, "lost": c.lost, "drawn": c.drawn,
            "longest_win": c.longest_win, "longest_loss": c.longest_loss,
            "start": value(start),
        });
        if let Some((pos, v, moves)) = &report {
            let mut p = value(*v);
            p["position"] = serde_json::json!(pos.to_string());
            p["moves"] = moves
                .iter()
                .map(|(m, mv)| {
                    let mut o = value(*mv);
                    o["move"] = serde_json::json!(m.to_string());
                    o
                })
                .collect();
            j["position"] = p;
        }
        writeln!(out, "{j}")?;
        return Ok(());
    }
    let mb = |b: u64| b as f64 / 1e6;
    writeln!(
        out,
        "{dims}: {source} in {seconds:.2} s; peak memory {}; table {:.1} MB",
        memory.map_or("unknown".to_string(), |m| format!("{:.1} MB", mb(m))),
        mb(table.memory_bytes())
    )?;
    writeln!(
        out,
        "positions (side to move included, mirror images once): {} won, {} lost, {} drawn, {} in all; longest \
         win {} plies, longest loss {}",
        c.won,
        c.lost,
        c.drawn,
        c.total(),
        c.longest_win,
        c.longest_loss
    )?;
    writeln!(out, "start position: {start} (for black, to move)")?;
    if let Some((pos, v, moves)) = report {
        writeln!(out, "position {pos}: {v} for {}", pos.side_to_move())?;
        for (m, mv) in moves {
            writeln!(out, "  {m}: {mv}")?;
        }
    }
    Ok(())
}
