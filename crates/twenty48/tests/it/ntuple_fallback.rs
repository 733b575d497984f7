//! Play falls back to the heuristic, with a message, when the network's weights file is damaged. (Its own test
//! binary: the shipped network is loaded once per process, from the file named by an environment variable.)

use twenty48::Board;
use twenty48::ai::ntuple::{WEIGHTS_ENV, shipped};
use twenty48::ai::{EvalKind, Player, SearchConfig};

#[test]
fn a_damaged_weights_file_falls_back_to_the_heuristic_with_a_message() {
    let path = std::env::temp_dir().join(format!("twenty48-damaged-{}.p48", std::process::id()));
    std::fs::write(&path, b"P48NTUPL\x01\x00\x00\x00 this is not a network").unwrap();
    // SAFETY: set before any thread of this test binary reads the environment (its only test).
    unsafe { std::env::set_var(WEIGHTS_ENV, &path) };
    let (mut player, error) = Player::with_eval(SearchConfig::depth(2), EvalKind::Network);
    let message = error.expect("the damaged file is reported").to_string();
    assert!(message.contains(&path.display().to_string()), "{message}");
    assert!(
        message.contains("not a valid 2048 weights file"),
        "{message}"
    );
    assert_eq!(player.eval_kind(), EvalKind::Heuristic);
    // The error is kept: the file is not read again.
    assert!(shipped().is_err());
    let board: Board = "2,2,0,0/0,4,0,0/0,0,0,0/0,0,0,2".parse().unwrap();
    let d = player.best_move(&board, 0.1).unwrap();
    assert!(board.can_slide(d));
    let (_, none) = Player::with_eval(SearchConfig::depth(1), EvalKind::Heuristic);
    assert!(none.is_none());
    std::fs::remove_file(&path).unwrap();
}
