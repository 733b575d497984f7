//! The full-screen application driven as a web front end would drive it: no terminal, a [`MemoryStore`], events
//! made of [`crate::input`] types, frames drawn into a test backend. Runs with and without the `terminal` feature.

use super::App;
use crate::input::{Event, KeyCode, KeyEvent};
use crate::storage::MemoryStore;
use crate::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn screen(app: &mut App) -> String {
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    t.draw(|f| app.draw(f)).expect("drawing");
    format!("{}", t.backend())
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::from(code)));
}

#[test]
fn a_game_is_started_and_played_from_the_menu_without_a_terminal() {
    let mut app = App::new(
        crate::menu_view(None),
        MemoryStore::new(),
        Theme::MONO,
        crate::registry::tui(),
    );
    app.set_animations(false);
    app.start();
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
