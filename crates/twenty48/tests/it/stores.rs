//! The endgame knowledge the player ships: formation pictures and keys, the board's symmetries, and the compiled-in
//! distilled stores (their checks, and a damaged store refused). The solver and distilling are tested in
//! `crates/lab`.

use twenty48::endgame::Formation;

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
fn formation_pictures_and_keys() {
    let f = Formation::parse("fedc/89ab/..../....", 256).unwrap();
    assert_eq!(f.to_string(), "fedc/89ab/..../.... 256");
    assert_eq!(Formation::parse(&f.to_string()[..19], 256).unwrap(), f);
    for bad in [
        "fedc/89ab/..../...",
        "fedc/89ab/..../..../....",
        "fedc/89ab/..g./....",
        "fedc/89ab/7654/321.",
    ] {
        assert!(Formation::parse(bad, 256).is_err(), "{bad}");
    }
    assert!(Formation::parse("fedc/89ab/..../....", 3).is_err());
    assert!(Formation::parse("fedc/89ab/..../....", 48).is_err());
    let b = board([[15, 14, 13, 12], [8, 9, 10, 11], [1, 0, 2, 0], [7, 0, 0, 3]]);
    let k = f.key(b);
    assert_eq!(k, 0x1020_7003);
    assert_eq!(f.board(k), b);
    assert_eq!(f.key_sum(k), 2 + 4 + 128 + 8);
    // The starts: every pair of free cells with a 2 or a 4 each, probabilities summing to 1.
    let starts = f.starts(0.1);
    assert_eq!(starts.len(), 28 * 4);
    let total: f64 = starts.iter().map(|s| s.1).sum();
    assert!((total - 1.0).abs() < 1e-12);

    // A goal cell: a free cell, printed back as it was given, at most one; it changes the fingerprint.
    let g = Formation::parse("fedc/89ab/7*../....", 32).unwrap();
    assert_eq!(g.to_string(), "fedc/89ab/7*../.... 32");
    assert_eq!((g.goal(), g.free_cells().len()), (Some(9), 7));
    let plain = Formation::parse("fedc/89ab/7.../....", 32).unwrap();
    assert_eq!(plain.goal(), None);
    assert_ne!(g.fingerprint(), plain.fingerprint());
    assert!(matches!(
        Formation::parse("fedc/89ab/7**./....", 32),
        Err(twenty48::endgame::FormationError::TwoGoals(_))
    ));
    // The target in the goal cell reaches the goal; in another free cell it reaches the target only.
    let at_goal = g.key(board([
        [15, 14, 13, 12],
        [8, 9, 10, 11],
        [7, 5, 1, 0],
        [0; 4],
    ]));
    let elsewhere = g.key(board([
        [15, 14, 13, 12],
        [8, 9, 10, 11],
        [7, 1, 5, 0],
        [0; 4],
    ]));
    assert!(g.key_reaches_target(at_goal) && g.key_reaches_goal(at_goal));
    assert!(g.key_reaches_target(elsewhere) && !g.key_reaches_goal(elsewhere));
    assert!(plain.key_reaches_goal(plain.key(board([
        [15, 14, 13, 12],
        [8, 9, 10, 11],
        [7, 1, 5, 0],
        [0; 4]
    ]))));
}

/// The stores compiled into the program (crates/twenty48/data/) pass their checksums and every count, are of the
/// formations and targets the player expects, in the order it asks them (the 512 first), moves-only with the floor
/// play uses, hold the positions they were distilled to hold, and fit beside the compiled-in network under the issue's
/// cap of 16,000,000 bytes; the network player asks them. A build whose store was damaged fails here.
#[test]
fn the_compiled_in_stores_pass_their_checks() {
    use twenty48::ai::{EvalKind, Player, SearchConfig, ntuple};
    use twenty48::endgame::shipped;
    let stores = shipped::compiled_in().unwrap_or_else(|e| panic!("{e}"));
    let got: Vec<(String, f64, Option<f32>, usize)> = stores
        .iter()
        .map(|s| {
            (
                s.formation().to_string(),
                s.four_chance(),
                s.floor(),
                s.len(),
            )
        })
        .collect();
    let floor = Some(shipped::MIN_SUCCESS);
    assert_eq!(got.len(), 2);
    assert_eq!(
        (&got[0].0, got[0].1, got[0].2),
        (&"..../..../..ab/fedc 512".to_string(), 0.1, floor)
    );
    assert_eq!(
        (&got[1].0, got[1].1, got[1].2),
        (&"..../..../..ab/fedc 256".to_string(), 0.1, floor)
    );
    assert!(got[0].3 >= 100_000, "{} positions", got[0].3);
    assert!(got[1].3 >= 270_000, "{} positions", got[1].3);
    let total =
        ntuple::COMPILED_IN.len() + shipped::COMPILED_IN.iter().map(|b| b.len()).sum::<usize>();
    assert!(
        total <= 16_000_000,
        "{total} bytes compiled in, the cap is 16,000,000"
    );
    assert_eq!(**shipped::shipped().unwrap(), stores);
    let (player, error) = Player::with_eval(SearchConfig::depth(1), EvalKind::Network);
    assert!(error.is_none());
    assert!(player.has_advice(), "the network player asks the stores");
    let (player, _) = Player::with_eval(SearchConfig::depth(1), EvalKind::Heuristic);
    assert!(!player.has_advice());
}

/// A damaged copy of a compiled-in store is refused, whichever byte is changed, and so is a cut or longer copy: the
/// checksum covers every byte, and the counts and lengths are checked after it.
#[test]
fn a_damaged_compiled_in_store_is_refused() {
    use twenty48::endgame::distill::Store;
    use twenty48::endgame::shipped;
    for good in shipped::COMPILED_IN {
        let spread = (0..good.len()).step_by(good.len() / 17);
        assert_flips_refused(good, spread.chain([good.len() - 1]), 0x01);
        assert!(Store::from_bytes(&good[..good.len() - 1]).is_err());
        assert!(Store::from_bytes(&good[..100]).is_err());
        let mut longer = good.to_vec();
        longer.push(0);
        assert!(Store::from_bytes(&longer).is_err());
    }
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
