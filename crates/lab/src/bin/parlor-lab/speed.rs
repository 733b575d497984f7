//! `parlor-lab speed`: what [`Args`] says.

use std::path::PathBuf;
use std::time::Instant;

use twenty48::ai::{Player, Policy, ProbClasses, SearchConfig, TableLife, Weights};
use twenty48::{Board, Direction, Game, Rules, Status};

/// Writes a fixed set of boards, or times the search of each with nneonneo/2048-ai's algorithm.
///
/// Search speed on a fixed set of boards, for comparison with another program on the same machine (issue 29: "search
/// speed beside nneonneo/2048-ai's in one run"): `--write FILE` plays seeded depth-2 games with the hand-made
/// evaluation and writes every `--every`-th board (hex, one a line, cell `(r, c)` in nibble `4r + c`, as
/// nneonneo/2048-ai's `board_t`) until `--boards N`; `--read FILE` times the search of each board's four moves with
/// nneonneo/2048-ai's algorithm (`--policy nneonneo`: `max(3, distinct tiles - 2)` levels of spawns, cut-off 1e-4, its
/// heuristic weights, a table keyed by the board alone, emptied before each root move, whose deeper entries also hit),
/// or with `--levels L` that many levels of spawns on every board; `--repeat N` searches the whole set N times. It
/// prints the positions (static evaluations + chance nodes expanded), their rate and the move chosen on each board
/// (`U`, `D`, `L`, `R`; `-` when none is legal), and beside the wall time the time the process ran on a core (from
/// `/proc/self/schedstat`, on Linux), which other processes on the machine change less. The slide tables are built before the clock starts, as
/// nneonneo/2048-ai's `init_tables` is.
///
/// `cargo run --release -p parlor-lab -- speed --write boards.txt --boards 32 --every 50`
/// `cargo run --release -p parlor-lab -- speed --read boards.txt [--levels 3] [--repeat 10]`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Play seeded depth-2 games and write every --every-th board to FILE (hex, one a line).
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
    /// Time the search of each board of FILE.
    #[arg(long, value_name = "FILE")]
    read: Option<PathBuf>,
    /// Boards to write.
    #[arg(long, default_value_t = 32)]
    boards: usize,
    /// Write every this many moves' board.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Search this many levels of spawns on every board instead of nneonneo/2048-ai's depth rule.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    levels: Option<u32>,
    /// Search the whole set of boards this many times.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args {
        write,
        read,
        boards: n,
        every,
        levels,
        repeat,
    } = args;
    if let Some(path) = write {
        let mut out = String::new();
        let (mut seed, mut count) = (1, 0);
        while count < n {
            let mut game = Game::new(Rules::default(), seed);
            let mut p = Player::new(SearchConfig::depth(2));
            while game.status() != Status::Over && count < n {
                game.keep_going();
                let Some(d) = p.best_move(game.board(), 0.1) else {
                    break;
                };
                let _ = game.slide(d);
                if (game.moves_made() as u64).is_multiple_of(every)
                    && let Some(b) = game.board().to_bitboard()
                {
                    out.push_str(&format!("{b:016x}\n"));
                    count += 1;
                }
            }
            seed += 1;
        }
        if let Err(e) = std::fs::write(&path, out) {
            eprintln!("error: {}: {e}", path.display());
            std::process::exit(1);
        }
        println!("{count} boards written to {}", path.display());
    }
    let Some(path) = read else { return };
    let boards = std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| {
            text.split_whitespace()
                .map(|w| u64::from_str_radix(w, 16).map_err(|e| format!("'{w}': {e}")))
                .collect::<Result<Vec<u64>, String>>()
        });
    let boards = match boards {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            std::process::exit(1);
        }
    };
    let mut player = Player::with_weights(SearchConfig::depth(4), Weights::NNEONNEO);
    player.set_policy(match levels {
        Some(l) => Policy::Distinct { min: l, offset: 16 },
        None => Policy::NNEONNEO,
    });
    player.set_table(TableLife::RootMove, true, ProbClasses::Off);
    let boards: Vec<Board> = boards.into_iter().map(Board::from_bitboard).collect();
    twenty48::bitboard::tables();
    let (mut evals, mut nodes) = (0u64, 0u64);
    let mut moves = String::new();
    let cpu0 = cpu_ns();
    let t = Instant::now();
    for round in 0..repeat {
        for board in &boards {
            let d = player.best_move(board, 0.1);
            evals += player.last_stats().evals;
            nodes += player.last_stats().nodes;
            if round == 0 {
                moves.push(match d {
                    Some(Direction::Up) => 'U',
                    Some(Direction::Down) => 'D',
                    Some(Direction::Left) => 'L',
                    Some(Direction::Right) => 'R',
                    None => '-',
                });
            }
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, cpu_ns()) {
        (Some(a), Some(b)) => format!(" (on a core {:.3} s)", (b - a) as f64 / 1e9),
        _ => String::new(),
    };
    let searched = boards.len() as f64 * f64::from(repeat);
    println!(
        "parlor: {} boards x {repeat} in {secs:.3} s{cpu} ({:.2} ms a board): {evals} evaluations + {nodes} chance nodes = {} positions, {:.1} M positions/s, moves {moves}",
        boards.len(),
        1000.0 * secs / searched,
        evals + nodes,
        (evals + nodes) as f64 / secs / 1e6
    );
}

/// Nanoseconds this process has run on a core (the first field of `/proc/self/schedstat`), if the system says.
fn cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
