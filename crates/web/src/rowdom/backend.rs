//! The ratatui backend of [`RowDom`]: a frame's changed rows written, each as one assignment, on the sheet that holds most of its screen.

use super::*;

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
