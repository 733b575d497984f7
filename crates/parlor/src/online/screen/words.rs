//! What the online screen says about its keys: the hint bar, which follows the state (what is under the lobby's
//! cursor; a game in play, over, or watched; a daily challenge open; a question asked or a line typed), the line
//! of the question or typed line, the keys the model's lines name ([`KeyWords`]), and the help. Every key named
//! comes from the live tables (the `bindings` module, the board's and the daily challenges').

use super::bindings::{Cmd, GAME, answer_keys, help_rows};
use super::prompt::Prompt;
use super::{Item, OnlineView};
use crate::online::model::KeyWords;
use crate::tui::Help;
use crate::tui::keys::{TYPING, Typing, hints, key_of, typing_hints};

impl OnlineView {
    /// The keys the model's lines name (a challenge received or sent, a rematch offered, the daily challenges).
    pub(super) fn key_words(&self) -> KeyWords {
        let lobby = self.lobby_table();
        KeyWords {
            accept: format!(
                "{} or {}",
                key_of(&lobby, Cmd::Open),
                key_of(&lobby, Cmd::Accept)
            ),
            decline: key_of(&lobby, Cmd::Decline),
            cancel: key_of(&lobby, Cmd::Decline),
            rematch: key_of(GAME, Cmd::Rematch),
            decline_rematch: key_of(GAME, Cmd::DeclineRematch),
            dailies: (0..self.model.dailies.len())
                .map(|i| key_of(&lobby, Cmd::OpenDaily(i)))
                .collect(),
        }
    }

    /// The hint bar now.
    pub(super) fn hints_now(&self) -> Vec<(&'static str, &'static str)> {
        if let Some(p) = &self.prompt {
            return match p {
                Prompt::Resign(_) => {
                    let (yes, no) = answer_keys();
                    vec![(yes, "resign"), (no, "keep playing")]
                }
                Prompt::Queue(_) => typing_hints(Some("join")),
                Prompt::Challenge(_) => typing_hints(None),
            };
        }
        if let Some(i) = self.open_daily() {
            return self.model.dailies[i].hints();
        }
        if self.in_game
            && let Some(g) = self.game()
        {
            let seat = g.seat();
            let board = self.board.hints(&seat);
            let mut want: Vec<(Cmd, Option<&'static str>)> = Vec::new();
            match (&g.ending, g.side) {
                (None, Some(_)) => want.push((Cmd::Resign, Some("resign"))),
                (None, None) => {}
                (Some(_), mine) => {
                    if mine.is_some() {
                        let offered = g
                            .rematch_from
                            .as_deref()
                            .is_some_and(|f| f != self.model.me);
                        if offered {
                            want.push((Cmd::Rematch, Some("accept the rematch")));
                            want.push((Cmd::DeclineRematch, Some("decline it")));
                        } else {
                            want.push((Cmd::Rematch, Some("rematch")));
                        }
                    }
                    want.push((Cmd::Import, Some("import")));
                }
            }
            want.push((Cmd::Back, Some("lobby")));
            return board.into_iter().chain(hints(GAME, &want)).collect();
        }
        let items = self.items();
        let under = items
            .get(self.row.min(items.len().saturating_sub(1)))
            .copied();
        let mut want: Vec<(Cmd, Option<&'static str>)> = match under {
            Some(Item::Incoming(_)) => {
                vec![(Cmd::Open, Some("accept")), (Cmd::Decline, Some("decline"))]
            }
            Some(Item::Game(id)) => {
                let mut v = vec![(Cmd::Open, Some("open"))];
                if self
                    .model
                    .games
                    .get(&id)
                    .is_some_and(|g| g.ending.is_some())
                {
                    v.push((Cmd::Import, Some("import")));
                }
                v
            }
            Some(Item::Outgoing(_)) => vec![(Cmd::Decline, Some("cancel"))],
            Some(Item::Live(_)) => vec![(Cmd::Open, Some("watch"))],
            Some(Item::Player(i))
                if self
                    .model
                    .players
                    .get(i)
                    .is_some_and(|p| p.name != self.model.me) =>
            {
                vec![(Cmd::Open, Some("challenge"))]
            }
            _ => Vec::new(),
        };
        want.push((Cmd::Challenge, Some("challenge by name")));
        want.push((
            Cmd::Queue,
            Some(if self.model.queue.is_some() {
                "leave the queue"
            } else {
                "queue"
            }),
        ));
        if self.game().is_some() {
            want.push((Cmd::Switch, Some("game")));
        }
        want.push((
            Cmd::Back,
            Some(if self.back_to_menu { "menu" } else { "quit" }),
        ));
        hints(&self.lobby_table(), &want)
    }

    /// The line of the question asked or the line being typed.
    pub(super) fn prompt_line(p: &Prompt) -> String {
        let send = key_of(TYPING, Typing::Send);
        let cancel = key_of(TYPING, Typing::Cancel);
        match p {
            Prompt::Challenge(t) => {
                format!("Challenge: NAME [RxC] [M+S] [rated], {send} sends, {cancel} cancels: {t}▏")
            }
            Prompt::Queue(t) => {
                format!("Rated queue: [RxC] [M+S], {send} joins, {cancel} cancels: {t}▏")
            }
            Prompt::Resign(id) => {
                let (yes, no) = answer_keys();
                format!("Resign game {id}? {yes} resign · {no} keep playing")
            }
        }
    }

    /// The help: each key table under its heading, then what the screen does, naming the keys as bound.
    pub(super) fn help_now(&self) -> Help {
        let lobby = self.lobby_table();
        let k = |cmd| key_of(&lobby, cmd);
        let g = |cmd| key_of(GAME, cmd);
        let leave = if self.back_to_menu {
            "goes back to the menu"
        } else {
            "quits"
        };
        let room = self.model.room;
        let mut dailies = vec![
            format!("{} shows today's and their leaderboards", k(Cmd::Daily)),
            format!(
                "{} says yesterday's daily games, the day over and its seeds told: each one's deal or secret, \
                 to play it again, and what you played",
                k(Cmd::PastDay)
            ),
        ];
        dailies.extend(
            self.model
                .dailies
                .iter()
                .enumerate()
                .map(|(i, d)| format!("{} {}", k(Cmd::OpenDaily(i)), d.help_text())),
        );
        Help {
            title: "Parlor online".to_string(),
            keys: help_rows(self.board.help_rows(), &self.model.dailies),
            text: vec![
                format!(
                    "{title} against people on a Parlor server. The lobby lists the challenges to you ({open} or \
                     {accept} accepts the one under the cursor, {decline} declines it), your games, the challenges \
                     you sent ({decline} withdraws one), the live games to watch and the players online; \
                     {challenge} challenges a player by name, with a board size if not 6x5 (bob 3x3), and {queue} \
                     joins the rated queue.",
                    title = room.title(),
                    open = k(Cmd::Open),
                    accept = k(Cmd::Accept),
                    decline = k(Cmd::Decline),
                    challenge = k(Cmd::Challenge),
                    queue = k(Cmd::Queue),
                ),
                format!(
                    "{board}; {resign} resigns (asking first). After the end {rematch} offers a rematch (or \
                     accepts the one offered, {decline} declines it) and {import} adds the game to the local \
                     history, replayable from the menu like a local game. {switch} or {back} goes back to the \
                     lobby; {quit} in the lobby {leave}.",
                    board = room.board_help(),
                    resign = g(Cmd::Resign),
                    rematch = g(Cmd::Rematch),
                    decline = g(Cmd::DeclineRematch),
                    import = g(Cmd::Import),
                    switch = g(Cmd::Switch),
                    back = g(Cmd::Back),
                    quit = k(Cmd::Back),
                ),
                format!("The daily challenges: {}.", dailies.join(", ")),
                "When the connection drops, the line at the top says so and the client connects again by itself, \
                 taking every game up where it was; the server holds your seat for its grace period. When your \
                 opponent's connection drops, the game says so and counts their grace period down: past it they \
                 lose the game."
                    .to_string(),
            ],
        }
    }
}
