//! Mastermind in the page: guesses typed by keys and put by clicks on the colour palette, each feedback read from
//! the screen, until the code is cracked (guessing, each time, the first code that agrees with every feedback).
//! Bulls and Cows' optimal tree built once in the worker, kept in IndexedDB and read on the next visit.

use crate::common::{consistent, feedbacks, find, open_item, page, resume, set_setting, title};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

const COLOURS: [char; 6] = ['R', 'G', 'Y', 'U', 'K', 'O'];
const NAMES: [&str; 6] = ["RED", "GREEN", "YELLOW", "BLUE", "BLACK", "ORANGE"];

fn start(page: &Session) -> String {
    let setup = open_item(page, "New game: Mastermind");
    assert!(title(&setup).contains("new game of Mastermind"), "{setup}");
    assert!(
        setup.contains("seed (6 colours, 4 pegs, 8 guesses)"),
        "{setup}"
    );
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen("a new Mastermind game", Duration::from_secs(10), |s| {
        title(s).contains("Mastermind") && s.contains("code") && s.contains("1 RED")
    })
    .unwrap()
}

/// Puts `guess` by clicking each colour on the palette (`R  1 RED`).
fn click_guess(page: &Session, guess: &[char]) {
    for &c in guess {
        let screen = page.screen().unwrap();
        let i = COLOURS.iter().position(|x| *x == c).unwrap();
        let label = format!("{c}  {} {}", i + 1, NAMES[i]);
        let (col, row) = find(&screen, &label)
            .unwrap_or_else(|| panic!("no {label:?} on the palette:\n{screen}"));
        page.click_cell(col, row).unwrap();
        page.wait_change(&screen, Duration::from_secs(3))
            .unwrap_or_else(|e| panic!("clicking {label:?} put nothing: {e}"));
    }
}

fn play_guess(page: &Session, guess: &[char], by_click: bool, played: usize) -> String {
    if by_click {
        click_guess(page, guess);
    } else {
        page.type_text(&guess.iter().collect::<String>()).unwrap();
    }
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen(
        &format!("feedback on guess {} ({guess:?})", played + 1),
        Duration::from_secs(10),
        |s| feedbacks(s, 4).len() == played + 1,
    )
    .unwrap()
}

#[test]
fn a_code_is_cracked_with_keys_and_clicks() {
    let Some(page) = page("mastermind_play", "seed=3") else {
        return;
    };
    start(&page);
    let mut screen = page.screen().unwrap();
    let mut announced = Vec::new();
    for n in 0..8 {
        let seen = feedbacks(&screen, 4);
        assert_eq!(seen.len(), n, "{screen}");
        let options = consistent(&COLOURS, 4, &seen);
        assert!(
            !options.is_empty(),
            "no code agrees with the feedback read:\n{screen}"
        );
        let guess = options[0].clone();
        screen = play_guess(&page, &guess, n % 2 == 1, n);
        let last = feedbacks(&screen, 4).pop().unwrap();
        assert_eq!(last.guess, guess, "{screen}");
        announced.push(page.announce().unwrap());
        if n == 1 {
            // Mid-game: a reload finds the guesses where they were.
            page.screenshot("_mid").unwrap();
            page.reload().unwrap();
            let back = resume(&page, "Mastermind");
            assert_eq!(feedbacks(&back, 4), feedbacks(&screen, 4), "{back}");
            screen = back;
        }
        if last.black == 4 {
            let end = page
                .wait_screen("the end box", Duration::from_secs(5), |s| {
                    s.contains("cracked the code")
                })
                .unwrap();
            page.screenshot("").unwrap();
            assert!(end.contains(&format!("in {} guess", n + 1)), "{end}");
            assert!(
                announced.iter().all(|a| !a.trim().is_empty()),
                "#announce said something after each guess: {announced:?}"
            );
            return;
        }
    }
    panic!("eight guesses did not crack the code:\n{screen}");
}

#[test]
fn a_guess_with_a_repeat_is_played_and_a_short_guess_refused() {
    let Some(page) = page("mastermind_refusal", "seed=4") else {
        return;
    };
    start(&page);
    page.type_text("RG").unwrap();
    page.press(&[Key::Enter]).unwrap();
    let refused = page
        .wait_screen("the short guess refused", Duration::from_secs(5), |s| {
            s.contains("wrong length")
        })
        .unwrap();
    assert!(feedbacks(&refused, 4).is_empty(), "{refused}");
    page.type_text("RR").unwrap();
    page.press(&[Key::Enter]).unwrap();
    let played = page
        .wait_screen(
            "the repeated-colour guess played",
            Duration::from_secs(5),
            |s| feedbacks(s, 4).len() == 1,
        )
        .unwrap();
    assert_eq!(
        feedbacks(&played, 4)[0].guess,
        vec!['R', 'G', 'R', 'R'],
        "{played}"
    );
}

/// The key Bulls and Cows' optimal tree is kept under in IndexedDB (its file's name in the terminal's data).
const TREE: &str = "bulls-cows-optimal.pmt";

/// How many of the workers' events (`window.parlorKept.events`, index.html) are `event` on the tree.
fn tree_events(page: &Session, event: &str) -> usize {
    let events = page.eval("return window.parlorKept.events").unwrap();
    events.as_array().map_or(0, |a| {
        a.iter()
            .filter(|e| e["key"] == TREE && e["event"] == event)
            .count()
    })
}

/// Waits until `n` `event`s on the tree have come; gives every event so far.
fn wait_tree(page: &Session, event: &str, n: usize, limit: Duration) -> String {
    let deadline = std::time::Instant::now() + limit;
    loop {
        let seen = tree_events(page, event);
        let events = page.eval("return window.parlorKept.events").unwrap();
        if seen >= n {
            return events.to_string();
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited {limit:?} for {n} {event} of {TREE}; events: {events}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// A new Bulls and Cows game (you guess), then a hint: its line once it has come.
fn bulls_hint(page: &Session, limit: Duration, says: &str) -> String {
    open_item(page, "New game: Mastermind");
    set_setting(page, "Variant", "bulls-cows (digits, 4, 10)");
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen("a new Bulls and Cows game", Duration::from_secs(10), |s| {
        title(s).contains("Mastermind") && s.contains("Guess 1 of 10")
    })
    .unwrap();
    hint_saying(page, limit, says)
}

/// A hint asked on the game shown, waited for until it says `says`; its line.
fn hint_saying(page: &Session, limit: Duration, says: &str) -> String {
    page.type_text("t").unwrap();
    let hinted = page
        .wait_screen(&format!("a hint saying {says:?}"), limit, |s| {
            s.contains("hint:") && s.contains(says)
        })
        .unwrap();
    hinted
        .lines()
        .skip_while(|l| !l.contains("hint:"))
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn bulls_and_cows_optimal_tree_is_built_once_kept_and_a_damaged_one_rebuilt() {
    let Some(page) = page("mastermind_bulls_tree", "seed=3") else {
        return;
    };
    // First visit: the first hint is a heuristic's and says the tree is being built (in a second worker).
    let first = bulls_hint(&page, Duration::from_secs(60), "heuristic");
    assert!(first.contains("being built"), "{first}");
    wait_tree(&page, "building", 1, Duration::from_secs(10));
    // Hints go on while it builds: a guess, then a hint answered at once, still a heuristic's.
    page.type_text("0123").unwrap();
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen("the first guess played", Duration::from_secs(10), |s| {
        s.contains("Guess 2 of 10")
    })
    .unwrap();
    let during = hint_saying(&page, Duration::from_secs(30), "heuristic");
    assert_eq!(tree_events(&page, "solved"), 0, "{during}");
    // Built (minutes in the page), checked, kept; the next hint is the tree's and says so.
    let built = wait_tree(&page, "solved", 1, Duration::from_secs(1500));
    println!("built: {built}");
    let optimal = hint_saying(&page, Duration::from_secs(30), "from the optimal tree");
    assert!(!optimal.contains("heuristic"), "{optimal}");
    page.screenshot("_optimal").unwrap();

    // The next visit: the new worker reads the tree from IndexedDB (no build) and the first hint is the tree's.
    page.reload().unwrap();
    page.wait_text(crate::common::MENU_FIRST).unwrap();
    let loaded = wait_tree(&page, "loaded", 1, Duration::from_secs(60));
    println!("next visit: {loaded}");
    let line = bulls_hint(&page, Duration::from_secs(30), "from the optimal tree");
    assert!(!line.contains("heuristic"), "{line}");
    assert_eq!(
        tree_events(&page, "building"),
        0,
        "no build on the next visit"
    );
    assert_eq!(tree_events(&page, "solved"), 0);

    // A damaged stored tree (one byte flipped here, through IndexedDB) is refused, deleted and built again.
    let damaged = page
        .eval(&format!(
            "return new Promise((ok, no) => {{
               const r = indexedDB.open('parlor-kept', 1);
               r.onerror = () => no(String(r.error));
               r.onsuccess = () => {{
                 const store = r.result.transaction('kept', 'readwrite').objectStore('kept');
                 const get = store.get('{TREE}');
                 get.onsuccess = () => {{
                   const bytes = new Uint8Array(get.result);
                   bytes[bytes.length >> 1] ^= 1;
                   const put = store.put(bytes, '{TREE}');
                   put.onsuccess = () => ok(bytes.length);
                   put.onerror = () => no(String(put.error));
                 }};
               }};
             }});"
        ))
        .unwrap();
    let size = damaged.as_f64().unwrap();
    println!("stored tree: {size} bytes");
    assert!(size > 1000.0, "{damaged}");
    page.reload().unwrap();
    page.wait_text(crate::common::MENU_FIRST).unwrap();
    let refused = wait_tree(&page, "refused", 1, Duration::from_secs(60));
    assert!(refused.contains("checksum"), "{refused}");
    assert_eq!(tree_events(&page, "loaded"), 0, "{refused}");
    let line = bulls_hint(&page, Duration::from_secs(60), "heuristic");
    assert!(line.contains("being built"), "{line}");
    let rebuilt = wait_tree(&page, "solved", 1, Duration::from_secs(1500));
    println!("damaged, then: {rebuilt}");
    hint_saying(&page, Duration::from_secs(30), "from the optimal tree");
}
