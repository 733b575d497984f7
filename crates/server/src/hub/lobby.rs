//! The lobby: the players online with their ratings, the challenges to and from a player, the live games with
//! their spectators, a player's place in the queue; sent when asked and pushed to the connections that follow it
//! (at most once a [`LOBBY_PUSH_MS`]). Challenges between players online live here: made, accepted (a game
//! starts), declined, cancelled, and closed when either player's last connection goes.

use super::{Conn, Hub, Outgoing, error};
use crate::rating;
use parlor_online::protocol::{
    ChallengeInfo, ErrorCode, LIST_LIMIT, LiveGame, PlayerInfo, ServerMessage, Side, TimeControl,
};
use std::collections::HashSet;

/// How often a followed lobby is pushed at most, in milliseconds.
const LOBBY_PUSH_MS: u64 = 1000;

/// A challenge open between two players online.
pub(super) struct Challenge {
    pub(super) from: String,
    pub(super) to: String,
    dims: nocca::Dims,
    clock: Option<TimeControl>,
    rated: bool,
}

impl Challenge {
    fn info(&self, id: u64) -> ChallengeInfo {
        ChallengeInfo {
            challenge: id,
            from: self.from.clone(),
            to: self.to.clone(),
            board: self.dims.to_string(),
            clock: self.clock,
            rated: self.rated,
        }
    }
}

/// A game's board and time control as asked (a challenge or the queue): the board's dimensions, or the error to send.
pub(super) fn game_terms(
    board: &str,
    clock: Option<TimeControl>,
) -> Result<nocca::Dims, Box<ServerMessage>> {
    let dims = board
        .parse::<nocca::Dims>()
        .map_err(|e| Box::new(error(ErrorCode::BadBoard, e.to_string(), None)))?;
    if let Some(Err(e)) = clock.map(TimeControl::check) {
        return Err(Box::new(error(ErrorCode::BadClock, e.to_string(), None)));
    }
    Ok(dims)
}

impl Hub {
    /// `name` asks for the lobby on `conn`, following it from now on or not (following is the connection's: another
    /// tab of the same player follows or not as it asks).
    pub(super) fn follow_lobby(&mut self, conn: &Conn, name: &str, follow: bool, now_ms: u64) {
        if let Some(link) = self
            .online
            .get_mut(name)
            .and_then(|links| links.iter_mut().find(|l| l.conn.id == conn.id))
        {
            link.follows = follow;
        }
        conn.send(&self.lobby(name, now_ms));
    }

    /// Pushes the lobby to the connections that follow it, if it changed and was not pushed in the last
    /// [`LOBBY_PUSH_MS`].
    pub(super) fn push_lobby(&mut self, now_ms: u64) {
        if !self.lobby_changed || now_ms < self.lobby_pushed_ms.saturating_add(LOBBY_PUSH_MS) {
            return;
        }
        self.lobby_changed = false;
        self.lobby_pushed_ms = now_ms;
        let followers: Vec<String> = self
            .online
            .iter()
            .filter(|(_, links)| links.iter().any(|l| l.follows))
            .map(|(n, _)| n.clone())
            .collect();
        for name in followers {
            let text = self.lobby(&name, now_ms).to_text();
            for l in self.online.get(&name).into_iter().flatten() {
                if l.follows {
                    let _ = l.conn.tx.send(Outgoing::Text(text.clone()));
                }
            }
        }
    }

    /// The players online here, each with their exact rating (a game whose end is being written is no longer
    /// live; a game followed here, refereed by another node, is).
    pub(super) fn players_here(&self) -> Vec<(f64, PlayerInfo)> {
        let live = self
            .rooms
            .values()
            .map(|l| &l.room)
            .chain(self.mirrors.values().map(|m| m.room()))
            .filter(|r| r.result().is_none());
        let playing: HashSet<&str> = live
            .flat_map(|r| [r.name(Side::Black), r.name(Side::White)])
            .collect();
        let queued: HashSet<&str> = self
            .queue
            .iter()
            .filter(|s| s.absent_since.is_none())
            .map(|s| s.name.as_str())
            .collect();
        self.online
            .keys()
            .map(|n| {
                let exact = self.exact(n);
                (
                    exact.rating,
                    PlayerInfo {
                        name: n.clone(),
                        rating: rating::shown(&exact),
                        playing: playing.contains(n.as_str()),
                        queued: queued.contains(n.as_str()),
                    },
                )
            })
            .collect()
    }

    /// The lobby as `name` sees it at `now_ms`: the players online here and on the other nodes, the challenges to
    /// and from them (held here or by another node), the games in play here.
    fn lobby(&self, name: &str, now_ms: u64) -> ServerMessage {
        let mut players = self.players_here();
        players.extend(
            self.present
                .values()
                .filter(|(p, _)| !self.online.contains_key(&p.name))
                .map(|(p, _)| (f64::from(p.rating.rating), p.clone())),
        );
        let online = players.len();
        players.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
        let mut challenges: Vec<ChallengeInfo> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.from == name || c.to == name)
            .map(|(&id, c)| c.info(id))
            .chain(
                self.remote_challenges
                    .values()
                    .filter(|c| c.from == name || c.to == name)
                    .cloned(),
            )
            .collect();
        challenges.sort_by_key(|c| c.challenge);
        challenges.truncate(LIST_LIMIT);
        let mut games: Vec<LiveGame> = self
            .rooms
            .iter()
            .filter(|(_, l)| l.room.result().is_none())
            .map(|(&game, l)| LiveGame {
                game,
                black: l.room.name(Side::Black).to_string(),
                white: l.room.name(Side::White).to_string(),
                board: l.room.dims().to_string(),
                clock: l.room.setup().clock,
                rated: l.room.setup().rated,
                ply: u32::try_from(l.room.ply()).unwrap_or(u32::MAX),
                spectators: self.watchers.get(&game).map_or(0, |w| {
                    let names: HashSet<&str> = w.values().map(|(n, _)| n.as_str()).collect();
                    u32::try_from(names.len()).unwrap_or(u32::MAX)
                }),
            })
            .collect();
        games.sort_by_key(|g| std::cmp::Reverse(g.game));
        games.truncate(LIST_LIMIT);
        ServerMessage::Lobby {
            online: u32::try_from(online).unwrap_or(u32::MAX),
            players: players.into_iter().take(LIST_LIMIT).map(|p| p.1).collect(),
            challenges,
            games,
            queue: self
                .queue
                .iter()
                .find(|s| s.name == name)
                .map(|s| super::queue::queue_entry(s, self.unix_at(now_ms))),
        }
    }

    /// `name` challenges `opponent`, who is online (here or on another node), to a game: numbered `number` (a
    /// node's, which no other node gives) or the hub's next.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn challenge(
        &mut self,
        conn: &Conn,
        name: &str,
        opponent: &str,
        board: &str,
        clock: Option<TimeControl>,
        rated: bool,
        number: Option<u64>,
    ) {
        let dims = match game_terms(board, clock) {
            Ok(d) => d,
            Err(e) => return conn.send(&e),
        };
        if opponent == name || !self.online_anywhere(opponent) {
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("no other player {opponent:?} online"),
                None,
            ));
        }
        let id = number.unwrap_or(self.next_challenge);
        self.next_challenge = self.next_challenge.max(id.saturating_add(1));
        let c = Challenge {
            from: name.to_string(),
            to: opponent.to_string(),
            dims,
            clock,
            rated,
        };
        let info = c.info(id);
        self.challenges.insert(id, c);
        self.lobby_changed = true;
        self.tell_anywhere(
            opponent,
            &ServerMessage::Challenged {
                challenge: info.clone(),
            },
        );
        conn.send(&ServerMessage::ChallengeSent { challenge: info });
    }

    /// `name` accepts a challenge to them: its game starts.
    pub(super) fn accept(&mut self, conn: &Conn, name: &str, challenge: u64, now_ms: u64) {
        let Some(c) = self.challenges.get(&challenge).filter(|c| c.to == name) else {
            if self.ask_holder(name, challenge, None, now_ms) {
                return;
            }
            return conn.send(&error(
                ErrorCode::NotFound,
                format!("no challenge {challenge} to you"),
                None,
            ));
        };
        let _ = c;
        self.start_challenge(challenge, now_ms);
    }

    /// Challenge `challenge`, held here, accepted: its game starts (here).
    pub(super) fn start_challenge(&mut self, challenge: u64, now_ms: u64) {
        if let Some(c) = self.challenges.remove(&challenge) {
            self.lobby_changed = true;
            self.start_room(&c.from, &c.to, c.dims, c.clock, c.rated, None, now_ms);
        }
    }

    /// `name` declines (or, `cancel`, withdraws) a challenge.
    pub(super) fn close(&mut self, conn: &Conn, name: &str, challenge: u64, cancel: bool) {
        if !self.close_held(name, challenge, cancel)
            && !self.ask_holder(name, challenge, Some(cancel), 0)
        {
            conn.send(&error(
                ErrorCode::NotFound,
                format!(
                    "no challenge {challenge} {} you",
                    if cancel { "from" } else { "to" }
                ),
                None,
            ));
        }
    }

    /// `name` declines (or, `cancel`, withdraws) challenge `challenge` held here, if it is one to (from) them: both
    /// players are told, wherever they are online.
    pub(super) fn close_held(&mut self, name: &str, challenge: u64, cancel: bool) -> bool {
        let mine = self
            .challenges
            .get(&challenge)
            .is_some_and(|c| if cancel { c.from == name } else { c.to == name });
        let Some(c) = mine.then(|| self.challenges.remove(&challenge)).flatten() else {
            return false;
        };
        self.lobby_changed = true;
        let reason = if cancel { "cancelled" } else { "declined" };
        let closed = ServerMessage::ChallengeClosed {
            challenge,
            reason: reason.into(),
        };
        self.tell_anywhere(&c.to, &closed);
        self.tell_anywhere(&c.from, &closed);
        true
    }

    /// Closes every challenge held here to or from `name`, whose last connection here or on any node went, telling
    /// the other player (wherever they are).
    pub(super) fn close_challenges_of(&mut self, name: &str) {
        self.lobby_changed = true;
        let closed: Vec<(u64, String)> = self
            .challenges
            .iter()
            .filter(|(_, c)| c.from == name || c.to == name)
            .map(|(&id, c)| {
                (
                    id,
                    if c.from == name {
                        c.to.clone()
                    } else {
                        c.from.clone()
                    },
                )
            })
            .collect();
        for (id, other) in closed {
            self.challenges.remove(&id);
            self.tell_anywhere(
                &other,
                &ServerMessage::ChallengeClosed {
                    challenge: id,
                    reason: "gone".into(),
                },
            );
        }
    }
}
