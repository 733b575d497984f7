//! The page's store: a settings change survives a reload (and lands in `parlor.settings`); `parlorExport` then
//! `parlorImport` round-trips, into a fresh store too; damaged and newer texts are refused and change nothing.

use crate::common::{MENU_FIRST, find, open_item, page, setting, to_menu};
use crate::twenty48;
use parlor_web_e2e::Key;
use std::time::Duration;

/// The export's JSON value (so that key order does not count).
fn json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("parlorExport() is not JSON ({e}): {text}"))
}

#[test]
fn a_settings_change_survives_a_reload() {
    let Some(page) = page("settings_reload", "") else {
        return;
    };
    let screen = open_item(&page, "Settings");
    let before = setting(&screen, "Theme");
    let (col, row) = find(&screen, "Theme").unwrap();
    page.click_cell(col, row).unwrap();
    page.press(&[Key::Right]).unwrap();
    let changed = page
        .wait_screen("the theme to change", Duration::from_secs(5), |s| {
            setting(s, "Theme") != before
        })
        .unwrap();
    let after = setting(&changed, "Theme");
    assert!(!changed.contains("NOT saved"), "{changed}");
    page.screenshot("").unwrap();

    let file = page
        .eval_string("return localStorage.getItem('parlor.settings') || '';")
        .unwrap();
    assert!(
        file.contains(&after),
        "parlor.settings holds theme {after:?}: {file}"
    );

    page.reload().unwrap();
    to_menu(&page);
    let again = open_item(&page, "Settings");
    assert_eq!(setting(&again, "Theme"), after, "{again}");
}

#[test]
fn export_and_import_round_trip_and_refuse_damaged_or_newer_text() {
    let Some(page) = page("store_export", "") else {
        return;
    };
    let empty = page.export().unwrap();
    twenty48::start(&page);
    page.press(&[Key::Left, Key::Up, Key::Right, Key::Down])
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    to_menu(&page);

    let text = page.export().unwrap();
    let json: serde_json::Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("parlorExport() is not JSON ({e}): {text}"));
    let object = json.as_object().expect("the export is a JSON object");
    assert!(
        object.keys().any(|k| k.contains("version")),
        "the export names its format's version: {text}"
    );
    assert_ne!(text, empty, "the game in progress is in the export");
    let stored = page
        .eval_string("return localStorage.getItem('parlor.store') || '';")
        .unwrap();
    assert!(
        serde_json::from_str::<serde_json::Value>(&stored).is_ok(),
        "localStorage's parlor.store holds JSON: {stored}"
    );

    // Importing the same text changes nothing.
    let said = page.import(&text).unwrap();
    assert!(
        !said.trim().is_empty(),
        "parlorImport says what it imported"
    );
    assert_eq!(json_of(&page.export().unwrap()), json_of(&text));

    // Damaged: cut in half.
    let said = page.import(&text[..text.len() / 2]).unwrap();
    assert!(!said.trim().is_empty(), "a refusal says why");
    assert_eq!(
        json_of(&page.export().unwrap()),
        json_of(&text),
        "a damaged text changes nothing (it said {said:?})"
    );

    // Newer: the empty store's text with a version from the future would empty the store if taken.
    let mut newer: serde_json::Value = serde_json::from_str(&empty).unwrap();
    let key = newer
        .as_object()
        .and_then(|o| o.keys().find(|k| k.contains("version")).cloned())
        .expect("the empty export names its version");
    newer[&key] = serde_json::json!(999_999);
    let said = page.import(&newer.to_string()).unwrap();
    assert!(!said.trim().is_empty(), "a refusal says why");
    assert_eq!(
        json_of(&page.export().unwrap()),
        json_of(&text),
        "a newer text changes nothing (it said {said:?})"
    );

    // Into a fresh store: the game in progress comes back.
    page.fresh_start().unwrap();
    let menu = page.wait_text(MENU_FIRST).unwrap();
    assert!(!menu.contains("Continue 2048"), "{menu}");
    page.import(&text).unwrap();
    assert_eq!(json_of(&page.export().unwrap()), json_of(&text));
    page.reload().unwrap();
    page.wait_text("Continue 2048").unwrap();
}
