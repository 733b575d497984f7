//! The endgame solver against the naive reference on every position of small formations, the fixed-tile rule and the
//! target test as documented, checkpoints (resumed builds, damaged files refused and rebuilt), chained tables, the
//! advisor, and stores distilled from tables.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use parlor_lab::endgame::checkpoint::{self, CheckpointError, Kind};
use parlor_lab::endgame::naive::Naive;
use parlor_lab::endgame::{LayerReport, Pass, Solver, Table};
use twenty48::Board;
use twenty48::Direction;
use twenty48::endgame::Formation;

/// The fixed tiles of a formation picture as the reference takes them.
fn fixed_of(picture: &str) -> Vec<(usize, usize, u8)> {
    let mut out = Vec::new();
    for (r, row) in picture.split('/').enumerate() {
        for (c, ch) in row.chars().enumerate() {
            if let Some(e) = ch.to_digit(16) {
                out.push((r, c, e as u8));
            }
        }
    }
    out
}

fn solve(picture: &str, target: u64, four: f64) -> (Formation, Table) {
    let f = Formation::parse(picture, target).unwrap();
    let mut s = Solver::in_memory(f.clone(), four);
    s.build(&mut |_| {}).unwrap();
    (f, s.table().unwrap())
}

/// Every position of the table is one the reference reaches from the starts and back, with the same value to the bit.
fn check_against_naive(picture: &str, target: u64, four: f64) -> usize {
    let (f, table) = solve(picture, target, four);
    let mut naive = Naive::new(fixed_of(picture), target.trailing_zeros() as u8, four);
    for (b, _) in f.starts(four) {
        let board = Board::from_bitboard(b);
        let v = naive.value(&board);
        assert_eq!(
            Some(v),
            table.value(b),
            "{picture} {target}: start {b:016x}"
        );
    }
    assert_same_positions_and_values(&table, &naive, &format!("{picture} {target} {four}"));
    table.len()
}

/// The table holds exactly the positions the reference met, each with the reference's value to the bit.
fn assert_same_positions_and_values(table: &Table, naive: &Naive, what: &str) {
    let solver = entries_by_cells(table);
    assert_eq!(solver.len(), table.len(), "{what}: positions are distinct");
    assert_eq!(
        solver.len(),
        naive.memo().len(),
        "{what}: the same positions"
    );
    assert_values_agree(&solver, naive, what);
}

/// Every position the reference met is in `solver`, with the reference's value to the bit.
fn assert_values_agree(solver: &HashMap<Vec<u8>, f32>, naive: &Naive, what: &str) {
    for (cells, v) in naive.memo() {
        let s = solver.get(cells).copied();
        assert_eq!(
            s.map(f32::to_bits),
            Some(v.to_bits()),
            "{what}: {cells:?}: solver {s:?}, reference {v}"
        );
    }
}

/// A table's positions by their cells (the reference's keys), with their values.
fn entries_by_cells(table: &Table) -> HashMap<Vec<u8>, f32> {
    table
        .entries()
        .map(|(b, v)| (Naive::cells(&Board::from_bitboard(b)), v))
        .collect()
}

#[test]
fn equals_the_reference_on_every_position() {
    let cases: &[(&str, u64)] = &[
        ("fedc/89ab/7654/....", 8),
        ("fedc/89ab/7654/....", 32),
        ("fedc/89ab/76../54..", 16),
        ("fedc/89ab/76../54..", 64),
        ("fedc/89ab/765./....", 32),
        ("fedc/89ab/765./....", 64),
        // Free cells on two sides of a fixed tile, and a fixed 8 that free 8s would merge into.
        ("fedc/8.9a/3.../....", 16),
        // Fixed tiles at the edge of the free area in both directions.
        ("f..e/d..c/..../ba98", 16),
    ];
    let mut total = 0;
    for &(picture, target) in cases {
        for four in [0.1, 0.3] {
            total += check_against_naive(picture, target, four);
        }
    }
    assert!(total > 10_000, "{total} positions checked");
}

/// A board from four rows of exponents.
fn board(rows: [[u8; 4]; 4]) -> u64 {
    let mut b = 0;
    for (r, row) in rows.iter().enumerate() {
        for (c, &e) in row.iter().enumerate() {
            b |= (e as u64) << (4 * (4 * r + c));
        }
    }
    b
}

#[test]
fn the_fixed_tile_rule_as_documented() {
    let f = Formation::parse("..../..../..ab/fedc", 64).unwrap();
    let t = twenty48::bitboard::tables();
    // Row 2's free cells are empty: left would shift the fixed 1024 and 2048, up would lift them.
    let b = board([[1, 0, 0, 0], [0, 0, 0, 0], [0, 0, 10, 11], [15, 14, 13, 12]]);
    assert!(f.allowed(t, b, Direction::Left).is_none());
    assert!(f.allowed(t, b, Direction::Up).is_none());
    // Right moves only the free 2: allowed; down moves it onto the free cell (2, 0): allowed.
    assert_eq!(
        f.allowed(t, b, Direction::Right),
        Some(board([
            [0, 0, 0, 1],
            [0, 0, 0, 0],
            [0, 0, 10, 11],
            [15, 14, 13, 12]
        ]))
    );
    assert!(f.allowed(t, b, Direction::Down).is_some());
    // With row 2 full, left keeps the fixed tiles in place and is allowed.
    let full = board([[0, 0, 0, 0], [0, 0, 0, 0], [1, 2, 10, 11], [15, 14, 13, 12]]);
    assert!(
        f.allowed(t, full, Direction::Left).is_none(),
        "nothing moves"
    );
    let gap = board([[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 10, 11], [15, 14, 13, 12]]);
    // Left merges the two 2s and pulls the 1024 and 2048 left: not allowed.
    assert!(f.allowed(t, gap, Direction::Left).is_none());
    // Right would merge them toward the fixed tiles without moving those: allowed.
    assert_eq!(
        f.allowed(t, gap, Direction::Right),
        Some(board([
            [0, 0, 0, 0],
            [0, 0, 0, 0],
            [0, 2, 10, 11],
            [15, 14, 13, 12]
        ]))
    );
    // A free tile merging into a fixed tile of its value is not allowed, nor are two fixed tiles merging.
    let g = Formation::parse("3.../..../..../....", 16).unwrap();
    let m = board([[3, 3, 0, 0], [0; 4], [0; 4], [0; 4]]);
    assert!(g.allowed(t, m, Direction::Left).is_none());
    assert!(
        g.allowed(t, m, Direction::Right).is_none(),
        "the fixed 8 would move"
    );
    assert!(
        g.allowed(t, m, Direction::Down).is_none(),
        "the fixed 8 would move"
    );
    let h = Formation::parse("33../..../..../....", 16).unwrap();
    let two = board([[3, 3, 1, 0], [1, 0, 0, 0], [0; 4], [0; 4]]);
    assert!(h.allowed(t, two, Direction::Left).is_none());
    assert!(h.allowed(t, two, Direction::Right).is_none());
}

#[test]
fn the_target_and_a_dead_position_as_documented() {
    let picture = "fedc/89ab/7654/....";
    let (f, table) = solve(picture, 32, 0.1);
    // Two 16s side by side: left or right builds the 32 in a free cell, worth 1 before any spawn.
    let b = board([[15, 14, 13, 12], [8, 9, 10, 11], [7, 6, 5, 4], [4, 4, 0, 0]]);
    assert!(f.holds(b));
    let moves = table.moves(b).unwrap();
    assert_eq!(moves[0].1, 1.0);
    assert!(
        moves
            .iter()
            .any(|&(d, v)| d == Direction::Right && v == 1.0)
    );
    // (This position is not reachable from the starts, so the table does not hold it; its moves need only children.)
    assert_eq!(table.value(b), None);
    // A free row of four different tiles: no move changes it without moving the fixed tiles: worth 0.
    let dead = board([[15, 14, 13, 12], [8, 9, 10, 11], [7, 6, 5, 4], [1, 2, 3, 1]]);
    assert_eq!(table.moves(dead), Some(vec![]));
    assert_eq!(table.value(dead), Some(0.0));
    // Not in the formation: a target tile already in a free cell, or a fixed tile out of place.
    assert!(!f.holds(board([
        [15, 14, 13, 12],
        [8, 9, 10, 11],
        [7, 6, 5, 4],
        [5, 0, 0, 0]
    ])));
    assert!(!f.holds(board([
        [14, 15, 13, 12],
        [8, 9, 10, 11],
        [7, 6, 5, 4],
        [1, 0, 0, 0]
    ])));
    assert_eq!(
        table.value(board([
            [14, 15, 13, 12],
            [8, 9, 10, 11],
            [7, 6, 5, 4],
            [1, 0, 0, 0]
        ])),
        None
    );
    // A harder target is never easier.
    let (_, easier) = solve(picture, 16, 0.1);
    for (b, v) in table.entries() {
        if let Some(e) = easier.value(b) {
            assert!(e >= v, "{b:016x}: 16 {e} < 32 {v}");
        }
    }
}

/// A fresh folder under the system's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("t48-endgame-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn build_on_disk(f: &Formation, dir: &Path) -> (Vec<LayerReport>, Vec<(u64, f32)>) {
    let mut reports = Vec::new();
    let mut s = Solver::on_disk(f.clone(), 0.1, dir).unwrap();
    s.build(&mut |r| reports.push(r.clone())).unwrap();
    let entries = s.table().unwrap().entries().collect();
    (reports, entries)
}

#[test]
fn checkpoints_resume_and_refuse_damage() {
    let f = Formation::parse("fedc/89ab/765./....", 64).unwrap();
    let mut mem = Solver::in_memory(f.clone(), 0.1);
    mem.build(&mut |_| {}).unwrap();
    let want: Vec<(u64, f32)> = mem.table().unwrap().entries().collect();
    let dir = scratch("resume");
    let (first, got) = build_on_disk(&f, &dir);
    assert_eq!(got, want, "on disk as in memory");
    assert!(first.iter().all(|r| !r.resumed && r.refused.is_none()));
    let sums: Vec<u32> = first
        .iter()
        .filter(|r| r.pass == Pass::Forward)
        .map(|r| r.sum)
        .collect();
    assert!(sums.len() > 10);

    // Run again: every layer is read back.
    let (again, got) = build_on_disk(&f, &dir);
    assert_eq!(got, want);
    assert!(again.iter().all(|r| r.resumed));

    // A build killed part way: the later states and the lower values are gone; it resumes and ends the same.
    let cut = sums[sums.len() / 2];
    for &s in &sums {
        if s > cut {
            std::fs::remove_file(checkpoint::path(&dir, Kind::States, s)).unwrap();
        }
        let _ = std::fs::remove_file(checkpoint::path(&dir, Kind::Values, s));
    }
    let (resumed, got) = build_on_disk(&f, &dir);
    assert_eq!(got, want);
    let fwd = |r: &&LayerReport| r.pass == Pass::Forward;
    assert!(
        resumed
            .iter()
            .filter(fwd)
            .all(|r| r.resumed == (r.sum <= cut))
    );

    // A flipped byte in a states file and in a values file: refused, computed again, the same table.
    let fp = mem.fingerprint();
    let states = checkpoint::path(&dir, Kind::States, cut);
    let mut bytes = std::fs::read(&states).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    std::fs::write(&states, &bytes).unwrap();
    assert!(matches!(
        checkpoint::read_states(&dir, fp, cut),
        Err(CheckpointError::Refused {
            why: "checksum mismatch",
            ..
        })
    ));
    let values = checkpoint::path(&dir, Kind::Values, sums[2]);
    let mut vb = std::fs::read(&values).unwrap();
    let last = vb.len() - 9;
    vb[last] ^= 0x01;
    std::fs::write(&values, &vb).unwrap();
    let (repaired, got) = build_on_disk(&f, &dir);
    assert_eq!(got, want);
    let refused: Vec<(Pass, u32)> = repaired
        .iter()
        .filter(|r| r.refused.is_some())
        .map(|r| (r.pass, r.sum))
        .collect();
    assert_eq!(
        refused,
        vec![(Pass::Forward, cut), (Pass::Backward, sums[2])]
    );
    assert!(
        checkpoint::read_states(&dir, fp, cut).unwrap().is_some(),
        "rewritten"
    );

    // A truncated file and another formation's file are refused too.
    let p = checkpoint::path(&dir, Kind::States, sums[3]);
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 8]).unwrap();
    assert!(matches!(
        checkpoint::read_states(&dir, fp, sums[3]),
        Err(CheckpointError::Refused {
            why: "wrong length",
            ..
        })
    ));
    let other = Formation::parse("fedc/89ab/765./....", 32).unwrap();
    assert!(matches!(
        checkpoint::read_states(&dir, other.fingerprint() ^ 0.1f64.to_bits(), sums[4]),
        Err(CheckpointError::Refused {
            why: "another formation or target",
            ..
        })
    ));
    // No temporary file is left behind.
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(name.ends_with(".bin") || name == "formation.txt", "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A chained table (a goal cell, valued by the next stage's table built with the exits added to its starts), built
/// in memory and on disk, against the naive reference chained the same way: every position the same to the bit.
fn check_chained_against_naive(picture: &str, target: u64, next_picture: &str, next_target: u64) {
    let four = 0.1;
    let f = Formation::parse(picture, target).unwrap();
    let nf = Formation::parse(next_picture, next_target).unwrap();
    let mut s = Solver::in_memory(f.clone(), four);
    s.forward(&mut |_| {}).unwrap();
    let exits = s.exits(&nf).unwrap();
    assert!(!exits.is_empty(), "{picture}: the goal can be reached");
    let mut inner = Solver::in_memory(nf.clone(), four);
    let mut plain = Solver::in_memory(nf.clone(), four);
    plain.build(&mut |_| {}).unwrap();
    inner.add_starts(exits.clone()).unwrap();
    inner.build(&mut |_| {}).unwrap();
    let next = std::sync::Arc::new(inner.table().unwrap());
    assert!(
        next.len() > plain.table().unwrap().len(),
        "{picture}: the exits add positions the next table's own starts never reach"
    );
    assert!(exits.iter().all(|&k| next.key_value(k).is_some()));
    let mut s = s.chained(std::sync::Arc::clone(&next)).unwrap();
    s.backward(&mut |_| {}).unwrap();
    let (asked, missed) = s.next_misses();
    assert!(
        asked > 0 && missed == 0,
        "{picture}: {asked} asked, {missed} missed"
    );
    let table = s.table().unwrap();

    let goal = f.goal().unwrap();
    let next_naive = Naive::new(
        fixed_of(next_picture),
        next_target.trailing_zeros() as u8,
        four,
    );
    let mut naive = Naive::new(fixed_of(picture), target.trailing_zeros() as u8, four)
        .with_goal((goal as usize / 4, goal as usize % 4), Some(next_naive));
    for (b, _) in f.starts(four) {
        naive.value(&Board::from_bitboard(b));
    }
    assert_same_positions_and_values(&table, &naive, picture);
    // The next stage's positions the reference met are in the next table, with its values.
    let next_naive = naive.next().unwrap();
    assert!(!next_naive.memo().is_empty());
    assert_values_agree(&entries_by_cells(&next), next_naive, next_picture);
    // A goal reached is worth less than 1 now: the chained table is below the goal-only one somewhere, never above.
    let (_, goal_only) = solve(picture, target, four);
    let mut below = 0;
    for (b, v) in table.entries() {
        let g = goal_only.value(b).unwrap();
        assert!(
            v <= g + 1e-6,
            "{picture}: {b:016x}: chained {v} above goal-only {g}"
        );
        below += usize::from(v < g - 1e-6);
    }
    assert!(below > 0);

    // On disk: the same values, the formation file naming the next stage's folder, a second run reading all back.
    let dir = scratch(&format!("chain-{target}-{next_target}"));
    let build = |dir: &Path| {
        let mut s = Solver::on_disk(f.clone(), four, dir).unwrap();
        let mut reports = Vec::new();
        s.forward(&mut |r| reports.push(r.clone())).unwrap();
        let exits = s.exits(&nf).unwrap();
        let mut inner = Solver::on_disk(nf.clone(), four, &dir.join("next")).unwrap();
        inner.add_starts(exits).unwrap();
        inner.build(&mut |r| reports.push(r.clone())).unwrap();
        let next = std::sync::Arc::new(Table::load(&dir.join("next")).unwrap());
        let mut s = s.chained(next).unwrap();
        s.backward(&mut |r| reports.push(r.clone())).unwrap();
        reports
    };
    let first = build(&dir);
    assert!(first.iter().all(|r| !r.resumed));
    let loaded = Table::load(&dir).unwrap();
    assert_eq!(
        loaded.entries().collect::<Vec<_>>(),
        table.entries().collect::<Vec<_>>()
    );
    assert_eq!(loaded.next().unwrap().len(), next.len());
    let again = build(&dir);
    assert!(again.iter().all(|r| r.resumed), "every layer read back");
    // The next folder is named relative to the chained one: the pair can be moved whole.
    let moved = scratch(&format!("chain-{target}-{next_target}-moved"));
    std::fs::rename(&dir, &moved).unwrap();
    assert_eq!(Table::load(&moved).unwrap().len(), table.len());
    std::fs::rename(&moved, &dir).unwrap();
    // A formation file with a line it does not know is refused.
    let file = dir.join("formation.txt");
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("\nnext next\n"), "{text}");
    std::fs::write(&file, format!("{text}later 5\n")).unwrap();
    assert!(Table::load(&dir).is_err());
    std::fs::write(&file, &text).unwrap();
    assert!(Table::load(&dir).is_ok());
    // A chained folder whose next stage went missing is refused, never read with other values.
    std::fs::remove_dir_all(dir.join("next")).unwrap();
    assert!(Table::load(&dir).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn tables_that_do_not_fit_are_not_chained() {
    use parlor_lab::endgame::EndgameError;
    let (_, next) = solve("fedc/89ab/76../....", 16, 0.1);
    let next = std::sync::Arc::new(next);
    let chain = |picture: &str, four: f64| {
        let f = Formation::parse(picture, 16).unwrap();
        Solver::in_memory(f, four).chained(std::sync::Arc::clone(&next))
    };
    assert!(chain("fedc/89ab/7*../....", 0.1).is_ok());
    for (picture, four) in [
        ("fedc/89ab/7.../....", 0.1),
        ("fedc/89ab/7*.5/....", 0.1),
        ("fedc/89ab/7*../...5", 0.1),
        ("fedc/89ab/7*../....", 0.2),
    ] {
        assert!(
            matches!(chain(picture, four), Err(EndgameError::Chain(_))),
            "{picture} {four}"
        );
    }
    // A table built on disk chains only to a table read from its folder (the folder is written down).
    let dir = scratch("chain-refused");
    let f = Formation::parse("fedc/89ab/7*../....", 16).unwrap();
    let on_disk = Solver::on_disk(f, 0.1, &dir).unwrap();
    assert!(matches!(on_disk.chained(next), Err(EndgameError::Chain(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_chained_table_equals_the_reference_on_every_position() {
    check_chained_against_naive("fedc/89ab/7*../....", 16, "fedc/89ab/76../....", 16);
    check_chained_against_naive("fedc/89ab/*.../....", 32, "fedc/89ab/7.../....", 16);
}

#[test]
fn the_advisor_reads_real_boards_under_every_symmetry() {
    use parlor_lab::endgame::Advisor;
    use twenty48::bitboard::slide;
    use twenty48::endgame::symmetry::symmetry;
    let (f, table) = solve("fedc/89ab/..../....", 32, 0.1);
    let advisor = Advisor::new(table);
    let t = advisor.table();
    let (mut checked, mut played) = (0, 0);
    for (b, _) in t.entries().step_by(37) {
        let best = t.moves(b).unwrap().first().map(|m| m.1);
        for k in 0..8 {
            let mask = symmetry(f.fixed_mask(), k);
            // The same position with other large tiles in the fixed cells (all different, at least the target).
            let s = symmetry(b, k);
            let mut real = s & !mask;
            for cell in 0..16 {
                if (mask >> (4 * cell)) & 0xF != 0 {
                    let e = (s >> (4 * cell)) & 0xF;
                    real |= (8 + (e - 8 + 3) % 8) << (4 * cell);
                }
            }
            let got = advisor.advise(real);
            // A formation that is its own mirror image may be read either way: the same value but for the last bits
            // of the sums, taken over the cells in another order.
            assert_eq!(got.is_some(), best.is_some(), "{real:016x}");
            if let (Some((_, v)), Some(w)) = (got, best) {
                assert!((v - w).abs() < 1e-6, "{real:016x}: {v} {w}");
            }
            if let Some((d, _)) = got {
                let after = slide(real, d);
                assert_ne!(after, real);
                assert_eq!(after & mask, real & mask, "the large tiles stay");
                played += 1;
            }
            checked += 1;
        }
    }
    assert!(checked > 1000 && played > checked / 2, "{checked} {played}");
    // Not matched: two equal large tiles side by side, or a free tile of the target's size.
    let b = t.entries().nth(100).unwrap().0;
    assert!(advisor.advise(b).is_some() || t.moves(b).unwrap().is_empty());
    let equal = (b & !0xFF) | 0xBB;
    assert_eq!(advisor.advise(equal), None);
    let big = (b & !(0xF << 60)) | 5 << 60;
    assert_eq!(advisor.advise(big), None);
}

#[test]
fn a_distilled_store_gives_the_tables_moves_and_refuses_damage() {
    use parlor_lab::endgame::Advisor;
    use twenty48::endgame::distill::{Entry, Store};
    use twenty48::endgame::symmetry::symmetry;
    let (f, table) = solve("fedc/89ab/..../....", 32, 0.1);
    let mut entries = Vec::new();
    let mut left_out = Vec::new();
    for (i, (b, _)) in table.entries().enumerate() {
        let Some(&(dir, value)) = table.moves(b).unwrap().first() else {
            continue;
        };
        let e = Entry {
            key: f.key(b),
            dir,
            value,
        };
        if i % 3 == 0 {
            entries.push(e);
        } else {
            left_out.push(e);
        }
    }
    let store = Store::build(f.clone(), 0.1, &entries).unwrap();
    assert_eq!(store.len(), entries.len());
    for e in &entries {
        let (d, v) = store.get(e.key).unwrap();
        assert_eq!(d, e.dir);
        assert!((v - e.value).abs() <= 0.5 / 65535.0 + 1e-7);
    }
    // Positions not stored are told apart by the 14-bit check but for about 1 in 16,383.
    let false_hits = left_out
        .iter()
        .filter(|e| store.get(e.key).is_some())
        .count();
    assert!(
        false_hits * 4000 < left_out.len(),
        "{false_hits} of {}",
        left_out.len()
    );
    // On real boards under the symmetries, the stored move is the full table's.
    let advisor = Advisor::new(table);
    for e in entries.iter().step_by(101) {
        for k in 0..8 {
            let real = symmetry(f.board(e.key), k);
            let (d, v) = store.advise(real).unwrap();
            let (td, tv) = advisor.advise(real).unwrap();
            assert!((v - tv).abs() <= 0.5 / 65535.0 + 1e-6);
            // Ties between moves may be broken either way; the stored move is worth the table's best.
            if d != td {
                let after = twenty48::bitboard::slide(real, d);
                assert!((advisor.after_value(after).unwrap() - tv).abs() < 1e-6);
            }
        }
    }
    // The file: read back the same; a flipped bit anywhere, a cut or a longer file is refused.
    let bytes = store.to_bytes();
    assert!(
        bytes.len() < 5 * entries.len() + 100,
        "{} bytes",
        bytes.len()
    );
    assert_eq!(Store::from_bytes(&bytes).unwrap(), store);
    let ends = [0, 5, 20, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1];
    assert_flips_refused(&bytes, ends, 0x10);
    assert!(Store::from_bytes(&bytes[..bytes.len() - 4]).is_err());
    let mut longer = bytes.clone();
    longer.extend_from_slice(&[0; 8]);
    assert!(Store::from_bytes(&longer).is_err());
    assert!(Store::from_bytes(&[]).is_err());
}

/// A store's bytes with `mask` flipped at each of `places` are refused as damaged, one place at a time.
fn assert_flips_refused(bytes: &[u8], places: impl IntoIterator<Item = usize>, mask: u8) {
    use twenty48::endgame::distill::{Store, StoreError};
    for at in places {
        let mut bad = bytes.to_vec();
        bad[at] ^= mask;
        assert!(
            matches!(Store::from_bytes(&bad), Err(StoreError::Refused(_))),
            "byte {at}"
        );
    }
}

/// Every position of a table that has a move, with its best move and value, as a store takes them.
fn best_entries(f: &Formation, table: &Table) -> Vec<twenty48::endgame::distill::Entry> {
    table
        .entries()
        .filter_map(|(b, _)| {
            let &(dir, value) = table.moves(b).unwrap().first()?;
            Some(twenty48::endgame::distill::Entry {
                key: f.key(b),
                dir,
                value,
            })
        })
        .collect()
}

/// A moves-only store (version 2) keeps, in the same slots, the move of every position at or above its floor and
/// forgets the others; it is about 2.6 bytes a position, reads back the same, and refuses damage like version 1.
#[test]
fn a_moves_only_store_keeps_the_moves_above_its_floor_in_half_the_bytes() {
    use twenty48::endgame::distill::Store;
    let (f, table) = solve("fedc/89ab/..../....", 64, 0.1);
    let entries = best_entries(&f, &table);
    let floor = 0.5;
    let below = entries.iter().filter(|e| e.value < floor).count();
    assert!(below > 100 && below < entries.len() - 100, "{below} below");
    let full = Store::build(f.clone(), 0.1, &entries).unwrap();
    let small = full.moves_only(floor);
    assert_eq!((full.floor(), small.floor()), (None, Some(floor)));
    assert_eq!(small.len(), entries.len() - below);
    for e in &entries {
        // The stored value rounds to 16 bits: a position within a step of the floor may fall on either side.
        if (e.value - floor).abs() < 1.0 / 65535.0 {
            continue;
        }
        match small.get(e.key) {
            Some((d, v)) => {
                assert!(e.value >= floor, "{e:?} kept");
                assert_eq!((d, v), (e.dir, floor));
            }
            None => assert!(e.value < floor, "{e:?} lost"),
        }
    }
    // A higher floor forgets more; a moves-only store has no values left to choose by, and stays as it is.
    assert!(full.moves_only(0.9).len() < small.len());
    assert_eq!(small.moves_only(0.9), small);
    let bytes = small.to_bytes();
    let per_slot = (bytes.len() - 100) as f64 / (entries.len() as f64 / 0.97);
    assert!(per_slot < 2.6, "{per_slot:.2} bytes a slot");
    assert!(bytes.len() * 10 < full.to_bytes().len() * 6);
    assert_eq!(Store::from_bytes(&bytes).unwrap(), small);
    let ends = [0, 4, 20, bytes.len() / 2, bytes.len() - 9, bytes.len() - 1];
    assert_flips_refused(&bytes, ends, 0x04);
    assert!(Store::from_bytes(&bytes[..bytes.len() - 2]).is_err());
}

/// Stores asked in turn: a board two stores hold takes the first one's move; a board only the second holds, or one the
/// first holds below the minimum asked for, takes the second's.
#[test]
fn stores_are_asked_in_turn() {
    use twenty48::endgame::Stores;
    use twenty48::endgame::distill::Store;
    let store_of = |target: u64| {
        let (f, table) = solve("fedc/89ab/..../....", target, 0.1);
        let entries = best_entries(&f, &table);
        (Store::build(f, 0.1, &entries).unwrap(), table)
    };
    let (small, small_table) = store_of(16);
    let (large, large_table) = store_of(32);
    let stores = Stores::new(vec![small.clone(), large.clone()]);
    let larger_first = Stores::new(vec![large.clone(), small.clone()]);
    assert_eq!(stores.len(), small.len() + large.len());
    let (mut both, mut second_only, mut below) = (0, 0, 0);
    for (b, _) in large_table.entries().step_by(7) {
        let (Some(l), s) = (large.advise(b), small.advise(b)) else {
            continue;
        };
        match s {
            Some(s) => {
                both += 1;
                assert_eq!(stores.advise(b, 0.0), Some(s));
                // The other order: asked for more than the first store's value, the second's move.
                assert_eq!(larger_first.advise(b, 0.0), Some(l));
                if l.1 < s.1 {
                    below += 1;
                    assert_eq!(larger_first.advise(b, (s.1 + l.1) / 2.0), Some(s));
                }
            }
            None => {
                second_only += 1;
                assert_eq!(stores.advise(b, 0.0), Some(l));
            }
        }
    }
    assert!(
        both > 100 && second_only > 100 && below > 0,
        "{both} {second_only} {below}"
    );
    assert!(small_table.len() < large_table.len());
    assert_eq!(Stores::new(vec![]).advise(0x1234, 0.0), None);
    assert!(stores.to_string().starts_with("fedc/89ab/..../.... 16 ("));
}
