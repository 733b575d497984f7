//! The graphical faces (crates/web/src/faces) in headless Chromium: at phone and desktop sizes every screen fits
//! (nothing past the viewport, no two tap targets overlapping, every one at least 44 x 44 CSS px, every control
//! named, every button's label whole), with a screenshot of each kept in target/web-artifacts/; and each game played by touch alone (taps and
//! swipes as WebDriver touch actions, no key): started, moved, undone, hinted, given up and recorded, then back to
//! the menu.

use parlor_web_e2e::{Session, site_from_env};
use serde_json::Value;
use std::time::{Duration, Instant};

/// The sizes of the issue: phones in portrait and landscape (touch), desktops.
pub(crate) const SIZES: &[(u32, u32, bool)] = &[
    (320, 568, true),
    (360, 780, true),
    (390, 844, true),
    (844, 390, true),
    (1280, 800, false),
    (2560, 1440, false),
];

/// A session on the graphical face, on a fresh store.
pub(crate) fn faces(test: &str) -> Option<Session> {
    let site = site_from_env(test).unwrap()?;
    let s = Session::start(test, &site, "face=graphic").unwrap();
    s.fresh_start().unwrap();
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"setup:0\"]');",
    );
    Some(s)
}

/// Waits (10 s at most) until `script` returns true.
pub(crate) fn wait(s: &Session, what: &str, script: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if s.eval(script).ok() == Some(Value::Bool(true)) {
            return;
        }
        if Instant::now() > deadline {
            let line = s
                .eval("const l = document.querySelector('#line'); return l ? l.textContent : document.body.innerText.slice(0, 300);")
                .unwrap_or(Value::Null);
            let shot = s
                .screenshot("-failed")
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            panic!("waited for {what}: {script}; the line says {line} ({shot})");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A control's click, as a script (the layout walk only: the play tests tap).
pub(crate) fn click(s: &Session, act: &str) {
    let ok = s
        .eval_with(
            "const e = document.querySelector('[data-act=\"' + arguments[0] + '\"]'); if (!e) return false; e.click(); return true;",
            vec![act.into()],
        )
        .unwrap();
    assert_eq!(ok, Value::Bool(true), "no control {act}");
}

pub(crate) fn text(s: &Session, selector: &str) -> String {
    s.eval_with(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
        vec![selector.into()],
    )
    .unwrap()
    .as_str()
    .unwrap_or_default()
    .to_string()
}

/// Every button or link of the faces shown whose label does not show whole: its content wider or taller than its
/// box (`scrollWidth` over `clientWidth`), or its text's range past the box's edges (by more than half a pixel).
const CUT_LABELS: &str = r#"
const out = [];
for (const e of document.querySelectorAll('#faces button, #faces a')) {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0 || !e.textContent.trim()) continue;
  const name = e.getAttribute('data-act') || e.textContent.trim();
  if (e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)
    out.push(`${name}: content ${e.scrollWidth} x ${e.scrollHeight} in ${e.clientWidth} x ${e.clientHeight}`);
  const range = document.createRange();
  range.selectNodeContents(e);
  const t = range.getBoundingClientRect();
  if (t.width > 0 && (t.left < r.left - 0.5 || t.right > r.right + 0.5 || t.top < r.top - 0.5 || t.bottom > r.bottom + 0.5))
    out.push(`${name}: text from ${t.left.toFixed(1)} to ${t.right.toFixed(1)} in a box from ${r.left.toFixed(1)} to ${r.right.toFixed(1)}`);
}
return out;
"#;

/// Checks the screen shown and keeps its screenshot.
pub(crate) fn check(s: &Session, screen: &str, size: (u32, u32), scrolls: bool) {
    // Past any animation.
    std::thread::sleep(Duration::from_millis(150));
    let layout = s.layout().unwrap();
    let shot = s
        .screenshot(&format!("-{screen}-{}x{}", size.0, size.1))
        .unwrap();
    let mut faults = layout.faults(scrolls);
    if let Some(cut) = s.eval(CUT_LABELS).unwrap().as_array() {
        faults.extend(
            cut.iter()
                .map(|c| format!("a label is cut: {}", c.as_str().unwrap_or_default())),
        );
    }
    assert!(
        faults.is_empty(),
        "{screen} at {}x{} ({}): {faults:#?}",
        size.0,
        size.1,
        shot.display()
    );
    assert!(!layout.targets.is_empty(), "{screen}: no control at all");
}

#[test]
fn every_screen_fits_phones_and_desktops() {
    let Some(s) = faces("faces_fit") else { return };
    for &(w, h, phone) in SIZES {
        s.emulate(w, h, phone).unwrap();
        let size = (w, h);
        check(&s, "menu", size, true);
        for (i, game) in ["2048", "mastermind", "nocca"].iter().enumerate() {
            click(&s, &format!("setup:{i}"));
            wait(
                &s,
                "the setup",
                &format!("return !!document.querySelector('[data-act=\"start:{i}\"]');"),
            );
            check(&s, &format!("{game}-setup"), size, true);
            click(&s, &format!("start:{i}"));
            wait(&s, "the game", "return !!document.querySelector('#board');");
            check(&s, game, size, false);
            click(&s, "help");
            check(&s, &format!("{game}-help"), size, false);
            click(&s, "help");
            click(&s, "giveup");
            click(&s, "yes");
            wait(&s, "the end", "return !!document.querySelector('#ending');");
            check(&s, &format!("{game}-over"), size, false);
            click(&s, "menu");
            wait(
                &s,
                "the menu",
                "return !!document.querySelector('[data-act=\"setup:0\"]');",
            );
        }
    }
}

/// The number of finished games of `game` in the page's store.
pub(crate) fn finished(s: &Session, game: &str) -> usize {
    let v = s
        .eval_with(
            "const t = localStorage.getItem('parlor.store'); if (!t) return 0; \
             return (JSON.parse(t).games || []).filter((g) => g.game === arguments[0]).length;",
            vec![game.into()],
        )
        .unwrap();
    v.as_u64().unwrap_or(0) as usize
}

/// Undo, a move again (`again`: a game with no move is not recorded), a hint and giving up, by taps, then the
/// menu; the game is recorded.
fn undo_hint_give_up(s: &Session, game: &str, again: &dyn Fn(&Session)) {
    s.tap("[data-act=\"undo\"]").unwrap();
    wait(
        s,
        "the undo",
        "return document.querySelector('#line').textContent.startsWith('Undid');",
    );
    again(s);
    s.tap("[data-act=\"hint\"]").unwrap();
    wait(
        s,
        "the hint",
        "return document.querySelector('#line').textContent.startsWith('Hint: ');",
    );
    s.tap("[data-act=\"giveup\"]").unwrap();
    s.tap("[data-act=\"yes\"]").unwrap();
    wait(s, "the end", "return !!document.querySelector('#ending');");
    let before = finished(s, game);
    s.tap(".end [data-act=\"menu\"]").unwrap();
    wait(
        s,
        "the menu",
        "return !!document.querySelector('[data-act=\"setup:0\"]');",
    );
    assert_eq!(
        before, 1,
        "the {game} game given up is in the store's finished games"
    );
    assert!(
        !text(s, "#faces").contains(&format!("Continue {game}")),
        "a game given up is no longer offered to continue"
    );
}

#[test]
fn each_game_is_played_by_touch_alone() {
    let Some(s) = faces("faces_touch") else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    assert_eq!(
        s.eval("return window.parlorFace;").unwrap(),
        Value::from("graphic")
    );

    // 2048: swipes on the board slide it.
    s.tap("[data-act=\"setup:0\"]").unwrap();
    s.tap("[data-act=\"start:0\"]").unwrap();
    wait(
        &s,
        "the board",
        "return !!document.querySelector('.b2048');",
    );
    let board = s.centre("#board").unwrap();
    for (dx, dy) in [
        (-120.0, 0.0),
        (0.0, -120.0),
        (120.0, 0.0),
        (0.0, 120.0),
        (-120.0, 0.0),
        (0.0, -120.0),
    ] {
        s.swipe(board, (dx, dy)).unwrap();
    }
    wait(
        &s,
        "slides",
        "return /^Move \\d+: /.test(document.querySelector('#line').textContent);",
    );
    // A finger lifts between a swipe and the next tap.
    std::thread::sleep(Duration::from_millis(400));
    let said = s.announce().unwrap();
    assert!(
        said.starts_with("Move "),
        "the aria-live line says the move: {said:?}"
    );
    undo_hint_give_up(&s, "2048", &|_| {});

    // Mastermind: a guess made by tapping colours, submitted.
    s.tap("[data-act=\"setup:1\"]").unwrap();
    s.tap("[data-act=\"start:1\"]").unwrap();
    let guess = |s: &Session, n: usize| {
        for c in ["b:c:0", "b:c:1", "b:c:2", "b:c:2"] {
            s.tap(&format!("[data-act=\"{c}\"]")).unwrap();
        }
        s.tap("[data-act=\"b:submit\"]").unwrap();
        wait(
            s,
            "the guess's answer",
            &format!(
                "return document.querySelectorAll('.mm li.guess:not(.empty)').length === {n};"
            ),
        );
    };
    guess(&s, 1);
    let keys = s
        .eval("return document.querySelectorAll('.mm li.guess:not(.empty) .key.black, .mm li.guess:not(.empty) .key.white').length;")
        .unwrap();
    assert!(keys.as_u64().is_some(), "key pegs drawn: {keys}");
    undo_hint_give_up(&s, "mastermind", &|s| guess(s, 1));

    // Nocca Nocca against the beginner: a piece selected, moved, and the computer's answer.
    s.tap("[data-act=\"setup:2\"]").unwrap();
    wait(
        &s,
        "the setup",
        "return !!document.querySelector('select[data-set=\"level\"]');",
    );
    s.eval("const e = document.querySelector('select[data-set=\"level\"]'); e.value = 'beginner'; e.dispatchEvent(new Event('change', {bubbles: true})); return true;")
        .unwrap();
    s.tap("[data-act=\"start:2\"]").unwrap();
    wait(
        &s,
        "the board",
        "return !!document.querySelector('[data-act^=\"b:sel:\"]');",
    );
    let play = |s: &Session| {
        s.tap("[data-act^=\"b:sel:\"]").unwrap();
        wait(
            s,
            "the targets",
            "return !!document.querySelector('[data-act^=\"b:to:\"]');",
        );
        s.tap("[data-act^=\"b:to:\"]").unwrap();
        wait(
            s,
            "the computer's answer",
            "return /move \\d+: /.test(document.querySelector('#line').textContent) && !!document.querySelector('[data-act^=\"b:sel:\"]');",
        );
    };
    play(&s);
    assert!(text(&s, "#who").contains("to move"), "{}", text(&s, "#who"));
    s.screenshot("-nocca-played").unwrap();
    undo_hint_give_up(&s, "nocca", &play);

    // The default face is this one; the terminal's stays a link away.
    s.eval("location.href = location.origin + '/'; return true;")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    s.wait_ready().unwrap();
    assert_eq!(
        s.eval("return window.parlorFace;").unwrap(),
        Value::from("graphic")
    );
    assert!(
        s.eval("return !!document.querySelector('a[href=\"?face=terminal\"]');")
            .unwrap()
            .as_bool()
            == Some(true)
    );
}

/// Taps `act` and waits for `selector` to be on the page.
pub(crate) fn tap_to(s: &Session, act: &str, selector: &str) {
    s.tap(&format!("[data-act=\"{act}\"]")).unwrap();
    wait(
        s,
        selector,
        &format!("return !!document.querySelector('{selector}');"),
    );
}

/// A 2048 game played and given up by taps and swipes, so that the records have a finished game.
pub(crate) fn finish_a_2048_game(s: &Session) {
    tap_to(s, "setup:0", "[data-act=\"start:0\"]");
    tap_to(s, "start:0", ".b2048");
    let board = s.centre("#board").unwrap();
    for (dx, dy) in [(-120.0, 0.0), (0.0, -120.0), (120.0, 0.0)] {
        s.swipe(board, (dx, dy)).unwrap();
    }
    wait(
        s,
        "slides",
        "return /^Move \\d+: /.test(document.querySelector('#line').textContent);",
    );
    std::thread::sleep(Duration::from_millis(400));
    s.tap("[data-act=\"giveup\"]").unwrap();
    tap_to(s, "yes", "#ending");
    s.tap(".end [data-act=\"menu\"]").unwrap();
    wait(
        s,
        "the menu",
        "return !!document.querySelector('[data-act=\"history\"]');",
    );
}

fn number(s: &Session, selector: &str) -> u64 {
    text(s, selector).trim().parse().unwrap_or(u64::MAX)
}

#[test]
fn history_replays_scores_statistics_and_settings_by_touch() {
    let Some(s) = faces("faces_screens") else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    finish_a_2048_game(&s);

    // History: the game just given up, replayed to its end and back to its start.
    tap_to(&s, "history", "[data-act^=\"replay:\"]");
    let listed = text(&s, ".history");
    assert!(
        listed.contains("2048") && listed.contains("score"),
        "{listed}"
    );
    s.tap("[data-act^=\"replay:\"]").unwrap();
    wait(
        &s,
        "the replay",
        "return !!document.querySelector('.replay #board');",
    );
    assert_eq!(number(&s, "#at"), 0, "a replay opens at the start");
    let moves = number(&s, "#of");
    assert!(
        (1..u64::MAX).contains(&moves),
        "the game had moves: {moves}"
    );
    s.tap("[data-act=\"r:next\"]").unwrap();
    wait(
        &s,
        "one move on",
        "return document.querySelector('#at').textContent === '1';",
    );
    s.tap("[data-act=\"r:last\"]").unwrap();
    wait(&s, "the end", "return !!document.querySelector('#ending');");
    assert_eq!(number(&s, "#at"), moves, "at the end");
    s.tap("[data-act=\"r:back\"]").unwrap();
    wait(
        &s,
        "a move back",
        "return !document.querySelector('#ending');",
    );
    assert_eq!(number(&s, "#at"), moves - 1);
    s.tap("[data-act=\"r:first\"]").unwrap();
    wait(
        &s,
        "the start",
        "return document.querySelector('#at').textContent === '0';",
    );
    s.screenshot("-replay-touch").unwrap();
    tap_to(&s, "history", "[data-act^=\"replay:\"]");
    tap_to(&s, "menu", "[data-act=\"history\"]");

    // Best scores and statistics of 2048: a game given up is played, not ranked.
    tap_to(&s, "scores:0", ".records section.table");
    assert!(
        text(&s, "#faces").contains("1 played"),
        "{}",
        text(&s, "#faces")
    );
    tap_to(
        &s,
        "scores:1",
        "[data-act=\"scores:1\"][aria-pressed=\"true\"]",
    );
    tap_to(&s, "menu", "[data-act=\"stats:0\"]");
    tap_to(&s, "stats:0", ".records .chart");
    assert!(
        text(&s, "#faces").contains("played 1"),
        "{}",
        text(&s, "#faces")
    );
    tap_to(&s, "menu", "[data-act=\"settings\"]");

    // Settings: animations turned off, saved as the terminal face saves them, still off after a reload.
    tap_to(&s, "settings", "select[data-key=\"animations\"]");
    s.eval("const e = document.querySelector('select[data-key=\"animations\"]'); e.value = 'no'; e.dispatchEvent(new Event('change', {bubbles: true})); return true;")
        .unwrap();
    wait(
        &s,
        "saved",
        "return /saved in/.test((document.querySelector('#saved') || {}).textContent || '');",
    );
    let kept = s
        .eval("return localStorage.getItem('parlor.settings') || '';")
        .unwrap();
    assert!(
        kept.as_str()
            .unwrap_or_default()
            .contains("animations = false"),
        "the settings file's text: {kept}"
    );
    s.reload().unwrap();
    s.wait_ready().unwrap();
    tap_to(&s, "settings", "select[data-key=\"animations\"]");
    let value = s
        .eval("return document.querySelector('select[data-key=\"animations\"]').value;")
        .unwrap();
    assert_eq!(value, Value::from("no"), "kept after a reload");
    assert!(
        s.eval("return document.body.classList.contains('still');")
            .unwrap()
            == Value::Bool(true),
        "animations off on the page"
    );
    tap_to(&s, "menu", "[data-act=\"history\"]");
}

#[test]
fn the_record_and_settings_screens_fit_phones_and_desktops() {
    let Some(s) = faces("faces_screens_fit") else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    finish_a_2048_game(&s);
    // Past the time in which a script's click right after a tap is taken for the tap's own click.
    std::thread::sleep(Duration::from_millis(1000));
    for &(w, h, phone) in SIZES {
        s.emulate(w, h, phone).unwrap();
        let size = (w, h);
        check(&s, "menu-more", size, true);
        click(&s, "history");
        wait(
            &s,
            "the history",
            "return !!document.querySelector('[data-act^=\"replay:\"]');",
        );
        check(&s, "history", size, true);
        s.eval("document.querySelector('[data-act^=\"replay:\"]').click(); return true;")
            .unwrap();
        wait(
            &s,
            "the replay",
            "return !!document.querySelector('.replay #board');",
        );
        check(&s, "replay", size, false);
        click(&s, "r:last");
        check(&s, "replay-end", size, false);
        click(&s, "history");
        click(&s, "menu");
        for (act, screen) in [
            ("scores:0", "scores"),
            ("stats:0", "stats"),
            ("settings", "settings"),
        ] {
            click(&s, act);
            wait(
                &s,
                screen,
                "return !!document.querySelector('[data-act=\"menu\"]') && !document.querySelector('[data-act=\"history\"]');",
            );
            check(&s, screen, size, true);
            click(&s, "menu");
            wait(
                &s,
                "the menu",
                "return !!document.querySelector('[data-act=\"history\"]');",
            );
        }
    }
}
