//! What the page's drawing did, published on `window.parlorDraw`, and the `?timing=1` log on `window.parlorLog`.

use super::*;

/// What the page's drawing did, published on `window.parlorDraw` after each change: `backend` (`"dom"` for this
/// one), `flushes` (frames that wrote rows), `rowWrites` (rows written, one assignment each), `wholeScreens`
/// (frames that wrote at least half the rows), `lastRows`, `lastRuns` and `lastCells` (the last frame's rows
/// written, their runs and the cells that changed), `lastFixedRuns` (of those runs, the ones fixed at their width:
/// [`row_html`]), `symbolsMeasured` (symbols measured in the page's font, `measure_symbols`), and the last
/// redraw's times in ms: `renderMs` (the screens
/// drawing into ratatui's buffer), `flushMs` (the backend writing the document; of the last flush that wrote rows,
/// with `?timing=1` only: `htmlMs` building their HTML and `writeMs` the assignments) and,
/// with `?timing=1` only, `layoutMs` (the browser's style and layout of it, forced at once); `warmedHelps` (helps prepared ahead of time in
/// the layer over the grid, [`layer_rows`]); `layersShown` (frames shown by showing that layer, no row written); `helpReady` (whether the layer holds the
/// help of the screen shown, prepared since the last key or mouse event); `key` holds the last key's parts (see
/// [`note_key`]), which the app's later ticks do not overwrite.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    /// The backend's name.
    pub backend: &'static str,
    /// Frames that wrote at least one row.
    pub flushes: usize,
    /// Rows written in all.
    pub row_writes: usize,
    /// Frames that wrote at least half the rows.
    pub whole_screens: usize,
    /// Rows written by the last frame.
    pub last_rows: usize,
    /// Runs (spans) in the rows the last frame wrote.
    pub last_runs: usize,
    /// Of those runs, the ones fixed at their width (holding a symbol not measured one cell wide).
    pub last_fixed_runs: usize,
    /// Symbols of one cell (not ASCII) measured in the page's font so far (`measure_symbols`).
    pub symbols_measured: usize,
    /// Whole screens kept in sheets over the grid's rows.
    pub sheets: usize,
    /// Copies of the screen shown made in a sheet while it showed unchanged.
    pub copies: usize,
    /// Frames shown on another sheet than the last (a screen kept in its sheet shown again, or a new screen
    /// written on a sheet of its own so that the last one is kept).
    pub sheets_shown: usize,
    /// Cells changed in the last frame.
    pub last_cells: usize,
    /// The screens drawing into the buffer, ms.
    pub render_ms: f64,
    /// The backend writing the document, ms.
    pub flush_ms: f64,
    /// The browser's style and layout, ms (only measured with `?timing=1`).
    pub layout_ms: f64,
    /// Of the last flush that wrote rows: building the rows' HTML (in Rust), ms.
    pub html_ms: f64,
    /// Of the last flush that wrote rows: the rows' `innerHTML` assignments (the browser parsing them), ms.
    pub write_ms: f64,
    /// Of the last flush that wrote rows: choosing the sheet to write on and measuring new symbols, ms.
    pub pick_ms: f64,
    /// Helps prepared ahead of time in the layer over the grid ([`layer_rows`]).
    pub warmed_helps: usize,
    /// Frames shown by showing the prepared layer instead of writing rows.
    pub layers_shown: usize,
    /// Screens written whole, in idle time, into a hidden sheet before the key that opens them
    /// ([`RowDom::prepare_rows`]; each counted when its last rows are).
    pub prepared_screens: usize,
    /// Frames shown on a sheet prepared so (their key wrote only the rows that differ from it, if any).
    pub prepared_shown: usize,
    /// Whether the layer holds the help of the screen shown (prepared since the last key or mouse event).
    pub help_ready: bool,
    /// The last key's parts, ms: from its `keydown` to its handler (the event waiting for the page's thread),
    /// the app taking it, and its redraw's render, flush and layout.
    pub key: [f64; 5],
}

thread_local! {
    pub(super) static STATS: std::cell::RefCell<Stats> = std::cell::RefCell::new(Stats::default());
}

impl Stats {
    /// The stats as they are.
    pub fn current() -> Stats {
        STATS.with(|s| s.borrow().clone())
    }

    /// Changes the stats with `f`, then publishes them on `window.parlorDraw`.
    pub fn publish(f: impl FnOnce(&mut Stats)) {
        let stats = STATS.with(|s| {
            let mut s = s.borrow_mut();
            f(&mut s);
            s.clone()
        });
        let Some(window) = web_sys::window() else {
            return;
        };
        let out = js_sys::Object::new();
        let set = |k: &str, v: JsValue| {
            let _ = js_sys::Reflect::set(&out, &JsValue::from_str(k), &v);
        };
        set("backend", JsValue::from_str(stats.backend));
        set("flushes", JsValue::from_f64(stats.flushes as f64));
        set("rowWrites", JsValue::from_f64(stats.row_writes as f64));
        set(
            "wholeScreens",
            JsValue::from_f64(stats.whole_screens as f64),
        );
        set("lastRows", JsValue::from_f64(stats.last_rows as f64));
        set("lastRuns", JsValue::from_f64(stats.last_runs as f64));
        set(
            "lastFixedRuns",
            JsValue::from_f64(stats.last_fixed_runs as f64),
        );
        set("sheets", JsValue::from_f64(stats.sheets as f64));
        set("sheetsShown", JsValue::from_f64(stats.sheets_shown as f64));
        set("copies", JsValue::from_f64(stats.copies as f64));
        set(
            "symbolsMeasured",
            JsValue::from_f64(stats.symbols_measured as f64),
        );
        set("lastCells", JsValue::from_f64(stats.last_cells as f64));
        set("renderMs", JsValue::from_f64(stats.render_ms));
        set("flushMs", JsValue::from_f64(stats.flush_ms));
        set("layoutMs", JsValue::from_f64(stats.layout_ms));
        set("htmlMs", JsValue::from_f64(stats.html_ms));
        set("writeMs", JsValue::from_f64(stats.write_ms));
        set("warmedHelps", JsValue::from_f64(stats.warmed_helps as f64));
        set("layersShown", JsValue::from_f64(stats.layers_shown as f64));
        set(
            "preparedScreens",
            JsValue::from_f64(stats.prepared_screens as f64),
        );
        set(
            "preparedShown",
            JsValue::from_f64(stats.prepared_shown as f64),
        );
        set("helpReady", JsValue::from_bool(stats.help_ready));
        let key = js_sys::Array::new();
        for ms in stats.key {
            key.push(&JsValue::from_f64(ms));
        }
        set("key", key.into());
        let _ = js_sys::Reflect::set(&window, &JsValue::from_str("parlorDraw"), &out);
    }
}

/// At most how many entries `window.parlorLog` keeps (the oldest are dropped).
pub(super) const LOG_LIMIT: u32 = 4000;

/// With `?timing=1` only: one entry `{kind, what, ...fields}` pushed onto `window.parlorLog` (made when missing),
/// the page's record of what its thread did and when (times are `performance.now()`, ms), which `web-figures`
/// reads to say what a key waited for. The page writes `key` (`stamp`: the event's time stamp, `start`: its
/// handler, `handled`, `end`: drawn and laid out), `tick` (the app's periodic work: `start`, `end`) and `warm`
/// (a help warm-up slice: `start`, `end`, `left`: the idle time the browser gave, `what` it did); `index.html`
/// adds the browser's own long animation frames (`loaf`) and slow key events (`event`).
pub fn log(kind: &str, what: &str, fields: &[(&str, f64)]) {
    if !timing() {
        return;
    }
    let Some(window) = web_sys::window() else {
        return;
    };
    let name = JsValue::from_str("parlorLog");
    let array = match js_sys::Reflect::get(&window, &name)
        .ok()
        .and_then(|v| v.dyn_into::<js_sys::Array>().ok())
    {
        Some(a) => a,
        None => {
            let a = js_sys::Array::new();
            let _ = js_sys::Reflect::set(&window, &name, &a);
            a
        }
    };
    let entry = js_sys::Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = js_sys::Reflect::set(&entry, &JsValue::from_str(k), v);
    };
    set("kind", &JsValue::from_str(kind));
    set("what", &JsValue::from_str(what));
    for (k, v) in fields {
        set(k, &JsValue::from_f64(*v));
    }
    array.push(&entry);
    if array.length() > LOG_LIMIT {
        let kept = array.slice(LOG_LIMIT / 4, array.length());
        let _ = js_sys::Reflect::set(&window, &name, &kept);
    }
}

/// `performance.now()`, or 0 where there is none.
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Whether `?timing=1` asked for the browser's layout to be timed after each redraw (and for the page's log,
/// [`log`]).
pub fn timing() -> bool {
    pub(super) static ASKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ASKED.get_or_init(|| {
        web_sys::window()
            .and_then(|w| w.location().search().ok())
            .and_then(|q| web_sys::UrlSearchParams::new_with_str(&q).ok())
            .and_then(|p| p.get("timing"))
            .is_some_and(|v| v == "1")
    })
}

/// After a redraw that started at `start` (`performance.now()`) and spent `render_ms` in the screens' drawing:
/// the times published on `window.parlorDraw`; with `?timing=1`, the browser's style and layout are forced at
/// once (reading the grid's height) and timed too.
pub fn note_times(start: f64, render_ms: f64) {
    let drawn = now();
    let layout_ms = if timing() {
        let grid = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("term"))
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok());
        let _ = grid.map(|g| g.offset_height());
        now() - drawn
    } else {
        f64::NAN
    };
    Stats::publish(|s| {
        s.render_ms = render_ms;
        s.flush_ms = drawn - start - render_ms;
        s.layout_ms = layout_ms;
    });
}

/// After a key's redraw: its parts published as `window.parlorDraw.key`, `[wait, handle, render, flush, layout]`
/// in ms (`wait`: from the `keydown`'s time stamp to its handler; `handle`: the app taking the key).
pub fn note_key(wait_ms: f64, handle_ms: f64) {
    Stats::publish(|s| s.key = [wait_ms, handle_ms, s.render_ms, s.flush_ms, s.layout_ms]);
}

/// Whether the browser draws WebGL2 on a GPU: no when it gives no WebGL2 context that fails on a "major
/// performance caveat", or when the context's renderer is a software one (SwiftShader, llvmpipe: headless Chromium
/// without a GPU gives SwiftShader even with the caveat asked for).
pub fn gpu_webgl2() -> bool {
    let Some(context) = webgl2_context() else {
        return false;
    };
    let call = |target: &JsValue, name: &str, arg: JsValue| -> Option<JsValue> {
        js_sys::Reflect::get(target, &JsValue::from_str(name))
            .ok()?
            .dyn_into::<js_sys::Function>()
            .ok()?
            .call1(target, &arg)
            .ok()
    };
    // WEBGL_debug_renderer_info's UNMASKED_RENDERER_WEBGL, else the plain RENDERER.
    const UNMASKED_RENDERER: f64 = 37446.0;
    const RENDERER: f64 = 7937.0;
    let unmasked = call(
        &context,
        "getExtension",
        JsValue::from_str("WEBGL_debug_renderer_info"),
    )
    .filter(|e| e.is_object())
    .and_then(|_| {
        call(
            &context,
            "getParameter",
            JsValue::from_f64(UNMASKED_RENDERER),
        )
    });
    let renderer = unmasked
        .and_then(|r| r.as_string())
        .or_else(|| call(&context, "getParameter", JsValue::from_f64(RENDERER))?.as_string())
        .unwrap_or_default()
        .to_lowercase();
    !["swiftshader", "llvmpipe", "software", "softpipe"]
        .iter()
        .any(|soft| renderer.contains(soft))
}

/// A WebGL2 context on a new canvas that fails on a "major performance caveat", if the browser gives one.
pub(super) fn webgl2_context() -> Option<JsValue> {
    let document = web_sys::window()?.document()?;
    let canvas = document.create_element("canvas").ok()?;
    let get = js_sys::Reflect::get(&canvas, &JsValue::from_str("getContext"))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let options = js_sys::Object::new();
    let _ = js_sys::Reflect::set(
        &options,
        &JsValue::from_str("failIfMajorPerformanceCaveat"),
        &JsValue::TRUE,
    );
    get.call2(&canvas, &JsValue::from_str("webgl2"), &options)
        .ok()
        .filter(|c| c.is_object())
}
