//! Mastermind's moves said for a screen reader: the full-screen application driven as a web front end would drive it (`tui/app_core_tests.rs`).

use crate::input::KeyCode;
use crate::tui::app::core_tests::{playing, press};

#[test]
fn mastermind_announces_the_guess_and_its_feedback() {
    let mut app = playing("mastermind", None);
    assert_eq!(app.announce(), None);
    for c in ['R', 'G', 'Y', 'U'] {
        press(&mut app, KeyCode::Char(c));
    }
    press(&mut app, KeyCode::Enter);
    let line = app.announce().expect("a feedback");
    assert!(
        line.starts_with("Move 1: guess 1: RED GREEN YELLOW BLUE: "),
        "{line}"
    );
    assert!(
        line.contains(" black, ") && line.contains(" white."),
        "{line}"
    );
}
