//! The settings on the page: the terminal's settings table ([`Settings::rows`]: theme, animations, speeds, the
//! questions asked first, every game's defaults) as form controls, each change checked by [`Settings::set`] and
//! saved at once by the page's [`WebKeeper`] (the settings file's text under `parlor.settings`, exactly as the
//! terminal face saves it, so both faces read it after a reload). Remapped keys are the terminal face's: they are
//! listed, not changed here.

use super::history::top;
use super::html::esc;
use super::menu::choices;
use crate::store::WebKeeper;
use parlor::settings::{Catalog, Keeper, Settings, ThemeName};

/// The theme the page shows for the settings' `theme`: `auto` is light when the browser prefers it
/// (`prefers-color-scheme: light`) and dark otherwise; a theme the settings name wins.
pub fn theme_in_use(theme: ThemeName, prefers_light: bool) -> ThemeName {
    match theme {
        ThemeName::Auto if prefers_light => ThemeName::Light,
        ThemeName::Auto => ThemeName::Dark,
        named => named,
    }
}

/// The games' catalog the settings are read with: the terminal face's (the same games and their own keys).
pub fn catalog() -> Catalog {
    let games = parlor::registry::tui();
    parlor::tui::launch::catalog(&games).with_contexts(super::contexts())
}

/// The settings screen's state: the settings, where they are kept, the last change's message.
pub struct SettingsScreen {
    /// The settings as they are.
    pub settings: Settings,
    keeper: WebKeeper,
    /// The last change's message, and whether it is a warning.
    message: Option<(String, bool)>,
}

impl SettingsScreen {
    /// The screen over the settings kept by `keeper` (with the mistakes of their text, if any, as its message).
    pub fn new(keeper: WebKeeper, catalog: &Catalog) -> SettingsScreen {
        let (settings, problems) = keeper.load(catalog);
        let message = (!problems.is_empty()).then(|| {
            (
                format!("Settings: {} (the rest is used).", problems.join("; ")),
                true,
            )
        });
        SettingsScreen {
            settings,
            keeper,
            message,
        }
    }

    /// Row `row` of the table set to `value`, saved; the message says whether it was.
    pub fn set(&mut self, row: usize, value: &str) {
        let Some(r) = self.settings.rows().into_iter().nth(row) else {
            return;
        };
        let mut next = self.settings.clone();
        if let Err(why) = next.set(r.section, r.key, value) {
            self.message = Some((format!("{}: not changed: {why}", r.label), true));
            return;
        }
        self.settings = next;
        self.message = Some(match self.keeper.save(&self.settings) {
            Ok(said) => (format!("{}: {said}", r.label), false),
            Err(why) => (
                format!(
                    "{}: NOT saved ({why}): the change lasts until the page closes",
                    r.label
                ),
                true,
            ),
        });
    }

    /// The screen as HTML: a select per setting, under its section's heading.
    pub fn html(&self) -> String {
        let mut out = format!("<main class=\"menu settings\">{}", top("Settings"));
        if let Some((m, warn)) = &self.message {
            out.push_str(&format!(
                "<p class=\"{}\" id=\"saved\" role=\"status\">{}</p>",
                if *warn { "notice" } else { "said" },
                esc(m)
            ));
        }
        let mut heading = String::new();
        let mut keys = Vec::new();
        out.push_str("<form class=\"form list\" onsubmit=\"return false\">");
        for (i, r) in self.settings.rows().into_iter().enumerate() {
            let Some(s) = r.setting else {
                keys.push(format!(
                    "{}: {}",
                    r.label.trim_start_matches("Keys: "),
                    r.shown
                ));
                continue;
            };
            if r.heading != heading {
                heading = r.heading.clone();
                out.push_str(&format!("<h2>{}</h2>", esc(&heading)));
            }
            let value = s.check(&r.shown).unwrap_or_else(|_| r.shown.clone());
            let mut list = choices(&s.kind);
            if !list.iter().any(|(v, _)| *v == value) {
                list.push((value.clone(), value.clone()));
            }
            let opts: String = list
                .iter()
                .map(|(v, l)| {
                    let sel = if *v == value { " selected" } else { "" };
                    format!("<option value=\"{}\"{sel}>{}</option>", esc(v), esc(l))
                })
                .collect();
            out.push_str(&format!(
                "<label class=\"field\"><span>{}</span><select data-set=\"row:{i}\" data-key=\"{}\" title=\"{}\">{opts}</select><small>{}</small></label>",
                esc(&r.label),
                esc(r.key),
                esc(&r.help),
                esc(&r.help)
            ));
        }
        out.push_str("</form>");
        if !keys.is_empty() {
            out.push_str(&format!(
                "<h2>Keys</h2><p class=\"small\">Keys are remapped on the terminal face (?face=terminal); here: {}.</p>",
                esc(&keys.join(" · "))
            ));
        }
        out.push_str(&format!(
            "<p class=\"small\">Kept in {}.</p></main>",
            esc(&self.keeper.location())
        ));
        out
    }
}
