//! The page (wasm32 only): the app, its backend and the browser's events, and the functions the page offers on
//! `window` (see docs/BROWSER.md for the contract). One page runs at a time, on the page's one thread.
//!
//! Its parts: the host ([`host`]: clocks, entropy), the workers ([`worker`], [`reviewer`]), `localStorage` ([`local_storage`]), the
//! screen and its backends ([`screen`]), the browser's events ([`events`]), the functions on `window`
//! ([`contract`]), the ticks ([`tick`]) and the warm-up in idle time ([`warm`]).

use crate::announce::Announcer;
use crate::store::{Persist, WebKeeper, WebStore};
use parlor::host::{Host, RunNow};
use parlor::input::{Event, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use parlor::storage::Storage;
use parlor::tui::app::App;
use parlor::tui::theme::{Depth, Theme};
use ratzilla::ratatui::Frame;
use ratzilla::ratatui::buffer::Buffer;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

mod contract;
mod events;
mod host;
mod local_storage;
pub(crate) mod prefs;
mod reviewer;
mod screen;
mod tick;
mod warm;
mod worker;

pub use contract::*;
pub use local_storage::LocalStorage;
pub use reviewer::{
    parlor_review_answered, parlor_review_progress, parlor_reviewer_answer, parlor_reviewer_failed,
};
pub(crate) use worker::{page_fn, worker_started};
pub use worker::{parlor_answered, parlor_worker_answer, parlor_worker_failed, parlor_worker_kept};

use host::{WebClock, WebEntropy, console_error_panic_hook, performance_now};
use screen::{Screen, buffer_text, grid_origin, make_screen};
use tick::{animation_loop, plan_tick};
use warm::{WARM_FIRST_COST_MS, schedule_warm};
use worker::{WebWorker, ask_worker_fn};

/// The id of the element the terminal grid is drawn in.
pub(crate) const TERM_ID: &str = "term";

/// The page's state.
struct Page {
    app: App,
    screen: Box<dyn Screen>,
    store: WebStore,
    persist: Rc<dyn Persist>,
    announcer: Announcer,
    /// The screen's text as last drawn.
    text: String,
    /// The theme last said on the document ([`prefs::mark_document`]).
    marked: Option<parlor::settings::ThemeName>,
    /// Key to end of redraw, of the last key, in ms.
    frame_ms: f64,
    /// When the first screen had been drawn (`performance.now()`).
    first_draw_ms: f64,
    /// When the app last ticked.
    last_tick: f64,
    /// The last animation frame: its time (the frame's start, as the browser gives it) and when its callback ran.
    last_frame: (f64, f64),
    /// Where a touch started.
    touch_from: Option<(f64, f64)>,
    /// The button held down over the grid, if any.
    held: Option<MouseButton>,
    /// Keys and mouse events taken so far (a help warm-up waiting for idle time is dropped when one arrives).
    inputs: u64,
    /// A screen with its help drawn by the warm-up's first slice, whose rows the next slices lay out in the layer
    /// over the grid, and the first row not yet laid out.
    to_lay_out: Option<(Buffer, usize)>,
    /// The screen the next key is expected to open (the menu's Enter), drawn ahead by the warm-up, whose rows the
    /// next slices write into a hidden sheet: the screen, the first row not yet written, its screen id.
    to_prepare: Option<(Buffer, usize, u64)>,
    /// The warm-up's costs as measured (ms, a moving average): the help's render, one row of its layer, the
    /// prepared screen's render, one row of its sheet.
    warm_costs: [f64; 4],
}

thread_local! {
    static PAGE: RefCell<Option<Page>> = const { RefCell::new(None) };
}

/// Runs `f` on the page, if it has started.
fn with_page<T>(f: impl FnOnce(&mut Page) -> T) -> Option<T> {
    PAGE.with(|p| p.try_borrow_mut().ok()?.as_mut().map(f))
}

/// A URL parameter of the page.
pub(crate) fn url_param(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    web_sys::UrlSearchParams::new_with_str(&search)
        .ok()?
        .get(name)
}

/// The app over `store`: the menu, with `notice` and the settings' mistakes on it.
fn build_app(store: WebStore, persist: Rc<dyn Persist>, notice: Option<String>) -> App {
    let games = parlor::registry::tui();
    let contexts = parlor::mid::Contexts::new(&games, None);
    let catalog = parlor::tui::launch::catalog(&games).with_contexts(contexts.clone());
    let keeper = WebKeeper::new(persist);
    let (settings, problems) = keeper.load(&catalog);
    let mut notice = notice;
    if !problems.is_empty() {
        let line = format!("Settings: {} (the rest is used).", problems.join("; "));
        notice = Some(match notice {
            Some(n) => format!("{n} {line}"),
            None => line,
        });
    }
    // The settings' `auto` theme is the browser's light or dark; less motion asked for turns the animations off.
    let background = prefs::colorfgbg();
    let theme = Theme::new(settings.theme(), Depth::TrueColor, background.as_deref());
    let mut app = App::new(parlor::menu_view(notice), store, theme, games);
    app.set_background_hint(background);
    app.set_animations(!prefs::reduced_motion());
    app.set_settings(settings, Some(Box::new(keeper)));
    app.set_contexts(contexts);
    app.set_seed(url_param("seed").and_then(|s| s.trim().parse().ok()));
    app.start();
    app
}

impl Page {
    /// Draws the app, and says what changed.
    fn redraw(&mut self) {
        crate::kept::DRAWS.with(|d| d.set(d.get() + 1));
        let app = &mut self.app;
        let mut text = String::new();
        crate::rowdom::note_screen(app.screen_id());
        let start = performance_now();
        let mut render_ms = 0.0;
        let drawn = self.screen.frame(&mut |f: &mut Frame| {
            app.draw(f);
            render_ms = performance_now() - start;
            text = buffer_text(f.buffer_mut());
        });
        crate::rowdom::note_times(start, render_ms);
        if let Err(e) = drawn {
            web_sys::console::error_1(&format!("drawing failed: {e}").into());
        }
        self.text = text;
        let theme = self.app.theme().name;
        if self.marked != Some(theme) {
            self.marked = Some(theme);
            prefs::mark_document(theme);
        }
        if let Some(line) = self.announcer.next(self.app.announce()) {
            set_announce(&line);
        }
    }

    /// After an event: a menu again if the player quit (saying why), then a frame.
    fn settle(&mut self) {
        if !self.app.running() {
            // A page has no program to end: the menu comes back and says so, and how to leave.
            let kept = if self.store.keeps() {
                "games in progress are kept in this browser"
            } else {
                "nothing is kept in this browser"
            };
            let notice = format!(
                "Quit: a web page stays open, so here is the menu again; close the tab to leave ({kept})."
            );
            self.app = build_app(self.store.clone(), self.persist.clone(), Some(notice));
        }
        self.redraw();
    }

    /// One key.
    fn key(&mut self, key: KeyEvent, stamp: f64) {
        let start = performance_now();
        self.app.handle_event(Event::Key(key));
        let handled = performance_now();
        // The flush's split into building the rows' HTML and writing them, of this key's own redraw only.
        if crate::rowdom::timing() {
            crate::rowdom::Stats::publish(|s| {
                (s.html_ms, s.write_ms, s.pick_ms) = (f64::NAN, f64::NAN, f64::NAN)
            });
        }
        self.settle();
        let end = performance_now();
        let drawn = crate::rowdom::Stats::current();
        self.frame_ms = end - stamp;
        crate::rowdom::note_key(start - stamp, handled - start);
        crate::rowdom::log(
            "key",
            &format!("{:?}", key.code),
            &[
                ("stamp", stamp),
                ("start", start),
                ("handled", handled),
                ("end", end),
                ("frame", self.last_frame.0),
                ("frameRan", self.last_frame.1),
                ("html", drawn.html_ms),
                ("write", drawn.write_ms),
                ("pick", drawn.pick_ms),
                ("layout", drawn.layout_ms),
            ],
        );
        self.inputs += 1;
        crate::rowdom::Stats::publish(|s| s.help_ready = false);
        schedule_warm(self.inputs);
        plan_tick(self.app.tick_ms(), self.last_tick);
    }

    /// The cell under client coordinates.
    fn cell_at(&self, x: f64, y: f64) -> Option<(u16, u16)> {
        let (ox, oy) = grid_origin();
        let (cw, ch) = self.screen.cell_css();
        if cw <= 0.0 || ch <= 0.0 || x < ox || y < oy {
            return None;
        }
        let col = ((x - ox) / cw).floor();
        let row = ((y - oy) / ch).floor();
        (col < f64::from(u16::MAX) && row < f64::from(u16::MAX)).then_some((col as u16, row as u16))
    }

    /// One mouse event at client coordinates.
    fn mouse(&mut self, kind: MouseEventKind, x: f64, y: f64, modifiers: KeyModifiers) {
        let Some((column, row)) = self.cell_at(x, y) else {
            return;
        };
        self.app.handle_event(Event::Mouse(MouseEvent {
            kind,
            column,
            row,
            modifiers,
        }));
        self.settle();
        self.inputs += 1;
        crate::rowdom::Stats::publish(|s| s.help_ready = false);
        schedule_warm(self.inputs);
        plan_tick(self.app.tick_ms(), self.last_tick);
    }

    /// An animation frame: the app's periodic work at its pace.
    fn frame(&mut self, now: f64) {
        self.last_frame = (now, performance_now());
        if now - self.last_tick >= self.app.tick_ms() as f64 {
            self.last_tick = now;
            let start = performance_now();
            self.app.tick();
            crate::rowdom::note_ticking(true);
            self.settle();
            crate::rowdom::note_ticking(false);
            crate::rowdom::log("tick", "", &[("start", start), ("end", performance_now())]);
        }
    }
}

/// Sets the `#announce` line.
fn set_announce(line: &str) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("announce"))
    {
        el.set_text_content(Some(line));
    }
}

/// The page's services, for either face: the panic hook, the host (clock, entropy, runner) and the worker the
/// computer thinks in (unless `?worker=0`, to measure the page without it).
pub(crate) fn install_services() {
    console_error_panic_hook();
    parlor::host::install(Host {
        clock: &WebClock,
        entropy: &WebEntropy,
        runner: &RunNow,
    });
    if url_param("worker").as_deref() != Some("0") && ask_worker_fn().is_some() {
        parlor::mid::elsewhere::install_elsewhere(&WebWorker);
    }
    // The reviews and the puzzles' judgements in the reviewer worker (crate::coach), unless `?worker=0`.
    if url_param("worker").as_deref() != Some("0") && reviewer::available() {
        crate::coach::install(reviewer::send);
    }
}

/// Starts the page: the host, the store, the app, the backend, the events, and the first frame.
#[wasm_bindgen(js_name = parlorStart)]
pub fn parlor_start() -> Result<String, JsValue> {
    install_services();
    // The menu's "Online": Parlor online over the page's WebSocket (online.rs).
    parlor::tui::menu::offer_online(
        crate::online::open_online,
        parlor::registry::online().room.title(),
    );
    let persist: Rc<dyn Persist> = Rc::new(LocalStorage);
    let opened = WebStore::open(persist.clone(), js_sys::Date::now() as i64);
    let app = build_app(opened.store.clone(), persist.clone(), opened.notice);
    // The grid's font fits 40 x 12 cells in the viewport (a phone); WebGL2 draws at the size found now.
    let font_px = screen::fit_font();
    let (screen, backend) = make_screen(font_px).map_err(|e| JsValue::from_str(&e))?;
    crate::rowdom::Stats::publish(|s| s.backend = backend);
    let mut page = Page {
        app,
        screen,
        store: opened.store,
        persist,
        announcer: Announcer::default(),
        text: String::new(),
        marked: None,
        frame_ms: 0.0,
        first_draw_ms: 0.0,
        last_tick: performance_now(),
        last_frame: (0.0, 0.0),
        touch_from: None,
        held: None,
        inputs: 0,
        to_lay_out: None,
        to_prepare: None,
        warm_costs: [
            WARM_FIRST_COST_MS,
            WARM_FIRST_COST_MS / 20.0,
            WARM_FIRST_COST_MS,
            WARM_FIRST_COST_MS / 20.0,
        ],
    };
    page.redraw();
    page.first_draw_ms = performance_now();
    PAGE.with(|p| *p.borrow_mut() = Some(page));
    schedule_warm(0);
    if backend == "dom" {
        crate::rowdom::measure_in_idle();
    }

    events::listen_all()?;
    animation_loop()?;
    Ok(backend.to_string())
}
