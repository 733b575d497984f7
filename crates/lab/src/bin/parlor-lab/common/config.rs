//! What the measuring tools share: how hard the player thinks, `--depth D` or `--ms-per-move T` (clap arguments).

use twenty48::ai::SearchConfig;

/// A fixed depth or a time budget a move, one of the two.
#[derive(Debug, Clone, clap::Args)]
#[group(required = true, multiple = false)]
pub struct Think {
    /// A fixed search depth in moves, 1 to 12 (deterministic: the moves do not depend on the machine's load).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: Option<u32>,
    /// A time budget a move in milliseconds, above 0 and at most 60000 (iterative deepening).
    #[arg(long, value_parser = ms_per_move)]
    pub ms_per_move: Option<f64>,
}

impl Think {
    /// The search configuration (one thread).
    pub fn config(&self) -> SearchConfig {
        match (self.depth, self.ms_per_move) {
            (Some(d), _) => SearchConfig::depth(d),
            (None, Some(ms)) => SearchConfig::millis(ms),
            (None, None) => SearchConfig::default(),
        }
    }
}

/// A budget in milliseconds: above 0 and at most 60000.
fn ms_per_move(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(ms) if ms > 0.0 && ms <= 60_000.0 => Ok(ms),
        _ => Err(format!("'{s}' is not a number above 0 and at most 60000")),
    }
}
