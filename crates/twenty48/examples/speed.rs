//! Search speed on a fixed set of boards, for comparison with another program on the same machine (issue 29: "search
//! speed beside nneonneo/2048-ai's in one run"): `--write FILE` plays seeded depth-2 games with the hand-made
//! evaluation and writes every `--every`-th board (hex, one a line, cell `(r, c)` in nibble `4r + c`, as
//! nneonneo/2048-ai's `board_t`) until `--boards N`; `--read FILE` times the search of each board's four moves with
//! nneonneo/2048-ai's algorithm (`--policy nneonneo`: `max(3, distinct tiles - 2)` levels of spawns, cut-off 1e-4, its
//! heuristic weights, a table emptied before each root move whose deeper entries also hit), or with `--levels L` that
//! many levels of spawns on every board. It prints the positions (static evaluations + chance nodes expanded) and
//! their rate.
//!
//! `cargo run --release -p twenty48 --example speed -- --write boards.txt --boards 32 --every 50`
//! `cargo run --release -p twenty48 --example speed -- --read boards.txt`

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use twenty48::ai::{Player, Policy, SearchConfig, TableLife, Weights};
use twenty48::{Board, Game, Rules, Status};

fn main() {
    let (mut write, mut read, mut n, mut every, mut levels) = (None, None, 32usize, 50usize, None);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--write" => write = Some(value),
            "--read" => read = Some(value),
            "--boards" => n = value.parse().unwrap(),
            "--every" => every = value.parse().unwrap(),
            "--levels" => levels = Some(value.parse::<u32>().unwrap()),
            _ => panic!("unknown argument {flag}"),
        }
    }
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
                if game.moves_made().is_multiple_of(every)
                    && let Some(b) = game.board().to_bitboard()
                {
                    out.push_str(&format!("{b:016x}\n"));
                    count += 1;
                }
            }
            seed += 1;
        }
        std::fs::write(&path, out).unwrap();
        println!("{count} boards written to {path}");
    }
    let Some(path) = read else { return };
    let boards: Vec<u64> = std::fs::read_to_string(&path)
        .unwrap()
        .split_whitespace()
        .map(|w| u64::from_str_radix(w, 16).unwrap())
        .collect();
    let mut player = Player::with_weights(SearchConfig::depth(4), Weights::NNEONNEO);
    player.set_policy(match levels {
        Some(l) => Policy::Distinct { min: l, offset: 16 },
        None => Policy::NNEONNEO,
    });
    player.set_table(TableLife::RootMove, true);
    let (mut evals, mut nodes) = (0u64, 0u64);
    let t = Instant::now();
    for &b in &boards {
        let board = Board::from_bitboard(b);
        let _ = player.best_move(&board, 0.1);
        evals += player.last_stats().evals;
        nodes += player.last_stats().nodes;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "parlor: {} boards in {secs:.3} s ({:.2} ms a board): {evals} evaluations + {nodes} chance nodes = {} positions, {:.1} M positions/s",
        boards.len(),
        1000.0 * secs / boards.len() as f64,
        evals + nodes,
        (evals + nodes) as f64 / secs / 1e6
    );
}
