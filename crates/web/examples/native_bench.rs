//! The page's engine workloads (`parlorBench`), run natively for the ratio: each workload's milliseconds and its
//! result, one line each.
//!
//! `cargo run --release -p parlor-web --example native_bench [NAME...]`

use std::time::Instant;

fn main() {
    let asked: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = if asked.is_empty() {
        parlor_web::bench::NAMES.to_vec()
    } else {
        asked.iter().map(String::as_str).collect()
    };
    for name in names {
        let t = Instant::now();
        match parlor_web::bench::run(name) {
            Some(result) => println!(
                "{name}: {:.1} ms (result {result})",
                t.elapsed().as_secs_f64() * 1000.0
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
