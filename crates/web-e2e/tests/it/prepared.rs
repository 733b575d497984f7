//! The screen the menu's Enter opens, and the new game the setup's Enter starts, prepared in idle time in a hidden
//! sheet: the key shows the sheet and writes no row, the screen exact, selectable and read, and it works as one
//! made at the key.

use crate::common::{MENU_FIRST, number_after, page, tiles, title};
use crate::page::{count, draw_stats, shows_exactly};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

/// Waits (at most 10 s) until `parlorDraw.preparedScreens` exceeds `than`; gives the stats then.
fn wait_prepared_screen(page: &Session, than: u64) -> serde_json::Value {
    for _ in 0..100 {
        let stats = draw_stats(page);
        if count(&stats, "preparedScreens") > than {
            return stats;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("no screen prepared: {}", draw_stats(page));
}

/// Presses Enter on the menu, whose selected row's screen was prepared: the screen opened, after asserting that its
/// frame showed the prepared sheet with no row written, and that it shows exactly, selectable and read.
fn open_prepared(page: &Session, before: &serde_json::Value) -> String {
    let menu = page.screen().unwrap();
    page.press(&[Key::Enter]).unwrap();
    let opened = page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let after = draw_stats(page);
    assert_eq!(
        count(&after, "preparedShown"),
        count(before, "preparedShown") + 1,
        "shown from the prepared sheet: {before} then {after}"
    );
    assert_eq!(count(&after, "lastRows"), 0, "no row written: {after}");
    assert_eq!(
        count(&after, "rowWrites"),
        count(before, "rowWrites"),
        "{before} then {after}"
    );
    shows_exactly(page, &opened);
    opened
}

#[test]
fn the_screen_enter_opens_from_the_menu_is_prepared_in_idle_time_and_shown_with_no_row_written() {
    let Some(page) = page("prepared", "backend=dom&seed=4") else {
        return;
    };
    // The 2048 setup (the menu's first row) is prepared while the menu shows.
    let before = wait_prepared_screen(&page, 0);
    let setup = open_prepared(&page, &before);
    assert!(title(&setup).contains("new game of 2048"), "{setup}");
    // It is the setup: Enter starts the game, and the game plays.
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen("a new 2048 game", Duration::from_secs(10), |s| {
        number_after(s, "Moves") == Some(0) && tiles(s).len() == 2
    })
    .unwrap();
    slides_until_a_move_counts(&page);
    // Back on the menu (the game kept under Continue), History is prepared once selected.
    page.type_text("q").unwrap();
    page.wait_text("Continue").unwrap();
    for _ in 0..20 {
        let menu = page.screen().unwrap();
        if menu
            .lines()
            .any(|l| l.contains('▸') && l.contains("History"))
        {
            break;
        }
        page.press(&[Key::Down]).unwrap();
        std::thread::sleep(Duration::from_millis(50));
    }
    // The rows passed on the way were prepared in turn, each dropped at the next key: History's, in the time
    // a person takes to press Enter.
    std::thread::sleep(Duration::from_millis(1000));
    let before = draw_stats(&page);
    let history = open_prepared(&page, &before);
    assert!(title(&history).contains("history"), "{history}");
    assert!(history.contains("Parlor · history"), "{history}");
    // Continue is never prepared: a game in progress is claimed only at its key.
    page.press(&[Key::Escape]).unwrap();
    for _ in 0..20 {
        let menu = page.screen().unwrap();
        if menu
            .lines()
            .any(|l| l.contains('▸') && l.contains("Continue"))
        {
            break;
        }
        page.press(&[Key::Up]).unwrap();
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    let idle = draw_stats(&page);
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(
        count(&draw_stats(&page), "preparedScreens"),
        count(&idle, "preparedScreens"),
        "nothing prepared for Continue: {idle}"
    );
    page.press(&[Key::Enter]).unwrap();
    let resumed = page
        .wait_screen("the game resumed", Duration::from_secs(10), |s| {
            number_after(s, "Moves").is_some_and(|m| m > 0)
        })
        .unwrap();
    assert_eq!(
        count(&draw_stats(&page), "preparedShown"),
        count(&idle, "preparedShown"),
        "{resumed}"
    );
}

/// Moves the menu's cursor to the row naming `label`.
fn select_row(page: &Session, label: &str) {
    for _ in 0..20 {
        let menu = page.screen().unwrap();
        if menu.lines().any(|l| l.contains('▸') && l.contains(label)) {
            return;
        }
        page.press(&[Key::Down]).unwrap();
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("no menu row {label:?}: {}", page.screen().unwrap());
}

/// Waits for the setup shown to prepare its new game (`parlorDraw.preparedScreens` over `than`, its count before
/// the setup showed), presses Enter: the new 2048 game, shown from the prepared sheet with no row written (asserted
/// by [`open_prepared`]).
fn start_prepared(page: &Session, than: u64) -> String {
    let setup = page.screen().unwrap();
    assert!(title(&setup).contains("new game of 2048"), "{setup}");
    let before = wait_prepared_screen(page, than);
    let game = open_prepared(page, &before);
    assert_eq!(number_after(&game, "Moves"), Some(0), "{game}");
    assert_eq!(tiles(&game).len(), 2, "{game}");
    game
}

#[test]
fn a_new_game_from_the_setup_is_prepared_in_idle_time_shown_with_no_row_written_and_played() {
    // Seed 12345's first board as the page deals it at the key, nothing prepared.
    let Some(page) = page("prepared_game", "backend=dom&seed=12345&prepare=0") else {
        return;
    };
    let dealt = crate::twenty48::start(&page);
    assert!(dealt.contains("seed 12345"), "{dealt}");
    // With the preparation: the setup (prepared from the menu), then the game prepared from the setup.
    page.open("backend=dom&seed=12345").unwrap();
    page.fresh_start().unwrap();
    page.wait_text(MENU_FIRST).unwrap();
    let before = wait_prepared_screen(&page, 0);
    open_prepared(&page, &before);
    let game = start_prepared(&page, count(&before, "preparedScreens"));
    assert_eq!(game, dealt, "?seed=12345 deals the same first screen");
    // It plays: a slide counts.
    slides_until_a_move_counts(&page);
    // A second game, from a fresh seed chosen ahead (the page's seed was taken by the first): prepared too, and
    // not marked as seeded.
    page.type_text("q").unwrap();
    page.wait_text("Continue").unwrap();
    select_row(&page, "New game: 2048");
    // The menu's own preparation done (the setup, held by a sheet already, or written into one).
    std::thread::sleep(Duration::from_millis(1000));
    let than = count(&draw_stats(&page), "preparedScreens");
    let menu = page.screen().unwrap();
    page.press(&[Key::Enter]).unwrap();
    page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    let fresh = start_prepared(&page, than);
    assert!(
        !fresh.contains("seed "),
        "a fresh seed is not the player's: {fresh}"
    );
    slides_until_a_move_counts(&page);
}

/// Slides left, up, right and down in turn until the game counts a move (a 2048 game just dealt), and fails the
/// test if none does.
fn slides_until_a_move_counts(page: &Session) {
    let mut moved = String::new();
    for key in [Key::Left, Key::Up, Key::Right, Key::Down] {
        page.press(&[key]).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        moved = page.screen().unwrap();
        if number_after(&moved, "Moves").is_some_and(|m| m > 0) {
            return;
        }
    }
    panic!("no slide counted a move: {moved}");
}
