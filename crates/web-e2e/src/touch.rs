//! Phones in the browser tests: the viewport and touch of a phone emulated through Chromium's DevTools protocol
//! (chromedriver's `goog/cdp/execute` endpoint: `Emulation.setDeviceMetricsOverride`,
//! `Emulation.setTouchEmulationEnabled`), taps and swipes as WebDriver pointer actions of type "touch", and the
//! page's controls read from the DOM's boxes (their size, overlaps, anything past the viewport).

use crate::{Error, Result, Session};
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, PointerAction, TouchActions};
use serde_json::json;
use std::time::Duration;

/// A control of the page as its box reads: what it is called and where it is (CSS px, the viewport's).
#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    /// Its `data-act` or accessible name.
    pub name: String,
    /// Left, top, width, height.
    pub rect: (f64, f64, f64, f64),
}

/// What the page's layout shows at one size ([`Session::layout`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The viewport's width and height.
    pub viewport: (f64, f64),
    /// The document's scroll width (more than the viewport's width: something overflows sideways).
    pub scroll_width: f64,
    /// The controls a tap can reach (the topmost element at their centre is theirs).
    pub targets: Vec<Target>,
    /// Controls without an accessible name.
    pub unnamed: Vec<String>,
}

impl Session {
    /// Emulates a screen of `width` x `height` CSS px: a phone (touch, device pixel ratio 3) when `phone`, else a
    /// desktop (ratio 1, no touch).
    pub fn emulate(&self, width: u32, height: u32, phone: bool) -> Result<()> {
        self.cdp(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": if phone { 3 } else { 1 },
                    "mobile": phone }),
        )?;
        self.cdp(
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": phone, "maxTouchPoints": if phone { 5 } else { 1 } }),
        )?;
        Ok(())
    }

    /// The centre of the first element matching `selector`, in viewport CSS px; an error if none shows.
    pub fn centre(&self, selector: &str) -> Result<(f64, f64)> {
        let v = self.eval_with(
            "const e = document.querySelector(arguments[0]); if (!e) return null; \
             const r = e.getBoundingClientRect(); if (r.width === 0) return null; \
             return [r.left + r.width / 2, r.top + r.height / 2];",
            vec![selector.into()],
        )?;
        match (v[0].as_f64(), v[1].as_f64()) {
            (Some(x), Some(y)) => Ok((x, y)),
            _ => Err(Error::new(format!(
                "no element {selector} shows on the page"
            ))),
        }
    }

    /// Taps the first element matching `selector` with a finger (touch pointer actions), waiting for it to show.
    pub fn tap(&self, selector: &str) -> Result<()> {
        let deadline = std::time::Instant::now() + crate::session::SCREEN;
        let (x, y) = loop {
            match self.centre(selector) {
                Ok(p) => break p,
                Err(e) if std::time::Instant::now() > deadline => return Err(e),
                Err(_) => std::thread::sleep(Duration::from_millis(50)),
            }
        };
        let actions = TouchActions::new("finger".into())
            .then(PointerAction::MoveTo {
                duration: Some(Duration::ZERO),
                x: x.round(),
                y: y.round(),
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            })
            .then(PointerAction::Pause {
                duration: Duration::from_millis(30),
            })
            .then(PointerAction::Up {
                button: MOUSE_BUTTON_LEFT,
            });
        self.command(
            &format!("tapping {selector}"),
            crate::session::STEP,
            |c| async move {
                c.perform_actions(actions).await?;
                c.release_actions().await
            },
        )
    }

    /// Swipes a finger from `from` by `(dx, dy)` CSS px.
    pub fn swipe(&self, from: (f64, f64), by: (f64, f64)) -> Result<()> {
        let mut actions = TouchActions::new("finger".into())
            .then(PointerAction::MoveTo {
                duration: Some(Duration::ZERO),
                x: from.0.round(),
                y: from.1.round(),
            })
            .then(PointerAction::Down {
                button: MOUSE_BUTTON_LEFT,
            });
        for i in 1..=4 {
            let t = f64::from(i) / 4.0;
            actions = actions.then(PointerAction::MoveTo {
                duration: Some(Duration::from_millis(20)),
                x: (from.0 + by.0 * t).round(),
                y: (from.1 + by.1 * t).round(),
            });
        }
        let actions = actions.then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
        self.command("swiping", crate::session::STEP, |c| async move {
            c.perform_actions(actions).await?;
            c.release_actions().await
        })
    }

    /// The page's layout now: the viewport, the document's width and every control a tap reaches.
    pub fn layout(&self) -> Result<Layout> {
        let v = self.eval(
            "const out = { w: innerWidth, h: innerHeight, sw: document.documentElement.scrollWidth, t: [], u: [] };
             for (const e of document.querySelectorAll('#faces button, #faces a, #faces select, #faces [data-act]')) {
               const r = e.getBoundingClientRect();
               if (r.width === 0 || r.height === 0) continue;
               const name = e.getAttribute('aria-label') || e.textContent.trim() || e.getAttribute('title') || '';
               const id = e.getAttribute('data-act') || e.getAttribute('data-set') || name;
               if (!name && !(e.labels && e.labels.length)) out.u.push(id);
               const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
               const top = document.elementFromPoint(Math.min(Math.max(cx, 0), innerWidth - 1), Math.min(Math.max(cy, 0), innerHeight - 1));
               if (top && (top === e || e.contains(top)) || cy < 0 || cy > innerHeight)
                 out.t.push([id, r.left, r.top, r.width, r.height]);
             }
             return out;",
        )?;
        let num = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        let targets = v["t"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|t| Target {
                        name: t[0].as_str().unwrap_or_default().to_string(),
                        rect: (
                            t[1].as_f64().unwrap_or(f64::NAN),
                            t[2].as_f64().unwrap_or(f64::NAN),
                            t[3].as_f64().unwrap_or(f64::NAN),
                            t[4].as_f64().unwrap_or(f64::NAN),
                        ),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let unnamed = v["u"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|s| s.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        Ok(Layout {
            viewport: (num("w"), num("h")),
            scroll_width: num("sw"),
            targets,
            unnamed,
        })
    }
}

impl Layout {
    /// What is wrong with it, for a screen that must fit the viewport (`scrolls`: one that may scroll down, the
    /// menu): controls under 44 x 44, two controls overlapping, anything past the viewport, controls without a
    /// name. Empty when all is well.
    pub fn faults(&self, scrolls: bool) -> Vec<String> {
        let mut out = Vec::new();
        let (w, h) = self.viewport;
        if self.scroll_width > w + 0.5 {
            out.push(format!(
                "the document is {} px wide in a {w} px viewport",
                self.scroll_width
            ));
        }
        for t in &self.targets {
            let (x, y, tw, th) = t.rect;
            if tw < 44.0 - 0.01 || th < 44.0 - 0.01 {
                out.push(format!("{} is {tw:.1} x {th:.1} px", t.name));
            }
            if x < -0.5 || x + tw > w + 0.5 || (!scrolls && (y < -0.5 || y + th > h + 0.5)) {
                out.push(format!(
                    "{} at {:?} is cut by the {w} x {h} viewport",
                    t.name, t.rect
                ));
            }
        }
        for (i, a) in self.targets.iter().enumerate() {
            for b in &self.targets[i + 1..] {
                let (ax, ay, aw, ah) = a.rect;
                let (bx, by, bw, bh) = b.rect;
                let ox = (ax + aw).min(bx + bw) - ax.max(bx);
                let oy = (ay + ah).min(by + bh) - ay.max(by);
                if ox > 0.5 && oy > 0.5 {
                    out.push(format!("{} and {} overlap", a.name, b.name));
                }
            }
        }
        for u in &self.unnamed {
            out.push(format!("{u} has no accessible name"));
        }
        out
    }
}
