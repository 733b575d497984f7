//! The screen the menu's Enter opens, made ahead in idle time ([`App::prepare`]): it writes nothing, the key opens
//! exactly it (same screen id, same drawing as one made at the key), and anything else drops it. Played on 2048
//! (the games in progress, the setups of every registered game).

use crate::input::KeyCode;
use crate::tui::app::App;
use crate::tui::app::core_tests::{on_the_menu, press, screen};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

/// The prepared screen as [`App::draw_prepared`] draws it, and the id it says it will have.
fn prepared(app: &mut App) -> Option<(String, u64)> {
    let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    let mut id = None;
    t.draw(|f| id = app.draw_prepared(f)).expect("drawing");
    id.map(|id| (format!("{}", t.backend()), id))
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

/// Prepares the screen the next key would open (`what`, as a failure names it), checking that preparing wrote
/// nothing to the store and left the screen shown as it was: the prepared screen as drawn, and its id.
fn prepare_quietly(app: &mut App, what: &str) -> (String, u64) {
    let shown = screen(app);
    let before = rows(app);
    assert!(app.prepare(), "{what} is prepared");
    let ahead = prepared(app).expect("a prepared screen");
    assert_eq!(rows(app), before, "preparing {what} wrote to the store");
    assert_eq!(
        screen(app),
        shown,
        "preparing {what} changed the screen shown"
    );
    ahead
}

/// Fails, showing the screen, unless the screen shown holds `text`.
#[track_caller]
fn assert_shows(app: &mut App, text: &str) {
    let shown = screen(app);
    assert!(shown.contains(text), "no {text:?} on the screen:\n{shown}");
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
    let mut app = on_the_menu();
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
    assert_shows(&mut app, "Continue 2048");
    app
}

#[test]
fn each_screen_prepared_from_the_menu_writes_nothing_and_enter_opens_that_very_screen() {
    let mut app = menu_with_games();
    let new_games = crate::registry::tui()
        .into_iter()
        .map(|g| format!("New game: {}", g.title()));
    let records = ["Best scores", "Statistics", "History", "Settings", "Help"];
    for label in new_games.chain(records.map(str::to_string)) {
        let label = label.as_str();
        select(&mut app, label);
        let before = rows(&mut app);
        let (ahead, id) = prepare_quietly(&mut app, label);
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
    assert_shows(&mut app, "Enter starts");
    // The setup prepares the new game's first screen; Esc drops it.
    assert!(app.prepare());
    assert!(prepared(&mut app).is_some());
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
    assert_shows(&mut app, "Score");
}

/// From each game's setup, the new game's first screen is made ahead (its seed chosen then), writing nothing, and
/// Enter starts a game that shows exactly that screen; with a seed given (`--seed`, `?seed=`) too.
#[test]
fn a_new_game_prepared_from_its_setup_writes_nothing_and_enter_shows_that_very_screen() {
    for given in [None, Some(9)] {
        let mut app = menu_with_games();
        for game in crate::registry::tui() {
            let label = game.title();
            app.set_seed(given);
            select(&mut app, &format!("New game: {label}"));
            press(&mut app, KeyCode::Enter);
            let setup = screen(&mut app);
            assert!(setup.contains("Enter starts"), "{setup}");
            let (ahead, _) = prepare_quietly(&mut app, &format!("the {label} game"));
            assert!(ahead.contains(&format!("Parlor · {label}")), "{ahead}");
            assert!(app.prepare(), "preparing again keeps it");
            assert_eq!(prepared(&mut app).map(|p| p.0), Some(ahead.clone()));
            press(&mut app, KeyCode::Enter);
            assert_eq!(screen(&mut app), ahead, "{label} starts as drawn ahead");
            press(&mut app, KeyCode::Char('q'));
            assert_shows(&mut app, "Continue");
        }
    }
}

/// On the play screen, the next game is prepared where the next likely key starts one: the end screen and the
/// new-game question; never while the game goes on. The key then shows that very screen.
#[test]
fn the_next_game_is_prepared_on_the_end_screen_and_under_the_new_game_question() {
    let mut app = menu_with_games();
    app.set_seed(Some(5));
    select(&mut app, "New game: 2048");
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Enter);
    for code in [KeyCode::Left, KeyCode::Up, KeyCode::Right, KeyCode::Down] {
        press(&mut app, code);
    }
    assert!(!app.prepare(), "nothing is prepared while the game goes on");
    assert_eq!(prepared(&mut app), None);
    // The new-game question (asked while a game goes on): its yes starts the game prepared.
    press(&mut app, KeyCode::Char('r'));
    assert_shows(&mut app, "New game?");
    let (ahead, _) = prepare_quietly(&mut app, "the next game under the question");
    press(&mut app, KeyCode::Char('y'));
    let fresh = screen(&mut app);
    assert_eq!(fresh, ahead, "the new game starts as drawn ahead");
    assert!(!fresh.contains("seed "), "a fresh seed: {fresh}");
    // The end screen (given up): its new-game key starts the game prepared.
    for code in [KeyCode::Left, KeyCode::Up, KeyCode::Right, KeyCode::Down] {
        press(&mut app, code);
    }
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('y'));
    assert_shows(&mut app, "Game over");
    let (ahead, _) = prepare_quietly(&mut app, "the next game on the end screen");
    press(&mut app, KeyCode::Char('r'));
    assert_eq!(
        screen(&mut app),
        ahead,
        "the new game starts as drawn ahead"
    );
}

#[cfg(feature = "terminal")]
mod new_game {
    use crate::games::twenty48::{Params, Twenty48};
    use crate::input::{KeyCode, KeyEvent};
    use crate::mid::session::Seed;
    use crate::storage::{Store, Unfinished};
    use crate::tui::View;
    use crate::tui::layout::screen_area;
    use crate::tui::setup::SetupView;
    use crate::tui::theme::Theme;
    use crate::tui::{Ctx, Transition};
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    /// What a screen shows, drawn alone.
    fn drawn(view: &mut dyn View) -> String {
        let mut t = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
        t.draw(|f| view.draw(f, screen_area(f.area()), &Theme::MONO))
            .expect("drawing");
        format!("{}", t.backend())
    }

    /// The claims in the store's folder (one per game being played here).
    fn claims(dir: &std::path::Path) -> usize {
        std::fs::read_dir(dir.join("claims")).map_or(0, |d| d.count())
    }

    /// A store in `dir` and what a screen's context needs, with `seed` given as `--seed` would.
    struct Bench(crate::tui::ctx_tests::Owned<Store>);

    impl Bench {
        fn new(dir: &std::path::Path, seed: Option<u64>) -> Bench {
            let store = Store::open(dir).expect("a store").store;
            Bench(crate::tui::ctx_tests::Owned::new(
                store,
                crate::registry::tui(),
                seed,
            ))
        }

        fn with<R>(&mut self, f: impl FnOnce(&mut Ctx) -> R) -> R {
            self.0.with(f)
        }

        /// The game in progress, once a move is made.
        fn unfinished(&mut self) -> Vec<Unfinished> {
            use crate::storage::Storage;
            self.0.store.unfinished(None).expect("reading the store")
        }
    }

    /// Presses Enter on `setup`: the game it starts.
    fn start(setup: &mut SetupView<Twenty48>, bench: &mut Bench) -> Box<dyn View> {
        match bench.with(|ctx| setup.handle_key(KeyEvent::from(KeyCode::Enter), ctx)) {
            Transition::Replace(v) => v,
            _ => panic!("Enter started no game"),
        }
    }

    /// Moves until one is made (the game is saved then): its saved row.
    fn play(game: &mut Box<dyn View>, bench: &mut Bench) -> Unfinished {
        for code in [KeyCode::Left, KeyCode::Up, KeyCode::Right, KeyCode::Down] {
            bench.with(|ctx| game.handle_key(KeyEvent::from(code), ctx));
            if let Some(row) = bench.unfinished().pop() {
                return row;
            }
        }
        panic!("no move made: {}", drawn(game.as_mut()));
    }

    #[test]
    fn preparing_a_new_game_claims_and_writes_nothing_and_enter_plays_the_seed_chosen_ahead() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut bench = Bench::new(dir.path(), None);
        let mut setup = SetupView::<Twenty48>::new(Params::default());
        assert!(bench.with(|ctx| setup.prepare(ctx)), "a game prepared");
        let ahead = setup.seed_ahead().expect("a seed chosen ahead");
        assert!(!ahead.chosen, "a fresh seed is not the player's");
        let first = drawn(setup.prepared().expect("the game prepared"));
        assert_eq!(claims(dir.path()), 0, "preparing claimed a game");
        assert!(bench.unfinished().is_empty(), "preparing wrote a row");
        // Preparing again (later idle time) keeps the seed and the screen.
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert!(bench.with(|ctx| setup.prepare(ctx)));
        assert_eq!(setup.seed_ahead(), Some(ahead));
        assert_eq!(claims(dir.path()), 0);
        std::thread::sleep(std::time::Duration::from_millis(2));
        let mut game = start(&mut setup, &mut bench);
        assert_eq!(drawn(game.as_mut()), first, "the game shows as prepared");
        assert_eq!(claims(dir.path()), 1, "the game started is claimed");
        let row = play(&mut game, &mut bench);
        assert_eq!(row.seed, ahead.value, "the seed chosen ahead is played");
        assert!(!row.seeded, "a fresh seed stays out of `chosen`");
    }

    #[test]
    fn a_seed_given_is_looked_at_when_preparing_and_taken_by_the_game_started() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut bench = Bench::new(dir.path(), Some(42));
        let mut setup = SetupView::<Twenty48>::new(Params::default());
        assert!(bench.with(|ctx| setup.prepare(ctx)));
        assert_eq!(
            setup.seed_ahead(),
            Some(Seed {
                value: 42,
                chosen: true
            })
        );
        assert_eq!(bench.0.seed, Some(42), "preparing took the seed");
        let first = drawn(setup.prepared().expect("the game prepared"));
        assert!(first.contains("seed 42 (not ranked)"), "{first}");
        let mut game = start(&mut setup, &mut bench);
        assert_eq!(bench.0.seed, None, "the game took the seed");
        assert_eq!(drawn(game.as_mut()), first);
        let row = play(&mut game, &mut bench);
        assert_eq!((row.seed, row.seeded), (42, true));
    }

    #[test]
    fn a_setting_changed_after_preparing_drops_the_prepared_game_and_enter_plays_the_new_setting() {
        let dir = tempfile::tempdir().expect("a folder");
        let mut bench = Bench::new(dir.path(), None);
        let mut setup = SetupView::<Twenty48>::new(Params::default());
        assert!(bench.with(|ctx| setup.prepare(ctx)));
        let first = drawn(setup.prepared().expect("the game prepared"));
        let ahead = setup.seed_ahead().expect("a seed chosen ahead");
        bench.with(|ctx| setup.handle_key(KeyEvent::from(KeyCode::Right), ctx));
        assert!(
            setup.prepared().is_none(),
            "the key dropped the prepared game"
        );
        let mut game = start(&mut setup, &mut bench);
        assert_ne!(drawn(game.as_mut()), first, "the new setting shows");
        let row = play(&mut game, &mut bench);
        assert_ne!(
            row.options,
            <Twenty48 as crate::mid::game::Game>::params_to_json(&Params::default()),
            "the game has the new setting"
        );
        assert_eq!(row.seed, ahead.value);
    }
}
