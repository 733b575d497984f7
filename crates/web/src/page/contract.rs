//! The functions the page offers on `window` for its tests and its own script (wasm32 only; the page contract,
//! docs/BROWSER.md): the screen's text, timings, where a cell is, export and import, the engines' workloads, a key.

use super::host::performance_now;
use super::screen::grid_origin;
use super::{build_app, with_page};
use crate::keys::{Held, key_event};
use wasm_bindgen::prelude::*;

/// The whole screen's text, its rows joined by `\n`.
#[wasm_bindgen(js_name = parlorScreen)]
pub fn parlor_screen() -> String {
    with_page(|p| p.text.clone()).unwrap_or_default()
}

/// `performance.now()` when the first screen had been drawn.
#[wasm_bindgen(js_name = parlorFirstDrawMs)]
pub fn parlor_first_draw_ms() -> f64 {
    with_page(|p| p.first_draw_ms).unwrap_or(f64::NAN)
}

/// Milliseconds from the last key's `keydown` to the end of the redraw it caused.
#[wasm_bindgen(js_name = parlorFrameMs)]
pub fn parlor_frame_ms() -> f64 {
    with_page(|p| p.frame_ms).unwrap_or(f64::NAN)
}

/// The centre of a cell in page coordinates (CSS pixels): `{x, y}`.
#[wasm_bindgen(js_name = parlorCellAt)]
pub fn parlor_cell_at(col: u16, row: u16) -> JsValue {
    let (cw, ch) = with_page(|p| p.screen.cell_css()).unwrap_or((0.0, 0.0));
    let (ox, oy) = grid_origin();
    let (sx, sy) = web_sys::window()
        .map(|w| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)))
        .unwrap_or((0.0, 0.0));
    let out = js_sys::Object::new();
    let x = ox + sx + (f64::from(col) + 0.5) * cw;
    let y = oy + sy + (f64::from(row) + 0.5) * ch;
    let _ = js_sys::Reflect::set(&out, &"x".into(), &x.into());
    let _ = js_sys::Reflect::set(&out, &"y".into(), &y.into());
    out.into()
}

/// The whole store and the settings as one JSON text.
#[wasm_bindgen(js_name = parlorExport)]
pub fn parlor_export() -> String {
    with_page(|p| p.store.export()).unwrap_or_default()
}

/// Imports a store text: what was imported, or why it was refused (then nothing changes). The menu shows the
/// imported store.
#[wasm_bindgen(js_name = parlorImport)]
pub fn parlor_import(text: &str) -> String {
    with_page(|p| match p.store.import(text) {
        Ok(said) => {
            p.app = build_app(
                p.store.clone(),
                p.persist.clone(),
                Some(format!("Import: {said}.")),
            );
            p.redraw();
            said
        }
        Err(why) => why,
    })
    .unwrap_or_else(|| "refused: the page has not started".into())
}

/// Milliseconds for one run of a fixed engine workload (`twenty48-slides`, `nocca-perft6`,
/// `mastermind-optimal`); NaN for an unknown name.
#[wasm_bindgen(js_name = parlorBench)]
pub fn parlor_bench(name: &str) -> f64 {
    let t = performance_now();
    match crate::games::bench::run(name) {
        Some(result) => {
            let ms = performance_now() - t;
            web_sys::console::log_1(
                &format!("parlorBench {name}: {ms:.1} ms (result {result})").into(),
            );
            ms
        }
        None => f64::NAN,
    }
}

/// Presses a key by its browser name, as a `keydown` would (for the crate's browser tests).
#[wasm_bindgen(js_name = parlorPress)]
pub fn parlor_press(key: &str) -> bool {
    match key_event(key, Held::default()) {
        Some(k) => with_page(|p| p.key(k, performance_now())).is_some(),
        None => false,
    }
}
