//! `parlor-lab compact`: what [`Args`] says.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use twenty48::Direction;
use twenty48::ai::ntuple::{
    DOWNGRADE_FROM, Network, downgrade, encode_sparse, feature_indices, game_rng,
    greedy_move_downgraded, load, load_bytes, save, spawn_bitboard,
};
use twenty48::bitboard::tables;

/// Makes the sparse network compiled into the program from a trained network.
///
/// Makes the sparse network that is compiled into the program (issue 29) from a trained network: plays seeded greedy
/// games with the network (reading boards through tile downgrading from 16384, as the player does), marks every
/// weight that the evaluation of a board near the game's path reads (`--reach 2`, the default: every after-state a
/// depth-2 search from a board of the path evaluates, that is the four moves, every spawn after each, and the four
/// moves after each spawn; `--reach 1`: the spawns after the move played only), and writes those weights, rounded to a
/// multiple of `--step` points, as a sparse file (`twenty48::ai::ntuple::sparse`). Then it reads the file back and
/// reports its size, its load time and the largest change of a weight kept.
///
/// `cargo run --release -p parlor-lab -- compact --net /tmp/twenty48-ntuple.p48 --games 2000 --seed 777 --step 8 --out /tmp/twenty48-ntuple.p48s --marks /tmp/marks.bin`, then its halves into `crates/twenty48-net-{1,2}/data/` (docs/RELEASING.md)
///
/// (The 51 MB network it was made from left the tree in session 18: `git show
/// 6996a44:crates/twenty48/weights/twenty48-ntuple.p48 > /tmp/twenty48-ntuple.p48` gives it back.)
///
/// `--marks FILE` keeps the marks made so far (saved every 100 games, with the number of games played) and resumes
/// from them: a stopped run continues where it stopped, and a finished one can be written again with another step
/// without replaying its games (with the same `--seed` and `--reach`). `--min-count K` keeps only the weights read at least K times (saturating at 255).
///
/// `--recode` (with `--games 0`) plays nothing and keeps every weight of `--net` that is not zero: with a sparse file
/// as `--net` and its own step, it writes the same weights in the current format. `--keep-from FILE` (with
/// `--games 0`) keeps the weights that are not zero in the sparse file FILE (the positions an earlier run marked and
/// kept), read from `--net` at another `--step`, without replaying the games.
///
/// `--step own` takes each tuple's step from `--net`, which must then be a fixed-point file (the 51 MB network's
/// format): its weights are integers times a scale per tuple, so the sparse file keeps each weight exactly, with no
/// rounding. `--dense` writes the weights kept, rounded to the step, as an exact dense file (`P48NTUPL`, read into the
/// 256 MiB array and summed in `f32`) instead of a sparse one: the rounding alone, without the packed form's sums.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The trained network (a training checkpoint, or a sparse file with --recode).
    #[arg(long, value_name = "FILE")]
    net: PathBuf,
    /// Greedy games played to mark the weights read near their paths.
    #[arg(long, default_value_t = 2000)]
    games: u64,
    /// Seed of the games.
    #[arg(long, default_value_t = 777)]
    seed: u64,
    /// Each weight rounded to a multiple of this many points, or `own` (each tuple's scale of a fixed-point file).
    #[arg(long, default_value = "8", value_parser = step)]
    step: Option<f32>,
    /// The file to write.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Write an exact dense file of the weights kept instead of a sparse one.
    #[arg(long)]
    dense: bool,
    /// Keep the marks made so far in FILE, and resume from them.
    #[arg(long, value_name = "FILE")]
    marks: Option<PathBuf>,
    /// Keep only the weights read at least this many times.
    #[arg(long, default_value_t = 1)]
    min_count: u8,
    /// 2: every after-state a depth-2 search from a board of the path evaluates; 1: the spawns after the move only.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=2))]
    reach: u8,
    /// Play nothing and keep every weight of --net that is not zero (with --games 0).
    #[arg(long)]
    recode: bool,
    /// Keep the weights that are not zero in the sparse file FILE (with --games 0).
    #[arg(long, value_name = "FILE")]
    keep_from: Option<PathBuf>,
}

/// A positive number of points, or `own`.
fn step(s: &str) -> Result<Option<f32>, String> {
    if s == "own" {
        return Ok(None);
    }
    match s.parse::<f32>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(Some(v)),
        _ => Err(format!("'{s}' is not a positive number of points or `own`")),
    }
}

/// Marks the features of `a`'s image under downgrading.
fn mark(counts: &mut [u8], a: u64) {
    for i in feature_indices(downgrade(a, DOWNGRADE_FROM).0) {
        counts[i] = counts[i].saturating_add(1);
    }
}

/// Marks the after-states of every move on `b` (but `skip`).
fn mark_moves(counts: &mut [u8], b: u64, skip: u64) {
    for d in Direction::ALL {
        let a = tables().slide(b, d);
        if a != b && a != skip {
            mark(counts, a);
        }
    }
}

/// Marks `a` and the after-states of every move after every spawn on `a`.
fn mark_spawns(counts: &mut [u8], a: u64) {
    mark(counts, a);
    for c in 0..16 {
        if (a >> (4 * c)) & 0xF == 0 {
            for e in [1u64, 2] {
                mark_moves(counts, a | e << (4 * c), 0);
            }
        }
    }
}

/// Plays greedy game `g` and marks the weights read near its path: with `reach` 2, every weight a depth-2 search
/// from each board of the path reads (each move, each spawn, each move); with `reach` 1, the after-states of the
/// moves and only the spawns after the move played.
fn play(net: &Network, seed: u64, g: u64, reach: u8, counts: &mut [u8]) {
    let mut rng = game_rng(seed, g);
    let mut b = spawn_bitboard(spawn_bitboard(0, &mut rng, 0.1), &mut rng, 0.1);
    while let Some((after, _, _)) = greedy_move_downgraded(net, b, Some(DOWNGRADE_FROM)) {
        if reach >= 2 {
            for d in Direction::ALL {
                let a = tables().slide(b, d);
                if a != b {
                    mark_spawns(counts, a);
                }
            }
        } else {
            mark_moves(counts, b, after);
            mark_spawns(counts, after);
        }
        b = spawn_bitboard(after, &mut rng, 0.1);
    }
}

fn save_marks(path: &PathBuf, done: u64, counts: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&tmp)?);
    f.write_all(&done.to_le_bytes())?;
    f.write_all(counts)?;
    f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(tmp, path)
}

/// The four tuples' scales of a fixed-point network file of one stage (format 3, planes 16): a weight of it is an
/// `i16` times its tuple's scale.
fn fixed_point_scales(path: &PathBuf) -> Result<[f32; 4], String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let word = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            .ok_or("the file is too short")
    };
    // Magic, version, tuples, cells, the 24 cells, games: 52 bytes; then the planes and the number of stages.
    if bytes.get(..8) != Some(b"P48NTUPL") || word(8)? != 3 || word(52)? != 16 || word(56)? != 0 {
        return Err(format!(
            "{}: --step own needs a fixed-point network file of one stage (format 3, planes 16)",
            path.display()
        ));
    }
    let mut scales = [0f32; 4];
    for (t, s) in scales.iter_mut().enumerate() {
        *s = f32::from_bits(word(60 + 4 * t)?);
    }
    Ok(scales)
}

fn run(a: &Args) -> Result<(), Box<dyn std::error::Error>> {
    let net = load(&a.net)?;
    let mut counts = vec![0u8; net.len()];
    let mut done = 0u64;
    if let Some(p) = a.marks.as_ref().filter(|p| p.is_file()) {
        let mut f = std::fs::File::open(p)?;
        let mut head = [0u8; 8];
        f.read_exact(&mut head)?;
        f.read_exact(&mut counts)?;
        done = u64::from_le_bytes(head);
        eprintln!("resuming from {} games of marks", done);
    }
    let start = Instant::now();
    while done < a.games {
        play(&net, a.seed, done, a.reach, &mut counts);
        done += 1;
        if done.is_multiple_of(100) || done == a.games {
            if let Some(p) = &a.marks {
                save_marks(p, done, &counts)?;
            }
            eprintln!(
                "{done} games, {} weights read, {:.0} s",
                counts.iter().filter(|&&c| c > 0).count(),
                start.elapsed().as_secs_f64()
            );
        }
    }
    let from = a.keep_from.as_ref().map(|p| load(p)).transpose()?;
    let keep = |i: usize| {
        if let Some(f) = &from {
            f.weight(i) != 0.0
        } else if a.recode {
            net.weight(i) != 0.0
        } else {
            counts[i] >= a.min_count
        }
    };
    let steps = match a.step {
        Some(s) => [s; 4],
        None => fixed_point_scales(&a.net)?,
    };
    eprintln!("steps {steps:?}");
    let bytes = if a.dense {
        let rounded = Network::new(0.0);
        for i in (0..net.len()).filter(|&i| keep(i)) {
            let step = steps[i / (net.len() / 4)];
            rounded.set_weight(i, (net.weight(i) / step).round() * step);
        }
        rounded.set_games(net.games());
        save(&rounded, &a.out, 6)?;
        std::fs::read(&a.out)?
    } else {
        let bytes = encode_sparse(&net, &keep, &steps);
        std::fs::write(&a.out, &bytes)?;
        bytes
    };
    let start = Instant::now();
    let back = load_bytes(&bytes, &a.out.display().to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    let worst = (0..net.len())
        .filter(|&i| keep(i))
        .map(|i| (net.weight(i) - back.weight(i)).abs())
        .fold(0f32, f32::max);
    println!(
        "{}: {} bytes ({:.2} MiB), {} weights kept of {} marked, loaded in {:.3} s; largest change of a kept weight {worst}",
        a.out.display(),
        bytes.len(),
        bytes.len() as f64 / (1u64 << 20) as f64,
        back.nonzero(),
        (0..net.len()).filter(|&i| keep(i)).count(),
        seconds
    );
    Ok(())
}

/// Runs the tool.
pub fn main(args: Args) -> ExitCode {
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
