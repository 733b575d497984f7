//! Layout and mouse on the full screen (TestBackend): one screen of each game and the menu at 40x12, 80x24 and
//! 160x50 (snapshots), every screen centred the same way, `? help` kept on the narrowest hint bar, long messages
//! wrapped, and the mouse in the menu, lists, the setup form, questions and on the 2048 board.

use crate::common::app::*;
use parlor::games::mastermind::{Mastermind, Params as MmParams};
use parlor::games::nocca::{Mode, Nocca, Params as NoccaParams};
use parlor::games::twenty48::{Params, Twenty48};
use parlor::input::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use parlor::storage::Store;
use parlor::tui::app::App;
use twenty48::Direction;

/// The sizes every snapshot is taken at: the smallest supported, the classic terminal, a large one.
const SIZES: [(u16, u16); 3] = [(40, 12), (80, 24), (160, 50)];

fn twenty48_app() -> App {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(Params::default(), 1, &store);
    for d in [Direction::Left, Direction::Down, Direction::Right] {
        s.play(d, &mut store).unwrap();
    }
    game_app(s, store)
}

fn mastermind_app() -> App {
    let store = Store::in_memory().unwrap();
    let s = session::<Mastermind>(MmParams::default(), 5, &store);
    let mut app = game_app(s, store);
    type_text(&mut app, "1234");
    press(&mut app, KeyCode::Enter);
    type_text(&mut app, "5566");
    press(&mut app, KeyCode::Enter);
    app
}

fn nocca_app() -> App {
    let store = Store::in_memory().unwrap();
    let params = NoccaParams {
        mode: Mode::Two,
        ..NoccaParams::default()
    };
    let s = session::<Nocca>(params, 3, &store);
    game_app(s, store)
}

/// Each screen at each size: snapshots named `<screen>_<w>x<h>`; none is "too small", and the hint bar always ends
/// with `? help`.
fn snapshots(name: &str, mut app: App) {
    for (w, h) in SIZES {
        let t = render(&mut app, w, h);
        let text = format!("{}", t.backend());
        assert!(!text.contains("too small"), "{name} at {w}x{h}:\n{text}");
        let last = bottom_line(&t);
        assert!(
            last.trim_end().ends_with("? help"),
            "{name} at {w}x{h}: hint bar {last:?}"
        );
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), t.backend());
    }
}

/// The last non-blank row of the screen.
fn bottom_line(t: &ratatui::Terminal<ratatui::backend::TestBackend>) -> String {
    rows(t)
        .into_iter()
        .rev()
        .find(|r| !r.trim().is_empty())
        .unwrap_or_default()
}

/// The screen's rows as text (one string per row, every cell one character).
fn rows(t: &ratatui::Terminal<ratatui::backend::TestBackend>) -> Vec<String> {
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect()
        })
        .collect()
}

/// Where `needle` starts on the screen drawn at `w` x `h`: (column, row).
fn find(app: &mut App, w: u16, h: u16, needle: &str) -> (u16, u16) {
    let t = render(app, w, h);
    let buf = t.backend().buffer();
    for y in 0..buf.area.height {
        let cells: Vec<String> = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        for x in 0..cells.len() {
            if cells[x..].concat().starts_with(needle) {
                return (x as u16, y);
            }
        }
    }
    panic!("{needle:?} is not on the screen:\n{}", t.backend());
}

fn mouse(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
    app.handle_event(Event::Mouse(MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

fn click(app: &mut App, (column, row): (u16, u16)) {
    mouse(app, MouseEventKind::Down(MouseButton::Left), column, row);
    mouse(app, MouseEventKind::Up(MouseButton::Left), column, row);
}

#[test]
fn the_menu_at_every_size() {
    snapshots("menu", menu_app(Store::in_memory().unwrap()));
}

/// The screens laid out here are one per game: every registered game has one, so a new game fails here until its
/// screen is laid out too.
#[test]
fn every_registered_game_is_laid_out() {
    use parlor::mid::game::Game;
    let registered: Vec<&str> = parlor::registry::GAMES
        .iter()
        .map(|&g| parlor::mid::AnyGame::id(g))
        .collect();
    assert_eq!(
        registered,
        [Twenty48::ID, Mastermind::ID, Nocca::ID],
        "lay out each registered game"
    );
}

#[test]
fn twenty48_at_every_size() {
    snapshots("twenty48", twenty48_app());
}

#[test]
fn mastermind_at_every_size() {
    snapshots("mastermind", mastermind_app());
}

#[test]
fn nocca_at_every_size() {
    snapshots("nocca", nocca_app());
}

#[test]
fn every_screen_is_centred_the_same_way_on_a_large_terminal() {
    // The screen area is at most 100 x 40, centred: on 160 x 50 it starts at column 30, row 5.
    for mut app in [
        menu_app(Store::in_memory().unwrap()),
        twenty48_app(),
        mastermind_app(),
        nocca_app(),
    ] {
        let (x, y) = find(&mut app, 160, 50, "Parlor ·");
        assert_eq!((x, y), (30, 5));
        let t = render(&mut app, 160, 50);
        let r = rows(&t);
        assert!(r[44].trim_end().ends_with("? help"), "{:?}", r[44]);
        assert!(r[..5].iter().all(|l| l.trim().is_empty()));
    }
}

#[test]
fn the_narrowest_hint_bar_drops_the_least_important_hints_first() {
    let mut app = twenty48_app();
    // 80 columns: everything; 40: the slide keys, the way back (before undo, hint, autoplay), and help.
    let wide = bottom_line(&render(&mut app, 80, 24));
    assert!(
        wide.contains("u undo") && wide.contains("t hint") && wide.contains("q back"),
        "{wide}"
    );
    let narrow = bottom_line(&render(&mut app, 40, 12));
    assert!(
        narrow.contains("slide") && narrow.trim_end().ends_with("? help"),
        "{narrow}"
    );
    assert!(!narrow.contains("p autoplay"), "{narrow}");
    // The main action and the way back are never dropped (issue 50): on a bar too narrow even for them, their
    // words shrink to the first one.
    let hints = [
        ("←↓↑→ hjkl wasd", "slide"),
        ("u", "undo"),
        ("q", "back to the menu"),
    ];
    assert_eq!(
        parlor::tui::layout::fit_hints(&hints, 10),
        vec![("←↓↑→ hjkl wasd", "slide"), ("q", "back")]
    );
    assert_eq!(
        parlor::tui::layout::fit_hints(&hints, 50),
        vec![("←↓↑→ hjkl wasd", "slide"), ("q", "back to the menu")]
    );
    // A screen's Enter hint is its main action, wherever it stands.
    let setup = [
        ("↑↓", "choose a setting"),
        ("←→", "change it"),
        ("Enter", "start"),
        ("q", "back"),
    ];
    assert_eq!(
        parlor::tui::layout::fit_hints(&setup, 30),
        vec![("Enter", "start"), ("q", "back")]
    );
}

#[test]
fn a_long_message_wraps_instead_of_being_cut() {
    let mut app = twenty48_app();
    press(&mut app, KeyCode::Char('p'));
    let t = render(&mut app, 40, 12);
    let text = rows(&t).join("\n");
    assert!(text.contains("autoplay: any key stops it"), "{text}");
    assert!(
        text.contains("slower"),
        "the end of the message shows: {text}"
    );
}

#[test]
fn the_menu_takes_a_click_and_the_wheel() {
    let mut app = menu_app(Store::in_memory().unwrap());
    // The wheel moves the cursor.
    mouse(&mut app, MouseEventKind::ScrollDown, 0, 0);
    let t = render(&mut app, 80, 24);
    assert!(
        rows(&t)
            .iter()
            .any(|r| r.starts_with("▸ New game: Mastermind")),
        "{}",
        t.backend()
    );
    // A click chooses.
    let at = find(&mut app, 80, 24, "New game: Nocca");
    click(&mut app, at);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("new game of Nocca Nocca"), "{s}");
}

#[test]
fn the_setup_form_takes_clicks_on_its_arrows_and_its_start_line() {
    let mut app = menu_app(Store::in_memory().unwrap());
    press(&mut app, KeyCode::Enter);
    let before = screen(&mut app, 80, 24);
    assert!(before.contains("new game of 2048"), "{before}");
    // The first setting's ▶ steps it up, as → does.
    let right = find(&mut app, 80, 24, "▶");
    click(&mut app, right);
    let after = screen(&mut app, 80, 24);
    assert_ne!(before, after, "▶ changed the setting");
    let left = find(&mut app, 80, 24, "◀");
    click(&mut app, left);
    assert_eq!(screen(&mut app, 80, 24), before, "◀ put it back");
    let start = find(&mut app, 80, 24, "Enter starts");
    click(&mut app, start);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Score 0"), "{s}");
}

#[test]
fn a_question_is_answered_by_a_click() {
    let mut app = twenty48_app();
    press(&mut app, KeyCode::Char('x'));
    let no = find(&mut app, 80, 24, "n carry on");
    click(&mut app, no);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("carry on") && !s.contains("Give up?"), "{s}");
    press(&mut app, KeyCode::Char('x'));
    let yes = find(&mut app, 80, 24, "y give up");
    click(&mut app, (yes.0 + 2, yes.1));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Game over"), "{s}");
    // And the end box: "q back" goes back to the menu.
    let back = find(&mut app, 80, 24, "q back");
    click(&mut app, back);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("classic thinking games"), "{s}");
}

#[test]
fn a_drag_on_the_2048_board_slides_its_way() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 1, &store);
    let mut app = game_app(s, store);
    let (x, y) = find(&mut app, 80, 24, "┌");
    let (cx, cy) = (x + 16, y + 8);
    // Too short a drag does nothing; a drag outside the board does nothing.
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), cx, cy);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), cx + 1, cy);
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), 0, 0);
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), 20, 0);
    assert!(screen(&mut app, 80, 24).contains("Moves 0"));
    let mut moves = 0;
    for (dx, dy) in [(-12i32, 1i32), (0, 4), (12, 0), (0, -4)] {
        let before = screen(&mut app, 80, 24);
        mouse(&mut app, MouseEventKind::Down(MouseButton::Left), cx, cy);
        mouse(
            &mut app,
            MouseEventKind::Drag(MouseButton::Left),
            (i32::from(cx) + dx / 2) as u16,
            (i32::from(cy) + dy / 2) as u16,
        );
        mouse(
            &mut app,
            MouseEventKind::Up(MouseButton::Left),
            (i32::from(cx) + dx) as u16,
            (i32::from(cy) + dy) as u16,
        );
        let after = screen(&mut app, 80, 24);
        if after != before {
            moves += 1;
        }
        assert!(after.contains(&format!("Moves {moves}")), "{after}");
    }
    assert!(moves >= 2, "the drags slid the board");
}

#[test]
fn the_history_list_opens_a_replay_on_a_click() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(Params::default(), 9, &store);
    s.play(Direction::Left, &mut store).unwrap();
    s.resign(&mut store);
    drop(s);
    let mut app = menu_app(store);
    let at = find(&mut app, 80, 24, "History and replays");
    click(&mut app, at);
    let at = find(&mut app, 80, 24, "▸ ");
    click(&mut app, (at.0 + 4, at.1));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Replay · 2048"), "{s}");
}

#[test]
fn the_mouse_does_nothing_while_the_screen_is_too_small() {
    let mut app = menu_app(Store::in_memory().unwrap());
    render(&mut app, 20, 5);
    assert!(app.too_small());
    click(&mut app, (2, 2));
    mouse(&mut app, MouseEventKind::ScrollDown, 0, 0);
    let t = render(&mut app, 80, 24);
    assert!(
        rows(&t).iter().any(|r| r.starts_with("▸ New game: 2048")),
        "nothing moved: {}",
        t.backend()
    );
}

#[test]
fn the_wheel_scrolls_the_help() {
    let mut app = twenty48_app();
    press(&mut app, KeyCode::Char('?'));
    let top = screen(&mut app, 80, 12);
    assert!(top.contains("Help: 2048"), "{top}");
    for _ in 0..3 {
        mouse(&mut app, MouseEventKind::ScrollDown, 40, 6);
    }
    let scrolled = screen(&mut app, 80, 12);
    assert_ne!(top, scrolled, "the help scrolled");
    for _ in 0..3 {
        mouse(&mut app, MouseEventKind::ScrollUp, 40, 6);
    }
    assert_eq!(screen(&mut app, 80, 12), top, "and back");
}

#[test]
fn history_and_best_scores_fit_40x12() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Twenty48>(Params::default(), 9, &store);
    s.play(Direction::Left, &mut store).unwrap();
    s.resign(&mut store);
    drop(s);
    let mut app = menu_app(store);
    for item in ["History and replays", "Best scores"] {
        let at = find(&mut app, 80, 24, item);
        click(&mut app, at);
        let t = render(&mut app, 40, 12);
        let text = format!("{}", t.backend());
        assert!(!text.contains("too small"), "{item}:\n{text}");
        assert!(bottom_line(&t).trim_end().ends_with("? help"), "{text}");
        press(&mut app, KeyCode::Char('q'));
    }
}

/// The settings screen and the mouse: a click on a setting's ▶ changes it as → does, a click on a line selects it,
/// the wheel moves the cursor.
#[test]
fn the_mouse_on_the_settings_screen() {
    let settings = parlor::registry::settings();
    let view = parlor::tui::settings::SettingsView::new(&settings, None);
    let mut app = App::with_stack(
        vec![Box::new(view)],
        Store::in_memory().unwrap(),
        NO_COLOR,
        parlor::registry::tui(),
    );
    app.set_settings(settings, None);
    app.start();
    let at = find(&mut app, 80, 24, "▶");
    click(&mut app, at);
    assert_eq!(
        app.settings().theme(),
        parlor::tui::theme::ThemeName::Dark,
        "{}",
        screen(&mut app, 80, 24)
    );
    let s = screen(&mut app, 80, 24);
    let second = s
        .lines()
        .filter(|l| l.contains('◀'))
        .nth(1)
        .and_then(|l| {
            l.trim_matches('"')
                .trim()
                .split("  ")
                .next()
                .map(str::to_string)
        })
        .expect("a second setting");
    let at = find(&mut app, 80, 24, &second);
    click(&mut app, at);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains(&format!("▸ {second}")), "{second}: {s}");
    mouse(&mut app, MouseEventKind::ScrollUp, 10, 10);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("▸ Theme"), "{s}");
}

/// The statistics screen and the mouse: the wheel with Shift turns the games, as ← and → do.
#[test]
fn the_mouse_on_the_statistics_screen() {
    let mut app = menu_app(Store::in_memory().unwrap());
    let at = find(&mut app, 80, 24, "Statistics");
    click(&mut app, at);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("statistics"), "{s}");
    let tabs = |s: &str| s.lines().nth(1).unwrap_or_default().to_string();
    assert!(tabs(&s).contains("▸ 2048"), "{s}");
    app.handle_event(Event::Mouse(MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: 10,
        row: 10,
        modifiers: KeyModifiers::SHIFT,
    }));
    let s = screen(&mut app, 80, 24);
    assert!(tabs(&s).contains("▸ Mastermind"), "{s}");
}
