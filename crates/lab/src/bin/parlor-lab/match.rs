//! `parlor-lab match`: what [`Args`] says.

// Developer tools run by hand stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use nocca::{Level, play_match};

/// Plays level against level with node budgets: each level against the one below, or level A against level B.
///
/// Level ladder matches with node budgets (reproducible):
/// `cargo run --release -p parlor-lab -- match [GAMES] [SEED] [A B]`.
/// Without levels, plays each level against the one below.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games a match.
    #[arg(default_value_t = 200)]
    games: u32,
    /// The seed of the openings.
    #[arg(default_value_t = 1)]
    seed: u64,
    /// The first player's level (beginner, casual, strong, expert or 1-4), with B.
    #[arg(requires = "b")]
    a: Option<Level>,
    /// The second player's level.
    b: Option<Level>,
}

/// Runs the tool.
pub fn main(args: Args) {
    let Args { games, seed, a, b } = args;
    let pairs: Vec<(Level, Level)> = match (a, b) {
        (Some(a), Some(b)) => vec![(a, b)],
        _ => Level::ALL.windows(2).map(|w| (w[1], w[0])).collect(),
    };
    for (a, b) in pairs {
        let t = Instant::now();
        let r = play_match(a, b, games, seed, &mut |_, _| {});
        println!(
            "{a} vs {b}: {} games, {}-{}-{} (W-L-D), score {:.1}% (95% CI {:.1}-{:.1}%), avg {:.1} plies, {:.0} s",
            r.games,
            r.a_wins,
            r.b_wins,
            r.draws,
            100.0 * r.score_a,
            100.0 * r.ci95.0,
            100.0 * r.ci95.1,
            r.avg_plies,
            t.elapsed().as_secs_f64()
        );
    }
}
