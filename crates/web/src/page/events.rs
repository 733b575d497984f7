//! The browser's events on the page (wasm32 only): keys, the mouse, the wheel, touches and resizes, each given to
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
    Ok(())
}
