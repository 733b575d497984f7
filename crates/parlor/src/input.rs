//! Keys and the mouse as Parlor's screens see them, whatever delivers them (crossterm in the terminal, a browser's
//! events in a web front end).
//!
//! The types keep crossterm's names and shapes (only the variants the screens use), so that a front end converts
//! its events once (the terminal does it in `tui/terminal_input.rs`) and the screens never name a backend.

/// A key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCode {
    /// Backspace.
    Backspace,
    /// Enter (Return).
    Enter,
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Home.
    Home,
    /// End.
    End,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Tab.
    Tab,
    /// Shift-Tab.
    BackTab,
    /// Delete.
    Delete,
    /// Insert.
    Insert,
    /// A function key (F1 is `F(1)`).
    F(u8),
    /// A character (`Char('a')`; Shift-a arrives as `Char('A')`).
    Char(char),
    /// Escape.
    Esc,
    /// A key no screen knows (it does nothing).
    Other,
}

/// The modifier keys held with a key or a click: a set of flags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeyModifiers(u8);

impl KeyModifiers {
    /// No modifier.
    pub const NONE: KeyModifiers = KeyModifiers(0);
    /// Shift.
    pub const SHIFT: KeyModifiers = KeyModifiers(1);
    /// Control.
    pub const CONTROL: KeyModifiers = KeyModifiers(2);
    /// Alt (Option).
    pub const ALT: KeyModifiers = KeyModifiers(4);

    /// Whether every modifier of `other` is held.
    pub const fn contains(self, other: KeyModifiers) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any modifier of `other` is held.
    pub const fn intersects(self, other: KeyModifiers) -> bool {
        self.0 & other.0 != 0
    }

    /// Whether no modifier is held.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for KeyModifiers {
    type Output = KeyModifiers;

    fn bitor(self, rhs: KeyModifiers) -> KeyModifiers {
        KeyModifiers(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for KeyModifiers {
    fn bitor_assign(&mut self, rhs: KeyModifiers) {
        self.0 |= rhs.0;
    }
}

/// Whether a key went down, repeated or came up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyEventKind {
    /// Pressed (the only kind screens act on).
    #[default]
    Press,
    /// Held down and repeating.
    Repeat,
    /// Released.
    Release,
}

/// A key press (or release).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    /// The key.
    pub code: KeyCode,
    /// The modifiers held.
    pub modifiers: KeyModifiers,
    /// Press, repeat or release.
    pub kind: KeyEventKind,
}

impl KeyEvent {
    /// A press of `code` with `modifiers`.
    pub const fn new(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
        }
    }
}

impl From<KeyCode> for KeyEvent {
    fn from(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }
}

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseButton {
    /// The left (primary) button.
    Left,
    /// The right button.
    Right,
    /// The middle button (the wheel pressed).
    Middle,
}

/// What the mouse did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseEventKind {
    /// A button went down.
    Down(MouseButton),
    /// A button came up.
    Up(MouseButton),
    /// The mouse moved with a button down.
    Drag(MouseButton),
    /// The mouse moved with no button down.
    Moved,
    /// The wheel turned down (towards the player).
    ScrollDown,
    /// The wheel turned up.
    ScrollUp,
    /// The wheel (or a trackpad) scrolled left.
    ScrollLeft,
    /// The wheel (or a trackpad) scrolled right.
    ScrollRight,
}

/// A mouse event, at a cell of the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MouseEvent {
    /// What happened.
    pub kind: MouseEventKind,
    /// The column (0 on the left).
    pub column: u16,
    /// The row (0 at the top).
    pub row: u16,
    /// The modifiers held.
    pub modifiers: KeyModifiers,
}

/// One input event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A key.
    Key(KeyEvent),
    /// The mouse.
    Mouse(MouseEvent),
    /// The screen changed size (columns, rows): the next frame is drawn at the new size.
    Resize(u16, u16),
    /// Anything else (focus, paste): ignored.
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modifiers_combine_as_flags() {
        let both = KeyModifiers::CONTROL | KeyModifiers::SHIFT;
        assert!(both.contains(KeyModifiers::CONTROL));
        assert!(both.contains(KeyModifiers::SHIFT));
        assert!(!both.contains(KeyModifiers::ALT));
        assert!(KeyModifiers::NONE.is_empty());
        assert!(both.contains(KeyModifiers::NONE));
    }

    #[test]
    fn a_key_code_is_a_press_without_modifiers() {
        let k = KeyEvent::from(KeyCode::Enter);
        assert_eq!(k.kind, KeyEventKind::Press);
        assert!(k.modifiers.is_empty());
    }
}
