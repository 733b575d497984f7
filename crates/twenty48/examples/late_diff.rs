//! What a late-stage network (`twenty48::ai::ntuple::late`, trained by `train --late-of shipped`) would cost compiled
//! in: its weights' differences from the compiled-in network, each rounded to a multiple of that network's step times
//! `--scale`, kept where not zero, as a sparse file (`twenty48::ai::ntuple::sparse`) to be added back to the
//! compiled-in weights.
//!
//! `cargo run --release -p twenty48 --example late_diff -- LATE [--scale K] [--out FILE] [--net-out NET]` prints how
//! many weights differ by half a rounded step or more (and how many by more than four), and the file's size; `--out`
//! writes the file, `--net-out` the late-stage network as the program would read it back (the compiled-in weights plus
//! the rounded differences), a training checkpoint that `--late NET` plays with.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use twenty48::ai::ntuple::{Network, WEIGHTS, compiled_in, encode_sparse, load, save};

fn main() {
    let mut args = std::env::args().skip(1);
    let usage = "usage: late_diff LATE [--scale K] [--out FILE] [--net-out NET]";
    let late_path = PathBuf::from(args.next().expect(usage));
    let (mut scale, mut out, mut net_out) = (1f32, None, None);
    while let Some(flag) = args.next() {
        let value = args.next().expect(usage);
        match flag.as_str() {
            "--scale" => {
                scale = value
                    .parse()
                    .ok()
                    .filter(|k: &f32| (1.0..=64.0).contains(k) && k.fract() == 0.0)
                    .expect("--scale: a whole number from 1 to 64")
            }
            "--out" => out = Some(PathBuf::from(value)),
            "--net-out" => net_out = Some(PathBuf::from(value)),
            _ => panic!("{usage}"),
        }
    }
    let main = compiled_in().expect("the compiled-in network");
    let steps = main
        .packed()
        .expect("the compiled-in network is packed")
        .steps();
    let late = load(&late_path).expect("the late-stage network");
    let diff = Network::new(0.0);
    let tuple_size = WEIGHTS / steps.len();
    let (mut differ, mut far) = (0u64, 0u64);
    for i in 0..WEIGHTS {
        let step = steps[i / tuple_size] * scale;
        let d = ((late.weight(i) - main.weight(i)) / step).round();
        if d != 0.0 {
            differ += 1;
            far += u64::from(d.abs() > 4.0);
            diff.set_weight(i, d * step);
        }
    }
    diff.set_games(late.games());
    let steps = steps.map(|s| s * scale);
    let bytes = encode_sparse(&diff, &|i| diff.weight(i) != 0.0, &steps);
    println!(
        "steps {steps:?}: {differ} weights differ by half a step or more ({far} by more than four steps); the sparse file of the differences: {} bytes",
        bytes.len()
    );
    if let Some(out) = out {
        std::fs::write(&out, &bytes).expect("the file written");
        println!("written to {}", out.display());
    }
    if let Some(net_out) = net_out {
        let rounded = Network::new(0.0);
        for i in 0..WEIGHTS {
            rounded.set_weight(i, main.weight(i) + diff.weight(i));
        }
        rounded.set_games(late.games());
        save(&rounded, &net_out, 1).expect("the network written");
        println!(
            "the late-stage network as read back written to {}",
            net_out.display()
        );
    }
}
