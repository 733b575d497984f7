//! The screen the menu's Enter opens, made ahead in idle time ([`App::prepare`]): it writes nothing, the key opens
//! exactly it (same screen id, same drawing as one made at the key), and anything else drops it.

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

/// The prepared screen as [`App::draw_prepared`] draws it, and the id it says it will have.
fn prepared(app: &mut App) -> Option<(String, u64)> {
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    let mut id = None;
    t.draw(|f| id = app.draw_prepared(f)).expect("drawing");
    id.map(|id| (format!("{}", t.backend()), id))
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::from(code)));
}

/// What the store holds, as text: the games in progress, the history, the games set aside.
fn rows(app: &mut App) -> String {
    let store = app.store();
    format!(
        "{:?} {:?} {:?}",
        store.unfinished(None),
        store.history(None, 1000),
        store.set_aside_count()
    )
}

/// Moves the menu's cursor to the row naming `label`.
fn select(app: &mut App, label: &str) {
    for _ in 0..30 {
        if screen(app)
            .lines()
            .any(|l| l.contains(&format!("▸ {label}")))
        {
            return;
        }
        press(app, KeyCode::Down);
    }
    panic!("no menu row {label:?}: {}", screen(app));
}

/// The menu over a store holding a finished game (given up) and a game in progress, both of 2048.
fn menu_with_games() -> App {
    let mut app = App::new(
        crate::menu_view(None),
        MemoryStore::new(),
        Theme::MONO,
        crate::registry::tui(),
    );
    app.set_animations(false);
    app.start();
    for seed in [7, 8] {
        app.set_seed(Some(seed));
        select(&mut app, "New game: 2048");
        press(&mut app, KeyCode::Enter);
        press(&mut app, KeyCode::Enter);
        for code in [KeyCode::Left, KeyCode::Up, KeyCode::Right] {
            press(&mut app, code);
        }
        press(&mut app, KeyCode::Char('q'));
        if seed == 7 {
            // Discarded: recorded as given up, so the history has a game.
            select(&mut app, "Continue");
            press(&mut app, KeyCode::Char('d'));
            press(&mut app, KeyCode::Char('y'));
        }
    }
    assert!(
        screen(&mut app).contains("Continue 2048"),
        "{}",
        screen(&mut app)
    );
    app
}

#[test]
fn each_screen_prepared_from_the_menu_writes_nothing_and_enter_opens_that_very_screen() {
    let mut app = menu_with_games();
    for label in [
        "New game: 2048",
        "New game: Mastermind",
        "New game: Nocca",
        "Best scores",
        "Statistics",
        "History",
        "Settings",
        "Help",
    ] {
        select(&mut app, label);
        let menu = screen(&mut app);
        let before = rows(&mut app);
        assert!(app.prepare(), "{label} is prepared");
        let (ahead, id) = prepared(&mut app).expect("a prepared screen");
        assert_eq!(
            rows(&mut app),
            before,
            "preparing {label} wrote to the store"
        );
        assert_eq!(screen(&mut app), menu, "the menu shows as it did");
        assert!(app.prepare(), "preparing again keeps it");
        assert_eq!(
            prepared(&mut app).map(|p| p.1),
            Some(id),
            "the same one kept"
        );
        press(&mut app, KeyCode::Enter);
        assert_eq!(
            app.screen_id(),
            id,
            "Enter on {label} opens the prepared screen"
        );
        let opened = screen(&mut app);
        assert_eq!(opened, ahead, "{label} shows as it was drawn ahead");
        press(&mut app, KeyCode::Esc);
        // Made at the key, with nothing prepared, it draws the same.
        select(&mut app, label);
        assert_eq!(
            prepared(&mut app),
            None,
            "the menu showing again dropped it"
        );
        press(&mut app, KeyCode::Enter);
        assert_eq!(screen(&mut app), opened, "{label} made at the key");
        press(&mut app, KeyCode::Esc);
        assert_eq!(rows(&mut app), before, "opening and closing {label}");
    }
}

#[test]
fn a_prepared_screen_is_dropped_when_the_selection_moves_or_another_screen_shows() {
    let mut app = menu_with_games();
    select(&mut app, "New game: 2048");
    assert!(app.prepare());
    assert!(prepared(&mut app).is_some());
    press(&mut app, KeyCode::Down);
    assert_eq!(prepared(&mut app), None, "the selection moved");
    press(&mut app, KeyCode::Up);
    assert_eq!(
        prepared(&mut app),
        None,
        "back on the row: made again only by prepare"
    );
    assert!(app.prepare());
    let (_, id) = prepared(&mut app).expect("prepared again");
    // The help open: nothing prepared, nothing drawn; closing it takes a key, which drops it.
    press(&mut app, KeyCode::Char('?'));
    assert!(!app.prepare(), "nothing is prepared under the help");
    assert_eq!(prepared(&mut app), None);
    press(&mut app, KeyCode::Esc);
    assert!(app.prepare());
    press(&mut app, KeyCode::Enter);
    assert!(
        screen(&mut app).contains("Enter starts"),
        "{}",
        screen(&mut app)
    );
    // The setup prepares nothing (a new game is made at its key).
    assert!(!app.prepare());
    assert_eq!(prepared(&mut app), None);
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        prepared(&mut app),
        None,
        "the menu showing again dropped it"
    );
    assert_ne!(app.screen_id(), id);
}

#[test]
fn continue_and_quit_are_never_prepared() {
    let mut app = menu_with_games();
    let before = rows(&mut app);
    for label in ["Continue", "Quit"] {
        select(&mut app, label);
        assert!(!app.prepare(), "{label} prepared");
        assert_eq!(prepared(&mut app), None);
        assert_eq!(rows(&mut app), before);
    }
    // Continue still opens the game at its key.
    select(&mut app, "Continue");
    press(&mut app, KeyCode::Enter);
    assert!(screen(&mut app).contains("Score"), "{}", screen(&mut app));
}
