//! Mastermind in the page: guesses typed by keys and put by clicks on the colour palette, each feedback read from
//! the screen, until the code is cracked (guessing, each time, the first code that agrees with every feedback).
//! Bulls and Cows' optimal tree built once by the page's builder worker (a think stopped meanwhile does not end
//! the build), kept in IndexedDB and read on the next visit.

use crate::common::{
    consistent, damage_kept, feedbacks, find, new_4x4_perfect_computer_first, open_item, page,
    resume, set_setting, title, to_menu,
};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

const COLOURS: [char; 6] = ['R', 'G', 'Y', 'U', 'K', 'O'];
const NAMES: [&str; 6] = ["RED", "GREEN", "YELLOW", "BLUE", "BLACK", "ORANGE"];

pub(crate) fn start(page: &Session) -> String {
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

/// How many thinking workers the page has started (`window.parlorWorkerStarts`, index.html): one more each time a
/// think is stopped by ending its worker.
fn worker_starts(page: &Session) -> f64 {
    page.eval_f64("return window.parlorWorkerStarts").unwrap()
}

/// How many builder workers the page has started (`window.parlorBuilderStarts`, index.html).
fn builder_starts(page: &Session) -> f64 {
    page.eval_f64("return window.parlorBuilderStarts").unwrap()
}

/// The size of the tree kept in IndexedDB (read there, as the next visit's worker reads it), 0 when none is kept.
fn stored_tree(page: &Session) -> f64 {
    page.eval(&format!(
        "return new Promise((ok, no) => {{
           const r = indexedDB.open('parlor-kept', 1);
           r.onerror = () => no(String(r.error));
           r.onsuccess = () => {{
             const get = r.result.transaction('kept', 'readonly').objectStore('kept').get('{TREE}');
             get.onsuccess = () => ok(get.result ? new Uint8Array(get.result).length : 0);
             get.onerror = () => no(String(get.error));
           }};
         }});"
    ))
    .unwrap()
    .as_f64()
    .unwrap()
}

/// A think stopped by the player: a new Nocca Nocca game on 4 x 4 against the perfect computer, which moves first
/// (its move waits for the board's table, which the builder solves after the tree: a think that lasts), and, while
/// it thinks, back to the menu. The page ends the thinking worker and starts a fresh one.
fn stop_a_think(page: &Session) {
    let starts = worker_starts(page);
    new_4x4_perfect_computer_first(page);
    page.wait_screen("a new 4x4 Nocca game", Duration::from_secs(10), |s| {
        title(s).contains("Nocca")
    })
    .unwrap();
    // (The status line says so, or, once the builder is asked, that the table is waiting or being solved, which
    // may push `computer thinking…` past the line's end.)
    page.wait_screen("the computer thinking", Duration::from_secs(5), |s| {
        s.contains("computer thinking") || s.contains("4x4 table")
    })
    .unwrap();
    to_menu(page);
    assert_eq!(
        worker_starts(page),
        starts + 1.0,
        "the thinking worker was ended and a fresh one started"
    );
}

/// Bulls and Cows' optimal tree in the page: built once by the page's builder worker while hints go on, through a
/// think stopped meanwhile (which ends the thinking worker, not the build) and a second thinking worker that wants
/// it too; kept in IndexedDB and read on the next visit; a damaged kept tree refused, deleted and built again.
#[test]
fn bulls_and_cows_optimal_tree_is_built_once_through_a_stopped_think_kept_and_a_damaged_one_refused()
 {
    let Some(page) = page("mastermind_bulls_tree", "seed=3") else {
        return;
    };
    // First visit: the first hint is a heuristic's and says the tree is being built (in the builder worker).
    let first = bulls_hint(&page, Duration::from_secs(60), "heuristic");
    assert!(first.contains("being built"), "{first}");
    wait_tree(&page, "building", 1, Duration::from_secs(10));
    assert_eq!(builder_starts(&page), 1.0);
    // Hints go on while it builds: a guess, then a hint answered at once, still a heuristic's.
    page.type_text("0123").unwrap();
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen("the first guess played", Duration::from_secs(10), |s| {
        s.contains("Guess 2 of 10")
    })
    .unwrap();
    let during = hint_saying(&page, Duration::from_secs(30), "heuristic");
    to_menu(&page);

    // A think stopped while the tree builds ends the thinking worker, not the build.
    assert_eq!(tree_events(&page, "solved"), 0, "{during}");
    stop_a_think(&page);
    assert_eq!(
        tree_events(&page, "solved"),
        0,
        "the tree is still building after the stop"
    );
    // The fresh thinking worker does not have the tree and wants it too (its hint says it is being built): the
    // page does not build it again.
    let again = bulls_hint(&page, Duration::from_secs(60), "heuristic");
    assert!(again.contains("being built"), "{again}");
    assert_eq!(tree_events(&page, "building"), 1, "{again}");
    assert_eq!(builder_starts(&page), 1.0);

    // Built once (minutes in the page), handed to the fresh worker, checked, kept; its next hint is the tree's.
    let built = wait_tree(&page, "solved", 1, Duration::from_secs(1500));
    println!("built: {built}");
    let optimal = hint_saying(&page, Duration::from_secs(30), "from the optimal tree");
    assert!(!optimal.contains("heuristic"), "{optimal}");
    page.screenshot("_optimal").unwrap();
    assert_eq!(tree_events(&page, "building"), 1, "built once: {built}");
    assert_eq!(tree_events(&page, "solved"), 1, "kept once: {built}");
    assert_eq!(builder_starts(&page), 1.0);
    let size = stored_tree(&page);
    println!("stored tree: {size} bytes");
    assert!(size > 1000.0, "the tree in IndexedDB: {size} bytes");

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
    assert_eq!(builder_starts(&page), 0.0);

    // A damaged stored tree (one byte flipped here, through IndexedDB) is refused, deleted, and asked of the builder
    // again by the first hint that needs it. The rebuild is not waited for: from its start on, it is the path the
    // first visit took to the end above (the same builder, hand-over, check and keeping), and a second build of
    // minutes would prove nothing more.
    let damaged = damage_kept(&page, TREE, "bytes.length >> 1");
    assert_eq!(damaged, size);
    page.reload().unwrap();
    page.wait_text(crate::common::MENU_FIRST).unwrap();
    let refused = wait_tree(&page, "refused", 1, Duration::from_secs(60));
    println!("damaged: {refused}");
    assert!(refused.contains("checksum"), "{refused}");
    assert_eq!(tree_events(&page, "loaded"), 0, "{refused}");
    let line = bulls_hint(&page, Duration::from_secs(60), "heuristic");
    assert!(line.contains("being built"), "{line}");
    wait_tree(&page, "building", 1, Duration::from_secs(10));
    assert_eq!(builder_starts(&page), 1.0);
    assert_eq!(stored_tree(&page), 0.0, "the damaged entry was deleted");
}
