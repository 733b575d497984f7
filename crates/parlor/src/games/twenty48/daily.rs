//! 2048 of the day, Parlor online's daily challenge: the server tells the day's seed (the same game for everyone),
//! the client plays it (on the online screen or in plain mode), and hands in every slide; the server replays them
//! and ranks the score it computes, on the plain board or, after an undo, the assisted one.

use crate::input::{KeyCode, KeyEvent};
use crate::tui::daily::{Daily, DailySaid, Fresh, LobbyKey, board_name};
use crate::tui::keys::{self, Binding, actions, bar, common, more};
use crate::tui::layout::fit_line;
use crate::tui::theme::Theme;
use parlor_online::protocol::{self, ClientMessage, LeaderEntry, ServerMessage};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use twenty48::{Direction, game::Status};

/// 2048 of the day, for the registry.
pub static DAILY: Fresh<Today> = Fresh::new();

/// What the keys of today's game do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    /// Slide.
    Slide(Direction),
    /// Undo the last slide (the game then goes on the assisted board).
    Undo,
    /// Hand the game in to be replayed and ranked by the server.
    Submit,
    /// Drop the game.
    Back,
}

/// The keys of today's 2048, played on the online screen.
const KEYS: &[Binding<Cmd>] = &[
    Binding {
        keys: &[],
        label: "↑←↓→",
        help: "slide",
        in_bar: true,
        cmd: Cmd::Slide(Direction::Up),
    },
    more(common::UP, "↑ w k", "slide up", Cmd::Slide(Direction::Up)),
    more(
        common::DOWN,
        "↓ s j",
        "slide down",
        Cmd::Slide(Direction::Down),
    ),
    more(
        common::LEFT,
        "← a h",
        "slide left",
        Cmd::Slide(Direction::Left),
    ),
    more(
        common::RIGHT,
        "→ d l",
        "slide right",
        Cmd::Slide(Direction::Right),
    ),
    // Undo takes the key of undo in every game, which the settings may remap.
    bar(
        &actions::UNDO,
        "u",
        "undo (the game then goes on the assisted board)",
        Cmd::Undo,
    ),
    bar(
        common::ENTER,
        "Enter",
        "hand in (the server replays it and ranks its score)",
        Cmd::Submit,
    ),
    bar(
        &[KeyCode::Char('q'), KeyCode::Esc],
        "q",
        "drop it (nothing handed in)",
        Cmd::Back,
    ),
];

/// The client's side of 2048 of the day.
#[derive(Debug, Default)]
pub struct Today {
    /// The day and its seed, once the server told them.
    told: Option<(String, u64)>,
    /// The game being played here, with its day.
    playing: Option<(String, twenty48::Game)>,
    /// Asked to play before the seed was known: it starts when the server tells it.
    wanted: bool,
    /// Played on the online screen (else in plain mode).
    on_screen: bool,
}

/// The message that hands a game of the day in: every slide played, the score they make, and whether undo was used
/// (the client gives no hints in a daily game); the server replays the slides and ranks the score it computes.
fn submit(day: &str, game: &twenty48::Game) -> ClientMessage {
    ClientMessage::Submit2048 {
        day: day.to_string(),
        actions: protocol::actions_to_letters(game.actions()),
        score: game.score(),
        hints: false,
        undo: game.undo_count() > 0,
    }
}

/// The board and the score as plain mode prints them.
fn plain_board(game: &twenty48::Game) -> String {
    format!(
        "{}\nscore {}",
        super::board_text::board_text(game.board(), None, &[]),
        game.score()
    )
}

impl Today {
    /// Starts the day's game here, if its seed is known.
    fn start(&mut self) -> Vec<DailySaid> {
        let Some((day, seed)) = self.told.clone() else {
            return Vec::new();
        };
        let game = twenty48::Game::new(twenty48::Rules::default(), seed);
        let said = if self.on_screen {
            let k = |cmd| keys::key_of(KEYS, cmd);
            format!(
                "2048 of the day {day}: arrows slide, {} undoes, {} hands it in, {} drops it",
                k(Cmd::Undo),
                k(Cmd::Submit),
                k(Cmd::Back)
            )
        } else {
            format!(
                "2048 of the day {day}: w a s d (or up down left right) slide, 'undo', 'submit' hands it in, 'stop' \
                 drops it\n{}",
                plain_board(&game)
            )
        };
        self.playing = Some((day, game));
        vec![DailySaid::Say(said)]
    }

    /// A command on the game being played: what to say and send.
    fn command(&mut self, cmd: Cmd) -> Vec<DailySaid> {
        let on_screen = self.on_screen;
        let submit_key = if on_screen {
            keys::key_of(KEYS, Cmd::Submit)
        } else {
            "'submit'".to_string()
        };
        let Some((day, game)) = self.playing.as_mut() else {
            return Vec::new();
        };
        let say = |s: String| vec![DailySaid::Say(s)];
        match cmd {
            Cmd::Slide(dir) => match game.slide(dir) {
                Ok(_) => {
                    let mut lines = Vec::new();
                    if !on_screen {
                        lines.push(plain_board(game));
                    }
                    if game.status() == Status::Over {
                        lines.push(if on_screen {
                            format!(
                                "no move left at {} points: {submit_key} hands the game in",
                                game.score()
                            )
                        } else {
                            "no move left: 'submit' hands the game in".to_string()
                        });
                    }
                    lines.into_iter().map(DailySaid::Say).collect()
                }
                Err(e) => say(format!("refused: {e}")),
            },
            Cmd::Undo => match game.undo() {
                Ok(()) if on_screen => {
                    say("undone: the game goes on the assisted board".to_string())
                }
                Ok(()) => say(format!(
                    "{} (undone: the game goes on the assisted board)",
                    plain_board(game)
                )),
                Err(e) => say(format!("refused: {e}")),
            },
            Cmd::Submit => {
                let msg = submit(day, game);
                let line = format!(
                    "2048 of {day} handed in with {} points: the server replays it",
                    game.score()
                );
                self.playing = None;
                vec![DailySaid::Say(line), DailySaid::Send(msg)]
            }
            Cmd::Back => {
                self.playing = None;
                say("2048 of the day dropped (nothing handed in)".to_string())
            }
        }
    }
}

impl Daily for Today {
    fn which(&self) -> protocol::Daily {
        protocol::Daily::Twenty48
    }

    fn name(&self) -> &'static str {
        "2048"
    }

    fn word(&self) -> &'static str {
        "2048"
    }

    fn ask(&self) -> ClientMessage {
        ClientMessage::Daily2048 {}
    }

    fn hear(&mut self, msg: &ServerMessage, key: Option<&str>) -> Option<Vec<String>> {
        match msg {
            ServerMessage::Daily2048 { day, seed } => {
                self.told = Some((day.clone(), *seed));
                Some(vec![match key {
                    Some(k) => format!(
                        "2048 of the day {day}: seed {seed} (the same game for everyone; {k} plays it here)"
                    ),
                    None => format!(
                        "2048 of the day {day}: seed {seed} (the same game for everyone; 'leaderboard 2048' ranks it)"
                    ),
                }])
            }
            ServerMessage::Scored2048 {
                day,
                board,
                score,
                max_tile,
                moves,
                rank,
            } => Some(vec![format!(
                "2048 of {day} scored by the server: {score} points, tile {max_tile}, {moves} moves: rank {rank} on the {} board",
                board_name(*board)
            )]),
            _ => None,
        }
    }

    fn leader_text(&self, e: &LeaderEntry) -> String {
        format!(
            "  {:>3}. {} {} (tile {}, {} moves)",
            e.rank,
            e.name,
            e.score,
            e.max_tile.unwrap_or(0),
            e.detail
        )
    }

    fn lobby_key(&self) -> LobbyKey {
        LobbyKey {
            keys: &[KeyCode::Char('2')],
            label: "2",
            help: "play today's 2048 here (the server replays it and ranks its score)",
        }
    }

    fn help_text(&self) -> &'static str {
        "plays today's 2048 here (the server replays it and ranks its score)"
    }

    fn open(&mut self) -> Vec<DailySaid> {
        self.on_screen = true;
        if self.told.is_some() {
            self.start()
        } else {
            self.wanted = true;
            vec![DailySaid::Send(self.ask())]
        }
    }

    fn is_open(&self) -> bool {
        self.on_screen && self.playing.is_some()
    }

    fn due(&mut self) -> Vec<DailySaid> {
        if self.wanted && self.told.is_some() {
            self.wanted = false;
            self.start()
        } else {
            Vec::new()
        }
    }

    fn key(&mut self, key: &KeyEvent) -> Vec<DailySaid> {
        match keys::lookup(KEYS, key) {
            Some(cmd) => self.command(cmd),
            None => Vec::new(),
        }
    }

    fn line(&self) -> Option<String> {
        None
    }

    fn draw(&self, frame: &mut Frame, body: Rect, theme: &Theme, log: &[String]) {
        let Some((day, game)) = &self.playing else {
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
        let news = log.len().min(room);
        for l in &log[log.len() - news..] {
            lines.push(Line::styled(l.clone(), theme.dim()));
        }
        let lines: Vec<Line> = lines.into_iter().map(|l| fit_line(l, body.width)).collect();
        frame.render_widget(Paragraph::new(lines), body);
    }

    fn hints(&self) -> Vec<(&'static str, &'static str)> {
        keys::describe(KEYS, true)
    }

    fn help_rows(&self) -> Vec<(String, &'static str)> {
        let mut rows = vec![("2048 today:".to_string(), "")];
        rows.extend(keys::help_keys(KEYS));
        rows
    }

    fn plain_help(&self) -> &'static str {
        "  play 2048                    play today's 2048 here: w a s d (or up down left right) slide, 'undo',
                               'submit' hands the game in to be replayed and ranked by the server, 'stop' drops it"
    }

    fn plain(&mut self, words: &[&str]) -> Option<Vec<DailySaid>> {
        if self.playing.is_some() && !self.on_screen {
            let cmd = match words {
                ["w" | "k" | "up"] => Some(Cmd::Slide(Direction::Up)),
                ["s" | "j" | "down"] => Some(Cmd::Slide(Direction::Down)),
                ["a" | "h" | "left"] => Some(Cmd::Slide(Direction::Left)),
                ["d" | "l" | "right"] => Some(Cmd::Slide(Direction::Right)),
                ["undo"] => Some(Cmd::Undo),
                ["submit"] => Some(Cmd::Submit),
                ["stop"] => Some(Cmd::Back),
                _ => None,
            };
            if let Some(cmd) = cmd {
                return Some(self.command(cmd));
            }
        }
        match words {
            ["play", "2048"] if self.told.is_some() => {
                self.on_screen = false;
                Some(self.start())
            }
            ["play", "2048"] => Some(vec![DailySaid::Say(
                "first 'daily 2048', to know the day's game".to_string(),
            )]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_key_is_bound_twice() {
        assert!(keys::clashes(KEYS).is_empty());
    }

    #[test]
    fn undo_follows_the_settings() {
        let mut keymap: Vec<Vec<KeyCode>> =
            actions::ALL.iter().map(|a| a.default.to_vec()).collect();
        keymap[actions::find("undo").unwrap()] = vec![KeyCode::Char('z')];
        keys::set_keymap(&keymap);
        assert_eq!(
            keys::hints(KEYS, &[(Cmd::Undo, None)]),
            [("z", "undo (the game then goes on the assisted board)")]
        );
        keys::set_keymap(&[]);
    }
}
