//! Playing whole games with the AI.

use std::fmt;
use web_time::Instant;

use crate::ai::eval::Weights;
use crate::ai::player::{Player, SearchConfig, default_weights};
use crate::game::{Game, Status};
use crate::rules::Rules;

/// The outcome of one AI game.
#[derive(Debug, Clone, PartialEq)]
pub struct GameReport {
    /// The game's seed.
    pub seed: u64,
    /// Final score.
    pub score: u64,
    /// Largest tile reached.
    pub max_tile: u64,
    /// Moves played.
    pub moves: usize,
    /// Wall time of the whole game in milliseconds (thinking plus game bookkeeping).
    pub total_ms: f64,
    /// Chance nodes the search expanded over the game.
    pub nodes: u64,
    /// Transposition-table probes over the game.
    pub probes: u64,
    /// Transposition-table probes that hit, over the game.
    pub hits: u64,
}

impl GameReport {
    /// Average milliseconds per move.
    pub fn ms_per_move(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_ms / self.moves as f64
        }
    }
}

impl fmt::Display for GameReport {
    /// `seed 7  score 123456  max 8192  moves 5000  0.450 ms/move`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "seed {}  score {}  max {}  moves {}  {:.3} ms/move",
            self.seed,
            self.score,
            self.max_tile,
            self.moves,
            self.ms_per_move()
        )
    }
}

/// Plays a full game with the default weights for the configuration until no move is left, always keeping going past the target.
/// Deterministic given the seed when the depth is fixed and `threads == 1`.
///
/// ```
/// use twenty48::ai::{SearchConfig, autoplay};
/// use twenty48::Rules;
///
/// let rules = Rules::new(3, 0.1, 2048).unwrap();
/// let report = autoplay(&rules, 1, &SearchConfig::depth(1));
/// assert!(report.moves > 0 && report.score > 0);
/// ```
pub fn autoplay(rules: &Rules, seed: u64, cfg: &SearchConfig) -> GameReport {
    autoplay_with(rules, seed, cfg, default_weights(cfg), None)
}

/// [`autoplay`] with explicit weights, stopping after `max_moves` moves if given.
pub fn autoplay_with(
    rules: &Rules,
    seed: u64,
    cfg: &SearchConfig,
    weights: Weights,
    max_moves: Option<usize>,
) -> GameReport {
    let mut player = Player::with_weights(cfg.clone(), weights);
    autoplay_player(rules, seed, &mut player, max_moves)
}

/// [`autoplay_with`] with a ready player (its configuration, weights and policy).
pub fn autoplay_player(
    rules: &Rules,
    seed: u64,
    player: &mut Player,
    max_moves: Option<usize>,
) -> GameReport {
    let start = Instant::now();
    let mut game = Game::new(*rules, seed);
    let (mut nodes, mut probes, mut hits) = (0, 0, 0);
    while game.status() != Status::Over && max_moves.is_none_or(|m| game.moves_made() < m) {
        game.keep_going();
        let Some(dir) = player.best_move(game.board(), rules.four_chance()) else {
            break;
        };
        let stats = player.last_stats();
        nodes += stats.nodes;
        probes += stats.probes;
        hits += stats.hits;
        if game.slide(dir).is_err() {
            break;
        }
    }
    GameReport {
        seed,
        score: game.score(),
        max_tile: game.board().max_tile(),
        moves: game.moves_made(),
        total_ms: start.elapsed().as_secs_f64() * 1000.0,
        nodes,
        probes,
        hits,
    }
}
