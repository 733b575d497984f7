//! Helpers for tests that drive the full-screen interface without a terminal: an [`App`] over a `TestBackend`.

use parlor::input::{Event, KeyCode, KeyEvent, KeyModifiers};
use parlor::mid::game::Game;
use parlor::mid::session::{Seed, Session};
use parlor::storage::Store;
use parlor::tui::View;
use parlor::tui::app::App;
use parlor::tui::game::TuiGame;
use parlor::tui::menu::MenuView;
use parlor::tui::play::PlayView;
use parlor::tui::theme::Theme;
use ratatui::{Terminal, backend::TestBackend};
use std::time::{Duration, Instant};

/// No colour, so that snapshots show text only.
pub const NO_COLOR: Theme = Theme::MONO;

/// A database on disk (in a fresh folder under the build's temporary directory), for tests that check what is
/// called saved: a database in memory keeps nothing, so nothing played in it is ever called saved.
pub fn disk_store() -> Store {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("a temporary folder")
        .keep();
    Store::open(&dir).expect("a database").store
}

/// An unchosen seed (the game ranks).
pub fn seed(value: u64) -> Seed {
    Seed {
        value,
        chosen: false,
    }
}

/// A new session of `G` with `params` in `store`.
pub fn session<G: Game>(params: G::Params, value: u64, store: &Store) -> Session<G> {
    Session::new(params, seed(value), store).expect("a valid game")
}

/// An app over `store` showing `views` (the last on top).
pub fn app(views: Vec<Box<dyn View>>, store: Store) -> App {
    let mut app = App::with_stack(views, store, NO_COLOR, parlor::registry::tui());
    // Screens are read right after each key: no animation frames in between.
    app.set_animations(false);
    app.start();
    app
}

/// An app showing the menu with a play screen for `session` on top.
pub fn game_app<G: TuiGame>(session: Session<G>, store: Store) -> App {
    app(
        vec![
            Box::new(MenuView::new(None)),
            Box::new(PlayView::new(session)),
        ],
        store,
    )
}

/// An app showing the menu.
pub fn menu_app(store: Store) -> App {
    app(vec![Box::new(MenuView::new(None))], store)
}

/// The screen drawn at `w` x `h`, as the terminal would show it.
pub fn render(app: &mut App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    t.draw(|f| app.draw(f)).expect("drawing");
    t
}

/// The screen drawn at `w` x `h`, as text.
pub fn screen(app: &mut App, w: u16, h: u16) -> String {
    format!("{}", render(app, w, h).backend())
}

/// Presses a key.
pub fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

/// Types each character of `text` as a key press.
pub fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Ticks the app (as the event loop does when idle) until the 80 x 24 screen satisfies `done`, for at most ten
/// seconds; the computer thinks on background threads. Returns the screen.
pub fn wait_until(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        app.tick();
        let s = screen(app, 80, 24);
        if done(&s) {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting; the screen is:\n{s}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}
