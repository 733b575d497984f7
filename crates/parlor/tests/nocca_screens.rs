//! Nocca Nocca full-screen snapshots (TestBackend + insta) and the background computer move.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use parlor::games::nocca::{Mode, Options, Session};
use parlor::storage::Store;
use parlor::tui::app::App;
use parlor::tui::nocca::{NoccaSetup, NoccaView};
use parlor::tui::theme::Theme;
use ratatui::{Terminal, backend::TestBackend};
use std::time::{Duration, Instant};

const NO_COLOR: Theme = Theme { color: false };

fn render(app: &mut App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| app.draw(f)).unwrap();
    format!("{}", t.backend())
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_event(Event::Key(KeyEvent::new(code, KeyModifiers::NONE)));
}

fn two_players(moves: &str, store: &mut Store) -> Session {
    let mut s = Session::new(
        Options {
            mode: Mode::Two,
            ..Options::default()
        },
        1,
    );
    for m in moves.split_whitespace() {
        s.play(m.parse().unwrap(), store).unwrap();
    }
    s
}

fn game_app(moves: &str) -> App {
    let mut store = Store::in_memory().unwrap();
    let s = two_players(moves, &mut store);
    let mut app = App::new(Box::new(NoccaView::new(s)), store, NO_COLOR, None);
    app.start();
    app
}

/// Seven plies that build a full stack on c3: black, white, black (top).
const TALL: &str = "c1k c6j c2k c5j b1u c4j c2k";

#[test]
fn setup_screen() {
    let mut app = App::new(
        Box::new(NoccaSetup::new()),
        Store::in_memory().unwrap(),
        NO_COLOR,
        None,
    );
    app.start();
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Right);
    insta::assert_snapshot!(render(&mut app, 80, 24));
}

#[test]
fn mid_game_with_a_selected_piece_its_moves_and_a_tall_stack() {
    let mut app = game_app(TALL);
    // White to move; the cursor starts on c6 (White's home row): go to b6, then down to b5... b6 holds a piece.
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("b6 selected"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn a_step_key_moves_the_selected_piece_and_undo_takes_it_back() {
    let mut app = game_app(TALL);
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('n')); // b6 -> c5, onto... c5 is empty
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("White played b6n (b6→c5)"), "{screen}");
    assert!(screen.contains("To move: Black"), "{screen}");
    press(&mut app, KeyCode::Char('u'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("took back 1 ply"), "{screen}");
    assert!(screen.contains("assisted"), "{screen}");
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
    assert!(screen.contains("Black played c1k (c1→c2)"), "{screen}");
}

#[test]
fn end_screen_after_a_goal() {
    let mut app = game_app("c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j c6k");
    insta::assert_snapshot!(render(&mut app, 80, 24));
}

#[test]
fn help_screen() {
    let mut app = game_app("c1k");
    press(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!(render(&mut app, 80, 30));
}

#[test]
fn the_computer_moves_in_the_background() {
    let store = Store::in_memory().unwrap();
    let s = Session::new(
        Options {
            mode: Mode::Computer,
            level: nocca::Level::Beginner,
            human: nocca::Colour::White,
            first: nocca::Colour::Black,
        },
        3,
    );
    let mut app = App::new(Box::new(NoccaView::new(s)), store, NO_COLOR, None);
    app.start();
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("thinking..."), "{screen}");
    let t = Instant::now();
    loop {
        app.tick();
        let screen = render(&mut app, 80, 24);
        if screen.contains("To move: White (you)") {
            assert!(screen.contains("Black (computer) played"), "{screen}");
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(20), "{screen}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn the_replay_steps_through_a_recorded_game() {
    let mut store = Store::in_memory().unwrap();
    let s = two_players("c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j c6k", &mut store);
    let id = s.ended.as_ref().unwrap().id.unwrap();
    let record = store.game(id).unwrap().unwrap();
    let view = parlor::tui::nocca::replay_view(&record).unwrap();
    let mut app = App::new(view, store, NO_COLOR, None);
    app.start();
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Ply 0/11: start"), "{screen}");
    press(&mut app, KeyCode::Right);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("Ply 1/11: Black c1k (c1→c2)"), "{screen}");
    press(&mut app, KeyCode::End);
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("c6k (c6→goal) · won (black wins by goal)"),
        "{screen}"
    );
    assert!(screen.contains("*GOAL*"), "{screen}");
}
