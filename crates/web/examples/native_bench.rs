//! The page's engine workloads (`parlorBench`), run natively for the ratio: each workload five times in a row, its
//! first run's milliseconds (cold: tables built, pages touched), its best, on Linux the CPU time of all its threads
//! (`/proc/self/task/*/schedstat`; a loaded machine disturbs it less than the wall time), and its result, one line
//! each, as `web-figures` measures the page.
//!
//! `cargo run --release -p parlor-web --example native_bench [NAME...]`

use std::time::Instant;

/// Runs of each workload (as `web-figures`).
const RUNS: usize = 5;

fn main() {
    let asked: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = if asked.is_empty() {
        parlor_web::games::bench::NAMES.to_vec()
    } else {
        asked.iter().map(String::as_str).collect()
    };
    for name in names {
        let mut times = Vec::new();
        let mut cpu = Vec::new();
        let mut result = None;
        for _ in 0..RUNS {
            let (t, c) = (Instant::now(), cpu_ms());
            result = parlor_web::games::bench::run(name);
            times.push(t.elapsed().as_secs_f64() * 1000.0);
            if let (Some(c), Some(now)) = (c, cpu_ms()) {
                cpu.push(now - c);
            }
        }
        cpu.sort_by(f64::total_cmp);
        let cpu = match cpu.as_slice() {
            [] => String::new(),
            all => format!(
                ", CPU (all threads): best {:.1} ms, median {:.1} ms",
                all[0],
                all[all.len() / 2]
            ),
        };
        match result {
            Some(result) => println!(
                "{name}: first {:.1} ms, best of {RUNS} {:.1} ms{cpu} (result {result})",
                times[0],
                times.iter().copied().fold(f64::INFINITY, f64::min)
            ),
            None => {
                eprintln!(
                    "unknown workload {name}; the workloads are {}",
                    parlor_web::games::bench::NAMES.join(", ")
                );
                std::process::exit(2);
            }
        }
    }
}

/// The CPU time of all the process's threads so far, ms (Linux; `None` elsewhere).
fn cpu_ms() -> Option<f64> {
    let mut ns = 0u64;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let text = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        ns += text.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(ns as f64 / 1e6)
}
