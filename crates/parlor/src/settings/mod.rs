//! The player's settings: the theme, animations, autoplay and replay speeds, which questions are asked first,
//! remapped keys, and each game's default options. Kept in `settings.toml` in the configuration directory
//! (`paths::config_dir`); [`mod@file`] reads it (every mistake named by its line, that entry alone falling back
//! to its default) and writes it atomically.
//!
//! The app's own settings are described with the same [`Setting`] table as a game's parameters, so that the
//! settings screen, the plain questions and the file's checks are written once for both.

pub mod file;
mod keeper;
pub mod keys;
mod theme_name;

pub use keeper::Keeper;
pub use theme_name::ThemeName;

use crate::input::KeyCode;
use crate::mid::error::Error;
use crate::mid::settings::{Kind, Setting, no_setting};
use crate::mid::{AnyGame, Contexts};
use keys::actions;

/// The games as the settings see them, handed over by the program's top from the registry: each game's table of
/// default options (`[games.ID]`), and the keys the games bind themselves (which no remapped command may take).
#[derive(Clone, Default)]
pub struct Catalog {
    games: Vec<&'static dyn AnyGame>,
    keys: Vec<(KeyCode, String)>,
    /// The games' contexts for this run, in which a game's default options are checked
    /// ([`crate::mid::game::Game::check_in`]); the defaults (nothing kept on disk) unless the top gives them.
    contexts: Contexts,
}

impl Catalog {
    /// The catalog of `games`, whose own keys are `keys` (each with what it does, `it types GREEN in ...`).
    pub fn new(games: Vec<&'static dyn AnyGame>, keys: Vec<(KeyCode, String)>) -> Catalog {
        Catalog {
            games,
            keys,
            contexts: Contexts::default(),
        }
    }

    /// The same catalog, checking the games' default options in `contexts` (the run's).
    pub fn with_contexts(mut self, contexts: Contexts) -> Catalog {
        self.contexts = contexts;
        self
    }

    /// The games, in the registry's order.
    pub fn games(&self) -> &[&'static dyn AnyGame] {
        &self.games
    }

    /// The keys the games bind themselves, with what they do.
    pub fn keys(&self) -> &[(KeyCode, String)] {
        &self.keys
    }

    /// The games' names, for messages (`a, b or c`).
    pub fn names(&self) -> String {
        crate::mid::names(&self.games)
    }
}

impl std::fmt::Debug for Catalog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ids: Vec<&str> = self.games.iter().map(|g| g.id()).collect();
        f.debug_struct("Catalog")
            .field("games", &ids)
            .field("keys", &self.keys)
            .finish()
    }
}

impl PartialEq for Catalog {
    fn eq(&self, other: &Catalog) -> bool {
        self.games.len() == other.games.len()
            && self
                .games
                .iter()
                .zip(&other.games)
                .all(|(a, b)| a.id() == b.id())
            && self.keys == other.keys
    }
}

/// The general settings (top of the file).
pub const GENERAL: &[Setting] = &[
    Setting {
        key: "theme",
        label: "Theme",
        help: "The colours of the full screen: auto (dark, or light when the terminal says its background is \
               light), dark, light, high-contrast, or mono (no colour). --theme overrides it for one run.",
        kind: Kind::Choice(&[
            ("auto", "auto"),
            ("dark", "dark"),
            ("light", "light"),
            ("high-contrast", "high-contrast"),
            ("mono", "mono"),
        ]),
    },
    Setting {
        key: "animations",
        label: "Animations",
        help: "Whether tiles slide and appear on the full screen (plain mode never animates).",
        kind: Kind::Toggle,
    },
    Setting {
        key: "autoplay-ms",
        label: "Autoplay speed (ms a move)",
        help: "The least time in milliseconds between two moves when the computer plays for you (+ and - change \
               it while it plays); where its thinking takes longer (a large 2048 board), a move takes that long, \
               and the screen says so.",
        kind: Kind::Number { min: 10, max: 2000 },
    },
    Setting {
        key: "replay-ms",
        label: "Replay speed (ms a move)",
        help: "Milliseconds between two moves of a replay on the full screen (+ and - change it while it plays).",
        kind: Kind::Number { min: 50, max: 1600 },
    },
];

const GENERAL_DEFAULTS: [&str; 4] = ["auto", "yes", "100", "400"];

/// Which questions are asked before acting (the `[confirm]` table).
pub const CONFIRM: &[Setting] = &[
    Setting {
        key: "give-up",
        label: "Ask before giving up",
        help: "Whether giving up a game asks first.",
        kind: Kind::Toggle,
    },
    Setting {
        key: "new-game",
        label: "Ask before a new game",
        help: "Whether starting a new game while one goes on (it is recorded as given up) asks first.",
        kind: Kind::Toggle,
    },
    Setting {
        key: "discard",
        label: "Ask before discarding",
        help: "Whether discarding a game in progress from the menu asks first.",
        kind: Kind::Toggle,
    },
];

/// A group of settings, as the file's tables and the settings screen's headings show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// The general settings.
    General,
    /// `[confirm]`.
    Confirm,
    /// `[keys]`.
    Keys,
    /// `[games.ID]`: the game at this index of the registry.
    Game(usize),
}

impl Section {
    /// The table's name in the file (`""` for the general settings), the games being `catalog`'s.
    pub fn table(self, catalog: &Catalog) -> String {
        match self {
            Section::General => String::new(),
            Section::Confirm => "confirm".into(),
            Section::Keys => "keys".into(),
            Section::Game(i) => format!("games.{}", catalog.games[i].id()),
        }
    }

    /// The heading on the settings screen, the games being `catalog`'s.
    pub fn title(self, catalog: &Catalog) -> String {
        match self {
            Section::General => "General".into(),
            Section::Confirm => "Questions".into(),
            Section::Keys => "Keys (in every game)".into(),
            Section::Game(i) => format!("New games of {}", catalog.games[i].title()),
        }
    }
}

/// One game's default options.
#[derive(Clone, Debug, PartialEq)]
pub struct GameDefaults {
    /// The game's id.
    pub id: &'static str,
    /// The value of every setting that applies (free text left out), in the game's table order.
    pub values: Vec<(&'static str, String)>,
    /// The same as parameters (JSON), for the game's setup.
    pub json: String,
}

/// Every setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    general: Vec<String>,
    confirm: Vec<String>,
    keys: Vec<Vec<KeyCode>>,
    games: Vec<GameDefaults>,
    catalog: Catalog,
}

/// The defaults, with no game (a program's settings come from [`Settings::new`] with its games).
impl Default for Settings {
    fn default() -> Settings {
        Settings::new(&Catalog::default())
    }
}

impl Settings {
    /// The defaults for the games of `catalog`.
    pub fn new(catalog: &Catalog) -> Settings {
        Settings {
            general: GENERAL_DEFAULTS.iter().map(|s| s.to_string()).collect(),
            confirm: CONFIRM.iter().map(|_| "yes".to_string()).collect(),
            keys: actions::ALL.iter().map(|a| a.default.to_vec()).collect(),
            catalog: catalog.clone(),
            games: catalog
                .games
                .iter()
                .map(|g| {
                    let made = g.params_from(&[], &catalog.contexts);
                    GameDefaults {
                        id: g.id(),
                        values: made.values,
                        json: made.json,
                    }
                })
                .collect(),
        }
    }

    /// The defaults for the same games (what the settings screen resets to).
    pub fn defaults(&self) -> Settings {
        Settings::new(&self.catalog)
    }

    /// The games these settings know.
    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }
}

/// Whether a toggle's value is on.
fn on(v: &str) -> bool {
    v == "yes"
}

impl Settings {
    /// The theme.
    pub fn theme(&self) -> ThemeName {
        ThemeName::parse(&self.general[0]).unwrap_or(ThemeName::Auto)
    }

    /// Whether the full screen animates.
    pub fn animations(&self) -> bool {
        on(&self.general[1])
    }

    /// Milliseconds between two autoplay moves.
    pub fn autoplay_ms(&self) -> u64 {
        self.general[2].parse().unwrap_or(100)
    }

    /// Milliseconds between two replay moves on the full screen.
    pub fn replay_ms(&self) -> u64 {
        self.general[3].parse().unwrap_or(400)
    }

    /// Whether giving up asks first.
    pub fn confirm_give_up(&self) -> bool {
        on(&self.confirm[0])
    }

    /// Whether a new game over one that goes on asks first.
    pub fn confirm_new_game(&self) -> bool {
        on(&self.confirm[1])
    }

    /// Whether discarding a game in progress asks first.
    pub fn confirm_discard(&self) -> bool {
        on(&self.confirm[2])
    }

    /// The keys of each remappable command ([`actions::ALL`] order).
    pub fn keys(&self) -> &[Vec<KeyCode>] {
        &self.keys
    }

    /// A game's default options as parameters (JSON).
    pub fn game_json(&self, id: &str) -> Option<&str> {
        self.games
            .iter()
            .find(|g| g.id == id)
            .map(|g| g.json.as_str())
    }

    /// Every section, in the file's and the screen's order.
    pub fn sections(&self) -> Vec<Section> {
        let mut out = vec![Section::General, Section::Confirm, Section::Keys];
        out.extend((0..self.games.len()).map(Section::Game));
        out
    }

    /// The settings of a section with their values (none for the keys).
    pub fn entries(&self, section: Section) -> Vec<(&'static Setting, String)> {
        match section {
            Section::General => GENERAL.iter().zip(self.general.iter().cloned()).collect(),
            Section::Confirm => CONFIRM.iter().zip(self.confirm.iter().cloned()).collect(),
            Section::Keys => Vec::new(),
            Section::Game(i) => {
                let table = self.catalog.games[i].settings();
                self.games[i]
                    .values
                    .iter()
                    .filter_map(|(k, v)| table.iter().find(|s| s.key == *k).map(|s| (s, v.clone())))
                    .collect()
            }
        }
    }

    /// Changes one setting of a section after checking the value; the error says what is accepted.
    pub fn set(&mut self, section: Section, key: &str, value: &str) -> Result<(), Error> {
        match section {
            Section::General | Section::Confirm => {
                let (table, values) = match section {
                    Section::General => (GENERAL, &mut self.general),
                    _ => (CONFIRM, &mut self.confirm),
                };
                let i = table
                    .iter()
                    .position(|s| s.key == key)
                    .ok_or_else(|| no_setting(key))?;
                values[i] = table[i].check(value)?;
                Ok(())
            }
            Section::Keys => {
                let i = actions::find(key)
                    .ok_or_else(|| Error::Settings(format!("no command '{key}'")))?;
                let keys = value
                    .split_whitespace()
                    .map(|w| keys::parse_key(w, &self.catalog.keys))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(Error::Settings)?;
                self.set_keys(i, keys).map_err(Error::Settings)
            }
            Section::Game(g) => {
                let game = self.catalog.games[g];
                let setting = game
                    .settings()
                    .iter()
                    .find(|s| s.key == key && s.kind != Kind::Text)
                    .ok_or_else(|| {
                        Error::Settings(format!("no setting '{key}' in {}", game.title()))
                    })?;
                let value = setting.check(value)?;
                let mut values: Vec<(String, String)> = self.games[g]
                    .values
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect();
                match values.iter_mut().find(|(k, _)| k == key) {
                    Some(entry) => entry.1 = value,
                    None => values.push((key.to_string(), value)),
                }
                let made = game.params_from(&values, &self.catalog.contexts);
                if let Some((_, why)) = made.refused.first() {
                    return Err(Error::Settings(why.clone()));
                }
                self.games[g].values = made.values;
                self.games[g].json = made.json;
                Ok(())
            }
        }
    }

    /// Gives command `action` ([`actions::ALL`] index) these keys, unless one is reserved, given twice, or
    /// already another command's (here or in a game): the error names the clash.
    pub fn set_keys(&mut self, action: usize, keys: Vec<KeyCode>) -> Result<(), String> {
        let name = actions::ALL[action].name;
        if keys.is_empty() {
            return Err(format!("{name} needs at least one key"));
        }
        for (i, &k) in keys.iter().enumerate() {
            let shown = keys::key_token(k);
            if keys[..i].contains(&k) {
                return Err(format!("{shown} is listed twice for {name}"));
            }
            if keys::reserved(k) {
                return Err(format!(
                    "{shown} is reserved ({} cannot be remapped)",
                    keys::RESERVED_WORDS
                ));
            }
            if let Some(other) =
                (0..self.keys.len()).find(|&j| j != action && self.keys[j].contains(&k))
            {
                return Err(format!(
                    "{shown} is already {}'s key: give {} another key first",
                    actions::ALL[other].name,
                    actions::ALL[other].name
                ));
            }
            if let Some((_, what)) = self.catalog.keys.iter().find(|(g, _)| *g == k) {
                return Err(format!("{shown} is already taken: {what}"));
            }
        }
        self.keys[action] = keys;
        Ok(())
    }

    /// The value of a setting as text (keys: their names, space separated).
    pub fn get(&self, section: Section, key: &str) -> Option<String> {
        if section == Section::Keys {
            return actions::find(key).map(|i| keys_text(&self.keys[i]));
        }
        self.entries(section)
            .into_iter()
            .find(|(s, _)| s.key == key)
            .map(|(_, v)| v)
    }
}

/// One line of the settings screens (full screen and plain alike).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Its section.
    pub section: Section,
    /// Its section's heading ([`Section::title`]).
    pub heading: String,
    /// Its key in the section.
    pub key: &'static str,
    /// What it is called.
    pub label: String,
    /// One sentence about it.
    pub help: String,
    /// What it takes (`10 to 2000`, `yes or no`, `key names`).
    pub range: String,
    /// Its value as shown.
    pub shown: String,
    /// Its setting (none for keys).
    pub setting: Option<&'static Setting>,
}

impl Settings {
    /// Every line of the settings screens, section by section.
    pub fn rows(&self) -> Vec<Row> {
        let mut out = Vec::new();
        for section in self.sections() {
            if section == Section::Keys {
                for (i, a) in actions::ALL.iter().enumerate() {
                    out.push(Row {
                        section,
                        heading: section.title(&self.catalog),
                        key: a.name,
                        label: format!("Keys: {}", a.help),
                        help: format!(
                            "The keys of this command in every game: {}.",
                            keys::key_names_allowed(self.catalog.keys())
                        ),
                        range: "key names".into(),
                        shown: keys_text(&self.keys[i]),
                        setting: None,
                    });
                }
                continue;
            }
            for (s, v) in self.entries(section) {
                let label = match section {
                    Section::Game(i) => format!("{}: {}", self.catalog.games[i].title(), s.label),
                    _ => s.label.to_string(),
                };
                out.push(Row {
                    section,
                    heading: section.title(&self.catalog),
                    key: s.key,
                    label,
                    help: s.help.to_string(),
                    range: s.range(),
                    shown: s.show(&v),
                    setting: Some(s),
                });
            }
        }
        out
    }
}

/// Keys as the settings write them, space separated (`u Backspace`).
pub fn keys_text(keys: &[KeyCode]) -> String {
    keys.iter()
        .map(|&k| keys::key_token(k))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_read_back() {
        let s = crate::registry::settings();
        assert_eq!(s.theme(), ThemeName::Auto);
        assert!(s.animations());
        assert_eq!(s.autoplay_ms(), 100);
        assert_eq!(s.replay_ms(), 400);
        assert!(s.confirm_give_up() && s.confirm_new_game() && s.confirm_discard());
        for game in s.catalog().games() {
            assert!(s.game_json(game.id()).is_some(), "{}", game.id());
        }
        assert_eq!(s.get(Section::Keys, "undo").as_deref(), Some("u"));
    }

    #[test]
    fn set_checks_ranges_and_clashes() {
        let mut s = crate::registry::settings();
        assert!(s.set(Section::General, "autoplay-ms", "5").is_err());
        s.set(Section::General, "autoplay-ms", "250").unwrap();
        assert_eq!(s.autoplay_ms(), 250);
        assert!(s.set(Section::General, "theme", "nosuch").is_err());
        let e = s.set(Section::Keys, "undo", "t").unwrap_err();
        assert!(e.message().contains("hint"), "{e}");
        assert!(
            s.set(Section::Keys, "undo", "q")
                .unwrap_err()
                .message()
                .contains("reserved")
        );
        assert!(
            s.set(Section::Keys, "undo", "z z")
                .unwrap_err()
                .message()
                .contains("twice")
        );
        s.set(Section::Keys, "undo", "z F5").unwrap();
        assert_eq!(s.keys()[0], vec![KeyCode::Char('z'), KeyCode::F(5)]);
        // A game's own key is refused, naming what it does there (as Backspace erases a typed peg, issue 24).
        let mut own = 0;
        let own_keys = s.catalog().keys().to_vec();
        for &(k, _) in &own_keys {
            if keys::reserved(k) || s.keys().iter().any(|given| given.contains(&k)) {
                continue;
            }
            // A key two games share names what the first of them does with it.
            let what = &own_keys.iter().find(|(o, _)| *o == k).expect("listed").1;
            let typed = format!("z {}", keys::key_token(k));
            let e = s.set(Section::Keys, "undo", &typed).unwrap_err();
            assert!(e.message().contains(what.as_str()), "{typed}: {e}");
            own += 1;
        }
        assert!(own > 0, "the games have keys of their own");
    }

    #[test]
    fn each_games_settings_check_their_ranges_and_keep_a_value_the_form_steps_to() {
        let mut s = crate::registry::settings();
        let games = s.catalog().games().to_vec();
        for (g, game) in games.iter().enumerate() {
            for setting in game.settings() {
                if let Kind::Number { max, .. } = setting.kind {
                    let e = s.set(Section::Game(g), setting.key, &(max + 1).to_string());
                    assert!(e.is_err(), "{} {}", game.id(), setting.key);
                }
            }
            let setting = game
                .settings()
                .iter()
                .find(|st| st.kind != Kind::Text)
                .expect("a setting");
            let now = s.get(Section::Game(g), setting.key).unwrap();
            let next = setting.step(&now, true).unwrap();
            let before = s.game_json(game.id()).unwrap().to_string();
            s.set(Section::Game(g), setting.key, &next).unwrap();
            assert_eq!(s.get(Section::Game(g), setting.key), Some(next));
            assert_ne!(s.game_json(game.id()).unwrap(), before, "{}", game.id());
        }
    }
}
