//! The page's screen (wasm32 only): a terminal over one of ratzilla's backends or the page's own DOM backend, the
//! one the URL asks for, and where its grid sits on the page.

use super::{TERM_ID, url_param};
use ratzilla::backend::canvas::CanvasBackendOptions;
use ratzilla::backend::webgl2::WebGl2BackendOptions;
use ratzilla::ratatui::backend::Backend;
use ratzilla::ratatui::buffer::Buffer;
use ratzilla::ratatui::layout::Size;
use ratzilla::ratatui::{Frame, Terminal};
use ratzilla::{CanvasBackend, CellSized, DomBackend, FontAtlasConfig, WebGl2Backend};

/// A terminal over one of ratzilla's backends, as the page uses it.
pub(super) trait Screen {
    /// Draws one frame.
    fn frame(&mut self, render: &mut dyn FnMut(&mut Frame)) -> Result<(), String>;
    /// A cell's size in CSS pixels.
    fn cell_css(&self) -> (f64, f64);
    /// The screen's size in cells.
    fn size(&self) -> Option<Size>;
    /// Whether a hidden sheet holds `buffer`'s screen already (the page's DOM backend only:
    /// [`crate::rowdom::RowDom::sheet_holds`]).
    fn sheet_holds(&mut self, buffer: &Buffer) -> bool;
    /// Writes rows of the screen the next key is expected to open into a hidden sheet (the page's DOM backend
    /// only: [`crate::rowdom::RowDom::prepare_rows`]); `false` elsewhere.
    fn prepare_rows(&mut self, buffer: &Buffer, rows: std::ops::Range<usize>, id: u64) -> bool;
}

impl<B> Screen for Terminal<B>
where
    B: Backend + CellSized + 'static,
    B::Error: std::fmt::Display,
{
    fn frame(&mut self, render: &mut dyn FnMut(&mut Frame)) -> Result<(), String> {
        self.draw(|f| render(f))
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn cell_css(&self) -> (f64, f64) {
        let (w, h) = self.backend().cell_size_css_px();
        (f64::from(w), f64::from(h))
    }

    fn size(&self) -> Option<Size> {
        Terminal::size(self).ok()
    }

    fn sheet_holds(&mut self, buffer: &Buffer) -> bool {
        let backend: &mut dyn std::any::Any = self.backend_mut();
        backend
            .downcast_mut::<crate::rowdom::RowDom>()
            .is_some_and(|dom| dom.sheet_holds(buffer))
    }

    fn prepare_rows(&mut self, buffer: &Buffer, rows: std::ops::Range<usize>, id: u64) -> bool {
        let backend: &mut dyn std::any::Any = self.backend_mut();
        backend
            .downcast_mut::<crate::rowdom::RowDom>()
            .is_some_and(|dom| dom.prepare_rows(buffer, rows, id))
    }
}

/// The text of a buffer: its rows joined by `\n`, a wide character's trailing cell left out.
pub(super) fn buffer_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in area.top()..area.bottom() {
        if y > area.top() {
            out.push('\n');
        }
        let mut skip = 0;
        for x in area.left()..area.right() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buffer[(x, y)].symbol();
            out.push_str(symbol);
            skip = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
        }
    }
    out
}

/// The screen on the backend the URL asks for (`?backend=dom|canvas|webgl2|ratzilla-dom`); by default WebGL2
/// where the browser draws it on a GPU, else the page's own DOM backend ([`crate::rowdom`]; a software WebGL2
/// starves the page). Returns it with the backend's name.
pub(super) fn make_screen(font_px: f64) -> Result<(Box<dyn Screen>, &'static str), String> {
    let asked = url_param("backend").unwrap_or_default();
    let dom = || -> Result<(Box<dyn Screen>, &'static str), String> {
        let backend = crate::rowdom::RowDom::new(TERM_ID).map_err(|e| e.to_string())?;
        let t = Terminal::new(backend).map_err(|e| e.to_string())?;
        Ok((Box::new(t), "dom"))
    };
    match asked.as_str() {
        "dom" => dom(),
        "ratzilla-dom" => {
            let backend = DomBackend::new_by_id(TERM_ID).map_err(|e| e.to_string())?;
            let t = Terminal::new(backend).map_err(|e| e.to_string())?;
            Ok((Box::new(t), "ratzilla-dom"))
        }
        "canvas" => {
            let backend =
                CanvasBackend::new_with_options(CanvasBackendOptions::new().grid_id(TERM_ID))
                    .map_err(|e| e.to_string())?;
            let t = Terminal::new(backend).map_err(|e| e.to_string())?;
            Ok((Box::new(t), "canvas"))
        }
        "" if !crate::rowdom::gpu_webgl2() => dom(),
        _ => {
            let options = WebGl2BackendOptions::new()
                .grid_id(TERM_ID)
                .font_atlas_config(FontAtlasConfig::dynamic(
                    &["ui-monospace", "DejaVu Sans Mono", "monospace"],
                    font_px as f32,
                ));
            match WebGl2Backend::new_with_options(options) {
                Ok(backend) => {
                    let t = Terminal::new(backend).map_err(|e| e.to_string())?;
                    Ok((Box::new(t), "webgl2"))
                }
                Err(e) => {
                    web_sys::console::warn_1(
                        &format!("WebGL2 unavailable ({e}); drawing with the DOM").into(),
                    );
                    if let Some(el) = term_element() {
                        el.set_inner_html("");
                    }
                    dom()
                }
            }
        }
    }
}

/// The grid's font size when the viewport is large enough (CSS px).
pub(super) const FONT_PX: f64 = 16.0;
/// The least font size the grid shrinks to (CSS px): still readable on a phone.
pub(super) const MIN_FONT_PX: f64 = 10.0;
/// The screen every Parlor screen fits: 40 columns, 12 rows.
const FIT: (f64, f64) = (40.0, 12.0);

/// Sets the grid's font size: [`FONT_PX`], or smaller (not under [`MIN_FONT_PX`]) so that 40 columns and 12 rows
/// fit the grid's element (a 320 px phone: about 13 px). Returns the size set.
pub(super) fn fit_font() -> f64 {
    use wasm_bindgen::JsCast;
    let Some(term) = term_element().and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok()) else {
        return FONT_PX;
    };
    let _ = term
        .style()
        .set_property("font-size", &format!("{FONT_PX}px"));
    let rect = term.get_bounding_client_rect();
    let px = match cell_at_font(&term) {
        Some((cw, ch)) if rect.width() > 0.0 && rect.height() > 0.0 => {
            let scale = (rect.width() / (FIT.0 * cw)).min(rect.height() / (FIT.1 * ch));
            // A quarter pixel under the exact fit, so that rounding never loses the 40th column.
            ((FONT_PX * scale * 4.0).floor() / 4.0 - 0.25).clamp(MIN_FONT_PX, FONT_PX)
        }
        _ => FONT_PX,
    };
    if px < FONT_PX {
        let _ = term.style().set_property("font-size", &format!("{px}px"));
    }
    px
}

/// A grid cell's size (CSS px) at the element's font: a `1ch` wide block in a `<pre>`, as the rows draw it.
fn cell_at_font(term: &web_sys::HtmlElement) -> Option<(f64, f64)> {
    let document = web_sys::window()?.document()?;
    let pre = document.create_element("pre").ok()?;
    pre.set_attribute(
        "style",
        "margin:0;padding:0;border:0;line-height:normal;position:absolute;visibility:hidden;",
    )
    .ok()?;
    pre.set_inner_html("<span style=\"display:inline-block;width:1ch;\">\u{2588}</span>");
    term.append_child(&pre).ok()?;
    let rect = pre
        .first_element_child()
        .map(|s| s.get_bounding_client_rect());
    let _ = term.remove_child(&pre);
    let rect = rect?;
    (rect.width() > 0.0 && rect.height() > 0.0).then(|| (rect.width(), rect.height()))
}

/// The element the grid is drawn in.
pub(super) fn term_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(TERM_ID)
}

/// The grid's top-left corner in client coordinates: the drawn element's (the DOM's grid, or the canvas).
pub(super) fn grid_origin() -> (f64, f64) {
    let Some(term) = term_element() else {
        return (0.0, 0.0);
    };
    let el = term.first_element_child().unwrap_or(term);
    let r = el.get_bounding_client_rect();
    (r.left(), r.top())
}
