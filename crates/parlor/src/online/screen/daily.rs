//! The daily challenges on the online screen: today's 2048 played here and handed in, a guess at today's
//! Mastermind.

use super::OnlineView;
use super::bindings::{Cmd, DAILY_2048, key_of};
use crate::tui::layout::fit_line;
use crate::tui::theme::Theme;
use parlor_online::protocol::ClientMessage;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

impl OnlineView {
    /// Sends a guess at today's Mastermind (its day known).
    pub(super) fn guess(&mut self, code: String) {
        let Some(d) = &self.model.daily_mastermind else {
            return;
        };
        let msg = ClientMessage::Guess {
            day: d.day.clone(),
            n: d.guesses.len() as u32 + 1,
            code,
        };
        self.send(msg);
    }

    /// Starts today's 2048 on this screen (the server told the day and its seed).
    pub(super) fn start_2048(&mut self) {
        let Some((day, seed)) = self.model.daily_2048.clone() else {
            return;
        };
        let game = twenty48::Game::new(twenty48::Rules::default(), seed);
        let k = |cmd| key_of(DAILY_2048, cmd);
        self.say(format!(
            "2048 of the day {day}: arrows slide, {} undoes, {} hands it in, {} drops it",
            k(Cmd::Undo),
            k(Cmd::Submit),
            k(Cmd::Back)
        ));
        self.t48 = Some((day, game));
    }

    /// A key of today's 2048.
    pub(super) fn t48_key(&mut self, cmd: Cmd) {
        let submit = key_of(DAILY_2048, Cmd::Submit);
        let Some((day, game)) = self.t48.as_mut() else {
            return;
        };
        let line = match cmd {
            Cmd::Slide(dir) => match game.slide(dir) {
                Ok(_) if game.status() == twenty48::game::Status::Over => Some(format!(
                    "no move left at {} points: {submit} hands the game in",
                    game.score()
                )),
                Ok(_) => None,
                Err(e) => Some(format!("refused: {e}")),
            },
            Cmd::Undo => Some(match game.undo() {
                Ok(()) => "undone: the game goes on the assisted board".to_string(),
                Err(e) => format!("refused: {e}"),
            }),
            Cmd::Submit => {
                let msg = crate::online::model::submit_2048(day, game);
                let line = format!(
                    "2048 of {day} handed in with {} points: the server replays it",
                    game.score()
                );
                self.t48 = None;
                self.send(msg);
                Some(line)
            }
            Cmd::Back => {
                self.t48 = None;
                Some("2048 of the day dropped (nothing handed in)".to_string())
            }
            _ => None,
        };
        if let Some(line) = line {
            self.say(line);
        }
    }

    /// Today's 2048: the day, the score, the board and the newest news.
    pub(super) fn draw_2048(&mut self, frame: &mut Frame, body: Rect, theme: &Theme) {
        let Some((day, game)) = &self.t48 else {
            return;
        };
        let board = game.board();
        let n = board.size();
        let rule = format!("+{}", "------+".repeat(n));
        let mut lines = vec![
            Line::styled(
                format!(
                    "2048 of the day {day} · score {} · actions {}{}",
                    game.score(),
                    game.actions().len(),
                    if game.undo_count() > 0 {
                        " · assisted (undo)"
                    } else {
                        ""
                    }
                ),
                theme.strong(),
            ),
            Line::raw(rule.clone()),
        ];
        for r in 0..n {
            let row: String = (0..n)
                .map(|c| match board.tile(r, c) {
                    0 => format!("{:>5} |", "."),
                    v => format!("{v:>5} |"),
                })
                .collect();
            lines.push(Line::raw(format!("|{row}")));
            lines.push(Line::raw(rule.clone()));
        }
        let room = (body.height as usize).saturating_sub(lines.len() + 1);
        lines.push(Line::raw(""));
        let news = self.log.len().min(room);
        for l in &self.log[self.log.len() - news..] {
            lines.push(Line::styled(l.clone(), theme.dim()));
        }
        let lines: Vec<Line> = lines.into_iter().map(|l| fit_line(l, body.width)).collect();
        frame.render_widget(Paragraph::new(lines), body);
    }
}
