//! `parlor-lab tune`: what [`Args`] says.

use parlor_lab::tune::{TuneConfig, tune};
use twenty48::ai::Weights;

/// Tunes the heuristic's weights by a (1+1) evolution strategy over seeded self-play.
///
/// Tunes the heuristic's weights by self-play and prints the curve and the result.
///
/// `cargo run --release -p parlor-lab -- tune --iterations 40 --games 8 --depth 2 --seed 1`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Candidates tried after the start point.
    #[arg(long, default_value_t = TuneConfig::default().iterations)]
    iterations: usize,
    /// Games per fitness evaluation.
    #[arg(long, default_value_t = TuneConfig::default().games)]
    games: usize,
    /// Search depth of the games.
    #[arg(long, default_value_t = TuneConfig::default().depth, value_parser = clap::value_parser!(u32).range(1..=8))]
    depth: u32,
    /// Seed of the games and of the mutations.
    #[arg(long, default_value_t = TuneConfig::default().seed)]
    seed: u64,
    /// Initial step size.
    #[arg(long, default_value_t = TuneConfig::default().sigma)]
    sigma: f64,
    /// Cut each game after this many moves.
    #[arg(long)]
    max_moves: Option<usize>,
    /// The start point: eight numbers (base,empty,merges,mono,mono_power,sum,sum_power,edge).
    #[arg(long, value_parser = weights)]
    start: Option<Weights>,
}

/// Eight numbers, comma-separated.
fn weights(s: &str) -> Result<Weights, String> {
    let parts = s
        .split(',')
        .map(|p| p.trim().parse::<f32>().map_err(|e| format!("'{p}': {e}")))
        .collect::<Result<Vec<f32>, String>>()?;
    let parts = <[f32; 8]>::try_from(parts).map_err(|_| "eight numbers, comma-separated")?;
    Ok(Weights::from_array(parts))
}

/// Runs the tool.
pub fn main(args: Args) {
    let mut cfg = TuneConfig {
        iterations: args.iterations,
        games: args.games,
        depth: args.depth,
        seed: args.seed,
        sigma: args.sigma,
        max_moves: args.max_moves,
        ..TuneConfig::default()
    };
    if let Some(start) = args.start {
        cfg.start = start;
    }
    println!("# {cfg:?}");
    println!("# iteration fitness best sigma");
    let result = tune(&cfg, |s| {
        println!(
            "{} {:.0} {:.0} {:.3}",
            s.iteration, s.fitness, s.best, s.sigma
        )
    });
    println!("# best fitness {:.0}", result.fitness);
    println!("# weights {:?}", result.weights);
    let a = result.weights.to_array();
    println!("# --start {}", a.map(|x| x.to_string()).join(","));
}
