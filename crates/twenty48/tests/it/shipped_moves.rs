//! The shipped player's moves, pinned: fixed seeds' games replayed at fixed depths (deterministic: one thread, no
//! clock), their moves, final score and largest tile compared with the values recorded from the player as it ships.
//! A change to the search, the evaluations or the endgame stores that changes a single move fails here.
//!
//! The games are those the app plays: the network with its endgame stores (`parlor 2048 auto --eval network`, the
//! hints), the hand-made heuristic (`--eval heuristic`, and every build without the network), and the plain
//! expectimax of the other board sizes.

use twenty48::ai::{EvalKind, Player, SearchConfig};
use twenty48::{Direction, Game, Rules, Status};

/// A game's fingerprint: moves played, final score, largest tile, and an FNV-1a hash of its moves.
#[derive(Debug, PartialEq, Eq)]
struct Played {
    moves: usize,
    score: u64,
    max_tile: u64,
    hash: u64,
}

/// Plays `seed`'s game with `player`, up to `max_moves` moves or the end, and fingerprints it.
fn play(rules: Rules, seed: u64, player: &mut Player, max_moves: usize) -> Played {
    let mut game = Game::new(rules, seed);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    while game.status() != Status::Over && game.moves_made() < max_moves {
        game.keep_going();
        let Some(dir) = player.best_move(game.board(), rules.four_chance()) else {
            break;
        };
        let letter = match dir {
            Direction::Up => b'u',
            Direction::Down => b'd',
            Direction::Left => b'l',
            Direction::Right => b'r',
        };
        hash = (hash ^ u64::from(letter)).wrapping_mul(0x0100_0000_01b3);
        game.slide(dir).unwrap();
    }
    Played {
        moves: game.moves_made(),
        score: game.score(),
        max_tile: game.board().max_tile(),
        hash,
    }
}

/// The network player (with the endgame stores when compiled in) at depth 1, a whole game (to 8192).
#[cfg(feature = "network")]
#[test]
fn the_network_players_game_is_unchanged() {
    let (mut player, err) = Player::with_eval(SearchConfig::depth(1), EvalKind::Network);
    assert!(err.is_none(), "{err:?}");
    let got = play(Rules::default(), 11, &mut player, usize::MAX);
    assert_eq!(
        got,
        Played {
            moves: 4470,
            score: 109532,
            max_tile: 8192,
            hash: 12797315415000295876,
        }
    );
}

/// The network player at depth 2: the first 1,500 moves of a game.
#[cfg(feature = "network")]
#[test]
fn the_network_players_deeper_moves_are_unchanged() {
    let (mut player, err) = Player::with_eval(SearchConfig::depth(2), EvalKind::Network);
    assert!(err.is_none(), "{err:?}");
    let got = play(Rules::default(), 5, &mut player, 1500);
    assert_eq!(
        got,
        Played {
            moves: 1500,
            score: 30208,
            max_tile: 2048,
            hash: 17782570127722499935,
        }
    );
}

/// The heuristic player at depth 3 (the default depth): the first 2,000 moves of a game.
#[test]
fn the_heuristic_players_moves_are_unchanged() {
    let (mut player, _) = Player::with_eval(SearchConfig::depth(3), EvalKind::Heuristic);
    let got = play(Rules::default(), 3, &mut player, 2000);
    assert_eq!(
        got,
        Played {
            moves: 2000,
            score: 46232,
            max_tile: 4096,
            hash: 11012832114100388802,
        }
    );
}

/// Other sizes (the general expectimax): whole games on 3x3 and 5x5 at depth 2.
#[test]
fn the_other_sizes_games_are_unchanged() {
    let mut got = Vec::new();
    for size in [3, 5] {
        let rules = Rules::new(size, 0.1, 2048).unwrap();
        let mut player = Player::new(SearchConfig::depth(2));
        got.push(play(rules, 4, &mut player, 3000));
    }
    assert_eq!(
        got,
        vec![
            Played {
                moves: 166,
                score: 2160,
                max_tile: 256,
                hash: 10478580769917218356,
            },
            Played {
                moves: 3000,
                score: 64992,
                max_tile: 4096,
                hash: 18060516810908995536,
            },
        ]
    );
}

/// The network player at depth 2, a whole game to 32768: boards that hold 16384, which the network reads through
/// downgrading, and the endgame stores' formations (about 5 s in the test profile).
#[cfg(feature = "network")]
#[test]
fn the_network_players_late_game_is_unchanged() {
    let (mut player, err) = Player::with_eval(SearchConfig::depth(2), EvalKind::Network);
    assert!(err.is_none(), "{err:?}");
    let got = play(Rules::default(), 2, &mut player, usize::MAX);
    assert_eq!(
        got,
        Played {
            moves: 21855,
            score: 620932,
            max_tile: 32768,
            hash: 2840354366114902993,
        }
    );
}
