//! Crossterm's events as Parlor's own ([`crate::input`]): the one place the full-screen loop converts them.

use crate::input::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use crossterm::event as ct;

impl From<ct::KeyCode> for KeyCode {
    fn from(code: ct::KeyCode) -> KeyCode {
        match code {
            ct::KeyCode::Backspace => KeyCode::Backspace,
            ct::KeyCode::Enter => KeyCode::Enter,
            ct::KeyCode::Left => KeyCode::Left,
            ct::KeyCode::Right => KeyCode::Right,
            ct::KeyCode::Up => KeyCode::Up,
            ct::KeyCode::Down => KeyCode::Down,
            ct::KeyCode::Home => KeyCode::Home,
            ct::KeyCode::End => KeyCode::End,
            ct::KeyCode::PageUp => KeyCode::PageUp,
            ct::KeyCode::PageDown => KeyCode::PageDown,
            ct::KeyCode::Tab => KeyCode::Tab,
            ct::KeyCode::BackTab => KeyCode::BackTab,
            ct::KeyCode::Delete => KeyCode::Delete,
            ct::KeyCode::Insert => KeyCode::Insert,
            ct::KeyCode::F(n) => KeyCode::F(n),
            ct::KeyCode::Char(c) => KeyCode::Char(c),
            ct::KeyCode::Esc => KeyCode::Esc,
            _ => KeyCode::Other,
        }
    }
}

impl From<ct::KeyModifiers> for KeyModifiers {
    fn from(m: ct::KeyModifiers) -> KeyModifiers {
        let mut out = KeyModifiers::NONE;
        for (theirs, ours) in [
            (ct::KeyModifiers::SHIFT, KeyModifiers::SHIFT),
            (ct::KeyModifiers::CONTROL, KeyModifiers::CONTROL),
            (ct::KeyModifiers::ALT, KeyModifiers::ALT),
        ] {
            if m.contains(theirs) {
                out |= ours;
            }
        }
        out
    }
}

impl From<ct::KeyEventKind> for KeyEventKind {
    fn from(kind: ct::KeyEventKind) -> KeyEventKind {
        match kind {
            ct::KeyEventKind::Press => KeyEventKind::Press,
            ct::KeyEventKind::Repeat => KeyEventKind::Repeat,
            ct::KeyEventKind::Release => KeyEventKind::Release,
        }
    }
}

impl From<ct::KeyEvent> for KeyEvent {
    fn from(key: ct::KeyEvent) -> KeyEvent {
        KeyEvent {
            code: key.code.into(),
            modifiers: key.modifiers.into(),
            kind: key.kind.into(),
        }
    }
}

impl From<ct::MouseButton> for MouseButton {
    fn from(button: ct::MouseButton) -> MouseButton {
        match button {
            ct::MouseButton::Left => MouseButton::Left,
            ct::MouseButton::Right => MouseButton::Right,
            ct::MouseButton::Middle => MouseButton::Middle,
        }
    }
}

impl From<ct::MouseEventKind> for MouseEventKind {
    fn from(kind: ct::MouseEventKind) -> MouseEventKind {
        match kind {
            ct::MouseEventKind::Down(b) => MouseEventKind::Down(b.into()),
            ct::MouseEventKind::Up(b) => MouseEventKind::Up(b.into()),
            ct::MouseEventKind::Drag(b) => MouseEventKind::Drag(b.into()),
            ct::MouseEventKind::Moved => MouseEventKind::Moved,
            ct::MouseEventKind::ScrollDown => MouseEventKind::ScrollDown,
            ct::MouseEventKind::ScrollUp => MouseEventKind::ScrollUp,
            ct::MouseEventKind::ScrollLeft => MouseEventKind::ScrollLeft,
            ct::MouseEventKind::ScrollRight => MouseEventKind::ScrollRight,
        }
    }
}

impl From<ct::MouseEvent> for MouseEvent {
    fn from(m: ct::MouseEvent) -> MouseEvent {
        MouseEvent {
            kind: m.kind.into(),
            column: m.column,
            row: m.row,
            modifiers: m.modifiers.into(),
        }
    }
}

impl From<ct::Event> for Event {
    fn from(ev: ct::Event) -> Event {
        match ev {
            ct::Event::Key(k) => Event::Key(k.into()),
            ct::Event::Mouse(m) => Event::Mouse(m.into()),
            ct::Event::Resize(w, h) => Event::Resize(w, h),
            _ => Event::Other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_keeps_its_code_modifiers_and_kind() {
        let mut theirs = ct::KeyEvent::new(
            ct::KeyCode::Char('q'),
            ct::KeyModifiers::CONTROL | ct::KeyModifiers::SHIFT,
        );
        theirs.kind = ct::KeyEventKind::Release;
        let ours = KeyEvent::from(theirs);
        assert_eq!(ours.code, KeyCode::Char('q'));
        assert_eq!(ours.modifiers, KeyModifiers::CONTROL | KeyModifiers::SHIFT);
        assert_eq!(ours.kind, KeyEventKind::Release);
        assert_eq!(
            Event::from(ct::Event::Key(ct::KeyEvent::from(ct::KeyCode::F(12)))),
            Event::Key(KeyEvent::from(KeyCode::F(12)))
        );
        assert_eq!(KeyCode::from(ct::KeyCode::CapsLock), KeyCode::Other);
    }

    #[test]
    fn a_click_keeps_its_cell_and_button() {
        let theirs = ct::MouseEvent {
            kind: ct::MouseEventKind::Down(ct::MouseButton::Left),
            column: 7,
            row: 3,
            modifiers: ct::KeyModifiers::ALT,
        };
        assert_eq!(
            Event::from(ct::Event::Mouse(theirs)),
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: 7,
                row: 3,
                modifiers: KeyModifiers::ALT,
            })
        );
        assert_eq!(
            Event::from(ct::Event::Resize(80, 24)),
            Event::Resize(80, 24)
        );
        assert_eq!(Event::from(ct::Event::FocusGained), Event::Other);
    }
}
