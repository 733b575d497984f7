//! Nocca Nocca's moves said for a screen reader: the full-screen application driven as a web front end would drive it (`tui/app_core_tests.rs`).

use crate::input::KeyCode;
use crate::tui::app::core_tests::{playing, press, screen};

#[test]
fn nocca_announces_who_moved_where() {
    let mut app = playing("nocca", None);
    assert_eq!(app.announce(), None);
    // The cursor starts on a black piece: select it, then step it up (8).
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('8'));
    let line = app.announce().unwrap_or_else(|| screen(&mut app));
    assert!(line.starts_with("Move 1: Black moved "), "{line}");
    assert!(line.contains(". White (computer) to move"), "{line}");
}
