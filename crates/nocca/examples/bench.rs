//! Search benchmark (fixed positions, fixed depth): `cargo run -p nocca --release --example bench`.

// Examples (developer tools run by hand) stop loudly on a failed setup: unwrap, expect and panic are allowed here.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

fn main() {
    let r = nocca::bench();
    println!(
        "bench: {} nodes in {:.3} s, {:.0} nodes/s, signature {}",
        r.nodes,
        r.elapsed.as_secs_f64(),
        r.nps,
        r.signature
    );
}
