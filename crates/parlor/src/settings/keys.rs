//! Key names and the commands whose keys the player may change: what the settings file writes and reads. The full
//! screen's key tables (`tui::keys`) are looked up with them.

use crate::input::KeyCode;

/// The commands whose keys the player may change in the settings: the play screen's commands that every game
/// shares. Each binding of these commands uses the static key list named here, which is how a remapped binding is
/// found in any table (by the address of its keys).
pub mod actions {
    use crate::input::KeyCode;

    /// Undo's key. Not Backspace: in a game where something is typed (a guess) Backspace erases what
    /// was typed, and it must never take back a move the player did not mean to (issue 24).
    pub static UNDO: [KeyCode; 1] = [KeyCode::Char('u')];
    /// A hint.
    pub static HINT: [KeyCode; 1] = [KeyCode::Char('t')];
    /// Autoplay on.
    pub static AUTOPLAY: [KeyCode; 1] = [KeyCode::Char('p')];
    /// Autoplay faster.
    pub static FASTER: [KeyCode; 2] = [KeyCode::Char('+'), KeyCode::Char('=')];
    /// Autoplay slower.
    pub static SLOWER: [KeyCode; 1] = [KeyCode::Char('-')];
    /// Give up.
    pub static GIVE_UP: [KeyCode; 1] = [KeyCode::Char('x')];
    /// A new game.
    pub static NEW_GAME: [KeyCode; 1] = [KeyCode::Char('r')];

    /// A command the player may give other keys.
    #[derive(Debug)]
    pub struct Action {
        /// Its name in the settings file (`give-up`).
        pub name: &'static str,
        /// What it does.
        pub help: &'static str,
        /// Its keys unless the settings change them.
        pub default: &'static [KeyCode],
    }

    /// Every command whose keys may change, in the order the settings show them.
    pub static ALL: [Action; 7] = [
        Action {
            name: "undo",
            help: "undo",
            default: &UNDO,
        },
        Action {
            name: "hint",
            help: "hint",
            default: &HINT,
        },
        Action {
            name: "autoplay",
            help: "autoplay",
            default: &AUTOPLAY,
        },
        Action {
            name: "faster",
            help: "autoplay faster",
            default: &FASTER,
        },
        Action {
            name: "slower",
            help: "autoplay slower",
            default: &SLOWER,
        },
        Action {
            name: "give-up",
            help: "give up",
            default: &GIVE_UP,
        },
        Action {
            name: "new-game",
            help: "new game",
            default: &NEW_GAME,
        },
    ];

    /// The action of a name in the settings file.
    pub fn find(name: &str) -> Option<usize> {
        ALL.iter().position(|a| a.name == name)
    }
}

/// How a key is written in the help (`↑`, `u`, `Backspace`, `Space`).
pub fn key_name(k: KeyCode) -> String {
    match k {
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Up => "↑".into(),
        KeyCode::Down => "↓".into(),
        KeyCode::Left => "←".into(),
        KeyCode::Right => "→".into(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::Delete => "Delete".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::PageUp => "PageUp".into(),
        KeyCode::PageDown => "PageDown".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::F(n) => format!("F{n}"),
        other => format!("{other:?}"),
    }
}

/// The keys no command may be remapped to: back (`q` `Q` Esc), help (`?`), Enter and Space, the arrows, digits and
/// capitals (games type moves and colours with them).
pub fn reserved(k: KeyCode) -> bool {
    match k {
        KeyCode::Char(c) => {
            c.is_ascii_digit() || c.is_ascii_uppercase() || matches!(c, 'q' | '?' | ' ')
        }
        KeyCode::Esc
        | KeyCode::Enter
        | KeyCode::Up
        | KeyCode::Down
        | KeyCode::Left
        | KeyCode::Right => true,
        _ => false,
    }
}

/// The keys [`reserved`] refuses, in words, for messages.
pub const RESERVED_WORDS: &str = "q, Esc, ?, Enter, Space, arrows, digits and capitals";

/// The keys the settings file names by a word (besides one character and F1 to F12): each key's names, the one
/// [`key_token`] writes first, then other spellings read as well.
const NAMED: &[(&[&str], KeyCode)] = &[
    (&["Space"], KeyCode::Char(' ')),
    (&["Up"], KeyCode::Up),
    (&["Down"], KeyCode::Down),
    (&["Left"], KeyCode::Left),
    (&["Right"], KeyCode::Right),
    (&["Enter", "Return"], KeyCode::Enter),
    (&["Esc", "Escape"], KeyCode::Esc),
    (&["Backspace"], KeyCode::Backspace),
    (&["Delete", "Del"], KeyCode::Delete),
    (&["Insert", "Ins"], KeyCode::Insert),
    (&["Home"], KeyCode::Home),
    (&["End"], KeyCode::End),
    (&["PageUp"], KeyCode::PageUp),
    (&["PageDown"], KeyCode::PageDown),
    (&["Tab"], KeyCode::Tab),
];

/// What a key name may be, for the message of a name that is not one: the named keys a command can be given,
/// then those it cannot, named apart (the reserved ones, and those a game binds itself, from
/// `games`, [`super::Catalog::keys`]).
pub fn key_names_allowed(games: &[(KeyCode, String)]) -> String {
    let games: Vec<KeyCode> = games.iter().map(|(k, _)| *k).collect();
    let names = |keep: &dyn Fn(KeyCode) -> bool| -> Vec<&str> {
        NAMED
            .iter()
            .filter(|(_, k)| keep(*k))
            .map(|(names, _)| names[0])
            .collect()
    };
    let free = names(&|k| !reserved(k) && !games.contains(&k));
    let taken = names(&|k| !reserved(k) && games.contains(&k));
    let mut text = format!(
        "one character, or {}, F1 to F12; {RESERVED_WORDS} are reserved",
        free.join(", ")
    );
    if let Some((last, rest)) = taken.split_last() {
        let listed = if rest.is_empty() {
            last.to_string()
        } else {
            format!("{} and {last}", rest.join(", "))
        };
        text.push_str(&format!(
            "; {listed} {} the games' own",
            if rest.is_empty() { "is" } else { "are" }
        ));
    }
    text
}

/// How a key is written in the settings file (`u`, `Backspace`, `Space`, `Up`, `F5`).
pub fn key_token(k: KeyCode) -> String {
    match k {
        KeyCode::Char(' ') => "Space".into(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Up => "Up".into(),
        KeyCode::Down => "Down".into(),
        KeyCode::Left => "Left".into(),
        KeyCode::Right => "Right".into(),
        other => key_name(other),
    }
}

/// Reads a key as the settings file writes it: one character exactly (`g` is not `G`), or a key's name in any
/// case (`Backspace`, `space`, `F5`, `Up` or `↑`). A name that is not one is refused with the names allowed
/// (`games`: the keys the games bind themselves, named apart).
pub fn parse_key(text: &str, games: &[(KeyCode, String)]) -> Result<KeyCode, String> {
    let mut chars = text.chars();
    if let (Some(c), None) = (chars.next(), chars.clone().next()) {
        return Ok(match c {
            '↑' => KeyCode::Up,
            '↓' => KeyCode::Down,
            '←' => KeyCode::Left,
            '→' => KeyCode::Right,
            c if c.is_control() => return Err(format!("'{}' is not a key", c.escape_default())),
            c => KeyCode::Char(c),
        });
    }
    if let Some((_, k)) = NAMED
        .iter()
        .find(|(names, _)| names.iter().any(|n| n.eq_ignore_ascii_case(text)))
    {
        return Ok(*k);
    }
    let lower = text.to_ascii_lowercase();
    match lower.strip_prefix('f').map(str::parse::<u8>) {
        Some(Ok(n)) if (1..=12).contains(&n) => Ok(KeyCode::F(n)),
        _ => Err(format!(
            "'{text}' is not a key name ({})",
            key_names_allowed(games)
        )),
    }
}
