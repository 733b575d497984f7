//! A finished game's review on the page (the coach): the core's [`Coach`] (the review read back from the store,
//! or made by the page's reviewer worker with its progress, then kept with the game, [`crate::coach`]) drawn as
//! HTML: the summary and each side's accuracy, the marked moves as buttons that go straight to them, the move
//! selected with its mark, the values before and after, the best moves, the note and the position the review kept,
//! and every move in a list with its mark. Generic: it draws the review's data ([`Review`]) and names no game.

use super::html::{button, button_if, esc};
use parlor::mid::coach::Coach;
use parlor::mid::review::{Mark, Review, Reviewed};

/// One finished game's review screen: which game, and the move selected.
pub struct ReviewScreen {
    /// The finished game's number.
    pub id: i64,
    /// The game's name for people.
    title: &'static str,
    /// The move selected (an index into the review's moves).
    selected: usize,
    /// Whether the selection was set on the worst move yet (once the review is ready).
    placed: bool,
    /// Where Back goes: the end screen it was opened from (`true`), else the history.
    from_end: bool,
}

/// What a tap or key on the review screen asks of the shell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asked {
    /// Stay (drawn again).
    Stay,
    /// Back where it was opened from.
    Back,
    /// The puzzles of the marked moves.
    Learn,
    /// The menu.
    Menu,
}

/// The words of a mark for a reader: the glyph and its name (`?? blunder`), nothing for no mark.
fn mark_words(mark: Mark) -> String {
    match mark {
        Mark::None => String::new(),
        m => format!("{} {}", m.glyph(), m.name()),
    }
}

/// A move's short line: `3. black b1h ?? blunder`.
fn short(m: &Reviewed) -> String {
    let side = m.side.as_deref().map_or(String::new(), |s| format!("{s} "));
    let mark = mark_words(m.mark);
    let mark = if mark.is_empty() {
        String::new()
    } else {
        format!(" {mark}")
    };
    format!("{}. {side}{}{mark}", m.number, m.played)
}

impl ReviewScreen {
    /// The review screen of finished game `id` of the game titled `title`; `from_end`: opened from its end screen.
    pub fn new(id: i64, title: &'static str, from_end: bool) -> ReviewScreen {
        ReviewScreen {
            id,
            title,
            selected: 0,
            placed: false,
            from_end,
        }
    }

    /// Whether Back goes to the end screen it was opened from.
    pub fn from_end(&self) -> bool {
        self.from_end
    }

    /// The move selected (an index into the review's moves).
    pub fn selected(&self) -> usize {
        self.selected
    }

    /// Selects the worst move the first time the review is ready.
    fn place(&mut self, review: &Review) {
        if !self.placed {
            self.placed = true;
            self.selected = review
                .worst()
                .and_then(|w| review.moves.iter().position(|m| m.number == w.number))
                .unwrap_or(0);
        }
    }

    /// The screen as HTML, from `coach` (the review being made, ready, or refused).
    pub fn html(&mut self, coach: &Coach) -> String {
        let back = if self.from_end {
            ("Back", "Back to the end of the game")
        } else {
            ("History", "Back to the history")
        };
        let mut out = format!(
            "<main class=\"menu records review\"><header class=\"top\"><h1>Review · {} · game #{}</h1><div class=\"row\">{}{}</div></header>",
            esc(self.title),
            self.id,
            button("v:back", back.0, "cmd", Some(back.1)),
            button("menu", "Menu", "cmd", Some("Back to the menu"))
        );
        match coach {
            Coach::Working { .. } => {
                out.push_str(&format!(
                    "<p class=\"line\" id=\"coach\" role=\"status\">{}</p>",
                    esc(&coach.line())
                ));
            }
            Coach::Failed(_) => {
                out.push_str(&format!(
                    "<p class=\"notice\" id=\"coach\" role=\"status\">{}</p>",
                    esc(&coach.line())
                ));
            }
            Coach::Ready { review, not_kept } => {
                self.place(review);
                out.push_str(&self.ready(review, not_kept.as_deref()));
            }
        }
        out.push_str("</main>");
        out
    }

    fn ready(&self, review: &Review, not_kept: Option<&str>) -> String {
        let mut out = format!(
            "<p class=\"summary\" id=\"coach\" role=\"status\"><b id=\"summary\">{}</b></p><p class=\"small\">accuracy: <span id=\"accuracy\">{}</span> · {}</p>",
            esc(&review.summary()),
            esc(&review.accuracy_line()),
            esc(&review.method)
        );
        if let Some(why) = not_kept {
            out.push_str(&format!(
                "<p class=\"notice\" id=\"not-kept\">The review is not kept: {}.</p>",
                esc(why)
            ));
        }
        let marked: Vec<(usize, &Reviewed)> = review
            .moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.mark != Mark::None)
            .collect();
        if !marked.is_empty() {
            out.push_str("<nav class=\"row marks-nav\" aria-label=\"The marked moves\">");
            for (i, m) in &marked {
                let label = format!("Move {} {}", m.number, m.mark.glyph());
                let aria = format!("Move {}: {}, {}", m.number, m.played, m.mark.name());
                let class = if *i == self.selected {
                    "cmd marked on"
                } else {
                    "cmd marked"
                };
                out.push_str(&button(&format!("v:sel:{i}"), &label, class, Some(&aria)));
            }
            out.push_str("</nav>");
        }
        let n = review.moves.len();
        if let Some(m) = review.moves.get(self.selected) {
            out.push_str(&self.detail(m));
        }
        out.push_str("<nav class=\"bar\" aria-label=\"Review\">");
        out.push_str(&button_if(
            self.selected > 0,
            "v:prev",
            "◀ Move",
            "cmd",
            Some("The move before"),
        ));
        out.push_str(&button_if(
            self.selected + 1 < n,
            "v:next",
            "Move ▶",
            "cmd",
            Some("The move after"),
        ));
        out.push_str(&button_if(
            !marked.is_empty(),
            "v:learn",
            "Learn from your mistakes",
            "cmd primary",
            None,
        ));
        out.push_str("</nav>");
        if marked.is_empty() {
            out.push_str(
                "<p class=\"small\">No move is marked: there is no mistake to learn from.</p>",
            );
        }
        out.push_str("<h2>Every move</h2><ol class=\"moves\" id=\"moves\">");
        for (i, m) in review.moves.iter().enumerate() {
            let mut class = format!("mv {}", m.mark.name());
            if i == self.selected {
                class.push_str(" on");
            }
            out.push_str(&format!(
                "<li class=\"{class}\" data-mark=\"{}\">{} <span class=\"vals\">{} → {}</span></li>",
                m.mark.name(),
                esc(&short(m)),
                esc(&m.before),
                esc(&m.after)
            ));
        }
        out.push_str("</ol>");
        out
    }

    /// The selected move's details.
    fn detail(&self, m: &Reviewed) -> String {
        let side = m
            .side
            .as_deref()
            .map_or(String::new(), |s| format!(" · {s}"));
        let mark = match m.mark {
            Mark::None => "no mark".to_string(),
            mark => mark_words(mark),
        };
        let note = if m.note.is_empty() {
            String::new()
        } else {
            format!("<p id=\"note\">{}</p>", esc(&m.note))
        };
        let board = if m.board.is_empty() {
            String::new()
        } else {
            format!(
                "<pre class=\"position\" aria-label=\"The position before the move\">{}</pre>",
                esc(&m.board)
            )
        };
        format!(
            "<section class=\"card detail {}\" id=\"detail\" aria-label=\"The move selected\"><h2>Move {}{side}: {} <span id=\"mark\">{}</span></h2><p>{} → {}</p><p>best: {}</p>{note}{board}</section>",
            m.mark.name(),
            m.number,
            esc(&m.played),
            esc(&mark),
            esc(&m.before),
            esc(&m.after),
            esc(&m.best.join(", ")),
        )
    }

    /// A tap on a control whose `data-act` was `act`, over the review `review` (if ready).
    pub fn act(&mut self, act: &str, review: Option<&Review>) -> Asked {
        let n = review.map_or(0, |r| r.moves.len());
        match act {
            "v:back" | "history" => return Asked::Back,
            "menu" => return Asked::Menu,
            "v:learn" if review.is_some_and(|r| r.worst().is_some()) => return Asked::Learn,
            "v:prev" => self.selected = self.selected.saturating_sub(1),
            "v:next" if self.selected + 1 < n => self.selected += 1,
            _ => {
                if let Some(i) = act
                    .strip_prefix("v:sel:")
                    .and_then(|i| i.parse::<usize>().ok())
                    .filter(|&i| i < n)
                {
                    self.selected = i;
                }
            }
        }
        Asked::Stay
    }

    /// A key by its browser name: the arrows (and h j k l) a move before or after, `n` and `N` the next and the
    /// previous marked move, `p` the puzzles, q or Esc back.
    pub fn key(&mut self, key: &str, review: Option<&Review>) -> Asked {
        let marks: Vec<usize> = review.map_or_else(Vec::new, |r| {
            r.moves
                .iter()
                .enumerate()
                .filter(|(_, m)| m.mark != Mark::None)
                .map(|(i, _)| i)
                .collect()
        });
        let act = match key {
            "ArrowLeft" | "ArrowUp" | "h" | "k" => "v:prev".to_string(),
            "ArrowRight" | "ArrowDown" | "l" | "j" => "v:next".to_string(),
            "n" => match marks.iter().find(|&&i| i > self.selected) {
                Some(i) => format!("v:sel:{i}"),
                None => return Asked::Stay,
            },
            "N" => match marks.iter().rev().find(|&&i| i < self.selected) {
                Some(i) => format!("v:sel:{i}"),
                None => return Asked::Stay,
            },
            "p" => "v:learn".to_string(),
            "q" | "Escape" => "v:back".to_string(),
            _ => return Asked::Stay,
        };
        self.act(&act, review)
    }

    /// The line for the screen reader.
    pub fn said(&self, coach: &Coach) -> String {
        match coach.review().and_then(|r| r.moves.get(self.selected)) {
            Some(m) => format!("Review: {}. Move {}", coach.line(), short(m)),
            None => format!("Review: {}", coach.line()),
        }
    }
}
