//! Honest storage messages: a browser that refuses the page its storage (localStorage and IndexedDB throwing, as
//! with cookies blocked) gets one plain sentence on the menu, never the browser's exception; a full storage (the
//! store's write rejected) never lets play say "(saved)", and "(saved)" comes back once a write succeeds.

use crate::common::{MENU_FIRST, line_with, number_after, to_menu};
use crate::twenty48;
use parlor_web_e2e::{Key, Session, site_from_env};
use std::time::Duration;

/// Storage refused as a browser refuses it: reading `localStorage` and opening IndexedDB throw a SecurityError.
const BLOCKED: &str = "
  const refuse = () => { throw new DOMException('The operation is insecure.', 'SecurityError'); };
  Object.defineProperty(window, 'localStorage', { configurable: true, get: refuse });
  try { Object.defineProperty(IDBFactory.prototype, 'open', { configurable: true, value: refuse }); } catch (e) {}
";

/// Every write to `localStorage` rejected as a full storage rejects it while `window.parlorFull` is true.
const FULL: &str = "
  const set = Storage.prototype.setItem;
  Storage.prototype.setItem = function (k, v) {
    if (window.parlorFull) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    return set.call(this, k, v);
  };
  return true;
";

/// What a raw exception or stack trace on the screen would show.
fn looks_raw(screen: &str) -> bool {
    [
        "JsValue",
        "DOMException",
        "SecurityError",
        "Exception",
        " at http",
        ".wasm",
    ]
    .iter()
    .any(|w| screen.contains(w))
}

/// Slides until the move counter goes up by one; gives the screen.
fn one_move(page: &Session) -> String {
    let before = number_after(&page.screen().unwrap(), "Moves").unwrap();
    for key in [Key::Left, Key::Up, Key::Right, Key::Down] {
        page.press(&[key]).unwrap();
        if let Ok(s) = page.wait_screen("a move", Duration::from_secs(2), |s| {
            number_after(s, "Moves") == Some(before + 1)
        }) {
            std::thread::sleep(Duration::from_millis(200));
            return page.screen().unwrap_or(s);
        }
    }
    panic!("no slide moved the board");
}

/// The hint bar's way back (the line holding `q back`).
fn way_back(screen: &str) -> String {
    line_with(screen, "q back").unwrap_or_default().to_string()
}

#[test]
fn blocked_storage_is_one_plain_sentence_and_play_never_says_saved() {
    let Some(site) = site_from_env("storage_blocked").unwrap() else {
        return;
    };
    let page = Session::launch("storage_blocked", &site).unwrap();
    page.add_init_script(BLOCKED).unwrap();
    page.open("").unwrap();
    let menu = page.wait_text(MENU_FIRST).unwrap();
    page.screenshot("_menu").unwrap();
    assert!(
        menu.contains(
            "Games cannot be kept in this browser (the browser blocks this page's storage)"
        ),
        "{menu}"
    );
    assert!(!looks_raw(&menu), "a raw exception on the menu:\n{menu}");

    twenty48::start(&page);
    let screen = one_move(&page);
    page.screenshot("_play").unwrap();
    assert!(!screen.contains("(saved)"), "{screen}");
    assert!(way_back(&screen).contains("NOT saved"), "{screen}");
    assert!(!looks_raw(&screen), "{screen}");
    page.type_text("q").unwrap();
    let menu = page.wait_text(MENU_FIRST).unwrap();
    assert!(menu.contains("2048 was NOT saved"), "{menu}");
    assert!(!looks_raw(&menu), "{menu}");
}

#[test]
fn a_full_storage_says_not_saved_where_play_happens_until_a_write_succeeds() {
    let Some(page) = crate::common::page("storage_full", "seed=5") else {
        return;
    };
    page.eval(FULL).unwrap();
    twenty48::start(&page);
    let kept = one_move(&page);
    assert!(way_back(&kept).contains("(saved)"), "{kept}");

    page.eval("window.parlorFull = true; return true;").unwrap();
    let full = one_move(&page);
    page.screenshot("_full").unwrap();
    assert!(!full.contains("(saved)"), "{full}");
    assert!(way_back(&full).contains("NOT saved"), "{full}");
    assert!(
        full.contains("could not save: the browser's storage is full"),
        "the message where play happens:\n{full}"
    );
    assert!(!looks_raw(&full), "{full}");
    // Still full: every move says so again.
    let again = one_move(&page);
    assert!(way_back(&again).contains("NOT saved"), "{again}");

    page.eval("window.parlorFull = false; return true;")
        .unwrap();
    let back = one_move(&page);
    assert!(way_back(&back).contains("(saved)"), "{back}");
    let menu = to_menu(&page);
    assert!(menu.contains("Continue 2048"), "{menu}");
    // What was kept is the last move's board: after a reload the game goes on from it.
    page.reload().unwrap();
    page.wait_text("Continue 2048").unwrap();
    let moves = number_after(&back, "Moves").unwrap();
    let resumed = crate::common::resume(&page, "2048");
    assert_eq!(number_after(&resumed, "Moves"), Some(moves), "{resumed}");
}
