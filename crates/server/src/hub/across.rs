//! The lobby across nodes ([`crate::nodes`]), as lichess's lila-ws shares its lobby through one bus: who is online
//! on the other nodes (their `presence`, written by each node every second and read while at most
//! [`PRESENCE`](crate::nodes::PRESENCE) old), and notices through the database's LISTEN/NOTIFY
//! ([`crate::nodes::NOTICES`]). A challenge or a rematch offer is held by the node where it was made, which alone
//! starts its game (refereed there); a message for a player online on another node (challenged, a challenge
//! closed, a rematch offered) is told there too, and that node keeps what it was told, so that its player sees it
//! in the lobby and their answer (accept, decline, cancel, a rematch accepted or declined) goes back to the
//! holder, which checks it as its own players' and answers them where they are. A player's last connection on a
//! node gone is said, so the holder closes their challenges once they are online nowhere. A game's away and back
//! go to its followers on other nodes too (its opponent and spectators there).

use super::{Hub, error, rematch::REMATCH_OFFER_MS};
use crate::Shared;
use crate::rating::Exact;
use crate::store::FinishedGame;
use parlor_online::protocol::{ErrorCode, PlayerInfo, ServerMessage};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A notice from one node to the others ([`crate::nodes::NOTICES`]).
#[derive(Debug, Serialize, Deserialize)]
pub struct Notice {
    /// The node that says it (a node hears its own notices too, and passes over them).
    node: String,
    /// What it says.
    said: Said,
}

/// What a notice says.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum Said {
    /// A message for every connection of a player.
    Tell { to: String, msg: ServerMessage },
    /// A message about `skip` for every connection following `game` but `skip`'s.
    Followers {
        game: u64,
        skip: String,
        msg: ServerMessage,
    },
    /// A player's answer, for the node holding the challenge or the offer.
    Ask { name: String, ask: Ask },
    /// A player's last connection on the saying node ended.
    Gone { name: String },
}

/// A player's answer to a challenge or an offer held by another node.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
#[serde(tag = "ask", rename_all = "snake_case")]
enum Ask {
    /// Accepts challenge `challenge` (to them).
    Accept { challenge: u64 },
    /// Declines (or, `cancel`, withdraws) a challenge.
    Close { challenge: u64, cancel: bool },
    /// Accepts the rematch of `game` offered to them.
    Rematch { game: u64 },
    /// Declines it.
    DeclineRematch { game: u64 },
}

/// A rematch offer to a player here, held by another node.
pub(super) struct OfferElsewhere {
    from: String,
    to: String,
    /// Until when it stands (hub time).
    until_ms: u64,
}

impl Hub {
    /// Says `said` to the other nodes (nothing for a server alone); a failure is logged.
    fn say(&self, said: Said) {
        if !self.nodes {
            return;
        }
        let notice = Notice {
            node: self.node.clone(),
            said,
        };
        match serde_json::to_string(&notice) {
            Ok(text) => self.write(
                "a notice to the other nodes".into(),
                move |s| s.notice(&text),
                super::After::Nothing,
            ),
            Err(e) => tracing::error!("a notice to the other nodes: {e}"),
        }
    }

    /// Whether `name` is online here or on another node.
    pub(super) fn online_anywhere(&self, name: &str) -> bool {
        self.online.contains_key(name) || self.present.contains_key(name)
    }

    /// Sends `msg` to every connection of `name`'s: here, and on the other nodes where they are online.
    pub(super) fn tell_anywhere(&self, name: &str, msg: &ServerMessage) {
        self.tell(name, msg);
        if self.present.contains_key(name) {
            self.say(Said::Tell {
                to: name.to_string(),
                msg: msg.clone(),
            });
        }
    }

    /// Sends `msg`, about `skip` in `game` (refereed here), to the game's followers on the other nodes but
    /// `skip`'s own connections.
    pub(super) fn tell_followers_elsewhere(&self, game: u64, skip: &str, msg: &ServerMessage) {
        self.say(Said::Followers {
            game,
            skip: skip.to_string(),
            msg: msg.clone(),
        });
    }

    /// The players online here, for the other nodes' lobbies.
    pub fn present_here(&self) -> Vec<PlayerInfo> {
        self.players_here().into_iter().map(|(_, p)| p).collect()
    }

    /// The players online on the other nodes as just read, each with the node they are on.
    pub fn present_elsewhere(&mut self, rows: Vec<(String, PlayerInfo)>) {
        let mut present: HashMap<String, (PlayerInfo, Vec<String>)> = HashMap::new();
        for (node, p) in rows {
            let entry = present
                .entry(p.name.clone())
                .or_insert_with(|| (p.clone(), Vec::new()));
            entry.0.playing |= p.playing;
            entry.0.queued |= p.queued;
            entry.1.push(node);
        }
        let changed = present.len() != self.present.len()
            || present
                .iter()
                .any(|(n, (p, _))| self.present.get(n).is_none_or(|(q, _)| q != p));
        self.lobby_changed |= changed;
        self.present = present;
    }

    /// `name` answers challenge `challenge` (accepts it with `cancel` none, else declines or withdraws it), which
    /// this node was told of and another holds: the answer goes to that node. False if it is none such.
    pub(super) fn ask_holder(
        &mut self,
        name: &str,
        challenge: u64,
        cancel: Option<bool>,
        now_ms: u64,
    ) -> bool {
        let theirs = self.remote_challenges.get(&challenge).is_some_and(|c| {
            if cancel == Some(true) {
                c.from == name
            } else {
                c.to == name
            }
        });
        if !theirs {
            return false;
        }
        self.remote_challenges.remove(&challenge);
        self.lobby_changed = true;
        let ask = match cancel {
            None => {
                // Its game starts on the holder: its start is heard here, and this player follows it.
                self.unseated.insert(name.to_string(), now_ms);
                Ask::Accept { challenge }
            }
            Some(cancel) => Ask::Close { challenge, cancel },
        };
        self.say(Said::Ask {
            name: name.to_string(),
            ask,
        });
        true
    }

    /// `name` accepts (`decline`: declines) the rematch of `game` offered by `opponent` through another node: the
    /// answer goes there. False if no such offer was told here.
    pub(super) fn ask_rematch(
        &mut self,
        name: &str,
        opponent: &str,
        game: u64,
        decline: bool,
        now_ms: u64,
    ) -> bool {
        if !self
            .remote_offers
            .get(&game)
            .is_some_and(|o| o.to == name && o.from == opponent)
        {
            return false;
        }
        self.remote_offers.remove(&game);
        let ask = if decline {
            Ask::DeclineRematch { game }
        } else {
            self.unseated.insert(name.to_string(), now_ms);
            Ask::Rematch { game }
        };
        self.say(Said::Ask {
            name: name.to_string(),
            ask,
        });
        true
    }

    /// The opponent in `game` who offered `name` a rematch through another node, if one did.
    pub(super) fn offered_elsewhere(&self, game: u64, name: &str) -> Option<String> {
        self.remote_offers
            .get(&game)
            .filter(|o| o.to == name)
            .map(|o| o.from.clone())
    }

    /// The rematch offers to `name` told here by other nodes, by game.
    pub(super) fn offers_elsewhere_to(&self, name: &str) -> Vec<(u64, String)> {
        self.remote_offers
            .iter()
            .filter(|(_, o)| o.to == name)
            .map(|(&g, o)| (g, o.from.clone()))
            .collect()
    }

    /// Drops the offers told by other nodes that lapsed at `now_ms`.
    pub(super) fn tick_offers_elsewhere(&mut self, now_ms: u64) {
        self.remote_offers.retain(|_, o| now_ms < o.until_ms);
    }

    /// `name`'s last connection here ended: the other nodes are told; the challenges told here that concern no
    /// player here any more are forgotten; unless `name` is online on another node, the challenges held here to
    /// and from them close.
    pub(super) fn left_here(&mut self, name: &str) {
        self.say(Said::Gone {
            name: name.to_string(),
        });
        let online = &self.online;
        self.remote_challenges
            .retain(|_, c| online.contains_key(&c.from) || online.contains_key(&c.to));
        self.remote_offers.retain(|_, o| online.contains_key(&o.to));
        if !self.present.contains_key(name) {
            self.close_challenges_of(name);
        }
    }

    /// A message for `to` told by node `from_node` at `now_ms`: sent to their connections here, and what it says
    /// of a challenge or an offer held there kept. A rematch offered while `to` offered it too here (two offers
    /// crossing): the node with the greater name takes it as `to`'s acceptance, the other waits for that.
    fn heard_tell(&mut self, from_node: &str, to: &str, msg: ServerMessage, now_ms: u64) {
        match &msg {
            ServerMessage::Challenged { challenge }
            | ServerMessage::ChallengeSent { challenge } => {
                self.remote_challenges
                    .insert(challenge.challenge, challenge.clone());
                self.lobby_changed = true;
            }
            ServerMessage::ChallengeClosed { challenge, .. } => {
                self.remote_challenges.remove(challenge);
                self.lobby_changed = true;
            }
            ServerMessage::RematchOffered { game, from } => {
                if self.rematches.get(game).is_some_and(|o| o.from == to) {
                    if self.node.as_str() > from_node {
                        self.rematches.remove(game);
                        self.forget_offer(*game, super::After::Nothing);
                        self.unseated.insert(to.to_string(), now_ms);
                        self.say(Said::Ask {
                            name: to.to_string(),
                            ask: Ask::Rematch { game: *game },
                        });
                    }
                    return;
                }
                self.remote_offers.insert(
                    *game,
                    OfferElsewhere {
                        from: from.clone(),
                        to: to.to_string(),
                        until_ms: now_ms.saturating_add(REMATCH_OFFER_MS),
                    },
                );
            }
            _ => {}
        }
        self.tell(to, &msg);
    }

    /// `msg` about `skip` in `game`, refereed by another node: to its followers here but `skip`'s connections.
    fn heard_followers(&self, game: u64, skip: &str, msg: &ServerMessage) {
        if let Some(m) = self.mirrors.get(&game) {
            m.send_but(skip, msg);
        }
    }

    /// Node `node` said `name`'s last connection there ended: unless they are online here or on a node other than
    /// it, the challenges held here to and from them close.
    fn gone_elsewhere(&mut self, name: &str, node: &str) {
        let elsewhere = self
            .present
            .get(name)
            .is_some_and(|(_, nodes)| nodes.iter().any(|n| n != node));
        if !self.online.contains_key(name) && !elsewhere {
            self.close_challenges_of(name);
        }
    }

    /// `name` (rated `exact` as the store has it), online on another node, accepts challenge `challenge` held
    /// here: its game starts here. A challenge no longer open is said so to them.
    fn accept_asked(&mut self, name: &str, challenge: u64, exact: Exact, now_ms: u64) {
        if self.challenges.get(&challenge).is_none_or(|c| c.to != name) {
            return self.tell_anywhere(
                name,
                &error(
                    ErrorCode::NotFound,
                    format!("no challenge {challenge} to you"),
                    None,
                ),
            );
        }
        self.ratings.entry(name.to_string()).or_insert(exact);
        self.start_challenge(challenge, now_ms);
    }

    /// `name`, online on another node, declines (withdraws) challenge `challenge` held here.
    fn close_asked(&mut self, name: &str, challenge: u64, cancel: bool) {
        if !self.close_held(name, challenge, cancel) {
            self.tell_anywhere(
                name,
                &error(
                    ErrorCode::NotFound,
                    format!(
                        "no challenge {challenge} {} you",
                        if cancel { "from" } else { "to" }
                    ),
                    None,
                ),
            );
        }
    }

    /// `name` (rated `exact`), online on another node, accepts the rematch of `game` (as the store gave it,
    /// `finished`) offered here by their opponent: it starts here.
    fn rematch_asked(
        &mut self,
        name: &str,
        game: u64,
        finished: Option<FinishedGame>,
        exact: Exact,
        now_ms: u64,
    ) {
        let offered = finished.filter(|g| {
            let opponent = if g.black == name { &g.white } else { &g.black };
            (g.black == name || g.white == name)
                && self
                    .rematches
                    .get(&game)
                    .is_some_and(|o| o.from == *opponent)
        });
        let Some(g) = offered else {
            return self.tell_anywhere(
                name,
                &error(
                    ErrorCode::NotFound,
                    format!("no rematch of game {game} is offered to you now"),
                    Some(game),
                ),
            );
        };
        self.ratings.entry(name.to_string()).or_insert(exact);
        if let Err(e) = self.start_rematch(&g, game, now_ms) {
            self.tell_anywhere(name, &e);
        }
    }

    /// `name`, online on another node, declines the rematch of `game` offered here.
    fn decline_asked(&mut self, name: &str, game: u64) {
        if self.rematches.get(&game).is_some_and(|o| o.from != name)
            && let Some(offer) = self.rematches.remove(&game)
        {
            self.forget_offer(
                game,
                super::After::Relay {
                    name: offer.from.clone(),
                    msg: Box::new(ServerMessage::RematchDeclined { game }),
                },
            );
            self.forget_rating(&offer.from);
        }
    }
}

/// A notice heard from the other nodes ([`crate::nodes::NOTICES`]); one of this node's own, or unreadable (logged),
/// is passed over.
pub async fn heard(shared: &Shared, text: &str) {
    let notice: Notice = match serde_json::from_str(text) {
        Ok(n) => n,
        Err(e) => return tracing::warn!("a notice from another node does not read: {e}"),
    };
    if notice.node == shared.hub().node {
        return;
    }
    let now = shared.now_ms();
    match notice.said {
        Said::Tell { to, msg } => shared.hub().heard_tell(&notice.node, &to, msg, now),
        Said::Followers { game, skip, msg } => shared.hub().heard_followers(game, &skip, &msg),
        Said::Gone { name } => shared.hub().gone_elsewhere(&name, &notice.node),
        Said::Ask { name, ask } => asked(shared, &name, ask).await,
    }
}

/// `name`'s answer `ask` from another node: done if this node holds what it answers.
async fn asked(shared: &Shared, name: &str, ask: Ask) {
    let held = {
        let hub = shared.hub();
        match ask {
            Ask::Accept { challenge } | Ask::Close { challenge, .. } => {
                hub.challenges.contains_key(&challenge)
            }
            Ask::Rematch { game } | Ask::DeclineRematch { game } => {
                hub.rematches.contains_key(&game)
            }
        }
    };
    if !held {
        return;
    }
    // The player's rating as kept (their node's is no newer: a game's end is kept with its ratings); if it cannot
    // be read, nothing starts and they are told.
    let rating = || async {
        let n = name.to_string();
        let read = shared.store.read(move |s| s.rating(&n)).await;
        read.map_err(|e| {
            tracing::error!("rating of {name}: {e}");
            shared.hub().tell_anywhere(name, &super::store_failed());
        })
        .ok()
    };
    match ask {
        Ask::Accept { challenge } => {
            let Some(exact) = rating().await else { return };
            let now = shared.now_ms();
            shared.hub().accept_asked(name, challenge, exact, now);
        }
        Ask::Close { challenge, cancel } => shared.hub().close_asked(name, challenge, cancel),
        Ask::Rematch { game } => {
            let finished = super::watch::finished(shared, game).await;
            let Some(exact) = rating().await else { return };
            let now = shared.now_ms();
            shared.hub().rematch_asked(name, game, finished, exact, now);
        }
        Ask::DeclineRematch { game } => shared.hub().decline_asked(name, game),
    }
}
