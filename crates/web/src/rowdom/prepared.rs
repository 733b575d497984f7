//! A screen prepared in a hidden sheet before the key that opens it (the page's idle time): the menu's Enter
//! opens its selected row's screen, a first showing that was written on the front during the key. Written here
//! slice by slice and laid out in idle periods, it is a kept sheet like the others, and the key's frame finds it
//! holding all of its rows: the sheet is shown, no row written.

use super::{KEPT_SHEETS, RowDom, Stats, measure_symbols, one_cell, row_html};
use ratzilla::ratatui::buffer::Buffer;
use wasm_bindgen::JsCast;

impl RowDom {
    /// How many of `buffer`'s rows sheet `i` does not hold (all of them for a buffer of another size).
    fn rows_missing(&self, i: usize, buffer: &Buffer) -> usize {
        let width = usize::from(self.built.width);
        let h = self.sheets[0].rows.len();
        if usize::from(buffer.area.width) != width || buffer.content.len() != width * h {
            return usize::MAX;
        }
        (0..h)
            .filter(|&y| {
                !self.sheets[i].holds(y, &buffer.content[y * width..(y + 1) * width], None)
            })
            .count()
    }

    /// Whether a hidden sheet (not the one in front) holds all of `buffer`'s screen already: then there is
    /// nothing to prepare.
    pub fn sheet_holds(&self, buffer: &Buffer) -> bool {
        (1..self.sheets.len()).any(|i| i != self.front && self.rows_missing(i, buffer) == 0)
    }

    /// Writes rows `rows` of `buffer`'s screen, which the next key is expected to open with the screen id `id`,
    /// into a hidden sheet and lays it out (idle time's work, a slice at a time). From row 0 it picks the sheet:
    /// the hidden one that holds most of the screen already when it holds over half (the same screen kept, some
    /// rows changed since), else a new one while there is room, else the least recently shown; never the one in
    /// front nor the grid's own rows. Later slices write on that sheet while it stays hidden. Rows it holds
    /// already are not written. Returns whether it wrote (or had nothing to write).
    pub fn prepare_rows(&mut self, buffer: &Buffer, rows: std::ops::Range<usize>, id: u64) -> bool {
        let h = self.sheets.first().map_or(0, |s| s.rows.len());
        let width = usize::from(self.built.width);
        if h == 0 || usize::from(buffer.area.width) != width || buffer.content.len() != width * h {
            return false;
        }
        let target = if rows.start == 0 {
            let front = self.front;
            let best = (1..self.sheets.len())
                .filter(|&i| i != front)
                .map(|i| (self.rows_missing(i, buffer), i))
                .min();
            let target = match best {
                Some((n, i)) if n * 2 < h => Some(i),
                _ if self.sheets.len() <= KEPT_SHEETS => self.new_sheet(),
                _ => (1..self.sheets.len())
                    .filter(|&i| i != front)
                    .min_by_key(|&i| self.sheets[i].used),
            };
            let Some(target) = target else {
                return false;
            };
            for sheet in &mut self.sheets {
                sheet.prepared = false;
            }
            let sheet = &mut self.sheets[target];
            sheet.prepared = true;
            sheet.screen = id;
            sheet.used = self.frames;
            target
        } else {
            match self
                .sheets
                .iter()
                .position(|s| s.prepared && s.screen == id)
            {
                Some(i) if i != self.front => i,
                _ => return false,
            }
        };
        let rows = rows.start.min(h)..rows.end.min(h);
        let chunk = |y: usize| &buffer.content[y * width..(y + 1) * width];
        measure_symbols(&self.document, &self.parent, rows.clone().flat_map(chunk));
        let sheet = &mut self.sheets[target];
        for y in rows {
            let cells = chunk(y);
            if sheet.holds(y, cells, None) {
                continue;
            }
            sheet.rows[y].set_inner_html(&row_html(cells, None, &one_cell).0);
            sheet.shown[y] = Some((cells.to_vec(), None));
        }
        // Laid out now, in idle time, so that its showing lays nothing out.
        if let Some(e) = &sheet.element {
            let _ = e
                .dyn_ref::<web_sys::HtmlElement>()
                .map(|e| e.offset_height());
        }
        Stats::publish(|s| s.sheets = self.sheets.len() - 1);
        true
    }
}
