//! Tests of the n-tuple network: symmetry, TD learning, the weights files (and the formats' internals), training end
//! to end and the network search.

use std::sync::{Arc, LazyLock};

use super::network::{WEIGHTS, symmetries};
use super::train::td_step;
use crate::ai::ntuple::{
    self, Coherence, Downgraded, Network, Starts, TrainConfig, WeightsFileError, feature_indices,
    game_rng, spawn_bitboard, train, train_with,
};
use crate::ai::{BucketTable, Evaluate, Player, Search, SearchConfig, naive_expectimax};
use crate::{Board, Direction};
use proptest::prelude::*;

/// A deterministic pseudo-random weight for index `i`: a multiple of 1/16 in [-64, 192).
fn weight_of(i: usize) -> f32 {
    let h = (i as u64 ^ 0x9E37_79B9_7F4A_7C15).wrapping_mul(0xD6E8_FEB8_6659_FD93);
    let h = h ^ (h >> 31);
    ((h % 4096) as f32 - 1024.0) / 16.0
}

/// One network with every weight set by [`weight_of`], shared by the tests (it is 256 MiB).
static RANDOM_NET: LazyLock<Arc<Network>> = LazyLock::new(|| {
    let net = Network::new(0.0);
    for i in 0..WEIGHTS {
        net.set_weight(i, weight_of(i));
    }
    net.set_games(1234);
    Arc::new(net)
});

fn board4(max_exp: u8) -> impl Strategy<Value = Board> {
    proptest::collection::vec(
        proptest::collection::vec(prop_oneof![2 => Just(0u8), 3 => 1..=max_exp], 4),
        4,
    )
    .prop_map(|rows| Board::from_exponents(&rows).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// A board and its 8 symmetric images have the same value (weights are multiples of 1/16 and sums stay small, so
    /// the different summation orders are exact).
    #[test]
    fn evaluation_is_symmetric(b in board4(15)) {
        let net = &**RANDOM_NET;
        let bb = b.to_bitboard().unwrap();
        let v = net.eval(bb);
        for image in symmetries(bb) {
            prop_assert_eq!(net.eval(image), v);
        }
    }

    /// The network search plays only legal moves.
    #[test]
    fn network_player_moves_are_legal(b in board4(11), depth in 1u32..=2) {
        let mut p = Player::with_network(SearchConfig::depth(depth), Arc::clone(&RANDOM_NET));
        let legal: Vec<Direction> = Direction::ALL.into_iter().filter(|&d| b.can_slide(d)).collect();
        match p.best_move(&b, 0.1) {
            Some(d) => prop_assert!(legal.contains(&d)),
            None => prop_assert!(legal.is_empty()),
        }
    }

    /// With the cut-off disabled in both, the bitboard search over the network (with a transposition table kept
    /// across calls) returns exactly the naive expectimax's move and value (rewards counted in both).
    #[test]
    fn network_search_matches_naive_expectimax(b in board4(9), depth in 1u32..=3, four in prop_oneof![Just(0.1f64), Just(0.5)]) {
        let net = &**RANDOM_NET;
        let tt = BucketTable::new(12);
        let naive = naive_expectimax(&b, depth, four, 0.0, net);
        for _ in 0..2 {
            let mut s = Search::with_buckets(net, &tt, four, 0.0);
            prop_assert_eq!(s.best(b.to_bitboard().unwrap(), depth, &Direction::ALL), naive);
        }
        let naive_cut = naive_expectimax(&b, depth, four, 1e-2, net);
        let mut s = Search::new(net, four, 1e-2);
        prop_assert_eq!(s.best(b.to_bitboard().unwrap(), depth, &Direction::ALL), naive_cut);
    }

    /// The bitboard spawn makes the same draws and the same choice as the game's spawn.
    #[test]
    fn bitboard_spawn_matches_the_game_spawn(b in board4(11), seed in 0u64..1000) {
        let mut rng_a = game_rng(seed, 7);
        let mut rng_b = rng_a.clone();
        let fast = spawn_bitboard(b.to_bitboard().unwrap(), &mut rng_a, 0.1);
        let mut slow = b;
        crate::spawn::spawn(&mut slow, &mut rng_b, 0.1);
        prop_assert_eq!(fast, slow.to_bitboard().unwrap());
    }
}

#[test]
fn td_step_moves_the_value_toward_its_target() {
    let net = Network::new(0.0);
    let b: Board = "2,4,8,16/0,2,4,0/8,0,4,0/2,0,0,1024".parse().unwrap();
    let a = b.to_bitboard().unwrap();
    for (target, alpha) in [(1000.0f32, 0.1f32), (-500.0, 0.5), (20.0, 1.0)] {
        let before = net.eval(a);
        let returned = td_step(&net, a, target, alpha);
        let after = net.eval(a);
        assert!(
            (target - after).abs() < (target - before).abs(),
            "{before} -> {after}, target {target}"
        );
        // The value moves by alpha times the error (this board shares no weight between its images).
        let want = before + alpha * (target - before);
        assert!(
            (after - want).abs() <= 1e-3 * want.abs().max(1.0),
            "{after} vs {want}"
        );
        assert!((returned - after).abs() <= 1e-3 * after.abs().max(1.0));
    }
}

#[test]
fn temporal_coherence_starts_at_the_full_rate_and_slows_when_errors_cancel() {
    let net = Network::new(0.0);
    let tc = Coherence::new();
    let b: Board = "2,4,8,16/0,2,4,0/8,0,4,0/2,0,0,1024".parse().unwrap();
    let a = b.to_bitboard().unwrap();
    let features = feature_indices(a);
    assert!(
        features.iter().all(|&i| tc.rate(i) == 1.0),
        "never updated: full rate"
    );
    // The first step with alpha 1 and rate 1 moves the value all the way to its target.
    let returned = tc.step(&net, a, 800.0, 1.0);
    assert!((net.eval(a) - 800.0).abs() < 1e-2, "{}", net.eval(a));
    assert!((returned - net.eval(a)).abs() < 1e-2);
    // Errors of one sign keep the full rate...
    tc.step(&net, a, 1600.0, 0.5);
    assert!(features.iter().all(|&i| tc.rate(i) == 1.0));
    let before = net.eval(a);
    assert!(
        (before - 1200.0).abs() < 1e-2,
        "half way from 800 to 1600: {before}"
    );
    // ... an error of the other sign lowers it. The sums hold each feature's share of the errors (error / 32):
    // E = 25 + 25 - 43.75 = 6.25, A = 25 + 25 + 43.75 = 93.75.
    tc.step(&net, a, before - 1400.0, 1.0);
    let rate = tc.rate(features[0]);
    assert!((rate - 6.25 / 93.75).abs() < 1e-4, "{rate}");
    // The value still moved toward its target (at the full rate that step: rates are read before the sums change).
    assert!((net.eval(a) - (before - 1400.0)).abs() < 1e-2);
    // And the next step is slowed by that rate.
    let v = net.eval(a);
    tc.step(&net, a, v + 1000.0, 1.0);
    assert!(
        (net.eval(a) - (v + 1000.0 * rate)).abs() < 1e-1,
        "{} vs {}",
        net.eval(a),
        v + 1000.0 * rate
    );
}

#[test]
fn save_and_load_round_trip_bit_for_bit() {
    let net = &**RANDOM_NET;
    // Special values survive too: negative zero and a subnormal.
    let mut dir = std::env::temp_dir();
    dir.push(format!("twenty48-ntuple-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.p48");
    let copy = Network::new(0.0);
    for i in 0..WEIGHTS {
        copy.set_weight(i, net.weight(i));
    }
    copy.set_weight(5, -0.0);
    copy.set_weight(WEIGHTS - 1, f32::from_bits(1));
    copy.set_games(99);
    ntuple::save(&copy, &path, 1).unwrap();
    assert!(
        !dir.join("net.p48.tmp").exists(),
        "the temporary file is renamed"
    );
    let back = ntuple::load(&path).unwrap();
    assert_eq!(back.games(), 99);
    for i in 0..WEIGHTS {
        assert_eq!(
            back.weight(i).to_bits(),
            copy.weight(i).to_bits(),
            "weight {i}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "slow: whole networks of 2^26 weights saved and loaded; CI runs it optimised (.ci/run)"]
fn a_compact_file_keeps_every_weight_to_24_bits_and_version_1_and_2_files_still_load() {
    let dir = std::env::temp_dir().join(format!("twenty48-compact-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (exact, compact) = (dir.join("exact.p48"), dir.join("compact.p48"));
    // Dense weights at the start and every 97th weight after (like a trained network, mostly zeros: zlib's level 9
    // is slow on a whole array of random weights).
    let copy = Network::new(0.0);
    for i in (0..1 << 16).chain((1 << 16..WEIGHTS).step_by(97)) {
        copy.set_weight(i, weight_of(i) * 1001.7);
    }
    // Weights with low bytes to round: up, down, and a carry into the exponent.
    copy.set_weight(1, f32::from_bits(0x4480_0080));
    copy.set_weight(2, f32::from_bits(0xC480_007F));
    copy.set_weight(3, f32::from_bits(0x447F_FFFF));
    copy.set_games(7);
    ntuple::save(&copy, &exact, 1).unwrap();
    ntuple::save_compact(&copy, &compact, 3).unwrap();
    let back = ntuple::load(&compact).unwrap();
    assert_eq!(back.games(), 7);
    for i in 0..WEIGHTS {
        let (w, b) = (copy.weight(i), back.weight(i));
        assert_eq!(back.weight(i).to_bits() & 0xFF, 0, "weight {i}");
        assert!((w - b).abs() <= w.abs() / 65536.0, "weight {i}: {w} -> {b}");
    }
    assert_eq!(back.weight(1).to_bits(), 0x4480_0100);
    assert_eq!(back.weight(2).to_bits(), 0xC480_0000);
    assert_eq!(back.weight(3).to_bits(), 0x4480_0000);
    // A version 1 file (no planes field, always exact) and a version 2 file (no stage field, one stage) still load:
    // made here from the exact file, a version 3 file of one stage (its stage field: 0 thresholds).
    let v3 = std::fs::read(&exact).unwrap();
    let planes_at = 8 + 4 + 8 + 24 + 8;
    assert_eq!(&v3[8..12], &3u32.to_le_bytes());
    assert_eq!(&v3[planes_at..planes_at + 4], &4u32.to_le_bytes());
    assert_eq!(&v3[planes_at + 4..planes_at + 8], &0u32.to_le_bytes());
    let mut v1 = v3[..planes_at].to_vec();
    v1[8..12].copy_from_slice(&1u32.to_le_bytes());
    v1.extend_from_slice(&v3[planes_at + 8..]);
    let old = ntuple::load_bytes(&v1, "v1.p48").unwrap();
    assert!(same_weights(&old, &copy));
    drop(old);
    let mut v2 = v3[..planes_at + 4].to_vec();
    v2[8..12].copy_from_slice(&2u32.to_le_bytes());
    v2.extend_from_slice(&v3[planes_at + 8..]);
    let old = ntuple::load_bytes(&v2, "v2.p48").unwrap();
    assert!(same_weights(&old, &copy) && old.stages() == 1);
    drop(old);
    // Two planes: each weight to 16 bits (bfloat16), within 2^-8 of itself.
    let half = dir.join("half.p48");
    ntuple::save_compact(&copy, &half, 2).unwrap();
    let back = ntuple::load(&half).unwrap();
    for i in (0..WEIGHTS).step_by(97) {
        let (w, b) = (copy.weight(i), back.weight(i));
        assert_eq!(b.to_bits() & 0xFFFF, 0, "weight {i}");
        assert!((w - b).abs() <= w.abs() / 256.0, "weight {i}: {w} -> {b}");
    }
    assert!(std::fs::metadata(&half).unwrap().len() < std::fs::metadata(&compact).unwrap().len());
    // Fixed point: each weight within half its tuple's scale (the largest weight's size / 32767).
    let fixed = dir.join("fixed.p48");
    ntuple::save_fixed16(&copy, &fixed).unwrap();
    let back = ntuple::load(&fixed).unwrap();
    let per = WEIGHTS / 4;
    for t in 0..4 {
        let scale = (t * per..(t + 1) * per)
            .map(|i| copy.weight(i).abs())
            .fold(0f32, f32::max)
            / 32767.0;
        for i in (t * per..(t + 1) * per).step_by(97) {
            let (w, b) = (copy.weight(i), back.weight(i));
            assert!((w - b).abs() <= scale * 0.5001, "weight {i}: {w} -> {b}");
        }
    }
    // A scale that is not a positive number is refused.
    let mut bad = std::fs::read(&fixed).unwrap();
    assert_eq!(&bad[planes_at..planes_at + 4], &16u32.to_le_bytes());
    bad[planes_at + 8..planes_at + 12].copy_from_slice(&0f32.to_le_bytes());
    let e = ntuple::load_bytes(&bad, "bad.p48").err().unwrap();
    assert!(e.to_string().contains("scale"), "{e}");
    // A planes field other than 2, 3, 4 or 16 is refused.
    let mut bad = v3.clone();
    bad[planes_at] = 1;
    let e = ntuple::load_bytes(&bad, "bad.p48").err().unwrap();
    assert!(e.to_string().contains("byte planes"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "slow: whole networks of 2^26 weights saved and loaded; CI runs it optimised (.ci/run)"]
fn damaged_weights_files_are_refused_with_a_message() {
    let net = Network::new(0.0);
    // Dense data at the start of the stream, then long runs of zeros.
    for i in 0..1 << 16 {
        net.set_weight(i, weight_of(i));
    }
    let good = ntuple::file::encode(&net, 1);
    assert!(ntuple::load_bytes(&good, "good").is_ok());
    let message = |bytes: &[u8]| match ntuple::load_bytes(bytes, "bad.p48") {
        Ok(_) => panic!("a damaged file was accepted"),
        Err(e @ WeightsFileError::Invalid { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    };
    let mut bad_magic = good.clone();
    bad_magic[0] ^= 1;
    assert!(message(&bad_magic).contains("magic"));
    let mut bad_version = good.clone();
    bad_version[8] = 9;
    assert!(message(&bad_version).contains("version"));
    let mut bad_tuple = good.clone();
    bad_tuple[20] = 15;
    assert!(message(&bad_tuple).contains("tuple"));
    assert!(message(&good[..good.len() - 3]).contains("bad.p48"));
    assert!(message(&good[..30]).contains("truncated"));
    let mut longer = good.clone();
    longer.push(0);
    assert!(message(&longer).contains("payload"));
    // A flipped bit in the dense part of the compressed weights is caught (by the stream's structure or its
    // checksum) ...
    for pos in [70, 1000, 50_000, 100_000] {
        let mut flipped = good.clone();
        flipped[pos] ^= 0x10;
        assert!(message(&flipped).contains("not a valid"), "byte {pos}");
    }
    // ... and anywhere else a flip is either refused or changes nothing that is decoded (inside a run of zeros, a
    // back-reference moved from distance 1 to 2 still copies zeros): never a silently different network.
    for pos in (60..good.len()).step_by(good.len() / 8) {
        let mut flipped = good.clone();
        flipped[pos] ^= 0x04;
        if let Ok(back) = ntuple::load_bytes(&flipped, "flipped") {
            assert!(
                same_weights(&back, &net),
                "byte {pos}: a different network was accepted"
            );
        }
    }
    // A missing file is an I/O error naming the file.
    let missing = ntuple::load(std::path::Path::new("/nonexistent/net.p48")).unwrap_err();
    assert!(matches!(missing, WeightsFileError::Io { .. }));
    assert!(missing.to_string().contains("/nonexistent/net.p48"));
}

/// Trains a fresh network on `games` games with one thread.
fn tiny_training(seed: u64, games: u64, block: u64) -> (Network, Vec<String>) {
    let net = Network::new(0.0);
    let mut log = Vec::new();
    let cfg = TrainConfig {
        games,
        threads: 1,
        seed,
        block,
        ..TrainConfig::default()
    };
    train(&net, &cfg, |_, p| {
        log.push(p.log_line());
        true
    });
    (net, log)
}

fn same_weights(a: &Network, b: &Network) -> bool {
    a.len() == b.len()
        && a.stage_from() == b.stage_from()
        && (0..a.len()).all(|i| a.weight(i).to_bits() == b.weight(i).to_bits())
}

/// A board of sixteen tiles, `top` in the last cell and the exponents 0 (empty) to 13 and 5 again in the others:
/// no two of its symmetric images read a tuple alike.
fn board_topped_by(top: u64) -> u64 {
    let mut b = top << 60;
    for (cell, e) in (0..15).zip([0u64, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 5]) {
        b |= e << (4 * cell);
    }
    b
}

#[test]
#[ignore = "slow: whole networks of 2^26 weights saved and loaded; CI runs it optimised (.ci/run)"]
fn a_network_in_stages_reads_each_board_in_the_stage_of_its_largest_tile() {
    // Promoted from one stage to two (from 16384): every board keeps its value, the game count is kept.
    let staged = RANDOM_NET.promoted(&[14]).unwrap();
    assert_eq!(staged.stages(), 2);
    assert_eq!(staged.stage_from(), &[14]);
    assert_eq!((staged.len(), staged.games()), (2 * WEIGHTS, 1234));
    let mut rng = game_rng(3, 0);
    for _ in 0..2000 {
        use rand_core::RngCore;
        let b = rng.next_u64();
        assert_eq!(
            staged.eval(b).to_bits(),
            RANDOM_NET.eval(b).to_bits(),
            "{b:016x}"
        );
    }
    // A board with 16384 (or 32768) reads stage 1, the same board with 8192 in its place stage 0.
    let (early, late) = (board_topped_by(13), board_topped_by(14));
    assert_eq!(
        (
            staged.stage(early),
            staged.stage(late),
            staged.stage(board_topped_by(15))
        ),
        (0, 1, 1)
    );
    assert!(staged.features(early).iter().all(|&i| i < WEIGHTS));
    assert!(staged.features(late).iter().all(|&i| i >= WEIGHTS));
    // Learning on the late board moves it (and its images) by the step and leaves the early board untouched, though
    // most of their tuples read the same tiles: the stages are separate weights.
    let (ve, vl) = (staged.eval(early), staged.eval(late));
    staged.update(late, 320.0);
    assert_eq!(staged.eval(early), ve);
    assert_eq!(staged.eval(late), vl + 320.0);
    for image in symmetries(late) {
        assert_eq!(staged.eval(image), vl + 320.0);
    }
    // Save and load keep the stages and every weight; 16-bit fixed point keeps the stages and each weight to half
    // its table's scale.
    let dir = std::env::temp_dir().join(format!("twenty48-stages-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("staged.p48");
    ntuple::save(&staged, &path, 1).unwrap();
    let back = ntuple::load(&path).unwrap();
    assert!(same_weights(&back, &staged));
    drop(back);
    ntuple::save_fixed16(&staged, &path).unwrap();
    let back = ntuple::load(&path).unwrap();
    assert_eq!(back.stage_from(), &[14]);
    assert!((back.eval(late) - staged.eval(late)).abs() < 1.0);
    assert!((back.eval(early) - staged.eval(early)).abs() < 1.0);
    drop(back);
    // In fixed point a later stage is stored as its difference from stage 0: a promoted network that has not
    // learned yet costs almost nothing more than its one stage, and reads back as the same values in both stages.
    let one = dir.join("one.p48");
    let sparse = Network::new(0.0);
    for i in (0..WEIGHTS).step_by(61) {
        sparse.set_weight(i, weight_of(i) * 97.3);
    }
    ntuple::save_fixed16(&sparse, &one).unwrap();
    let two = sparse.promoted(&[14]).unwrap();
    ntuple::save_fixed16(&two, &path).unwrap();
    let (one_len, two_len) = (
        std::fs::metadata(&one).unwrap().len(),
        std::fs::metadata(&path).unwrap().len(),
    );
    assert!(two_len < one_len + one_len / 20, "{one_len} -> {two_len}");
    let (a, b) = (ntuple::load(&one).unwrap(), ntuple::load(&path).unwrap());
    for i in (0..WEIGHTS).step_by(61) {
        assert_eq!(b.weight(i).to_bits(), a.weight(i).to_bits());
        assert_eq!(b.weight(i + WEIGHTS).to_bits(), a.weight(i).to_bits());
    }
    drop((a, b, two, sparse));
    // Thresholds that do not rise, or are not exponents of tiles, are refused; so is a file claiming them.
    assert!(Network::staged(0.0, &[14, 13]).is_err());
    assert!(Network::staged(0.0, &[16]).is_err());
    assert!(Network::staged(0.0, &[11, 12, 13, 14]).is_err());
    let mut bytes = ntuple::file::encode(&Network::new(0.0), 1);
    let stages_at = 8 + 4 + 8 + 24 + 8 + 4;
    bytes[stages_at] = 9;
    let e = ntuple::load_bytes(&bytes, "bad.p48").err().unwrap();
    assert!(e.to_string().contains("stage"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
#[ignore = "slow: whole networks of 2^26 weights saved and loaded; CI runs it optimised (.ci/run)"]
fn coherence_sums_resume_into_a_promoted_network() {
    use ntuple::TrainingState;
    let dir = std::env::temp_dir().join(format!("twenty48-promote-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.p48");
    let (net, tc) = tiny_coherent_training(4, 10);
    tc.save(&path, net.games()).unwrap();
    let promoted = net.promoted(&[11]).unwrap();
    drop(net);
    let state = TrainingState::resume(Some(&path), &promoted, true, false).unwrap();
    assert!(state.tc_resumed);
    let sums = state.tc.as_ref().unwrap();
    assert!(sums.fits(&promoted));
    // Stage 0 keeps the rates the one stage had; the new stage starts at the full rate.
    let b = board_topped_by(11);
    for (lo, hi) in feature_indices(b).iter().zip(promoted.features(b)) {
        assert_eq!(hi, lo + WEIGHTS);
    }
    let slowed: Vec<usize> = (0..WEIGHTS).filter(|&i| tc.rate(i) < 1.0).collect();
    assert!(slowed.len() > 100, "ten games slow some rates down");
    for &i in &slowed {
        assert_eq!(sums.rate(i).to_bits(), tc.rate(i).to_bits());
        assert_eq!(sums.rate(i + WEIGHTS), 1.0);
    }
    for i in (0..WEIGHTS).step_by(4099) {
        assert_eq!(sums.rate(i).to_bits(), tc.rate(i).to_bits());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn training_runs_end_to_end_and_is_reproducible_with_one_thread() {
    let (a, log_a) = tiny_training(3, 40, 20);
    assert_eq!(a.games(), 40);
    assert_eq!(log_a.len(), 2);
    assert!(a.nonzero() > 1000, "the games taught it something");
    let (b, log_b) = tiny_training(3, 40, 40);
    assert!(same_weights(&a, &b), "same seed, one thread: same network");
    // The moves/s column differs; the statistics of the 40 games do not.
    assert_eq!(log_b.len(), 1);
    let (c, _) = tiny_training(4, 40, 40);
    assert!(!same_weights(&a, &c), "another seed, another network");
    // Resuming: 20 games, then 20 more on the same network, is the same as 40 at once.
    let (d, _) = tiny_training(3, 20, 20);
    let cfg = TrainConfig {
        games: 40,
        threads: 1,
        seed: 3,
        block: 20,
        ..TrainConfig::default()
    };
    train(&d, &cfg, |_, _| true);
    assert!(same_weights(&a, &d));
    // Two threads run too (not reproducible: they share the weights without locks).
    let e = Network::new(0.0);
    let cfg = TrainConfig {
        games: 20,
        threads: 2,
        block: 10,
        ..TrainConfig::default()
    };
    train(&e, &cfg, |_, p| p.block_games == 10);
    assert_eq!(e.games(), 20);
}

/// Trains a fresh network with temporal coherence on `games` games with one thread.
fn tiny_coherent_training(seed: u64, games: u64) -> (Network, Coherence) {
    let (net, tc) = (Network::new(0.0), Coherence::new());
    let cfg = TrainConfig {
        games,
        threads: 1,
        seed,
        alpha: 1.0,
        block: 10,
        ..TrainConfig::default()
    };
    train_with(&net, Some(&tc), None, &cfg, |_, _| true);
    (net, tc)
}

#[test]
#[ignore = "slow: whole networks of 2^26 weights saved and loaded; CI runs it optimised (.ci/run)"]
fn coherent_training_is_reproducible_and_resumes_exactly_from_its_saved_sums() {
    let (a, tc_a) = tiny_coherent_training(5, 30);
    assert!(a.nonzero() > 1000);
    // (Each network and its sums take 768 MiB: this test makes as few as it can.) 20 games, saved with their sums,
    // loaded, then 10 more: the same network as 30 at once, so a run is reproducible and resumes exactly.
    let dir = std::env::temp_dir().join(format!("twenty48-coherence-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.p48");
    let (c, tc_c) = tiny_coherent_training(5, 20);
    tc_c.save(&path, c.games()).unwrap();
    ntuple::save(&c, &path, 1).unwrap();
    let c = ntuple::load(&path).unwrap();
    let tc_c = Coherence::load(&path, c.games())
        .unwrap()
        .expect("sums saved for game 20");
    let cfg = TrainConfig {
        games: 30,
        threads: 1,
        seed: 5,
        alpha: 1.0,
        block: 10,
        ..TrainConfig::default()
    };
    train_with(&c, Some(&tc_c), None, &cfg, |_, _| true);
    assert!(same_weights(&a, &c) && tc_a.same_as(&tc_c));
    // Plain TD on the same games learns another network.
    drop((c, tc_c));
    let (plain, _) = tiny_training(5, 30, 10);
    assert!(!same_weights(&a, &plain), "coherence learns differently");
    // Sums saved for another game count (a run stopped between its files) are not used.
    assert!(Coherence::load(&path, 21).unwrap().is_none());
    assert!(
        Coherence::load(&dir.join("other.p48"), 20)
            .unwrap()
            .is_none()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_pool_of_starts_is_a_ring_saved_and_loaded_whole() {
    let pool = Starts::new(3);
    assert!(pool.is_empty() && pool.pick(7).is_none());
    for b in [10, 20, 30, 40] {
        pool.push(b);
    }
    // The fourth board replaced the oldest.
    assert_eq!(pool.len(), 3);
    let picked: Vec<u64> = (0..3).filter_map(|i| pool.pick(i)).collect();
    assert_eq!(picked, [40, 20, 30]);
    let dir = std::env::temp_dir().join(format!("twenty48-starts-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.p48");
    pool.save(&path, 12).unwrap();
    assert!(dir.join("net.p48.starts").exists() && !dir.join("net.p48.starts.tmp").exists());
    let back = Starts::load(&path, 12, 3)
        .unwrap()
        .expect("saved for game 12");
    assert!(back.same_as(&pool));
    // The ring goes on where it stopped: the next board replaces 20.
    back.push(50);
    assert_eq!(back.pick(1), Some(50));
    // Another game count: not used. None saved: nothing. Too small a pool, or a damaged file: an error.
    assert!(Starts::load(&path, 13, 3).unwrap().is_none());
    assert!(
        Starts::load(&dir.join("other.p48"), 12, 3)
            .unwrap()
            .is_none()
    );
    assert!(Starts::load(&path, 12, 2).is_err());
    let file = dir.join("net.p48.starts");
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[30] ^= 1;
    std::fs::write(&file, &bytes).unwrap();
    let e = Starts::load(&path, 12, 3).unwrap_err().to_string();
    assert!(
        e.contains("net.p48.starts") && e.contains("checksum"),
        "{e}"
    );
    std::fs::write(&file, b"P48START").unwrap();
    assert!(Starts::load(&path, 12, 3).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Trains a fresh network with half its games started from a pool of positions holding a 64, one thread.
fn tiny_restarting_training(
    seed: u64,
    games: u64,
    net: Network,
    pool: Starts,
) -> (Network, Starts, Vec<(u64, u64)>) {
    let cfg = TrainConfig {
        games,
        threads: 1,
        seed,
        block: 10,
        restart: 0.5,
        restart_tile: 6,
        ..TrainConfig::default()
    };
    let mut counts = Vec::new();
    train_with(&net, None, Some(&pool), &cfg, |_, p| {
        counts.push((p.block_games, p.restarts));
        true
    });
    (net, pool, counts)
}

#[test]
fn training_with_late_game_starts_is_reproducible_and_resumes_exactly() {
    let (a, pool_a, counts) = tiny_restarting_training(9, 40, Network::new(0.0), Starts::new(1000));
    // The first games fill the pool; later, about half the games start from it, counted apart.
    assert!(!pool_a.is_empty());
    assert!(
        counts
            .iter()
            .all(|&(fresh, restarts)| fresh + restarts == 10)
    );
    let restarts: u64 = counts.iter().map(|c| c.1).sum();
    assert!((8..=32).contains(&restarts), "{counts:?}");
    let (b, pool_b, _) = tiny_restarting_training(9, 40, Network::new(0.0), Starts::new(1000));
    assert!(same_weights(&a, &b) && pool_a.same_as(&pool_b));
    // Stopped after 20 games with the pool saved, resumed: the same as 40 at once.
    let dir = std::env::temp_dir().join(format!("twenty48-restart-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.p48");
    let (c, pool_c, _) = tiny_restarting_training(9, 20, Network::new(0.0), Starts::new(1000));
    pool_c.save(&path, 20).unwrap();
    let pool_c = Starts::load(&path, 20, 1000).unwrap().unwrap();
    let (c, pool_c, _) = tiny_restarting_training(9, 40, c, pool_c);
    assert!(same_weights(&a, &c) && pool_a.same_as(&pool_c));
    // Without restarts the pool is still fed, and the network is another.
    let (d, pool_d, counts) = {
        let cfg = TrainConfig {
            games: 40,
            threads: 1,
            seed: 9,
            block: 10,
            restart_tile: 6,
            ..TrainConfig::default()
        };
        let (net, pool) = (Network::new(0.0), Starts::new(1000));
        let mut counts = Vec::new();
        train_with(&net, None, Some(&pool), &cfg, |_, p| {
            counts.push(p.restarts);
            true
        });
        (net, pool, counts)
    };
    assert!(counts.iter().all(|&r| r == 0) && !pool_d.is_empty());
    assert!(!same_weights(&a, &d));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The full network the compiled-in one was made from, when it is put back in crates/twenty48/weights/ (it left the
/// tree in session 18: `git show 6996a44:crates/twenty48/weights/twenty48-ntuple.p48`), loads, was trained on a
/// million games or more, and plays: greedy (1-ply) play reaches 2048 in every one of five seeded games and 8192 in at
/// least one (it reaches 2048 in about 99% and 8192 in about 89% of games, see BENCHMARKS.md), which a damaged or
/// untrained file would not.
#[test]
fn the_full_network_loads_and_plays_when_put_back() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/weights/twenty48-ntuple.p48"
    ));
    if !path.is_file() {
        eprintln!(
            "skipped: {} is not there (git show 6996a44:crates/twenty48/weights/twenty48-ntuple.p48 gives it back)",
            path.display()
        );
        return;
    }
    let net = ntuple::load(path).unwrap_or_else(|e| panic!("{e}"));
    plays_like_a_trained_network(net);
}

fn plays_like_a_trained_network(net: Network) {
    assert!(net.games() >= 1_000_000, "trained on {} games", net.games());
    let net = Arc::new(net);
    let rules = crate::Rules::new(4, 0.1, 2048).unwrap();
    let mut best = 0;
    for seed in 1..=5 {
        let mut player = Player::with_network(SearchConfig::depth(1), Arc::clone(&net));
        let report = crate::ai::autoplay_player(&rules, seed, &mut player, None);
        assert!(report.max_tile >= 2048, "seed {seed}: {report}");
        best = best.max(report.max_tile);
    }
    assert!(best >= 8192, "best tile {best}");
}

/// The network compiled into the program (crates/twenty48/data/) passes its CRC-32, was trained on a million games or
/// more, and plays as a trained network does (above): a build whose data were damaged or replaced fails here.
#[test]
fn the_compiled_in_network_loads_and_plays() {
    assert!(ntuple::sparse::is_sparse(ntuple::COMPILED_IN));
    assert!(
        ntuple::COMPILED_IN.len() <= 16_000_000,
        "{} bytes compiled in, the cap is 16 MB",
        ntuple::COMPILED_IN.len()
    );
    let net = ntuple::compiled_in().unwrap_or_else(|e| panic!("{e}"));
    // Every chunk decodes to exactly its weights (play decodes each when it first reads it).
    let packed = net.packed().expect("the read-only form");
    assert_eq!(packed.chunks_filled(), 0, "nothing decoded at load");
    packed.fill_all().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(packed.chunks_filled(), 64);
    assert!(net.nonzero() >= 1_000_000, "{} weights", net.nonzero());
    plays_like_a_trained_network(net);
}

/// A damaged copy of the compiled-in data is refused, whichever byte is changed: the CRC-32 covers every byte.
#[test]
fn a_damaged_compiled_in_network_is_refused() {
    let good = ntuple::COMPILED_IN;
    let refused = |bytes: &[u8]| match ntuple::load_bytes(bytes, "damaged.p48s") {
        Ok(_) => panic!("a damaged file was accepted"),
        Err(e @ WeightsFileError::Invalid { .. }) => e.to_string(),
        Err(e) => panic!("unexpected error kind: {e}"),
    };
    for pos in (8..good.len())
        .step_by(good.len() / 13)
        .chain([good.len() - 1])
    {
        let mut flipped = good.to_vec();
        flipped[pos] ^= 0x01;
        assert!(refused(&flipped).contains("CRC-32"), "byte {pos}");
    }
    assert!(refused(&good[..good.len() - 1]).contains("damaged"));
    assert!(refused(&good[..20]).contains("truncated"));
    let mut longer = good.to_vec();
    longer.push(0);
    assert!(refused(&longer).contains("damaged"));
}

/// A sparse file keeps exactly the weights chosen (rounded to their tuple's step) and zero everywhere else, reads back
/// through `load` from a file as well as from bytes, and refuses a file whose counts do not match its streams.
#[test]
fn a_sparse_file_keeps_the_chosen_weights_and_zeros_the_rest() {
    let net = &**RANDOM_NET;
    let keep = |i: usize| i % 97 == 3 || i.is_multiple_of(4099);
    // Weights are multiples of 1/16, and so of every step here: the kept ones come back exactly.
    let steps = [0.0625, 0.125, 0.0625, 0.25];
    let bytes = ntuple::encode_sparse(net, &keep, &steps);
    let back = ntuple::load_bytes(&bytes, "sparse").unwrap();
    assert_eq!(
        (back.games(), back.stages(), back.len()),
        (1234, 1, net.len())
    );
    for i in (0..net.len()).step_by(7) {
        let t = i / (1 << 24);
        let want = if keep(i) {
            (net.weight(i) / steps[t]).round() * steps[t]
        } else {
            0.0
        };
        assert_eq!(back.weight(i), want, "weight {i}");
    }
    let dir = std::env::temp_dir().join(format!("p48-sparse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.p48s");
    std::fs::write(&path, &bytes).unwrap();
    let from_file = ntuple::load(&path).unwrap();
    assert!(same_weights(&from_file, &back));
    std::fs::remove_dir_all(&dir).unwrap();
    // A count changed, with the CRC made to match: refused by the count check, not read half.
    let with_crc = |mut b: Vec<u8>| {
        let n = b.len() - 4;
        let crc = ntuple::sparse::crc32(&b[..n]);
        b[n..].copy_from_slice(&crc.to_le_bytes());
        b
    };
    let mut wrong = bytes.clone();
    wrong[68] = wrong[68].wrapping_add(1);
    let e = ntuple::load_bytes(&with_crc(wrong), "wrong").expect_err("refused");
    assert!(e.to_string().contains("the counts say"), "{e}");
    // A weight moved from one chunk's count to the next one's (the tuple's sum unchanged), with the CRC made to match:
    // the load accepts the counts, and filling the chunks finds that their streams do not end with their weights.
    // The first chunk's count is after the header (84 bytes) and the tuple's two frequency tables.
    let first = 84 + 2 * 2 * ntuple::rans::SYMBOLS;
    let count = |b: &[u8], at: usize| u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]);
    let next = first
        + 20
        + (1..5)
            .map(|k| count(&bytes, first + 4 * k) as usize)
            .sum::<usize>();
    assert!(count(&bytes, first) > 0, "the first chunk keeps weights");
    let mut moved = bytes.clone();
    moved[first..first + 4].copy_from_slice(&(count(&bytes, first) - 1).to_le_bytes());
    moved[next..next + 4].copy_from_slice(&(count(&bytes, next) + 1).to_le_bytes());
    let lazy = ntuple::load_bytes(&with_crc(moved), "moved").unwrap();
    let e = lazy.packed().unwrap().fill_all().expect_err("refused");
    assert!(
        e.to_string().contains("do not end with its last weight"),
        "{e}"
    );
    assert!(back.packed().unwrap().fill_all().is_ok());
    // Format 2 (one pair of streams a tuple, decoded at load) still reads, the same weights.
    let whole = ntuple::sparse::encode_sparse_whole(net, &keep, &steps);
    assert!(same_weights(
        &ntuple::load_bytes(&whole, "whole").unwrap(),
        &back
    ));
    let n = bytes.len() - 4;
    // The older format (zlib streams) holds the same weights and still reads; a later version is refused by name.
    let old = ntuple::sparse::encode_sparse_zlib(net, &keep, &steps);
    assert!(same_weights(
        &ntuple::load_bytes(&old, "old").unwrap(),
        &back
    ));
    let mut later = bytes.clone();
    later[8..12].copy_from_slice(&4u32.to_le_bytes());
    let crc = ntuple::sparse::crc32(&later[..n]);
    later[n..].copy_from_slice(&crc.to_le_bytes());
    let e = ntuple::load_bytes(&later, "later").expect_err("refused");
    assert!(e.to_string().contains("sparse format version 4"), "{e}");
}

/// A network read from a sparse file is held in the read-only packed form and evaluates every board exactly as its
/// dense copy does (made by its first write, which leaves the other weights as they were).
#[test]
fn the_packed_form_evaluates_as_the_dense_form() {
    let net = &**RANDOM_NET;
    let keep = |i: usize| !i.is_multiple_of(3);
    let bytes = ntuple::encode_sparse(net, &keep, &[0.0625, 0.125, 0.5, 4.0]);
    let packed = ntuple::load_bytes(&bytes, "packed").unwrap();
    let dense = ntuple::load_bytes(&bytes, "dense").unwrap();
    assert_eq!(packed.packed().map(|p| p.chunks_filled()), Some(0));
    dense.set_weight(0, dense.weight(0));
    assert!(dense.packed().is_none());
    let mut rng = game_rng(5, 0);
    let mut b = 0u64;
    let mut four = [0u64; 4];
    for k in 0..20_000 {
        // Boards of every kind: random exponents, and boards grown by spawns and moves.
        if k % 2 == 0 {
            b = spawn_bitboard(b, &mut rng, 0.1);
            let moved = crate::bitboard::tables().slide(b, Direction::ALL[k % 4]);
            b = if moved == b || k % 500 == 0 { 0 } else { moved };
        } else {
            b = rand_core::RngCore::next_u64(&mut rng);
        }
        assert_eq!(
            packed.eval(b).to_bits(),
            dense.eval(b).to_bits(),
            "{b:016x}"
        );
        // Four boards at once (the search's leaves) give each board's own value, in both forms and downgraded.
        four[k % 4] = b;
        if k % 4 == 3 {
            let one = four.map(|b| packed.eval(b).to_bits());
            assert_eq!(packed.eval4(&four).map(f32::to_bits), one, "{four:016x?}");
            assert_eq!(dense.eval4(&four).map(f32::to_bits), one, "{four:016x?}");
            let down = Downgraded {
                net: &packed,
                from: 3,
            };
            assert_eq!(
                Evaluate::eval4(&down, &four).map(f32::to_bits),
                four.map(|b| Evaluate::eval(&down, b).to_bits()),
                "{four:016x?}"
            );
        }
    }
    for i in (0..net.len()).step_by(101) {
        assert_eq!(packed.weight(i).to_bits(), dense.weight(i).to_bits(), "{i}");
    }
    let p = packed.packed().unwrap();
    assert_eq!(p.kept(), packed.nonzero());
    // Two bytes an index of every tuple, directly indexed.
    assert_eq!(p.bytes(), 4 * (1 << 24) * 2);
}
