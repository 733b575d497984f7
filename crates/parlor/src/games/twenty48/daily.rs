//! 2048 of the day, Parlor online's daily challenge, ranked: the server deals the game tile by tile (each player's
//! from a seed of its own that it tells nobody before the day is over), so the client sends each slide as it is
//! made and draws the tile the server places; no undo, no hints. The day's shared seed (`daily 2048`) is the
//! unranked board's, which takes whole games handed in by other clients.

use crate::input::{KeyCode, KeyEvent};
use crate::tui::daily::{Daily, DailySaid, Fresh, LobbyKey, board_name};
use crate::tui::keys::{self, Binding, bar, common, more};
use crate::tui::layout::fit_line;
use crate::tui::theme::Theme;
use parlor_online::protocol::{self, ClientMessage, LeaderEntry, ServerMessage, Tile};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;
use twenty48::{Action, Board, Direction};

/// 2048 of the day, for the registry.
pub static DAILY: Fresh<Today> = Fresh::new();

/// What the keys of today's game do.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmd {
    /// Slide.
    Slide(Direction),
    /// Leave the game (it stays on the server as it is, to take up again).
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
    bar(
        &[KeyCode::Char('q'), KeyCode::Esc],
        "q",
        "leave it (the server keeps it as it is: 2 takes it up)",
        Cmd::Back,
    ),
];

/// Today's ranked game as the server dealt it.
#[derive(Clone, Debug, PartialEq)]
struct Ranked {
    /// The day.
    day: String,
    /// The board after the slides played.
    board: Board,
    /// The slides played.
    moves: u64,
    /// The server's score.
    score: u64,
    /// The tile the last slide placed.
    tile: Option<(usize, usize)>,
    /// Whether no slide is left.
    over: bool,
    /// The slide sent and not answered yet (its number and letter): its tile decides what the next slide does, so
    /// slides typed meanwhile wait in `ahead`; after a reconnection it is sent again (harmless: the server answers
    /// a slide sent twice the same).
    waiting: Option<(u64, String)>,
    /// Slides typed while one was waiting, played in order as the answers come (at most [`AHEAD`]).
    ahead: std::collections::VecDeque<Direction>,
}

/// The most slides kept typed ahead of the server's answers.
const AHEAD: usize = 64;

/// The client's side of 2048 of the day.
#[derive(Debug, Default)]
pub struct Today {
    /// The day and the unranked board's seed, once the server told them.
    told: Option<String>,
    /// Today's ranked game, once the server dealt it.
    playing: Option<Ranked>,
    /// A refusal came while playing: the game is asked again before the next slide (the server's is the game).
    resync: bool,
    /// The connection came back while a slide waited: it is sent again.
    resend: bool,
    /// `ranked_2048` was sent and not answered yet.
    asked: bool,
    /// Played on the online screen (else in plain mode).
    on_screen: bool,
}

/// The protocol's letter of a slide.
fn letter(dir: Direction) -> String {
    protocol::actions_to_letters(&[Action::Slide(dir)])
}

/// The board and the score as plain mode prints them.
fn plain_board(g: &Ranked) -> String {
    format!(
        "{}\nscore {}",
        super::board_text::board_text(&g.board, g.tile, &[]),
        g.score
    )
}

impl Today {
    /// The lines that say the game as the server dealt it.
    fn dealt_lines(&self, g: &Ranked, rank: Option<u32>, first: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if first {
            lines.push(if self.on_screen {
                let k = keys::key_of(KEYS, Cmd::Back);
                format!(
                    "ranked 2048 of {}: the server deals each tile as you slide (arrows slide, no undo, {k} leaves it)",
                    g.day
                )
            } else {
                format!(
                    "ranked 2048 of {}: the server deals each tile as you slide: w a s d (or up down left right) \
                     slide, no undo, 'stop' leaves it",
                    g.day
                )
            });
        }
        if !self.on_screen {
            lines.push(plain_board(g));
        }
        if g.over {
            lines.push(match rank {
                Some(r) => format!(
                    "no slide left: ranked 2048 of {} over at {} points, rank {r} on the plain board",
                    g.day, g.score
                ),
                None => format!(
                    "no slide left: ranked 2048 of {} over at {} points",
                    g.day, g.score
                ),
            });
        }
        lines
    }

    /// Sends `dir` as the next slide of `g`, unless it moves nothing or the game is over (said instead).
    fn send_slide(g: &mut Ranked, dir: Direction) -> DailySaid {
        if g.over {
            return DailySaid::Say(format!(
                "ranked 2048 of {} is over at {} points",
                g.day, g.score
            ));
        }
        if !g.board.can_slide(dir) {
            return DailySaid::Say("refused: that slide moves nothing".to_string());
        }
        let (n, dir) = (g.moves + 1, letter(dir));
        g.waiting = Some((n, dir.clone()));
        DailySaid::Send(ClientMessage::Slide2048 {
            day: g.day.clone(),
            n,
            dir,
        })
    }

    /// A command on the game being played: what to say and send.
    fn command(&mut self, cmd: Cmd) -> Vec<DailySaid> {
        if self.resync {
            self.resync = false;
            self.asked = true;
            return vec![
                DailySaid::Say("asking the server for the game as it stands".to_string()),
                DailySaid::Send(ClientMessage::Ranked2048 {}),
            ];
        }
        let Some(g) = self.playing.as_mut() else {
            return Vec::new();
        };
        match cmd {
            Cmd::Slide(dir) if g.waiting.is_some() => {
                if g.ahead.len() < AHEAD {
                    g.ahead.push_back(dir);
                }
                Vec::new()
            }
            Cmd::Slide(dir) => vec![Self::send_slide(g, dir)],
            Cmd::Back => {
                let line = format!(
                    "ranked 2048 of {} left at {} points: the server keeps it as it is",
                    g.day, g.score
                );
                self.on_screen = false;
                self.playing = None;
                vec![DailySaid::Say(line)]
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

    fn offers(&self, kind: &str) -> Option<&'static str> {
        match kind {
            "ranked_2048" | "slide_2048" => Some("the ranked 2048 of the day"),
            "daily_2048" | "submit_2048" => Some("the 2048 of the day"),
            _ => None,
        }
    }

    fn hear(&mut self, msg: &ServerMessage, key: Option<&str>) -> Option<Vec<String>> {
        match msg {
            // A past day, over: its deal is the player's to play again (the local game of that seed is the same
            // deal, tile for tile, with the default rules).
            ServerMessage::PastDay {
                day,
                seed_2048,
                slides,
                score,
                ..
            } => Some(vec![if slides.is_empty() {
                format!(
                    "ranked 2048 of {day}: not played; its deal for you is seed {seed_2048}: `parlor 2048 --seed {seed_2048}` plays it"
                )
            } else {
                format!(
                    "ranked 2048 of {day}: {} slides, {score} points, dealt from seed {seed_2048}: `parlor 2048 --seed {seed_2048}` plays the same deal again; your slides: {slides}",
                    slides.chars().count()
                )
            }]),
            ServerMessage::Daily2048 { day, seed } => {
                self.told = Some(day.clone());
                Some(vec![match key {
                    Some(k) => format!(
                        "2048 of the day {day}: {k} plays the ranked game, dealt by the server (the unranked board's seed is {seed})"
                    ),
                    None => format!(
                        "2048 of the day {day}: 'play 2048' plays the ranked game, dealt by the server (the unranked board's seed is {seed})"
                    ),
                }])
            }
            ServerMessage::Dealt2048 {
                day,
                moves,
                board,
                score,
                tile,
                over,
                rank,
            } => {
                let Ok(board) = board.parse::<Board>() else {
                    return Some(vec![format!(
                        "the server's 2048 board does not read: {board:.40}"
                    )]);
                };
                // An answer to a slide sent again, older than what is known, or one come after leaving the game.
                let stale = match &self.playing {
                    _ if self.asked => false,
                    Some(cur) if cur.day == *day => {
                        *moves < cur.moves || cur.waiting.as_ref().is_some_and(|(n, _)| *moves < *n)
                    }
                    Some(_) => false,
                    None => true,
                };
                if stale {
                    return Some(Vec::new());
                }
                self.asked = false;
                let first = self.playing.is_none();
                let g = Ranked {
                    day: day.clone(),
                    board,
                    moves: *moves,
                    score: *score,
                    tile: tile.map(|Tile { row, col, .. }| (row as usize, col as usize)),
                    over: *over,
                    waiting: None,
                    ahead: self
                        .playing
                        .as_mut()
                        .filter(|cur| cur.day == *day)
                        .map(|cur| std::mem::take(&mut cur.ahead))
                        .unwrap_or_default(),
                };
                self.resync = false;
                let lines = self.dealt_lines(&g, *rank, first);
                self.playing = Some(g);
                Some(lines)
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
            ServerMessage::Error { .. } => {
                // Maybe the slide waited for: the server's game is asked again before the next one, and the slides
                // typed ahead of it are dropped.
                if let Some(g) = self.playing.as_mut()
                    && g.waiting.take().is_some()
                {
                    g.ahead.clear();
                    self.resync = true;
                }
                None
            }
            ServerMessage::Welcome { .. } => {
                self.resend = self.playing.as_ref().is_some_and(|g| g.waiting.is_some());
                None
            }
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
            help: "play today's ranked 2048 here (the server deals each tile)",
        }
    }

    fn help_text(&self) -> &'static str {
        "plays today's ranked 2048 here (the server deals each tile)"
    }

    fn open(&mut self) -> Vec<DailySaid> {
        self.on_screen = true;
        self.asked = true;
        vec![DailySaid::Send(ClientMessage::Ranked2048 {})]
    }

    fn is_open(&self) -> bool {
        self.on_screen && self.playing.is_some()
    }

    fn due(&mut self) -> Vec<DailySaid> {
        if self.resync {
            self.resync = false;
            self.asked = true;
            return vec![DailySaid::Send(ClientMessage::Ranked2048 {})];
        }
        let Some(g) = self.playing.as_mut() else {
            return Vec::new();
        };
        if std::mem::take(&mut self.resend)
            && let Some((n, dir)) = g.waiting.clone()
        {
            return vec![DailySaid::Send(ClientMessage::Slide2048 {
                day: g.day.clone(),
                n,
                dir,
            })];
        }
        // The slides typed ahead, once the one before is answered: the first that moves is sent.
        let mut said = Vec::new();
        while g.waiting.is_none()
            && let Some(dir) = g.ahead.pop_front()
        {
            said.push(Self::send_slide(g, dir));
        }
        said
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
        let Some(g) = &self.playing else {
            return;
        };
        let n = g.board.size();
        let rule = format!("+{}", "------+".repeat(n));
        let mut lines = vec![
            Line::styled(
                format!(
                    "ranked 2048 of the day {} · score {} · moves {}{}",
                    g.day,
                    g.score,
                    g.moves,
                    if g.over { " · over" } else { "" }
                ),
                theme.strong(),
            ),
            Line::raw(rule.clone()),
        ];
        for r in 0..n {
            let row: String = (0..n)
                .map(|c| {
                    let mark = if g.tile == Some((r, c)) { '+' } else { ' ' };
                    match g.board.tile(r, c) {
                        0 => format!("{:>5} |", "."),
                        v => format!("{v:>4}{mark} |"),
                    }
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
        let mut rows = vec![("ranked 2048 today:".to_string(), "")];
        rows.extend(keys::help_keys(KEYS));
        rows
    }

    fn plain_help(&self) -> &'static str {
        "  play 2048                    play today's ranked 2048 here, dealt tile by tile by the server: w a s d (or
                               up down left right) slide, no undo, 'stop' leaves it (the server keeps it)"
    }

    fn plain(&mut self, words: &[&str]) -> Option<Vec<DailySaid>> {
        if self.playing.is_some() && !self.on_screen {
            let cmd = match words {
                ["w" | "k" | "up"] => Some(Cmd::Slide(Direction::Up)),
                ["s" | "j" | "down"] => Some(Cmd::Slide(Direction::Down)),
                ["a" | "h" | "left"] => Some(Cmd::Slide(Direction::Left)),
                ["d" | "l" | "right"] => Some(Cmd::Slide(Direction::Right)),
                ["stop"] => Some(Cmd::Back),
                _ => None,
            };
            if let Some(cmd) = cmd {
                return Some(self.command(cmd));
            }
        }
        match words {
            ["play", "2048"] => {
                self.on_screen = false;
                self.playing = None;
                self.asked = true;
                Some(vec![DailySaid::Send(ClientMessage::Ranked2048 {})])
            }
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

    fn dealt(moves: u64, board: &str, tile: Option<Tile>, over: bool) -> ServerMessage {
        ServerMessage::Dealt2048 {
            day: "2026-12-07".into(),
            moves,
            board: board.into(),
            score: 4 * moves,
            tile,
            over,
            rank: over.then_some(3),
        }
    }

    #[test]
    fn slides_go_to_the_server_one_at_a_time_and_its_tiles_are_drawn() {
        let mut today = Today::default();
        assert_eq!(
            today.plain(&["play", "2048"]),
            Some(vec![DailySaid::Send(ClientMessage::Ranked2048 {})])
        );
        today.hear(
            &dealt(0, "2,0,0,2/0,0,0,0/0,0,0,0/0,0,0,0", None, false),
            None,
        );
        // A slide that moves nothing is not sent.
        assert_eq!(
            today.plain(&["w"]),
            Some(vec![DailySaid::Say(
                "refused: that slide moves nothing".into()
            )])
        );
        let slide = |n: u64, dir: &str| {
            Some(vec![DailySaid::Send(ClientMessage::Slide2048 {
                day: "2026-12-07".into(),
                n,
                dir: dir.into(),
            })])
        };
        assert_eq!(today.plain(&["s"]), slide(1, "d"));
        // Before its tile comes, slides typed wait their turn.
        assert_eq!(today.plain(&["d"]), Some(Vec::new()));
        assert_eq!(today.plain(&["a"]), Some(Vec::new()));
        assert_eq!(today.due(), Vec::new(), "slide 1 is not answered yet");
        let tile = Tile {
            row: 0,
            col: 1,
            value: 2,
        };
        let lines = today
            .hear(
                &dealt(1, "0,2,0,0/0,0,0,0/0,0,0,0/2,0,0,2", Some(tile), false),
                None,
            )
            .unwrap();
        assert!(lines[0].contains("2+"), "the new tile is marked: {lines:?}");
        assert_eq!(
            Some(today.due()),
            slide(2, "r"),
            "the next typed, once answered"
        );
        // An answer older than what is known (slide 1's, sent again) changes nothing.
        assert_eq!(
            today.hear(
                &dealt(1, "0,2,0,0/0,0,0,0/0,0,0,0/2,0,0,2", Some(tile), false),
                None
            ),
            Some(Vec::new())
        );
        // The connection back: the slide waited for goes again.
        let welcome = ServerMessage::Welcome {
            name: "ann".into(),
            rating: protocol::Rating::NEW,
            games: Vec::new(),
        };
        today.hear(&welcome, None);
        assert_eq!(Some(today.due()), slide(2, "r"));
        assert_eq!(today.due(), Vec::new());
        // A refusal: the slides typed ahead are dropped and the game is asked again.
        today.hear(
            &ServerMessage::error(protocol::ErrorCode::Conflict, "no", None),
            None,
        );
        assert_eq!(today.due(), [DailySaid::Send(ClientMessage::Ranked2048 {})]);
        let over = today
            .hear(
                &dealt(9, "2,4,2,4/4,2,4,2/2,4,2,4/4,2,4,2", Some(tile), true),
                None,
            )
            .unwrap();
        assert!(
            over.last().unwrap().contains("rank 3 on the plain board"),
            "{over:?}"
        );
        assert!(
            matches!(&today.plain(&["a"]).unwrap()[0], DailySaid::Say(l) if l.contains("is over")),
            "no slide is sent once it is over"
        );
    }
}
