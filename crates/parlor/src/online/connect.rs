//! The question a front end asks before it connects, where nothing else gives the server and the name (the menu's
//! entry "Online", in the page and in the terminal): the server's address and the player's name, both prefilled and
//! edited in place; Enter connects through the platform's `connect` and puts the online screen in this one's place.

use super::screen::OnlineView;
use crate::input::{KeyCode, KeyEvent, MouseEvent, MouseEventKind};
use crate::tui::layout::{chrome, fit_line};
use crate::tui::theme::Theme;
use crate::tui::{Ctx, Help, Transition, View};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

/// Connects to a server as a name: the online screen, or why not.
pub type Connect = Box<dyn FnMut(&str, &str) -> Result<OnlineView, String>>;

/// The longest address or name typed.
const MAX_CHARS: usize = 200;

/// The fields, in order.
const FIELDS: [&str; 2] = ["Server", "Name"];

/// The question of the server and the name.
pub struct ConnectView {
    values: [String; 2],
    field: usize,
    message: Option<String>,
    connect: Connect,
    /// The screen rows of the fields, as last drawn (a click there chooses one).
    rows: [u16; 2],
    /// Where the name and its token are kept (`this browser`), as the screen says.
    kept_in: &'static str,
    /// The title of the game the server's rooms play (the registry's `online().room`).
    played: &'static str,
}

impl ConnectView {
    /// The question, prefilled with `server` and `name`, for rooms that play the game titled `played`; the cursor on
    /// the name when a server is given.
    pub fn new(server: &str, name: &str, played: &'static str, connect: Connect) -> ConnectView {
        ConnectView {
            values: [server.to_string(), name.to_string()],
            field: usize::from(!server.is_empty()),
            message: None,
            connect,
            rows: [u16::MAX; 2],
            kept_in: "this browser",
            played,
        }
    }

    /// Says the name and its token are kept in `place` (`the configuration directory`) rather than in this browser.
    pub fn kept_in(mut self, place: &'static str) -> ConnectView {
        self.kept_in = place;
        self
    }

    /// The field being edited (0 the server, 1 the name) and both values.
    pub fn fields(&self) -> (usize, &[String; 2]) {
        (self.field, &self.values)
    }

    /// The line under the fields: what went wrong, or what Enter does.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    fn submit(&mut self) -> Transition {
        let server = self.values[0].trim().to_string();
        let name = self.values[1].trim().to_string();
        if server.is_empty() {
            self.field = 0;
            self.message = Some("type the server's address (ws://HOST:PORT, or wss://HOST)".into());
            return Transition::Stay;
        }
        if name.is_empty() {
            self.field = 1;
            self.message = Some("type the name to play under".into());
            return Transition::Stay;
        }
        match (self.connect)(&server, &name) {
            Ok(view) => Transition::Replace(Box::new(view)),
            Err(why) => {
                self.message = Some(why);
                Transition::Stay
            }
        }
    }
}

impl View for ConnectView {
    fn min_size(&self) -> (u16, u16) {
        (40, 8)
    }

    fn draw(&mut self, frame: &mut Frame, area: Rect, theme: &Theme) {
        let hints = self.hint_bar();
        let body = chrome(frame, area, "Parlor online · connect", &hints, theme);
        let mut lines = vec![
            Line::raw(format!(
                "{} against people on a Parlor server (parlor serve).",
                self.played
            )),
            Line::raw(""),
        ];
        let top = body.y;
        for (i, label) in FIELDS.iter().enumerate() {
            let cursor = if i == self.field { "▏" } else { "" };
            let style = if i == self.field {
                theme.strong()
            } else {
                theme.dim()
            };
            self.rows[i] = top.saturating_add(lines.len() as u16);
            lines.push(Line::styled(
                format!("{label:<7} {}{cursor}", self.values[i]),
                style,
            ));
        }
        lines.push(Line::raw(""));
        lines.push(match &self.message {
            Some(m) => Line::styled(m.clone(), theme.warn()),
            None => Line::raw(format!(
                "Enter connects; the name and its secret token are kept in {}.",
                self.kept_in
            )),
        });
        let lines: Vec<Line> = lines.into_iter().map(|l| fit_line(l, body.width)).collect();
        frame.render_widget(Paragraph::new(lines), body);
    }

    fn handle_key(&mut self, key: KeyEvent, _ctx: &mut Ctx) -> Transition {
        match key.code {
            KeyCode::Enter => return self.submit(),
            KeyCode::Esc => return Transition::Pop,
            KeyCode::Tab | KeyCode::Down | KeyCode::BackTab | KeyCode::Up => {
                self.field = 1 - self.field;
            }
            KeyCode::Backspace => {
                self.values[self.field].pop();
            }
            KeyCode::Char(c)
                if !c.is_control() && self.values[self.field].chars().count() < MAX_CHARS =>
            {
                self.values[self.field].push(c);
            }
            _ => {}
        }
        self.message = None;
        Transition::Stay
    }

    fn handle_mouse(&mut self, event: MouseEvent, _ctx: &mut Ctx) -> Transition {
        if matches!(event.kind, MouseEventKind::Down(_))
            && let Some(i) = self.rows.iter().position(|&r| r == event.row)
        {
            self.field = i;
        }
        Transition::Stay
    }

    fn hint_bar(&self) -> Vec<(&'static str, &'static str)> {
        vec![("Enter", "connect"), ("Tab", "next field"), ("Esc", "back")]
    }

    fn help(&self) -> Help {
        let kept_in = self.kept_in;
        Help {
            title: "Parlor online".to_string(),
            keys: vec![
                ("Enter".to_string(), "connect"),
                ("Tab ↑ ↓".to_string(), "the other field"),
                ("Backspace".to_string(), "delete the last character"),
                ("Esc".to_string(), "back to the menu"),
            ],
            text: vec![format!(
                "The server's address is ws://HOST:PORT (wss:// behind a TLS proxy); the name is the one other \
                 players see. The first connection makes a secret token for the name, kept with it in {kept_in}: \
                 it is the name's only key on that server."
            )],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::KeyModifiers;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn the_fields_are_edited_and_a_refusal_is_said() {
        let asked = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let seen = asked.clone();
        let mut v = ConnectView::new(
            "ws://127.0.0.1:7878",
            "",
            "a game",
            Box::new(move |s, n| {
                seen.borrow_mut().push((s.to_string(), n.to_string()));
                Err("no server there".to_string())
            }),
        );
        assert_eq!(v.fields().0, 1, "a server given: the name is asked");
        let mut owned =
            crate::tui::ctx_tests::Owned::new(crate::storage::MemoryStore::new(), Vec::new(), None);
        owned.with(|ctx| {
            assert!(matches!(
                v.handle_key(key(KeyCode::Enter), ctx),
                Transition::Stay
            ));
            assert_eq!(v.message(), Some("type the name to play under"));
            for c in "annx".chars() {
                v.handle_key(key(KeyCode::Char(c)), ctx);
            }
            v.handle_key(key(KeyCode::Backspace), ctx);
            v.handle_key(key(KeyCode::Tab), ctx);
            v.handle_key(key(KeyCode::Backspace), ctx);
            v.handle_key(key(KeyCode::Char('9')), ctx);
            assert_eq!(
                v.fields(),
                (0, &["ws://127.0.0.1:7879".to_string(), "ann".to_string()])
            );
            assert!(matches!(
                v.handle_key(key(KeyCode::Enter), ctx),
                Transition::Stay
            ));
            assert_eq!(v.message(), Some("no server there"));
            assert_eq!(
                *asked.borrow(),
                [("ws://127.0.0.1:7879".to_string(), "ann".to_string())]
            );
            assert!(matches!(
                v.handle_key(key(KeyCode::Esc), ctx),
                Transition::Pop
            ));
        });
    }
}
