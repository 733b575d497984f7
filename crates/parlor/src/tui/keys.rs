//! Key bindings as data: each screen declares its bindings once, and the same table drives input handling, the hint
//! bar and the help screen, so they cannot drift apart.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// One command of a screen and the keys that give it.
#[derive(Clone, Copy, Debug)]
pub struct Binding<C> {
    /// The keys (letters match exactly: `g` and `G` are different keys).
    pub keys: &'static [KeyCode],
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
pub const fn bar<C>(
    keys: &'static [KeyCode],
    label: &'static str,
    help: &'static str,
    cmd: C,
) -> Binding<C> {
    Binding {
        keys,
        label,
        help,
        in_bar: true,
        cmd,
    }
}

/// Shorthand for a binding shown only on the help screen.
pub const fn more<C>(
    keys: &'static [KeyCode],
    label: &'static str,
    help: &'static str,
    cmd: C,
) -> Binding<C> {
    Binding {
        keys,
        label,
        help,
        in_bar: false,
        cmd,
    }
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
        for &k in b.keys {
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
        .find(|b| b.keys.iter().any(|&k| matches(k, key)))
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
        .map(|b| (b.label, b.help))
        .collect()
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

/// The help screen's rows of a table: every key of each binding (so the help names every key that works), and
/// what it does.
pub fn help_keys<C>(table: &[Binding<C>]) -> Vec<(String, &'static str)> {
    table
        .iter()
        .filter(|b| !b.keys.is_empty())
        .map(|b| {
            let names: Vec<String> = b.keys.iter().map(|&k| key_name(k)).collect();
            (names.join(" "), b.help)
        })
        .collect()
}

/// Whether the key is Ctrl-C, which quits from anywhere.
pub fn is_interrupt(key: &KeyEvent) -> bool {
    key.modifiers.contains(KeyModifiers::CONTROL)
        && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('C'))
}

/// Keys shared by many screens.
pub mod common {
    use crossterm::event::KeyCode;
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
}
