//! Mastermind of the day, Parlor online's daily challenge: the server keeps the day's secret and scores each guess
//! as it comes (black and white key pegs), until the code is found or the guesses run out; its leaderboard ranks
//! by guesses, then time. The client keeps the guesses so far and types the next one (a line over the online
//! screen's lobby, or `guess CODE` in plain mode).

use crate::input::{KeyCode, KeyEvent};
use crate::tui::daily::{Daily, DailySaid, Fresh, LobbyKey};
use crate::tui::keys::{self, TYPING, Typing};
use crate::tui::theme::Theme;
use parlor_online::protocol::{self, ClientMessage, LeaderEntry, ScoredGuess, ServerMessage};
use ratatui::Frame;
use ratatui::layout::Rect;

/// Mastermind of the day, for the registry.
pub static DAILY: Fresh<Today> = Fresh::new();

/// Today's game, as the server keeps it for the player.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Told {
    /// The day, `YYYY-MM-DD`.
    day: String,
    /// The guesses scored so far.
    guesses: usize,
}

/// The client's side of Mastermind of the day.
#[derive(Debug, Default)]
pub struct Today {
    /// Today's game, once the server told it.
    told: Option<Told>,
    /// The guess being typed on the online screen.
    typing: Option<String>,
    /// A guess typed before the server told the day: sent when it does.
    wanted: Option<String>,
}

/// A scored guess in words.
fn guess_text(g: &ScoredGuess) -> String {
    format!(
        "  guess {}: {} -> {} black, {} white",
        g.n, g.code, g.black, g.white
    )
}

impl Today {
    /// The message of a guess at today's game (its day known).
    fn guess(&self, code: String) -> Option<ClientMessage> {
        let t = self.told.as_ref()?;
        Some(ClientMessage::Guess {
            day: t.day.clone(),
            n: t.guesses as u32 + 1,
            code,
        })
    }
}

impl Daily for Today {
    fn which(&self) -> protocol::Daily {
        protocol::Daily::Mastermind
    }

    fn name(&self) -> &'static str {
        "Mastermind"
    }

    fn word(&self) -> &'static str {
        "mastermind"
    }

    fn ask(&self) -> ClientMessage {
        ClientMessage::DailyMastermind {}
    }

    fn offers(&self, kind: &str) -> Option<&'static str> {
        matches!(kind, "daily_mastermind" | "guess").then_some("the daily Mastermind")
    }

    fn hear(&mut self, msg: &ServerMessage, key: Option<&str>) -> Option<Vec<String>> {
        match msg {
            // A past day, over: the secret is told, with the guesses made at it.
            ServerMessage::PastDay {
                day,
                variant,
                secret,
                guesses,
                ..
            } => {
                let mut v = vec![format!(
                    "Mastermind of {day} ({variant}): the secret was {secret}; {} guesses made",
                    guesses.len()
                )];
                v.extend(guesses.iter().map(guess_text));
                Some(v)
            }
            ServerMessage::DailyMastermind {
                day,
                variant,
                guesses,
                solved,
                over,
            } => {
                let next = if *solved {
                    ", solved".to_string()
                } else if *over {
                    ", over".to_string()
                } else {
                    match key {
                        Some(k) => format!("; {k} makes a guess (e.g. RGYU)"),
                        None => "; 'guess CODE' (e.g. guess RGYU)".to_string(),
                    }
                };
                let mut v = vec![format!(
                    "Mastermind of the day {day} ({variant}): {} guesses so far{next}",
                    guesses.len(),
                )];
                v.extend(guesses.iter().map(guess_text));
                self.told = Some(Told {
                    day: day.clone(),
                    guesses: guesses.len(),
                });
                Some(v)
            }
            ServerMessage::GuessScored {
                day,
                guess,
                solved,
                left,
            } => {
                let mut line = guess_text(guess);
                if *solved {
                    line.push_str(": solved!");
                } else {
                    line.push_str(&format!(" ({left} guesses left)"));
                }
                if let Some(t) = self.told.as_mut().filter(|t| t.day == *day) {
                    t.guesses += 1;
                }
                Some(vec![line])
            }
            _ => None,
        }
    }

    fn leader_text(&self, e: &LeaderEntry) -> String {
        format!(
            "  {:>3}. {} {} guesses ({} s)",
            e.rank,
            e.name,
            e.score,
            e.detail / 1000
        )
    }

    fn lobby_key(&self) -> LobbyKey {
        LobbyKey {
            keys: &[KeyCode::Char('m')],
            label: "m",
            help: "a guess at today's Mastermind (scored by the server)",
        }
    }

    fn help_text(&self) -> &'static str {
        "makes a guess at today's Mastermind"
    }

    fn open(&mut self) -> Vec<DailySaid> {
        self.typing = Some(String::new());
        if self.told.is_none() {
            vec![DailySaid::Send(self.ask())]
        } else {
            Vec::new()
        }
    }

    fn is_open(&self) -> bool {
        self.typing.is_some()
    }

    fn due(&mut self) -> Vec<DailySaid> {
        if self.told.is_none() {
            return Vec::new();
        }
        match self.wanted.take().and_then(|code| self.guess(code)) {
            Some(msg) => vec![DailySaid::Send(msg)],
            None => Vec::new(),
        }
    }

    fn key(&mut self, key: &KeyEvent) -> Vec<DailySaid> {
        let Some(mut text) = self.typing.take() else {
            return Vec::new();
        };
        match key.code {
            KeyCode::Enter => {
                let code: String = text.split_whitespace().collect();
                if code.is_empty() {
                    return vec![DailySaid::Say("no guess: no code typed".to_string())];
                }
                match self.guess(code.clone()) {
                    Some(msg) => return vec![DailySaid::Send(msg)],
                    // Sent once the server has told today's game (asked when the line opened).
                    None => self.wanted = Some(code),
                }
                return Vec::new();
            }
            KeyCode::Esc => return vec![DailySaid::Say("no guess sent".to_string())],
            KeyCode::Backspace => {
                text.pop();
            }
            KeyCode::Char(ch) if text.len() < 20 => text.push(ch.to_ascii_uppercase()),
            _ => {}
        }
        self.typing = Some(text);
        Vec::new()
    }

    fn line(&self) -> Option<String> {
        let t = self.typing.as_ref()?;
        let send = keys::key_of(TYPING, Typing::Send);
        let cancel = keys::key_of(TYPING, Typing::Cancel);
        Some(format!(
            "Today's Mastermind: a code (e.g. RGYU), {send} sends, {cancel} cancels: {t}▏"
        ))
    }

    fn draw(&self, _frame: &mut Frame, _body: Rect, _theme: &Theme, _log: &[String]) {}

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        keys::typing_hints(None)
    }

    fn help_rows(&self) -> Vec<(String, &'static str)> {
        Vec::new()
    }

    fn plain_help(&self) -> &'static str {
        "  guess CODE                   a guess at today's Mastermind (e.g. guess RGYU), scored by the server"
    }

    fn plain(&mut self, words: &[&str]) -> Option<Vec<DailySaid>> {
        match words {
            ["guess", code @ ..] if !code.is_empty() => Some(match self.guess(code.concat()) {
                Some(msg) => vec![DailySaid::Send(msg)],
                None => vec![DailySaid::Say(
                    "first 'daily mastermind', to know the day's game".to_string(),
                )],
            }),
            _ => None,
        }
    }
}
