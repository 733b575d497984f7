//! Measuring the page's font: which symbols draw exactly one cell wide, probed once each, ahead of time in idle periods.

use super::*;

/// How many times a symbol is repeated in the probe that measures it (its width against as many cells).
pub(super) const PROBE_REPEAT: usize = 16;

/// The most a probe's run of [`PROBE_REPEAT`] symbols may differ from as many cells (CSS pixels) for the symbol to
/// be taken as one cell wide: a glyph from another font differs by far more.
pub(super) const PROBE_TOLERANCE: f64 = 0.25;

thread_local! {
    /// The symbols of one cell (not ASCII) measured in the page's font: whether it draws each exactly one cell
    /// wide, plain and bold (`measure_symbols`). A row's runs of such symbols need no width of their own.
    pub(super) static ONE_CELL: RefCell<HashMap<String, bool>> = RefCell::new(HashMap::new());
}

/// Whether the page's font was measured drawing `symbol` one cell wide (ASCII is, unmeasured).
pub(super) fn one_cell(symbol: &str) -> bool {
    ascii_cell(symbol) || ONE_CELL.with(|m| m.borrow().get(symbol).copied().unwrap_or(false))
}

/// Measures, in one probe laid out once, the symbols of one cell in `cells` that are neither ASCII nor measured
/// yet: each repeated [`PROBE_REPEAT`] times, plain and bold, in a hidden `<pre>` inside `parent` (the grid's
/// font), against as many `0`s (the `ch` unit's glyph). Each symbol is measured once in the page's life; until it
/// is, or where it is not one cell wide, the runs holding it are fixed at their width ([`row_html`]). Returns how
/// many symbols it measured.
pub(super) fn measure_symbols<'a>(
    document: &Document,
    parent: &Element,
    cells: impl Iterator<Item = &'a Cell>,
) -> usize {
    measure_list(document, parent, cells.map(Cell::symbol))
}

/// As `measure_symbols`, for symbols given as text.
pub(super) fn measure_list<'a>(
    document: &Document,
    parent: &Element,
    symbols: impl Iterator<Item = &'a str>,
) -> usize {
    let mut new: Vec<String> = Vec::new();
    ONE_CELL.with(|m| {
        let m = m.borrow();
        for symbol in symbols {
            if !ascii_cell(symbol)
                && unicode_width::UnicodeWidthStr::width(symbol) == 1
                && !m.contains_key(symbol)
                && !new.iter().any(|n| n == symbol)
            {
                new.push(symbol.to_string());
            }
        }
    });
    if new.is_empty() {
        return 0;
    }
    let Ok(pre) = document.create_element("pre") else {
        return 0;
    };
    let _ = pre.set_attribute(
        "style",
        "margin:0;padding:0;border:0;position:absolute;left:0;top:0;visibility:hidden;white-space:pre;",
    );
    let mut html = String::with_capacity(new.len() * PROBE_REPEAT * 8 + 64);
    html.push_str("<span>");
    html.push_str(&"0".repeat(PROBE_REPEAT));
    html.push_str("</span>");
    for symbol in &new {
        for bold in [false, true] {
            html.push_str(if bold {
                "<span style=\"font-weight:bold\">"
            } else {
                "<span>"
            });
            push_escaped(&mut html, &symbol.repeat(PROBE_REPEAT));
            html.push_str("</span>");
        }
    }
    pre.set_inner_html(&html);
    if parent.append_child(&pre).is_err() {
        return 0;
    }
    let widths: Vec<f64> =
        std::iter::successors(pre.first_element_child(), |e| e.next_element_sibling())
            .map(|e| e.get_bounding_client_rect().width())
            .collect();
    pre.remove();
    // The probe's removal laid out at once, not by the next key's redraw (when measured in idle time).
    let _ = parent
        .dyn_ref::<web_sys::HtmlElement>()
        .map(|e| e.offset_height());
    let Some(&cells_wide) = widths.first().filter(|w| **w > 0.0) else {
        return 0;
    };
    ONE_CELL.with(|m| {
        let mut m = m.borrow_mut();
        for (i, symbol) in new.iter().enumerate() {
            let fits = |k: usize| {
                widths
                    .get(k)
                    .is_some_and(|w| (w - cells_wide).abs() <= PROBE_TOLERANCE)
            };
            m.insert(symbol.clone(), fits(1 + 2 * i) && fits(2 + 2 * i));
        }
    });
    Stats::publish(|s| s.symbols_measured += new.len());
    new.len()
}

/// The symbols a terminal's screens commonly draw besides ASCII (arrows, box drawing, blocks, geometric shapes and a
/// few more), measured in idle time after the page starts ([`measure_in_idle`]) so that a screen drawing them for
/// the first time does not measure them during its key.
pub(super) fn common_symbols() -> Vec<String> {
    let ranges = [(0x2190, 0x21ff), (0x2500, 0x259f), (0x25a0, 0x25ff)];
    let mut symbols: Vec<String> = ranges
        .iter()
        .flat_map(|&(a, b)| (a..=b).filter_map(char::from_u32))
        .map(String::from)
        .collect();
    symbols.extend(["·", "•", "…", "×", "÷", "°", "±", "✓", "✗", "★", "☆"].map(String::from));
    symbols
}

thread_local! {
    /// Kept sheets made ahead in idle time (`spare_sheet`), hidden and empty, each with its rows.
    pub(super) static SPARE: RefCell<Vec<(Element, Vec<Element>)>> = const { RefCell::new(Vec::new()) };
}

/// Makes one kept sheet ahead (hidden, its rows empty, in the grid), so that the first screens shown whole do not
/// make theirs during their key; at most `KEPT_SHEETS` in all. Returns whether it made one.
pub(super) fn spare_sheet(document: &Document) -> bool {
    let Some(grid) = document.get_element_by_id(&format!("{}_rows", crate::page::TERM_ID)) else {
        return false;
    };
    let children: Vec<Element> =
        std::iter::successors(grid.first_element_child(), |r| r.next_element_sibling()).collect();
    let made = children
        .iter()
        .filter(|c| c.class_name() == SHEET_CLASS)
        .count();
    if made >= KEPT_SHEETS {
        return false;
    }
    let rows: Vec<&Element> = children.iter().filter(|r| r.tag_name() == "PRE").collect();
    let Some(row_style) = rows.first().and_then(|r| r.get_attribute("style")) else {
        return false;
    };
    let Ok(element) = document.create_element("div") else {
        return false;
    };
    element.set_class_name(SHEET_CLASS);
    let _ = element.set_attribute("style", &format!("{SHEET_STYLE}{SHEET_HIDDEN}"));
    let _ = element.set_attribute("aria-hidden", "true");
    let mut html = String::new();
    for _ in 0..rows.len() {
        html.push_str("<pre style=\"");
        html.push_str(&row_style);
        html.push_str("\"></pre>");
    }
    element.set_inner_html(&html);
    let sheet_rows: Vec<Element> =
        std::iter::successors(element.first_element_child(), |r| r.next_element_sibling())
            .collect();
    if grid.append_child(&element).is_err() {
        return false;
    }
    let _ = grid.set_attribute("style", "position:relative;");
    // Laid out now, in idle time, not by the next key's redraw.
    let _ = element
        .dyn_ref::<web_sys::HtmlElement>()
        .map(|e| e.offset_height());
    SPARE.with(|s| s.borrow_mut().push((element, sheet_rows)));
    true
}

/// How many symbols one idle slice measures, and the idle time it asks for (ms).
pub(super) const IDLE_SYMBOLS: usize = 32;
pub(super) const IDLE_SYMBOLS_MS: f64 = 12.0;

/// Makes the kept sheets ahead (`spare_sheet`, one a slice), then measures `common_symbols`, `IDLE_SYMBOLS`
/// at a time, in the page's idle periods, each slice only when the idle time left is at least `IDLE_SYMBOLS_MS`
/// (a slice measured about 1 to 5 ms); a slice put off asks again, at most 20 times in a row.
pub fn measure_in_idle() {
    fn ask(from: usize, tries: u32) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let cb = Closure::once_into_js(move |deadline: JsValue| {
            let left = js_sys::Reflect::get(&deadline, &JsValue::from_str("timeRemaining"))
                .ok()
                .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
                .and_then(|f| f.call0(&deadline).ok())
                .and_then(|v| v.as_f64())
                .unwrap_or(IDLE_SYMBOLS_MS);
            if left < IDLE_SYMBOLS_MS {
                if tries < 20 {
                    ask(from, tries + 1);
                }
                return;
            }
            let symbols = common_symbols();
            let document = web_sys::window().and_then(|w| w.document());
            let parent = document
                .as_ref()
                .and_then(|d| d.get_element_by_id(crate::page::TERM_ID));
            let (Some(document), Some(parent)) = (document, parent) else {
                return;
            };
            let start = now();
            if spare_sheet(&document) {
                log(
                    "symbols",
                    "a sheet made ahead",
                    &[("start", start), ("end", now()), ("left", left)],
                );
                ask(from, 0);
                return;
            }
            let to = (from + IDLE_SYMBOLS).min(symbols.len());
            measure_list(
                &document,
                &parent,
                symbols[from..to].iter().map(String::as_str),
            );
            log(
                "symbols",
                "measured",
                &[("start", start), ("end", now()), ("left", left)],
            );
            if to < symbols.len() {
                ask(to, 0);
            }
        });
        let f: &js_sys::Function = cb.unchecked_ref();
        if window.request_idle_callback(f).is_err() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, 200);
        }
    }
    ask(0, 0);
}
