//! Boards shared by the benchmarks: positions from seeded self-play.

use twenty48::ai::{Player, SearchConfig};
use twenty48::{Game, Rules, Status};

/// `n` boards from games of a fixed-`depth` player (seeds 1, 2, ...): every `every`-th position of each game.
pub fn played_boards(n: usize, depth: u32, every: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(n);
    let mut seed = 1;
    while out.len() < n {
        let mut game = Game::new(Rules::default(), seed);
        let mut p = Player::new(SearchConfig::depth(depth));
        while game.status() != Status::Over && out.len() < n {
            game.keep_going();
            let Some(d) = p.best_move(game.board(), 0.1) else {
                break;
            };
            let _ = game.slide(d);
            if game.moves_made().is_multiple_of(every)
                && let Some(b) = game.board().to_bitboard()
            {
                out.push(b);
            }
        }
        seed += 1;
    }
    out
}
