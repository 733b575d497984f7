//! The full-screen application driven as a web front end would drive it: no terminal, a [`MemoryStore`], events
//! made of [`crate::input`] types, frames drawn into a test backend. Runs with and without the `terminal` feature.

use super::App;
use crate::input::{Event, KeyCode, KeyEvent};
use crate::storage::MemoryStore;
use crate::tui::theme::Theme;
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The screen as an 80 x 24 terminal shows it.
pub(crate) fn screen(app: &mut App) -> String {
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    t.draw(|f| app.draw(f)).expect("drawing");
    format!("{}", t.backend())
}

/// One key press.
pub(crate) fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::from(code)));
}

/// An app showing the menu, every game registered, rows in memory, no animation.
pub(crate) fn on_the_menu() -> App {
    let mut app = App::new(
        crate::menu_view(None),
        MemoryStore::new(),
        Theme::MONO,
        crate::registry::tui(),
    );
    app.set_animations(false);
    app.start();
    app
}

/// An app playing a new game of `id` with `params` (JSON; `None`: the defaults) from seed 5.
pub(crate) fn playing(id: &str, params: Option<&str>) -> App {
    let games = crate::registry::tui();
    let game = *games
        .iter()
        .find(|g| g.id() == id)
        .expect("a registered game");
    let mut owned = crate::tui::ctx_tests::Owned::new(MemoryStore::new(), games.clone(), Some(5));
    let view = owned
        .with(|ctx| game.start(params, ctx))
        .expect("a new game");
    let mut app = App::new(view, owned.store, Theme::MONO, games.clone());
    app.set_animations(false);
    app.start();
    app
}

#[test]
fn the_help_drawn_ahead_of_time_is_the_one_question_mark_shows_and_leaves_it_closed() {
    let mut app = on_the_menu();
    let mut ahead = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    ahead
        .draw(|f| app.draw_with_help(f))
        .expect("drawing the help ahead");
    let ahead = format!("{}", ahead.backend());
    assert!(ahead.contains("Help: "), "{ahead}");
    assert!(
        !screen(&mut app).contains("Help: "),
        "the help stays closed"
    );
    press(&mut app, KeyCode::Char('?'));
    assert_eq!(screen(&mut app), ahead, "the same help as '?' opens");
    // Drawn ahead while open, it stays open.
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    t.draw(|f| app.draw_with_help(f)).expect("drawing");
    assert!(screen(&mut app).contains("Help: "));
}

#[test]
fn the_screen_id_stays_with_a_screen_and_changes_with_another() {
    let mut app = on_the_menu();
    let menu = app.screen_id();
    // Drawing, moving the cursor and the help open and shut leave the menu the same screen.
    let _ = screen(&mut app);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Up);
    press(&mut app, KeyCode::Char('?'));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.screen_id(), menu);
    // The setup is another screen; closing it gives the menu's back.
    press(&mut app, KeyCode::Enter);
    let setup = app.screen_id();
    assert_ne!(setup, menu, "{}", screen(&mut app));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.screen_id(), menu, "{}", screen(&mut app));
    // The game is another again, and stays one while it is played.
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    let game = app.screen_id();
    assert_ne!(game, menu);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Right);
    assert_eq!(app.screen_id(), game, "{}", screen(&mut app));
}
