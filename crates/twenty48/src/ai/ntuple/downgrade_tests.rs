//! Tests of tile downgrading (`crate::ai::ntuple::downgrade`): a naive reference, the order of tiles, and the
//! search over a downgraded network.

use std::sync::{Arc, LazyLock};

use super::network::WEIGHTS;
use super::train::train_game;
use crate::ai::Search;
use crate::ai::ntuple::{DOWNGRADE_FROM, Downgraded, Network, TrainConfig, downgrade, game_rng};
use crate::ai::{Player, SearchConfig, naive_expectimax};
use crate::{Board, Direction};
use proptest::prelude::*;

/// A network whose weights are pseudo-random multiples of 1/16, so that different boards have different values.
static NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
    let net = Network::new(0.0);
    for i in 0..WEIGHTS {
        let h = (i as u64 ^ 0x5851_F42D_4C95_7F2D).wrapping_mul(0x2545_F491_4F6C_DD1D);
        net.set_weight(i, ((h >> 40) % 4096) as f32 / 16.0 - 64.0);
    }
    Arc::new(net)
});

/// Boards whose tiles are often large, so that many hold 16384 or 32768.
fn late_board() -> impl Strategy<Value = Board> {
    proptest::collection::vec(
        proptest::collection::vec(
            prop_oneof![1 => Just(0u8), 4 => 1..=15u8, 2 => 12..=15u8],
            4,
        ),
        4,
    )
    .prop_map(|rows| Board::from_exponents(&rows).unwrap())
}

/// Boards with one tile of 8192 to 32768 and the others at most 4096: two moves cannot build a tile beyond 32768,
/// which the bitboard cannot hold.
fn searchable_board() -> impl Strategy<Value = Board> {
    (
        proptest::collection::vec(prop_oneof![1 => Just(0u8), 4 => 1..=12u8], 16),
        13..=15u8,
        0..16usize,
    )
        .prop_map(|(mut cells, top, at)| {
            cells[at] = top;
            let rows: Vec<Vec<u8>> = cells.chunks(4).map(<[u8]>::to_vec).collect();
            Board::from_exponents(&rows).unwrap()
        })
}

/// The bitboard of four rows of exponents.
fn bits(rows: &[[u8; 4]; 4]) -> u64 {
    let rows: Vec<Vec<u8>> = rows.iter().map(|r| r.to_vec()).collect();
    Board::from_exponents(&rows).unwrap().to_bitboard().unwrap()
}

/// The exponents of a bitboard's cells.
fn exponents(b: u64) -> Vec<u8> {
    (0..16).map(|i| ((b >> (4 * i)) & 0xF) as u8).collect()
}

/// Downgrading written plainly on tile values: while the largest tile is at least `2^from`, find the largest value
/// below it that no cell holds and halve every tile above it.
fn naive_downgrade(b: u64, from: u8) -> (u64, u32) {
    let mut tiles: Vec<u32> = exponents(b)
        .into_iter()
        .map(|e| if e == 0 { 0 } else { 1 << e })
        .collect();
    let mut halvings = 0;
    loop {
        let max = tiles.iter().copied().max().unwrap_or(0);
        if max < 1 << from {
            break;
        }
        let missing = (1..16)
            .map(|k| 1u32 << k)
            .filter(|&v| v < max && !tiles.contains(&v))
            .max();
        let Some(gap) = missing else { break };
        for t in &mut tiles {
            if *t > gap {
                *t /= 2;
            }
        }
        halvings += 1;
    }
    let image = tiles
        .iter()
        .enumerate()
        .map(|(i, &t)| u64::from(if t == 0 { 0 } else { t.trailing_zeros() }) << (4 * i))
        .sum();
    (image, halvings)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The bitboard version gives the naive version's image and count, from every threshold.
    #[test]
    fn downgrade_matches_the_naive_reference(b in late_board(), from in 1u8..=15) {
        let bb = b.to_bitboard().unwrap();
        prop_assert_eq!(downgrade(bb, from), naive_downgrade(bb, from));
    }

    /// The image keeps empty cells empty and the order of every two tiles (so the same merges are possible), and it
    /// is either below the threshold or holds every value below its largest tile.
    #[test]
    fn downgrade_keeps_the_order_of_tiles(b in late_board()) {
        let bb = b.to_bitboard().unwrap();
        let (image, halvings) = downgrade(bb, DOWNGRADE_FROM);
        let (before, after) = (exponents(bb), exponents(image));
        for i in 0..16 {
            prop_assert_eq!(before[i] == 0, after[i] == 0);
            for j in 0..16 {
                prop_assert_eq!(before[i].cmp(&before[j]), after[i].cmp(&after[j]));
            }
        }
        let max = *after.iter().max().unwrap();
        let full = (1..max).all(|e| after.contains(&e));
        prop_assert!(max < DOWNGRADE_FROM || full);
        prop_assert_eq!(halvings == 0, image == bb);
        let top = *before.iter().max().unwrap();
        prop_assert_eq!(max, top - halvings as u8);
    }

    /// The downgraded network's value of a board is the network's value of the board's image.
    #[test]
    fn a_downgraded_network_reads_the_image(b in late_board()) {
        use crate::ai::Evaluate;
        let bb = b.to_bitboard().unwrap();
        let eval = Downgraded { net: &NET, from: DOWNGRADE_FROM };
        prop_assert_eq!(eval.eval(bb), NET.eval(downgrade(bb, DOWNGRADE_FROM).0));
    }

    /// With the cut-off disabled, the bitboard search over the downgraded network returns exactly the naive
    /// expectimax's move and value over the same evaluation.
    #[test]
    fn downgraded_search_matches_naive_expectimax(b in searchable_board(), depth in 1u32..=2) {
        let eval = Downgraded { net: &NET, from: DOWNGRADE_FROM };
        let naive = naive_expectimax(&b, depth, 0.1, 0.0, &eval);
        let mut s = Search::new(&eval, 0.1, 0.0);
        prop_assert_eq!(s.best(b.to_bitboard().unwrap(), depth, &Direction::ALL), naive);
    }

    /// The network player reads boards through downgrading, and plays the naive search's move over the image.
    #[test]
    fn the_network_player_downgrades(b in searchable_board()) {
        let legal: Vec<Direction> = Direction::ALL.into_iter().filter(|&d| b.can_slide(d)).collect();
        prop_assume!(!legal.is_empty());
        let net = &**NET;
        let want = naive_expectimax(&b, 2, 0.1, 0.0, &Downgraded { net, from: DOWNGRADE_FROM }).map(|(d, _)| d);
        let mut p = Player::with_network(SearchConfig::depth(2), Arc::clone(&NET));
        p.set_cutoff(0.0);
        prop_assert_eq!(p.best_move(&b, 0.1), want);
    }
}

/// A board that holds every value from 2 to 16384 has nothing to fill: it is its own image.
#[test]
fn a_full_chain_is_not_downgraded() {
    let b = bits(&[[14, 13, 12, 11], [7, 8, 9, 10], [6, 5, 4, 3], [1, 2, 1, 2]]);
    assert_eq!(downgrade(b, DOWNGRADE_FROM), (b, 0));
    // Below the threshold nothing is read differently either.
    let small = bits(&[[13, 11, 0, 0], [0; 4], [0; 4], [0; 4]]);
    assert_eq!(downgrade(small, DOWNGRADE_FROM), (small, 0));
}

/// 32768 with 16384 and 4096 (no 8192, no 2048): halved above 8192 (to 16384, 8192 and 4096), then, the largest tile
/// still 16384, above 2048 (to 8192, 4096 and 2048).
#[test]
fn a_board_is_halved_until_its_largest_tile_is_below_the_threshold() {
    let b = bits(&[[15, 14, 12, 1], [0; 4], [0; 4], [0; 4]]);
    let want = bits(&[[13, 12, 11, 1], [0; 4], [0; 4], [0; 4]]);
    assert_eq!(downgrade(b, DOWNGRADE_FROM), (want, 2));
}

/// Training with `downgrade` plays and learns through the images: every after-state the game learns from is its own
/// image, and only the images' weights move. Without it the same start leaves boards that hold 16384 in the path.
#[test]
fn training_through_downgrading_learns_the_images() {
    // 16384 in the corner, 4096 beside it (no 8192): downgraded from the first move on.
    let start = bits(&[[14, 12, 3, 1], [2, 1, 0, 0], [0; 4], [0; 4]]);
    let mut path = Vec::new();
    let mut play = |downgrade: Option<u8>| {
        let cfg = TrainConfig {
            threads: 1,
            downgrade,
            ..TrainConfig::default()
        };
        let net = Network::new(0.0);
        let mut rng = game_rng(5, 0);
        let stats = train_game(&net, None, &mut rng, Some(start), None, &cfg, &mut path);
        (net, stats, path.clone())
    };
    let (_, stats, learned_from) = play(None);
    assert!(stats.moves > 0);
    assert!(
        learned_from
            .iter()
            .any(|&(a, _)| downgrade(a, DOWNGRADE_FROM).1 > 0)
    );

    let (net, stats, learned_from) = play(Some(DOWNGRADE_FROM));
    assert!(stats.moves > 0 && stats.max_exponent >= 14);
    assert_eq!(learned_from.len() as u64, stats.moves);
    for &(a, _) in &learned_from {
        assert_eq!(
            downgrade(a, DOWNGRADE_FROM),
            (a, 0),
            "learned from a board that is not an image"
        );
    }
    let mut learned: Vec<usize> = learned_from
        .iter()
        .flat_map(|&(a, _)| net.features(a))
        .collect();
    learned.sort_unstable();
    learned.dedup();
    let moved: Vec<usize> = (0..net.len()).filter(|&i| net.weight(i) != 0.0).collect();
    assert!(!moved.is_empty());
    assert!(moved.iter().all(|i| learned.binary_search(i).is_ok()));
}
