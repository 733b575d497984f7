//! The page on a phone (DevTools emulation: 320 x 568 and 390 x 844 CSS px, device pixel ratio 3, touch): the
//! grid's font shrinks so that 40 x 12 cells fit (no "terminal too small"), the grid stays in the viewport, and a
//! game is started and played by taps and swipes, read through pointer events (the mouse events a browser makes
//! from a touch move nothing).

use crate::common::{MENU_FIRST, find, number_after, page, title, to_menu};
use parlor_web_e2e::Session;
use serde_json::Value;
use std::time::Duration;

/// The grid's font size (CSS px), its element's box and the viewport's size, as the page has them.
fn grid_box(page: &Session) -> (f64, Value) {
    let v = page
        .eval(
            "const t = document.getElementById('term'); const g = t.firstElementChild || t; \
             const r = g.getBoundingClientRect(); \
             return [parseFloat(getComputedStyle(t).fontSize), \
                     {right: r.right, bottom: r.bottom, width: innerWidth, height: innerHeight}];",
        )
        .unwrap();
    (v[0].as_f64().unwrap(), v[1].clone())
}

/// Starts 2048 by taps alone (its menu row, then the setup's "Enter" to start) and slides it by a swipe.
fn play_2048_by_touch(page: &Session) {
    let menu = page.wait_text(MENU_FIRST).unwrap();
    let (col, row) = find(&menu, MENU_FIRST).unwrap();
    let is_setup = |s: &str| title(s).contains("new game of 2048");
    page.tap_cell(col + 2, row).unwrap();
    // A tap on a row not selected may only select it; a second tap opens it.
    let setup = match page.wait_screen("the 2048 setup", Duration::from_secs(2), is_setup) {
        Ok(s) => s,
        Err(_) => {
            page.tap_cell(col + 2, row).unwrap();
            page.wait_screen("the 2048 setup", Duration::from_secs(5), is_setup)
                .unwrap()
        }
    };
    let (col, row) = find(&setup, "Enter")
        .unwrap_or_else(|| panic!("the setup shows no Enter to tap:\n{setup}"));
    page.tap_cell(col + 1, row).unwrap();
    let board = page
        .wait_screen(
            "a 2048 game started by a tap",
            Duration::from_secs(5),
            |s| number_after(s, "Moves") == Some(0),
        )
        .unwrap();
    let ((cx, cy), (hw, _)) = crate::common::box_centre(&board).unwrap();
    for (from, to) in [
        ((cx + hw / 2, cy), (cx - hw / 2, cy)),
        ((cx - hw / 2, cy), (cx + hw / 2, cy)),
    ] {
        page.swipe_cells(from, to).unwrap();
        if page
            .wait_screen("a slide by a swipe", Duration::from_secs(2), |s| {
                number_after(s, "Moves") == Some(1)
            })
            .is_ok()
        {
            return;
        }
    }
    panic!("no swipe slid the board:\n{}", page.screen().unwrap());
}

#[test]
fn at_320_and_390_px_the_grid_fits_and_plays_by_touch() {
    let Some(page) = page("phone", "seed=8") else {
        return;
    };
    for (w, h) in [(320, 568), (390, 844)] {
        page.emulate_phone(Some((w, h))).unwrap();
        page.reload().unwrap();
        let menu = page.wait_text(MENU_FIRST).unwrap();
        assert!(!menu.contains("too small"), "{w}x{h}:\n{menu}");
        let columns = menu.lines().map(|l| l.chars().count()).max().unwrap_or(0);
        let rows = menu.lines().count();
        assert!(columns >= 40 && rows >= 12, "{w}x{h}: {columns} x {rows}");
        let (font, grid) = grid_box(&page);
        assert!((10.0..=16.0).contains(&font), "{w}x{h}: font {font}px");
        assert!(
            grid["right"].as_f64().unwrap() <= grid["width"].as_f64().unwrap() + 0.5
                && grid["bottom"].as_f64().unwrap() <= grid["height"].as_f64().unwrap() + 0.5,
            "{w}x{h}: the grid overflows the viewport: {grid}"
        );
        page.screenshot(&format!("_{w}x{h}_menu")).unwrap();
        play_2048_by_touch(&page);
        page.screenshot(&format!("_{w}x{h}_2048")).unwrap();
        to_menu(&page);
    }
    // At 320 px the font shrank to fit 40 columns; the desktop keeps 16 px.
    page.emulate_phone(Some((320, 568))).unwrap();
    page.reload().unwrap();
    page.wait_text(MENU_FIRST).unwrap();
    let (small, _) = grid_box(&page);
    assert!(small < 16.0, "font {small}px at 320 px");
    page.emulate_phone(None).unwrap();
    page.reload().unwrap();
    page.wait_text(MENU_FIRST).unwrap();
    assert_eq!(grid_box(&page).0, 16.0);
}

#[test]
fn taps_are_read_from_pointer_events_not_from_the_mouse_events_made_from_them() {
    let Some(page) = page("pointer", "") else {
        return;
    };
    let menu = page.screen().unwrap();
    let (col, row) = find(&menu, "Settings").unwrap();
    let at = page.cell_at(col + 1, row).unwrap();
    let fire = |kinds: &str| {
        page.eval_with(
            &format!(
                "const t = document.getElementById('term'); \
                 for (const [kind, make] of {kinds}) {{ \
                   t.dispatchEvent(make(kind, {{ clientX: arguments[0], clientY: arguments[1], bubbles: true, \
                     pointerType: 'touch', isPrimary: true, button: 0 }})); }} \
                 return true;"
            ),
            vec![at.x.into(), at.y.into()],
        )
        .unwrap();
    };
    // What a browser sends after a tap for pages that read only the mouse: nothing moves.
    fire(
        "[['mousedown', (k, o) => new MouseEvent(k, o)], ['mouseup', (k, o) => new MouseEvent(k, o)]]",
    );
    std::thread::sleep(Duration::from_millis(400));
    assert_eq!(
        page.screen().unwrap(),
        menu,
        "a mouse event from a touch moved the page"
    );
    // The tap itself, as pointer events: Settings opens.
    fire(
        "[['pointerdown', (k, o) => new PointerEvent(k, o)], ['pointerup', (k, o) => new PointerEvent(k, o)]]",
    );
    let tapped = page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    assert!(
        tapped.to_lowercase().contains("settings"),
        "the tap selected or opened Settings:\n{tapped}"
    );
}
