//! Search speed: positions evaluated per second by the bitboard expectimax on a fixed set of mid-game boards.
//!
//! Run: `CARGO_TARGET_DIR=/work/target-twenty48 nice cargo bench -p twenty48 --bench search`

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use twenty48::ai::search::Search;
use twenty48::ai::tt::TranspositionTable;
use twenty48::ai::{Evaluator, Player, SearchConfig, Weights};
use twenty48::{Direction, Game, Rules, Status};

/// 32 boards taken every 50 moves from depth-2 games (seeds 1, 2, ...).
fn boards() -> Vec<u64> {
    let mut out = Vec::new();
    let mut seed = 1;
    while out.len() < 32 {
        let mut game = Game::new(Rules::default(), seed);
        let mut p = Player::new(SearchConfig::depth(2));
        while game.status() != Status::Over && out.len() < 32 {
            game.keep_going();
            let Some(d) = p.best_move(game.board(), 0.1) else {
                break;
            };
            let _ = game.slide(d);
            if game.moves_made().is_multiple_of(50)
                && let Some(b) = game.board().to_bitboard()
            {
                out.push(b);
            }
        }
        seed += 1;
    }
    out
}

fn bench(c: &mut Criterion) {
    let boards = boards();
    let eval = Evaluator::new(Weights::default());
    let tt = TranspositionTable::new(20);
    for depth in [2u32, 3] {
        // Count the positions once to set the throughput (evaluations + expanded chance nodes, no table).
        let mut s = Search::new(&eval, None, 0.1, 1e-4);
        for &b in &boards {
            s.best(b, depth, &Direction::ALL);
        }
        let positions = s.evals + s.nodes;
        let mut group = c.benchmark_group(format!("search_depth{depth}"));
        group.throughput(Throughput::Elements(positions));
        group.sample_size(10);
        group.bench_function("no_tt", |bch| {
            bch.iter(|| {
                let mut s = Search::new(&eval, None, 0.1, 1e-4);
                for &b in black_box(&boards) {
                    black_box(s.best(b, depth, &Direction::ALL));
                }
            })
        });
        group.bench_function("tt_cleared_each_board", |bch| {
            bch.iter(|| {
                for &b in black_box(&boards) {
                    tt.clear();
                    let mut s = Search::new(&eval, Some(&tt), 0.1, 1e-4);
                    black_box(s.best(b, depth, &Direction::ALL));
                }
            })
        });
        group.finish();
    }
    let mut group = c.benchmark_group("eval");
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("evaluate", |bch| {
        bch.iter(|| {
            black_box(&boards)
                .iter()
                .map(|&b| eval.eval(b))
                .sum::<f32>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
