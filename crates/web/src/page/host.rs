//! The page's host (wasm32 only): the browser's clocks, on the page and in its worker, the entropy that tells pages
//! apart, and the panic hook that sends a panic's message to the console.

use parlor::host::{Clock, Entropy};
use std::sync::OnceLock;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The browser's clock.
pub(super) struct WebClock;

impl Clock for WebClock {
    fn unix_nanos(&self) -> u128 {
        (js_sys::Date::now().max(0.0) as u128) * 1_000_000
    }

    fn monotonic_ms(&self) -> u64 {
        performance_now().max(0.0) as u64
    }
}

/// A number drawn once from `crypto.getRandomValues` tells this page apart from others.
pub(super) struct WebEntropy;

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
pub(super) fn performance_now() -> f64 {
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
pub(super) struct WorkerClock;

impl Clock for WorkerClock {
    fn unix_nanos(&self) -> u128 {
        (js_sys::Date::now().max(0.0) as u128) * 1_000_000
    }

    fn monotonic_ms(&self) -> u64 {
        worker_now().max(0.0) as u64
    }
}

/// A panic's message goes to the console.
pub(super) fn console_error_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("parlor: {info}").into());
    }));
}
