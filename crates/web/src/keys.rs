//! The browser's key names (`KeyboardEvent.key`) as Parlor's keys, named as the terminal names them.

use parlor::input::{KeyCode, KeyEvent, KeyModifiers};

/// The modifier keys held with a browser key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Held {
    /// Shift.
    pub shift: bool,
    /// Control.
    pub ctrl: bool,
    /// Alt (Option).
    pub alt: bool,
    /// Meta (Command, Windows).
    pub meta: bool,
}

/// The key event a browser key makes, or `None` for a key the page leaves to the browser: a modifier alone, a
/// key with Control or Meta (copy, paste, reload, the browser's own shortcuts), a dead key or an unknown name.
pub fn key_event(key: &str, held: Held) -> Option<KeyEvent> {
    if held.ctrl || held.meta {
        return None;
    }
    let code = match key {
        "Enter" => KeyCode::Enter,
        "Escape" | "Esc" => KeyCode::Esc,
        "Backspace" => KeyCode::Backspace,
        "Delete" | "Del" => KeyCode::Delete,
        "Insert" => KeyCode::Insert,
        "Tab" if held.shift => KeyCode::BackTab,
        "Tab" => KeyCode::Tab,
        "ArrowLeft" | "Left" => KeyCode::Left,
        "ArrowRight" | "Right" => KeyCode::Right,
        "ArrowUp" | "Up" => KeyCode::Up,
        "ArrowDown" | "Down" => KeyCode::Down,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        "PageUp" => KeyCode::PageUp,
        "PageDown" => KeyCode::PageDown,
        "Spacebar" => KeyCode::Char(' '),
        _ => {
            let mut chars = key.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) => KeyCode::Char(c),
                (Some('F'), Some(_)) => match key[1..].parse::<u8>() {
                    Ok(n @ 1..=12) => KeyCode::F(n),
                    _ => return None,
                },
                _ => return None,
            }
        }
    };
    let mut modifiers = KeyModifiers::NONE;
    // A character already carries Shift (`A`, `?`), as the terminal delivers it; Shift is kept for the rest.
    if held.shift && !matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
        modifiers |= KeyModifiers::SHIFT;
    }
    if held.alt {
        modifiers |= KeyModifiers::ALT;
    }
    Some(KeyEvent::new(code, modifiers))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(key: &str) -> Option<KeyCode> {
        key_event(key, Held::default()).map(|k| k.code)
    }

    #[test]
    fn named_keys_are_the_terminals() {
        assert_eq!(plain("ArrowLeft"), Some(KeyCode::Left));
        assert_eq!(plain("ArrowDown"), Some(KeyCode::Down));
        assert_eq!(plain("Enter"), Some(KeyCode::Enter));
        assert_eq!(plain("Escape"), Some(KeyCode::Esc));
        assert_eq!(plain("Backspace"), Some(KeyCode::Backspace));
        assert_eq!(plain("Delete"), Some(KeyCode::Delete));
        assert_eq!(plain("Home"), Some(KeyCode::Home));
        assert_eq!(plain("PageDown"), Some(KeyCode::PageDown));
        assert_eq!(plain("F1"), Some(KeyCode::F(1)));
        assert_eq!(plain("F12"), Some(KeyCode::F(12)));
        assert_eq!(plain(" "), Some(KeyCode::Char(' ')));
        let shift = Held {
            shift: true,
            ..Held::default()
        };
        assert_eq!(
            key_event("Tab", shift).map(|k| k.code),
            Some(KeyCode::BackTab)
        );
    }

    #[test]
    fn characters_arrive_as_typed() {
        assert_eq!(plain("q"), Some(KeyCode::Char('q')));
        assert_eq!(plain("?"), Some(KeyCode::Char('?')));
        let shift = Held {
            shift: true,
            ..Held::default()
        };
        let capital = key_event("R", shift).unwrap();
        assert_eq!(capital.code, KeyCode::Char('R'));
        assert!(capital.modifiers.is_empty(), "Shift is in the character");
        let arrow = key_event("ArrowRight", shift).unwrap();
        assert!(arrow.modifiers.contains(KeyModifiers::SHIFT));
    }

    #[test]
    fn the_browsers_own_keys_are_left_to_it() {
        for key in [
            "Shift",
            "Control",
            "Alt",
            "Meta",
            "Dead",
            "Unidentified",
            "F13",
            "CapsLock",
        ] {
            assert_eq!(plain(key), None, "{key}");
        }
        let ctrl = Held {
            ctrl: true,
            ..Held::default()
        };
        assert_eq!(key_event("c", ctrl), None, "Ctrl-C copies");
        let meta = Held {
            meta: true,
            ..Held::default()
        };
        assert_eq!(key_event("r", meta), None, "Cmd-R reloads");
    }
}
