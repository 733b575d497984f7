//! The page's first screen, written into `index.html` when the page is built (`scripts/web-build.sh` runs the
//! `web-page` binary of this crate natively): the graphical face's menu as a fresh visit sees it, made by the same
//! function that draws it in the page ([`menu_html`]) over an empty store, and the faces' stylesheet
//! ([`super::CSS`]). The page paints it before the wasm has arrived; the wasm then writes the same menu over it
//! (changing only the nodes that differ: none, for a fresh visit), so the screen does not move.

use super::menu::menu_html;
use crate::store::{MapPersist, WebStore};
use std::fmt;
use std::rc::Rc;

/// Where the template (`crates/web/page/index.html`) takes the first screen: the content of `#faces`.
pub const SCREEN_MARK: &str = "<!-- @PARLOR_FIRST_SCREEN@ -->";
/// Where the template takes the faces' stylesheet: inside its `<style id="faces-css">`.
pub const CSS_MARK: &str = "/* @PARLOR_FACES_CSS@ */";

/// Why a page could not be written from its template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PageError {
    /// The template lacks this mark, or has it more than once.
    Mark(&'static str, usize),
}

impl fmt::Display for PageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PageError::Mark(mark, n) => {
                write!(f, "the page's template holds {mark} {n} times, not once")
            }
        }
    }
}

impl std::error::Error for PageError {}

/// The menu as a first visit sees it: no game in progress, no best score, no notice.
pub fn first_screen() -> String {
    let store = WebStore::open(Rc::new(MapPersist::default()), 0).store;
    menu_html(super::FACES, &store, &super::contexts(), "")
}

/// `template` with its marks replaced: the first screen inside `#faces` and the faces' stylesheet.
pub fn page(template: &str) -> Result<String, PageError> {
    for mark in [SCREEN_MARK, CSS_MARK] {
        let n = template.matches(mark).count();
        if n != 1 {
            return Err(PageError::Mark(mark, n));
        }
    }
    Ok(template
        .replace(CSS_MARK, super::CSS)
        .replace(SCREEN_MARK, &first_screen()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = include_str!("../../page/index.html");

    #[test]
    fn the_page_holds_the_menu_and_its_stylesheet() {
        let page = page(TEMPLATE).unwrap();
        assert!(!page.contains("@PARLOR_"), "every mark replaced");
        let faces = page.find("<div id=\"faces\">").unwrap();
        let menu = page.find("<main class=\"menu\">").unwrap();
        assert!(menu > faces, "the menu is inside #faces");
        for (i, f) in super::super::FACES.iter().enumerate() {
            let act = format!("data-act=\"setup:{i}\"");
            assert!(page.contains(&act), "{act}");
            assert!(page.contains(&format!("New game: {}", f.any().title())));
        }
        for act in ["history", "scores:0", "stats:0", "settings"] {
            assert!(page.contains(&format!("data-act=\"{act}\"")), "{act}");
        }
        assert!(page.contains("href=\"?face=terminal\""));
        assert!(page.contains(".menu .top"), "the faces' stylesheet is in");
        assert!(
            !page.contains("Continue"),
            "a first visit has no game in progress"
        );
    }

    #[test]
    fn a_template_without_its_marks_is_refused() {
        assert_eq!(page("<html></html>"), Err(PageError::Mark(SCREEN_MARK, 0)));
        let twice = format!("{SCREEN_MARK}{SCREEN_MARK}{CSS_MARK}");
        assert_eq!(page(&twice), Err(PageError::Mark(SCREEN_MARK, 2)));
        assert!(page(&twice).unwrap_err().to_string().contains("2 times"));
    }
}
