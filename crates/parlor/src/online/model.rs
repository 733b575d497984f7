//! What the client knows, shared by the full screen and plain mode: the player, the connection's state, the
//! challenges in and out, and every game it has seen, each rebuilt move by move with the `nocca` crate from the
//! server's numbered events. [`Model::apply`] takes what the link passes on and returns the lines to tell the
//! player (plain mode prints them; the full screen shows the newest).

use super::link::Down;
use nocca::{Dims, Move};
use parlor_online::protocol::{EndReason, EventKind, ServerMessage, Side};
use std::collections::BTreeMap;

/// A challenge, received or sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Challenge {
    /// Its number on the server.
    pub id: u64,
    /// The other player.
    pub who: String,
    /// The board, `ROWSxCOLS`.
    pub board: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// The winner; none for a draw or an abort.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
}

/// A game the client has seen, as its events built it.
#[derive(Clone, Debug)]
pub struct OnlineGame {
    /// Its number on the server.
    pub id: u64,
    /// Black's and White's names.
    pub names: [String; 2],
    /// The player's side (none when watching).
    pub side: Option<Side>,
    /// The game so far.
    pub game: nocca::Game,
    /// The last event number applied.
    pub last_event: u64,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
}

impl OnlineGame {
    /// The board's size.
    pub fn dims(&self) -> Dims {
        self.game.position().dims()
    }

    /// The name playing `side`.
    pub fn name(&self, side: Side) -> &str {
        &self.names[side.index()]
    }

    /// The side to move.
    pub fn to_move(&self) -> Side {
        Side::from(self.game.side_to_move())
    }

    /// Whether it is the player's turn.
    pub fn my_turn(&self) -> bool {
        self.ending.is_none() && self.side == Some(self.to_move())
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<Move> {
        self.game.moves().last().copied()
    }

    /// The sequence number of the player's next move: its ply number, which only grows, so that a restarted
    /// client never reuses one.
    pub fn next_seq(&self) -> u64 {
        self.game.ply() as u64 + 1
    }

    /// `ann (black) against bob (white) on 6x5`.
    pub fn title(&self) -> String {
        format!(
            "{} (black) against {} (white) on {}",
            self.names[0],
            self.names[1],
            self.dims()
        )
    }

    /// The result in words: `ann (black) wins: a piece reached the goal`, `draw: ...`.
    pub fn result_text(&self) -> Option<String> {
        let e = self.ending.as_ref()?;
        let why = match e.reason {
            EndReason::Goal => "a piece reached the goal",
            EndReason::Blockade => "the side to move had no legal move",
            EndReason::Repetition => "the same position came a third time",
            EndReason::PlyCap => "the ply limit was reached",
            EndReason::Resignation => "resignation",
            EndReason::Abandoned => "a player was gone too long",
            EndReason::Aborted => "aborted before both sides moved",
        };
        Some(match e.winner {
            Some(w) => format!("{} ({}) wins: {why}", self.name(w), w.as_str()),
            None if e.reason == EndReason::Aborted => format!("no result: {why}"),
            None => format!("draw: {why}"),
        })
    }
}

/// Everything the client knows.
#[derive(Debug, Default)]
pub struct Model {
    /// The player's name.
    pub me: String,
    /// Whether the connection is up (and the server welcomed the player).
    pub connected: bool,
    /// Whether the connection was ever up (to say "connected again" rather than "connected").
    pub was_connected: bool,
    /// Why the link stopped for good (the name refused), if it did.
    pub refused: Option<String>,
    /// Challenges received, oldest first.
    pub incoming: Vec<Challenge>,
    /// Challenges sent, oldest first.
    pub outgoing: Vec<Challenge>,
    /// Every game seen, by number.
    pub games: BTreeMap<u64, OnlineGame>,
    /// The game on screen (the newest started, or the one chosen).
    pub current: Option<u64>,
    /// The last error the server sent.
    pub last_error: Option<String>,
}

impl Model {
    /// A model for the player `me`.
    pub fn new(me: &str) -> Model {
        Model {
            me: me.to_string(),
            ..Model::default()
        }
    }

    /// The game on screen.
    pub fn current_game(&self) -> Option<&OnlineGame> {
        self.current.and_then(|g| self.games.get(&g))
    }

    /// The games still in play.
    pub fn live(&self) -> impl Iterator<Item = &OnlineGame> {
        self.games.values().filter(|g| g.ending.is_none())
    }

    /// Takes what the link passed on; returns the lines to tell the player.
    pub fn apply(&mut self, down: Down) -> Vec<String> {
        match down {
            Down::Connected => {
                self.connected = true;
                let again = self.was_connected;
                self.was_connected = true;
                vec![if again {
                    "connection back: taking the games up where they were".to_string()
                } else {
                    format!("connected as {}", self.me)
                }]
            }
            Down::Lost { why, retry_ms } => {
                let was = std::mem::replace(&mut self.connected, false);
                // Challenges die with the connection on the server; games wait for the player.
                self.incoming.clear();
                self.outgoing.clear();
                if was || !self.was_connected {
                    vec![format!(
                        "connection lost ({why}); trying again every few seconds (next in {:.1} s)",
                        retry_ms as f64 / 1000.0
                    )]
                } else {
                    Vec::new()
                }
            }
            Down::Refused(why) => {
                self.connected = false;
                self.refused = Some(why.clone());
                vec![format!("refused by the server: {why}")]
            }
            Down::Message(msg) => self.message(msg),
        }
    }

    fn message(&mut self, msg: ServerMessage) -> Vec<String> {
        match msg {
            ServerMessage::Welcome { name, games } => {
                self.me = name;
                games
                    .iter()
                    .filter(|g| !self.games.contains_key(&g.game))
                    .map(|g| {
                        format!(
                            "game {} in play as {}: taking it up",
                            g.game,
                            g.side.as_str()
                        )
                    })
                    .collect()
            }
            ServerMessage::Challenged {
                challenge,
                from,
                board,
            } => {
                let line = format!(
                    "challenge {challenge} from {from} on {board}: 'accept {challenge}' or 'decline {challenge}'"
                );
                self.incoming.push(Challenge {
                    id: challenge,
                    who: from,
                    board,
                });
                vec![line]
            }
            ServerMessage::ChallengeSent {
                challenge,
                to,
                board,
            } => {
                let line = format!("challenge {challenge} sent to {to} on {board}");
                self.outgoing.push(Challenge {
                    id: challenge,
                    who: to,
                    board,
                });
                vec![line]
            }
            ServerMessage::Error { message, game, .. } => {
                let line = match game {
                    Some(g) => format!("server: game {g}: {message}"),
                    None => format!("server: {message}"),
                };
                self.last_error = Some(message);
                vec![line]
            }
            ServerMessage::Event { game, event } => self.event(game, event),
        }
    }

    fn event(&mut self, id: u64, event: parlor_online::protocol::Event) -> Vec<String> {
        let me = self.me.clone();
        match event.kind {
            EventKind::Started {
                black,
                white,
                board,
            } => {
                let Ok(dims) = board.parse::<Dims>() else {
                    return vec![format!(
                        "game {id}: a board this Parlor does not know: {board}"
                    )];
                };
                let side = if black == me {
                    Some(Side::Black)
                } else if white == me {
                    Some(Side::White)
                } else {
                    None
                };
                // The challenge that made it is answered.
                self.incoming.retain(|c| c.who != black && c.who != white);
                self.outgoing.retain(|c| c.who != black && c.who != white);
                let g = OnlineGame {
                    id,
                    names: [black, white],
                    side,
                    game: nocca::Game::new(dims, nocca::GameOptions::default()),
                    last_event: event.n,
                    ending: None,
                };
                let mut lines = vec![format!("game {id} started: {}", g.title())];
                if let Some(s) = side {
                    lines.push(format!(
                        "you play {}{}",
                        s.as_str(),
                        if s == Side::Black {
                            ", and move first"
                        } else {
                            ""
                        }
                    ));
                }
                self.games.insert(id, g);
                self.current = Some(id);
                lines
            }
            EventKind::Moved { by, ply, mv } => {
                let Some(g) = self.games.get_mut(&id) else {
                    return Vec::new();
                };
                let played = mv
                    .parse::<Move>()
                    .map_err(|e| e.to_string())
                    .and_then(|m| g.game.play(m).map_err(|e| e.to_string()).map(|_| m));
                g.last_event = event.n;
                match played {
                    Ok(m) => {
                        let pos = &g.game.positions()[g.game.ply() - 1];
                        let text = crate::games::nocca::move_text(pos, m, "-")
                            .replace("-goal)", " into the goal)");
                        vec![format!(
                            "game {id}: move {ply}: {} ({}) plays {text}",
                            g.name(by),
                            by.as_str()
                        )]
                    }
                    Err(e) => vec![format!(
                        "game {id}: the server's move {mv} does not play here ({e})"
                    )],
                }
            }
            EventKind::Ended { winner, reason, .. } => {
                let Some(g) = self.games.get_mut(&id) else {
                    return Vec::new();
                };
                g.last_event = event.n;
                g.ending = Some(Ending { winner, reason });
                let mut line = format!("game {id} over: {}", g.result_text().unwrap_or_default());
                if let Some(s) = g.side {
                    line.push_str(match winner {
                        Some(w) if w == s => " (you won)",
                        Some(_) => " (you lost)",
                        None => "",
                    });
                }
                vec![line]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use parlor_online::protocol::Event;

    fn ev(game: u64, n: u64, kind: EventKind) -> Down {
        Down::Message(ServerMessage::Event {
            game,
            event: Event { n, kind },
        })
    }

    #[test]
    fn events_build_the_game_and_its_result() {
        let mut m = Model::new("bob");
        m.apply(Down::Connected);
        let lines = m.apply(ev(
            3,
            1,
            EventKind::Started {
                black: "ann".into(),
                white: "bob".into(),
                board: "3x3".into(),
            },
        ));
        assert_eq!(
            lines[0],
            "game 3 started: ann (black) against bob (white) on 3x3"
        );
        assert_eq!(lines[1], "you play white");
        let g = m.current_game().unwrap();
        assert_eq!(g.side, Some(Side::White));
        assert!(!g.my_turn());
        let lines = m.apply(ev(
            3,
            2,
            EventKind::Moved {
                by: Side::Black,
                ply: 1,
                mv: "a1k".into(),
            },
        ));
        assert_eq!(lines, ["game 3: move 1: ann (black) plays a1k (a1-a2)"]);
        let g = m.current_game().unwrap();
        assert!(g.my_turn());
        assert_eq!(g.next_seq(), 2);
        let lines = m.apply(ev(
            3,
            3,
            EventKind::Ended {
                winner: Some(Side::White),
                reason: EndReason::Resignation,
                position: String::new(),
            },
        ));
        assert_eq!(
            lines,
            ["game 3 over: bob (white) wins: resignation (you won)"]
        );
        assert_eq!(m.live().count(), 0);
    }

    #[test]
    fn a_lost_connection_is_said_once_and_its_return_too() {
        let mut m = Model::new("ann");
        assert_eq!(m.apply(Down::Connected), ["connected as ann"]);
        let lost = || Down::Lost {
            why: "reset".into(),
            retry_ms: 500,
        };
        assert_eq!(m.apply(lost()).len(), 1);
        assert!(m.apply(lost()).is_empty());
        assert!(!m.connected);
        assert_eq!(
            m.apply(Down::Connected),
            ["connection back: taking the games up where they were"]
        );
    }
}
