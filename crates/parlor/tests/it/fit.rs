//! Issue 50 on the full screen: every screen fits 40x12 or scrolls (the Mastermind setup, Settings, where `q` goes
//! back), the help scrolls by pages and says that more follows, the hint bar keeps the main action and the way back,
//! click targets come from the wrapped layout, help and messages name the keys as bound, Settings offers only key
//! names it takes, Nocca keeps its column letters at 40x12, the 2048 setup takes a typed target tile, a given-up
//! game after autoplay says nothing stale, and the menu marks a game another window holds.

use crate::common;
use crate::common::app::*;
use crate::common::pty::{Key, Pty, Spawn};
use parlor::games::mastermind::{Mastermind, Params as MmParams};
use parlor::games::nocca::{Mode, Nocca, Params as NoccaParams};
use parlor::games::twenty48::{Params, Twenty48};
use parlor::input::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use parlor::storage::Store;
use parlor::tui::app::App;

/// The screen's rows as text.
fn rows_of(app: &mut App, w: u16, h: u16) -> Vec<String> {
    screen(app, w, h)
        .lines()
        .map(|l| l.trim_matches('"').to_string())
        .collect()
}

/// The setup form of the game titled `title`, over the menu.
fn setup(title: &str) -> App {
    let game = parlor::registry::tui()
        .into_iter()
        .find(|g| g.title() == title)
        .expect("a registered game");
    app(
        vec![
            parlor::menu_view(None),
            game.setup(None, &Default::default()),
        ],
        Store::in_memory().unwrap(),
    )
}

/// The Mastermind setup turned to a custom variant, whose form shows every setting (the one that needed 40x14).
fn custom_mastermind() -> App {
    let mut app = setup("Mastermind");
    // The first setting is the variant: left of the first preset comes custom.
    press(&mut app, KeyCode::Left);
    assert!(screen(&mut app, 80, 24).contains("◀ custom ▶"));
    app
}

/// Where `needle` starts on the screen drawn at `w` x `h`: (column, row).
fn find(app: &mut App, w: u16, h: u16, needle: &str) -> Option<(u16, u16)> {
    let t = render(app, w, h);
    let buf = t.backend().buffer();
    for y in 0..buf.area.height {
        let cells: Vec<String> = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        for x in 0..cells.len() {
            if cells[x..].concat().starts_with(needle) {
                return Some((x as u16, y));
            }
        }
    }
    None
}

fn click(app: &mut App, (column, row): (u16, u16)) {
    for kind in [
        MouseEventKind::Down(MouseButton::Left),
        MouseEventKind::Up(MouseButton::Left),
    ] {
        app.handle_event(Event::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }));
    }
}

#[test]
fn the_mastermind_setup_fits_40x12_and_scrolls_to_its_last_setting_with_a_more_mark() {
    let mut app = custom_mastermind();
    let s = screen(&mut app, 40, 12);
    assert!(!s.contains("too small"), "{s}");
    assert!(s.contains("▼ more"), "settings hidden below say so:\n{s}");
    assert!(s.contains("Enter starts: "), "{s}");
    // Up from the first setting goes round to the last, which scrolls into view.
    press(&mut app, KeyCode::Up);
    let s = screen(&mut app, 40, 12);
    assert!(s.contains("▸ Computer's strategy"), "{s}");
    assert!(s.contains("▲ more"), "{s}");
    assert!(s.contains("Enter starts: "), "{s}");
}

#[test]
fn at_40_columns_the_hint_bar_keeps_the_main_action_and_the_way_back() {
    for title in ["2048", "Mastermind", "Nocca Nocca"] {
        let mut app = setup(title);
        let bar = rows_of(&mut app, 40, 12).pop().unwrap_or_default();
        assert!(
            bar.contains("Enter start") && bar.contains("q back") && bar.contains("? help"),
            "{title} setup: {bar:?}"
        );
    }
    let store = Store::in_memory().unwrap();
    let s = session::<Nocca>(NoccaParams::default(), 3, &store);
    let mut app = game_app(s, store);
    let bar = rows_of(&mut app, 40, 12).pop().unwrap_or_default();
    assert!(bar.contains("q back") && bar.contains("? help"), "{bar:?}");
}

#[test]
fn a_click_on_the_arrow_of_a_wrapped_setting_changes_it() {
    let mut app = custom_mastermind();
    // "Your role" and its long value wrap at 40 columns: its ▶ is on its second row.
    for _ in 0..6 {
        press(&mut app, KeyCode::Down);
    }
    let before = screen(&mut app, 40, 12);
    assert!(before.contains("codebreaker"), "{before}");
    let label = find(&mut app, 40, 12, "Your role").expect("the role shows");
    let arrow = find(&mut app, 40, 12, "▶").expect("an arrow shows");
    let right = {
        // The ▶ of the role row: the first ▶ at or below the label's row.
        let t = render(&mut app, 40, 12);
        let buf = t.backend().buffer();
        (label.1..12)
            .find_map(|y| {
                (0..40)
                    .find(|&x| buf[(x, y)].symbol() == "▶")
                    .map(|x| (x, y))
            })
            .unwrap_or(arrow)
    };
    assert!(right.1 > label.1, "the role's row wraps: {before}");
    click(&mut app, right);
    let after = screen(&mut app, 40, 12);
    assert!(after.contains("codemaker"), "{after}");
    // A click on the start line starts the game.
    let start = find(&mut app, 40, 12, "Enter starts").expect("the start line shows");
    click(&mut app, start);
    let s = screen(&mut app, 40, 12);
    assert!(s.contains("Parlor · Mastermind"), "{s}");
}

#[test]
fn the_help_scrolls_by_pages_says_more_follows_and_ends() {
    let mut app = menu_app(Store::in_memory().unwrap());
    press(&mut app, KeyCode::Char('?'));
    let top = screen(&mut app, 40, 12);
    assert!(top.contains("Keys") && top.contains("▼ more"), "{top}");
    press(&mut app, KeyCode::PageDown);
    let page = screen(&mut app, 40, 12);
    assert!(
        page.contains("▲ more") && page.contains("▼ more") && page != top,
        "{page}"
    );
    press(&mut app, KeyCode::End);
    let end = screen(&mut app, 40, 12);
    assert!(
        end.contains("Press ? or Esc to close.") && !end.contains("▼ more"),
        "{end}"
    );
    press(&mut app, KeyCode::PageUp);
    assert!(!screen(&mut app, 40, 12).contains("Press ? or Esc"));
    press(&mut app, KeyCode::Home);
    assert_eq!(screen(&mut app, 40, 12), top);
}

#[test]
fn settings_fit_40x12_and_q_goes_back_to_the_menu() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(40, 12));
    p.wait_for("Parlor · classic");
    // Settings is the third line from the end of the menu: Up from the first line goes round to Quit.
    for _ in 0..3 {
        p.press(Key::Up);
    }
    p.wait_for("▸ Settings");
    p.press(Key::Enter);
    let s = p.wait_for("Parlor · settings");
    assert!(!s.contains("too small"), "{s}");
    p.press(Key::Char('q'));
    p.wait_for("▸ Settings");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}

/// Settings whose undo is on `z`.
fn undo_on_z() -> parlor::settings::Settings {
    let mut settings = parlor::settings::Settings::new(&parlor::registry::catalog());
    settings
        .set_keys(0, vec![KeyCode::Char('z')])
        .expect("z is free");
    settings
}

#[test]
fn after_a_remap_help_and_messages_name_the_keys_as_bound() {
    let store = Store::in_memory().unwrap();
    let s = session::<Mastermind>(MmParams::default(), 5, &store);
    let mut app = game_app(s, store);
    app.set_settings(undo_on_z(), None);
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&mut app, 100, 60);
    press(&mut app, KeyCode::Char('?'));
    let store = Store::in_memory().unwrap();
    let s = session::<Nocca>(NoccaParams::default(), 3, &store);
    let mut nocca = game_app(s, store);
    nocca.set_settings(undo_on_z(), None);
    press(&mut nocca, KeyCode::Char('?'));
    for _ in 0..30 {
        press(&mut nocca, KeyCode::Down);
    }
    let rules = screen(&mut nocca, 160, 50);
    parlor::tui::keys::set_keymap(&[]);
    let joined: String = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(joined.contains("z takes back a guess"), "{help}");
    assert!(!joined.contains("u takes back"), "{help}");
    let joined: String = rules.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(joined.contains("z undoes"), "{rules}");
}

#[test]
fn settings_offer_only_key_names_they_take() {
    let settings = parlor::settings::Settings::new(&parlor::registry::catalog());
    let row = settings
        .rows()
        .into_iter()
        .find(|r| r.key == "undo")
        .expect("the undo row");
    // "... one character, or Delete, Insert, ..., F1 to F12; q, Esc, ... are reserved; ... the games' own"
    let offered = row
        .help
        .split_once("or ")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(names, _)| names.to_string())
        .unwrap_or_else(|| panic!("{}", row.help));
    for name in offered.split(", ") {
        let name = name.trim().trim_end_matches('.');
        if name == "F1 to F12" {
            continue;
        }
        let key = parlor::settings::keys::parse_key(name, parlor::registry::catalog().keys())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut s = settings.clone();
        assert!(
            s.set_keys(0, vec![key]).is_ok(),
            "{name} is offered but refused"
        );
    }
    assert!(
        !offered.contains("Space,"),
        "Space is reserved: {}",
        row.help
    );
}

#[test]
fn at_40x12_nocca_names_its_columns_as_its_messages_do() {
    let store = Store::in_memory().unwrap();
    let params = NoccaParams {
        mode: Mode::Two,
        ..NoccaParams::default()
    };
    let s = session::<Nocca>(params, 3, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 40, 12);
    assert!(s.contains("c1 selected"), "{s}");
    for letter in ['a', 'b', 'c', 'd', 'e'] {
        assert!(s.contains(&format!("·{letter}·")), "column {letter}:\n{s}");
    }
}

#[test]
fn the_2048_setup_takes_a_typed_target_tile_and_says_each_setting_once() {
    let mut app = setup("2048");
    press(&mut app, KeyCode::Char('?'));
    let help = screen(&mut app, 160, 50);
    press(&mut app, KeyCode::Char('?'));
    assert!(!help.contains("Board size: Board size"), "{help}");
    assert!(!help.contains("seed program"), "{help}");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    type_text(&mut app, "4096");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("◀ 4096▏ ▶"), "{s}");
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("target=4096"), "{s}");
    // A number that is not a target is refused, and said so.
    let mut app = setup("2048");
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    type_text(&mut app, "1000");
    press(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("new game of 2048") && s.contains("1000"), "{s}");
}

#[test]
fn giving_up_after_autoplay_stopped_leaves_no_stale_message_above_the_end_box() {
    let store = Store::in_memory().unwrap();
    let s = session::<Twenty48>(Params::default(), 1, &store);
    let mut app = game_app(s, store);
    press(&mut app, KeyCode::Char('p'));
    app.tick();
    press(&mut app, KeyCode::Char('x'));
    assert!(screen(&mut app, 80, 24).contains("autoplay stopped: your turn"));
    press(&mut app, KeyCode::Char('x'));
    press(&mut app, KeyCode::Char('y'));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("Game over"), "{s}");
    assert!(!s.contains("autoplay stopped"), "{s}");
}

#[test]
fn the_menu_marks_a_game_held_by_another_window() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let first = common::run(dir.path(), &["2048"], "a\nd\nq\n");
    assert!(common::out(&first).contains("Game saved."));
    let mut holder = common::parlor(dir.path(), &["2048"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(holder.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("Continuing your game in progress") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0);
    }
    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(80, 24));
    let s = p.wait_for("In another window: 2048");
    assert!(s.contains("being played in another Parlor window"), "{s}");
    p.press(Key::Char('q'));
    let _ = p.finish();
    let _ = holder.kill();
    let _ = holder.wait();
    // Once that window is closed, the game is offered again.
    let mut p = Pty::spawn(Spawn::new(dir.path(), &[]).size(80, 24));
    let s = p.wait_for("Continue 2048");
    assert!(!s.contains("In another window"), "{s}");
    p.press(Key::Char('q'));
    p.finish().assert_restored_with(0);
}
