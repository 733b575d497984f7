//! The application: `draw` paints the top screen (or the help overlay, or the "too small" notice), `handle_event`
//! routes one event, `tick` runs the top screen's periodic work; `run` (terminal) is the crossterm loop around them.
//! A web front end calls the same three from its own loop.

use super::keys::is_interrupt;
use super::launch::Launch;
use super::layout::{draw_help, draw_too_small, help_page, screen_area};
use super::theme::{Theme, ThemeName};
use super::{Ctx, Transition, View};
use crate::input::{Event, KeyCode, KeyEventKind, MouseEventKind};
use crate::settings::{Keeper, Settings};
use crate::storage::Storage;
use ratatui::Frame;
#[cfg(feature = "terminal")]
use ratatui::{Terminal, backend::Backend};
#[cfg(feature = "terminal")]
use std::sync::Arc;
#[cfg(feature = "terminal")]
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long keys are still refused once the board shows again after a "too small" screen. A pseudo-terminal hands
/// typed bytes on asynchronously, so a resize (a signal) can overtake keys typed before it while the board was
/// hidden; nobody can react to the board coming back this fast, so a key this early was typed blind.
pub const BLIND_GRACE: Duration = Duration::from_millis(200);

/// Now, on the installed monotonic clock (milliseconds).
fn now_ms() -> u64 {
    crate::host::clock().monotonic_ms()
}

/// The context screens get, borrowed from the app's fields (a macro, so the stack can be borrowed beside it).
macro_rules! context {
    ($app:ident) => {
        Ctx {
            store: &mut *$app.store,
            theme: $app.theme,
            seed: &mut $app.seed,
            games: &$app.games,
            notice: &mut $app.notice,
            animations: $app.animations && $app.settings.animations(),
            settings: &mut $app.settings,
            keeper: $app.keeper.as_deref(),
            contexts: &$app.contexts,
            reviews: &mut $app.reviews,
        }
    };
}

/// The full-screen application: a stack of screens over the database.
pub struct App {
    stack: Vec<Box<dyn View>>,
    store: Box<dyn Storage>,
    theme: Theme,
    seed: Option<u64>,
    games: Vec<&'static dyn Launch>,
    notice: Option<String>,
    help_open: bool,
    help_scroll: u16,
    /// The rows of the terminal the help was last drawn on (a page of PageUp and PageDown).
    help_rows: u16,
    running: bool,
    settings: Settings,
    /// Every game's context, which the sessions started here play in.
    contexts: crate::mid::Contexts,
    keeper: Option<Box<dyn Keeper>>,
    /// The theme the settings named when the theme was last chosen (a change on the settings screen applies).
    theme_setting: ThemeName,
    /// What says whether the background is light, for the `auto` theme (`COLORFGBG`'s `fg;bg`), when the front end
    /// knows better than the environment (the page: the browser's `prefers-color-scheme`).
    colorfgbg: Option<String>,
    /// The last frame was too small for the screen: it takes no key but quit and help until it fits again.
    too_small: bool,
    /// Until when (monotonic milliseconds) keys are still refused after the board showed again (see
    /// [`BLIND_GRACE`]).
    blind_until: Option<u64>,
    /// Whether moves are animated (on unless `--no-animation`).
    animations: bool,
    /// The reviews going on for screens that were closed, polled at each tick and kept once done.
    reviews: crate::mid::coach::Reviews,
}

impl App {
    /// An application showing `first`.
    pub fn new(
        first: Box<dyn View>,
        store: impl Storage + 'static,
        theme: Theme,
        games: Vec<&'static dyn Launch>,
    ) -> App {
        App::with_stack(vec![first], store, theme, games)
    }

    /// An application showing the last of `stack`, with the others below it.
    pub fn with_stack(
        stack: Vec<Box<dyn View>>,
        store: impl Storage + 'static,
        theme: Theme,
        games: Vec<&'static dyn Launch>,
    ) -> App {
        let settings = Settings::new(&super::launch::catalog(&games));
        App {
            stack,
            store: Box::new(store),
            theme,
            seed: None,
            games,
            notice: None,
            help_open: false,
            help_scroll: 0,
            help_rows: 24,
            running: true,
            settings,
            contexts: crate::mid::Contexts::default(),
            keeper: None,
            theme_setting: ThemeName::Auto,
            colorfgbg: None,
            too_small: false,
            blind_until: None,
            animations: true,
            reviews: crate::mid::coach::Reviews::default(),
        }
    }

    /// Uses these settings, saved by `keeper` when the settings screen changes them (their theme is already in the
    /// app's theme, unless `--theme` chose another for this run). Remapped keys take effect at once.
    pub fn set_settings(&mut self, settings: Settings, keeper: Option<Box<dyn Keeper>>) {
        crate::tui::keys::set_keymap(settings.keys());
        self.theme_setting = settings.theme();
        self.settings = settings;
        self.keeper = keeper;
    }

    /// Plays the games in these contexts (the program's top makes them from the data directory).
    pub fn set_contexts(&mut self, contexts: crate::mid::Contexts) {
        self.contexts = contexts;
    }

    /// The settings (for tests).
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The theme in use (for tests).
    pub fn theme(&self) -> Theme {
        self.theme
    }

    /// After an event: a theme chosen on the settings screen replaces the one in use, and remapped keys apply.
    fn follow_settings(&mut self) {
        let named = self.settings.theme();
        if named != self.theme_setting {
            self.theme_setting = named;
            let colorfgbg = self
                .colorfgbg
                .clone()
                .or_else(|| std::env::var("COLORFGBG").ok());
            self.theme = Theme::new(named, self.theme.depth, colorfgbg.as_deref());
        }
    }

    /// Tells the `auto` theme whether the background is light, as `COLORFGBG` would (`"0;15"`: light), when the
    /// theme setting changes later; the page gives the browser's `prefers-color-scheme`.
    pub fn set_background_hint(&mut self, colorfgbg: Option<String>) {
        self.colorfgbg = colorfgbg;
    }

    /// Sets the seed of the first new game (`--seed`).
    pub fn set_seed(&mut self, seed: Option<u64>) {
        self.seed = seed;
    }

    /// Turns the animations on or off (`--no-animation`; on by default).
    pub fn set_animations(&mut self, on: bool) {
        self.animations = on;
    }

    /// The database (for tests).
    pub fn store(&mut self) -> &mut dyn Storage {
        &mut *self.store
    }

    /// Whether the application is still running.
    pub fn running(&self) -> bool {
        self.running
    }

    /// Runs until the player quits or `stop` is raised (SIGTERM, SIGHUP): the terminal's loop.
    #[cfg(feature = "terminal")]
    pub fn run<B: Backend>(
        &mut self,
        terminal: &mut Terminal<B>,
        stop: &Arc<AtomicBool>,
    ) -> anyhow::Result<()>
    where
        B::Error: Send + Sync + 'static,
    {
        use crossterm::event;
        use std::time::Instant;
        let mut last_tick = Instant::now();
        self.start();
        while self.running {
            // One event, then a frame: "too small" is decided by the size last drawn.
            let was_too_small = self.too_small;
            terminal.draw(|f| self.draw(f))?;
            if was_too_small && !self.too_small {
                self.shown_again();
            }
            let tick = self.tick_ms();
            let wait = Duration::from_millis(tick).saturating_sub(last_tick.elapsed());
            if event::poll(wait.min(Duration::from_millis(250)))? {
                let ev = event::read()?;
                self.handle_event(Event::from(ev));
            }
            if last_tick.elapsed() >= Duration::from_millis(tick) {
                last_tick = Instant::now();
                self.tick();
            }
            if stop.load(Ordering::Relaxed) {
                self.quit();
            }
            if super::terminal::suspend_if_asked()? {
                // Back from a suspend: the terminal may show anything. It is cleared, and the buffer of what is
                // on it emptied (no cursor query: `Terminal::clear` asks the terminal where its cursor is), so the
                // next frame draws everything.
                terminal.backend_mut().clear()?;
                terminal.swap_buffers();
            }
        }
        Ok(())
    }

    /// Notes that the board shows again after a frame too small for it: keys typed before are refused for
    /// [`BLIND_GRACE`]. `App::run` calls it; a front end with its own loop calls it when a frame fits again.
    pub fn shown_again(&mut self) {
        self.blind_until = Some(now_ms() + BLIND_GRACE.as_millis() as u64);
    }

    /// Lets the top screen load what it shows (called once by `App::run`; tests call it directly).
    pub fn start(&mut self) {
        let t = self.with_top(|view, ctx| {
            view.resumed(ctx);
            Transition::Stay
        });
        self.apply(t);
    }

    /// Draws the current screen, centred (see [`screen_area`]); if it does not fit, the "too small" notice, and
    /// until the next frame that fits, no key but quit and help is taken.
    pub fn draw(&mut self, frame: &mut Frame) {
        let area = frame.area();
        let theme = self.theme;
        let Some(view) = self.stack.last_mut() else {
            return;
        };
        let (w, h) = view.min_size();
        self.too_small = area.width < w || area.height < h;
        if self.too_small && !self.help_open {
            draw_too_small(frame, area, (w, h), &theme);
            theme.paint_base(frame.buffer_mut());
            return;
        }
        if !self.too_small {
            view.draw(frame, screen_area(area), &theme);
        }
        if self.help_open {
            self.help_rows = area.height;
            self.help_scroll = draw_help(frame, area, &view.help(), self.help_scroll, &theme);
        }
        theme.paint_base(frame.buffer_mut());
    }

    /// Which screen shows: the same number while the same view is on top of the same stack, another when a
    /// view is opened, closed or replaced (the page's backend keeps a screen's rows for when it shows again).
    /// Two views alive at once never share it; a view made after another was dropped may take its number.
    pub fn screen_id(&self) -> u64 {
        let top = self.stack.last().map_or(0, |v| {
            std::ptr::from_ref::<dyn View>(v.as_ref()).cast::<u8>() as usize
        });
        (top as u64) ^ ((self.stack.len() as u64) << 48)
    }

    /// Draws the current screen with its help over it, as `?` shows it, and leaves the help as it was (open or not,
    /// and where it was scrolled): for drawing the help ahead of time, as the page does while idle.
    pub fn draw_with_help(&mut self, frame: &mut Frame) {
        let (open, scroll) = (self.help_open, self.help_scroll);
        self.help_open = true;
        self.help_scroll = 0;
        self.draw(frame);
        (self.help_open, self.help_scroll) = (open, scroll);
    }

    /// Makes ahead, in idle time, the screen the next likely key opens from the top one ([`View::prepare`]: the
    /// menu's Enter on its selected item, a setup's Enter, the end screen's new-game key), writing nothing. The
    /// menu's key then opens that very screen (its [`App::screen_id`] is the one [`App::draw_prepared`] gives); a
    /// new game's key starts the real game, whose first screen draws as the one prepared (another screen id).
    /// Nothing while the help shows or the screen does not fit. Returns whether a screen is prepared.
    pub fn prepare(&mut self) -> bool {
        if self.help_open || self.too_small {
            return false;
        }
        let mut ctx = context!(self);
        self.stack
            .last_mut()
            .is_some_and(|view| view.prepare(&mut ctx))
    }

    /// Draws the screen prepared by [`App::prepare`] as the frame after its key will show it (the help closed),
    /// and returns the screen id it will have then; `None` (nothing drawn) when none is prepared or it would not
    /// fit.
    pub fn draw_prepared(&mut self, frame: &mut Frame) -> Option<u64> {
        if self.help_open {
            return None;
        }
        let depth = self.stack.len() as u64 + 1;
        let view = self.stack.last_mut()?.prepared()?;
        let area = frame.area();
        let (w, h) = view.min_size();
        if area.width < w || area.height < h {
            return None;
        }
        view.draw(frame, screen_area(area), &self.theme);
        self.theme.paint_base(frame.buffer_mut());
        let top = std::ptr::from_ref::<dyn View>(view).cast::<u8>() as usize;
        Some((top as u64) ^ (depth << 48))
    }

    /// Whether the last frame was too small for its screen, or the board showed again only just now: keys other
    /// than quit and help are refused.
    pub fn too_small(&self) -> bool {
        self.too_small || self.blind_until.is_some_and(|t| now_ms() < t)
    }

    /// Handles one terminal event. Only key presses count (not releases or repeats' releases); a resize just leads
    /// to the next redraw. While the last frame was too small, only quit (`q`, Esc,
    /// Ctrl-C, saving) and help (`?`) are taken: nothing is played blind.
    pub fn handle_event(&mut self, ev: Event) {
        match ev {
            Event::Key(key) if key.kind == KeyEventKind::Press => {
                if is_interrupt(&key) {
                    self.quit();
                    return;
                }
                #[cfg(feature = "terminal")]
                if super::terminal::is_suspend(&key) {
                    super::terminal::request_suspend();
                    return;
                }
                if self.help_open {
                    match key.code {
                        KeyCode::Char('?') | KeyCode::Esc | KeyCode::Char('q') => {
                            self.help_open = false
                        }
                        KeyCode::Up | KeyCode::Char('k') | KeyCode::Char('w') => {
                            self.help_scroll = self.help_scroll.saturating_sub(1)
                        }
                        KeyCode::Down
                        | KeyCode::Char('j')
                        | KeyCode::Char('s')
                        | KeyCode::Char(' ') => {
                            self.help_scroll = self.help_scroll.saturating_add(1)
                        }
                        KeyCode::PageUp => {
                            self.help_scroll =
                                self.help_scroll.saturating_sub(help_page(self.help_rows))
                        }
                        KeyCode::PageDown => {
                            self.help_scroll =
                                self.help_scroll.saturating_add(help_page(self.help_rows))
                        }
                        KeyCode::Home => self.help_scroll = 0,
                        // Drawing clamps it to the last page.
                        KeyCode::End => self.help_scroll = u16::MAX,
                        _ => {}
                    }
                    return;
                }
                if key.code == KeyCode::F(12) && std::env::var_os("PARLOR_TEST_PANIC").is_some() {
                    // Test hook: lets the end-to-end tests check that a panic restores the terminal.
                    test_panic();
                }
                if key.code == KeyCode::Char('?') {
                    self.help_open = true;
                    self.help_scroll = 0;
                    return;
                }
                let back = matches!(
                    key.code,
                    KeyCode::Char('q') | KeyCode::Char('Q') | KeyCode::Esc
                );
                if self.too_small {
                    if back {
                        self.quit();
                    }
                    return;
                }
                if self.too_small() && !back {
                    // The board has only just come back: only the way back (as the screen shows it) is taken.
                    return;
                }
                let t = self.with_top(|view, ctx| view.handle_key(key, ctx));
                self.apply(t);
            }
            Event::Mouse(m) if self.help_open => match m.kind {
                // The wheel scrolls the help.
                MouseEventKind::ScrollUp => self.help_scroll = self.help_scroll.saturating_sub(1),
                MouseEventKind::ScrollDown => self.help_scroll = self.help_scroll.saturating_add(1),
                _ => {}
            },
            Event::Mouse(m) if !self.too_small() => {
                let t = self.with_top(|view, ctx| view.handle_mouse(m, ctx));
                self.apply(t);
            }
            _ => {}
        }
    }

    /// How often (milliseconds) the top screen wants [`App::tick`]: its [`View::tick_ms`], else 250 (a front end
    /// with its own loop ticks at this pace, as `App::run` does).
    pub fn tick_ms(&self) -> u64 {
        self.stack.last().and_then(|v| v.tick_ms()).unwrap_or(250)
    }

    /// Runs the top screen's periodic work once (autoplay, replays), as the event loop does when idle, and collects
    /// the reviews going on for closed screens.
    pub fn tick(&mut self) {
        if !self.reviews.is_empty() {
            self.reviews.poll(&*self.store);
        }
        if !self.help_open {
            let t = self.with_top(|view, ctx| view.tick(ctx));
            self.apply(t);
        }
    }

    fn with_top(
        &mut self,
        f: impl FnOnce(&mut Box<dyn View>, &mut Ctx) -> Transition,
    ) -> Transition {
        let mut ctx = context!(self);
        match self.stack.last_mut() {
            Some(view) => f(view, &mut ctx),
            None => Transition::Quit,
        }
    }

    fn apply(&mut self, t: Transition) {
        self.follow_settings();
        match t {
            Transition::Stay => {}
            Transition::Push(v) => self.stack.push(v),
            Transition::Pop => {
                self.close_top();
                if self.stack.is_empty() {
                    self.running = false;
                } else {
                    let t = self.with_top(|view, ctx| {
                        view.resumed(ctx);
                        Transition::Stay
                    });
                    self.apply(t);
                }
            }
            Transition::Replace(v) => {
                self.close_top();
                self.stack.push(v);
            }
            Transition::Quit => self.quit(),
        }
    }

    /// Takes the top screen off the stack, its review at work, if any, going on in the background.
    fn close_top(&mut self) {
        if let Some(coach) = self.stack.pop().and_then(|mut v| v.left_behind()) {
            self.reviews.keep_on(coach);
        }
    }

    /// What a screen reader should hear about the top screen now ([`View::announce`]; nothing while the help
    /// shows).
    pub fn announce(&self) -> Option<String> {
        if self.help_open {
            return None;
        }
        self.stack.last().and_then(|v| v.announce())
    }

    /// Lets every screen save what it holds, then stops.
    pub fn quit(&mut self) {
        let mut ctx = context!(self);
        for view in self.stack.iter_mut().rev() {
            view.on_quit(&mut ctx);
        }
        self.stack.clear();
        self.running = false;
    }
}

#[cfg(test)]
#[path = "app_core_tests.rs"]
pub(crate) mod core_tests;

/// The end-to-end tests' panic (F12 with `PARLOR_TEST_PANIC` set): it checks that a panic gives the terminal back.
#[allow(clippy::panic)] // the panic is the point, and only the tests ask for it
fn test_panic() -> ! {
    panic!("test panic requested with F12 (PARLOR_TEST_PANIC is set)");
}
