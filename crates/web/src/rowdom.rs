//! The page's own DOM backend (wasm32 only): a ratatui [`Backend`] that keeps the frame it last wrote and, on
//! flush, rewrites only the rows that changed, each row as ONE `innerHTML` assignment of runs of the same look
//! ([`crate::rows::row_html`]). ratzilla's DOM backend sets a `<span>`'s text and style per changed cell, two
//! calls into the browser and a style to parse per cell: a whole new screen (a new game, the help overlay) is
//! thousands of them, 100 to 600 ms on a loaded machine.
//!
//! The document keeps ratzilla's shape, so the rest of the page reads it the same: `#term` holds one grid `<div>`
//! of one `<pre>` per row, the text plain and selectable, a cell `1ch` wide and as high as the font's line. The
//! grid fills `#term` (its size in cells follows the element, measured again after a window resize). What the
//! backend did is counted on `window.parlorDraw` (see [`Stats`]).
//!
//! Screens shown before are kept: besides its own rows, the grid holds up to `KEPT_SHEETS` sheets (`<div
//! class="term_sheet">`, one `<pre>` per row as the grid's) absolutely placed over the rows, one of them or the
//! rows themselves in front, the others hidden (`visibility: hidden`) and hidden from
//! readers. While a screen shows unchanged, a tick copies it into a hidden sheet
//! once; a frame of another screen (the app's [`note_screen`]) is written on the sheet that holds most of it
//! already: the menu again is a sheet shown, no row written; a new game, a few rows on the last game's sheet. The
//! help prepared in idle time is a layer of its own over all of them.

use crate::rows::{ascii_cell, push_escaped, row_html};
use ratzilla::CellSized;
use ratzilla::ratatui::backend::{Backend, ClearType, WindowSize};
use ratzilla::ratatui::buffer::{Buffer, Cell};
use ratzilla::ratatui::layout::{Position, Size};
use std::cell::Cell as Shared;
use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{Error, Result};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{Document, Element};

mod prepared;

/// A cell's size when measuring fails (CSS pixels).
const FALLBACK_CELL: (f64, f64) = (10.0, 20.0);

/// A browser error as an I/O error (ratatui's backends speak `std::io`).
fn js_error(e: JsValue) -> Error {
    Error::other(format!("{e:?}"))
}

/// The page's DOM backend: rows rewritten whole, only those that changed.
pub struct RowDom {
    document: Document,
    /// The element the grid fills (`#term`).
    parent: Element,
    /// The grid: one `<pre>` per row.
    grid: Element,
    /// The surfaces a frame is written on: the grid's own rows (`sheets[0]`), then up to `KEPT_SHEETS` sheets
    /// over them, each holding a whole screen shown before ([`Sheet`]).
    sheets: Vec<Sheet>,
    /// The sheet shown (the others are hidden, the grid's rows under a kept sheet shown).
    front: usize,
    /// Frames flushed so far (which sheet was shown last: the least recently shown is written over first).
    frames: u64,
    /// The cells as last drawn, row by row.
    cells: Vec<Cell>,
    /// The grid's size as built.
    built: Size,
    /// The size the grid should have and a cell's size in CSS pixels, as last measured.
    measured: Shared<(Size, (f64, f64))>,
    /// Set by a window resize: measure again before the next frame.
    resized: Rc<Shared<bool>>,
    /// The rows whose cells changed since the last flush.
    dirty: Vec<bool>,
    /// Where the cursor is, and whether it is shown.
    cursor: Option<Position>,
    cursor_shown: bool,
    /// Cells changed since the last flush.
    changed: usize,
    /// Keeps the resize listener alive.
    _on_resize: Closure<dyn FnMut()>,
}

impl RowDom {
    /// A backend drawing into the element of id `parent_id`.
    pub fn new(parent_id: &str) -> Result<RowDom> {
        let window = web_sys::window().ok_or_else(|| Error::other("no window"))?;
        let document = window
            .document()
            .ok_or_else(|| Error::other("no document"))?;
        let parent = document
            .get_element_by_id(parent_id)
            .ok_or_else(|| Error::other(format!("no element #{parent_id}")))?;
        let resized = Rc::new(Shared::new(false));
        let flag = resized.clone();
        let on_resize = Closure::<dyn FnMut()>::new(move || flag.set(true));
        window
            .add_event_listener_with_callback("resize", on_resize.as_ref().unchecked_ref())
            .map_err(js_error)?;
        let grid = document.create_element("div").map_err(js_error)?;
        grid.set_id(&format!("{parent_id}_rows"));
        parent.set_inner_html("");
        parent.append_child(&grid).map_err(js_error)?;
        let mut backend = RowDom {
            document,
            parent,
            grid,
            sheets: Vec::new(),
            front: 0,
            frames: 0,
            cells: Vec::new(),
            built: Size::new(0, 0),
            measured: Shared::new((Size::new(0, 0), FALLBACK_CELL)),
            resized,
            dirty: Vec::new(),
            cursor: None,
            cursor_shown: false,
            changed: 0,
            _on_resize: on_resize,
        };
        backend.measure();
        backend.build()?;
        Stats::publish(|s| s.backend = "dom");
        Ok(backend)
    }

    /// Measures a cell (a `1ch` wide block in a `<pre>`, as the rows draw it) and how many fit in the parent.
    fn measure(&self) {
        let cell = self.measure_cell().unwrap_or(FALLBACK_CELL);
        let rect = self.parent.get_bounding_client_rect();
        let (w, h) = (rect.width(), rect.height());
        let size = if w > 0.0 && h > 0.0 {
            Size::new(
                (w / cell.0).floor().min(f64::from(u16::MAX)) as u16,
                (h / cell.1).floor().min(f64::from(u16::MAX)) as u16,
            )
        } else {
            Size::new(80, 24)
        };
        self.measured.set((size, cell));
    }

    /// A cell's width and height in CSS pixels, if the probe has a size.
    fn measure_cell(&self) -> Option<(f64, f64)> {
        let pre = self.document.create_element("pre").ok()?;
        pre.set_attribute(
            "style",
            "margin:0;padding:0;border:0;line-height:normal;position:absolute;visibility:hidden;",
        )
        .ok()?;
        pre.set_inner_html("<span style=\"display:inline-block;width:1ch;\">\u{2588}</span>");
        self.parent.append_child(&pre).ok()?;
        let rect = pre
            .first_element_child()
            .map(|s| s.get_bounding_client_rect());
        let _ = self.parent.remove_child(&pre);
        let rect = rect?;
        (rect.width() > 0.0 && rect.height() > 0.0).then(|| (rect.width(), rect.height()))
    }

    /// Builds the grid at the measured size: empty rows, every cell blank, every row to be written.
    fn build(&mut self) -> Result<()> {
        let (size, cell) = self.measured.get();
        let (w, h) = (usize::from(size.width), usize::from(size.height));
        let row_style = format!("height:{}px;", cell.1);
        let mut html = String::with_capacity(h * (row_style.len() + 24));
        for _ in 0..h {
            html.push_str("<pre style=\"");
            html.push_str(&row_style);
            html.push_str("\"></pre>");
        }
        self.grid.set_inner_html(&html);
        let rows: Vec<Element> = std::iter::successors(self.grid.first_element_child(), |row| {
            row.next_element_sibling()
        })
        .collect();
        if rows.len() != h {
            return Err(Error::other("the grid's rows were not made"));
        }
        // The kept sheets were children of the grid: gone with its old elements.
        self.sheets = vec![Sheet {
            element: None,
            rows,
            shown: vec![None; h],
            used: 0,
            screen: 0,
            prepared: false,
        }];
        self.front = 0;
        self.cells = vec![Cell::default(); w * h];
        self.dirty = vec![true; h];
        // The grid's old elements are gone, and the layer with them: the grid is read again.
        LAYER.with(|l| *l.borrow_mut() = None);
        self.built = size;
        self.cursor = None;
        Ok(())
    }

    /// Rebuilds the grid if the window was resized and the size in cells changed (a changed cell size alone
    /// sets the rows' height).
    fn follow_resize(&mut self) -> Result<()> {
        if self.resized.replace(false) {
            self.measure();
        }
        let (size, cell) = self.measured.get();
        if size != self.built {
            return self.build();
        }
        let height = format!("height:{}px;", cell.1);
        let rows = &self.sheets[0].rows;
        if rows.first().and_then(|r| r.get_attribute("style")) != Some(height.clone()) {
            for row in rows {
                row.set_attribute("style", &height).map_err(js_error)?;
            }
            // The kept sheets' rows have the old height: they are dropped, the grid's rows shown again.
            self.show_sheet(0);
            for sheet in self.sheets.drain(1..) {
                if let Some(e) = sheet.element {
                    e.remove();
                }
            }
            self.dirty.fill(true);
        }
        Ok(())
    }

    /// A new kept sheet over the grid's rows, hidden, its rows empty (one made ahead in idle time, when there is
    /// one of the grid's size: `spare_sheet`): its index, if it could be made.
    fn new_sheet(&mut self) -> Option<usize> {
        let h = self.sheets.first()?.rows.len();
        let row_style = self.sheets[0].rows.first()?.get_attribute("style")?;
        while let Some((element, rows)) = SPARE.with(|s| s.borrow_mut().pop()) {
            let fits = rows.len() == h
                && rows
                    .first()
                    .and_then(|r| r.get_attribute("style"))
                    .as_deref()
                    == Some(&row_style)
                && element.parent_element().is_some_and(|p| p == self.grid);
            if !fits {
                // Made for another grid (before a resize): dropped.
                element.remove();
                continue;
            }
            return Some(self.keep_sheet(element, rows));
        }
        let element = self.document.create_element("div").ok()?;
        element.set_class_name(SHEET_CLASS);
        element
            .set_attribute("style", &format!("{SHEET_STYLE}{SHEET_HIDDEN}"))
            .ok()?;
        element.set_attribute("aria-hidden", "true").ok()?;
        let mut html = String::with_capacity(h * (row_style.len() + 24));
        for _ in 0..h {
            html.push_str("<pre style=\"");
            html.push_str(&row_style);
            html.push_str("\"></pre>");
        }
        element.set_inner_html(&html);
        let rows: Vec<Element> = std::iter::successors(element.first_element_child(), |row| {
            row.next_element_sibling()
        })
        .collect();
        if rows.len() != h {
            return None;
        }
        self.grid.append_child(&element).ok()?;
        let _ = self.grid.set_attribute("style", "position:relative;");
        Some(self.keep_sheet(element, rows))
    }

    /// Keeps a sheet laid out in the grid (`element`, its `rows`), nothing shown in it yet; returns its index.
    fn keep_sheet(&mut self, element: Element, rows: Vec<Element>) -> usize {
        let shown = vec![None; rows.len()];
        self.sheets.push(Sheet {
            element: Some(element),
            rows,
            shown,
            used: 0,
            screen: 0,
            prepared: false,
        });
        self.sheets.len() - 1
    }

    /// While a screen shows unchanged (a tick's frame), keeps a copy of it in a hidden sheet (one made ahead, else
    /// the least recently shown), once per screen: when another screen comes, it is written on the front, as few
    /// rows as it changes (its first showing costs no more than without sheets), and this screen shows again from
    /// its copy. Returns whether it copied.
    fn keep_copy(&mut self) -> bool {
        let front = self.front;
        let screen = self.sheets[front].screen;
        if self.sheets[front].used == 0
            || self
                .sheets
                .iter()
                .enumerate()
                .any(|(i, s)| i != front && s.screen == screen)
        {
            return false;
        }
        let to = if self.sheets.len() <= KEPT_SHEETS {
            match self.new_sheet() {
                Some(i) => i,
                None => return false,
            }
        } else {
            match (0..self.sheets.len())
                .filter(|&i| i != front)
                .min_by_key(|&i| self.sheets[i].used)
            {
                Some(i) => i,
                None => return false,
            }
        };
        let rows: Vec<(usize, Vec<Cell>, Option<usize>)> = (0..self.sheets[front].rows.len())
            .filter_map(|y| {
                let (cells, at) = self.sheets[front].shown[y].as_ref()?;
                (!self.sheets[to].holds(y, cells, *at)).then(|| (y, cells.clone(), *at))
            })
            .collect();
        let sheet = &mut self.sheets[to];
        sheet.prepared = false;
        for (y, cells, at) in rows {
            sheet.rows[y].set_inner_html(&row_html(&cells, at, &one_cell).0);
            sheet.shown[y] = Some((cells, at));
        }
        // Laid out now, in the tick, so that its first showing lays nothing out.
        if let Some(e) = &sheet.element {
            let _ = e
                .dyn_ref::<web_sys::HtmlElement>()
                .map(|e| e.offset_height());
        }
        sheet.screen = screen;
        sheet.used = self.frames;
        Stats::publish(|s| {
            s.sheets = self.sheets.len() - 1;
            s.copies += 1;
        });
        true
    }

    /// Shows sheet `to` in front (a kept sheet over the grid's rows, or the rows themselves) and hides the one that
    /// was, from the eye and from readers (the rows under a kept sheet are hidden from readers, one by one).
    fn show_sheet(&mut self, to: usize) {
        let from = self.front;
        if from == to || to >= self.sheets.len() {
            return;
        }
        if let Some(e) = self.sheets.get(from).and_then(|s| s.element.as_ref()) {
            let _ = e.set_attribute("style", &format!("{SHEET_STYLE}{SHEET_HIDDEN}"));
            let _ = e.set_attribute("aria-hidden", "true");
        }
        if let Some(e) = &self.sheets[to].element {
            let _ = e.set_attribute("style", SHEET_STYLE);
            // Under the help's layer, the sheet stays hidden from readers until the layer hides.
            if !LAYER.with(|l| l.borrow().as_ref().is_some_and(|l| l.shown)) {
                let _ = e.remove_attribute("aria-hidden");
            }
        }
        if (from == 0) != (to == 0) {
            for row in &self.sheets[0].rows {
                let _ = if to == 0 {
                    row.remove_attribute("aria-hidden")
                } else {
                    row.set_attribute("aria-hidden", "true")
                };
            }
        }
        self.front = to;
    }

    /// Hides the sheet in front from readers (the help's layer shows over it), or shows it to them again.
    fn front_unread(&self, unread: bool) {
        let sheet = &self.sheets[self.front];
        let set = |e: &Element| {
            let _ = if unread {
                e.set_attribute("aria-hidden", "true")
            } else {
                e.remove_attribute("aria-hidden")
            };
        };
        match &sheet.element {
            Some(e) => set(e),
            None => sheet.rows.iter().for_each(set),
        }
    }

    /// Marks the cursor's row to be written again.
    fn touch_cursor(&mut self) {
        if let Some(p) = self.cursor
            && let Some(d) = self.dirty.get_mut(usize::from(p.y))
        {
            *d = true;
        }
    }
}

/// How many times a symbol is repeated in the probe that measures it (its width against as many cells).
const PROBE_REPEAT: usize = 16;

/// The most a probe's run of [`PROBE_REPEAT`] symbols may differ from as many cells (CSS pixels) for the symbol to
/// be taken as one cell wide: a glyph from another font differs by far more.
const PROBE_TOLERANCE: f64 = 0.25;

thread_local! {
    /// The symbols of one cell (not ASCII) measured in the page's font: whether it draws each exactly one cell
    /// wide, plain and bold (`measure_symbols`). A row's runs of such symbols need no width of their own.
    static ONE_CELL: RefCell<HashMap<String, bool>> = RefCell::new(HashMap::new());
}

/// Whether the page's font was measured drawing `symbol` one cell wide (ASCII is, unmeasured).
fn one_cell(symbol: &str) -> bool {
    ascii_cell(symbol) || ONE_CELL.with(|m| m.borrow().get(symbol).copied().unwrap_or(false))
}

/// Measures, in one probe laid out once, the symbols of one cell in `cells` that are neither ASCII nor measured
/// yet: each repeated [`PROBE_REPEAT`] times, plain and bold, in a hidden `<pre>` inside `parent` (the grid's
/// font), against as many `0`s (the `ch` unit's glyph). Each symbol is measured once in the page's life; until it
/// is, or where it is not one cell wide, the runs holding it are fixed at their width ([`row_html`]). Returns how
/// many symbols it measured.
fn measure_symbols<'a>(
    document: &Document,
    parent: &Element,
    cells: impl Iterator<Item = &'a Cell>,
) -> usize {
    measure_list(document, parent, cells.map(Cell::symbol))
}

/// As `measure_symbols`, for symbols given as text.
fn measure_list<'a>(
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
fn common_symbols() -> Vec<String> {
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
    static SPARE: RefCell<Vec<(Element, Vec<Element>)>> = const { RefCell::new(Vec::new()) };
}

/// Makes one kept sheet ahead (hidden, its rows empty, in the grid), so that the first screens shown whole do not
/// make theirs during their key; at most `KEPT_SHEETS` in all. Returns whether it made one.
fn spare_sheet(document: &Document) -> bool {
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
const IDLE_SYMBOLS: usize = 32;
const IDLE_SYMBOLS_MS: f64 = 12.0;

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

impl CellSized for RowDom {
    fn cell_size_px(&self) -> (f32, f32) {
        let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()) as f32;
        let (w, h) = self.cell_size_css_px();
        (w * ratio, h * ratio)
    }

    fn cell_size_css_px(&self) -> (f32, f32) {
        let (_, (w, h)) = self.measured.get();
        (w as f32, h as f32)
    }
}

impl Backend for RowDom {
    type Error = Error;

    fn draw<'a, I>(&mut self, content: I) -> Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        let width = usize::from(self.built.width);
        for (x, y, cell) in content {
            let (x, y) = (usize::from(x), usize::from(y));
            if x >= width {
                continue;
            }
            if let Some(slot) = self.cells.get_mut(y * width + x) {
                *slot = cell.clone();
                self.dirty[y] = true;
                self.changed += 1;
            }
        }
        Ok(())
    }

    fn hide_cursor(&mut self) -> Result<()> {
        if self.cursor_shown {
            self.cursor_shown = false;
            self.touch_cursor();
        }
        Ok(())
    }

    fn show_cursor(&mut self) -> Result<()> {
        if !self.cursor_shown {
            self.cursor_shown = true;
            self.touch_cursor();
        }
        Ok(())
    }

    fn get_cursor_position(&mut self) -> Result<Position> {
        Ok(self.cursor.unwrap_or_default())
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<()> {
        let position = position.into();
        if self.cursor != Some(position) {
            self.touch_cursor();
            self.cursor = Some(position);
            self.touch_cursor();
        }
        Ok(())
    }

    fn clear(&mut self) -> Result<()> {
        // Terminal clears after a resize: the grid follows the measured size, every cell blank.
        let (size, _) = self.measured.get();
        if size != self.built {
            return self.build();
        }
        self.cells.fill(Cell::default());
        self.dirty.fill(true);
        Ok(())
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<()> {
        match clear_type {
            ClearType::All => self.clear(),
            _ => Err(Error::other("only the whole screen is cleared")),
        }
    }

    fn size(&self) -> Result<Size> {
        if self.resized.get() {
            self.measure();
        }
        Ok(self.measured.get().0)
    }

    fn window_size(&mut self) -> Result<WindowSize> {
        let (size, (w, h)) = self.measured.get();
        Ok(WindowSize {
            columns_rows: size,
            pixels: Size::new(
                (f64::from(size.width) * w) as u16,
                (f64::from(size.height) * h) as u16,
            ),
        })
    }

    fn flush(&mut self) -> Result<()> {
        self.follow_resize()?;
        let width = usize::from(self.built.width);
        let cursor = self.cursor.filter(|_| self.cursor_shown);
        // A layer prepared for exactly this frame (the help over the screen shown, [`layer_rows`]) is shown over the
        // grid instead of writing the grid's rows; any other frame hides it and writes the rows that differ.
        let layered = cursor.is_none()
            && LAYER.with(|l| {
                l.borrow()
                    .as_ref()
                    .is_some_and(|l| l.done && l.cells == self.cells)
            });
        let (was, shows) = show_layer(layered);
        if was != shows {
            self.front_unread(shows);
        }
        if was && !shows {
            // The rows under the layer hold what they held before it showed: each is compared with the frame.
            self.dirty.fill(true);
        }
        if shows {
            self.dirty.fill(false);
            self.changed = 0;
            if !was {
                Stats::publish(|s| {
                    s.layers_shown += 1;
                    s.last_rows = 0;
                    s.last_runs = 0;
                    s.last_fixed_runs = 0;
                });
            }
            return Ok(());
        }
        self.frames += 1;
        let h = self.sheets[0].rows.len();
        let on_row = |y: usize| {
            cursor
                .filter(|p| usize::from(p.y) == y)
                .map(|p| usize::from(p.x))
        };
        let cells = &self.cells;
        let row_cells = |y: usize| &cells[y * width..(y + 1) * width];
        let front = self.front;
        let writes = |sheet: &Sheet, only_dirty: bool| {
            (0..h)
                .filter(|&y| {
                    (!only_dirty || self.dirty[y]) && !sheet.holds(y, row_cells(y), on_row(y))
                })
                .count()
        };
        let timed = timing();
        let pick_start = if timed { now() } else { 0.0 };
        let front_writes = writes(&self.sheets[front], true);
        // A frame of another screen than the front's, changing a third of the rows or more, is written on the sheet
        // that holds most of it already (a screen shown before, kept in its sheet: the menu again, or the last game
        // for a new game), else on a new sheet or the least recently shown one: the front's screen is kept for when it
        // shows again. Any other frame is written on the front (a move, a dialog over the screen).
        let screen = SCREEN.with(Shared::get);
        let mut target = front;
        let fresh = self.sheets[front].used == 0;
        if h > 0 && !fresh && self.sheets[front].screen != screen {
            let mut best: Option<(usize, usize)> = None;
            for (i, sheet) in self.sheets.iter().enumerate() {
                if i != front {
                    let n = writes(sheet, false);
                    if best.is_none_or(|(b, _)| n < b) {
                        best = Some((n, i));
                    }
                }
            }
            let front_copied = self
                .sheets
                .iter()
                .enumerate()
                .any(|(i, s)| i != front && s.screen == self.sheets[front].screen);
            if best.is_none_or(|(b, _)| b * 2 >= h) && front_copied {
                // No kept sheet holds half of it, and the front's screen is kept in a copy made while it showed:
                // the front is written over, as few rows as the change needs.
                best = None;
                target = front;
            } else if best.is_none_or(|(b, _)| b * 2 >= h) {
                // No kept sheet holds half of it: a new sheet while there is room, else the least recently shown.
                best = if self.sheets.len() <= KEPT_SHEETS {
                    None
                } else {
                    (0..self.sheets.len())
                        .filter(|&i| i != front)
                        .min_by_key(|&i| self.sheets[i].used)
                        .map(|i| (writes(&self.sheets[i], false), i))
                };
            }
            if best.is_some_and(|(b, _)| b < front_writes)
                || (best.is_none() && !front_copied && front_writes * 3 >= h)
            {
                target = match best {
                    Some((_, i)) => i,
                    None => self.new_sheet().unwrap_or(front),
                };
            }
        }
        // Symbols met for the first time are measured before the rows holding them are written.
        let all = target != front;
        measure_symbols(
            &self.document,
            &self.parent,
            self.cells
                .chunks(width.max(1))
                .zip(&self.dirty)
                .filter(|(_, d)| all || **d)
                .flat_map(|(row, _)| row),
        );
        let pick_ms = if timed { now() - pick_start } else { f64::NAN };
        let (mut rows, mut runs, mut fixed) = (0, 0, 0);
        let (mut html_ms, mut write_ms) = if timed {
            (0.0, 0.0)
        } else {
            (f64::NAN, f64::NAN)
        };
        let sheet = &mut self.sheets[target];
        for y in 0..h {
            if !std::mem::take(&mut self.dirty[y]) && !all {
                continue;
            }
            let on_row = on_row(y);
            let cells = &self.cells[y * width..(y + 1) * width];
            if sheet.holds(y, cells, on_row) {
                continue;
            }
            // The clock is read per row only when `?timing=1` asks.
            let t0 = if timed { now() } else { 0.0 };
            let (html, n, f) = row_html(cells, on_row, &one_cell);
            let t1 = if timed { now() } else { 0.0 };
            sheet.rows[y].set_inner_html(&html);
            if timed {
                html_ms += t1 - t0;
                write_ms += now() - t1;
            }
            sheet.shown[y] = Some((cells.to_vec(), on_row));
            rows += 1;
            runs += n;
            fixed += f;
        }
        self.dirty.fill(false);
        sheet.used = self.frames;
        sheet.screen = screen;
        if timed && target != front {
            log(
                "sheet",
                "shown",
                &[
                    ("start", now()),
                    ("from", front as f64),
                    ("to", target as f64),
                    ("frontWrites", front_writes as f64),
                    ("rows", rows as f64),
                    ("h", h as f64),
                ],
            );
        }
        if target != front {
            self.show_sheet(target);
            let prepared = std::mem::take(&mut self.sheets[target].prepared);
            Stats::publish(|s| {
                s.sheets = self.sheets.len() - 1;
                s.sheets_shown += 1;
                if prepared {
                    s.prepared_shown += 1;
                }
                if rows == 0 {
                    (s.last_rows, s.last_runs, s.last_fixed_runs) = (0, 0, 0);
                }
            });
        }
        if rows == 0
            && target == front
            && self.sheets[front].screen == screen
            && TICKING.with(Shared::get)
        {
            self.keep_copy();
        }
        let changed = std::mem::take(&mut self.changed);
        if timed && rows * 2 >= h {
            // A whole screen written while a layer was there: why the layer was not shown, for `web-figures`.
            LAYER.with(|l| {
                if let Some(l) = l.borrow().as_ref() {
                    let differ = if l.done {
                        l.cells
                            .iter()
                            .zip(&self.cells)
                            .filter(|(a, b)| a != b)
                            .count()
                    } else {
                        0
                    };
                    let why = if !l.done {
                        "not ready"
                    } else if cursor.is_some() {
                        "a cursor"
                    } else {
                        "other cells"
                    };
                    log(
                        "layer",
                        why,
                        &[
                            ("start", now()),
                            ("rows", l.rows as f64),
                            ("differ", differ as f64),
                        ],
                    );
                }
            });
        }
        if rows > 0 {
            Stats::publish(|s| {
                s.flushes += 1;
                s.row_writes += rows;
                s.last_rows = rows;
                s.last_runs = runs;
                s.last_fixed_runs = fixed;
                s.last_cells = changed;
                s.html_ms = html_ms;
                s.write_ms = write_ms;
                s.pick_ms = pick_ms;
                if rows * 2 >= h {
                    s.whole_screens += 1;
                }
            });
        }
        Ok(())
    }
}

/// A whole screen prepared ahead of time in its own layer over the grid (the screen with its help over it, drawn
/// by the page's idle warm-up): its element (a child of the grid, absolutely placed over its rows, one `<pre>` per
/// row as the grid's), the cells it holds, how many of its rows are written and laid out, whether all are, and
/// whether it shows.
struct Layer {
    element: Element,
    cells: Vec<Cell>,
    rows: usize,
    done: bool,
    shown: bool,
}

thread_local! {
    static LAYER: std::cell::RefCell<Option<Layer>> = const { std::cell::RefCell::new(None) };
}

/// The id of the layer's element.
const LAYER_ID: &str = "term_layer";

/// The layer's style while hidden: laid out (`visibility`, not `display`), but not seen, selected, read or
/// pointed at; shown, it is the same without `visibility: hidden` and `aria-hidden`.
const LAYER_STYLE: &str =
    "position:absolute;left:0;top:0;right:0;bottom:0;contain:strict;z-index:2;";

/// A kept sheet's class and style (shown; hidden, it adds [`SHEET_HIDDEN`]): over the grid's rows as the help's
/// layer is, under that layer.
const SHEET_CLASS: &str = "term_sheet";
const SHEET_STYLE: &str =
    "position:absolute;left:0;top:0;right:0;bottom:0;contain:strict;z-index:1;";

/// How many whole screens are kept in sheets over the grid's rows, besides the rows themselves.
const KEPT_SHEETS: usize = 6;

/// A surface a frame is written on: the grid's own rows (no element of its own) or a kept sheet over them (a
/// `<div>` of one `<pre>` per row, as the grid's), what each row holds, and the frame it was last written at.
struct Sheet {
    element: Option<Element>,
    rows: Vec<Element>,
    /// What each row's element holds (its cells and the cursor's column on it), `None` until first written: a
    /// row whose cells come back to what it holds (the help closed over an unchanged screen) is not written again.
    shown: Vec<Option<(Vec<Cell>, Option<usize>)>>,
    used: u64,
    /// The screen it was last written for ([`note_screen`]).
    screen: u64,
    /// Written in idle time with the screen the next key is expected to open ([`RowDom::prepare_rows`]), not
    /// shown since.
    prepared: bool,
}

thread_local! {
    static SCREEN: Shared<u64> = const { Shared::new(0) };
}

thread_local! {
    static TICKING: Shared<bool> = const { Shared::new(false) };
}

/// Tells the backend whether the frames drawn now are the app's periodic ticks (not a key's or a mouse event's):
/// only then does it copy the screen shown into a hidden sheet ([`RowDom`]'s `keep_copy`).
pub fn note_ticking(ticking: bool) {
    TICKING.with(|t| t.set(ticking));
}

/// Tells the backend which screen the next frames draw (the app's [`parlor::tui::app::App::screen_id`]): a frame
/// of another screen than the sheet in front holds, changing a third of its rows or more, is written on another
/// sheet, so that the front's screen is kept for when it shows again.
pub fn note_screen(id: u64) {
    SCREEN.with(|s| s.set(id));
}

impl Sheet {
    /// Whether row `y` holds `cells` with the cursor at `on_row`.
    fn holds(&self, y: usize, cells: &[Cell], on_row: Option<usize>) -> bool {
        self.shown
            .get(y)
            .and_then(Option::as_ref)
            .is_some_and(|(c, at)| *at == on_row && c.as_slice() == cells)
    }
}
const LAYER_HIDDEN: &str = "visibility:hidden;pointer-events:none;";

/// A kept sheet's style while hidden: laid out, not drawn, selected or pointed at. (`content-visibility: hidden`,
/// which unlike `visibility` is not inherited, made showing a sheet about 1 ms cheaper, but crashed this Chromium's
/// renderer, 156.0.8078.108, in the Bulls and Cows end-to-end test, at a click on the menu.)
const SHEET_HIDDEN: &str = "visibility:hidden;pointer-events:none;";

/// Shows the prepared layer over the grid when `wanted` (its own `aria-hidden` removed; the caller hides the sheet
/// under it from readers), else hides it if it shows. Returns whether it showed before, and whether it shows now.
fn show_layer(wanted: bool) -> (bool, bool) {
    LAYER.with(|l| {
        let mut l = l.borrow_mut();
        let Some(layer) = l.as_mut() else {
            return (false, false);
        };
        let was = layer.shown;
        if layer.shown != wanted {
            let style = if wanted {
                LAYER_STYLE.to_string()
            } else {
                format!("{LAYER_STYLE}{LAYER_HIDDEN}")
            };
            let _ = layer.element.set_attribute("style", &style);
            if wanted {
                let _ = layer.element.remove_attribute("aria-hidden");
            } else {
                let _ = layer.element.set_attribute("aria-hidden", "true");
            }
            layer.shown = wanted;
        }
        (was, layer.shown)
    })
}

/// Whether the layer holds exactly `buffer`'s screen, all of it laid out (then the warm-up has nothing to do).
pub fn layer_holds(buffer: &Buffer) -> bool {
    LAYER.with(|l| {
        l.borrow()
            .as_ref()
            .is_some_and(|l| l.done && l.cells == buffer.content)
    })
}

/// Prepares `buffer`'s screen in the layer over the grid (`#term_rows`), a slice at a time so that it fits in short
/// idle periods: its rows `rows` (from 0: a new layer replacing the old, which must not be showing) written as the
/// grid would write them and laid out once. When the last row is, the layer is ready: a frame whose cells are
/// `buffer`'s shows it instead of writing the grid ([`RowDom`]'s flush), and the next other frame hides it again
/// (the grid's rows under it were never rewritten, so closing the help writes nothing). Returns whether the rows
/// were laid out (not without the grid: the other backends; not over a layer showing).
pub fn layer_rows(buffer: &Buffer, rows: std::ops::Range<usize>) -> bool {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return false;
    };
    let Some(grid) = document.get_element_by_id(&format!("{}_rows", crate::page::TERM_ID)) else {
        return false;
    };
    let width = usize::from(buffer.area.width).max(1);
    let height = buffer.content.len() / width;
    LAYER.with(|l| {
        let mut l = l.borrow_mut();
        if l.as_ref().is_some_and(|l| l.shown) {
            return false;
        }
        if rows.start == 0 {
            if let Some(old) = l.take() {
                old.element.remove();
            }
            let Ok(element) = document.create_element("div") else {
                return false;
            };
            element.set_id(LAYER_ID);
            let _ = element.set_attribute("aria-hidden", "true");
            let _ = element.set_attribute("style", &format!("{LAYER_STYLE}{LAYER_HIDDEN}"));
            if grid.append_child(&element).is_err() {
                return false;
            }
            let _ = grid.set_attribute("style", "position:relative;");
            *l = Some(Layer {
                element,
                cells: Vec::new(),
                rows: 0,
                done: false,
                shown: false,
            });
        }
        let Some(layer) = l.as_mut() else {
            return false;
        };
        if layer.rows != rows.start || layer.done {
            return false;
        }
        let row_style = grid
            .first_element_child()
            .and_then(|r| r.get_attribute("style"))
            .unwrap_or_default();
        measure_symbols(
            &document,
            &grid,
            buffer
                .content
                .chunks(width)
                .skip(rows.start)
                .take(rows.len())
                .flatten(),
        );
        let mut html = String::new();
        for row in buffer
            .content
            .chunks(width)
            .skip(rows.start)
            .take(rows.len())
        {
            html.push_str("<pre style=\"");
            html.push_str(&row_style);
            html.push_str("\">");
            html.push_str(&row_html(row, None, &one_cell).0);
            html.push_str("</pre>");
        }
        if layer
            .element
            .insert_adjacent_html("beforeend", &html)
            .is_err()
        {
            return false;
        }
        let _ = layer
            .element
            .dyn_ref::<web_sys::HtmlElement>()
            .map(|e| e.offset_height());
        layer.rows = rows.end.min(height);
        if layer.rows >= height {
            layer.cells = buffer.content.clone();
            layer.done = true;
        }
        true
    })
}

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
    static STATS: std::cell::RefCell<Stats> = std::cell::RefCell::new(Stats::default());
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
const LOG_LIMIT: u32 = 4000;

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
    static ASKED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
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
fn webgl2_context() -> Option<JsValue> {
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
