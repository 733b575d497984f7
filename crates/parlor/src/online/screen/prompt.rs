//! The questions and typed lines over the online screen: a challenge's or the queue's terms, and whether to
//! resign (a daily challenge played as a typed line types its own).

use super::OnlineView;
use crate::input::{KeyCode, KeyEvent};
use crate::online::model::terms_of;
use crate::tui::keys::{self, Answer, QUESTION};
use parlor_online::protocol::ClientMessage;

/// A question or a line being typed, over the screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Prompt {
    /// `NAME [RxC]` of a player to challenge, as typed so far.
    Challenge(String),
    /// `[RxC] [M+S]` of the queue to join, as typed so far.
    Queue(String),
    /// Resign game N? (y/n)
    Resign(u64),
}

impl OnlineView {
    pub(super) fn prompt_key(&mut self, prompt: Prompt, key: KeyEvent) {
        let prompt_kind = prompt.clone();
        match prompt {
            Prompt::Resign(id) => match keys::lookup(QUESTION, &key) {
                Some(Answer::Yes) => self.send(ClientMessage::Resign { game: id }),
                _ => self.say("not resigned"),
            },
            Prompt::Challenge(text) | Prompt::Queue(text) if key.code == KeyCode::Enter => {
                let queue = matches!(prompt_kind, Prompt::Queue(_));
                let mut words: Vec<&str> = text.split_whitespace().collect();
                let name = if queue || words.is_empty() {
                    None
                } else {
                    Some(words.remove(0).to_string())
                };
                match (terms_of(&words), name) {
                    (Err(e), _) => self.say(e),
                    (Ok((board, clock, _)), None) if queue => {
                        self.send(ClientMessage::Queue { board, clock })
                    }
                    (Ok((board, clock, rated)), Some(opponent)) => {
                        self.send(ClientMessage::Challenge {
                            opponent,
                            board,
                            clock,
                            rated,
                        })
                    }
                    (Ok(_), None) => self.say("no challenge: no name typed"),
                }
            }
            Prompt::Challenge(_) | Prompt::Queue(_) if key.code == KeyCode::Esc => {
                self.say("nothing sent")
            }
            Prompt::Challenge(mut text) | Prompt::Queue(mut text) => {
                match key.code {
                    KeyCode::Backspace => {
                        text.pop();
                    }
                    KeyCode::Char(ch) if text.len() < 60 => text.push(ch),
                    _ => {}
                }
                self.prompt = Some(match prompt_kind {
                    Prompt::Queue(_) => Prompt::Queue(text),
                    _ => Prompt::Challenge(text),
                });
            }
        }
    }
}
