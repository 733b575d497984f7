//! `parlor-lab fit_eval`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
// Dense linear algebra on 11 x 11 matrices reads best with indices.
#![allow(clippy::needless_range_loop)]

use nocca::{
    Dims, EVAL_FEATURES, Engine, Game, GameOptions, Level, Limits, Position, Table, Value,
    eval_features, static_eval,
};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::HashSet;

const N: usize = EVAL_FEATURES;

/// Fits the static evaluation's weights to a solved board.
///
/// Fits the static evaluation's weights to a solved board: `fit_eval RxC [POSITIONS [SEED]]` (defaults 4x4,
/// 40000, 1).
///
/// Positions come from games with a random move one time in four and otherwise a beginner's or casual's move (so
/// that they are varied, as the leaves of a search are); each is labelled won or lost for the side to move from the
/// table (draws left out). A logistic regression of the label on [`nocca::eval_features`] is fitted by Newton's
/// method on half of them and checked on the other half, beside the sign of the current evaluation. The weights are
/// printed in evaluation units (100 per unit of log-odds).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The board, rows x columns.
    #[arg(value_name = "RxC", default_value = "4x4")]
    dims: Dims,
    /// Positions to label.
    #[arg(default_value_t = 40_000)]
    positions: usize,
    /// The seed of the games.
    #[arg(default_value_t = 1)]
    seed: u64,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Solves `a x = b` (a small dense system) by Gaussian elimination with partial pivoting.
fn solve(mut a: [[f64; N]; N], mut b: [f64; N]) -> [f64; N] {
    for c in 0..N {
        let p = (c..N)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("a row");
        a.swap(c, p);
        b.swap(c, p);
        for r in 0..N {
            if r != c && a[c][c] != 0.0 {
                let k = a[r][c] / a[c][c];
                for j in c..N {
                    a[r][j] -= k * a[c][j];
                }
                b[r] -= k * b[c];
            }
        }
    }
    let mut x = [0.0; N];
    for i in 0..N {
        x[i] = if a[i][i] == 0.0 { 0.0 } else { b[i] / a[i][i] };
    }
    x
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args {
        dims,
        positions: want,
        seed,
    } = args;
    let table = Table::solve(dims, &Default::default(), &mut |_| {}).expect("solve");
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut data: Vec<([i32; N], f64, i32)> = Vec::new();
    let mut games = 0u64;
    while data.len() < want {
        games += 1;
        let levels = [Level::Beginner, Level::Casual];
        let mut engines = [
            Engine::with_table(levels[(rng.next_u64() % 2) as usize], rng.next_u64(), 14),
            Engine::with_table(levels[(rng.next_u64() % 2) as usize], rng.next_u64(), 14),
        ];
        let mut game = Game::new(dims, GameOptions::default());
        while !game.is_over() && data.len() < want {
            let pos: Position = *game.position();
            if seen.insert(pos.to_string()) {
                match table.value(&pos) {
                    Ok(Value::Win(_)) => data.push((eval_features(&pos), 1.0, static_eval(&pos))),
                    Ok(Value::Loss(_)) => data.push((eval_features(&pos), 0.0, static_eval(&pos))),
                    _ => {}
                }
            }
            let moves = game.legal_moves();
            let mv = if rng.next_u64() % 4 == 0 {
                moves[(rng.next_u64() % moves.len() as u64) as usize]
            } else {
                let i = game.side_to_move().index();
                match engines[i].best_move(&game, Limits::nodes(2_000)) {
                    Some(r) => r.mv,
                    None => break,
                }
            };
            let _ = game.play(mv);
        }
    }
    let (train, test): (Vec<_>, Vec<_>) = data.iter().enumerate().partition(|(i, _)| i % 2 == 0);
    let train: Vec<_> = train.into_iter().map(|(_, d)| d).collect();
    let test: Vec<_> = test.into_iter().map(|(_, d)| d).collect();
    let wins = data.iter().filter(|d| d.1 > 0.5).count();
    println!(
        "{dims}: {} positions ({wins} won, {} lost for the side to move) from {games} games",
        data.len(),
        data.len() - wins
    );
    let mut w = [0.0f64; N];
    for _ in 0..25 {
        let mut grad = [0.0; N];
        let mut hess = [[0.0; N]; N];
        for (f, y, _) in &train {
            let x: Vec<f64> = f.iter().map(|&v| v as f64).collect();
            let p = sigmoid(x.iter().zip(&w).map(|(a, b)| a * b).sum());
            for i in 0..N {
                grad[i] += (y - p) * x[i];
                for j in 0..N {
                    hess[i][j] += p * (1.0 - p) * x[i] * x[j];
                }
            }
        }
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] += 1.0; // a little ridge, for features that never vary
        }
        let step = solve(hess, grad);
        for i in 0..N {
            w[i] += step[i];
        }
    }
    let accuracy = |set: &[&([i32; N], f64, i32)]| {
        let (mut fitted, mut current, mut loss) = (0usize, 0usize, 0.0f64);
        for (f, y, e) in set {
            let s: f64 = f.iter().zip(&w).map(|(a, b)| *a as f64 * b).sum();
            let p = sigmoid(s).clamp(1e-9, 1.0 - 1e-9);
            loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
            fitted += usize::from((s > 0.0) == (*y > 0.5));
            current += usize::from((*e > 0) == (*y > 0.5));
        }
        let n = set.len() as f64;
        (
            100.0 * fitted as f64 / n,
            100.0 * current as f64 / n,
            loss / n,
        )
    };
    let (a_train, c_train, l_train) = accuracy(&train);
    let (a_test, c_test, l_test) = accuracy(&test);
    println!(
        "won/lost predicted: fitted {a_train:.1}% (train) {a_test:.1}% (test, log-loss {l_train:.3} / \
         {l_test:.3}); current evaluation's sign {c_train:.1}% / {c_test:.1}%"
    );
    // The spread of the evaluations (the levels' root noise is in the same units).
    let spread = |v: Vec<f64>| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
    };
    let now = spread(data.iter().map(|d| d.2 as f64).collect());
    let fitted = spread(
        data.iter()
            .map(|d| 100.0 * d.0.iter().zip(&w).map(|(a, b)| *a as f64 * b).sum::<f64>())
            .collect(),
    );
    println!(
        "spread (standard deviation) of the evaluations: current {now:.0}, fitted {fitted:.0}"
    );
    let names = [
        "advance 1",
        "advance 2",
        "advance 3",
        "advance 4",
        "advance 5",
        "pinned enemy",
        "buried own",
        "safe top",
        "mobility",
        "uncoverable threat",
        "tempo",
    ];
    for (name, x) in names.iter().zip(w) {
        println!("{name:>20}: {:8.1}", 100.0 * x);
    }
}
