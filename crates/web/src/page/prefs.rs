//! The browser's preferences the page follows (wasm32 only): a light or dark theme (`prefers-color-scheme`) for the
//! settings' `auto` theme, and less motion (`prefers-reduced-motion`), which turns the animations off. Both faces
//! read them here; the document's root element says them to the page's CSS as `data-theme` (`light`, `dark`,
//! `high-contrast`, `mono`: the theme in use) and `data-motion="reduced"`.

use parlor::settings::ThemeName;

/// Whether the media query `query` matches (false where the browser cannot say).
fn matches(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

/// Whether the browser asks for a light theme.
pub(crate) fn prefers_light() -> bool {
    matches("(prefers-color-scheme: light)")
}

/// Whether the browser asks for less motion: the page's animations are off.
pub(crate) fn reduced_motion() -> bool {
    matches("(prefers-reduced-motion: reduce)")
}

/// The `auto` theme's hint in `COLORFGBG`'s terms (`fg;bg`, a background of 15 is light).
pub(super) fn colorfgbg() -> Option<String> {
    prefers_light().then(|| "0;15".to_string())
}

/// Says the theme in use and the motion asked for on the document's root element, for the page's CSS, and makes the
/// browser's own colour around the page (`<meta name="theme-color">`: a phone's status bar) the page's background
/// in that theme, as the stylesheet gives it (the body's computed background, so no colour is written twice).
pub(crate) fn mark_document(theme: ThemeName) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(doc) = window.document() else {
        return;
    };
    let Some(root) = doc.document_element() else {
        return;
    };
    let _ = root.set_attribute("data-theme", theme.as_str());
    if reduced_motion() {
        let _ = root.set_attribute("data-motion", "reduced");
    } else {
        let _ = root.remove_attribute("data-motion");
    }
    let background = doc
        .body()
        .and_then(|b| window.get_computed_style(&b).ok().flatten())
        .and_then(|style| style.get_property_value("background-color").ok());
    if let Some(colour) = background.filter(|c| !c.is_empty())
        && let Ok(Some(meta)) = doc.query_selector("meta[name=\"theme-color\"]")
        && meta.get_attribute("content").as_deref() != Some(colour.as_str())
    {
        let _ = meta.set_attribute("content", &colour);
    }
}
