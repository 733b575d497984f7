//! 2048 played from the menu: the full-screen application driven as a web front end would drive it (`tui/app_core_tests.rs`).

use crate::input::KeyCode;
use crate::tui::app::core_tests::{on_the_menu, press, screen};

#[test]
fn a_game_is_started_and_played_from_the_menu_without_a_terminal() {
    let mut app = on_the_menu();
    assert!(screen(&mut app).contains("New game: 2048"));
    // The first new game is 2048's: its setup form, then the board.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    for code in [KeyCode::Left, KeyCode::Up, KeyCode::Right, KeyCode::Down] {
        press(&mut app, code);
        let _ = screen(&mut app);
    }
    let saved = app.store().unfinished(None).expect("the rows");
    assert_eq!(saved.len(), 1, "{}", screen(&mut app));
    assert_eq!(saved[0].game, "2048");
    assert!(!saved[0].moves.is_empty());
    press(&mut app, KeyCode::Char('q'));
    assert!(app.running(), "back on the menu");
}

#[test]
fn slides_are_announced_for_a_screen_reader() {
    let mut app = on_the_menu();
    assert_eq!(app.announce(), None, "the menu says nothing");
    assert_eq!(
        app.tick_ms(),
        250,
        "an idle menu is ticked at the default pace"
    );
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let _ = screen(&mut app);
    assert_eq!(app.announce(), None, "no move yet");
    let mut said = Vec::new();
    for code in [KeyCode::Left, KeyCode::Up, KeyCode::Right, KeyCode::Down] {
        press(&mut app, code);
        let _ = screen(&mut app);
        said.extend(app.announce());
    }
    let last = said.last().expect("a line after a move");
    assert!(last.starts_with("Move "), "{last}");
    assert!(last.contains(": down: ") || said.len() < 4, "{said:?}");
    assert!(last.contains("score "), "{last}");
    assert!(last.contains("new "), "{last}");
    press(&mut app, KeyCode::Char('?'));
    assert_eq!(app.announce(), None, "nothing while the help shows");
}
