//! The app's ticks: on animation frames while a screen animates, else by a timer when the next tick is due.

use super::{performance_now, with_page};
use std::cell::RefCell;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// Screens that ask for ticks more often than this (ms: an animation, a think polled, autoplay) are ticked on every
/// animation frame; slower ones (most screens: every 250 ms) by a timer that asks for one frame when the tick is
/// due. An animation frame asked for every frame keeps the browser making frames (its thread's work each time) and
/// cuts every idle period at the next frame, which starves the help's warm-up.
pub(super) const FRAMES_UNDER_MS: u64 = 100;

/// The app's ticks ([`Page::frame`]): the animation frame's and the timer's callbacks, whether a frame is asked for,
/// and the timer waiting, if any.
struct Ticker {
    on_frame: Closure<dyn FnMut(f64)>,
    on_timer: Closure<dyn FnMut()>,
    frame_asked: bool,
    timer: Option<i32>,
}

thread_local! {
    static TICKER: RefCell<Option<Ticker>> = const { RefCell::new(None) };
}

/// Asks for an animation frame (the timer waiting, if any, is dropped), unless one is asked for already.
pub(super) fn ask_frame() {
    TICKER.with(|t| {
        let Ok(mut t) = t.try_borrow_mut() else {
            return;
        };
        let (Some(t), Some(window)) = (t.as_mut(), web_sys::window()) else {
            return;
        };
        if let Some(handle) = t.timer.take() {
            window.clear_timeout_with_handle(handle);
        }
        if !t.frame_asked
            && window
                .request_animation_frame(t.on_frame.as_ref().unchecked_ref())
                .is_ok()
        {
            t.frame_asked = true;
        }
    });
}

/// Plans the next tick of a screen that asks for one every `tick_ms`, the last at `last_tick`: on the next animation
/// frame when ticks are frequent (under [`FRAMES_UNDER_MS`]), else by a timer at the tick's time (replacing the
/// timer waiting). Called after every frame, key and mouse event (a key may start an animation).
pub(super) fn plan_tick(tick_ms: u64, last_tick: f64) {
    if tick_ms < FRAMES_UNDER_MS {
        ask_frame();
        return;
    }
    TICKER.with(|t| {
        let Ok(mut t) = t.try_borrow_mut() else {
            return;
        };
        let (Some(t), Some(window)) = (t.as_mut(), web_sys::window()) else {
            return;
        };
        if t.frame_asked {
            return;
        }
        if let Some(handle) = t.timer.take() {
            window.clear_timeout_with_handle(handle);
        }
        let due = (last_tick + tick_ms as f64 - performance_now()).clamp(0.0, 60_000.0);
        t.timer = window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                t.on_timer.as_ref().unchecked_ref(),
                due.ceil() as i32,
            )
            .ok();
    });
}

/// Ticks the app at the pace it asks for ([`plan_tick`]).
pub(super) fn animation_loop() -> Result<(), JsValue> {
    let on_frame = Closure::<dyn FnMut(f64)>::new(|now: f64| {
        TICKER.with(|t| {
            if let Some(t) = t.borrow_mut().as_mut() {
                t.frame_asked = false;
            }
        });
        if let Some((tick_ms, last_tick)) = with_page(|p| {
            p.frame(now);
            (p.app.tick_ms(), p.last_tick)
        }) {
            plan_tick(tick_ms, last_tick);
        }
    });
    let on_timer = Closure::<dyn FnMut()>::new(|| {
        TICKER.with(|t| {
            if let Some(t) = t.borrow_mut().as_mut() {
                t.timer = None;
            }
        });
        ask_frame();
    });
    TICKER.with(|t| {
        *t.borrow_mut() = Some(Ticker {
            on_frame,
            on_timer,
            frame_asked: false,
            timer: None,
        })
    });
    ask_frame();
    Ok(())
}
