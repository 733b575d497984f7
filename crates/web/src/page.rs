//! The page (wasm32 only): the app, its backend and the browser's events, and the functions the page offers on
//! `window` (see docs/BROWSER.md for the contract). One page runs at a time, on the page's one thread.

use crate::announce::Announcer;
use crate::keys::{Held, key_event};
use crate::store::{Persist, WebKeeper, WebStore};
use parlor::host::{Clock, Entropy, Host, RunNow};
use parlor::input::{Event, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use parlor::mid::elsewhere::{Answer, Elsewhere, Request, answer_from_json};
use parlor::tui::app::App;
use parlor::tui::theme::{Depth, Theme};
use ratzilla::backend::canvas::CanvasBackendOptions;
use ratzilla::backend::webgl2::WebGl2BackendOptions;
use ratzilla::ratatui::backend::Backend;
use ratzilla::ratatui::buffer::Buffer;
use ratzilla::ratatui::layout::Size;
use ratzilla::ratatui::{Frame, Terminal};
use ratzilla::{CanvasBackend, CellSized, DomBackend, FontAtlasConfig, WebGl2Backend};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use std::sync::{Mutex, OnceLock};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

mod tick;
mod warm;

use tick::{animation_loop, plan_tick};
use warm::{WARM_FIRST_COST_MS, schedule_warm};

/// The id of the element the terminal grid is drawn in.
pub(crate) const TERM_ID: &str = "term";

/// The browser's clock.
struct WebClock;

impl Clock for WebClock {
    fn unix_nanos(&self) -> u128 {
        (js_sys::Date::now().max(0.0) as u128) * 1_000_000
    }

    fn monotonic_ms(&self) -> u64 {
        performance_now().max(0.0) as u64
    }
}

/// A number drawn once from `crypto.getRandomValues` tells this page apart from others.
struct WebEntropy;

impl Entropy for WebEntropy {
    fn instance(&self) -> u64 {
        static DRAWN: OnceLock<u64> = OnceLock::new();
        *DRAWN.get_or_init(|| {
            let mut bytes = [0u8; 8];
            let crypto = web_sys::window().and_then(|w| w.crypto().ok());
            match crypto.map(|c| c.get_random_values_with_u8_array(&mut bytes)) {
                Some(Ok(_)) => u64::from_le_bytes(bytes),
                // No crypto: the time is the best there is.
                _ => js_sys::Date::now() as u64 ^ (performance_now() * 1000.0) as u64,
            }
        })
    }
}

/// `performance.now()`, or 0 where there is none.
fn performance_now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// `performance.now()` in a worker (its global is no window), or `Date.now()` where there is none.
fn worker_now() -> f64 {
    js_sys::Reflect::get(&js_sys::global(), &JsValue::from_str("performance"))
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// The worker's clock (time limits of the computer's thinking).
struct WorkerClock;

impl Clock for WorkerClock {
    fn unix_nanos(&self) -> u128 {
        (js_sys::Date::now().max(0.0) as u128) * 1_000_000
    }

    fn monotonic_ms(&self) -> u64 {
        worker_now().max(0.0) as u64
    }
}

/// The requests sent to the page's worker and not yet answered or forgotten, and the answers come.
#[derive(Default)]
struct Sent {
    waiting: HashSet<u64>,
    answers: HashMap<u64, Answer>,
}

static SENT: Mutex<Option<Sent>> = Mutex::new(None);

/// `f` over the requests sent to the worker.
fn with_sent<T>(f: impl FnOnce(&mut Sent) -> T) -> T {
    let mut guard = SENT.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Sent::default))
}

/// The page's Web Worker (`worker.js`, the same wasm module), reached through `window.parlorAskWorker`, which
/// `index.html` defines; its answers come back through [`parlor_answered`]. A request forgotten before its answer
/// is passed to `window.parlorForgetWorker`, which drops it from the page's queue or, when the worker is thinking
/// about it, ends that worker and starts a fresh one (a think cannot be stopped otherwise).
struct WebWorker;

/// `window.parlorAskWorker`, if the page defines it.
fn ask_worker_fn() -> Option<js_sys::Function> {
    page_fn("parlorAskWorker")
}

/// The function `window[name]`, if the page defines it.
pub(crate) fn page_fn(name: &str) -> Option<js_sys::Function> {
    let w = web_sys::window()?;
    js_sys::Reflect::get(&w, &JsValue::from_str(name))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()
}

impl Elsewhere for WebWorker {
    fn ask(&self, request: &Request) -> bool {
        let sent = ask_worker_fn()
            .and_then(|f| {
                f.call2(
                    &JsValue::NULL,
                    &JsValue::from_str(&request.to_json()),
                    &JsValue::from_f64(request.id as f64),
                )
                .ok()
            })
            .and_then(|v| v.as_bool())
            == Some(true);
        if sent {
            with_sent(|s| s.waiting.insert(request.id));
        }
        sent
    }

    fn answer(&self, id: u64) -> Option<Answer> {
        with_sent(|s| s.answers.remove(&id))
    }

    fn forget(&self, id: u64) {
        let waiting = with_sent(|s| {
            s.answers.remove(&id);
            s.waiting.remove(&id)
        });
        // Still unanswered: the page takes it off the worker's queue, or ends the worker thinking about it.
        if waiting && let Some(f) = page_fn("parlorForgetWorker") {
            let _ = f.call1(&JsValue::NULL, &JsValue::from_f64(id as f64));
        }
    }

    fn fetch(&self, key: &str) -> bool {
        crate::kept::ask(key)
    }
}

/// An answer from the worker (its JSON): kept for the screen that asked, unless it was forgotten meanwhile.
#[wasm_bindgen(js_name = parlorAnswered)]
pub fn parlor_answered(text: &str) {
    if let Some((id, answer)) = answer_from_json(text) {
        with_sent(|s| {
            if s.waiting.remove(&id) {
                s.answers.insert(id, answer);
            }
        });
    }
}

/// The worker failed (`why`): every request waiting is answered with it, and the screens think on the page.
#[wasm_bindgen(js_name = parlorWorkerFailed)]
pub fn parlor_worker_failed(why: &str) {
    with_sent(|s| {
        for id in std::mem::take(&mut s.waiting) {
            s.answers.insert(id, Err(why.to_string()));
        }
    });
    crate::kept::worker_failed(why);
}

/// In the worker, once: the host (clock, entropy, runner) of the worker's thread.
pub(crate) fn worker_started() {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        console_error_panic_hook();
        parlor::host::install(Host {
            clock: &WorkerClock,
            entropy: &WebEntropy,
            runner: &RunNow,
        });
    });
}

/// In the worker: the answer to one think request, both as JSON ([`crate::think::answer`]).
#[wasm_bindgen(js_name = parlorWorkerAnswer)]
pub fn parlor_worker_answer(request: &str) -> String {
    worker_started();
    crate::think::answer(request)
}

/// In the worker, at its start: one entry kept in IndexedDB (`worker.js` reads them), taken as the worker's table
/// ([`crate::think::take_kept`]). Returns `""` when taken, else why it was refused (the worker deletes it).
#[wasm_bindgen(js_name = parlorWorkerKept)]
pub fn parlor_worker_kept(key: &str, bytes: &[u8]) -> String {
    worker_started();
    crate::think::take_kept(key, bytes)
        .err()
        .unwrap_or_default()
}

/// The browser's `localStorage`, as the page's [`Persist`].
pub struct LocalStorage;

impl LocalStorage {
    fn storage() -> Result<web_sys::Storage, String> {
        web_sys::window()
            .ok_or("no window")?
            .local_storage()
            .map_err(|e| format!("local storage refused: {e:?}"))?
            .ok_or_else(|| "no local storage".to_string())
    }
}

impl Persist for LocalStorage {
    fn get(&self, key: &str) -> Option<String> {
        LocalStorage::storage().ok()?.get_item(key).ok().flatten()
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        LocalStorage::storage()?.set_item(key, value).map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| format!("{e:?}"))
        })
    }
}

/// A terminal over one of ratzilla's backends, as the page uses it.
trait Screen {
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
fn buffer_text(buffer: &Buffer) -> String {
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

/// The page's state.
struct Page {
    app: App,
    screen: Box<dyn Screen>,
    store: WebStore,
    persist: Rc<dyn Persist>,
    announcer: Announcer,
    /// The screen's text as last drawn.
    text: String,
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
    let theme = Theme::new(settings.theme(), Depth::TrueColor, None);
    let mut app = App::new(parlor::menu_view(notice), store, theme, games);
    app.set_settings(settings, Some(Box::new(keeper)));
    app.set_contexts(contexts);
    app.set_seed(url_param("seed").and_then(|s| s.trim().parse().ok()));
    app.start();
    app
}

/// The screen on the backend the URL asks for (`?backend=dom|canvas|webgl2|ratzilla-dom`); by default WebGL2
/// where the browser draws it on a GPU, else the page's own DOM backend ([`crate::rowdom`]; a software WebGL2
/// starves the page). Returns it with the backend's name.
fn make_screen() -> Result<(Box<dyn Screen>, &'static str), String> {
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
                    16.0,
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

/// The element the grid is drawn in.
fn term_element() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id(TERM_ID)
}

/// The grid's top-left corner in client coordinates: the drawn element's (the DOM's grid, or the canvas).
fn grid_origin() -> (f64, f64) {
    let Some(term) = term_element() else {
        return (0.0, 0.0);
    };
    let el = term.first_element_child().unwrap_or(term);
    let r = el.get_bounding_client_rect();
    (r.left(), r.top())
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
        if let Some(line) = self.announcer.next(self.app.announce()) {
            set_announce(&line);
        }
    }

    /// After an event: a menu again if the player quit, then a frame.
    fn settle(&mut self) {
        if !self.app.running() {
            self.app = build_app(self.store.clone(), self.persist.clone(), None);
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

fn modifiers_of(shift: bool, ctrl: bool, alt: bool) -> KeyModifiers {
    let mut m = KeyModifiers::NONE;
    if shift {
        m |= KeyModifiers::SHIFT;
    }
    if ctrl {
        m |= KeyModifiers::CONTROL;
    }
    if alt {
        m |= KeyModifiers::ALT;
    }
    m
}

fn button_of(b: i16) -> MouseButton {
    match b {
        1 => MouseButton::Middle,
        2 => MouseButton::Right,
        _ => MouseButton::Left,
    }
}

/// Listens for `kind` on `target` for the page's life.
fn listen<E: wasm_bindgen::convert::FromWasmAbi + 'static>(
    target: &web_sys::EventTarget,
    kind: &str,
    passive: bool,
    f: impl FnMut(E) + 'static,
) -> Result<(), JsValue> {
    let closure = Closure::<dyn FnMut(E)>::new(f);
    let options = web_sys::AddEventListenerOptions::new();
    options.set_passive(passive);
    target.add_event_listener_with_callback_and_add_event_listener_options(
        kind,
        closure.as_ref().unchecked_ref(),
        &options,
    )?;
    closure.forget();
    Ok(())
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
}

/// Starts the page: the host, the store, the app, the backend, the events, and the first frame.
#[wasm_bindgen(js_name = parlorStart)]
pub fn parlor_start() -> Result<String, JsValue> {
    install_services();
    // The menu's "Online": Parlor online over the page's WebSocket (online.rs).
    parlor::tui::menu::offer_online(crate::online::open_online);
    let persist: Rc<dyn Persist> = Rc::new(LocalStorage);
    let opened = WebStore::open(persist.clone(), js_sys::Date::now() as i64);
    let app = build_app(opened.store.clone(), persist.clone(), opened.notice);
    let (screen, backend) = make_screen().map_err(|e| JsValue::from_str(&e))?;
    crate::rowdom::Stats::publish(|s| s.backend = backend);
    let mut page = Page {
        app,
        screen,
        store: opened.store,
        persist,
        announcer: Announcer::default(),
        text: String::new(),
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

    let window = web_sys::window().ok_or("no window")?;
    let document = window.document().ok_or("no document")?;
    listen(&document, "keydown", false, |e: web_sys::KeyboardEvent| {
        let held = Held {
            shift: e.shift_key(),
            ctrl: e.ctrl_key(),
            alt: e.alt_key(),
            meta: e.meta_key(),
        };
        // Keys typed into the page's own controls (the import file picker) are theirs.
        if let Some(t) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
            && matches!(
                t.tag_name().as_str(),
                "INPUT" | "BUTTON" | "TEXTAREA" | "SELECT"
            )
        {
            return;
        }
        if let Some(key) = key_event(&e.key(), held) {
            e.prevent_default();
            let stamp = e.time_stamp();
            with_page(|p| p.key(key, stamp));
        }
    })?;
    let term = term_element().ok_or("no #term element")?;
    listen(&term, "mousedown", false, |e: web_sys::MouseEvent| {
        // A press inside text selected earlier (by an earlier drag over the rows) would start the browser's
        // drag-and-drop of that text, which sends no mousemove or mouseup: the page's drag would be lost. So a
        // press first lets go of any selection, as a press outside one does; text stays selectable by dragging.
        if let Some(selection) = web_sys::window().and_then(|w| w.get_selection().ok().flatten()) {
            let _ = selection.remove_all_ranges();
        }
        let button = button_of(e.button());
        let m = modifiers_of(e.shift_key(), e.ctrl_key(), e.alt_key());
        with_page(|p| {
            p.held = Some(button);
            p.mouse(
                MouseEventKind::Down(button),
                f64::from(e.client_x()),
                f64::from(e.client_y()),
                m,
            );
        });
    })?;
    listen(&window, "mouseup", false, |e: web_sys::MouseEvent| {
        let m = modifiers_of(e.shift_key(), e.ctrl_key(), e.alt_key());
        with_page(|p| {
            if let Some(button) = p.held.take() {
                p.mouse(
                    MouseEventKind::Up(button),
                    f64::from(e.client_x()),
                    f64::from(e.client_y()),
                    m,
                );
            }
        });
    })?;
    listen(&term, "mousemove", false, |e: web_sys::MouseEvent| {
        let m = modifiers_of(e.shift_key(), e.ctrl_key(), e.alt_key());
        with_page(|p| {
            if let Some(button) = p.held {
                p.mouse(
                    MouseEventKind::Drag(button),
                    f64::from(e.client_x()),
                    f64::from(e.client_y()),
                    m,
                );
            }
        });
    })?;
    listen(&term, "wheel", false, |e: web_sys::WheelEvent| {
        let (dx, dy) = (e.delta_x(), e.delta_y());
        let kind = if dy.abs() >= dx.abs() {
            if dy > 0.0 {
                MouseEventKind::ScrollDown
            } else if dy < 0.0 {
                MouseEventKind::ScrollUp
            } else {
                return;
            }
        } else if dx > 0.0 {
            MouseEventKind::ScrollRight
        } else {
            MouseEventKind::ScrollLeft
        };
        e.prevent_default();
        let m = modifiers_of(e.shift_key(), e.ctrl_key(), e.alt_key());
        with_page(|p| p.mouse(kind, f64::from(e.client_x()), f64::from(e.client_y()), m));
    })?;
    listen(&term, "touchstart", true, |e: web_sys::TouchEvent| {
        if let Some(t) = e.touches().get(0) {
            let at = (f64::from(t.client_x()), f64::from(t.client_y()));
            with_page(|p| p.touch_from = Some(at));
        }
    })?;
    listen(&term, "touchend", false, |e: web_sys::TouchEvent| {
        let Some(t) = e.changed_touches().get(0) else {
            return;
        };
        let (x1, y1) = (f64::from(t.client_x()), f64::from(t.client_y()));
        let stamp = e.time_stamp();
        with_page(|p| {
            if let Some((x0, y0)) = p.touch_from.take()
                && let Some(code) = crate::swipe::direction(x0, y0, x1, y1)
            {
                e.prevent_default();
                p.key(KeyEvent::from(code), stamp);
            }
        });
    })?;
    listen(&window, "resize", true, |_: web_sys::Event| {
        with_page(Page::redraw);
    })?;
    animation_loop()?;
    Ok(backend.to_string())
}

/// A panic's message goes to the console.
fn console_error_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("parlor: {info}").into());
    }));
}

/// The whole screen's text, its rows joined by `\n`.
#[wasm_bindgen(js_name = parlorScreen)]
pub fn parlor_screen() -> String {
    with_page(|p| p.text.clone()).unwrap_or_default()
}

/// `performance.now()` when the first screen had been drawn.
#[wasm_bindgen(js_name = parlorFirstDrawMs)]
pub fn parlor_first_draw_ms() -> f64 {
    with_page(|p| p.first_draw_ms).unwrap_or(f64::NAN)
}

/// Milliseconds from the last key's `keydown` to the end of the redraw it caused.
#[wasm_bindgen(js_name = parlorFrameMs)]
pub fn parlor_frame_ms() -> f64 {
    with_page(|p| p.frame_ms).unwrap_or(f64::NAN)
}

/// The centre of a cell in page coordinates (CSS pixels): `{x, y}`.
#[wasm_bindgen(js_name = parlorCellAt)]
pub fn parlor_cell_at(col: u16, row: u16) -> JsValue {
    let (cw, ch) = with_page(|p| p.screen.cell_css()).unwrap_or((0.0, 0.0));
    let (ox, oy) = grid_origin();
    let (sx, sy) = web_sys::window()
        .map(|w| (w.scroll_x().unwrap_or(0.0), w.scroll_y().unwrap_or(0.0)))
        .unwrap_or((0.0, 0.0));
    let out = js_sys::Object::new();
    let x = ox + sx + (f64::from(col) + 0.5) * cw;
    let y = oy + sy + (f64::from(row) + 0.5) * ch;
    let _ = js_sys::Reflect::set(&out, &"x".into(), &x.into());
    let _ = js_sys::Reflect::set(&out, &"y".into(), &y.into());
    out.into()
}

/// The whole store and the settings as one JSON text.
#[wasm_bindgen(js_name = parlorExport)]
pub fn parlor_export() -> String {
    with_page(|p| p.store.export()).unwrap_or_default()
}

/// Imports a store text: what was imported, or why it was refused (then nothing changes). The menu shows the
/// imported store.
#[wasm_bindgen(js_name = parlorImport)]
pub fn parlor_import(text: &str) -> String {
    with_page(|p| match p.store.import(text) {
        Ok(said) => {
            p.app = build_app(
                p.store.clone(),
                p.persist.clone(),
                Some(format!("Import: {said}.")),
            );
            p.redraw();
            said
        }
        Err(why) => why,
    })
    .unwrap_or_else(|| "refused: the page has not started".into())
}

/// Milliseconds for one run of a fixed engine workload (`twenty48-slides`, `nocca-perft6`,
/// `mastermind-optimal`); NaN for an unknown name.
#[wasm_bindgen(js_name = parlorBench)]
pub fn parlor_bench(name: &str) -> f64 {
    let t = performance_now();
    match crate::bench::run(name) {
        Some(result) => {
            let ms = performance_now() - t;
            web_sys::console::log_1(
                &format!("parlorBench {name}: {ms:.1} ms (result {result})").into(),
            );
            ms
        }
        None => f64::NAN,
    }
}

/// Presses a key by its browser name, as a `keydown` would (for the crate's browser tests).
#[wasm_bindgen(js_name = parlorPress)]
pub fn parlor_press(key: &str) -> bool {
    match key_event(key, Held::default()) {
        Some(k) => with_page(|p| p.key(k, performance_now())).is_some(),
        None => false,
    }
}
