//! Key bindings as data: each screen declares its bindings once, and the same table drives input handling, the hint
//! bar and the help screen, so they cannot drift apart.

use crate::input::{KeyCode, KeyEvent, KeyModifiers};
pub use crate::settings::keys::{
    RESERVED_WORDS, actions, key_name, key_names_allowed, key_token, parse_key, reserved,
};

/// The keys that give one command.
pub type Keys = &'static [KeyCode];

/// One command of a screen and the keys that give it.
#[derive(Clone, Copy, Debug)]
pub struct Binding<C> {
    /// The keys (letters match exactly: `g` and `G` are different keys).
    pub keys: Keys,
    /// How the keys are written in the hint bar and help (`←↓↑→ hjkl wasd`).
    pub label: &'static str,
    /// What the command does, in a few words.
    pub help: &'static str,
    /// Whether the hint bar shows it (the help screen shows every binding).
    pub in_bar: bool,
    /// The command.
    pub cmd: C,
}

/// Shorthand for a binding shown in the hint bar.
pub const fn bar<C>(keys: Keys, label: &'static str, help: &'static str, cmd: C) -> Binding<C> {
    Binding {
        keys,
        label,
        help,
        in_bar: true,
        cmd,
    }
}

/// Shorthand for a binding shown only on the help screen.
pub const fn more<C>(keys: Keys, label: &'static str, help: &'static str, cmd: C) -> Binding<C> {
    let mut binding = bar(keys, label, help, cmd);
    binding.in_bar = false;
    binding
}

/// Whether a key event is the given key code (exactly: `g` is not `G`; Ctrl and Alt combinations never match).
pub fn matches(code: KeyCode, key: &KeyEvent) -> bool {
    if key
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
    {
        return false;
    }
    code == key.code
}

/// The keys bound to more than one command of a table (each should be bound once, or the first would win).
pub fn clashes<C>(table: &[Binding<C>]) -> Vec<KeyCode> {
    let mut seen: Vec<KeyCode> = Vec::new();
    let mut twice = Vec::new();
    for b in table {
        for &k in effective(b).0 {
            if seen.contains(&k) {
                twice.push(k);
            } else {
                seen.push(k);
            }
        }
    }
    twice
}

/// The command bound to a key, if any.
pub fn lookup<C: Copy>(table: &[Binding<C>], key: &KeyEvent) -> Option<C> {
    table
        .iter()
        .find(|b| effective(b).0.iter().any(|&k| matches(k, key)))
        .map(|b| b.cmd)
}

/// The (keys, description) pairs of a table: for the hint bar (`bar_only`) the entries marked for it, for the help
/// screen every entry that has keys (a bar-only summary such as "←↓↑→ hjkl wasd: slide" has none).
pub fn describe<C>(table: &[Binding<C>], bar_only: bool) -> Vec<(&'static str, &'static str)> {
    table
        .iter()
        .filter(|b| {
            if bar_only {
                b.in_bar
            } else {
                !b.keys.is_empty()
            }
        })
        .map(|b| (effective(b).1, b.help))
        .collect()
}

/// The help screen's rows of a table: every key of each binding (so the help names every key that works), and
/// what it does.
pub fn help_keys<C>(table: &[Binding<C>]) -> Vec<(String, &'static str)> {
    table
        .iter()
        .filter(|b| !b.keys.is_empty())
        .map(|b| {
            let names: Vec<String> = effective(b).0.iter().map(|&k| key_name(k)).collect();
            (names.join(" "), b.help)
        })
        .collect()
}

/// A label made at run time (a variant's colour keys) kept for the rest of the program, once per distinct text:
/// the hint bar takes `&'static str`, and there are only as many texts as variants played.
pub fn intern(text: String) -> &'static str {
    static SEEN: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = seen.iter().find(|s| **s == text) {
        return s;
    }
    let s: &'static str = Box::leak(text.into_boxed_str());
    seen.push(s);
    s
}

/// Whether the key is Ctrl-C, which quits from anywhere.
pub fn is_interrupt(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('C'))
}

/// Keys shared by many screens.
pub mod common {
    use crate::input::KeyCode;
    /// Up: arrow, `k`, `w`.
    pub const UP: &[KeyCode] = &[KeyCode::Up, KeyCode::Char('k'), KeyCode::Char('w')];
    /// Down: arrow, `j`, `s`.
    pub const DOWN: &[KeyCode] = &[KeyCode::Down, KeyCode::Char('j'), KeyCode::Char('s')];
    /// Left: arrow, `h`, `a`.
    pub const LEFT: &[KeyCode] = &[KeyCode::Left, KeyCode::Char('h'), KeyCode::Char('a')];
    /// Right: arrow, `l`, `d`.
    pub const RIGHT: &[KeyCode] = &[KeyCode::Right, KeyCode::Char('l'), KeyCode::Char('d')];
    /// Confirm.
    pub const ENTER: &[KeyCode] = &[KeyCode::Enter, KeyCode::Char(' ')];
    /// Back / quit.
    pub const BACK: &[KeyCode] = &[KeyCode::Char('q'), KeyCode::Char('Q'), KeyCode::Esc];
    /// Yes, in a question.
    pub const YES: &[KeyCode] = &[KeyCode::Char('y'), KeyCode::Char('Y'), KeyCode::Enter];
    /// No, in a question.
    pub const NO: &[KeyCode] = &[KeyCode::Char('n'), KeyCode::Char('N'), KeyCode::Esc];
    /// The first of a list of moves (a replay's, a review's).
    pub const FIRST: &[KeyCode] = &[KeyCode::Char('g'), KeyCode::Home];
    /// The last of a list of moves.
    pub const LAST: &[KeyCode] = &[KeyCode::Char('G'), KeyCode::End];
}

/// The moves every list and form shares: the cursor, choose and back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    /// Up: arrow, `k`, `w`.
    Up,
    /// Down: arrow, `j`, `s`.
    Down,
    /// Left: arrow, `h`, `a`.
    Left,
    /// Right: arrow, `l`, `d`.
    Right,
    /// Enter or Space.
    Choose,
    /// `q`, `Q` or Esc.
    Back,
}

const NAV: [(Nav, &[KeyCode], &str); 6] = [
    (Nav::Up, common::UP, "↑"),
    (Nav::Down, common::DOWN, "↓"),
    (Nav::Left, common::LEFT, "←"),
    (Nav::Right, common::RIGHT, "→"),
    (Nav::Choose, common::ENTER, "Enter"),
    (Nav::Back, common::BACK, "q"),
];

/// The row a list of `len` rows that wraps around moves to from `row` on `Nav::Up` or `Nav::Down` (any other
/// command leaves it).
pub fn wrapped(row: usize, len: usize, nav: Nav) -> usize {
    let n = len.max(1);
    match nav {
        Nav::Up => (row + n - 1) % n,
        Nav::Down => (row + 1) % n,
        _ => row,
    }
}

/// What the navigation keys do on one screen, in the order up, down, left, right, choose, back (`""`: nothing).
/// One declaration per screen gives its input, its hint bar and its help.
#[derive(Clone, Copy, Debug)]
pub struct NavWords(pub [&'static str; 6]);

impl NavWords {
    /// The navigation command of a key, if the screen uses it.
    pub fn lookup(&self, key: &KeyEvent) -> Option<Nav> {
        NAV.iter()
            .zip(self.0)
            .find(|((_, keys, _), word)| !word.is_empty() && keys.iter().any(|&k| matches(k, key)))
            .map(|((nav, _, _), _)| *nav)
    }

    /// The hint bar's entries: `↑↓ choose` when up and down do the same, else one entry each.
    pub fn bar(&self) -> Vec<(&'static str, &'static str)> {
        let w = self.0;
        let mut out = Vec::new();
        for (pair, (a, b)) in [("↑↓", (0, 1)), ("←→", (2, 3))] {
            match (w[a], w[b]) {
                ("", "") => {}
                (x, y) if x == y => out.push((pair, x)),
                (x, y) => {
                    for (i, word) in [(a, x), (b, y)] {
                        if !word.is_empty() {
                            out.push((NAV[i].2, word));
                        }
                    }
                }
            }
        }
        for i in [4, 5] {
            if !w[i].is_empty() {
                out.push((NAV[i].2, w[i]));
            }
        }
        out
    }

    /// The hint bar: these navigation entries, then the bar entries of the screen's own `table`.
    pub fn bar_with<C>(&self, table: &[Binding<C>]) -> Vec<(&'static str, &'static str)> {
        let mut bar = self.bar();
        bar.extend(describe(table, true));
        bar
    }

    /// The help's rows: these navigation keys, then every key of the screen's own `table`.
    pub fn help_with<C>(&self, table: &[Binding<C>]) -> Vec<(String, &'static str)> {
        let mut keys = self.help();
        keys.extend(help_keys(table));
        keys
    }

    /// The help's rows: every key of every command the screen uses.
    pub fn help(&self) -> Vec<(String, &'static str)> {
        NAV.iter()
            .zip(self.0)
            .filter(|(_, word)| !word.is_empty())
            .map(|((_, keys, _), word)| {
                let names: Vec<String> = keys.iter().map(|&k| key_name(k)).collect();
                (names.join(" "), word)
            })
            .collect()
    }
}

/// The answer to a yes/no question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Yes.
    Yes,
    /// No.
    No,
}

/// The keys of every yes/no question (listed in the help of each screen that asks one).
pub const QUESTION: &[Binding<Answer>] = &[
    more(common::YES, "y Enter", "yes, in a question", Answer::Yes),
    more(common::NO, "n Esc", "no, in a question", Answer::No),
];

/// What the keys do while a line is typed (a challenge's terms, a guess at a daily code).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Typing {
    /// Send what was typed.
    Send,
    /// Send nothing.
    Cancel,
    /// Erase the last character.
    Erase,
}

/// The keys of a line being typed (every other key types itself).
pub const TYPING: &[Binding<Typing>] = &[
    bar(&[KeyCode::Enter], "Enter", "send", Typing::Send),
    bar(&[KeyCode::Esc], "Esc", "cancel", Typing::Cancel),
    bar(&[KeyCode::Backspace], "Backspace", "erase", Typing::Erase),
];

/// The first binding of `cmd` in `table` that has keys, with its keys and label as the settings bind them.
fn bound<C: Copy + PartialEq>(table: &[Binding<C>], cmd: C) -> Option<(Keys, &'static str)> {
    table
        .iter()
        .find(|b| b.cmd == cmd && !b.keys.is_empty())
        .map(effective)
}

/// The key of `cmd` in `table` as the settings bind it (`x`, or the key give-up is remapped to), for a message:
/// the first key of its first binding that has keys (`?` when none has).
pub fn key_of<C: Copy + PartialEq>(table: &[Binding<C>], cmd: C) -> String {
    bound(table, cmd)
        .and_then(|(k, _)| k.first().copied())
        .map_or_else(|| "?".to_string(), key_name)
}

/// The label of `cmd`'s keys in `table` as the settings bind them (`y Enter`), for a hint bar.
pub fn label_of<C: Copy + PartialEq>(table: &[Binding<C>], cmd: C) -> &'static str {
    bound(table, cmd).map_or("?", |(_, label)| label)
}

/// A hint bar: for each command wanted, its keys in `table` (the first binding of it: a summary such as
/// `←↓↑→ Enter` where there is one) and what it does here (its own words unless given).
pub fn hints<C: Copy + PartialEq>(
    table: &[Binding<C>],
    wanted: &[(C, Option<&'static str>)],
) -> Vec<(&'static str, &'static str)> {
    wanted
        .iter()
        .filter_map(|&(cmd, words)| {
            table
                .iter()
                .find(|b| b.cmd == cmd)
                .map(|b| (effective(b).1, words.unwrap_or(b.help)))
        })
        .collect()
}

/// The hint bar of a line being typed: send (in `send`'s words if given), cancel, erase.
pub fn typing_hints(send: Option<&'static str>) -> Vec<(&'static str, &'static str)> {
    hints(
        TYPING,
        &[
            (Typing::Send, send),
            (Typing::Cancel, None),
            (Typing::Erase, None),
        ],
    )
}

/// One remapped command: the default keys it replaces (by address), its keys now and their label.
#[derive(Clone, Copy)]
struct Remapped {
    default: Keys,
    keys: Keys,
    label: &'static str,
}

thread_local! {
    /// The remapped commands of the interface running on this thread (set from the settings).
    static KEYMAP: std::cell::RefCell<Vec<Remapped>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Uses `keys[i]` for [`actions::ALL`]`[i]` in every table looked up on this thread from now on (a list equal to
/// the default leaves the command as it is). The few bytes of each new list live as long as the program.
pub fn set_keymap(keys: &[Vec<KeyCode>]) {
    let map: Vec<Remapped> = actions::ALL
        .iter()
        .zip(keys)
        .filter(|(a, k)| a.default != k.as_slice() && !k.is_empty())
        .map(|(a, k)| {
            let label: Vec<String> = k.iter().map(|&c| key_name(c)).collect();
            Remapped {
                default: a.default,
                keys: Box::leak(k.clone().into_boxed_slice()),
                label: Box::leak(label.join(" ").into_boxed_str()),
            }
        })
        .collect();
    KEYMAP.with(|m| *m.borrow_mut() = map);
}

/// A binding's keys and label after the settings' remapping.
fn effective<C>(b: &Binding<C>) -> (Keys, &'static str) {
    action_keys(b.keys, b.label)
}

/// The keys of a command whose default keys are `default` (one of the lists in [`actions`]) and their label after
/// the settings' remapping (`default` and `label` when it is not remapped).
pub fn action_keys(default: Keys, label: &'static str) -> (Keys, &'static str) {
    if default.is_empty() {
        return (default, label);
    }
    KEYMAP.with(|m| {
        m.borrow()
            .iter()
            .find(|r| std::ptr::eq(r.default, default))
            .map_or((default, label), |r| (r.keys, r.label))
    })
}

/// The words that follow a remappable command's key in help texts and messages ("u undoes", "+ faster"), one
/// list per command of [`actions::ALL`], in its order.
const VERBS: [&[&str]; 7] = [
    &["undoes", "takes back", "undo"],
    &["gives a hint", "hint"],
    &["autoplay", "pauses", "goes on"],
    &["faster"],
    &["slower"],
    &["gives up", "give up"],
    &["starts a new game", "new game"],
];

/// `text` (a help paragraph, a message) with the keys it names for the remappable commands as the settings bind
/// them: after undo is moved to `z`, "u takes back a guess" reads "z takes back a guess". A key is renamed only
/// where it stands alone before one of its command's words.
pub fn live_words(text: &str) -> String {
    let mut out = text.to_string();
    for (a, verbs) in actions::ALL.iter().zip(VERBS) {
        let (keys, now) = action_keys(a.default, "");
        if std::ptr::eq(keys, a.default) {
            continue;
        }
        let Some(&first) = a.default.first() else {
            continue;
        };
        let old = key_name(first);
        for verb in verbs {
            let from = format!("{old} {verb}");
            let to = format!("{now} {verb}");
            let mut next = String::with_capacity(out.len());
            let mut rest = out.as_str();
            while let Some(at) = rest.find(&from) {
                let before = rest[..at].chars().next_back();
                let alone = before.is_none_or(|c| !c.is_alphanumeric());
                next.push_str(&rest[..at]);
                next.push_str(if alone { &to } else { &from });
                rest = &rest[at + from.len()..];
            }
            next.push_str(rest);
            out = next;
        }
    }
    out
}

/// Parlor's general help ([`crate::mid::ABOUT`]) with the keys the settings give the shared commands.
pub fn about() -> Vec<String> {
    let now = shared_keys_sentence();
    crate::mid::ABOUT
        .iter()
        .map(|p| p.replace(DEFAULT_SHARED_KEYS, &now))
        .collect()
}

/// The sentence of [`crate::mid::ABOUT`] that [`about`] rewrites.
const DEFAULT_SHARED_KEYS: &str = "In every game u undoes, t gives a hint, x gives up, r starts a new game and q goes back to the menu.";

/// The sentence of the general help that names the keys of the commands every game shares, with the keys the
/// settings give them.
pub fn shared_keys_sentence() -> String {
    let label = |keys: Keys, default: &'static str| action_keys(keys, default).1;
    format!(
        "In every game {} undoes, {} gives a hint, {} gives up, {} starts a new game and q goes back to the menu.",
        label(&actions::UNDO, "u"),
        label(&actions::HINT, "t"),
        label(&actions::GIVE_UP, "x"),
        label(&actions::NEW_GAME, "r"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy, Debug, PartialEq)]
    enum C {
        Up,
        Quit,
    }
    const T: &[Binding<C>] = &[
        bar(common::UP, "↑ k w", "up", C::Up),
        more(&[KeyCode::Char('q')], "q", "quit", C::Quit),
    ];

    #[test]
    fn lookup_matches_any_key_exactly_but_not_ctrl() {
        let k = |c| KeyEvent::new(c, KeyModifiers::NONE);
        assert_eq!(lookup(T, &k(KeyCode::Up)), Some(C::Up));
        assert_eq!(lookup(T, &k(KeyCode::Char('w'))), Some(C::Up));
        assert_eq!(
            lookup(T, &k(KeyCode::Char('W'))),
            None,
            "a capital is another key (G is not g)"
        );
        assert_eq!(lookup(T, &k(KeyCode::Char('q'))), Some(C::Quit));
        assert_eq!(
            lookup(T, &KeyEvent::new(KeyCode::Char('q'), KeyModifiers::CONTROL)),
            None
        );
        assert!(is_interrupt(&KeyEvent::new(
            KeyCode::Char('c'),
            KeyModifiers::CONTROL
        )));
        assert_eq!(describe(T, true), vec![("↑ k w", "up")]);
        assert_eq!(describe(T, false).len(), 2);
    }

    #[test]
    fn clashes_finds_keys_bound_twice() {
        assert!(clashes(T).is_empty());
        let twice: &[Binding<C>] = &[
            bar(&[KeyCode::Char('u')], "u", "undo", C::Up),
            more(&[KeyCode::Char('u')], "u", "step", C::Quit),
        ];
        assert_eq!(clashes(twice), vec![KeyCode::Char('u')]);
        assert!(clashes(QUESTION).is_empty());
    }

    #[test]
    fn key_names_read_back_what_is_written_and_letters_keep_their_case() {
        for k in [
            KeyCode::Char('u'),
            KeyCode::Char('U'),
            KeyCode::Char(' '),
            KeyCode::Char('+'),
            KeyCode::Backspace,
            KeyCode::Up,
            KeyCode::PageDown,
            KeyCode::F(5),
            KeyCode::Tab,
        ] {
            assert_eq!(parse_key(&key_token(k), &[]), Ok(k), "{k:?}");
        }
        assert_eq!(parse_key("backspace", &[]), Ok(KeyCode::Backspace));
        assert_eq!(parse_key("G", &[]), Ok(KeyCode::Char('G')));
        assert!(parse_key("F13", &[]).is_err());
        assert!(parse_key("Ctrl-x", &[]).is_err());
        assert!(parse_key("", &[]).is_err());
        assert!(parse_key("\t", &[]).is_err());
    }

    #[test]
    fn the_general_help_names_the_keys_the_settings_give() {
        set_keymap(&[]);
        assert_eq!(shared_keys_sentence(), DEFAULT_SHARED_KEYS);
        let joined = crate::mid::ABOUT
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            joined.contains(DEFAULT_SHARED_KEYS),
            "ABOUT still has the sentence about() rewrites"
        );
        let mut keys: Vec<Vec<KeyCode>> = actions::ALL.iter().map(|a| a.default.to_vec()).collect();
        keys[0] = vec![KeyCode::Char('z')];
        keys[6] = vec![KeyCode::Char('N'), KeyCode::F(2)];
        set_keymap(&keys);
        let text = about().join(" ");
        set_keymap(&[]);
        assert!(
            text.contains(
                "In every game z undoes, t gives a hint, x gives up, N F2 starts a new game"
            ),
            "{text}"
        );
    }

    #[test]
    fn help_and_messages_name_the_keys_as_bound() {
        let mut keys: Vec<Vec<KeyCode>> = actions::ALL.iter().map(|a| a.default.to_vec()).collect();
        keys[0] = vec![KeyCode::Char('z')];
        keys[3] = vec![KeyCode::Char('f')];
        set_keymap(&keys);
        let said = live_words(
            "erase the last peg (u takes back a guess) · + faster · - slower · menu takes back nothing",
        );
        set_keymap(&[]);
        assert_eq!(
            said,
            "erase the last peg (z takes back a guess) · f faster · - slower · menu takes back nothing"
        );
        assert_eq!(
            live_words("u undoes"),
            "u undoes",
            "not remapped: as written"
        );
    }

    #[test]
    fn a_keymap_changes_lookup_labels_and_help_of_the_remapped_command_only() {
        let table: &[Binding<C>] = &[
            bar(&actions::UNDO, "u", "undo", C::Up),
            more(&[KeyCode::Char('q')], "q", "quit", C::Quit),
        ];
        let k = |c| KeyEvent::new(c, KeyModifiers::NONE);
        let mut keys: Vec<Vec<KeyCode>> = actions::ALL.iter().map(|a| a.default.to_vec()).collect();
        keys[0] = vec![KeyCode::Char('z')];
        set_keymap(&keys);
        assert_eq!(lookup(table, &k(KeyCode::Char('z'))), Some(C::Up));
        assert_eq!(lookup(table, &k(KeyCode::Char('u'))), None);
        assert_eq!(lookup(table, &k(KeyCode::Char('q'))), Some(C::Quit));
        assert_eq!(describe(table, true), vec![("z", "undo")]);
        assert_eq!(help_keys(table)[0].0, "z");
        set_keymap(&[]);
        assert_eq!(lookup(table, &k(KeyCode::Char('u'))), Some(C::Up));
    }
}
