//! The harness itself, on its fixture page (`crates/web-e2e/fixture/index.html`): keys reach `document`, a click
//! lands on the cell asked for, drags and swipes go from cell to cell, reload keeps localStorage, screenshots are
//! written, and a wait that can't succeed gives up in time saying what it waited for.

use crate::common::fixture;
use parlor_web_e2e::Key;
use std::time::{Duration, Instant};

#[test]
fn keys_reach_the_document_and_are_counted() {
    let Some(page) = fixture("harness_keys", "seed=5&backend=dom") else {
        return;
    };
    let first = page.screen().unwrap();
    assert!(
        first.starts_with("Fixture · backend dom · seed 5"),
        "{first}"
    );
    assert_eq!(first.lines().count(), 24, "{first}");
    assert!(first.contains("keys 0 · last none"), "{first}");

    page.type_text("ab").unwrap();
    page.press(&[Key::Up, Key::Enter]).unwrap();
    let after = page.wait_text("keys 4").unwrap();
    assert!(after.contains("last Enter"), "{after}");
    assert_eq!(page.announce().unwrap(), "key Enter, 4 so far");
    assert_eq!(page.announce_live().unwrap().as_deref(), Some("polite"));
    let frame = page.frame_ms().unwrap();
    assert!((0.0..1000.0).contains(&frame), "parlorFrameMs {frame}");
    let first_draw = page.first_draw_ms().unwrap();
    assert!(
        first_draw >= 150.0,
        "drawn after the fixture's 150 ms delay, not {first_draw}"
    );
}

#[test]
fn clicks_drags_and_swipes_land_on_the_cells_asked_for() {
    let Some(page) = fixture("harness_pointer", "") else {
        return;
    };
    page.click_cell(7, 3).unwrap();
    page.wait_text("pointer click 7,3 by mouse").unwrap();
    page.click_cell(79, 23).unwrap();
    page.wait_text("pointer click 79,23 by mouse").unwrap();
    page.drag_cells((2, 5), (12, 5)).unwrap();
    page.wait_text("pointer drag 2,5 to 12,5").unwrap();
    page.swipe_cells((10, 10), (10, 4)).unwrap();
    page.wait_text("pointer swipe 10,10 to 10,4").unwrap();
    let a = page.cell_at(0, 0).unwrap();
    let b = page.cell_at(1, 1).unwrap();
    assert!(b.x > a.x && b.y > a.y, "{a:?} {b:?}");
}

#[test]
fn reload_keeps_the_store_and_export_import_refuse_bad_text() {
    let Some(page) = fixture("harness_store", "") else {
        return;
    };
    page.fresh_start().unwrap();
    page.type_text("xyz").unwrap();
    page.wait_text("stored presses 3").unwrap();
    page.reload().unwrap();
    let screen = page.wait_text("stored presses 3").unwrap();
    assert!(
        screen.contains("keys 0"),
        "a reload starts the page afresh: {screen}"
    );

    let text = page.export().unwrap();
    assert_eq!(text, r#"{"version":1,"presses":3}"#);
    assert!(page.import("{not json").unwrap().starts_with("refused"));
    assert!(
        page.import(r#"{"version":2,"presses":1}"#)
            .unwrap()
            .contains("newer")
    );
    assert_eq!(
        page.export().unwrap(),
        text,
        "a refused import changes nothing"
    );
    assert_eq!(
        page.import(r#"{"version":1,"presses":9}"#).unwrap(),
        "imported 9 presses"
    );
    page.wait_text("stored presses 9").unwrap();

    page.fresh_start().unwrap();
    page.wait_text("stored presses 0").unwrap();
}

#[test]
fn screenshots_are_kept_and_failed_waits_say_what_they_waited_for() {
    let Some(page) = fixture("harness_artifacts", "") else {
        return;
    };
    let file = page.screenshot("").unwrap();
    let png = std::fs::read(&file).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", file.display());
    assert!(png.len() > 1000, "{} bytes", png.len());
    assert!(
        file.ends_with("web-artifacts/harness_artifacts.png"),
        "{}",
        file.display()
    );

    let started = Instant::now();
    let err = page
        .wait_screen(
            "a screen that never comes",
            Duration::from_millis(600),
            |s| s.contains("never"),
        )
        .unwrap_err();
    let waited = started.elapsed();
    assert!(waited < Duration::from_secs(5), "{waited:?}");
    assert!(err.message().contains("a screen that never comes"), "{err}");
    assert!(
        err.message().contains("Fixture · backend"),
        "shows the last screen: {err}"
    );

    let ms = page.bench("anything").unwrap();
    assert!(ms > 0.0, "{ms}");
    let hits = page.server().hits();
    assert!(hits.iter().all(|h| h.status == 200), "{hits:?}");
}
