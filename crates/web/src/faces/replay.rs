//! A finished game replayed on the page: the core's [`Replay`] (every position rebuilt from the record's
//! parameters, seed and moves), drawn with the same board the play screen uses ([`Board::html`] over a
//! [`Shown`] position nobody moves in), with buttons to the start, one move back, one move on and to the end.

use super::html::{button_if, esc};
use super::play::{Board, Go, Shown};
use parlor::mid::game::Game;
use parlor::mid::record::Replay;
use parlor::storage::{GameRecord, format_time};

/// A replay, as the shell sees every game's.
pub trait Replaying {
    /// The replay screen as HTML.
    fn html(&mut self) -> String;
    /// A tap on a control whose `data-act` was `act`; [`Go::Menu`] leaves the replay (for the history).
    fn act(&mut self, act: &str) -> Go;
    /// A key by its browser name.
    fn key(&mut self, key: &str) -> Go;
    /// The line for the screen reader.
    fn said(&mut self) -> String;
}

/// Game `G`'s record replayed with board `B`.
pub struct ReplayOf<G: Game, B: Board<G>> {
    replay: Replay<G>,
    /// The moves shown (0: the start).
    at: usize,
    board: B,
}

impl<G: Game, B: Board<G>> ReplayOf<G, B> {
    /// The replay of `record`, at its start; a damaged record says why it cannot be replayed.
    pub fn new(record: &GameRecord) -> Result<ReplayOf<G, B>, String> {
        Ok(ReplayOf {
            replay: Replay::new(record).map_err(|e| e.to_string())?,
            at: 0,
            board: B::default(),
        })
    }

    /// The move shown (0: the start).
    pub fn at(&self) -> usize {
        self.at
    }

    fn go(&mut self, to: usize) {
        let to = to.min(self.replay.len());
        if to == self.at + 1 {
            // One move on: the board may animate it, as in play.
            let before = self.replay.position(self.at).clone();
            let mv = self.replay.moves[self.at].clone();
            self.board
                .played(&before, &mv, parlor::host::clock().monotonic_ms());
        } else {
            self.board = B::default();
        }
        self.at = to;
    }
}

impl<G: Game, B: Board<G>> Replaying for ReplayOf<G, B> {
    fn html(&mut self) -> String {
        let n = self.replay.len();
        let at = self.at;
        let r = self.replay.record.clone();
        let ending = self.replay.ending(at);
        let (state, _, last) = self.replay.view(at);
        let moved = last.map_or_else(|| "start".to_string(), |m| m.to_string());
        let score = G::score(state);
        let shown = Shown::<G> {
            state,
            turn: None,
            over: at == n,
            context: None,
        };
        let board = self
            .board
            .html(&shown, parlor::host::clock().monotonic_ms());
        let ending = ending.map_or_else(String::new, |e| {
            format!("<p class=\"ending\" id=\"ending\">{}</p>", esc(&e))
        });
        format!(
            "<main class=\"play replay {}\" data-game=\"{}\"><header class=\"top\"><div><h1>Replay · {}</h1><span class=\"who\">{} · game #{} · {}</span></div><div class=\"scores\"><div class=\"score\"><span>{}</span><b id=\"score\">{score}</b></div></div></header><section class=\"stage\">{board}</section><div class=\"side\"><p class=\"line\" id=\"line\">Move <b id=\"at\">{at}</b> of <b id=\"of\">{n}</b> · {}</p>{ending}<nav class=\"bar\" aria-label=\"Replay\">{}{}{}{}{}</nav></div></main>",
            self.board.class(),
            esc(G::ID),
            esc(G::TITLE),
            esc(&r.variant),
            r.id,
            esc(&format_time(r.ended_at)),
            esc(&parlor::mid::capitalised(G::score_name())),
            esc(&moved),
            button_if(at > 0, "r:first", "|◀", "cmd", Some("To the start")),
            button_if(at > 0, "r:back", "◀", "cmd", Some("One move back")),
            button_if(at < n, "r:next", "▶", "cmd", Some("One move on")),
            button_if(at < n, "r:last", "▶|", "cmd", Some("To the end")),
            super::html::button("history", "History", "cmd", Some("Back to the history")),
        )
    }

    fn act(&mut self, act: &str) -> Go {
        match act {
            "r:first" => self.go(0),
            "r:back" => self.go(self.at.saturating_sub(1)),
            "r:next" => self.go(self.at + 1),
            "r:last" => self.go(usize::MAX),
            "history" | "menu" => return Go::Menu,
            _ => {}
        }
        Go::Stay
    }

    fn key(&mut self, key: &str) -> Go {
        let act = match key {
            "ArrowLeft" | "h" => "r:back",
            "ArrowRight" | "l" => "r:next",
            "Home" | "g" => "r:first",
            "End" | "G" => "r:last",
            "q" | "Escape" => "history",
            _ => return Go::Stay,
        };
        self.act(act)
    }

    fn said(&mut self) -> String {
        let n = self.replay.len();
        let at = self.at;
        let ending = self.replay.ending(at);
        let (_, _, last) = self.replay.view(at);
        let moved = last.map_or_else(|| "the start".to_string(), |m| m.to_string());
        let mut line = format!("Replay, move {at} of {n}: {moved}");
        if let Some(e) = ending {
            line.push_str(&format!(". {e}"));
        }
        line
    }
}
