//! 2048 in the page: slides by keys, by a touch swipe and by a mouse drag, each read back from the screen; the game
//! found where it was after a reload; given up and found in the history and the best scores.

use crate::common::{box_centre, number_after, open_item, page, resume, tiles, title, to_menu};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

/// Starts a 2048 game from the menu (its setup form, Enter starts) and gives its first screen.
pub fn start(page: &Session) -> String {
    let setup = open_item(page, "New game: 2048");
    assert!(title(&setup).contains("new game of 2048"), "{setup}");
    page.press(&[Key::Enter]).unwrap();
    let screen = page
        .wait_screen("a new 2048 game", Duration::from_secs(10), |s| {
            number_after(s, "Moves") == Some(0) && tiles(s).len() == 2
        })
        .unwrap();
    assert_eq!(number_after(&screen, "Score"), Some(0), "{screen}");
    screen
}

/// Tries `slide` with each direction in turn until the move counter goes up by one; gives the new screen and the
/// direction that moved. A direction that moves nothing is not a turn.
fn slide_once(page: &Session, how: &str, slide: impl Fn(usize)) -> String {
    let before = page.screen().unwrap();
    let moves = number_after(&before, "Moves").unwrap();
    for dir in 0..4 {
        slide(dir);
        let after = page.wait_screen(
            &format!("Moves {} after a {how}", moves + 1),
            Duration::from_secs(3),
            |s| number_after(s, "Moves") == Some(moves + 1),
        );
        if after.is_ok() {
            // Read the board once the slide's animation has settled (a loaded machine draws its frames late): the
            // new tile is there and no tile is between two cells.
            let old_sum: u64 = tiles(&before).iter().sum();
            let after = page
                .wait_screen(
                    "the board settled after the slide",
                    Duration::from_secs(5),
                    |s| {
                        let sum: u64 = tiles(s).iter().sum();
                        sum == old_sum + 2 || sum == old_sum + 4
                    },
                )
                .unwrap_or_else(|_| page.screen().unwrap());
            let (old, new) = (tiles(&before), tiles(&after));
            assert!(
                new.iter().sum::<u64>() == old.iter().sum::<u64>() + 2
                    || new.iter().sum::<u64>() == old.iter().sum::<u64>() + 4,
                "a slide keeps the tiles' sum and adds a 2 or a 4:\n{before}\n{after}"
            );
            return after;
        }
    }
    panic!("no {how} in any direction moved the board:\n{before}");
}

#[test]
fn slides_by_keys_a_swipe_and_a_drag_then_resumes_after_a_reload() {
    let Some(page) = page("twenty48_play", "") else {
        return;
    };
    start(&page);
    let arrows = [Key::Left, Key::Up, Key::Right, Key::Down];
    for _ in 0..3 {
        slide_once(&page, "key press", |d| page.press(&[arrows[d]]).unwrap());
    }
    // vim's keys too.
    slide_once(&page, "vim key", |d| {
        page.type_text(&"hkld"[d..=d]).unwrap()
    });
    let screen = page.screen().unwrap();
    let ((cx, cy), (hw, hh)) = box_centre(&screen).unwrap();
    let ends = [
        (cx - hw + 2, cy),
        (cx, cy - hh + 1),
        (cx + hw - 2, cy),
        (cx, cy + hh - 1),
    ];
    slide_once(&page, "touch swipe", |d| {
        page.swipe_cells((cx, cy), ends[d]).unwrap()
    });
    slide_once(&page, "mouse drag", |d| {
        page.drag_cells((cx, cy), ends[d]).unwrap()
    });
    let screen = page.screen().unwrap();
    assert_eq!(number_after(&screen, "Moves"), Some(6), "{screen}");
    page.screenshot("").unwrap();

    page.reload().unwrap();
    let back = resume(&page, "2048");
    assert_eq!(
        tiles(&back),
        tiles(&screen),
        "the board after the reload:\n{back}\nbefore:\n{screen}"
    );
    assert_eq!(number_after(&back, "Moves"), Some(6), "{back}");
    assert_eq!(
        number_after(&back, "Score"),
        number_after(&screen, "Score"),
        "{back}"
    );
    // And play goes on from there.
    slide_once(&page, "key press", |d| page.press(&[arrows[d]]).unwrap());
}

/// A new game, `slides` slides by the arrow keys, then given up (`x`, `y`): the score, the screen after the last
/// slide, and the end's screen.
pub fn play_and_give_up(page: &Session, slides: usize) -> (u64, String, String) {
    start(page);
    let arrows = [Key::Left, Key::Up, Key::Right, Key::Down];
    let mut screen = String::new();
    for _ in 0..slides {
        screen = slide_once(page, "key press", |d| page.press(&[arrows[d]]).unwrap());
    }
    let score = number_after(&screen, "Score").unwrap();
    page.type_text("x").unwrap();
    page.wait_screen("the give-up question", Duration::from_secs(5), |s| {
        s.contains("y give up")
    })
    .unwrap();
    page.type_text("y").unwrap();
    let over = page
        .wait_screen(
            "the end of the given-up game",
            Duration::from_secs(10),
            |s| s.contains("r new game") && s.contains("q back") && !s.contains("u undo"),
        )
        .unwrap();
    (score, screen, over)
}

#[test]
fn a_given_up_game_is_in_the_history_and_the_best_scores() {
    let Some(page) = page("twenty48_history", "") else {
        return;
    };
    let (score, _, over) = play_and_give_up(&page, 3);
    page.screenshot("_over").unwrap();

    to_menu(&page);
    let history = open_item(&page, "History and replays");
    let row = history
        .lines()
        .find(|l| l.contains("#1") && l.contains("2048"))
        .unwrap_or_else(|| panic!("no 2048 game in the history:\n{history}\n(after:\n{over})"));
    assert!(row.contains("4x4"), "{row}");
    assert_eq!(
        number_after(row, "score"),
        Some(score),
        "the history row shows score {score}: {row}"
    );

    to_menu(&page);
    let scores = open_item(&page, "Best scores");
    assert!(scores.contains("2048 4x4"), "{scores}");
    assert!(
        scores.lines().any(|l| {
            let mut words = l.split_whitespace();
            words.next() == Some("1.") && words.next() == Some(score.to_string().as_str())
        }),
        "the best scores hold the game's {score}:\n{scores}"
    );
}

#[test]
fn the_same_seed_deals_the_same_first_board() {
    let Some(page) = page("twenty48_seed", "seed=12345") else {
        return;
    };
    let first = tiles(&start(&page));
    to_menu(&page);
    page.open("seed=12345").unwrap();
    page.fresh_start().unwrap();
    let again = tiles(&start(&page));
    assert_eq!(first, again);
}
