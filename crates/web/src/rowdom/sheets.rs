//! The surfaces a frame is written on: the kept sheets of screens shown before, and the layer of a help prepared ahead.

use super::*;

/// A whole screen prepared ahead of time in its own layer over the grid (the screen with its help over it, drawn
/// by the page's idle warm-up): its element (a child of the grid, absolutely placed over its rows, one `<pre>` per
/// row as the grid's), the cells it holds, how many of its rows are written and laid out, whether all are, and
/// whether it shows.
pub(super) struct Layer {
    pub(super) element: Element,
    pub(super) cells: Vec<Cell>,
    pub(super) rows: usize,
    pub(super) done: bool,
    pub(super) shown: bool,
}

thread_local! {
    pub(super) static LAYER: std::cell::RefCell<Option<Layer>> = const { std::cell::RefCell::new(None) };
}

/// The id of the layer's element.
pub(super) const LAYER_ID: &str = "term_layer";

/// The layer's style while hidden: laid out (`visibility`, not `display`), but not seen, selected, read or
/// pointed at; shown, it is the same without `visibility: hidden` and `aria-hidden`.
pub(super) const LAYER_STYLE: &str =
    "position:absolute;left:0;top:0;right:0;bottom:0;contain:strict;z-index:2;";

/// A kept sheet's class and style (shown; hidden, it adds [`SHEET_HIDDEN`]): over the grid's rows as the help's
/// layer is, under that layer.
pub(super) const SHEET_CLASS: &str = "term_sheet";
pub(super) const SHEET_STYLE: &str =
    "position:absolute;left:0;top:0;right:0;bottom:0;contain:strict;z-index:1;";

/// How many whole screens are kept in sheets over the grid's rows, besides the rows themselves.
pub(super) const KEPT_SHEETS: usize = 6;

/// A surface a frame is written on: the grid's own rows (no element of its own) or a kept sheet over them (a
/// `<div>` of one `<pre>` per row, as the grid's), what each row holds, and the frame it was last written at.
pub(super) struct Sheet {
    pub(super) element: Option<Element>,
    pub(super) rows: Vec<Element>,
    /// What each row's element holds (its cells and the cursor's column on it), `None` until first written: a
    /// row whose cells come back to what it holds (the help closed over an unchanged screen) is not written again.
    pub(super) shown: Vec<Option<(Vec<Cell>, Option<usize>)>>,
    pub(super) used: u64,
    /// The screen it was last written for ([`note_screen`]).
    pub(super) screen: u64,
    /// Written in idle time with the screen the next key is expected to open ([`RowDom::prepare_rows`]), not
    /// shown since.
    pub(super) prepared: bool,
}

thread_local! {
    pub(super) static SCREEN: Shared<u64> = const { Shared::new(0) };
}

thread_local! {
    pub(super) static TICKING: Shared<bool> = const { Shared::new(false) };
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
    pub(super) fn holds(&self, y: usize, cells: &[Cell], on_row: Option<usize>) -> bool {
        self.shown
            .get(y)
            .and_then(Option::as_ref)
            .is_some_and(|(c, at)| *at == on_row && c.as_slice() == cells)
    }
}
pub(super) const LAYER_HIDDEN: &str = "visibility:hidden;pointer-events:none;";

/// A kept sheet's style while hidden: laid out, not drawn, selected or pointed at. (`content-visibility: hidden`,
/// which unlike `visibility` is not inherited, made showing a sheet about 1 ms cheaper, but crashed this Chromium's
/// renderer, 156.0.8078.108, in the Bulls and Cows end-to-end test, at a click on the menu.)
pub(super) const SHEET_HIDDEN: &str = "visibility:hidden;pointer-events:none;";

/// Shows the prepared layer over the grid when `wanted` (its own `aria-hidden` removed; the caller hides the sheet
/// under it from readers), else hides it if it shows. Returns whether it showed before, and whether it shows now.
pub(super) fn show_layer(wanted: bool) -> (bool, bool) {
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
