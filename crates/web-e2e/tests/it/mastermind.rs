//! Mastermind in the page: guesses typed by keys and put by clicks on the colour palette, each feedback read from
//! the screen, until the code is cracked (guessing, each time, the first code that agrees with every feedback).

use crate::common::{consistent, feedbacks, find, open_item, page, resume, title};
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
