//! The page's engine workloads (`parlorBench`), run natively for the ratio: each workload three times in a row, its
//! first run's milliseconds (cold: tables built, pages touched), its best and its result, one line each, as
//! `web-figures` measures the page.
//!
//! `cargo run --release -p parlor-web --example native_bench [NAME...]`

use std::time::Instant;

/// Runs of each workload.
const RUNS: usize = 3;

fn main() {
    let asked: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = if asked.is_empty() {
        parlor_web::bench::NAMES.to_vec()
    } else {
        asked.iter().map(String::as_str).collect()
    };
    for name in names {
        let mut times = Vec::new();
        let mut result = None;
        for _ in 0..RUNS {
            let t = Instant::now();
            result = parlor_web::bench::run(name);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        match result {
            Some(result) => println!(
                "{name}: first {:.1} ms, best of {RUNS} {:.1} ms (result {result})",
                times[0],
                times.iter().copied().fold(f64::INFINITY, f64::min)
            ),
            None => {
                eprintln!(
                    "unknown workload {name}; the workloads are {}",
                    parlor_web::bench::NAMES.join(", ")
                );
                std::process::exit(2);
            }
        }
    }
}
