//! The browser's preferences (emulated through the DevTools protocol): `prefers-color-scheme` picks the light or
//! dark theme while the settings say `auto`, a theme the settings name wins; `prefers-reduced-motion` is said on the
//! document (`data-motion="reduced"`) and turns the animations off.

use crate::common::{open_item, page, set_setting, to_menu};
use parlor_web_e2e::Session;
use serde_json::json;

fn emulate(page: &Session, scheme: &str, motion: &str) {
    page.cdp(
        "Emulation.setEmulatedMedia",
        json!({ "features": [
            { "name": "prefers-color-scheme", "value": scheme },
            { "name": "prefers-reduced-motion", "value": motion },
        ] }),
    )
    .unwrap();
    page.reload().unwrap();
}

/// The root element's `data-theme` and `data-motion`.
fn marks(page: &Session) -> (String, String) {
    let v = page
        .eval("const d = document.documentElement.dataset; return [d.theme || '', d.motion || ''];")
        .unwrap();
    (
        v[0].as_str().unwrap_or_default().to_string(),
        v[1].as_str().unwrap_or_default().to_string(),
    )
}

#[test]
fn the_browsers_light_or_dark_and_less_motion_are_followed_unless_the_settings_say() {
    let Some(page) = page("prefs", "") else {
        return;
    };
    emulate(&page, "light", "reduce");
    page.wait_text(crate::common::MENU_FIRST).unwrap();
    assert_eq!(marks(&page), ("light".into(), "reduced".into()));
    let background = page
        .eval_string("return getComputedStyle(document.body).backgroundColor;")
        .unwrap();
    assert_eq!(background, "rgb(250, 250, 250)");
    page.screenshot("_light").unwrap();

    open_item(&page, "Settings");
    set_setting(&page, "Theme", "dark");
    assert_eq!(marks(&page).0, "dark", "the settings' theme wins");
    set_setting(&page, "Theme", "high-contrast");
    set_setting(&page, "Theme", "mono");
    set_setting(&page, "Theme", "auto");
    assert_eq!(marks(&page).0, "light", "auto is the browser's again");
    to_menu(&page);

    emulate(&page, "dark", "no-preference");
    page.wait_text(crate::common::MENU_FIRST).unwrap();
    assert_eq!(marks(&page), ("dark".into(), String::new()));
}
