//! `parlor-lab stages`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use parlor_lab::endgame::Advisor;
use twenty48::ai::{EvalKind, Player};
use twenty48::{Board, Direction, Game, Rules, Status};

use crate::common::config::Think;

/// Plays games with the shipped player and follows them through full endgame tables.
///
/// Plays games with the shipped player and follows them through full endgame tables: where each game first met a
/// position a table holds, what the table gave it then, and where the game ended. It shows in which stage of the
/// game the player loses, and how its play inside a table's stage compares with the table's.
///
/// `cargo run --release -p parlor-lab -- stages --table DIR [--table DIR...] [--min-tile T] [--games N]
/// [--seed S] (--depth D | --ms-per-move T)`
///
/// Each `--table` is a folder built by `parlor-lab endgame`; on each board the tables are asked in the order given
/// and the first that holds it counts. `--min-tile T` (default 16384) counts only boards whose largest tile is at
/// least T (a formation's fixed cells hold any tiles of at least its target, so the same table also holds boards of
/// earlier stages). One line a game: seed, largest tile, score, moves; for each table the move at which the game
/// first met it and the table's success probability there (`-` if never), the same for the last board it held, the
/// boards it held and on how many of them the player's move differed from the table's; where the largest tile (at
/// least T) first left the corner it sat in, whether by choice (another legal move kept it there) or forced, and how
/// many such moves of each kind the game made; the final board. Then, for each table, the games that met it, the mean
/// success probability at the first meeting, and how many of those games reached 32768.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A table's folder (built by `parlor-lab endgame`); several are asked in the order given.
    #[arg(long = "table", value_name = "DIR", required = true)]
    tables: Vec<PathBuf>,
    /// Count only boards whose largest tile is at least this.
    #[arg(long, default_value_t = 16384)]
    min_tile: u64,
    /// Games played.
    #[arg(long, default_value_t = 10)]
    games: u64,
    /// Seed of the first game.
    #[arg(long, default_value_t = 5001)]
    seed: u64,
    #[command(flatten)]
    think: Think,
}

/// The corner the largest tile of `board` sits in, if it sits in one (the first corner found when several do).
fn largest_tile_corner(board: &Board) -> Option<(usize, usize)> {
    let n = board.size() - 1;
    let top = board.max_exponent();
    [(0, 0), (0, n), (n, 0), (n, n)]
        .into_iter()
        .find(|&(r, c)| board.exponent(r, c) == top)
}

/// Whether sliding `board` in `dir` leaves a tile of its largest value in corner `at`.
fn keeps_corner(board: &Board, dir: Direction, at: (usize, usize)) -> bool {
    board.slid(dir).0.exponent(at.0, at.1) >= board.max_exponent()
}

/// Where the largest tile (at least `--min-tile`) left the corner it sat in: a move that slid it out of its corner.
#[derive(Default, Clone)]
struct Corner {
    /// The first such move, and whether another legal move would have kept it there (a choice, not forced).
    first: Option<(usize, bool)>,
    /// Such moves made by choice.
    chosen: u64,
    /// Such moves made because every legal move slid it out.
    forced: u64,
}

/// What one game did in one table's stage.
#[derive(Default, Clone)]
struct Stage {
    /// The move at which the game first met a board the table holds, and the table's success probability there.
    first: Option<(usize, f32)>,
    /// The last such move, and the table's success probability there.
    last: Option<(usize, f32)>,
    /// Boards the table held (and was the first table to hold).
    held: u64,
    /// Of those, boards on which the player's move was not the table's.
    differ: u64,
}

/// Runs the tool.
pub fn main(args: Args) {
    let (dirs, min_tile, games, seed, cfg) = (
        args.tables,
        args.min_tile,
        args.games,
        args.seed,
        args.think.config(),
    );
    let t = std::time::Instant::now();
    let tables: Vec<Advisor> = dirs
        .iter()
        .map(|d| Advisor::load(d).unwrap_or_else(|e| panic!("{}: {e}", d.display())))
        .collect();
    eprintln!(
        "{} tables loaded in {:.1} s",
        tables.len(),
        t.elapsed().as_secs_f64()
    );
    let rules = Rules::new(4, 0.1, 2048).expect("the standard rules");
    let mut all: Vec<(u64, Vec<Stage>)> = Vec::new();
    for s in seed..seed + games {
        let (mut player, _) = Player::with_eval(cfg.clone(), EvalKind::Network);
        let mut game = Game::new(rules, s);
        let mut stages = vec![Stage::default(); tables.len()];
        let mut left = Corner::default();
        while game.status() != Status::Over {
            game.keep_going();
            let board = *game.board();
            let Some(d) = player.best_move(&board, 0.1) else {
                break;
            };
            let held = board
                .to_bitboard()
                .filter(|_| board.max_tile() >= min_tile)
                .and_then(|bb| {
                    tables
                        .iter()
                        .enumerate()
                        .find_map(|(i, t)| Some((i, t.advise(bb)?)))
                });
            if let Some(at) = largest_tile_corner(&board).filter(|_| board.max_tile() >= min_tile)
                && !keeps_corner(&board, d, at)
            {
                let chosen = Direction::ALL
                    .into_iter()
                    .any(|o| board.can_slide(o) && keeps_corner(&board, o, at));
                left.first.get_or_insert((game.moves_made(), chosen));
                if chosen {
                    left.chosen += 1;
                } else {
                    left.forced += 1;
                }
            }
            if let Some((i, (best, p))) = held {
                let st = &mut stages[i];
                st.first.get_or_insert((game.moves_made(), p));
                st.last = Some((game.moves_made(), p));
                st.held += 1;
                st.differ += u64::from(best != d);
            }
            game.slide(d).expect("the player's move is legal");
        }
        let mut line = format!(
            "seed {s} max {} score {} moves {}",
            game.board().max_tile(),
            game.score(),
            game.moves_made()
        );
        for (dir, st) in dirs.iter().zip(&stages) {
            let at = |m: Option<(usize, f32)>| {
                m.map_or("- -".to_string(), |(m, p)| format!("{m} {p:.4}"))
            };
            line += &format!(
                " | {} first {} last {} held {} differ {}",
                dir.display(),
                at(st.first),
                at(st.last),
                st.held,
                st.differ
            );
        }
        let first = left.first.map_or("-".to_string(), |(m, chosen)| {
            format!("{m} {}", if chosen { "chosen" } else { "forced" })
        });
        println!(
            "{line} | corner left first {first} chosen {} forced {} | final {}",
            left.chosen,
            left.forced,
            game.board()
        );
        all.push((game.board().max_tile(), stages));
    }
    let n = all.len();
    let won = all.iter().filter(|(m, _)| *m >= 32768).count();
    println!("{n} games, 32768 in {won}");
    for (i, dir) in dirs.iter().enumerate() {
        let met: Vec<_> = all
            .iter()
            .filter_map(|(m, st)| st[i].first.map(|(_, p)| (*m, p)))
            .collect();
        if met.is_empty() {
            println!("{}: met in no game", dir.display());
            continue;
        }
        let mean = met.iter().map(|&(_, p)| f64::from(p)).sum::<f64>() / met.len() as f64;
        let reached = met.iter().filter(|&&(m, _)| m >= 32768).count();
        println!(
            "{}: met in {} games, success at the first meeting {mean:.3} on average, 32768 reached in {reached} of them",
            dir.display(),
            met.len()
        );
    }
}
