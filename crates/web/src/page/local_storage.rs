//! The browser's `localStorage` as the page's [`Persist`] (wasm32 only). Its refusals are said in one plain phrase
//! ([`crate::store::plain_refusal`]), never as the browser's exception with its stack.

use crate::store::{Persist, plain_refusal};
use wasm_bindgen::JsCast;

/// The browser's `localStorage`, as the page's [`Persist`].
pub struct LocalStorage;

impl LocalStorage {
    fn storage() -> Result<web_sys::Storage, String> {
        web_sys::window()
            .ok_or("there is no window")?
            .local_storage()
            .map_err(|e| refusal(&e))?
            .ok_or_else(|| "the browser offers this page no storage".to_string())
    }
}

/// What a refusal of the browser's (an exception) means, in a phrase: its name (`QuotaExceededError`,
/// `SecurityError`) decides it.
fn refusal(e: &wasm_bindgen::JsValue) -> String {
    let name = e
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.name()))
        .or_else(|| {
            js_sys::Reflect::get(e, &"name".into())
                .ok()
                .and_then(|n| n.as_string())
        })
        .unwrap_or_default();
    plain_refusal(&name).to_string()
}

impl Persist for LocalStorage {
    fn get(&self, key: &str) -> Option<String> {
        LocalStorage::storage().ok()?.get_item(key).ok().flatten()
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        LocalStorage::storage()?
            .set_item(key, value)
            .map_err(|e| refusal(&e))
    }
}
