//! The browser's events on the page (wasm32 only): keys, pointers (mouse, finger, pen), the wheel and resizes, each given to
//! the [`Page`].

use super::screen::term_element;
use super::{Page, with_page};
use crate::keys::{Held, key_event};
use parlor::input::{KeyEvent, KeyModifiers, MouseButton, MouseEventKind};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

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

/// Listens for the keys, the mouse, touches and resizes over the page, for its life.
pub(super) fn listen_all() -> Result<(), JsValue> {
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
    // Every press through pointer events: a mouse presses, drags and lets go as the terminal's mouse does; a
    // finger or a pen is a swipe (an arrow key: 2048 slides) or, when it travels less, a tap (a click where it
    // touched), told apart when it lifts. The mouse events a browser makes from a touch are not listened to.
    listen(&term, "pointerdown", false, |e: web_sys::PointerEvent| {
        let at = (f64::from(e.client_x()), f64::from(e.client_y()));
        if e.pointer_type() != "mouse" {
            with_page(|p| p.touch_from = Some(at));
            return;
        }
        // A press inside text selected earlier (by an earlier drag over the rows) would start the browser's
        // drag-and-drop of that text, which sends no pointermove or pointerup: the page's drag would be lost. So a
        // press first lets go of any selection, as a press outside one does; text stays selectable by dragging.
        if let Some(selection) = web_sys::window().and_then(|w| w.get_selection().ok().flatten()) {
            let _ = selection.remove_all_ranges();
        }
        let button = button_of(e.button());
        let m = modifiers_of(e.shift_key(), e.ctrl_key(), e.alt_key());
        with_page(|p| {
            p.held = Some(button);
            p.mouse(MouseEventKind::Down(button), at.0, at.1, m);
        });
    })?;
    listen(&window, "pointerup", false, |e: web_sys::PointerEvent| {
        let (x1, y1) = (f64::from(e.client_x()), f64::from(e.client_y()));
        let m = modifiers_of(e.shift_key(), e.ctrl_key(), e.alt_key());
        if e.pointer_type() != "mouse" {
            let stamp = e.time_stamp();
            with_page(|p| {
                let Some((x0, y0)) = p.touch_from.take() else {
                    return;
                };
                match crate::swipe::direction(x0, y0, x1, y1) {
                    Some(code) => {
                        e.prevent_default();
                        p.key(KeyEvent::from(code), stamp);
                    }
                    None => {
                        let left = MouseButton::Left;
                        p.mouse(MouseEventKind::Down(left), x0, y0, m);
                        p.mouse(MouseEventKind::Up(left), x0, y0, m);
                    }
                }
            });
            return;
        }
        with_page(|p| {
            if let Some(button) = p.held.take() {
                p.mouse(MouseEventKind::Up(button), x1, y1, m);
            }
        });
    })?;
    listen(
        &window,
        "pointercancel",
        true,
        |_: web_sys::PointerEvent| {
            with_page(|p| p.touch_from = None);
        },
    )?;
    listen(&term, "pointermove", false, |e: web_sys::PointerEvent| {
        if e.pointer_type() != "mouse" {
            return;
        }
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
    listen(&window, "resize", true, |_: web_sys::Event| {
        super::screen::fit_font();
        with_page(Page::redraw);
    })?;
    Ok(())
}
