//! The graphical face's themes in headless Chromium: `prefers-color-scheme` (emulated through the DevTools protocol,
//! `Emulation.setEmulatedMedia`) chooses light or dark while the settings' theme is `auto`, followed at once when it
//! changes; a theme the settings name wins, kept after a reload; the browser's colour around the page (`theme-color`)
//! is the theme's background throughout. On every screen (the menu, each game's setup, play
//! screen, help and end, history, a replay, best scores, statistics and settings), at a phone's size and a desktop's,
//! in light and in dark, every text reads at WCAG AA contrast on what is behind it: 4.5:1, or 3:1 for large text
//! (24 px, or 18.66 px bold).

use crate::faces::{click, faces, finish_a_2048_game, tap_to, wait};
use parlor_web_e2e::Session;
use serde_json::{Value, json};
use std::time::Duration;

/// The browser's `prefers-color-scheme`.
fn scheme(s: &Session, value: &str) {
    s.cdp(
        "Emulation.setEmulatedMedia",
        json!({ "features": [{ "name": "prefers-color-scheme", "value": value }] }),
    )
    .unwrap();
}

/// The theme the page says it shows: the body's class and the root's `data-theme`, which must agree.
fn theme(s: &Session) -> String {
    let v = s
        .eval(
            "const c = [...document.body.classList].find((c) => c.startsWith('theme-')) || ''; \
             return [c.slice(6), document.documentElement.dataset.theme || ''];",
        )
        .unwrap();
    let (class, data) = (
        v[0].as_str().unwrap_or_default(),
        v[1].as_str().unwrap_or_default(),
    );
    assert_eq!(
        class, data,
        "the body's theme class and the root's data-theme"
    );
    class.to_string()
}

/// Every text of the faces whose contrast on the colours behind it is under WCAG AA: the element, its text, the
/// ratio and the ratio needed. Text colours with alpha and opacities are blended over the background found by
/// walking up to the first opaque one; a text over a background image (a gradient) or a disabled control is not
/// measured (WCAG does not ask it of inactive controls).
const CONTRAST: &str = r#"
const rgba = (t) => { const m = t.match(/[\d.]+/g); if (!m) return [0, 0, 0, 0];
  return [+m[0], +m[1], +m[2], m.length > 3 ? +m[3] : 1]; };
const over = (top, under) => { const a = top[3];
  return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]); };
const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const background = (el) => {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const cs = getComputedStyle(e);
    if (cs.backgroundImage !== 'none') return null;
    const c = rgba(cs.backgroundColor);
    if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
  }
  let bg = [255, 255, 255, 1];
  for (let i = layers.length - 1; i >= 0; i--) bg = over(layers[i], bg);
  return bg;
};
const opacity = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= +getComputedStyle(e).opacity; return o; };
const out = [];
let measured = 0;
for (const el of document.querySelectorAll('#faces *')) {
  const own = el.tagName === 'SELECT' ? el.selectedOptions[0]?.textContent || ''
    : [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
  if (!own || el.tagName === 'OPTION') continue;
  if (el.closest(':disabled, [aria-hidden="true"]')) continue;
  const r = el.getBoundingClientRect();
  const cs = getComputedStyle(el);
  if (r.width === 0 || r.height === 0 || cs.visibility === 'hidden' || parseFloat(cs.fontSize) < 1) continue;
  const bg = background(el);
  if (!bg) continue;
  const fg = rgba(cs.color);
  fg[3] *= opacity(el);
  const size = parseFloat(cs.fontSize), bold = +cs.fontWeight >= 700;
  const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
  const got = ratio(over(fg, bg), bg);
  measured++;
  if (got < need) out.push(`${el.tagName.toLowerCase()}.${el.className} "${own.slice(0, 30)}": ${got.toFixed(2)} < ${need}`);
}
return [measured, out];
"#;

/// Checks the contrast of the screen shown.
fn readable(s: &Session, screen: &str, shade: &str, size: (u32, u32)) {
    std::thread::sleep(Duration::from_millis(150));
    let v = s.eval(CONTRAST).unwrap();
    let measured = v[0].as_u64().unwrap_or(0);
    let faults: Vec<String> = v[1]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let shot = s
        .screenshot(&format!("-theme-{shade}-{screen}-{}x{}", size.0, size.1))
        .unwrap();
    assert!(measured > 0, "{screen} in {shade}: no text measured");
    assert!(
        faults.is_empty(),
        "{screen} in {shade} at {}x{} ({}): {faults:#?}",
        size.0,
        size.1,
        shot.display()
    );
}

/// Every screen of the face, its contrast checked.
fn every_screen_reads(s: &Session, shade: &str, size: (u32, u32)) {
    readable(s, "menu", shade, size);
    for (i, game) in ["2048", "mastermind", "nocca"].iter().enumerate() {
        click(s, &format!("setup:{i}"));
        wait(
            s,
            "the setup",
            &format!("return !!document.querySelector('[data-act=\"start:{i}\"]');"),
        );
        readable(s, &format!("{game}-setup"), shade, size);
        click(s, &format!("start:{i}"));
        wait(s, "the game", "return !!document.querySelector('#board');");
        readable(s, game, shade, size);
        click(s, "help");
        readable(s, &format!("{game}-help"), shade, size);
        click(s, "help");
        click(s, "giveup");
        click(s, "yes");
        wait(s, "the end", "return !!document.querySelector('#ending');");
        readable(s, &format!("{game}-over"), shade, size);
        click(s, "menu");
        wait(
            s,
            "the menu",
            "return !!document.querySelector('[data-act=\"history\"]');",
        );
    }
    click(s, "history");
    wait(
        s,
        "the history",
        "return !!document.querySelector('[data-act^=\"replay:\"]');",
    );
    readable(s, "history", shade, size);
    s.eval("document.querySelector('[data-act^=\"review:\"]').click(); return true;")
        .unwrap();
    wait(
        s,
        "the review",
        "return !!document.querySelector('#summary');",
    );
    readable(s, "review", shade, size);
    click(s, "v:back");
    wait(
        s,
        "the history",
        "return !!document.querySelector('[data-act^=\"replay:\"]');",
    );
    s.eval("document.querySelector('[data-act^=\"replay:\"]').click(); return true;")
        .unwrap();
    wait(
        s,
        "the replay",
        "return !!document.querySelector('.replay #board');",
    );
    click(s, "r:last");
    readable(s, "replay", shade, size);
    click(s, "history");
    click(s, "menu");
    for (act, screen) in [
        ("scores:0", "scores"),
        ("stats:0", "stats"),
        ("settings", "settings"),
    ] {
        click(s, act);
        wait(
            s,
            screen,
            "return !!document.querySelector('[data-act=\"menu\"]') && !document.querySelector('[data-act=\"history\"]');",
        );
        readable(s, screen, shade, size);
        click(s, "menu");
        wait(
            s,
            "the menu",
            "return !!document.querySelector('[data-act=\"history\"]');",
        );
    }
}

/// The settings' theme set to `value` on the settings screen, which is then left.
fn set_theme(s: &Session, value: &str) {
    tap_to(s, "settings", "select[data-key=\"theme\"]");
    s.eval_with(
        "const e = document.querySelector('select[data-key=\"theme\"]'); e.value = arguments[0]; \
         e.dispatchEvent(new Event('change', {bubbles: true})); return true;",
        vec![value.into()],
    )
    .unwrap();
    wait(
        s,
        "saved",
        "return /saved in/.test((document.querySelector('#saved') || {}).textContent || '');",
    );
    tap_to(s, "menu", "[data-act=\"history\"]");
}

fn body_background(s: &Session) -> Value {
    s.eval("return getComputedStyle(document.body).backgroundColor;")
        .unwrap()
}

/// The browser's colour around the page (`<meta name="theme-color">`, a phone's status bar): the background of
/// the theme in use, checked against the body's.
fn status_bar(s: &Session, what: &str) -> Value {
    let colour = s
        .eval("const m = document.querySelector('meta[name=\"theme-color\"]'); return m ? m.content : null;")
        .unwrap();
    assert_eq!(
        colour,
        body_background(s),
        "the theme-color is the page's background ({what})"
    );
    colour
}

#[test]
fn the_browsers_light_or_dark_is_followed_unless_the_settings_say_and_every_screen_reads() {
    let Some(s) = faces("faces_themes") else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    finish_a_2048_game(&s);
    // Past the time in which a script's click right after a tap is taken for the tap's own click.
    std::thread::sleep(Duration::from_millis(1000));

    scheme(&s, "light");
    wait(
        &s,
        "light",
        "return document.body.classList.contains('theme-light');",
    );
    assert_eq!(theme(&s), "light", "auto follows the browser's light");
    assert_eq!(body_background(&s), Value::from("rgb(250, 248, 239)"));
    assert_eq!(status_bar(&s, "light"), Value::from("rgb(250, 248, 239)"));
    scheme(&s, "dark");
    wait(
        &s,
        "dark",
        "return document.body.classList.contains('theme-dark');",
    );
    assert_eq!(
        theme(&s),
        "dark",
        "a change of the browser's scheme is followed at once"
    );
    assert_eq!(body_background(&s), Value::from("rgb(30, 28, 24)"));
    assert_eq!(
        status_bar(&s, "the browser's dark"),
        Value::from("rgb(30, 28, 24)")
    );

    for (w, h, phone) in [(360, 780, true), (1280, 800, false)] {
        s.emulate(w, h, phone).unwrap();
        for shade in ["light", "dark"] {
            scheme(&s, shade);
            wait(
                &s,
                shade,
                &format!("return document.body.classList.contains('theme-{shade}');"),
            );
            every_screen_reads(&s, shade, (w, h));
        }
    }

    // The settings' theme wins over the browser's, after a reload too; `auto` gives it back.
    s.emulate(360, 780, true).unwrap();
    scheme(&s, "dark");
    set_theme(&s, "light");
    assert_eq!(
        theme(&s),
        "light",
        "the settings' light wins over the browser's dark"
    );
    s.reload().unwrap();
    s.wait_ready().unwrap();
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"history\"]');",
    );
    assert_eq!(theme(&s), "light", "kept after a reload");
    assert_eq!(
        status_bar(&s, "the settings' light after a reload, the browser dark"),
        Value::from("rgb(250, 248, 239)")
    );
    for named in ["high-contrast", "mono"] {
        set_theme(&s, named);
        assert_eq!(theme(&s), named);
        status_bar(&s, named);
        readable(&s, "menu", named, (360, 780));
    }
    set_theme(&s, "dark");
    scheme(&s, "light");
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(
        theme(&s),
        "dark",
        "the settings' dark wins over the browser's light"
    );
    assert_eq!(
        status_bar(&s, "the settings' dark"),
        Value::from("rgb(30, 28, 24)")
    );
    set_theme(&s, "auto");
    assert_eq!(theme(&s), "light", "auto is the browser's again");
    assert_eq!(
        status_bar(&s, "auto, the browser light"),
        Value::from("rgb(250, 248, 239)")
    );
}
