//! What the page's `#announce` region (`aria-live="polite"`) says: the app's line ([`parlor::tui::app::App::announce`])
//! when it changes, so that a screen reader hears each move once and nothing while nothing happens.

/// Remembers the last line said.
#[derive(Debug, Default)]
pub struct Announcer {
    last: Option<String>,
}

impl Announcer {
    /// The line to say now, if `line` is new (a different line, or a line after silence).
    pub fn next(&mut self, line: Option<String>) -> Option<String> {
        if line == self.last {
            return None;
        }
        self.last.clone_from(&line);
        line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_line_is_said_once() {
        let mut a = Announcer::default();
        assert_eq!(a.next(None), None);
        assert_eq!(
            a.next(Some("Move 1: left".into())).as_deref(),
            Some("Move 1: left")
        );
        assert_eq!(a.next(Some("Move 1: left".into())), None, "said already");
        assert_eq!(
            a.next(Some("Move 2: up".into())).as_deref(),
            Some("Move 2: up")
        );
        assert_eq!(a.next(None), None, "silence says nothing");
        assert_eq!(
            a.next(Some("Move 2: up".into())).as_deref(),
            Some("Move 2: up"),
            "a new game's line after the menu"
        );
    }
}
