//! The browser's `localStorage` as the page's [`Persist`] (wasm32 only).

use crate::store::Persist;
use wasm_bindgen::JsCast;

/// The browser's `localStorage`, as the page's [`Persist`].
pub struct LocalStorage;

impl LocalStorage {
    fn storage() -> Result<web_sys::Storage, String> {
        web_sys::window()
            .ok_or("no window")?
            .local_storage()
            .map_err(|e| format!("local storage refused: {e:?}"))?
            .ok_or_else(|| "no local storage".to_string())
    }
}

impl Persist for LocalStorage {
    fn get(&self, key: &str) -> Option<String> {
        LocalStorage::storage().ok()?.get_item(key).ok().flatten()
    }

    fn set(&self, key: &str, value: &str) -> Result<(), String> {
        LocalStorage::storage()?.set_item(key, value).map_err(|e| {
            e.dyn_ref::<js_sys::Error>()
                .map(|e| String::from(e.message()))
                .unwrap_or_else(|| format!("{e:?}"))
        })
    }
}
