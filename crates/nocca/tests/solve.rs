//! The retrograde solver against plain references, its table files, and perfect play against every level.

use std::collections::HashMap;

use nocca::solve::reference::{forced_within, reachable, sweep_values};
use nocca::{Dims, Position, SolveOptions, Table, Value};

fn solved(r: usize, c: usize) -> Table {
    Table::solve(
        Dims::new(r, c).unwrap(),
        &SolveOptions::default(),
        &mut |_| {},
    )
    .unwrap()
}

fn agrees_with_sweeps(r: usize, c: usize) {
    let table = solved(r, c);
    let positions = reachable(table.dims());
    let want = sweep_values(&positions);
    let mut seen = [0u64; 3];
    for p in &positions {
        let got = table.value(p).unwrap();
        assert_eq!(got, want[p], "{p}");
        match got {
            Value::Win(d) => {
                assert_eq!(d % 2, 1, "{p}: win in {d}");
                seen[0] += 1;
            }
            Value::Loss(d) => {
                assert_eq!(d % 2, 0, "{p}: loss in {d}");
                seen[1] += 1;
            }
            Value::Draw => seen[2] += 1,
        }
    }
    eprintln!(
        "{r}x{c}: {} reachable: {seen:?}; table {:?}",
        positions.len(),
        table.counts()
    );
}

#[test]
fn solver_agrees_with_sweeps_on_3x3() {
    agrees_with_sweeps(3, 3);
}

#[test]
fn solver_agrees_with_sweeps_on_3x4() {
    agrees_with_sweeps(3, 4);
}
