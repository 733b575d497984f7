//! The graphical face's first screen is in the served page (crates/web/src/faces/first.rs, written in by
//! scripts/web-build.sh): loaded with the wasm held back (the page's `fetch` of `.wasm` gated by a script run before
//! the page's own), the menu is drawn, styled and tappable; a tap made then is said to be waiting, and taken once
//! the wasm has started; the live menu the wasm writes is the served one node for node, with no layout shift; and
//! it then works as the menu.

use crate::faces::wait;
use parlor_web_e2e::{Session, site_from_env};
use serde_json::Value;
use std::time::Duration;

/// Run before the page's scripts: the page's `fetch` of a `.wasm` waits until `window.__release()` (the worker's
/// fetches are its own), and the layout shifts not caused by input are summed in `window.__cls`.
const GATE: &str = r#"
(() => {
  const fetch = window.fetch.bind(window);
  let release;
  const gate = new Promise((r) => { release = r; });
  window.__release = () => release();
  window.fetch = (what, options) =>
    String(what && what.url ? what.url : what).endsWith('.wasm') ? gate.then(() => fetch(what, options)) : fetch(what, options);
  window.__cls = 0;
  window.__shifts = [];
  try {
    new PerformanceObserver((l) => {
      for (const e of l.getEntries()) {
        window.__shifts.push([e.value, e.hadRecentInput]);
        if (!e.hadRecentInput) window.__cls += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  } catch (e) {}
})();
"#;

/// The menu's controls as a first visit's page has them: each game's setup, the records, the settings and the
/// terminal face's link.
const MENU: &[&str] = &[
    "[data-act=\"setup:0\"]",
    "[data-act=\"setup:1\"]",
    "[data-act=\"setup:2\"]",
    "[data-act=\"history\"]",
    "[data-act=\"scores:0\"]",
    "[data-act=\"stats:0\"]",
    "[data-act=\"settings\"]",
    "a[href=\"?face=terminal\"]",
];

/// The query the tests load: the graphical face, no service worker (each load is the server's page).
const QUERY: &str = "face=graphic&sw=0";

/// Loads the page again with the wasm held back, and waits for its first screen (10 s at most).
fn load_held(s: &Session) {
    s.eval("setTimeout(() => location.reload(), 0); return true;")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    wait(
        s,
        "the first screen",
        "return document.readyState !== 'loading' && !!document.querySelector('#faces [data-act=\"setup:0\"]');",
    );
}

/// The controls of [`MENU`] that are missing, not drawn or under another element at their centre.
fn unshown(s: &Session) -> Value {
    s.eval_with(
        "return arguments[0].filter((q) => { const e = document.querySelector('#faces ' + q); if (!e) return true; \
           const r = e.getBoundingClientRect(); if (r.width < 44 || r.height < 44) return true; \
           const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2); \
           return !(top === e || e.contains(top)); });",
        vec![MENU.iter().map(|q| Value::from(*q)).collect()],
    )
    .unwrap()
}

#[test]
fn the_first_screen_is_served_drawn_before_the_wasm_and_taken_over_without_a_shift() {
    let Some(site) = site_from_env("first_screen").unwrap() else {
        return;
    };
    let s = Session::start("first_screen", &site, QUERY).unwrap();
    s.fresh_start().unwrap();
    s.emulate(360, 780, true).unwrap();

    // The served HTML holds the menu, each control in it.
    let served = s
        .eval("const x = new XMLHttpRequest(); x.open('GET', '/', false); x.send(); return x.responseText;")
        .unwrap();
    let served = served.as_str().unwrap_or_default();
    let faces = served
        .find("<div id=\"faces\">")
        .expect("the served page has #faces");
    for act in ["setup:0", "setup:1", "setup:2", "history", "settings"] {
        let at = served
            .find(&format!("data-act=\"{act}\""))
            .unwrap_or_else(|| panic!("the served page has no {act} button"));
        assert!(at > faces, "{act} is inside #faces");
    }
    assert!(
        served.contains("<style id=\"faces-css\">") && !served.contains("@PARLOR_"),
        "the faces' stylesheet is in the served page"
    );

    // Before the wasm: the menu drawn, in the faces' style, each control shown where a finger reaches it.
    s.add_init_script(GATE).unwrap();
    load_held(&s);
    assert_eq!(
        s.eval("return window.parlorReady === true;").unwrap(),
        Value::Bool(false),
        "the wasm is held back"
    );
    assert_eq!(unshown(&s), Value::Array(Vec::new()), "controls not shown");
    let look = s
        .eval(
            "const b = document.querySelector('[data-act=\"history\"]'); const cs = getComputedStyle(b); \
             return [document.body.className, cs.minHeight, document.querySelector('#term').offsetHeight];",
        )
        .unwrap();
    assert!(
        look[0]
            .as_str()
            .unwrap_or_default()
            .starts_with("faces theme-"),
        "{look}"
    );
    assert_eq!(look[1], Value::from("44px"), "styled by faces.css: {look}");
    assert_eq!(
        look[2],
        Value::from(0),
        "the terminal's grid is hidden: {look}"
    );
    s.screenshot("-before-the-wasm").unwrap();
    let before = s
        .eval("return document.getElementById('faces').innerHTML;")
        .unwrap();

    // The wasm takes it over: the same nodes, nothing moved, and the menu works.
    s.eval("window.__release(); return true;").unwrap();
    s.wait_ready().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let after = s
        .eval("return document.getElementById('faces').innerHTML;")
        .unwrap();
    assert_eq!(after, before, "the live menu is the served one");
    let cls = s.eval("return [window.__cls, window.__shifts];").unwrap();
    assert_eq!(cls[0].as_f64(), Some(0.0), "layout shifts: {cls}");
    s.tap("[data-act=\"setup:0\"]").unwrap();
    wait(
        &s,
        "the 2048 setup",
        "return !!document.querySelector('[data-act=\"start:0\"]');",
    );
    s.tap("[data-act=\"menu\"]").unwrap();
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"setup:1\"]');",
    );

    // A tap before the wasm is said to be waiting, then taken: Mastermind's setup opens.
    load_held(&s);
    std::thread::sleep(Duration::from_millis(900));
    s.tap("[data-act=\"setup:1\"]").unwrap();
    wait(
        &s,
        "the waiting note",
        "const w = document.getElementById('waiting'); return !w.hidden && /starting/.test(w.textContent);",
    );
    assert_eq!(
        s.eval("return !!document.querySelector('[data-act=\"start:1\"]') || window.parlorReady === true;")
            .unwrap(),
        Value::Bool(false),
        "nothing opened before the wasm"
    );
    s.eval("window.__release(); return true;").unwrap();
    s.wait_ready().unwrap();
    wait(
        &s,
        "the Mastermind setup, from the early tap",
        "return !!document.querySelector('[data-act=\"start:1\"]') && document.getElementById('waiting').hidden;",
    );

    // The terminal face shows its grid, not the first screen (the wasm let through at once).
    s.eval("setTimeout(() => { location.search = '?face=terminal&sw=0'; }, 0); return true;")
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    wait(
        &s,
        "the terminal face's page",
        "if (!/terminal/.test(location.search) || !window.__release) return false; window.__release(); return true;",
    );
    s.wait_ready().unwrap();
    let hidden = s
        .eval("return [document.body.classList.contains('faces'), document.getElementById('faces').offsetHeight, document.querySelector('#term').offsetHeight > 0];")
        .unwrap();
    assert_eq!(
        hidden,
        serde_json::json!([false, 0, true]),
        "the terminal face"
    );
}
