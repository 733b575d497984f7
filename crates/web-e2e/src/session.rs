//! One browser session on one served page: open it, wait for it, press keys, click and drag on its cells, read its
//! screen and `#announce` line, reload it, and keep screenshots.
//!
//! The session is synchronous (each WebDriver command runs to its end on a runtime of its own, within a time limit),
//! so that tests read as the steps a player takes. Sessions take turns: a few Chromiums run at once, however many
//! tests run in parallel ([`crate::turns`]; a test of two players holds a second one in its turn: [`Session::beside`]).

use crate::chrome::{self, Driver};
use crate::{Error, Result, Server};
use fantoccini::actions::{
    InputSource, KeyAction, KeyActions, MOUSE_BUTTON_LEFT, MouseActions, PointerAction,
    TouchActions,
};
use fantoccini::key::Key;
use fantoccini::wd::TimeoutConfiguration;
use serde_json::Value;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long one WebDriver command may take (a navigation, a script, an action).
pub const STEP: Duration = Duration::from_secs(30);
/// How long a page may take to set `window.parlorReady`.
pub const READY: Duration = Duration::from_secs(30);
/// How long a screen may take to show what a test waits for, by default.
pub const SCREEN: Duration = Duration::from_secs(10);
/// How long one `parlorBench` workload may run.
pub const BENCH: Duration = Duration::from_secs(600);

/// A page open in headless Chromium; dropping it ends the WebDriver session and stops chromedriver and Chromium.
pub struct Session {
    client: Option<fantoccini::Client>,
    driver: Option<Driver>,
    rt: tokio::runtime::Runtime,
    server: Server,
    name: String,
    started: Instant,
    profile: tempfile::TempDir,
    /// The turn this session holds (none for a second page of the same test: [`Session::beside`]).
    _turn: Option<crate::turns::Turn>,
}

/// A cell's centre in CSS pixels of the viewport.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// From the viewport's left edge.
    pub x: f64,
    /// From the viewport's top edge.
    pub y: f64,
}

impl Session {
    /// Serves `site`, starts chromedriver and a fresh headless Chromium (a new empty profile), and opens the page
    /// with `query` (`""`, or such as `"seed=7"`), waiting for it to be ready. `name` names the screenshots.
    pub fn start(name: &str, site: &Path, query: &str) -> Result<Self> {
        let session = Self::launch(name, site)?;
        session.open(query)?;
        Ok(session)
    }

    /// As [`Session::start`], without opening the page.
    pub fn launch(name: &str, site: &Path) -> Result<Self> {
        let turn = crate::turns::take()?;
        Self::launch_in_turn(name, site, Some(turn))
    }

    /// A second page in a Chromium of its own (its own profile, so its own storage), for a test of two players:
    /// it runs in this session's turn, so a test holds at most two browsers at once. `site` and `query` as in
    /// [`Session::start`].
    pub fn beside(&self, name: &str, site: &Path, query: &str) -> Result<Self> {
        let session = Self::launch_in_turn(name, site, None)?;
        session.open(query)?;
        Ok(session)
    }

    fn launch_in_turn(name: &str, site: &Path, turn: Option<crate::turns::Turn>) -> Result<Self> {
        let server = Server::start(site)
            .map_err(|e| Error::new(format!("serving {}: {e}", site.display())))?;
        let profile = tempfile::Builder::new()
            .prefix("parlor-web-e2e-")
            .tempdir()?;
        let log = profile.path().join("chromedriver.log");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let driver = Driver::start(&log, Duration::from_secs(20))?;
        let user_data = profile.path().join("chromium");
        std::fs::create_dir_all(&user_data)?;
        let caps = chrome::capabilities(&user_data);
        let url = driver.url();
        let connect = async {
            fantoccini::ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps)
                .connect(&url)
                .await
        };
        let client = match rt.block_on(async { tokio::time::timeout(STEP, connect).await }) {
            Ok(Ok(client)) => client,
            Ok(Err(e)) => {
                let said = std::fs::read_to_string(&log).unwrap_or_default();
                return Err(Error::new(format!(
                    "starting Chromium through chromedriver: {e}; chromedriver said: {said}"
                )));
            }
            Err(_) => {
                return Err(Error::new(format!(
                    "waited {STEP:?} for chromedriver to start Chromium"
                )));
            }
        };
        let session = Self {
            client: Some(client),
            driver: Some(driver),
            rt,
            server,
            name: name.to_string(),
            started: Instant::now(),
            profile,
            _turn: turn,
        };
        session.command("setting the script timeout", STEP, |c| async move {
            c.update_timeouts(TimeoutConfiguration::new(
                Some(BENCH),
                Some(STEP),
                Some(Duration::ZERO),
            ))
            .await
        })?;
        Ok(session)
    }

    /// The test's name, which names its screenshots.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The static server in front of the page (its address, the requests it answered).
    pub fn server(&self) -> &Server {
        &self.server
    }

    /// The temporary folder holding Chromium's profile and chromedriver's log.
    pub fn profile_dir(&self) -> &Path {
        self.profile.path()
    }

    fn client(&self) -> Result<fantoccini::Client> {
        self.client
            .clone()
            .ok_or_else(|| Error::new("the WebDriver session is closed"))
    }

    /// Runs one WebDriver command within `limit`, saying `what` it was when it fails or runs out of time.
    pub(crate) fn command<T, F, Fut>(&self, what: &str, limit: Duration, f: F) -> Result<T>
    where
        F: FnOnce(fantoccini::Client) -> Fut,
        Fut: Future<Output = std::result::Result<T, fantoccini::error::CmdError>>,
    {
        let client = self.client()?;
        match self
            .rt
            .block_on(async { tokio::time::timeout(limit, f(client)).await })
        {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(Error::from(e).context(what)),
            Err(_) => Err(Error::new(format!("{what}: no answer within {limit:?}"))),
        }
    }

    /// Navigates to the page with `query` and waits until `window.parlorReady === true`.
    ///
    /// The page's default face is graphical; a query that names no `face=` opens the terminal face
    /// (`face=terminal`), which the tests written for the character grid read.
    pub fn open(&self, query: &str) -> Result<()> {
        let query = if query.contains("face=") {
            query.to_string()
        } else if query.is_empty() {
            "face=terminal".to_string()
        } else {
            format!("face=terminal&{}", query.trim_start_matches('?'))
        };
        let url = self.server.url(&query);
        self.command(&format!("opening {url}"), STEP, |c| async move {
            c.goto(&url).await
        })?;
        self.wait_ready()
    }

    /// Reloads the page and waits until it is ready again.
    pub fn reload(&self) -> Result<()> {
        self.command(
            "reloading the page",
            STEP,
            |c| async move { c.refresh().await },
        )?;
        self.wait_ready()
    }

    /// Empties the page's `localStorage` and reloads: a fresh start.
    pub fn fresh_start(&self) -> Result<()> {
        self.eval("localStorage.clear(); return true;")?;
        self.reload()
    }

    /// Waits (at most [`READY`]) until `window.parlorReady === true`.
    pub fn wait_ready(&self) -> Result<()> {
        let deadline = Instant::now() + READY;
        loop {
            // A page still loading may fail the script; that is "not ready yet" until the deadline.
            if let Ok(Value::Bool(true)) = self.eval("return window.parlorReady === true;") {
                return Ok(());
            }
            if Instant::now() > deadline {
                let body = self
                    .eval("return document.body ? document.body.innerText.slice(0, 400) : '(no body)';")
                    .unwrap_or(Value::Null);
                return Err(Error::new(format!(
                    "waited {READY:?} for window.parlorReady === true; the page's text was: {body}"
                )));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Runs `script` (a function body: `return ...;`) in the page and gives back what it returned.
    pub fn eval(&self, script: &str) -> Result<Value> {
        self.eval_with(script, Vec::new())
    }

    /// Runs `script` with `arguments` in the page (within [`STEP`]).
    pub fn eval_with(&self, script: &str, args: Vec<Value>) -> Result<Value> {
        self.eval_within(script, args, STEP)
    }

    fn eval_within(&self, script: &str, args: Vec<Value>, limit: Duration) -> Result<Value> {
        let short: String = script.chars().take(80).collect();
        let script = script.to_string();
        self.command(&format!("running `{short}`"), limit, |c| async move {
            c.execute(&script, args).await
        })
    }

    /// Runs `script` and expects a string back.
    pub fn eval_string(&self, script: &str) -> Result<String> {
        match self.eval(script)? {
            Value::String(s) => Ok(s),
            other => Err(Error::new(format!("`{script}` gave {other}, not a string"))),
        }
    }

    /// Runs `script` and expects a number back.
    pub fn eval_f64(&self, script: &str) -> Result<f64> {
        let value = self.eval(script)?;
        value
            .as_f64()
            .ok_or_else(|| Error::new(format!("`{script}` gave {value}, not a number")))
    }

    /// The whole screen's text (`parlorScreen()`), rows joined by `\n`.
    pub fn screen(&self) -> Result<String> {
        self.eval_string(
            "if (typeof window.parlorScreen !== 'function') { return '(the page has no parlorScreen())'; } \
             return String(window.parlorScreen());",
        )
    }

    /// Waits (at most `limit`) until the screen satisfies `done`, and gives that screen back; when it runs out of time
    /// the error says `what` was waited for and shows the last screen.
    pub fn wait_screen(
        &self,
        what: &str,
        limit: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<String> {
        let deadline = Instant::now() + limit;
        loop {
            let screen = self.screen()?;
            if done(&screen) {
                return Ok(screen);
            }
            if Instant::now() > deadline {
                return Err(Error::new(format!(
                    "waited {limit:?} for {what}; the screen was:\n{screen}"
                )));
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Waits (at most [`SCREEN`]) until the screen shows `text`.
    pub fn wait_text(&self, text: &str) -> Result<String> {
        self.wait_screen(&format!("the screen to show {text:?}"), SCREEN, |s| {
            s.contains(text)
        })
    }

    /// Waits (at most `limit`) until the screen differs from `before`.
    pub fn wait_change(&self, before: &str, limit: Duration) -> Result<String> {
        self.wait_screen("the screen to change", limit, |s| s != before)
    }

    /// The `#announce` line's text (`aria-live="polite"`).
    pub fn announce(&self) -> Result<String> {
        self.eval_string(
            "const a = document.querySelector('#announce'); \
             return a ? a.textContent : '(the page has no #announce)';",
        )
    }

    /// The `#announce` element's `aria-live` attribute, if it has one.
    pub fn announce_live(&self) -> Result<Option<String>> {
        let v = self.eval(
            "const a = document.querySelector('#announce'); return a ? a.getAttribute('aria-live') : null;",
        )?;
        Ok(v.as_str().map(str::to_string))
    }

    /// Types `text`, a key down and up for each character (sent to the focused element, reaching `document`).
    pub fn type_text(&self, text: &str) -> Result<()> {
        self.send_chars(text.chars(), &format!("typing {text:?}"))
    }

    /// Presses named keys one after another (arrows, Enter, Escape, Backspace...).
    pub fn press(&self, keys: &[Key]) -> Result<()> {
        self.send_chars(
            keys.iter().map(|k| char::from(*k)),
            &format!("pressing {keys:?}"),
        )
    }

    fn send_chars(&self, chars: impl Iterator<Item = char>, what: &str) -> Result<()> {
        let mut actions = KeyActions::new("keyboard".into());
        for value in chars {
            actions = actions
                .then(KeyAction::Down { value })
                .then(KeyAction::Up { value });
        }
        self.command(
            what,
            STEP,
            |c| async move { c.perform_actions(actions).await },
        )
    }

    /// Where the centre of terminal cell (`col`, `row`) is in the viewport (`parlorCellAt`, less the scroll).
    pub fn cell_at(&self, col: u16, row: u16) -> Result<Point> {
        let v = self.eval_with(
            "if (typeof window.parlorCellAt !== 'function') { return 'the page has no parlorCellAt()'; } \
             const p = window.parlorCellAt(arguments[0], arguments[1]); \
             if (!p || typeof p.x !== 'number' || typeof p.y !== 'number') { \
               return 'parlorCellAt(' + arguments[0] + ', ' + arguments[1] + ') gave ' + JSON.stringify(p); } \
             return [p.x - window.scrollX, p.y - window.scrollY];",
            vec![col.into(), row.into()],
        )?;
        match v.as_array().map(|a| {
            (
                a.first().and_then(Value::as_f64),
                a.get(1).and_then(Value::as_f64),
            )
        }) {
            Some((Some(x), Some(y))) => Ok(Point { x, y }),
            _ => Err(Error::new(format!("cell ({col}, {row}): {v}"))),
        }
    }

    /// Clicks (left button down and up) on the centre of cell (`col`, `row`) with WebDriver pointer actions.
    pub fn click_cell(&self, col: u16, row: u16) -> Result<()> {
        let p = self.cell_at(col, row)?;
        let actions = MouseActions::new("mouse".into())
            .then(move_to(p, 0))
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.command(
            &format!("clicking cell ({col}, {row})"),
            STEP,
            |c| async move {
                c.perform_actions(actions).await?;
                c.release_actions().await
            },
        )
    }

    /// Drags the mouse with the left button held from one cell's centre to another's, through a few moves.
    pub fn drag_cells(&self, from: (u16, u16), to: (u16, u16)) -> Result<()> {
        let (a, b) = (self.cell_at(from.0, from.1)?, self.cell_at(to.0, to.1)?);
        let mut actions =
            MouseActions::new("mouse".into())
                .then(move_to(a, 0))
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                });
        for step in path(a, b) {
            actions = actions.then(move_to(step, 20));
        }
        let actions = actions.then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
        self.command(
            &format!("dragging from {from:?} to {to:?}"),
            STEP,
            |c| async move {
                c.perform_actions(actions).await?;
                c.release_actions().await
            },
        )
    }

    /// Swipes a finger (touch pointer actions) from one cell's centre to another's.
    pub fn swipe_cells(&self, from: (u16, u16), to: (u16, u16)) -> Result<()> {
        let (a, b) = (self.cell_at(from.0, from.1)?, self.cell_at(to.0, to.1)?);
        let mut actions =
            TouchActions::new("finger".into())
                .then(move_to(a, 0))
                .then(PointerAction::Down {
                    button: MOUSE_BUTTON_LEFT,
                });
        for step in path(a, b) {
            actions = actions.then(move_to(step, 20));
        }
        let actions = actions.then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
        self.command(
            &format!("swiping from {from:?} to {to:?}"),
            STEP,
            |c| async move {
                c.perform_actions(actions).await?;
                c.release_actions().await
            },
        )
    }

    /// Taps a finger (touch pointer actions, no travel) on the centre of cell (`col`, `row`).
    pub fn tap_cell(&self, col: u16, row: u16) -> Result<()> {
        let p = self.cell_at(col, row)?;
        let actions = TouchActions::new("finger".into())
            .then(move_to(p, 0))
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.command(
            &format!("tapping cell ({col}, {row})"),
            STEP,
            |c| async move {
                c.perform_actions(actions).await?;
                c.release_actions().await
            },
        )
    }

    /// Sets the browser window's outer size to `width` x `height` pixels (the page's grid follows its window).
    pub fn resize(&self, width: u32, height: u32) -> Result<()> {
        self.command(
            &format!("resizing the window to {width}x{height}"),
            STEP,
            |c| async move { c.set_window_size(width, height).await },
        )
    }

    /// Takes a screenshot into `target/web-artifacts/<test name><suffix>.png` and gives its path.
    pub fn screenshot(&self, suffix: &str) -> Result<PathBuf> {
        let png = self.command("taking a screenshot", STEP, |c| async move {
            c.screenshot().await
        })?;
        let dir = crate::artifacts_dir();
        std::fs::create_dir_all(&dir)?;
        let file = dir.join(format!("{}{suffix}.png", self.name));
        std::fs::write(&file, png)?;
        Ok(file)
    }

    /// The whole store as JSON text (`parlorExport()`).
    pub fn export(&self) -> Result<String> {
        self.eval_string(
            "if (typeof window.parlorExport !== 'function') { throw new Error('the page has no parlorExport()'); } \
             return String(window.parlorExport());",
        )
    }

    /// Imports `text` (`parlorImport(text)`) and gives back what the page said.
    pub fn import(&self, text: &str) -> Result<String> {
        let v = self.eval_with(
            "if (typeof window.parlorImport !== 'function') { throw new Error('the page has no parlorImport()'); } \
             return String(window.parlorImport(arguments[0]));",
            vec![text.into()],
        )?;
        Ok(v.as_str().unwrap_or_default().to_string())
    }

    /// `parlorFirstDrawMs`: when the first screen had been drawn, in ms after the page's start.
    pub fn first_draw_ms(&self) -> Result<f64> {
        self.eval_f64("return window.parlorFirstDrawMs;")
    }

    /// `parlorFrameMs()`: from the last key's `keydown` to the end of the redraw it caused, in ms.
    pub fn frame_ms(&self) -> Result<f64> {
        self.eval_f64("return window.parlorFrameMs();")
    }

    /// `parlorBench(name)`: milliseconds for one of the page's fixed workloads (at most [`BENCH`]).
    pub fn bench(&self, workload: &str) -> Result<f64> {
        let v = self.eval_within(
            "if (typeof window.parlorBench !== 'function') { return 'the page has no parlorBench()'; } \
             return window.parlorBench(arguments[0]);",
            vec![workload.into()],
            BENCH,
        )?;
        v.as_f64()
            .ok_or_else(|| Error::new(format!("parlorBench({workload:?}) gave {v}, not a number")))
    }
}

/// A DevTools protocol command sent through chromedriver (`POST /session/{id}/goog/cdp/execute`).
#[derive(Debug)]
struct Cdp {
    cmd: String,
    params: Value,
}

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> std::result::Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/goog/cdp/execute",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        let body = serde_json::json!({ "cmd": self.cmd, "params": self.params });
        (http::Method::POST, Some(body.to_string()))
    }
}

impl Session {
    /// Runs the DevTools protocol command `cmd` with `params` (`Page.getInstallabilityErrors`,
    /// `Emulation.setCPUThrottlingRate`, ...) and gives back its result.
    pub fn cdp(&self, cmd: &str, params: Value) -> Result<Value> {
        let command = Cdp {
            cmd: cmd.to_string(),
            params,
        };
        self.command(
            &format!("the DevTools command {cmd}"),
            STEP,
            |c| async move { c.issue_cmd(command).await },
        )
    }

    /// Runs `script` in every document the session opens from now on, before the page's own scripts (a browser
    /// that refuses storage, say).
    pub fn add_init_script(&self, script: &str) -> Result<()> {
        self.cdp(
            "Page.addScriptToEvaluateOnNewDocument",
            serde_json::json!({ "source": script }),
        )
        .map(|_| ())
    }

    /// Emulates a phone's screen of `width` x `height` CSS pixels (device pixel ratio 3, touch on), or with
    /// `None` the desktop window again.
    pub fn emulate_phone(&self, size: Option<(u32, u32)>) -> Result<()> {
        match size {
            Some((width, height)) => {
                self.cdp(
                    "Emulation.setDeviceMetricsOverride",
                    serde_json::json!({
                        "width": width, "height": height, "deviceScaleFactor": 3, "mobile": true,
                    }),
                )?;
                self.cdp(
                    "Emulation.setTouchEmulationEnabled",
                    serde_json::json!({ "enabled": true, "maxTouchPoints": 5 }),
                )?;
            }
            None => {
                self.cdp(
                    "Emulation.clearDeviceMetricsOverride",
                    serde_json::json!({}),
                )?;
                self.cdp(
                    "Emulation.setTouchEmulationEnabled",
                    serde_json::json!({ "enabled": false }),
                )?;
            }
        }
        Ok(())
    }

    /// Stops the static server: from now on the page has no network but what its service worker keeps.
    pub fn stop_server(&self) {
        self.server.stop();
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.rt.block_on(async {
                tokio::time::timeout(Duration::from_secs(5), client.close()).await
            });
        }
        // Kills chromedriver's process group, then the profile folder goes.
        drop(self.driver.take());
        println!(
            "browser session {}: {:.1} s",
            self.name,
            self.started.elapsed().as_secs_f64()
        );
    }
}

fn move_to(p: Point, ms: u64) -> PointerAction {
    PointerAction::MoveTo {
        duration: Some(Duration::from_millis(ms)),
        x: p.x.round(),
        y: p.y.round(),
    }
}

/// Five points from just past `a` to `b`, so that a drag is seen moving.
fn path(a: Point, b: Point) -> Vec<Point> {
    (1..=5)
        .map(|i| {
            let t = f64::from(i) / 5.0;
            Point {
                x: a.x + (b.x - a.x) * t,
                y: a.y + (b.y - a.y) * t,
            }
        })
        .collect()
}
