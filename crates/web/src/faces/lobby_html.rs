//! The online screen's HTML: the connect form, the lobby's sections and forms, and a game with both players,
//! its board, its status and its commands.

use super::{CLOCKS, Kind, Lobby, NEWS, field, now, select};
use crate::faces::html::{button, button_if, esc};
use parlor::online::model::{Model, clock_text, queue_text};
use parlor::online::shown::{Item, Section};
use parlor::tui::room::Turn;
use parlor_online::protocol::Side;

impl Lobby {
    /// The sentence for a browser offline, or a connection not up.
    fn connection_line(&self) -> Option<String> {
        if self.offline {
            return Some(
                "This browser is offline: playing online needs the network (your games wait on the server)."
                    .into(),
            );
        }
        let on = self.on.as_ref()?;
        on.model.connection_text().map(|t| {
            if on.model.was_connected || on.model.lost.is_none() {
                t
            } else {
                format!("No server answers at {}. {t}", on.server)
            }
        })
    }

    pub(super) fn connect_html(&self) -> String {
        let mut out = format!(
            "<main class=\"menu online\"><header class=\"top\"><h1>Online</h1></header><p>Play {} against people on a Parlor server.</p>",
            esc(self.played.room.title())
        );
        if self.offline {
            out.push_str(
                "<p class=\"notice\" role=\"status\" id=\"offline\">This browser is offline: playing online needs the network.</p>",
            );
        }
        out.push_str("<form class=\"form\" onsubmit=\"return false\">");
        out.push_str(&field(
            "Server",
            "online:server",
            &self.server,
            Kind::Address,
            "url",
        ));
        out.push_str(&field(
            "Your name",
            "online:name",
            &self.name,
            Kind::Name,
            "nickname",
        ));
        out.push_str(&format!(
            "<button type=\"submit\" class=\"cmd wide primary\" data-act=\"ol:connect\">Connect</button></form>{}",
            if self.notice.is_empty() {
                String::new()
            } else {
                format!(
                    "<p class=\"notice\" role=\"status\" id=\"notice\">{}</p>",
                    esc(&self.notice)
                )
            }
        ));
        out.push_str(&format!(
            "<div class=\"row\">{}</div></main>",
            button("ol:menu", "Menu", "cmd wide", Some("Back to the menu"))
        ));
        out
    }

    /// One row of the lobby: its words and its buttons.
    fn row(m: &Model, item: Item, now_ms: u64) -> String {
        let text = m.item_text(item, now_ms);
        let buttons = match item {
            Item::Incoming(id) => format!(
                "{}{}",
                button(
                    &format!("ol:accept:{id}"),
                    "Accept",
                    "cmd primary",
                    Some(&format!("Accept: {text}"))
                ),
                button(
                    &format!("ol:decline:{id}"),
                    "Decline",
                    "cmd",
                    Some(&format!("Decline: {text}"))
                )
            ),
            Item::Game(id) => {
                let label = match m.games.get(&id) {
                    Some(g) if g.ending.is_some() => "Open",
                    Some(g) if g.side.is_none() => "Watch",
                    _ => "Play",
                };
                button(
                    &format!("ol:open:{id}"),
                    label,
                    "cmd primary",
                    Some(&format!("{label} game {id}")),
                )
            }
            Item::Outgoing(id) => button(
                &format!("ol:cancel:{id}"),
                "Cancel",
                "cmd",
                Some(&format!("Cancel the challenge {text}")),
            ),
            Item::Live(id) => button(
                &format!("ol:watch:{id}"),
                "Watch",
                "cmd",
                Some(&format!("Watch {text}")),
            ),
            Item::Player(i) => match m.players.get(i) {
                Some(p) if p.name != m.me => button(
                    &format!("ol:pick:{i}"),
                    "Challenge",
                    "cmd",
                    Some(&format!("Challenge {}", p.name)),
                ),
                _ => String::new(),
            },
        };
        format!(
            "<li class=\"orow\"><span class=\"otext\">{}</span><span class=\"obtns\">{buttons}</span></li>",
            esc(&text)
        )
    }

    pub(super) fn lobby_html(&self) -> String {
        let Some(on) = &self.on else {
            return String::new();
        };
        let m = &on.model;
        let state = if m.refused.is_some() {
            "refused"
        } else if m.connected {
            "online"
        } else {
            "connecting"
        };
        let mut out = format!(
            "<main class=\"menu online lobby\"><header class=\"top\"><h1>Online</h1><span class=\"who\" id=\"who\">{} · {state}{}</span></header>",
            esc(&m.me),
            m.rating
                .map(|r| format!(" · {}", r.rating))
                .unwrap_or_default()
        );
        if let Some(line) = self.connection_line() {
            out.push_str(&format!(
                "<p class=\"notice\" role=\"status\" id=\"connection\">{}</p>",
                esc(&line)
            ));
        }
        let heads = |s: Section| match s {
            Section::Incoming => "Challenges to you",
            Section::Games => "Your games",
            Section::Outgoing => "Challenges you sent",
            Section::Live => "Games in play",
            Section::Players => "Players online",
        };
        let now_ms = now();
        let items = m.items();
        let mut section = None;
        for item in &items {
            let s = item.section();
            if section != Some(s) {
                if section.is_some() {
                    out.push_str("</ul></section>");
                }
                out.push_str(&format!(
                    "<section class=\"osec\" data-section=\"{s:?}\"><h2>{}</h2><ul class=\"olist\">",
                    heads(s)
                ));
                section = Some(s);
            }
            out.push_str(&Lobby::row(m, *item, now_ms));
        }
        if section.is_some() {
            out.push_str("</ul></section>");
        }
        if items.is_empty() && m.connected {
            out.push_str("<p>Nobody else is here yet.</p>");
        }
        // The challenge form and the rated queue: the same board and clock.
        let boards = self.board.boards();
        let clocks: Vec<(String, String)> = CLOCKS
            .iter()
            .map(|(v, l)| (v.to_string(), l.to_string()))
            .collect();
        out.push_str("<section class=\"osec\" aria-label=\"Challenge\"><h2>Challenge</h2><form class=\"form\" onsubmit=\"return false\">");
        out.push_str(&field(
            "Opponent",
            "online:opponent",
            &self.opponent,
            Kind::Name,
            "off",
        ));
        out.push_str(&select("Board", "online:board", &self.board_name, &boards));
        out.push_str(&select("Clock", "online:clock", &self.clock, &clocks));
        out.push_str(&format!(
            "<button type=\"submit\" class=\"cmd wide primary\" data-act=\"ol:challenge\" aria-label=\"Send the challenge\">Challenge</button></form>{}</section>",
            match &m.queue {
                Some(q) => format!(
                    "<p id=\"queue\">{}</p><div class=\"row\">{}</div>",
                    esc(&queue_text(q)),
                    button("ol:unqueue", "Leave the queue", "cmd wide", None)
                ),
                None => format!(
                    "<div class=\"row\">{}</div>",
                    button_if(
                        m.connected,
                        "ol:queue",
                        "Join the rated queue",
                        "cmd wide",
                        Some("Join the rated queue on this board and clock")
                    )
                ),
            }
        ));
        let news: String = self.log[self.log.len().saturating_sub(NEWS)..]
            .iter()
            .map(|l| format!("<li>{}</li>", esc(l)))
            .collect();
        out.push_str(&format!(
            "<section class=\"osec\" aria-label=\"News\"><ul class=\"news\" id=\"news\">{news}</ul></section><div class=\"row\">{}{}</div></main>",
            button_if(
                self.game().is_some(),
                "ol:game",
                "To the game",
                "cmd wide",
                Some("To the game in front")
            ),
            button("ol:menu", "Menu", "cmd wide", Some("Leave online play: the menu"))
        ));
        out
    }

    pub(super) fn game_html(&mut self) -> String {
        let Some(key) = self.game().map(|g| (g.id, g.game.ply())) else {
            return String::new();
        };
        if self.shown_ply.is_some_and(|s| s != key) {
            // The position changed under a selection: it is let go.
            self.board.forget();
        }
        self.shown_ply = Some(key);
        let Some(on) = &self.on else {
            return String::new();
        };
        let Some(g) = on.model.current_game() else {
            return String::new();
        };
        let seat = g.seat();
        let now_ms = now();
        let side = |s: Side| {
            let turn = if g.is_to_move(s) { " to-move" } else { "" };
            let you = if g.side == Some(s) { " · you" } else { "" };
            let clock = g
                .remaining(s, now_ms)
                .map(|ms| format!("<b class=\"clock\">{}</b>", clock_text(ms)))
                .unwrap_or_default();
            let r = g.ratings[s.index()].rating;
            format!(
                "<div class=\"oplayer {}{turn}\" id=\"player-{}\"><span>{}{} ({}, {r}){}</span>{clock}</div>",
                s.as_str(),
                s.as_str(),
                if g.is_to_move(s) { "▶ " } else { "" },
                esc(g.name(s)),
                s.as_str(),
                you
            )
        };
        let away = on
            .model
            .away_text(g.id, now_ms)
            .map(|a| {
                format!(
                    "<p class=\"notice\" role=\"status\" id=\"away\">{}</p>",
                    esc(&parlor::mid::capitalised(&a))
                )
            })
            .unwrap_or_default();
        let connection = self
            .connection_line()
            .map(|l| {
                format!(
                    "<p class=\"notice\" role=\"status\" id=\"connection\">{}</p>",
                    esc(&l)
                )
            })
            .unwrap_or_default();
        let line = self.log.last().cloned().unwrap_or_default();
        let over = g.ending.is_some();
        let mut bar = String::from("<nav class=\"bar\" aria-label=\"Game commands\">");
        if g.side.is_some() && !over {
            bar.push_str(&button(
                "ol:resign",
                "Resign",
                "cmd",
                Some("Resign this game"),
            ));
        }
        if g.side.is_some() && over {
            let label = match &g.rematch_from {
                Some(from) if *from != on.model.me => "Accept rematch",
                _ => "Rematch",
            };
            bar.push_str(&button("ol:rematch", label, "cmd", None));
        }
        bar.push_str(&button(
            "ol:lobby",
            "Lobby",
            "cmd",
            Some("Back to the lobby"),
        ));
        bar.push_str("</nav>");
        let question = if self.resigning {
            format!(
                "<div class=\"sheet\" role=\"dialog\" aria-label=\"Resign this game?\"><div class=\"card\"><h2>Resign this game?</h2><div class=\"row\">{}{}</div></div></div>",
                button("ol:yes", "Yes", "cmd wide", Some("Yes: resign this game")),
                button("ol:no", "No", "cmd wide", Some("No, go on playing"))
            )
        } else {
            String::new()
        };
        let ending = g
            .result_text()
            .map(|r| {
                format!(
                    "<p class=\"notice\" role=\"status\" id=\"ending\">{}</p>",
                    esc(&parlor::mid::capitalised(&r))
                )
            })
            .unwrap_or_default();
        let status = if over {
            " over"
        } else if seat.turn == Turn::Mine {
            ""
        } else {
            " waiting"
        };
        format!(
            "<main class=\"play {} online{status}\" data-game=\"{}\"><header class=\"top\"><div><h1>{}</h1><span class=\"who\" id=\"who\">{}</span></div></header><section class=\"stage\">{}</section><div class=\"side\"><div class=\"oplayers\">{}{}</div>{connection}{away}{ending}<p class=\"line\" id=\"line\">{}</p>{bar}</div>{question}</main>",
            self.board.class(),
            g.id,
            esc(self.played.room.title()),
            esc(&g.status_text()),
            self.board.html(&seat),
            side(Side::Black),
            side(Side::White),
            esc(&line),
        )
    }
}
