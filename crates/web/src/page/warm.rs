//! The warm-up in the page's idle time: first the screen the next key is expected to open (the menu's Enter on its
//! selected row: [`parlor::tui::app::App::prepare`]) drawn and written, slice by slice, into a hidden sheet, so
//! that the key only shows the sheet; then the screen with its help drawn and written into a hidden layer over the
//! grid before the help is asked for, so that the help's key only shows the layer.

use super::tick::FRAMES_UNDER_MS;
use super::{Page, performance_now, with_page};
use ratzilla::ratatui::backend::TestBackend;
use ratzilla::ratatui::buffer::Buffer;
use ratzilla::ratatui::layout::Size;
use ratzilla::ratatui::{Frame, Terminal};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The fewest rows of the layer one warm-up slice lays out; it lays out as many as its idle time fits by their
/// measured cost (a screen is about 40 rows: a first layout of all of them took up to about 10 ms).
const WARM_ROWS: usize = 5;

/// The cost assumed of a warm-up slice before one has been measured (ms): a first one, the help drawn for the first
/// time or laid out with the browser's first layout of its text, took up to about 10.
pub(super) const WARM_FIRST_COST_MS: f64 = 12.0;

/// The idle time a slice asks for beyond its measured cost (ms), and the least it asks for.
const WARM_MARGIN_MS: f64 = 2.0;
const WARM_LEAST_MS: f64 = 4.0;

/// The most idle time a browser gives at once (ms; `requestIdleCallback`'s deadlines are at most 50): a slice
/// measured slower than this still runs in the longest idle period.
const WARM_MOST_MS: f64 = 45.0;

/// How long a warm-up slice waits before asking again while the screen animates (ms).
const WARM_ANIMATING_MS: i32 = 50;

/// How many idle periods a slice waits for one long enough (or free of pending input) before it is dropped.
const WARM_TRIES: u32 = 8;

/// Whether the browser says a key or mouse event is waiting for the page's thread
/// (`navigator.scheduling.isInputPending()`, where the browser has it).
fn input_pending() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let get =
        |target: &JsValue, name: &str| js_sys::Reflect::get(target, &JsValue::from_str(name)).ok();
    let Some(scheduling) = get(&window.navigator(), "scheduling").filter(JsValue::is_object) else {
        return false;
    };
    get(&scheduling, "isInputPending")
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call0(&scheduling).ok())
        .and_then(|v| v.as_bool())
        == Some(true)
}

/// Asks for the help's warm-up ([`Page::warm_help`], then [`Page::warm_rows`] when it kept rows to lay out) for
/// the screen shown after `inputs` keys and mouse events, in idle periods (`requestIdleCallback`, else a timeout;
/// one slice after another while the period has room for the next), each slice only when the idle time left
/// exceeds its cost as measured, no input is pending and the screen does not animate: dropped if another key or
/// mouse event comes first (its own redraw asks again), put off to a later idle period otherwise (at most
/// [`WARM_TRIES`] times). With `?timing=1` every slice, and every
/// idle period refused, is in `window.parlorLog` ([`crate::rowdom::log`]).
pub(super) fn schedule_warm(inputs: u64) {
    /// The idle time left in `deadline` (ms).
    fn time_left(deadline: &JsValue) -> f64 {
        js_sys::Reflect::get(deadline, &JsValue::from_str("timeRemaining"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .and_then(|f| f.call0(deadline).ok())
            .and_then(|v| v.as_f64())
            .unwrap_or(WARM_MOST_MS)
    }

    /// Runs slice `slice` of the warm-up with `left` ms of idle time from `start`: what it did and the next slice,
    /// if any, with its cost measured. Slices 0 and 1 are the help's (its render, then its rows), 2 and 3 the
    /// prepared screen's (its render, then its rows), which go first: a key opening a screen is likelier than `?`.
    fn run(slice: usize, left: f64, start: f64) -> Option<(&'static str, Option<usize>)> {
        with_page(|p| {
            let cost = p.warm_costs[slice];
            let rows = ((left - WARM_MARGIN_MS) / cost.max(0.01)).floor().max(0.0) as usize;
            let height = usize::from(p.screen.size().map_or(0, |s| s.height));
            let (did, units) = match slice {
                0 => (p.warm_help(), 1.0),
                1 => {
                    let before = p.to_lay_out.as_ref().map_or(0, |t| t.1);
                    let did = p.warm_rows(rows.max(WARM_ROWS));
                    let after = p.to_lay_out.as_ref().map_or(usize::MAX, |t| t.1);
                    (did, after.min(height).saturating_sub(before).max(1) as f64)
                }
                2 => (p.prepare_screen(), 1.0),
                _ => {
                    let before = p.to_prepare.as_ref().map_or(0, |t| t.1);
                    let did = p.prepare_rows(rows.max(WARM_ROWS));
                    let after = p.to_prepare.as_ref().map_or(usize::MAX, |t| t.1);
                    (did, after.min(height).saturating_sub(before).max(1) as f64)
                }
            };
            if !did.starts_with("nothing") {
                // A moving average, each measure counted at most twice the average (a slice that lost the CPU to
                // another process for a while says little about its own cost).
                let cost = &mut p.warm_costs[slice];
                let measured = (performance_now() - start) / units;
                *cost = 0.7 * *cost + 0.3 * measured.min(2.0 * *cost);
            }
            let next = match slice {
                0 | 1 => p.to_lay_out.is_some().then_some(1),
                _ if p.to_prepare.is_some() => Some(3),
                _ => Some(0),
            };
            (did, next)
        })
    }

    fn ask(inputs: u64, slice: usize, tries: u32) {
        let Some(window) = web_sys::window() else {
            return;
        };
        let cb = Closure::once_into_js(move |deadline: JsValue| {
            // Slices follow one another in the same idle period while it has room for the next.
            let mut slice = slice;
            let mut first = true;
            loop {
                let start = performance_now();
                let left = time_left(&deadline);
                let Some((now_inputs, cost, tick_ms)) =
                    with_page(|p| (p.inputs, p.warm_costs[slice], p.app.tick_ms()))
                else {
                    return;
                };
                if now_inputs != inputs {
                    return;
                }
                // The rows' slices need room for their fewest rows; the renders, for themselves.
                let one = if matches!(slice, 0 | 2) {
                    cost
                } else {
                    cost * WARM_ROWS as f64
                };
                let needed = (one + WARM_MARGIN_MS).clamp(WARM_LEAST_MS, WARM_MOST_MS);
                // The slice's entry in the page's log (`?timing=1`): what it did or why it was put off.
                let note = |what: &str| {
                    crate::rowdom::log(
                        "warm",
                        what,
                        &[
                            ("start", start),
                            ("end", performance_now()),
                            ("left", left),
                            ("needed", needed),
                        ],
                    )
                };
                let pending = input_pending();
                // A screen that animates (a slide) is not the one a help key would show: wait for its last frame.
                let animating = tick_ms < FRAMES_UNDER_MS;
                if left < needed || pending || animating {
                    if !first {
                        // The rest in a later idle period.
                        ask(inputs, slice, 0);
                        return;
                    }
                    let why = if pending {
                        "put off: input pending"
                    } else if animating {
                        "put off: animating"
                    } else {
                        "put off: idle too short"
                    };
                    note(why);
                    if animating {
                        // Not a try: asked again after the animation's next few frames, however long it lasts.
                        if let Some(w) = web_sys::window() {
                            let again = Closure::once_into_js(move || ask(inputs, slice, tries));
                            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                                again.unchecked_ref(),
                                WARM_ANIMATING_MS,
                            );
                        }
                    } else if tries < WARM_TRIES {
                        ask(inputs, slice, tries + 1);
                    }
                    return;
                }
                let Some((did, next)) = run(slice, left, start) else {
                    return;
                };
                note(did);
                let Some(next) = next else {
                    return;
                };
                // Nothing to prepare costs nothing: the help's render may still follow in this period.
                first = first && slice == 2 && did.starts_with("nothing");
                slice = next;
            }
        });
        let f: &js_sys::Function = cb.unchecked_ref();
        if window.request_idle_callback(f).is_err() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(f, 100);
        }
    }
    ask(inputs, 2, 0);
}

/// What `draw` draws on a scratch screen of `size`, shown nowhere (a screen prepared ahead); `None` if the draw
/// failed.
fn drawn_aside(size: Size, draw: impl FnOnce(&mut Frame)) -> Option<Buffer> {
    let mut scratch = match Terminal::new(TestBackend::new(size.width, size.height)) {
        Ok(t) => t,
        Err(never) => match never {},
    };
    scratch.draw(draw).ok()?;
    Some(scratch.backend().buffer().clone())
}

impl Page {
    /// The first slice of the screen's preparation: the app makes ahead the screen the next key is expected to
    /// open ([`App::prepare`]: the menu's Enter on its selected row; nothing elsewhere), writing nothing, and draws
    /// it into a scratch buffer the size of the screen, as the key's frame will ([`App::draw_prepared`]); unless a
    /// hidden sheet holds it already, it is kept for the next slices ([`Page::prepare_rows`]). Nothing with
    /// `?prepare=0` (the page as before, to measure against or to test a first showing written during its key).
    /// Says what it did.
    fn prepare_screen(&mut self) -> &'static str {
        self.to_prepare = None;
        if super::url_param("prepare").as_deref() == Some("0") {
            return "nothing: ?prepare=0";
        }
        if !self.app.prepare() {
            return "nothing: no screen to prepare";
        }
        let Some(size) = self.screen.size() else {
            return "nothing: no size";
        };
        let app = &mut self.app;
        let mut id = None;
        let Some(buffer) = drawn_aside(size, |f| id = app.draw_prepared(f)) else {
            return "nothing: the draw failed";
        };
        let Some(id) = id else {
            return "nothing: it would not fit";
        };
        if self.screen.sheet_holds(&buffer) {
            "prepare: render, a sheet holds it"
        } else {
            self.to_prepare = Some((buffer, 0, id));
            "prepare: render, rows next"
        }
    }

    /// The next slices of the screen's preparation: the screen kept by [`Page::prepare_screen`], at most `rows`
    /// rows a slice, written into a hidden sheet and laid out ([`crate::rowdom::RowDom::prepare_rows`]); when its
    /// last rows are, `parlorDraw.preparedScreens` counts it, and the key's frame shows that sheet. Says what it
    /// did.
    fn prepare_rows(&mut self, rows: usize) -> &'static str {
        let Some((buffer, from, id)) = self.to_prepare.take() else {
            return "nothing: no rows";
        };
        let height = usize::from(buffer.area.height);
        let to = (from + rows.max(1)).min(height);
        if !self.screen.prepare_rows(&buffer, from..to, id) {
            return "nothing: no sheet";
        }
        if to < height {
            self.to_prepare = Some((buffer, to, id));
            "prepare: rows"
        } else {
            crate::rowdom::Stats::publish(|s| s.prepared_screens += 1);
            "prepare: rows, the last"
        }
    }

    /// The first slice of the help's warm-up for the screen shown, before the help is asked for: its appearance
    /// was the slowest whole-screen key (the help drawn in Rust, the browser writing and laying out its rows). The
    /// app draws its screen with the help over it into a scratch buffer the size of the screen (nothing shown, the
    /// help's state untouched: [`App::draw_with_help`]); unless the layer over the grid holds that screen already,
    /// it is kept for the next slices ([`Page::warm_rows`], in later idle periods). Skipped while the help shows.
    /// Says what it did.
    fn warm_help(&mut self) -> &'static str {
        self.to_lay_out = None;
        if self.text.contains("Help: ") {
            return "nothing: the help shows";
        }
        let Some(size) = self.screen.size() else {
            return "nothing: no size";
        };
        let app = &mut self.app;
        let Some(buffer) = drawn_aside(size, |f| app.draw_with_help(f)) else {
            return "nothing: the draw failed";
        };
        if crate::rowdom::layer_holds(&buffer) {
            crate::rowdom::Stats::publish(|s| s.help_ready = true);
            "render, the layer holds it"
        } else {
            self.to_lay_out = Some((buffer, 0));
            "render, rows next"
        }
    }

    /// The next slices of the help's warm-up: the screen with its help kept by [`Page::warm_help`], at most
    /// `rows` rows a slice (as many as the idle time left fits, at least [`WARM_ROWS`]), written into the hidden
    /// layer over the grid and laid out
    /// ([`crate::rowdom::layer_rows`]); when its last rows are, the layer is ready (`parlorDraw.warmedHelps` counts
    /// it), and the help's key shows it instead of writing the grid. Says what it did.
    fn warm_rows(&mut self, rows: usize) -> &'static str {
        let Some((buffer, from)) = self.to_lay_out.take() else {
            return "nothing: no rows";
        };
        let height = usize::from(buffer.area.height);
        let to = (from + rows.max(1)).min(height);
        if !crate::rowdom::layer_rows(&buffer, from..to) {
            return "nothing: no layer";
        }
        if to < height {
            self.to_lay_out = Some((buffer, to));
            "rows"
        } else {
            crate::rowdom::Stats::publish(|s| {
                s.warmed_helps += 1;
                s.help_ready = true;
            });
            "rows, the last"
        }
    }
}
