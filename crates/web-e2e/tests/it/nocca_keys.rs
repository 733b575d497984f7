//! Nocca Nocca on the graphical face by keys alone, with the terminal's keys (the core's key table): the cursor
//! moved by arrows, a piece selected with Enter and stepped with a digit of the number pad, then selected and moved
//! with the cursor and Enter; 5 lets go of a selection. The board with its cursor fits at phone and desktop sizes.

use crate::faces::{SIZES, check, click, faces, text, wait};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

/// The moves of the Nocca game in progress, as the store keeps them.
fn moves(s: &Session) -> Vec<String> {
    let v = s
        .eval(
            "const t = JSON.parse(localStorage.getItem('parlor.store') || '{}'); \
             const g = (t.unfinished || []).find((g) => g.game === 'nocca'); return g ? g.moves : '';",
        )
        .unwrap();
    v.as_str()
        .unwrap_or_default()
        .split_whitespace()
        .map(String::from)
        .collect()
}

/// The square under the cursor, as its label names it (`c1`).
fn cursor(s: &Session) -> String {
    let label = s
        .eval("const e = document.querySelector('.sq.cursor'); return e ? e.getAttribute('aria-label') : '';")
        .unwrap();
    let label = label.as_str().unwrap_or_default();
    assert!(
        label.ends_with("(cursor)"),
        "the cursor's square: {label:?}"
    );
    label
        .trim_start_matches("Select ")
        .split(':')
        .next()
        .unwrap_or_default()
        .to_string()
}

/// Waits for the computer's answer to the player's move number `n` (the store then holds `n + 1` moves).
fn answered(s: &Session, n: usize) {
    wait(
        s,
        "the computer's answer",
        "return /move \\d+: /.test(document.querySelector('#line').textContent) && !!document.querySelector('[data-act^=\"b:sel:\"]');",
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while moves(s).len() < n + 1 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(moves(s).len(), n + 1, "{:?}", moves(s));
}

#[test]
fn a_nocca_game_is_played_by_the_terminals_keys() {
    let Some(s) = faces("faces_nocca_keys") else {
        return;
    };
    s.emulate(1280, 800, false).unwrap();
    click(&s, "setup:2");
    wait(
        &s,
        "the setup",
        "return !!document.querySelector('select[data-set=\"level\"]');",
    );
    s.eval("const e = document.querySelector('select[data-set=\"level\"]'); e.value = 'beginner'; e.dispatchEvent(new Event('change', {bubbles: true})); e.blur(); return true;")
        .unwrap();
    click(&s, "start:2");
    wait(
        &s,
        "the board",
        "return !!document.querySelector('[data-act^=\"b:sel:\"]');",
    );
    s.eval("document.activeElement && document.activeElement.blur(); return true;")
        .unwrap();

    // The cursor starts in the middle of the home row; left and right bring it back there.
    s.press(&[Key::Left, Key::Right]).unwrap();
    wait(
        &s,
        "the cursor",
        "return !!document.querySelector('.sq.cursor');",
    );
    let home = cursor(&s);
    assert!(
        home.ends_with('1'),
        "the cursor starts on the home row: {home}"
    );
    for &(w, h, phone) in SIZES {
        s.emulate(w, h, phone).unwrap();
        check(&s, "nocca-keys-cursor", (w, h), false);
    }
    s.emulate(1280, 800, false).unwrap();

    // Enter selects the piece under the cursor, 8 steps it up.
    s.press(&[Key::Enter]).unwrap();
    wait(
        &s,
        "the selection",
        "return !!document.querySelector('.sq.selected');",
    );
    let line = text(&s, "#line");
    assert!(line.starts_with(&format!("{home} selected: ")), "{line}");
    s.type_text("8").unwrap();
    answered(&s, 1);
    assert_eq!(moves(&s)[0], format!("{home}k"), "8 steps the piece up");

    // A digit with nothing selected says so; the cursor and Enter select and move; 5 lets go.
    s.type_text("8").unwrap();
    wait(
        &s,
        "the refusal",
        "return document.querySelector('#line').textContent.startsWith('Select a piece first');",
    );
    s.press(&[Key::Up, Key::Enter]).unwrap();
    wait(
        &s,
        "the selection",
        "return !!document.querySelector('.sq.selected');",
    );
    s.type_text("5").unwrap();
    wait(
        &s,
        "let go",
        "return !document.querySelector('.sq.selected');",
    );
    let up = cursor(&s);
    s.press(&[Key::Enter, Key::Up, Key::Enter]).unwrap();
    answered(&s, 3);
    assert_eq!(moves(&s)[2], format!("{up}k"), "the cursor and Enter move");
    s.screenshot("-nocca-keys").unwrap();
}
