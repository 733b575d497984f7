//! Nocca Nocca on the full screen: snapshots (TestBackend + insta) of the setup, play, end, help and replay
//! screens, the keys (issue 9, defect 8), the mouse, and the computer's move in the background.

use crate::common::app::disk_store;
use nocca::{Colour, Level, Move};
use parlor::games::nocca::{Mode, Nocca, Params};
use parlor::input::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use parlor::mid::game::Game;
use parlor::mid::record::Replay;
use parlor::mid::session::{Seed, Session};
use parlor::storage::{Storage, Store};
use parlor::tui::app::App;
use parlor::tui::menu::MenuView;
use parlor::tui::play::PlayView;
use parlor::tui::replay::ReplayView;
use parlor::tui::setup::SetupView;
use parlor::tui::theme::Theme;
use ratatui::{Terminal, backend::TestBackend};
use std::time::{Duration, Instant};

const NO_COLOR: Theme = Theme::MONO;

/// Seven plies that build a full stack on c3: black, white, black (top).
const TALL: &str = "c1k c6j c2k c5j b1u c4j c2k";

/// A two-player game that Black wins in the goal after 11 plies.
const GOAL_GAME: &str = "c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j c6k";

fn render(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    format!("{}", t.backend())
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn seed(v: u64) -> Seed {
    Seed {
        value: v,
        chosen: false,
    }
}

fn session(params: Params, moves: &str, store: &mut Store) -> Session<Nocca> {
    let mut s = Session::<Nocca>::new(params, seed(1), store).unwrap();
    for m in moves.split_whitespace() {
        s.play(m.parse::<Move>().unwrap(), store).unwrap();
    }
    s
}

fn two() -> Params {
    Params {
        mode: Mode::Two,
        ..Params::default()
    }
}

/// The menu with a two-player game on top of it.
fn game_app(moves: &str) -> App {
    let mut store = disk_store();
    let s = session(two(), moves, &mut store);
    let mut app = App::with_stack(
        vec![Box::new(MenuView::new(None)), Box::new(PlayView::new(s))],
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    app
}

#[test]
fn setup_screen() {
    let mut app = App::new(
        Box::new(SetupView::<Nocca>::new(Params::default())),
        Store::in_memory().unwrap(),
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Enter starts: vs strong"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn setup_offers_every_board_and_names_the_variant_with_it() {
    let mut app = App::new(
        Box::new(SetupView::<Nocca>::new(Params::default())),
        Store::in_memory().unwrap(),
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Right);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("◀ 3x3 ▶"), "{screen}");
    assert!(screen.contains("Enter starts: vs casual 3x3"), "{screen}");
    press(&mut app, KeyCode::Enter);
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("Parlor · Nocca Nocca · vs casual 3x3"),
        "{screen}"
    );
    assert!(screen.contains("▼ goal for White"), "{screen}");
    assert!(!screen.contains(" 4 │"), "three rows only: {screen}");
}

#[test]
fn mid_game_with_a_selected_piece_its_moves_and_a_tall_stack() {
    let mut app = game_app(TALL);
    // White to move; the cursor starts on c6 (White's home row): go to b6 and select it.
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("b6 selected: 4 a6 · 6 c6 · 1 a5 · 2 b5 · 3 c5"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn a_digit_steps_the_selected_piece_and_u_only_undoes() {
    let mut app = game_app(TALL);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('3')); // b6 -> c5 (down-right on a number pad)
    let screen = render(&mut app, 80, 24);
    // Issue 24: the full screen names moves by their squares, as they are played there.
    assert!(screen.contains("last b6→c5"), "{screen}");
    assert!(screen.contains("Black to move"), "{screen}");
    // Issue 9, defect 8: `u` was also the up-right step of a selected piece; now it only undoes.
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter); // a black piece selected...
    press(&mut app, KeyCode::Char('u')); // ...and u takes back White's move all the same
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("undo: took back") && screen.contains("(the game is now assisted)"),
        "{screen}"
    );
    assert!(screen.contains("White to move"), "{screen}");
    assert!(screen.contains("assisted"), "{screen}");
    // The seed's step letters are not keys of the full screen any more.
    press(&mut app, KeyCode::Char('y'));
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("'y' does nothing here: ? for help"),
        "{screen}"
    );
}

#[test]
fn esc_cancels_a_selection_and_then_goes_back_to_the_menu() {
    // Issue 9, defect 8: Esc did not quit Nocca Nocca.
    let mut app = game_app("c1k");
    press(&mut app, KeyCode::Enter);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("c6 selected"), "{screen}");
    press(&mut app, KeyCode::Esc);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("selection cancelled"), "{screen}");
    assert!(screen.contains("Parlor · Nocca Nocca"), "{screen}");
    press(&mut app, KeyCode::Esc);
    let screen = render(&mut app, 80, 24);
    assert!(!screen.contains("Parlor · Nocca Nocca ·"), "{screen}");
    assert!(
        screen.contains("Continue Nocca Nocca two players · ply 1 · White to move"),
        "{screen}"
    );
    assert!(screen.contains("Nocca Nocca saved"), "{screen}");
}

#[test]
fn help_screen_lists_every_key_that_works() {
    // Issue 9, defect 8: every key that works is in the help.
    let mut app = game_app("c1k");
    press(&mut app, KeyCode::Char('?'));
    let screen = render(&mut app, 100, 50);
    for label in [
        "↑ k w",
        "↓ j s",
        "← h a",
        "→ l d",
        "Enter Space",
        "7",
        "8",
        "9",
        "4",
        "6",
        "1",
        "2",
        "3",
        "cancel the selection (Esc",
        "u",
        "t",
        "x",
        "r",
        "q",
        "y Y Enter",
        "n N Esc",
    ] {
        assert!(screen.contains(label), "{label}: {screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn selecting_and_moving_with_the_mouse() {
    let mut app = game_app("");
    // Draw once so that the view knows where the board is.
    let screen = render(&mut app, 80, 24);
    let lines: Vec<&str> = screen.lines().collect();
    // Row 1 is the last board row; find the line and the column of c1's piece.
    let y = lines.iter().position(|l| l.contains(" 1 │")).unwrap();
    let x = lines[y].chars().position(|c| c == '│').unwrap() + 1 + 2 * 8 + 3;
    let click = |app: &mut App, x: usize, y: usize| {
        app.handle_event(Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column: x as u16 - 1, // the TestBackend output starts each line with a quote
            row: y as u16,
            modifiers: KeyModifiers::NONE,
        }))
    };
    click(&mut app, x, y);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("c1 selected"), "{screen}");
    // c2 is two lines up.
    click(&mut app, x, y - 2);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("White to move · last c1→c2"), "{screen}");
}

#[test]
fn end_screen_after_a_goal() {
    let mut app = game_app(GOAL_GAME);
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("Black reached the goal in 11 plies"),
        "{screen}"
    );
    assert!(screen.contains("not ranked"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn the_replay_steps_through_a_recorded_game() {
    let mut store = Store::in_memory().unwrap();
    let s = session(two(), GOAL_GAME, &mut store);
    let id = s.ended().unwrap().id.unwrap();
    let record = store.game(id).unwrap().unwrap();
    let view = ReplayView::new(Replay::<Nocca>::new(&record).unwrap());
    let mut app = App::new(Box::new(view), store, NO_COLOR, parlor::registry::tui());
    app.start();
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Move 0 of 11 · start"), "{screen}");
    press(&mut app, KeyCode::Right);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Move 1 of 11 · c1k"), "{screen}");
    press(&mut app, KeyCode::End);
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("done · Black reached the goal in 11 plies"),
        "{screen}"
    );
    assert!(screen.contains("*GOAL*"), "{screen}");
    // The title holds the time the game ended: kept out of the snapshot.
    let when = parlor::storage::format_time(record.ended_at);
    insta::assert_snapshot!(screen.replace(&when, "YYYY-MM-DD HH:MM"));
}

#[test]
fn the_computer_moves_in_the_background() {
    let store = Store::in_memory().unwrap();
    let params = Params {
        mode: Mode::Computer,
        level: Level::Beginner.into(),
        human: Colour::White,
        first: Colour::Black,
        ..Params::default()
    };
    let s = Session::<Nocca>::new(params, seed(3), &store).unwrap();
    let mut app = App::new(
        Box::new(PlayView::new(s)),
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Black (computer) to move"), "{screen}");
    let t = Instant::now();
    loop {
        app.tick();
        let screen = render(&mut app, 80, 24);
        if screen.contains("White (you) to move") {
            assert!(screen.contains("the computer played"), "{screen}");
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "{screen}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn menu_continue_line_counts_plies() {
    // Issue 9, defect 5: the Continue line said "score 111 · 111 moves" for Nocca Nocca.
    let mut store = Store::in_memory().unwrap();
    let s = session(Params::default(), "c1k c6j c2k", &mut store);
    drop(s);
    let saved = store.unfinished(Some("nocca")).unwrap();
    assert_eq!(
        parlor::mid::AnyGame::progress(
            &parlor::mid::Entry::<Nocca>::new(),
            &saved[0],
            &Default::default()
        ),
        Ok("ply 3 · White to move".to_string())
    );
    let mut app = App::new(
        Box::new(MenuView::new(None)),
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    let screen = render(&mut app, 100, 24);
    assert!(
        screen.contains("Continue Nocca Nocca vs casual · ply 3 · White to move"),
        "{screen}"
    );
    assert!(!screen.contains("score 3"), "{screen}");
    assert_eq!(Nocca::score_name(), "plies");
}

#[test]
fn a_hint_names_a_legal_move_and_marks_the_game_assisted() {
    let mut app = game_app("c1k");
    press(&mut app, KeyCode::Char('t'));
    let t = Instant::now();
    loop {
        app.tick();
        let screen = render(&mut app, 80, 24);
        if screen.contains("hint: ") {
            assert!(screen.contains("(the game is now assisted)"), "{screen}");
            assert!(screen.contains("assisted"), "{screen}");
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "{screen}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Ticks `app` until `done` holds for its screen (at most 20 s).
fn tick_until(app: &mut App, done: impl Fn(&str) -> bool) -> String {
    let t = Instant::now();
    loop {
        app.tick();
        let screen = render(app, 80, 24);
        if done(&screen) {
            return screen;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "{screen}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn watching_the_computer_shows_no_cursor_and_its_moves_go_on() {
    let store = Store::in_memory().unwrap();
    let params = Params {
        mode: Mode::Watch,
        level: Level::Beginner.into(),
        ..Params::default()
    };
    let s = Session::<Nocca>::new(params, seed(4), &store).unwrap();
    let mut app = App::new(
        Box::new(PlayView::new(s)),
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    let screen = tick_until(&mut app, |s| s.contains("Plies 2 "));
    assert!(screen.contains("(computer) to move"), "{screen}");
    assert!(!screen.contains('['), "no cursor while watching: {screen}");
    assert!(!screen.contains("t hint"), "{screen}");
    press(&mut app, KeyCode::Char('u'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("nothing to undo"), "{screen}");
}

#[test]
fn autoplay_plays_your_side_against_the_computer() {
    let store = Store::in_memory().unwrap();
    let params = Params {
        level: Level::Beginner.into(),
        ..Params::default()
    };
    let s = Session::<Nocca>::new(params, seed(6), &store).unwrap();
    let mut app = App::new(
        Box::new(PlayView::new(s)),
        store,
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.start();
    // The whole hint bar shows on a wide screen (a narrower one drops its least important hints).
    let screen = render(&mut app, 120, 24);
    assert!(screen.contains("p autoplay"), "{screen}");
    press(&mut app, KeyCode::Char('p'));
    let screen = tick_until(&mut app, |s| s.contains("Plies 4 "));
    assert!(screen.contains("assisted"), "{screen}");
    press(&mut app, KeyCode::Char('k'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("autoplay stopped"), "{screen}");
}
