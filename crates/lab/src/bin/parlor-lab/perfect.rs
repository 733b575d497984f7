//! `parlor-lab perfect`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;
use std::time::Instant;

use nocca::{
    Colour, Dims, Engine, Game, GameOptions, Level, PerfectPlayer, Position, Table, Value,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// Measures the levels against perfect play on a solved board.
///
/// The levels measured against perfect play on a solved board:
/// `perfect RxC [POSITIONS [GAMES [SEED [TABLE-FILE [POSITIONS-FILE]]]]]` (defaults 2000, 100, 1; TABLE-FILE `-`:
/// solve the board). With POSITIONS-FILE, the positions are read from it (one a line) if it exists, else drawn as
/// below and written to it, so that two builds can be measured on the same positions.
///
/// 1. Positions drawn from games between the levels (every pair of levels, two random opening plies, each level on
///    its match node budget): for each level, the share of won and drawn positions where its move keeps the value
///    (a won position stays won, a drawn one is not lost), and the share of won positions kept won.
/// 2. Each level against the perfect player over GAMES games (pairs from the same random 2-ply opening, colours
///    swapped): the level's wins, draws and losses.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board, rows x columns.
    #[arg(value_name = "RxC", default_value = "3x4")]
    dims: Dims,
    /// Positions to draw from games between the levels.
    #[arg(default_value_t = 2000)]
    positions: usize,
    /// Games of each level against the perfect player.
    #[arg(default_value_t = 100)]
    games: u64,
    /// The seed of the openings.
    #[arg(default_value_t = 1)]
    seed: u64,
    /// The solved table to load (`-`: solve the board).
    #[arg(value_name = "TABLE-FILE")]
    table: Option<PathBuf>,
    /// Where the positions are read from if it exists, else written to.
    #[arg(value_name = "POSITIONS-FILE")]
    positions_file: Option<PathBuf>,
}

fn opening(game: &mut Game, rng: &mut ChaCha8Rng, plies: usize) {
    for _ in 0..plies {
        let pos = *game.position();
        let quiet: Vec<_> = game
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !pos.is_goal_move(m))
            .collect();
        if quiet.is_empty() {
            return;
        }
        let _ = game.play(quiet[(rng.next_u64() % quiet.len() as u64) as usize]);
    }
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args {
        dims,
        positions: want,
        games,
        seed,
        table,
        positions_file,
    } = args;
    let t = Instant::now();
    let table = std::sync::Arc::new(match table.filter(|p| p.as_os_str() != "-") {
        Some(path) => Table::load(&path, dims).expect("load the table"),
        None => Table::solve(dims, &Default::default(), &mut |_| {}).expect("solve"),
    });
    eprintln!("{dims}: table ready in {:.1} s", t.elapsed().as_secs_f64());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);

    // 1. Positions from games between the levels.
    let mut pool: Vec<Position> = Vec::new();
    let mut g = 0u64;
    let saved: Option<Vec<Position>> = positions_file.as_ref().filter(|p| p.exists()).map(|p| {
        std::fs::read_to_string(p)
            .expect("read the positions")
            .lines()
            .map(|l| l.parse().expect("a position"))
            .collect()
    });
    while saved.is_none() && pool.len() < want * 2 && g < 4000 {
        let a = Level::ALL[(g % 4) as usize];
        let b = Level::ALL[((g / 4) % 4) as usize];
        let mut engines = [
            Engine::with_table(a, seed ^ g, 16),
            Engine::with_table(b, seed ^ g ^ 0xB, 16),
        ];
        let levels = [a, b];
        let mut game = Game::new(dims, GameOptions::default());
        opening(&mut game, &mut rng, 2);
        while !game.is_over() {
            pool.push(*game.position());
            let i = game.side_to_move().index();
            let Some(r) = engines[i].best_move(&game, levels[i].match_limits()) else {
                break;
            };
            let _ = game.play(r.mv);
        }
        g += 1;
    }
    // A uniform sample of the pool (seeded), kept in pool order.
    let mut picked: Vec<Position> = Vec::new();
    let mut left = want.min(pool.len());
    for (i, p) in pool.iter().enumerate() {
        if left > 0 && (rng.next_u64() % (pool.len() - i) as u64) < left as u64 {
            picked.push(*p);
            left -= 1;
        }
    }
    if let Some(saved) = saved {
        picked = saved;
    } else if let Some(path) = &positions_file {
        let text: Vec<String> = picked.iter().map(|p| p.to_string()).collect();
        std::fs::write(path, text.join("\n") + "\n").expect("write the positions");
    }
    let mut kinds = [0usize; 3];
    for p in &picked {
        match table.value(p).expect("value") {
            Value::Win(_) => kinds[0] += 1,
            Value::Draw => kinds[1] += 1,
            Value::Loss(_) => kinds[2] += 1,
        }
    }
    println!(
        "{dims}: {} positions from {g} games between the levels: {} won, {} drawn, {} lost for the side to move",
        picked.len(),
        kinds[0],
        kinds[1],
        kinds[2]
    );
    println!("| level | value kept (won + drawn) | won kept won | drawn kept drawn | time |");
    println!("|---|---|---|---|---|");
    for level in Level::ALL {
        let lt = Instant::now();
        let mut engine = Engine::with_table(level, seed, 16);
        let (mut kept, mut total, mut won_kept, mut won, mut drawn_kept, mut drawn) =
            (0, 0, 0, 0, 0, 0);
        for p in &picked {
            let v = table.value(p).expect("value");
            if matches!(v, Value::Loss(_)) {
                continue;
            }
            engine.new_game();
            let Some(r) = engine.best_move_position(p, &[], level.match_limits()) else {
                continue;
            };
            let mv_value = table
                .move_values(p)
                .expect("moves")
                .into_iter()
                .find(|(m, _)| *m == r.mv)
                .map(|(_, v)| v)
                .expect("a legal move");
            let ok = v.kept_by(mv_value);
            total += 1;
            kept += ok as u32;
            if matches!(v, Value::Win(_)) {
                won += 1;
                won_kept += ok as u32;
            } else {
                drawn += 1;
                drawn_kept += ok as u32;
            }
        }
        let pct = |a: u32, b: u32| {
            if b == 0 {
                "-".to_string()
            } else {
                format!("{:.1}% ({a}/{b})", 100.0 * a as f64 / b as f64)
            }
        };
        println!(
            "| {level} | {} | {} | {} | {:.0} s |",
            pct(kept, total),
            pct(won_kept, won),
            pct(drawn_kept, drawn),
            lt.elapsed().as_secs_f64()
        );
    }

    // 2. Each level against the perfect player.
    println!();
    println!(
        "| level vs perfect | games | level wins - draws - losses | level's score | avg plies |"
    );
    println!("|---|---|---|---|---|");
    for level in Level::ALL {
        let mut res = [0u32; 3];
        let mut plies = 0usize;
        for i in 0..games {
            let level_colour = if i % 2 == 0 {
                Colour::Black
            } else {
                Colour::White
            };
            let mut orng =
                ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (i / 2));
            let mut game = Game::new(dims, GameOptions::default());
            opening(&mut game, &mut orng, 2);
            let mut engine = Engine::with_table(level, seed ^ i, 16);
            let mut perfect = PerfectPlayer::new(table.clone(), seed ^ i);
            while !game.is_over() {
                let mv = if game.side_to_move() == level_colour {
                    engine.best_move(&game, level.match_limits()).map(|r| r.mv)
                } else {
                    perfect.choose_in(&game).expect("perfect move")
                };
                let Some(mv) = mv else { break };
                let _ = game.play(mv);
            }
            plies += game.ply();
            res[match game.outcome().and_then(|o| o.winner) {
                Some(w) if w == level_colour => 0,
                None => 1,
                Some(_) => 2,
            }] += 1;
        }
        let score = (res[0] as f64 + 0.5 * res[1] as f64) / games as f64;
        println!(
            "| {level} | {games} | {}-{}-{} | {:.1}% | {:.1} |",
            res[0],
            res[1],
            res[2],
            100.0 * score,
            plies as f64 / games as f64
        );
    }
    eprintln!("{dims}: done in {:.0} s", t.elapsed().as_secs_f64());
}
