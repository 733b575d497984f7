//! What every face of the online client shows of the [`Model`], in the same words: the lobby's rows in their order
//! (challenges to the player, their games, challenges sent, live games, players online: [`Item`]) and each row's
//! text, the connection's line while it is not up, a game's seat at its board ([`Seat`]), its status line and
//! both players' lines, and the move message a board's move becomes. The terminal's full screen draws them as
//! lines, the page's graphical face as HTML; neither keeps a copy of this logic.

use super::model::{Model, OnlineGame, terms};
use crate::tui::room::{Seat, Turn};
use parlor_online::protocol::{ChallengeInfo, ClientMessage, Side};

/// A row of the lobby's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// A challenge to the player, by number.
    Incoming(u64),
    /// A game the player plays or watches, by number.
    Game(u64),
    /// A challenge the player sent, by number.
    Outgoing(u64),
    /// A live game to watch, by number.
    Live(u64),
    /// A player online, by index in [`Model::players`].
    Player(usize),
}

/// The lobby's sections, in their order: each [`Item`] is in one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// Challenges to the player.
    Incoming,
    /// The player's games (played or watched).
    Games,
    /// Challenges the player sent.
    Outgoing,
    /// Live games to watch.
    Live,
    /// Players online.
    Players,
}

impl Item {
    /// The section the row is in.
    pub fn section(self) -> Section {
        match self {
            Item::Incoming(_) => Section::Incoming,
            Item::Game(_) => Section::Games,
            Item::Outgoing(_) => Section::Outgoing,
            Item::Live(_) => Section::Live,
            Item::Player(_) => Section::Players,
        }
    }
}

/// The row of challenge `id` of `challenges`, written by `row` from the challenge and its terms.
fn challenge<'a>(
    mut challenges: impl Iterator<Item = &'a ChallengeInfo>,
    id: u64,
    row: impl Fn(&ChallengeInfo, String) -> String,
) -> String {
    challenges
        .find(|c| c.challenge == id)
        .map(|c| row(c, terms(c.clock, c.rated)))
        .unwrap_or_default()
}

impl Model {
    /// The lobby's rows, in order: challenges to the player, their games (in play first, newest first), challenges
    /// sent, live games not already among theirs, players online.
    pub fn items(&self) -> Vec<Item> {
        let mut v: Vec<Item> = self
            .incoming()
            .map(|c| Item::Incoming(c.challenge))
            .collect();
        let mut games: Vec<&OnlineGame> = self.games.values().collect();
        games.sort_by_key(|g| (g.ending.is_some(), std::cmp::Reverse(g.id)));
        v.extend(games.iter().map(|g| Item::Game(g.id)));
        v.extend(self.outgoing().map(|c| Item::Outgoing(c.challenge)));
        v.extend(
            self.live
                .iter()
                .filter(|l| !self.games.contains_key(&l.game))
                .map(|l| Item::Live(l.game)),
        );
        v.extend((0..self.players.len()).map(Item::Player));
        v
    }

    /// A row's text at `now_ms` (`bob challenges you on 3x3, untimed, casual`; `game 3: ... · your move`).
    pub fn item_text(&self, item: Item, now_ms: u64) -> String {
        match item {
            Item::Incoming(id) => challenge(self.incoming(), id, |c, t| {
                format!("{} challenges you on {}, {t}", c.from, c.board)
            }),
            Item::Game(id) => {
                let Some(g) = self.games.get(&id) else {
                    return String::new();
                };
                let state = match g.result_text() {
                    Some(r) => format!("over: {r}"),
                    None if g.my_turn() => "your move".to_string(),
                    None if g.side.is_none() => "watching".to_string(),
                    None => format!("{} to move", g.name(g.to_move())),
                };
                // A player away comes first: the row may be shortened at its end.
                let away = self
                    .away_text(id, now_ms)
                    .map(|a| format!("{a} · "))
                    .unwrap_or_default();
                format!("game {id}: {away}{} · {state}", g.title())
            }
            Item::Outgoing(id) => challenge(self.outgoing(), id, |c, t| {
                format!("to {} on {}, {t} (waiting)", c.to, c.board)
            }),
            Item::Live(id) => self
                .live
                .iter()
                .find(|l| l.game == id)
                .map(|l| {
                    format!(
                        "game {id}: {} against {} on {}, {}, move {}, {} watching",
                        l.black,
                        l.white,
                        l.board,
                        terms(l.clock, l.rated),
                        l.ply + 1,
                        l.spectators
                    )
                })
                .unwrap_or_default(),
            Item::Player(i) => {
                let Some(p) = self.players.get(i) else {
                    return String::new();
                };
                let what = if p.name == self.me {
                    " (you)"
                } else if p.playing {
                    " · playing"
                } else if p.queued {
                    " · in the queue"
                } else {
                    ""
                };
                format!(
                    "{} {} ±{}{what}",
                    p.name, p.rating.rating, p.rating.deviation
                )
            }
        }
    }

    /// The line saying why the connection is not up (`Connecting...`, `The server cannot be reached (...): trying
    /// again…`, `Connection lost (...): reconnecting…`, `Refused by the server: ...`); none while it is.
    pub fn connection_text(&self) -> Option<String> {
        if self.connected {
            return None;
        }
        Some(match (&self.refused, self.was_connected) {
            (Some(why), _) => format!("Refused by the server: {why}"),
            (None, true) => match &self.lost {
                Some(why) => {
                    format!("Connection lost ({why}): reconnecting… (your games wait for you)")
                }
                None => "Connection lost: reconnecting… (your games wait for you)".to_string(),
            },
            (None, false) => match &self.lost {
                Some(why) => format!("The server cannot be reached ({why}): trying again…"),
                None => "Connecting...".to_string(),
            },
        })
    }
}

impl OnlineGame {
    /// The player at the board of this game: their side and whose move it is from it.
    pub fn seat(&self) -> Seat<'_> {
        let turn = if self.ending.is_some() {
            Turn::Over
        } else if self.side.is_none() {
            Turn::Watching
        } else if self.my_turn() {
            Turn::Mine
        } else {
            Turn::Theirs(self.name(self.to_move()).to_string())
        };
        Seat {
            game: self.game.as_ref(),
            side: self.side,
            turn,
        }
    }

    /// The game's status line: `Game 3, move 2: your move`, `... waiting for bob`, `Game 3 over: ...`.
    pub fn status_text(&self) -> String {
        match self.result_text() {
            Some(r) => format!("Game {} over: {r}", self.id),
            None if self.my_turn() => {
                format!("Game {}, move {}: your move", self.id, self.game.ply() + 1)
            }
            None => format!(
                "Game {}, move {}: waiting for {}",
                self.id,
                self.game.ply() + 1,
                self.name(self.to_move())
            ),
        }
    }

    /// Whether `side` is to move (and the game goes on).
    pub fn is_to_move(&self, side: Side) -> bool {
        self.ending.is_none() && self.to_move() == side
    }

    /// The message that plays `mv` (the board's move, in the protocol's notation) in this game.
    pub fn move_message(&self, mv: String) -> ClientMessage {
        ClientMessage::Move {
            game: self.id,
            seq: self.next_seq(),
            mv,
        }
    }
}

#[cfg(test)]
#[path = "shown_tests.rs"]
mod tests;
