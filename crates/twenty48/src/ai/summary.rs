//! Summaries of many AI games.

use std::fmt;

use crate::ai::autoplay::GameReport;

/// Milestone tiles reported by [`summarize`].
pub(crate) const MILESTONES: [u64; 6] = [2048, 4096, 8192, 16384, 32768, 65536];

/// Aggregate figures over a set of games.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Number of games.
    pub games: usize,
    /// For each tile of `MILESTONES`: (tile, share of games whose largest tile is at least that, 0 to 1).
    pub reached: Vec<(u64, f64)>,
    /// Mean score.
    pub mean_score: f64,
    /// Median score (mean of the two middle scores for an even count).
    pub median_score: f64,
    /// Lowest score.
    pub min_score: u64,
    /// Highest score.
    pub max_score: u64,
    /// Total moves.
    pub moves: usize,
    /// Moves per second of wall time.
    pub moves_per_sec: f64,
    /// Average milliseconds per move.
    pub ms_per_move: f64,
}

/// Summarizes game reports (all zero for an empty slice).
pub fn summarize(reports: &[GameReport]) -> Summary {
    let games = reports.len();
    let mut scores: Vec<u64> = reports.iter().map(|r| r.score).collect();
    scores.sort_unstable();
    let share = |tile: u64| {
        if games == 0 {
            0.0
        } else {
            reports.iter().filter(|r| r.max_tile >= tile).count() as f64 / games as f64
        }
    };
    let median_score = match games {
        0 => 0.0,
        n if n % 2 == 1 => scores[n / 2] as f64,
        n => (scores[n / 2 - 1] as f64 + scores[n / 2] as f64) / 2.0,
    };
    let moves: usize = reports.iter().map(|r| r.moves).sum();
    let ms: f64 = reports.iter().map(|r| r.total_ms).sum();
    Summary {
        games,
        reached: MILESTONES.iter().map(|&t| (t, share(t))).collect(),
        mean_score: if games == 0 {
            0.0
        } else {
            scores.iter().map(|&s| s as f64).sum::<f64>() / games as f64
        },
        median_score,
        min_score: scores.first().copied().unwrap_or(0),
        max_score: scores.last().copied().unwrap_or(0),
        moves,
        moves_per_sec: if ms > 0.0 {
            moves as f64 / (ms / 1000.0)
        } else {
            0.0
        },
        ms_per_move: if moves > 0 { ms / moves as f64 } else { 0.0 },
    }
}

impl fmt::Display for Summary {
    /// Three lines: games and milestone shares; scores; speed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "games {}  reached:", self.games)?;
        for (tile, share) in &self.reached {
            write!(f, " {tile} {:.1}%", share * 100.0)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "score mean {:.0}  median {:.0}  min {}  max {}",
            self.mean_score, self.median_score, self.min_score, self.max_score
        )?;
        write!(
            f,
            "moves {}  {:.0} moves/s  {:.3} ms/move",
            self.moves, self.moves_per_sec, self.ms_per_move
        )
    }
}
