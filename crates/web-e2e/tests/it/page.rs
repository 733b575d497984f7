//! The page as a whole: each backend draws the menu, `#announce` is a polite live region that changes on a move,
//! everything the page loads comes from its own folder, and the figures it offers its tests are there.

use crate::common::{MENU_FIRST, page};
use crate::twenty48;
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

fn draws_the_menu(page: &Session, backend: &str) {
    page.open(&format!("backend={backend}")).unwrap();
    let menu = page.wait_text(MENU_FIRST).unwrap();
    assert!(menu.contains("New game: Nocca Nocca"), "{menu}");
    page.screenshot(&format!("_{backend}")).unwrap();
}

#[test]
fn the_dom_and_canvas_backends_both_draw_the_menu() {
    let Some(page) = page("backends", "") else {
        return;
    };
    draws_the_menu(&page, "dom");
    // The DOM backend draws text a reader can select: the menu's words are in the document.
    let text = page.eval_string("return document.body.innerText;").unwrap();
    assert!(
        text.contains(MENU_FIRST),
        "the DOM backend's document text: {text}"
    );

    draws_the_menu(&page, "canvas");
    let canvases = page
        .eval_f64(
            "return Array.from(document.querySelectorAll('canvas')).filter(c => c.width > 0 && c.height > 0).length;",
        )
        .unwrap();
    assert!(canvases >= 1.0, "the canvas backend draws on a canvas");

    // The default (WebGL2 where the browser has it) draws it too.
    page.open("").unwrap();
    page.wait_text(MENU_FIRST).unwrap();
    page.screenshot("_default").unwrap();
}

#[test]
fn announce_is_a_polite_live_region_that_changes_on_a_move() {
    let Some(page) = page("announce", "seed=21") else {
        return;
    };
    assert_eq!(page.announce_live().unwrap().as_deref(), Some("polite"));
    twenty48::start(&page);
    let mut said = vec![page.announce().unwrap()];
    for key in [
        Key::Left,
        Key::Up,
        Key::Right,
        Key::Down,
        Key::Left,
        Key::Up,
    ] {
        let screen = page.screen().unwrap();
        page.press(&[key]).unwrap();
        if page.wait_change(&screen, Duration::from_secs(2)).is_ok() {
            std::thread::sleep(Duration::from_millis(150));
            said.push(page.announce().unwrap());
        }
    }
    let last = said.last().unwrap();
    assert!(!last.trim().is_empty(), "{said:?}");
    assert!(
        said.windows(2).any(|w| w[0] != w[1]),
        "#announce changed as the tiles moved: {said:?}"
    );
    assert!(
        said.iter().any(|s| s.to_lowercase().contains("score")),
        "a move's announcement names the score: {said:?}"
    );
}

#[test]
fn everything_loads_from_the_page_itself() {
    let Some(page) = page("resources", "") else {
        return;
    };
    let hits = page.server().hits();
    let missing: Vec<_> = hits
        .iter()
        .filter(|h| h.status != 200 && h.path != "/favicon.ico")
        .collect();
    assert!(
        missing.is_empty(),
        "the page asked for files it lacks: {missing:?}"
    );
    assert!(hits.iter().any(|h| h.path.ends_with(".wasm")), "{hits:?}");
    let origin = format!("http://{}", page.server().addr());
    let elsewhere = page
        .eval_with(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith(arguments[0]));",
            vec![origin.into()],
        )
        .unwrap();
    assert_eq!(elsewhere, serde_json::json!([]), "fetched from elsewhere");
}

#[test]
fn the_page_times_itself() {
    let Some(page) = page("timing", "") else {
        return;
    };
    let first = page.first_draw_ms().unwrap();
    assert!(first > 0.0 && first < 30_000.0, "parlorFirstDrawMs {first}");
    twenty48::start(&page);
    let screen = page.screen().unwrap();
    page.press(&[Key::Left, Key::Right]).unwrap();
    let _ = page.wait_change(&screen, Duration::from_secs(2));
    std::thread::sleep(Duration::from_millis(200));
    let frame = page.frame_ms().unwrap();
    assert!(
        frame.is_finite() && frame > 0.0 && frame < 5_000.0,
        "parlorFrameMs() {frame}"
    );
}

#[test]
fn the_help_is_warmed_up_unseen_while_the_page_is_idle() {
    let Some(page) = page("warm", "backend=dom") else {
        return;
    };
    let menu = page.screen().unwrap();
    let announce = "return document.getElementById('announce').textContent;";
    let heard = page.eval_string(announce).unwrap();
    // The menu's help is laid out once in hidden rows when the page is idle after its first screen.
    let mut warmed = 0;
    for _ in 0..50 {
        warmed = count(&draw_stats(&page), "warmedHelps");
        if warmed > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(warmed, 1, "{}", draw_stats(&page));
    // Nothing of it shows, stays in the document, or is announced; the screen is the menu still.
    assert_eq!(page.screen().unwrap(), menu);
    let left = page
        .eval_f64("return document.getElementById('term').children.length;")
        .unwrap();
    assert_eq!(left, 1.0, "only the grid is left in #term");
    assert_eq!(page.eval_string(announce).unwrap(), heard);
    let text = page.eval_string("return document.body.innerText;").unwrap();
    assert!(!text.contains("Help: "), "{text}");
    // The help itself still opens and closes, and the same help is not laid out again.
    page.type_text("?").unwrap();
    let help = page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    assert!(help.contains("Help: "), "{help}");
    page.press(&[Key::Escape]).unwrap();
    let back = page.wait_change(&help, Duration::from_secs(5)).unwrap();
    assert_eq!(back, menu);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(count(&draw_stats(&page), "warmedHelps"), 1);
}

/// `window.parlorDraw` as JSON.
pub fn draw_stats(page: &Session) -> serde_json::Value {
    page.eval("return window.parlorDraw;").unwrap()
}

/// A count of `window.parlorDraw`.
pub fn count(stats: &serde_json::Value, name: &str) -> u64 {
    stats[name]
        .as_f64()
        .unwrap_or_else(|| panic!("parlorDraw.{name} in {stats}")) as u64
}

#[test]
fn the_dom_backend_redraws_a_whole_screen_a_row_at_a_time() {
    // `prepare=0`: the setup is written during its key, not shown from a sheet prepared in idle time.
    let Some(page) = page("rows", "backend=dom&prepare=0") else {
        return;
    };
    let menu = page.screen().unwrap();
    let before = draw_stats(&page);
    assert_eq!(before["backend"], "dom", "{before}");
    // The 2048 setup form changes most of the screen (the help would show its prepared layer instead).
    page.press(&[Key::Enter]).unwrap();
    let setup = page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    assert!(setup.contains("new game of 2048"), "{setup}");
    std::thread::sleep(Duration::from_millis(100));
    let after = draw_stats(&page);
    let rows = setup.lines().count() as u64;
    let changed = count(&after, "lastCells");
    let written = count(&after, "lastRows");
    assert!(changed > rows, "the setup changed {changed} cells: {after}");
    // Each row whose text changed is written, once; a row that did not change is not.
    let differ = menu
        .lines()
        .zip(setup.lines())
        .filter(|(a, b)| a != b)
        .count() as u64;
    assert!(
        written <= rows && written >= differ && written * 4 >= rows,
        "a screen change writes each changed row once ({written} of {rows}, {differ} with new text): {after}"
    );
    assert_eq!(
        count(&after, "rowWrites") - count(&before, "rowWrites"),
        written,
        "one frame: {before} then {after}"
    );
    if written * 2 >= rows {
        assert!(count(&after, "wholeScreens") > count(&before, "wholeScreens"));
    }
    // The grid holds a row element per screen row and a span per run of one look, not one per cell.
    let (pres, spans) = (
        page.eval_f64("return document.querySelectorAll('#term_rows > pre').length;")
            .unwrap() as u64,
        page.eval_f64("return document.querySelectorAll('#term_rows > pre span').length;")
            .unwrap() as u64,
    );
    let cells = rows
        * setup
            .lines()
            .map(|l| l.chars().count() as u64)
            .max()
            .unwrap_or(0);
    assert_eq!(pres, rows, "one <pre> per row");
    assert!(
        spans * 4 < cells,
        "{spans} spans for {cells} cells: runs, not cells"
    );
    // What a reader selects is the screen's text.
    let text = page
        .eval_string("return document.getElementById('term').innerText;")
        .unwrap();
    let first = setup.lines().find(|l| !l.trim().is_empty()).unwrap().trim();
    assert!(text.contains(first), "{first:?} in the document's text");
}

/// Waits (at most 10 s) until the page's layer holds the help of the screen shown (`parlorDraw.helpReady`), and
/// gives how many helps it has prepared (`warmedHelps`).
fn wait_prepared(page: &Session) -> u64 {
    for _ in 0..100 {
        let stats = draw_stats(page);
        if stats["helpReady"] == true {
            return count(&stats, "warmedHelps");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!(
        "the help of the screen shown not prepared: {}",
        draw_stats(page)
    );
}

/// The layer's computed visibility and its `aria-hidden`, the `aria-hidden` of the surface under it (the kept
/// sheet in front, or the grid's rows), and whether a reader can reach the layer (no ancestor hides it).
fn layer_state(page: &Session) -> serde_json::Value {
    page.eval(
        "const l = document.getElementById('term_layer'); if (!l) return null; \
         const front = Array.from(document.querySelectorAll('#term_rows > .term_sheet')) \
           .find((s) => getComputedStyle(s).visibility === 'visible'); \
         const under = front || document.querySelector('#term_rows > pre'); \
         return [getComputedStyle(l).visibility, l.getAttribute('aria-hidden'), under.getAttribute('aria-hidden'), \
           !l.parentElement.closest('[aria-hidden=\"true\"]')];",
    )
    .unwrap()
}

#[test]
fn the_help_shows_as_a_layer_prepared_over_the_grid_and_closes_without_a_row_written() {
    let Some(page) = page("layer", "backend=dom&seed=5") else {
        return;
    };
    twenty48::start(&page);
    let game = page.screen().unwrap();
    let prepared = wait_prepared(&page);
    assert!(prepared >= 1, "{}", draw_stats(&page));
    assert_eq!(
        layer_state(&page),
        serde_json::json!(["hidden", "true", null, true]),
        "prepared, hidden, the screen under it read"
    );
    let before = draw_stats(&page);
    page.type_text("?").unwrap();
    let help = page.wait_change(&game, Duration::from_secs(5)).unwrap();
    assert!(help.contains("Help: "), "{help}");
    std::thread::sleep(Duration::from_millis(100));
    let shown = draw_stats(&page);
    // The help's key showed the layer: no row of the grid written.
    assert_eq!(
        count(&shown, "layersShown"),
        count(&before, "layersShown") + 1,
        "{before} then {shown}"
    );
    assert_eq!(count(&shown, "rowWrites"), count(&before, "rowWrites"));
    assert_eq!(
        layer_state(&page),
        serde_json::json!(["visible", null, "true", true]),
        "shown and read, the screen under it hidden from readers"
    );
    page.screenshot("_help_layer").unwrap();
    // The layer's text is the help's, row for row, and a reader can select it.
    let rows: Vec<String> = serde_json::from_value(
        page.eval(
            "return Array.from(document.querySelectorAll('#term_layer > pre')).map(p => p.textContent);",
        )
        .unwrap(),
    )
    .unwrap();
    let screen_rows: Vec<&str> = help.lines().collect();
    assert_eq!(rows.len(), screen_rows.len());
    for (drawn, want) in rows.iter().zip(&screen_rows) {
        assert_eq!(drawn.trim_end(), want.trim_end());
    }
    let help_row = screen_rows
        .iter()
        .position(|l| l.contains("Help: "))
        .unwrap();
    let selected = page
        .eval_with(
            "const row = document.querySelectorAll('#term_layer > pre')[arguments[0]]; \
             const range = document.createRange(); range.selectNodeContents(row); \
             const s = window.getSelection(); s.removeAllRanges(); s.addRange(range); \
             const text = s.toString(); s.removeAllRanges(); \
             return [text, getComputedStyle(row).userSelect];",
            vec![help_row.into()],
        )
        .unwrap();
    assert!(
        selected[0].as_str().unwrap().contains("Help: "),
        "{selected}"
    );
    assert_ne!(selected[1], "none", "{selected}");
    // Closing the help hides the layer: the grid under it is the game still, no row written.
    page.press(&[Key::Escape]).unwrap();
    let back = page.wait_change(&help, Duration::from_secs(5)).unwrap();
    assert_eq!(back, game);
    std::thread::sleep(Duration::from_millis(100));
    let closed = draw_stats(&page);
    assert_eq!(count(&closed, "rowWrites"), count(&before, "rowWrites"));
    assert_eq!(
        layer_state(&page),
        serde_json::json!(["hidden", "true", null, true])
    );
    let grid = page
        .eval_string("return document.getElementById('term_rows').innerText;")
        .unwrap();
    let text = page.eval_string("return document.body.innerText;").unwrap();
    assert!(!text.contains("Help: "), "{text}");
    for line in game.lines().filter(|l| !l.trim().is_empty()).take(5) {
        assert!(grid.contains(line.trim()), "{line:?} in the grid: {grid}");
    }
    // A move redraws the grid as before, and the help of the new position is prepared again.
    assert_eq!(
        count(&closed, "warmedHelps"),
        prepared,
        "the same help not prepared twice"
    );
    for key in [Key::Left, Key::Up, Key::Right, Key::Down] {
        page.press(&[key]).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    assert_ne!(page.screen().unwrap(), game, "the tiles moved");
    assert!(wait_prepared(&page) > prepared, "{}", draw_stats(&page));
    assert!(count(&draw_stats(&page), "rowWrites") > count(&closed, "rowWrites"));
}

#[test]
fn the_warm_up_runs_only_in_idle_time_it_fits_and_keys_pressed_meanwhile_are_taken() {
    let Some(page) = page("idle", "backend=dom&timing=1&seed=8") else {
        return;
    };
    let game = twenty48::start(&page);
    // Keys in quick succession while the new game's help is being prepared, then time to finish it.
    page.press(&[Key::Left, Key::Up, Key::Right, Key::Down])
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert_ne!(page.screen().unwrap(), game, "the keys were taken");
    let log = page.eval("return window.parlorLog;").unwrap();
    let log = log.as_array().unwrap();
    let kind = |e: &serde_json::Value, k: &str| e["kind"] == k;
    let warm: Vec<&serde_json::Value> = log.iter().filter(|e| kind(e, "warm")).collect();
    let ran: Vec<&&serde_json::Value> = warm
        .iter()
        .filter(|e| !e["what"].as_str().unwrap().starts_with("put off"))
        .collect();
    assert!(!ran.is_empty(), "{log:?}");
    // Every slice that ran had the idle time it needed; the last screen's help was prepared.
    for e in &ran {
        let (left, needed) = (e["left"].as_f64().unwrap(), e["needed"].as_f64().unwrap());
        assert!(
            left >= needed,
            "a slice ran in too short an idle period: {e}"
        );
    }
    let last_key = log
        .iter()
        .filter(|e| kind(e, "key"))
        .map(|e| e["end"].as_f64().unwrap())
        .fold(0.0, f64::max);
    assert!(
        ran.iter().any(|e| e["start"].as_f64().unwrap() > last_key
            && (e["what"] == "rows, the last" || e["what"] == "render, the layer holds it")),
        "the help of the screen shown was prepared after the last key: {ran:?}"
    );
}

/// The surface shown (the kept sheet in front, else the grid's own rows): each row's text, whether it and its
/// rows are hidden from readers, and how many other sheets there are, each hidden from the eye and from readers.
fn front_surface(page: &Session) -> serde_json::Value {
    page.eval(
        "const sheets = Array.from(document.querySelectorAll('#term_rows > .term_sheet')); \
         const front = sheets.find((s) => getComputedStyle(s).visibility === 'visible'); \
         const rows = front ? Array.from(front.children) \
           : Array.from(document.querySelectorAll('#term_rows > pre')); \
         const others = sheets.filter((s) => s !== front); \
         return { rows: rows.map((r) => r.textContent), \
           unread: rows.some((r) => r.closest('[aria-hidden=\"true\"]')), \
           gridRowsUnread: !!front && Array.from(document.querySelectorAll('#term_rows > pre')) \
             .every((r) => r.getAttribute('aria-hidden') === 'true'), \
           others: others.length, onSheet: !!front, \
           othersHidden: others.every((s) => getComputedStyle(s).visibility === 'hidden' \
             && s.getAttribute('aria-hidden') === 'true') };",
    )
    .unwrap()
}

/// The screen once two reads 300 ms apart agree (at most 20 tries, 6 s): an animation still running under load has
/// ended.
fn still_screen(page: &Session) -> String {
    let mut last = page.screen().unwrap();
    for _ in 0..20 {
        std::thread::sleep(Duration::from_millis(300));
        let now = page.screen().unwrap();
        if now == last {
            return now;
        }
        last = now;
    }
    panic!("the screen never held still for 300 ms in 6 s: {last}");
}

/// Asserts that the surface shown holds `screen`, row for row, that a reader reaches it and nothing else, and
/// that a selection over its rows reads the screen's text.
pub fn shows_exactly(page: &Session, screen: &str) {
    let front = front_surface(page);
    let rows: Vec<String> = serde_json::from_value(front["rows"].clone()).unwrap();
    let want: Vec<&str> = screen.lines().collect();
    assert_eq!(rows.len(), want.len(), "{front}");
    for (drawn, want) in rows.iter().zip(&want) {
        assert_eq!(drawn, want, "the row drawn is the screen's");
    }
    assert_eq!(front["unread"], false, "{front}");
    assert_eq!(front["othersHidden"], true, "{front}");
    // Under a kept sheet in front, the grid's own rows are hidden from readers.
    assert_eq!(front["gridRowsUnread"], front["onSheet"], "{front}");
    let selected = page
        .eval_string(
            "const sheets = Array.from(document.querySelectorAll('#term_rows > .term_sheet')); \
             const front = sheets.find((s) => getComputedStyle(s).visibility === 'visible'); \
             const rows = front ? Array.from(front.children) : Array.from(document.querySelectorAll('#term_rows > pre')); \
             const range = document.createRange(); range.setStartBefore(rows[0]); range.setEndAfter(rows[rows.length - 1]); \
             const s = window.getSelection(); s.removeAllRanges(); s.addRange(range); \
             const text = s.toString(); s.removeAllRanges(); return text;",
        )
        .unwrap();
    for line in want.iter().filter(|l| !l.trim().is_empty()) {
        assert!(
            selected.contains(line.trim()),
            "{line:?} selected in: {selected}"
        );
    }
}

#[test]
fn a_screen_shown_again_is_its_kept_sheet_shown_with_no_row_written() {
    let Some(page) = page("sheets", "backend=dom") else {
        return;
    };
    let menu = page.screen().unwrap();
    shows_exactly(&page, &menu);
    // While the menu shows unchanged, a copy of it is made in a hidden sheet.
    let mut copies = 0;
    for _ in 0..50 {
        copies = count(&draw_stats(&page), "copies");
        if copies > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    assert_eq!(copies, 1, "{}", draw_stats(&page));
    // The 2048 setup is another screen: the menu is kept (in a copy made while it showed, or in the grid's rows
    // with the setup written on a sheet of its own).
    page.press(&[Key::Enter]).unwrap();
    let setup = page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    assert!(setup.contains("new game of 2048"), "{setup}");
    std::thread::sleep(Duration::from_millis(100));
    let first = draw_stats(&page);
    shows_exactly(&page, &setup);
    // Back to the menu: its rows are shown again as they were, not one written.
    page.press(&[Key::Escape]).unwrap();
    let back = page.wait_change(&setup, Duration::from_secs(5)).unwrap();
    assert_eq!(back, menu);
    std::thread::sleep(Duration::from_millis(100));
    let again = draw_stats(&page);
    assert_eq!(
        count(&again, "sheetsShown"),
        count(&first, "sheetsShown") + 1,
        "{first} then {again}"
    );
    assert_eq!(count(&again, "rowWrites"), count(&first, "rowWrites"));
    assert_eq!(count(&again, "lastRows"), 0, "{again}");
    shows_exactly(&page, &menu);
    // And the setup again: its sheet, no row written either.
    page.press(&[Key::Enter]).unwrap();
    let setup2 = page.wait_change(&menu, Duration::from_secs(5)).unwrap();
    assert_eq!(setup2, setup);
    std::thread::sleep(Duration::from_millis(100));
    let third = draw_stats(&page);
    assert_eq!(count(&third, "rowWrites"), count(&first, "rowWrites"));
    shows_exactly(&page, &setup);
    // A game is written on its own sheet, and a move on it writes only the rows that changed.
    page.press(&[Key::Enter]).unwrap();
    page.wait_change(&setup, Duration::from_secs(5)).unwrap();
    // The new tiles' animation ends.
    std::thread::sleep(Duration::from_millis(400));
    let game = still_screen(&page);
    shows_exactly(&page, &game);
    let before_move = draw_stats(&page);
    for key in [Key::Left, Key::Up, Key::Right, Key::Down] {
        page.press(&[key]).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    // Under load the last slide's animation can outlast the pause: the screen is read once it holds still.
    let moved = still_screen(&page);
    assert_ne!(moved, game, "the tiles moved");
    let after_move = draw_stats(&page);
    assert_eq!(
        count(&after_move, "sheetsShown"),
        count(&before_move, "sheetsShown"),
        "moves stay on the game's sheet: {after_move}"
    );
    shows_exactly(&page, &moved);
    // The live region is still read: no hidden ancestor.
    let live = page
        .eval(
            "const a = document.getElementById('announce'); \
             return [a.getAttribute('aria-live'), !a.closest('[aria-hidden=\"true\"]')];",
        )
        .unwrap();
    assert_eq!(live, serde_json::json!(["polite", true]));
}

#[test]
fn runs_of_glyphs_measured_one_cell_wide_are_plain_spans_and_the_columns_line_up() {
    let Some(page) = page("columns", "backend=dom&seed=4") else {
        return;
    };
    twenty48::start(&page);
    std::thread::sleep(Duration::from_millis(400));
    let stats = draw_stats(&page);
    // The board's box drawing and the hints' arrows were measured in the page's font, one cell wide each.
    assert!(count(&stats, "symbolsMeasured") >= 4, "{stats}");
    let fixed = page
        .eval_f64(
            "return Array.from(document.querySelectorAll('#term span')) \
               .filter((s) => getComputedStyle(s).display === 'inline-block').length;",
        )
        .unwrap();
    assert_eq!(fixed, 0.0, "no run fixed at its width: {stats}");
    // Every glyph drawn sits in its cell: its left edge at its column times the cell's width, on every row.
    let cell = |c: u16, r: u16| {
        let p = page.cell_at(c, r).unwrap();
        (p.x, p.y)
    };
    let (x0, _) = cell(0, 0);
    let (x1, _) = cell(1, 0);
    let width = x1 - x0;
    let off = page
        .eval_with(
            "const [left, width] = arguments; \
             const sheets = Array.from(document.querySelectorAll('#term_rows > .term_sheet')); \
             const front = sheets.find((s) => getComputedStyle(s).visibility === 'visible'); \
             const rows = front ? Array.from(front.children) : Array.from(document.querySelectorAll('#term_rows > pre')); \
             let worst = 0, glyphs = 0; \
             for (const row of rows) { \
               const walker = document.createTreeWalker(row, NodeFilter.SHOW_TEXT); let col = 0; \
               for (let t = walker.nextNode(); t; t = walker.nextNode()) { \
                 for (let i = 0; i < t.data.length; i++, col++) { \
                   if (t.data[i] === ' ') continue; \
                   const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1); \
                   const x = r.getBoundingClientRect().left; \
                   worst = Math.max(worst, Math.abs(x - (left + col * width))); glyphs += 1; } } } \
             return [worst, glyphs];",
            vec![(x0 - width / 2.0).into(), width.into()],
        )
        .unwrap();
    let (worst, glyphs) = (off[0].as_f64().unwrap(), off[1].as_f64().unwrap());
    assert!(glyphs > 100.0, "{off}");
    assert!(
        worst < 1.0,
        "a glyph {worst:.2} px from its cell's left edge (cells {width:.2} px wide)"
    );
}

#[test]
fn quit_says_what_it_does_on_a_page_and_import_says_it_adds() {
    let Some(page) = page("quit", "") else {
        return;
    };
    let menu = page.screen().unwrap();
    let (col, row) = crate::common::find(&menu, "Quit").unwrap();
    page.click_cell(col + 1, row).unwrap();
    let said = "Quit: a web page stays open, so here is the menu again; close the tab to leave";
    if page
        .wait_screen("the quit notice", Duration::from_secs(2), |s| {
            s.contains(said)
        })
        .is_err()
    {
        // The click only selected the row: Enter chooses it.
        page.press(&[Key::Enter]).unwrap();
        page.wait_text(said).unwrap();
    }
    let tip = page
        .eval_string("return document.getElementById('import').title;")
        .unwrap();
    assert!(
        tip.starts_with("Add the games of an exported file") && !tip.contains("Replace"),
        "{tip}"
    );
}
