//! Level ladder matches with node budgets (reproducible):
//! `cargo run -p nocca --release --example match -- [GAMES] [SEED] [A B]`.
//! Without levels, plays each level against the one below.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::time::Instant;

use nocca::{Level, play_match};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u32 = args.first().and_then(|s| s.parse().ok()).unwrap_or(200);
    let seed: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let pairs: Vec<(Level, Level)> = match (args.get(2), args.get(3)) {
        (Some(a), Some(b)) => match (a.parse(), b.parse()) {
            (Ok(a), Ok(b)) => vec![(a, b)],
            _ => {
                eprintln!("bad level: expected beginner, casual, strong, expert or 1-4");
                std::process::exit(2);
            }
        },
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
