//! The screens around the games, in the page: a finished game replayed move by move and its statistics' charts,
//! a theme change redrawing the page in the theme's colours, the grid following a window resize, and Mastermind's
//! codemaker role (the computer cracking a code kept by the test). Screenshots of each land in the artifacts.

use crate::common::{
    MENU_FIRST, number_after, open_item, page, score, setting, tiles, title, to_menu,
};
use crate::twenty48;
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

/// `Move 3 of 7` on the replay's second line: (3, 7).
fn replay_at(screen: &str) -> Option<(u64, u64)> {
    let line = screen
        .lines()
        .find(|l| l.trim_start().starts_with("Move "))?;
    let mut words = line.split_whitespace().skip(1);
    let at = words.next()?.parse().ok()?;
    (words.next()? == "of").then_some(())?;
    let of = words
        .next()?
        .trim_end_matches(|c: char| !c.is_ascii_digit())
        .parse()
        .ok()?;
    Some((at, of))
}

#[test]
fn a_finished_game_replays_to_its_last_board_and_its_statistics_have_charts() {
    let Some(page) = page("replay_and_stats", "backend=dom") else {
        return;
    };
    let (score, last, _) = twenty48::play_and_give_up(&page, 4);
    to_menu(&page);
    open_item(&page, "History and replays");
    page.press(&[Key::Enter]).unwrap();
    let start = page
        .wait_screen("the replay at its start", Duration::from_secs(10), |s| {
            s.contains("Replay · 2048") && replay_at(s).is_some_and(|(at, _)| at == 0)
        })
        .unwrap();
    let (_, of) = replay_at(&start).unwrap();
    assert!(of >= 4, "the replay holds the 4 slides at least:\n{start}");
    assert_eq!(
        tiles(&start).len(),
        2,
        "the first board deals two tiles:\n{start}"
    );
    page.screenshot("_start").unwrap();
    let mut screen = start;
    for at in 1..=of {
        page.press(&[Key::Right]).unwrap();
        screen = page
            .wait_screen(
                &format!("the replay at move {at}"),
                Duration::from_secs(5),
                |s| replay_at(s) == Some((at, of)),
            )
            .unwrap();
    }
    // The last board settled (the replay animates its slides as play does).
    let end = page
        .wait_screen(
            "the replay's last board, the game's",
            Duration::from_secs(5),
            |s| tiles(s) == tiles(&last),
        )
        .unwrap_or_else(|_| {
            panic!("the replay ends on another board:\n{screen}\nthe game's:\n{last}")
        });
    assert!(
        end.contains(&score.to_string()),
        "the replay's last move shows score {score}:\n{end}"
    );
    page.screenshot("_end").unwrap();

    to_menu(&page);
    let stats = open_item(&page, "Statistics");
    assert!(title(&stats).contains("statistics"), "{stats}");
    assert!(stats.contains("played 1"), "{stats}");
    assert!(stats.contains(&format!("highest score {score}")), "{stats}");
    assert!(stats.contains("Score of 1"), "the score chart:\n{stats}");
    assert!(stats.contains('█'), "the charts draw bars:\n{stats}");
    page.screenshot("_statistics").unwrap();
}

/// The distinct text and background colours drawn in the page's grid (the DOM backend's cells).
fn colours(page: &Session) -> Vec<String> {
    let v = page
        .eval(
            "const seen = new Set(); \
             for (const e of document.querySelectorAll('#term *')) { \
               const s = getComputedStyle(e); seen.add(s.color + ' on ' + s.backgroundColor); } \
             return Array.from(seen).sort();",
        )
        .unwrap();
    serde_json::from_value(v).unwrap()
}

#[test]
fn a_theme_change_redraws_the_page_in_the_themes_colours() {
    let Some(page) = page("theme_switch", "backend=dom") else {
        return;
    };
    // The page's `auto` follows the browser's `prefers-color-scheme` (tests/it/prefs.rs): a dark one here.
    page.cdp(
        "Emulation.setEmulatedMedia",
        serde_json::json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
    )
    .unwrap();
    page.reload().unwrap();
    page.wait_text(MENU_FIRST).unwrap();
    let before = colours(&page);
    assert!(!before.is_empty(), "the menu draws cells with colours");
    page.screenshot("_before").unwrap();
    let screen = open_item(&page, "Settings");
    // `auto` is the dark theme under a dark scheme: light is the one drawn otherwise.
    let theme = setting(&screen, "Theme");
    assert_ne!(theme, "light", "{screen}");
    let changed = crate::common::set_setting(&page, "Theme", "light");
    let now = setting(&changed, "Theme");
    to_menu(&page);
    let after = colours(&page);
    assert_ne!(
        before, after,
        "the menu in theme {now:?} is drawn in other colours than in {theme:?}"
    );
    page.screenshot("_after").unwrap();
}

/// The grid's size in cells: (columns, rows) of `parlorScreen()`.
fn grid(screen: &str) -> (usize, usize) {
    let cols = screen.lines().map(|l| l.chars().count()).max().unwrap_or(0);
    (cols, screen.lines().count())
}

#[test]
fn the_grid_follows_a_window_resize() {
    let Some(page) = page("window_resize", "backend=dom") else {
        return;
    };
    let start = grid(&page.screen().unwrap());
    page.resize(700, 500).unwrap();
    let small = page
        .wait_screen("a smaller grid", Duration::from_secs(10), |s| {
            let (c, r) = grid(s);
            c < start.0 && r < start.1
        })
        .unwrap();
    assert!(
        small.contains(MENU_FIRST),
        "the menu drawn again, smaller:\n{small}"
    );
    page.screenshot("_small").unwrap();
    let small = grid(&small);
    page.resize(1500, 1000).unwrap();
    let large = page
        .wait_screen("a larger grid", Duration::from_secs(10), |s| {
            let (c, r) = grid(s);
            c > small.0 && r > small.1 && c > start.0
        })
        .unwrap();
    assert!(large.contains(MENU_FIRST), "{large}");
    page.screenshot("_large").unwrap();
}

/// The colour letters of the computer's guess on the codemaker's screen (`Guess: RED RED GREEN GREEN`).
fn computer_guess(screen: &str) -> Option<Vec<char>> {
    let line = screen
        .lines()
        .find(|l| l.trim_start().starts_with("Guess:"))?;
    line.split_whitespace()
        .skip(1)
        .map(|name| match name {
            "RED" => Some('R'),
            "GREEN" => Some('G'),
            "YELLOW" => Some('Y'),
            "BLUE" => Some('U'),
            "BLACK" => Some('K'),
            "ORANGE" => Some('O'),
            _ => None,
        })
        .collect::<Option<Vec<char>>>()
        .filter(|g| g.len() == 4)
}

#[test]
fn as_codemaker_the_computer_cracks_a_code_answered_by_keys() {
    let Some(page) = page("mastermind_codemaker", "") else {
        return;
    };
    let secret = ['K', 'O', 'G', 'R'];
    let setup = open_item(&page, "New game: Mastermind");
    assert!(title(&setup).contains("new game of Mastermind"), "{setup}");
    crate::common::set_setting(&page, "Your role", "codemaker (the computer guesses yours)");
    page.press(&[Key::Enter]).unwrap();
    // Asked for the code to keep it hidden, the test answers by hand instead: Enter.
    page.wait_screen(
        "the codemaker's first question",
        Duration::from_secs(10),
        |s| s.contains("your code:"),
    )
    .unwrap();
    page.press(&[Key::Enter]).unwrap();
    let mut answered = 0;
    loop {
        let screen = page
            .wait_screen(
                &format!("the computer's guess {} or the end", answered + 1),
                Duration::from_secs(60),
                |s| {
                    s.contains("found your code")
                        || (number_after(s, "Guesses") == Some(answered)
                            && computer_guess(s).is_some())
                },
            )
            .unwrap();
        if screen.contains("found your code") {
            assert!(
                screen.contains(&format!("in {answered} guess")),
                "the computer found the code with the last answer:\n{screen}"
            );
            break;
        }
        assert!(
            answered < 8,
            "the computer never found {secret:?}:\n{screen}"
        );
        let guess = computer_guess(&screen).unwrap();
        let (black, white) = score(&secret, &guess);
        page.type_text(&format!("{black} {white}")).unwrap();
        page.press(&[Key::Enter]).unwrap();
        answered += 1;
    }
    page.screenshot("").unwrap();
}
