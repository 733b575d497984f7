//! Tuning the evaluation weights by a (1+1) evolution strategy over seeded self-play.
//!
//! Fitness of a weight vector: the mean score of `games` full games (seeds `seed .. seed + games`, the same for every
//! candidate: common random numbers) played at a fixed `depth` with one thread, each cut at `max_moves` if set.
//! Mutation: every weight but `edge` is multiplied by `exp(sigma * N(0, 1))`; `edge` moves by `sigma * 20 * N(0, 1)`
//! and stays at least 0. Step size: the 1/5 success rule (`sigma *= 1.5` on success, `/= 1.5^(1/4)` otherwise).
//! The Gaussian draws come from a `ChaCha8Rng` seeded with `seed`.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

use twenty48::Rules;
use twenty48::ai::{SearchConfig, Weights, autoplay_with};

/// What to tune and how long.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneConfig {
    /// Candidates tried after the start point.
    pub iterations: usize,
    /// Games per fitness evaluation.
    pub games: usize,
    /// Search depth of the self-play games.
    pub depth: u32,
    /// Seed of the games and of the mutations.
    pub seed: u64,
    /// Move limit per game (`None`: play to the end).
    pub max_moves: Option<usize>,
    /// Initial step size (log scale).
    pub sigma: f64,
    /// Starting weights.
    pub start: Weights,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            iterations: 40,
            games: 8,
            depth: 2,
            seed: 1,
            max_moves: None,
            sigma: 0.3,
            start: Weights::NNEONNEO,
        }
    }
}

/// One step of the tuning curve.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneStep {
    /// 0 for the start point, then 1, 2, ...
    pub iteration: usize,
    /// Fitness of this step's candidate.
    pub fitness: f64,
    /// Best fitness so far.
    pub best: f64,
    /// Step size after this step.
    pub sigma: f64,
}

/// The tuning result.
#[derive(Debug, Clone, PartialEq)]
pub struct TuneResult {
    /// The best weights found.
    pub weights: Weights,
    /// Their fitness.
    pub fitness: f64,
    /// The curve, one entry per evaluated candidate.
    pub history: Vec<TuneStep>,
}

/// Mean score of `cfg.games` seeded games with these weights.
pub fn fitness(weights: &Weights, cfg: &TuneConfig) -> f64 {
    let rules = Rules::default();
    let search = SearchConfig::depth(cfg.depth);
    let total: u64 = (0..cfg.games as u64)
        .map(|i| {
            autoplay_with(
                &rules,
                cfg.seed.wrapping_add(i),
                &search,
                *weights,
                cfg.max_moves,
            )
            .score
        })
        .sum();
    total as f64 / cfg.games.max(1) as f64
}

fn gaussian(rng: &mut ChaCha8Rng) -> f64 {
    let u1 = unit_f64(rng.next_u64()).max(1e-300);
    let u2 = unit_f64(rng.next_u64());
    (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
}

/// Runs the (1+1)-ES; `progress` is called after every evaluated candidate.
pub fn tune(cfg: &TuneConfig, mut progress: impl FnMut(&TuneStep)) -> TuneResult {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut best = cfg.start;
    let mut best_fit = fitness(&best, cfg);
    let mut sigma = cfg.sigma;
    let mut history = vec![TuneStep {
        iteration: 0,
        fitness: best_fit,
        best: best_fit,
        sigma,
    }];
    progress(&history[0]);
    for iteration in 1..=cfg.iterations {
        let mut a = best.to_array();
        for (i, w) in a.iter_mut().enumerate() {
            let z = gaussian(&mut rng) * sigma;
            if i == 7 {
                *w = (*w as f64 + 20.0 * z).max(0.0) as f32;
            } else {
                *w = (*w as f64 * z.exp()) as f32;
            }
        }
        let candidate = Weights::from_array(a);
        let fit = fitness(&candidate, cfg);
        if fit > best_fit {
            best = candidate;
            best_fit = fit;
            sigma *= 1.5;
        } else {
            sigma /= 1.5f64.powf(0.25);
        }
        let step = TuneStep {
            iteration,
            fitness: fit,
            best: best_fit,
            sigma,
        };
        progress(&step);
        history.push(step);
    }
    TuneResult {
        weights: best,
        fitness: best_fit,
        history,
    }
}

/// A uniform draw in [0, 1) from 64 random bits (the top 53).
fn unit_f64(x: u64) -> f64 {
    (x >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}
