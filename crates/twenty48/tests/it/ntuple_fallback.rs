//! Play falls back to the heuristic, with a message, when the network's weights file is damaged. (In a process of
//! its own: the shipped network is loaded once per process, from the file named by an environment variable, so the
//! test runs this test binary again with the variable set for that child only.)

use std::process::Command;
use twenty48::Board;
use twenty48::ai::ntuple::{WEIGHTS_ENV, shipped};
use twenty48::ai::{EvalKind, Player, SearchConfig};

/// Set (to the test's name) in the child process that runs the test.
const CHILD: &str = "TWENTY48_TEST_OWN_PROCESS";

#[test]
fn a_damaged_weights_file_falls_back_to_the_heuristic_with_a_message() {
    // `module_path!()` is `it::ntuple_fallback`; the test's name leaves out the crate.
    let name = format!(
        "{}::a_damaged_weights_file_falls_back_to_the_heuristic_with_a_message",
        module_path!().split_once("::").unwrap().1
    );
    if std::env::var_os(CHILD).is_none_or(|v| v != name.as_str()) {
        let path =
            std::env::temp_dir().join(format!("twenty48-damaged-{}.p48", std::process::id()));
        std::fs::write(&path, b"P48NTUPL\x01\x00\x00\x00 this is not a network").unwrap();
        let o = Command::new(std::env::current_exe().unwrap())
            .args([&name, "--exact", "--include-ignored", "--test-threads", "1"])
            .env(CHILD, &name)
            .env(WEIGHTS_ENV, &path)
            .output()
            .unwrap();
        std::fs::remove_file(&path).unwrap();
        let text =
            String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "in a process of its own:\n{text}");
        assert!(
            text.contains("test result: ok. 1 passed"),
            "the test did not run in a process of its own:\n{text}"
        );
        return;
    }
    // The child: the variable names the damaged file from the start.
    let path = std::path::PathBuf::from(std::env::var_os(WEIGHTS_ENV).unwrap());
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
}
