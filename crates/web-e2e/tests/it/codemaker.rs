//! Mastermind's codemaker on the graphical face, by touch alone: the player keeps a code in mind and marks each of
//! the computer's guesses with key pegs (a tap turns one from none to black to white) until the computer finds it;
//! then a code chosen by taps and hidden, which the computer scores itself. The screens fit at phone and desktop
//! sizes (44 px targets, nothing overlapping or past the viewport).

use crate::faces::{SIZES, check, faces, finished, text, wait};
use parlor_web_e2e::Session;
use serde_json::Value;
use std::time::Duration;

/// The code the player keeps in mind: red, green, yellow, blue (colours 0 to 3 of the seed variant).
const SECRET: [u8; 4] = [0, 1, 2, 3];

/// A new codemaker game of the default variant, by taps.
fn start_maker(s: &Session) {
    s.tap("[data-act=\"setup:1\"]").unwrap();
    wait(
        s,
        "the setup",
        "return !!document.querySelector('select[data-set=\"role\"]');",
    );
    s.eval("const e = document.querySelector('select[data-set=\"role\"]'); e.value = 'maker'; e.dispatchEvent(new Event('change', {bubbles: true})); return true;")
        .unwrap();
    s.tap("[data-act=\"start:1\"]").unwrap();
    wait(
        s,
        "the code to choose",
        "return !!document.querySelector('[data-act=\"b:byhand\"]');",
    );
}

/// The computer's guess shown (its colours, 0-based).
fn guess(s: &Session) -> Vec<u8> {
    let v = s
        .eval("const e = document.querySelector('#mm-guess'); return e ? e.dataset.guess : '';")
        .unwrap();
    v.as_str()
        .unwrap_or_default()
        .split(',')
        .filter_map(|c| c.parse().ok())
        .collect()
}

/// The answer of `secret` to `guess`: black, white.
fn answer(secret: &[u8], guess: &[u8]) -> (usize, usize) {
    let black = secret.iter().zip(guess).filter(|(a, b)| a == b).count();
    let common: usize = (0..10u8)
        .map(|c| {
            let n = |code: &[u8]| code.iter().filter(|&&x| x == c).count();
            n(secret).min(n(guess))
        })
        .sum();
    (black, common - black)
}

fn rows(s: &Session) -> u64 {
    s.eval("return document.querySelectorAll('.mm li.guess:not(.empty)').length;")
        .unwrap()
        .as_u64()
        .unwrap_or(0)
}

#[test]
fn a_codemaker_marks_the_computers_guesses_by_touch_and_hides_a_code() {
    let Some(s) = faces("faces_codemaker") else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    start_maker(&s);
    for &(w, h, phone) in SIZES {
        s.emulate(w, h, phone).unwrap();
        check(&s, "codemaker-code", (w, h), false);
    }
    s.emulate(360, 780, true).unwrap();
    std::thread::sleep(Duration::from_millis(1000));

    // By hand: every guess answered with key pegs tapped, until the computer finds the code.
    s.tap("[data-act=\"b:byhand\"]").unwrap();
    wait(
        &s,
        "the computer's guess",
        "return !!document.querySelector('#mm-guess');",
    );
    let mut found = false;
    for n in 0..8u64 {
        let g = guess(&s);
        assert_eq!(g.len(), 4, "the guess shown: {g:?}");
        let (black, white) = answer(&SECRET, &g);
        for k in 0..black {
            s.tap(&format!("[data-act=\"b:mark:{k}\"]")).unwrap();
        }
        for k in black..black + white {
            s.tap(&format!("[data-act=\"b:mark:{k}\"]")).unwrap();
            s.tap(&format!("[data-act=\"b:mark:{k}\"]")).unwrap();
        }
        wait(
            &s,
            "the answer marked",
            &format!(
                "return document.querySelector('#mm-answer').textContent === 'Your answer: {black} black, {white} white';"
            ),
        );
        if n == 0 {
            for &(w, h, phone) in SIZES {
                s.emulate(w, h, phone).unwrap();
                check(&s, "codemaker-marking", (w, h), false);
            }
            s.emulate(360, 780, true).unwrap();
            std::thread::sleep(Duration::from_millis(1000));
        }
        s.tap("[data-act=\"b:answer\"]").unwrap();
        wait(
            &s,
            "the answer taken",
            &format!(
                "return document.querySelectorAll('.mm li.guess:not(.empty)').length === {};",
                n + 1
            ),
        );
        let keys = s
            .eval("const l = [...document.querySelectorAll('.mm li.guess:not(.empty)')].pop(); return l.querySelector('.keys').getAttribute('aria-label');")
            .unwrap();
        assert_eq!(keys, Value::from(format!("{black} black, {white} white")));
        if black == 4 {
            found = true;
            break;
        }
    }
    assert!(
        found,
        "the computer found the code within 8 guesses ({} answered)",
        rows(&s)
    );
    wait(&s, "the end", "return !!document.querySelector('#ending');");
    let ending = text(&s, "#ending");
    assert!(ending.contains("The computer found your code"), "{ending}");
    assert_eq!(finished(&s, "mastermind"), 1, "the game is recorded");
    s.tap(".end [data-act=\"menu\"]").unwrap();
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"setup:1\"]');",
    );

    // Hidden: the code chosen by taps; the computer scores its own guesses from it to the end.
    start_maker(&s);
    for c in SECRET {
        s.tap(&format!("[data-act=\"b:c:{c}\"]")).unwrap();
    }
    wait(
        &s,
        "the code chosen",
        "return !document.querySelector('[data-act=\"b:secret\"]').disabled;",
    );
    s.tap("[data-act=\"b:secret\"]").unwrap();
    wait(&s, "the end", "return !!document.querySelector('#ending');");
    let ending = text(&s, "#ending");
    assert!(ending.contains("The computer found your code"), "{ending}");
    let last = s
        .eval("const l = [...document.querySelectorAll('.mm li.guess:not(.empty)')].pop(); return l.querySelector('.keys').getAttribute('aria-label');")
        .unwrap();
    assert_eq!(
        last,
        Value::from("4 black, 0 white"),
        "the last guess is the code"
    );
    assert_eq!(finished(&s, "mastermind"), 2);
}
