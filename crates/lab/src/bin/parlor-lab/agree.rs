//! `parlor-lab agree`: what [`Args`] says.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Subcommand;
use twenty48::ai::{EvalKind, Player, ProbClasses, SearchConfig, TableLife};
use twenty48::{Board, Direction, Game, Rules, Status};

use crate::common::config::Think;

/// How often players' moves agree on the same positions.
///
/// Searches the same positions with several players and says how often their moves agree: a measure of a change to
/// the search that, at a fixed depth, does not depend on the machine's load, and needs hundreds of positions rather
/// than hundreds of games.
///
/// `cargo run --release -p parlor-lab -- agree record --seed 5003 --depth 3 --out POSITIONS` plays a game
/// with the shipped player (the network, and the endgame stores on the boards they hold) and writes each position it
/// met, one a line (`--ms-per-move T` instead of `--depth D` plays a timed game, which the load can change). Every
/// player below asks the stores too, so the boards they hold get the same move from all of them.
///
/// `cargo run --release -p parlor-lab -- agree search POSITIONS [--from A] [--to B] (--depth D |
/// --ms-per-move T) [--cutoff C] [--fresh] [--moves FILE] [--against FILE...]` searches positions A..B in order
/// with one player, whose table lives across them as in a
/// game (`--fresh`: emptied before each root move, so that no value comes from another root move or position: the
/// reference), and prints the chance nodes, table probes and hits, the mean depth reached and the time a position.
/// `--moves FILE` writes the moves chosen (one letter a position); `--against FILE` counts the positions where the
/// moves differ from those in FILE (written by an earlier run over the same positions).
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Plays a game with the shipped player and writes each position it met, one a line.
    Record {
        /// The game's seed.
        #[arg(long, default_value_t = 5003)]
        seed: u64,
        /// Search depth (a fixed depth: the positions do not depend on the load).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=12))]
        depth: u32,
        /// The positions file to write.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Searches positions in order with one player and counts where its moves differ from other runs'.
    Search {
        /// The positions file (written by `record`).
        positions: PathBuf,
        /// The first position searched.
        #[arg(long, default_value_t = 0)]
        from: usize,
        /// The position after the last searched (all by default).
        #[arg(long)]
        to: Option<usize>,
        #[command(flatten)]
        think: Think,
        /// The probability cut-off (0 disables it).
        #[arg(long)]
        cutoff: Option<f32>,
        /// Empty the table before each root move (no value from another root move or position: the reference).
        #[arg(long)]
        fresh: bool,
        /// Write the moves chosen to FILE (one letter a position).
        #[arg(long, value_name = "FILE")]
        moves: Option<PathBuf>,
        /// Count the positions where the moves differ from those of FILE (an earlier run's --moves).
        #[arg(long, value_name = "FILE")]
        against: Vec<PathBuf>,
    },
}

/// One letter a move (the first of its name, in capitals), `-` where there was none.
fn letter(d: Option<Direction>) -> char {
    d.map_or('-', |d| {
        char::from(d.name().as_bytes()[0].to_ascii_uppercase())
    })
}

fn record(seed: u64, depth: u32, out: &Path) -> Result<(), String> {
    let cfg = SearchConfig::depth(depth);
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
    std::fs::write(out, text).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "seed {seed}: {} positions, score {}, max {}, written to {}",
        game.moves_made(),
        game.score(),
        game.board().max_tile(),
        out.display()
    );
    Ok(())
}

/// What `search` is asked.
struct SearchArgs<'a> {
    path: &'a Path,
    from: usize,
    to: Option<usize>,
    cfg: SearchConfig,
    cutoff: Option<f32>,
    fresh: bool,
    moves_out: Option<&'a Path>,
    against: &'a [PathBuf],
}

fn search(a: SearchArgs<'_>) -> Result<(), String> {
    let path = a.path.display();
    let text = std::fs::read_to_string(a.path).map_err(|e| format!("{path}: {e}"))?;
    let boards: Vec<Board> = text
        .lines()
        .enumerate()
        .map(|(i, l)| l.parse().map_err(|e| format!("{path}:{}: {e}", i + 1)))
        .collect::<Result<_, _>>()?;
    let (from, to, cfg, cutoff, fresh) = (
        a.from,
        a.to.unwrap_or(boards.len()),
        a.cfg,
        a.cutoff,
        a.fresh,
    );
    let to = to.min(boards.len());
    if from >= to {
        return Err(format!("no positions in {from}..{to}"));
    }
    let (mut player, _) = Player::with_eval(cfg, EvalKind::Network);
    if let Some(c) = cutoff {
        player.set_cutoff(c);
    }
    if fresh {
        player.set_table(TableLife::RootMove, false, ProbClasses::Same);
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
    if let Some(out) = a.moves_out {
        std::fs::write(out, &moves).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    for other in a.against {
        let theirs =
            std::fs::read_to_string(other).map_err(|e| format!("{}: {e}", other.display()))?;
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

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    let outcome = match args.command {
        Command::Record { seed, depth, out } => record(seed, depth, &out),
        Command::Search {
            positions,
            from,
            to,
            think,
            cutoff,
            fresh,
            moves,
            against,
        } => search(SearchArgs {
            path: &positions,
            from,
            to,
            cfg: think.config(),
            cutoff,
            fresh,
            moves_out: moves.as_deref(),
            against: &against,
        }),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
