//! Tests of the late-stage network (`ai::ntuple::late`): which network reads which board, what training it changes,
//! and that the player searches with it.

use std::sync::Arc;

use twenty48::ai::ntuple::{
    GameStats, LateConfig, LateStage, Network, Starts, TrainConfig, downgrade, game_rng,
    greedy_move_downgraded, spawn_bitboard, train_late, train_late_game,
};
use twenty48::ai::{DEFAULT_CUTOFF, Evaluate, Player, SearchConfig, naive_expectimax};
use twenty48::bitboard::{max_exponent, tables};
use twenty48::{Board, Direction};

fn bits(text: &str) -> u64 {
    text.parse::<Board>().unwrap().to_bitboard().unwrap()
}

fn same_weights(a: &Network, b: &Network) -> bool {
    (0..a.len()).all(|i| a.weight(i).to_bits() == b.weight(i).to_bits())
}

/// One late game of `train_late_game` from `start` (no coherence, no pool), with the random source of seed 5's game
/// 0: its statistics and its path.
fn late_game(
    main: &Network,
    late: &Network,
    how: LateConfig,
    start: u64,
    cfg: &TrainConfig,
) -> (GameStats, Vec<(u64, u64)>) {
    let mut path = Vec::new();
    let stats = train_late_game(
        main,
        late,
        how,
        None,
        &mut game_rng(5, 0),
        Some(start),
        None,
        cfg,
        &mut path,
    );
    (stats, path)
}

#[test]
fn boards_with_the_large_tile_are_read_by_the_late_network_through_downgrading() {
    let (main, late) = (Network::new(1.0), Network::new(0.0));
    // 16384 with no 8192: read as the image with 8192, whose value is set in the late network alone.
    let large = bits("16384,16,4,2/0,0,0,0/0,0,2,0/0,0,0,0");
    let (image, halvings) = downgrade(large, 14);
    assert_eq!(
        (image, halvings),
        (bits("8192,16,4,2/0,0,0,0/0,0,2,0/0,0,0,0"), 1)
    );
    late.update(image, 640.0);
    let eval = LateStage {
        main: &main,
        late: &late,
        from: 14,
    };
    let v = eval.eval(large);
    assert!((v - late.eval(image)).abs() < 1e-3 && v > 600.0, "{v}");
    assert_ne!(
        late.eval(large),
        v,
        "the late network reads the image, not the board"
    );
    // Every value of the board present (nothing to downgrade): still the late network's, on the board itself.
    let full = bits("16384,8192,4096,2048/128,256,512,1024/64,32,16,8/0,2,4,0");
    assert_eq!(downgrade(full, 14).1, 0);
    assert_eq!(eval.eval(full), late.eval(full));
    // Below the stage: the main network's (32 features of weight 1), not the late one's.
    for b in [image, bits("2,4,8,16/0,0,0,0/0,0,0,0/0,0,0,2"), 0] {
        assert_eq!(eval.eval(b), main.eval(b));
        assert_eq!(eval.eval(b), 32.0);
    }
    // The four at once, as one by one.
    let four = [large, full, image, 0];
    assert_eq!(eval.eval4(&four), four.map(|b| eval.eval(b)));
}

#[test]
fn the_player_searches_large_boards_with_its_late_network() {
    // Left merges the two 2s (4 points); up moves the 2 of the second row and merges nothing.
    let board: Board = "16384,0,0,0/2,2,0,0/0,0,0,0/0,0,0,0".parse().unwrap();
    let main = Arc::new(Network::new(0.0));
    let mut player = Player::with_network(SearchConfig::depth(1), Arc::clone(&main));
    assert_eq!(player.best_move(&board, 0.1), Some(Direction::Left));
    // A late network that values the after-state of Up far above the merge.
    let late = Network::new(0.0);
    let up = board.slide(Direction::Up).board.to_bitboard().unwrap();
    late.update(downgrade(up, 14).0, 1000.0);
    player.set_late_network(Some(Arc::new(late)));
    assert!(player.late_network().is_some());
    assert_eq!(player.best_move(&board, 0.1), Some(Direction::Up));
    // Taken away again: the merge.
    player.set_late_network(None);
    assert_eq!(player.best_move(&board, 0.1), Some(Direction::Left));
}

/// Trains a fresh late stage from 64 beside an untrained main network, one thread, half the games from the pool.
fn tiny_late_training(main: &Network, seed: u64) -> (Network, Starts, Vec<(u64, u64)>) {
    let (late, pool) = (Network::new(0.0), Starts::new(1000));
    let cfg = TrainConfig {
        games: 40,
        threads: 1,
        seed,
        block: 10,
        restart: 0.5,
        ..TrainConfig::default()
    };
    let mut counts = Vec::new();
    train_late(
        main,
        &late,
        LateConfig {
            from: 6,
            ..LateConfig::default()
        },
        None,
        Some(&pool),
        &cfg,
        |_, p| {
            counts.push((p.block_games, p.restarts));
            true
        },
    );
    (late, pool, counts)
}

#[test]
fn late_training_teaches_the_late_network_alone_and_is_reproducible() {
    let main = Network::new(0.0);
    let (a, pool, counts) = tiny_late_training(&main, 3);
    assert_eq!(main.nonzero(), 0, "the main network does not learn");
    assert!(a.nonzero() > 0);
    assert_eq!(a.games(), 40);
    assert!(
        counts
            .iter()
            .all(|&(fresh, restarts)| fresh + restarts == 10)
    );
    assert!(counts.iter().map(|c| c.1).sum::<u64>() > 0, "{counts:?}");
    // The pool holds late boards only.
    assert!(!pool.is_empty());
    for i in 0..pool.len() as u64 {
        assert!(max_exponent(pool.pick(i).unwrap()) >= 6);
    }
    // One thread, the same seed: the same weights.
    let (b, _, _) = tiny_late_training(&main, 3);
    assert!(same_weights(&a, &b));
}

#[test]
fn a_late_game_learns_only_after_the_stage_begins() {
    let (main, late) = (Network::new(0.0), Network::new(0.0));
    let cfg = TrainConfig::default();
    let mut path = Vec::new();
    // A game that never reaches 2^15 from an empty board: played by the main network, nothing learned.
    let mut rng = twenty48::ai::ntuple::game_rng(1, 0);
    let stats = train_late_game(
        &main,
        &late,
        LateConfig {
            from: 15,
            ..LateConfig::default()
        },
        None,
        &mut rng,
        None,
        None,
        &cfg,
        &mut path,
    );
    assert!(stats.moves > 0 && !stats.restarted && stats.max_exponent < 15);
    assert_eq!(late.nonzero(), 0);
    assert!(path.is_empty());
    // From a late board: learned, and counted as a restart.
    let start = bits("0,0,0,128/0,0,0,0/2,0,0,0/0,0,0,2");
    let stats = train_late_game(
        &main,
        &late,
        LateConfig {
            from: 7,
            image_rewards: true,
            ..LateConfig::default()
        },
        None,
        &mut rng,
        Some(start),
        None,
        &cfg,
        &mut path,
    );
    assert!(stats.restarted && stats.moves as usize == path.len() && stats.moves > 0);
    assert!(late.nonzero() > 0);
    assert_eq!(main.nonzero(), 0);
}

#[test]
fn search_targets_move_each_chosen_after_state_toward_its_search_value() {
    let main = Network::new(0.0);
    let cfg = TrainConfig {
        alpha: 0.05,
        ..TrainConfig::default()
    };
    let how = LateConfig {
        from: 7,
        search_depth: 2,
        search_targets: true,
        ..LateConfig::default()
    };
    let start = bits("0,0,0,128/0,0,0,0/2,0,0,0/0,0,0,2");
    let late = Network::new(0.0);
    let (stats, path) = late_game(&main, &late, how, start, &cfg);
    assert!(path.is_empty(), "nothing is learned along the path");
    // The reference: the naive expectimax over the two networks chooses each move, and the reference network
    // moves the after-state's image by alpha toward the search's value of it, then the same spawn follows.
    let (t, reference) = (tables(), Network::new(0.0));
    let mut rng = game_rng(5, 0);
    let (mut b, mut moves, mut score, mut images) = (start, 0u64, 0u64, Vec::new());
    loop {
        let eval = LateStage {
            main: &main,
            late: &reference,
            from: 7,
        };
        let board = Board::from_bitboard(b);
        let Some((d, v)) = naive_expectimax(&board, 2, cfg.four_chance, DEFAULT_CUTOFF, &eval)
        else {
            break;
        };
        let (after, reward) = (t.slide(b, d), t.score(b, d));
        let image = downgrade(after, 7).0;
        let target = v - reward as f32;
        let now = reference.eval(image);
        reference.update(image, cfg.alpha * (target - now));
        images.push(image);
        moves += 1;
        score += reward;
        b = spawn_bitboard(after, &mut rng, cfg.four_chance);
    }
    assert!(moves > 20, "{moves}");
    assert_eq!((stats.moves, stats.score), (moves, score));
    assert_eq!(stats.max_exponent, max_exponent(b));
    assert_eq!(late.nonzero(), reference.nonzero());
    for image in images {
        assert_eq!(late.eval(image).to_bits(), reference.eval(image).to_bits());
    }
    assert_eq!(main.nonzero(), 0);

    // Searched moves learned backward along the path instead: one step a move.
    let late = Network::new(0.0);
    let backward = LateConfig {
        search_targets: false,
        ..how
    };
    let (stats, path) = late_game(&main, &late, backward, start, &cfg);
    assert!(stats.moves > 0 && path.len() as u64 == stats.moves);
    assert!(late.nonzero() > 0);
}

#[test]
fn a_fixed_pool_gives_every_restart_one_of_its_own_boards_and_takes_none() {
    let main = Network::new(0.0);
    let given = [
        bits("0,0,0,128/0,0,0,0/2,0,0,0/0,0,0,2"),
        bits("128,4,0,0/2,0,0,0/0,0,0,0/0,0,2,0"),
    ];
    let pool_of = || {
        let pool = Starts::new(1000);
        for b in given {
            pool.push(b);
        }
        pool
    };
    let cfg = TrainConfig {
        games: 20,
        threads: 1,
        seed: 9,
        block: 10,
        restart: 1.0,
        ..TrainConfig::default()
    };
    let how = LateConfig {
        from: 7,
        fixed_pool: true,
        ..LateConfig::default()
    };
    let (late, pool) = (Network::new(0.0), pool_of());
    let mut restarts = 0;
    train_late(&main, &late, how, None, Some(&pool), &cfg, |_, p| {
        restarts += p.restarts;
        true
    });
    assert_eq!(restarts, 20, "every game starts from the pool");
    assert!(late.nonzero() > 0);
    assert!(pool.same_as(&pool_of()), "the games added nothing");
    // The same games with a pool that grows: it takes their late boards.
    let (late, pool) = (Network::new(0.0), pool_of());
    let grows = LateConfig {
        fixed_pool: false,
        ..how
    };
    train_late(&main, &late, grows, None, Some(&pool), &cfg, |_, _| true);
    assert!(pool.len() > given.len(), "{}", pool.len());
}

#[test]
fn with_the_stores_a_late_game_plays_their_move_where_they_hold_the_board() {
    use twenty48::endgame::shipped;
    let stores = shipped::shipped().unwrap_or_else(|e| panic!("{e}"));
    let advice = shipped::advice(Arc::clone(stores));
    // A board of the last stage's formation that the compiled-in stores hold (met in a depth-2 game).
    let start = bits("0,0,2,4/0,0,2,16/0,0,256,512/16384,4096,2048,1024");
    assert_eq!(advice(start), Some(Direction::Down));
    let (main, late) = (Network::new(0.0), Network::new(0.0));
    let cfg = TrainConfig::default();
    let how = LateConfig {
        stores: true,
        ..LateConfig::default()
    };
    let unlearned = TrainConfig {
        alpha: 0.0,
        ..cfg.clone()
    };
    let play = |how: LateConfig| late_game(&main, &late, how, start, &unlearned);
    let (stats, path) = play(how);
    // The reference: the stores' move where they hold the board, else the greedy move of the (unchanged) network.
    let t = tables();
    let (mut rng, mut b, mut want, mut advised) = (game_rng(5, 0), start, Vec::new(), 0);
    loop {
        let chosen = match advice(b).filter(|&d| t.slide(b, d) != b) {
            Some(d) => {
                advised += 1;
                Some((t.slide(b, d), t.score(b, d)))
            }
            None => greedy_move_downgraded(&late, b, Some(14)).map(|(a, r, _)| (a, r)),
        };
        let Some((after, reward)) = chosen else {
            break;
        };
        want.push((downgrade(after, 14).0, reward));
        b = spawn_bitboard(after, &mut rng, cfg.four_chance);
    }
    assert!(advised > 0);
    assert_eq!(path, want);
    assert_eq!(stats.moves as usize, want.len());
    // Without the stores the game goes otherwise.
    let (_, without) = play(LateConfig {
        stores: false,
        ..how
    });
    assert_ne!(without, want);
}
