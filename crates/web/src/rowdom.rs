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

mod backend;
mod measure;
mod prepared;
mod sheets;
mod stats;

pub use measure::measure_in_idle;
use measure::*;
use sheets::*;
pub use sheets::{layer_holds, layer_rows, note_screen, note_ticking};
pub use stats::{Stats, gpu_webgl2, log, note_key, note_times, now, timing};

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
