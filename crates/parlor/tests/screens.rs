//! Whole-screen snapshots of the full-screen interface (ratatui's TestBackend + insta; snapshots are committed).

use crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use parlor::games::twenty48::{Options, Session};
use parlor::storage::Store;
use parlor::tui::app::App;
use parlor::tui::menu::MenuView;
use parlor::tui::theme::Theme;
use parlor::tui::twenty48::Twenty48View;
use ratatui::{Terminal, backend::TestBackend};
use twenty48::Direction;

const NO_COLOR: Theme = Theme { color: false };

fn render(app: &mut App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    t
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn game_app(session: Session) -> App {
    App::new(
        Box::new(Twenty48View::new(session)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    )
}

/// Plays the moves in a fixed rotation until `stop` says so.
fn play_until(session: &mut Session, store: &mut Store, stop: impl Fn(&Session) -> bool) {
    let order = [
        Direction::Left,
        Direction::Down,
        Direction::Right,
        Direction::Up,
    ];
    let mut i = 0;
    while !stop(session) && session.ended.is_none() {
        session.slide(order[i % 4], store);
        i += 1;
        assert!(i < 100_000, "the game should end");
    }
}

#[test]
fn menu() {
    let mut app = App::new(
        Box::new(MenuView::new(None)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    app.start();
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn menu_with_a_game_to_continue_and_a_storage_notice() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::new(Options::default(), 11).unwrap();
    s.slide(Direction::Left, &mut store);
    let mut app = App::new(
        Box::new(MenuView::new(Some(
            "The database was damaged; it was moved aside.".into(),
        ))),
        store,
        NO_COLOR,
        None,
    );
    app.start();
    let screen = format!("{}", render(&mut app, 100, 24).backend());
    assert!(screen.contains("Continue 2048 4x4 · score"), "{screen}");
    assert!(screen.contains("moved aside"), "{screen}");
}

#[test]
fn board_after_two_moves() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::new(Options::default(), 1).unwrap();
    s.slide(Direction::Left, &mut store);
    s.slide(Direction::Down, &mut store);
    let mut app = game_app(s);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn small_board_uses_compact_cells_on_a_short_terminal() {
    let s = Session::new(
        Options {
            size: 8,
            ..Options::default()
        },
        2,
    )
    .unwrap();
    let mut app = game_app(s);
    insta::assert_snapshot!(render(&mut app, 70, 16).backend());
}

#[test]
fn win_prompt() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::new(
        Options {
            target: 16,
            ..Options::default()
        },
        3,
    )
    .unwrap();
    play_until(&mut s, &mut store, |s| s.awaiting_decision());
    let mut app = game_app(s);
    // The prompt appears when the winning move is made through the screen, so make the view see it.
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn game_over() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::new(
        Options {
            size: 3,
            ..Options::default()
        },
        4,
    )
    .unwrap();
    play_until(&mut s, &mut store, |_| false);
    let mut app = game_app(s);
    insta::assert_snapshot!(render(&mut app, 80, 24).backend());
}

#[test]
fn help_overlay() {
    let s = Session::new(Options::default(), 5).unwrap();
    let mut app = game_app(s);
    press(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!(render(&mut app, 80, 30).backend());
    press(&mut app, KeyCode::Esc);
    let screen = format!("{}", render(&mut app, 80, 30).backend());
    assert!(!screen.contains("Help: 2048"), "Esc closes the help");
}

#[test]
fn terminal_too_small() {
    let s = Session::new(Options::default(), 6).unwrap();
    let mut app = game_app(s);
    insta::assert_snapshot!(render(&mut app, 30, 8).backend());
    // And it recovers when the terminal grows again.
    let screen = format!("{}", render(&mut app, 80, 24).backend());
    assert!(screen.contains("Score 0"), "{screen}");
}

#[test]
fn keys_drive_the_game_and_undo() {
    let s = Session::new(Options::default(), 7).unwrap();
    let mut app = game_app(s);
    let before = format!("{}", render(&mut app, 80, 24).backend());
    for k in [
        KeyCode::Left,
        KeyCode::Char('j'),
        KeyCode::Char('d'),
        KeyCode::Char('w'),
    ] {
        press(&mut app, k);
    }
    let moved = format!("{}", render(&mut app, 80, 24).backend());
    assert_ne!(before, moved);
    press(&mut app, KeyCode::Char('u'));
    let undone = format!("{}", render(&mut app, 80, 24).backend());
    assert!(undone.contains("assisted"), "{undone}");
    // Unknown keys are refused with a message, not a crash.
    press(&mut app, KeyCode::Char('z'));
    assert!(format!("{}", render(&mut app, 80, 24).backend()).contains("does nothing here"));
}

#[test]
fn drawing_never_panics_at_any_size() {
    for size in 3..=8 {
        let s = Session::new(
            Options {
                size,
                ..Options::default()
            },
            size as u64,
        )
        .unwrap();
        let mut app = game_app(s);
        for w in (0..=120).step_by(7) {
            for h in (0..=50).step_by(3) {
                render(&mut app, w, h);
            }
        }
    }
}

#[test]
fn tip_and_autoplay_mark_the_game_assisted_and_any_key_stops_autoplay() {
    let s = Session::new(Options::default(), 8).unwrap();
    let mut app = game_app(s);
    press(&mut app, KeyCode::Char('t'));
    let screen = format!("{}", render(&mut app, 80, 24).backend());
    assert!(screen.contains("tip: slide"), "{screen}");
    assert!(screen.contains("assisted"), "{screen}");
    press(&mut app, KeyCode::Char('p'));
    for _ in 0..5 {
        app.tick();
    }
    let screen = format!("{}", render(&mut app, 80, 24).backend());
    assert!(screen.contains("Moves 5"), "{screen}");
    assert!(screen.contains("autoplay:"), "{screen}");
    press(&mut app, KeyCode::Char('x'));
    app.tick();
    let screen = format!("{}", render(&mut app, 80, 24).backend());
    assert!(screen.contains("Moves 5"), "autoplay stopped: {screen}");
    assert!(screen.contains("autoplay stopped"), "{screen}");
}

#[test]
fn long_help_scrolls() {
    let s = Session::new(Options::default(), 9).unwrap();
    let mut app = game_app(s);
    press(&mut app, KeyCode::Char('?'));
    let top = format!("{}", render(&mut app, 80, 20).backend());
    for _ in 0..30 {
        press(&mut app, KeyCode::Down);
    }
    let bottom = format!("{}", render(&mut app, 80, 20).backend());
    assert!(!top.contains("Press ? or Esc to close."), "{top}");
    assert!(bottom.contains("Press ? or Esc to close."), "{bottom}");
}

#[test]
fn key_releases_are_ignored() {
    let s = Session::new(Options::default(), 10).unwrap();
    let mut app = game_app(s);
    let before = format!("{}", render(&mut app, 80, 24).backend());
    let mut release = KeyEvent::new(KeyCode::Left, KeyModifiers::NONE);
    release.kind = crossterm::event::KeyEventKind::Release;
    app.handle_event(Event::Key(release));
    assert_eq!(before, format!("{}", render(&mut app, 80, 24).backend()));
}

#[test]
fn history_opens_a_replay_that_steps_through_the_game() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::new(
        Options {
            size: 3,
            ..Options::default()
        },
        12,
    )
    .unwrap();
    play_until(&mut s, &mut store, |_| false);
    let moves = s.game.moves_made();
    let mut app = App::new(Box::new(MenuView::new(None)), store, NO_COLOR, None);
    app.start();
    // Menu: 2048, Mastermind, Nocca Nocca, Best scores, History...
    for _ in 0..4 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let list = format!("{}", render(&mut app, 100, 24).backend());
    assert!(
        list.contains("#1") && list.contains("2048") && list.contains("lost"),
        "{list}"
    );
    press(&mut app, KeyCode::Enter);
    let start = format!("{}", render(&mut app, 80, 24).backend());
    assert!(
        start.contains(&format!("Step 0/{moves} (start)")),
        "{start}"
    );
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    let two = format!("{}", render(&mut app, 80, 24).backend());
    assert!(two.contains(&format!("Step 2/{moves}")), "{two}");
    press(&mut app, KeyCode::End);
    let end = format!("{}", render(&mut app, 80, 24).backend());
    assert!(end.contains(&format!("score {}", s.game.score())), "{end}");
    press(&mut app, KeyCode::Char('q'));
    press(&mut app, KeyCode::Char('q'));
    let menu = format!("{}", render(&mut app, 80, 24).backend());
    assert!(menu.contains("Parlor · classic thinking games"), "{menu}");
}

#[test]
fn the_menus_help_page_scrolls_through_every_games_rules() {
    let mut app = App::new(
        Box::new(MenuView::new(None)),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    app.start();
    // Menu: 2048, Mastermind, Nocca Nocca, Best scores, History, Help, Quit.
    for _ in 0..5 {
        press(&mut app, KeyCode::Down);
    }
    press(&mut app, KeyCode::Enter);
    let top = format!("{}", render(&mut app, 80, 24).backend());
    assert!(
        top.contains("Parlor · help") && top.contains("Parlor is a suite"),
        "{top}"
    );
    for _ in 0..200 {
        press(&mut app, KeyCode::Down);
    }
    let bottom = format!("{}", render(&mut app, 80, 24).backend());
    assert!(!bottom.contains("Parlor is a suite"), "{bottom}");
    // The end of the last game's rules is on screen.
    let last = parlor::games::nocca::RULES.last().unwrap();
    let tail: String = last
        .split_whitespace()
        .rev()
        .take(2)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(bottom.contains(&tail), "{tail:?} not in {bottom}");
}
