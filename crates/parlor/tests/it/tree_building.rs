//! Issue 24: the same Super Mastermind position got "about 4.5 guesses to go", then 5.5 once the strategy tree
//! was built in the background, and nothing on screen said a tree was being built. While it is, the status line
//! says so with its progress, and the hint calls its figure a rough estimate. (In a process of its own: it sets the
//! process's data directory for trees, and the build it starts ends with that process, a moment after the test.)
//! Super's default strategy now plays a tree compiled in (`best`, nothing to build), so the test asks for the
//! entropy strategy, whose tree is built in the background.

use crate::common;
use crate::common::app::*;
use mastermind::Strategy;
use parlor::games::mastermind::{Mastermind, Params, Role};
use parlor::input::KeyCode;
use parlor::storage::Store;

#[test]
fn the_screen_says_a_strategy_tree_is_being_built_and_the_estimate_is_rough() {
    if !common::in_own_process(
        module_path!(),
        "the_screen_says_a_strategy_tree_is_being_built_and_the_estimate_is_rough",
    ) {
        return;
    }
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let store = Store::in_memory().unwrap();
    let params = Params {
        preset: Some("super"),
        role: Role::Breaker,
        strategy: Some(Strategy::Entropy),
        ..Params::default()
    };
    let trees = parlor::games::mastermind::trees::Trees::new(Some(dir.path()));
    let s = session::<Mastermind>(params, 5, &store).with_context(trees);
    let mut app = game_app(s, store);
    type_text(&mut app, "12345");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('t'));
    let s = wait_until(&mut app, |s| s.contains("hint: try"));
    assert!(s.contains("building the strategy tree"), "{s}");
    // The message wraps: read it as one text.
    let text: String = s
        .lines()
        .map(|l| l.trim_matches(|c| c == '"' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("guesses to go (a rough estimate until the tree is built)"),
        "{s}"
    );
}
