//! The graphical page's shell (wasm32 only): the store, the screen shown (the menu, a game's setup, a game),
//! the page's events (taps through one delegated `click` listener reading `data-act`, form changes, keys, swipes
//! through pointer events) and the `aria-live` line.

use super::history::history_html;
use super::lobby::Lobby;
use super::menu::{menu_html, params, setup_html};
use super::play::{Go, Playing};
use super::puzzle::Puzzling;
use super::replay::Replaying;
use super::review::{Asked, ReviewScreen};
use super::scores::scores_html;
use super::settings::{SettingsScreen, catalog, theme_in_use};
use super::stats::stats_html;
use super::{FACES, Face};
use crate::announce::Announcer;
use crate::store::{Persist, WebKeeper, WebStore};
use parlor::mid::Contexts;
use parlor::mid::coach::Coach;
use parlor::settings::Section;
use parlor::storage::Storage;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The element the faces are drawn in.
const ROOT_ID: &str = "faces";

/// How far a finger may move between press and lift for a tap, in CSS px.
const TAP_SLOP_PX: f64 = 16.0;
/// How long after a tap read from pointer events the browser's own click of it is dropped, in ms.
const TAP_CLICK_MS: f64 = 800.0;

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// What the page shows.
enum View {
    Menu,
    Setup(usize),
    Play(Box<dyn Playing>),
    History,
    Replay(Box<dyn Replaying>),
    /// The best scores of the game at this index.
    Scores(usize),
    /// The statistics of the game at this index.
    Stats(usize),
    Settings,
    /// Parlor online: the connect form, the lobby, a game.
    Online(Box<Lobby>),
    /// A finished game's review, with the end screen it was opened from (Back returns to it).
    Review(Box<Reviewing>),
    /// The puzzles of a review's marked moves, over the review they go back to.
    Puzzle(Box<dyn Puzzling>, Box<Reviewing>),
}

/// The review screen and where it goes back to.
struct Reviewing {
    screen: ReviewScreen,
    /// The game's end screen, when the review was opened from it.
    end: Option<Box<dyn Playing>>,
}

struct Shell {
    store: WebStore,
    contexts: Contexts,
    view: View,
    /// Each game's setup values, as chosen in this visit.
    values: Vec<Vec<(String, String)>>,
    notice: String,
    /// The settings, kept as the terminal face keeps them.
    settings: SettingsScreen,
    announcer: Announcer,
    /// Where a pointer went down: its id, where, and the control it pressed (its `data-act`), if any.
    pointer: Option<(i32, f64, f64, Option<String>)>,
    /// When a pointer last pressed a control (the page's ms): the browser's click that follows is not taken twice.
    pressed_at: f64,
    /// The screen's HTML as last written (the same again is not written).
    written: String,
    /// The reviews of finished games asked for in this visit (being made, ready, or refused), by game number: a
    /// review goes on being made, and is kept with its game, when its screen is left.
    coaches: Vec<(i64, Coach)>,
}

thread_local! {
    static SHELL: RefCell<Option<Shell>> = const { RefCell::new(None) };
}

fn with_shell<T>(f: impl FnOnce(&mut Shell) -> T) -> Option<T> {
    SHELL.with(|s| s.try_borrow_mut().ok()?.as_mut().map(f))
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

impl Shell {
    fn html(&mut self) -> String {
        match &mut self.view {
            View::Menu => menu_html(FACES, &self.store, &self.contexts, &self.notice),
            View::Setup(i) => {
                let face: &dyn Face = FACES[*i];
                let chosen = params(face.any(), &self.values[*i], &self.contexts);
                setup_html(*i, face.any(), &chosen, face.best(&self.store))
            }
            View::Play(p) => p.html(),
            View::History => history_html(FACES, &self.store, &self.notice),
            View::Replay(r) => r.html(),
            View::Scores(i) => scores_html(FACES, *i, &self.store),
            View::Stats(i) => stats_html(FACES, *i, &self.store),
            View::Settings => self.settings.html(),
            View::Online(l) => l.html(),
            View::Review(r) => match self.coaches.iter().find(|(i, _)| *i == r.screen.id) {
                Some((_, c)) => r.screen.html(c),
                None => r
                    .screen
                    .html(&Coach::Failed("the review was not asked for".into())),
            },
            View::Puzzle(p, _) => p.html(),
        }
    }

    /// The review of finished game `id`, started if it was not yet (read back from the store, else made by the
    /// reviewer worker); `None` when the game is not in the history or cannot be reviewed on the page.
    fn coach(&mut self, id: i64) -> Result<&mut Coach, String> {
        if let Some(at) = self.coaches.iter().position(|(i, _)| *i == id) {
            return Ok(&mut self.coaches[at].1);
        }
        let record = match self.store.game(id) {
            Ok(Some(r)) => r,
            Ok(None) => return Err(format!("Game #{id} is not in the history.")),
            Err(e) => return Err(format!("Game #{id} cannot be read: {e:#}")),
        };
        let face = super::find(&record.game)
            .ok_or_else(|| format!("This page cannot review a game of {}", record.game))?;
        let coach = crate::coach::review(face.any(), &record, &self.store);
        self.coaches.push((id, coach));
        let last = self.coaches.len() - 1;
        Ok(&mut self.coaches[last].1)
    }

    /// The end screen's line of the review, once its game is over and recorded: the review is started then, as the
    /// terminal's end box starts it.
    fn end_line(&mut self) {
        let id = match &self.view {
            View::Play(p) => p.recorded(),
            _ => None,
        };
        let line = id.and_then(|id| {
            self.coach(id)
                .ok()
                .map(|c| (c.line(), !matches!(c, Coach::Failed(_))))
        });
        if let View::Play(p) = &mut self.view {
            p.coach(line);
        }
    }

    /// Opens the review of finished game `id`; `end`: the end screen it is opened from.
    fn open_review(&mut self, id: i64, end: Option<Box<dyn Playing>>) {
        let title = self
            .store
            .game(id)
            .ok()
            .flatten()
            .and_then(|r| super::find(&r.game))
            .map_or("", |f| f.any().title());
        match self.coach(id) {
            Ok(_) => {
                self.notice.clear();
                let from_end = end.is_some();
                self.view = View::Review(Box::new(Reviewing {
                    screen: ReviewScreen::new(id, title, from_end),
                    end,
                }));
            }
            Err(why) => {
                self.notice = why;
                self.view = match end {
                    Some(p) => View::Play(p),
                    None => View::History,
                };
            }
        }
    }

    /// What the review screen asked for.
    fn reviewed(&mut self, asked: Asked) {
        let view = std::mem::replace(&mut self.view, View::Menu);
        let View::Review(r) = view else {
            self.view = view;
            return;
        };
        match asked {
            Asked::Stay => self.view = View::Review(r),
            Asked::Menu => self.view = View::Menu,
            Asked::Back => {
                self.view = match r.end {
                    Some(p) => View::Play(p),
                    None => View::History,
                }
            }
            Asked::Learn => {
                let id = r.screen.id;
                let record = self.store.game(id).ok().flatten();
                let review = self
                    .coaches
                    .iter()
                    .find(|(i, _)| *i == id)
                    .and_then(|(_, c)| c.review().cloned());
                let opened = match (record, review) {
                    (Some(record), Some(review)) => match super::find(&record.game) {
                        Some(f) => f.puzzles(&record, &review, &self.store, &self.contexts),
                        None => Err(format!("This page has no board for {}", record.game)),
                    },
                    _ => Err("The review is not ready.".into()),
                };
                match opened {
                    Ok(p) => self.view = View::Puzzle(p, r),
                    Err(why) => {
                        self.notice = why;
                        self.view = View::Review(r);
                    }
                }
            }
        }
    }

    /// The review on the screen, if it is ready.
    fn review_shown(&self) -> Option<parlor::mid::review::Review> {
        let View::Review(r) = &self.view else {
            return None;
        };
        self.coaches
            .iter()
            .find(|(i, _)| *i == r.screen.id)
            .and_then(|(_, c)| c.review().cloned())
    }

    /// Each game's setup values from the settings' defaults for new games.
    fn defaults(&mut self) {
        for (i, values) in self.values.iter_mut().enumerate() {
            *values = self
                .settings
                .settings
                .entries(Section::Game(i))
                .into_iter()
                .map(|(s, v)| (s.key.to_string(), v))
                .collect();
        }
    }

    /// The settings' theme and animations on the page's body (`auto`: the browser's light or dark), the theme in
    /// use also on the root element (`data-theme`) as the terminal face says it, and its background as the
    /// browser's colour around the page (`theme-color`).
    fn dress(&self) {
        let Some(body) = document().and_then(|d| d.body()) else {
            return;
        };
        let s = &self.settings.settings;
        let used = theme_in_use(s.theme(), crate::page::prefs::prefers_light());
        let theme = format!("faces theme-{}", used.as_str());
        let still = if s.animations() { "" } else { " still" };
        let class = format!("{theme}{still}");
        if body.class_name() != class {
            body.set_class_name(&class);
        }
        crate::page::prefs::mark_document(used);
    }

    /// Draws the screen, keeping the focus on the control that had it, and says what changed.
    fn render(&mut self) {
        let Some(doc) = document() else { return };
        let Some(root) = doc.get_element_by_id(ROOT_ID) else {
            return;
        };
        let control = |doc: &web_sys::Document| {
            doc.active_element().and_then(|e| {
                e.get_attribute("data-act")
                    .or_else(|| e.get_attribute("data-set"))
            })
        };
        let focused = control(&doc);
        self.end_line();
        let html = self.html();
        if html != self.written {
            super::morph::write(&doc, &root, &self.written, &html);
            self.written = html;
        }
        // Focused again only when the control lost it (the morph replaced it): focusing lays the page out at once.
        if let Some(act) = focused
            && control(&doc).as_deref() != Some(act.as_str())
        {
            let sel = format!("[data-act=\"{act}\"], [data-set=\"{act}\"]");
            if let Ok(Some(el)) = root.query_selector(&sel)
                && let Ok(el) = el.dyn_into::<web_sys::HtmlElement>()
            {
                let _ = el.focus();
            }
        }
        let line = match &mut self.view {
            View::Play(p) => p.said(),
            View::Menu => Some("Menu".to_string()),
            View::Setup(i) => Some(format!("New game: {}", FACES[*i].any().title())),
            View::History => Some("History".to_string()),
            View::Replay(r) => Some(r.said()),
            View::Scores(i) => Some(format!("Best scores: {}", FACES[*i].any().title())),
            View::Stats(i) => Some(format!("Statistics: {}", FACES[*i].any().title())),
            View::Settings => Some("Settings".to_string()),
            View::Online(l) => l.said(),
            View::Review(r) => Some(match self.coaches.iter().find(|(i, _)| *i == r.screen.id) {
                Some((_, c)) => r.screen.said(c),
                None => "Review".to_string(),
            }),
            View::Puzzle(p, _) => p.said(),
        };
        if let Some(line) = self.announcer.next(line)
            && let Some(el) = doc.get_element_by_id("announce")
        {
            el.set_text_content(Some(&line));
        }
    }

    fn act(&mut self, act: &str) {
        match &mut self.view {
            View::Play(p) if act == "review" => {
                if let Some(id) = p.recorded()
                    && let View::Play(p) = std::mem::replace(&mut self.view, View::Menu)
                {
                    self.open_review(id, Some(p));
                }
            }
            View::Review(_) => {
                let review = self.review_shown();
                if let View::Review(r) = &mut self.view {
                    let asked = r.screen.act(act, review.as_ref());
                    self.reviewed(asked);
                }
            }
            View::Puzzle(p, _) => {
                if p.act(act) == Go::Menu
                    && let View::Puzzle(_, r) = std::mem::replace(&mut self.view, View::Menu)
                {
                    self.view = View::Review(r);
                }
            }
            View::Play(p) => {
                if p.act(act) == Go::Menu {
                    self.view = View::Menu;
                }
            }
            View::Replay(r) => {
                if r.act(act) == Go::Menu {
                    self.view = View::History;
                }
            }
            View::Online(l) => {
                if l.act(act) == Go::Menu {
                    self.view = View::Menu;
                }
            }
            _ if act == "online" => self.view = View::Online(Box::new(open_lobby())),
            _ if act == "menu" => {
                self.notice.clear();
                self.view = View::Menu;
            }
            _ if act == "history" => self.view = View::History,
            _ if act == "settings" => self.view = View::Settings,
            _ => {
                if let Some(i) = face_index(act, "setup:") {
                    self.view = View::Setup(i);
                } else if let Some(i) = face_index(act, "start:") {
                    self.start(i);
                } else if let Some(session) = act.strip_prefix("resume:") {
                    self.resume(session);
                } else if let Some(i) = face_index(act, "scores:") {
                    self.view = View::Scores(i);
                } else if let Some(i) = face_index(act, "stats:") {
                    self.view = View::Stats(i);
                } else if let Some(id) = act
                    .strip_prefix("replay:")
                    .and_then(|i| i.parse::<i64>().ok())
                {
                    self.replay(id);
                } else if let Some(id) = act
                    .strip_prefix("review:")
                    .and_then(|i| i.parse::<i64>().ok())
                {
                    self.open_review(id, None);
                }
            }
        }
        self.render();
    }

    fn start(&mut self, i: usize) {
        let face = FACES[i];
        let chosen = params(face.any(), &self.values[i], &self.contexts);
        let seed = crate::page::url_param("seed").and_then(|s| s.trim().parse().ok());
        match face.start(&chosen.json, seed, &self.store, &self.contexts) {
            Ok(p) => self.view = View::Play(p),
            Err(e) => self.notice = format!("No new game: {e}"),
        }
    }

    fn resume(&mut self, session: &str) {
        let saved = self.store.unfinished(None).unwrap_or_default();
        let Some(s) = saved.iter().find(|s| s.session == session) else {
            self.notice = "That game is no longer in progress.".into();
            return;
        };
        match super::find(&s.game).map(|f| f.resume(s, &self.store, &self.contexts)) {
            Some(Ok(p)) => self.view = View::Play(p),
            Some(Err(e)) => self.notice = format!("Cannot continue it: {e}"),
            None => self.notice = format!("No face for the game {}", s.game),
        }
    }

    /// Opens the replay of the finished game `id`, or says why not.
    fn replay(&mut self, id: i64) {
        let games = self
            .store
            .history(None, super::history::SHOWN)
            .map(|h| h.games)
            .unwrap_or_default();
        let Some(r) = games.iter().find(|r| r.id == id) else {
            self.notice = format!("Game #{id} is no longer in the history.");
            return;
        };
        match super::find(&r.game).map(|f| f.replay(r)) {
            Some(Ok(p)) => {
                self.notice.clear();
                self.view = View::Replay(p);
            }
            Some(Err(e)) => self.notice = e,
            None => self.notice = format!("This page cannot replay a game of {}", r.game),
        }
    }

    fn set(&mut self, key: &str, value: &str) {
        if let View::Online(l) = &mut self.view
            && !l.set(key, value)
        {
            return;
        }
        if let View::Settings = self.view
            && let Some(row) = key.strip_prefix("row:").and_then(|r| r.parse().ok())
        {
            self.settings.set(row, value);
            self.defaults();
            self.dress();
        }
        if let View::Setup(i) = self.view {
            let values = &mut self.values[i];
            values.retain(|(k, _)| k != key);
            values.push((key.to_string(), value.to_string()));
            let chosen = params(FACES[i].any(), values, &self.contexts);
            *values = chosen
                .values
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
        }
        self.render();
    }

    /// A key; `true` if the page took it (its default is prevented).
    fn key(&mut self, key: &str) -> bool {
        let took = match &mut self.view {
            View::Play(p) if key == "c" && p.recorded().is_some() => {
                self.act("review");
                return true;
            }
            View::Review(_) => {
                let review = self.review_shown();
                if let View::Review(r) = &mut self.view {
                    let asked = r.screen.key(key, review.as_ref());
                    self.reviewed(asked);
                }
                true
            }
            View::Puzzle(p, _) => {
                if p.key(key) == Go::Menu
                    && let View::Puzzle(_, r) = std::mem::replace(&mut self.view, View::Menu)
                {
                    self.view = View::Review(r);
                }
                true
            }
            View::Play(p) => {
                if p.key(key) == Go::Menu {
                    self.view = View::Menu;
                }
                true
            }
            View::Setup(i) => match key {
                "Enter" => {
                    let i = *i;
                    self.start(i);
                    true
                }
                "Escape" | "q" => {
                    self.view = View::Menu;
                    true
                }
                _ => false,
            },
            View::Replay(r) => {
                if r.key(key) == Go::Menu {
                    self.view = View::History;
                }
                true
            }
            View::History | View::Scores(_) | View::Stats(_) | View::Settings => {
                if matches!(key, "Escape" | "q") {
                    self.view = View::Menu;
                    true
                } else {
                    false
                }
            }
            View::Online(l) => match l.key(key) {
                Some(Go::Menu) => {
                    self.view = View::Menu;
                    true
                }
                Some(Go::Stay) => true,
                None => false,
            },
            View::Menu => false,
        };
        if took {
            self.render();
        }
        took
    }

    fn tick(&mut self) {
        // Every review being made is collected (and kept with its game) once done, whatever the screen shown.
        let mut changed = false;
        for (_, c) in &mut self.coaches {
            changed |= c.poll(&self.store);
        }
        let working = self.coaches.iter().any(|(_, c)| c.working());
        let shows_coach = match &self.view {
            View::Review(_) => true,
            View::Play(p) => p.recorded().is_some(),
            _ => false,
        };
        if shows_coach && (changed || working) {
            self.render();
        }
        if let View::Puzzle(p, _) = &mut self.view
            && p.busy()
            && p.tick()
        {
            self.render();
        }
        if let View::Online(l) = &mut self.view
            && l.tick(crate::online::browser_offline())
        {
            self.render();
        }
        if let View::Play(p) = &mut self.view
            && p.busy()
            && p.tick()
        {
            self.render();
        }
    }
}

/// The key name a swipe's direction stands for.
fn swipe_key(code: parlor::input::KeyCode) -> Option<&'static str> {
    use parlor::input::KeyCode;
    Some(match code {
        KeyCode::Left => "ArrowLeft",
        KeyCode::Right => "ArrowRight",
        KeyCode::Up => "ArrowUp",
        KeyCode::Down => "ArrowDown",
        _ => return None,
    })
}

fn listen<E: wasm_bindgen::convert::FromWasmAbi + 'static>(
    target: &web_sys::EventTarget,
    kind: &str,
    f: impl FnMut(E) + 'static,
) -> Result<(), JsValue> {
    let closure = Closure::<dyn FnMut(E)>::new(f);
    target.add_event_listener_with_callback(kind, closure.as_ref().unchecked_ref())?;
    closure.forget();
    Ok(())
}

/// The element an event's target is in that carries `attr`, if any.
fn closest(e: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    e.target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()
        .flatten()
}

/// Starts the graphical page: the services, the store, the menu and the events. Returns the face's name.
#[wasm_bindgen(js_name = parlorStartFaces)]
pub fn parlor_start_faces() -> Result<String, JsValue> {
    crate::page::install_services();
    let doc = document().ok_or("no document")?;
    // The page built by scripts/web-build.sh has the stylesheet already (with the first screen, `first`).
    if doc.get_element_by_id("faces-css").is_none() {
        let style = doc.create_element("style")?;
        style.set_text_content(Some(super::CSS));
        doc.head().ok_or("no head")?.append_child(&style)?;
    }
    let root = doc.get_element_by_id(ROOT_ID).ok_or("no #faces element")?;
    let persist: Rc<dyn Persist> = Rc::new(crate::page::LocalStorage);
    let opened = WebStore::open(persist.clone(), js_sys::Date::now() as i64);
    let contexts = super::contexts();
    let settings = SettingsScreen::new(WebKeeper::new(persist), &catalog());
    let mut shell = Shell {
        store: opened.store,
        contexts,
        view: View::Menu,
        values: vec![Vec::new(); FACES.len()],
        notice: opened.notice.unwrap_or_default(),
        settings,
        announcer: Announcer::default(),
        pointer: None,
        pressed_at: f64::NEG_INFINITY,
        written: String::new(),
        coaches: Vec::new(),
    };
    shell.defaults();
    shell.dress();
    SHELL.with(|s| *s.borrow_mut() = Some(shell));
    with_shell(Shell::render);

    // A tap is read from pointer events (a press and a lift on the same control that moved less than a finger's
    // width); the click the browser makes of it afterwards is dropped. Clicks made otherwise (Enter or Space on a
    // focused button) are taken.
    listen(&root, "click", |e: web_sys::MouseEvent| {
        if let Some(el) = closest(&e, "[data-act]")
            && let Some(act) = el.get_attribute("data-act")
        {
            e.prevent_default();
            let now = now_ms();
            let fresh = with_shell(|s| now - s.pressed_at > TAP_CLICK_MS).unwrap_or(false);
            if fresh {
                with_shell(|s| s.act(&act));
            }
        }
    })?;
    listen(&root, "change", |e: web_sys::Event| {
        if let Some((key, value)) = control_value(&e) {
            with_shell(|s| s.set(&key, &value));
        }
    })?;
    // A text field's every keystroke (the online screen's server, name and opponent).
    listen(&root, "input", |e: web_sys::Event| {
        if let Some((key, value)) = control_value(&e) {
            with_shell(|s| s.set(&key, &value));
        }
    })?;
    listen(&root, "pointerdown", |e: web_sys::PointerEvent| {
        let act =
            closest(&e, "[data-act]:not([disabled])").and_then(|el| el.get_attribute("data-act"));
        let swipes = closest(&e, "[data-swipe]").is_some();
        if act.is_some() || swipes {
            let at = (
                e.pointer_id(),
                f64::from(e.client_x()),
                f64::from(e.client_y()),
                act,
            );
            with_shell(|s| s.pointer = Some(at));
        }
    })?;
    listen(&root, "pointercancel", |_: web_sys::PointerEvent| {
        with_shell(|s| s.pointer = None);
    })?;
    let window = web_sys::window().ok_or("no window")?;
    listen(&window, "pointerup", |e: web_sys::PointerEvent| {
        let Some(Some((id, x0, y0, act))) = with_shell(|s| s.pointer.take()) else {
            return;
        };
        if id != e.pointer_id() {
            return;
        }
        let (x1, y1) = (f64::from(e.client_x()), f64::from(e.client_y()));
        if let Some(key) = crate::swipe::direction(x0, y0, x1, y1).and_then(swipe_key) {
            with_shell(|s| s.key(key));
        } else if let Some(act) = act
            && (x1 - x0).hypot(y1 - y0) < TAP_SLOP_PX
        {
            with_shell(|s| {
                s.pressed_at = now_ms();
                s.act(&act);
            });
        }
    })?;
    listen(&doc, "keydown", |e: web_sys::KeyboardEvent| {
        if e.ctrl_key() || e.meta_key() || e.alt_key() {
            return;
        }
        let key = e.key();
        // Tab moves the focus, F-keys are the browser's.
        if key == "Tab" || (key.len() > 1 && key.starts_with('F')) {
            return;
        }
        if let Some(t) = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        {
            let tag = t.tag_name();
            let control = matches!(tag.as_str(), "INPUT" | "SELECT" | "TEXTAREA");
            let pressing = (tag == "BUTTON" || tag == "A") && matches!(key.as_str(), "Enter" | " ");
            if control || pressing {
                return;
            }
        }
        if with_shell(|s| s.key(&key)) == Some(true) {
            e.prevent_default();
        }
    })?;
    // The browser's light or dark changing while the page is open (the system's night mode) is followed at once.
    if let Ok(Some(scheme)) = window.match_media("(prefers-color-scheme: light)") {
        listen(&scheme, "change", |_: web_sys::Event| {
            with_shell(|s| s.dress());
        })?;
    }
    let tick = Closure::<dyn FnMut()>::new(|| {
        with_shell(Shell::tick);
    });
    window.set_interval_with_callback_and_timeout_and_arguments_0(
        tick.as_ref().unchecked_ref(),
        50,
    )?;
    tick.forget();
    Ok("faces".to_string())
}

/// The `data-set` key and value of the select or text field an event came from.
fn control_value(e: &web_sys::Event) -> Option<(String, String)> {
    let el = closest(e, "[data-set]")?;
    let key = el.get_attribute("data-set")?;
    let value = match el.dyn_into::<web_sys::HtmlSelectElement>() {
        Ok(select) => select.value(),
        Err(el) => el.dyn_into::<web_sys::HtmlInputElement>().ok()?.value(),
    };
    Some((key, value))
}

/// The online screen, its server and name prefilled as the terminal face's are, connecting through the page's
/// `WebSocket`.
fn open_lobby() -> Lobby {
    let (server, name) = crate::online::prefilled();
    Lobby::new(
        parlor::registry::online(),
        &server,
        &name,
        Box::new(|server: &str, name: &str| crate::online::open_wire(server, name)),
        super::room_board(),
    )
}

/// The game index after `prefix` in a control's `data-act` (`setup:1`), when it names one of [`FACES`].
fn face_index(act: &str, prefix: &str) -> Option<usize> {
    act.strip_prefix(prefix)
        .and_then(|i| i.parse::<usize>().ok())
        .filter(|&i| i < FACES.len())
}
