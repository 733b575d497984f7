//! The hub as one node of several on one database ([`crate::nodes`]): its games numbered from blocks the store
//! reserves for it, games taken from a node gone (rebuilt from the store), and games let go when their lease is
//! lost or a write of theirs fails.

use super::{After, Hub, Outgoing};
use crate::store::LiveGame;

/// How many game numbers a node reserves at a time; it asks for more when fewer than half are left.
pub const BLOCK: u64 = 100;

impl Hub {
    /// Whether this server is one node of several.
    pub fn is_node(&self) -> bool {
        self.nodes
    }

    /// The next game number: a node's next reserved one, a server alone's one more than the last.
    pub(super) fn next_number(&mut self) -> u64 {
        if self.nodes {
            if let Some(game) = self.numbers.pop_front() {
                self.last_game = self.last_game.max(game);
                return game;
            }
            // Its start is refused if another node has the number (`Taken`): the players are told it could not
            // start.
            tracing::warn!("no game number reserved: the next after the last given is tried");
        }
        self.last_game += 1;
        self.last_game
    }

    /// Whether this node's reserved game numbers run low.
    pub fn wants_numbers(&self) -> bool {
        self.nodes && (self.numbers.len() as u64) < BLOCK / 2
    }

    /// More game numbers reserved for this node.
    pub fn add_numbers(&mut self, numbers: std::ops::Range<u64>) {
        self.numbers.extend(numbers);
    }

    /// Games whose lease this node took (their node gone, or stopped): refereed here from `now_ms`, their
    /// players' opponents here told who is away.
    pub fn adopt(&mut self, games: Vec<LiveGame>, now_ms: u64) {
        let ids: Vec<u64> = games
            .iter()
            .map(|g| g.id)
            .filter(|g| !self.rooms.contains_key(g))
            .collect();
        let fresh = games.into_iter().filter(|g| ids.contains(&g.id)).collect();
        self.resume_games(fresh, now_ms);
        self.mirrors_taken(&ids);
        for game in ids {
            if self.rooms.contains_key(&game) {
                tracing::info!(game, "game taken over: refereed here now");
                self.tell_away(game, now_ms);
            }
        }
        self.lobby_changed = true;
    }

    /// Games whose lease this node lost: refereed here no more. Their players' and watchers' connections here are
    /// closed, so that their clients connect again (to the node that referees it now, through the load balancer)
    /// and resume; nothing past the last event kept was sent to anyone.
    pub fn lose(&mut self, games: &[u64]) {
        for &game in games {
            let Some(live) = self.rooms.remove(&game) else {
                continue;
            };
            tracing::warn!(game, "lease lost: refereed here no more");
            self.remote.retain(|(g, _)| *g != game);
            let watchers = self.watchers.remove(&game).unwrap_or_default();
            for (_, conn) in watchers.values() {
                let _ = conn.tx.send(Outgoing::Close);
            }
            for name in live.players() {
                for l in self.online.get(&name).into_iter().flatten() {
                    let _ = l.conn.tx.send(Outgoing::Close);
                }
                self.forget_rating(&name);
            }
            self.lobby_changed = true;
        }
    }

    /// Every game refereed here let go, as a write of its failing does: no renewal of their leases has been answered for
    /// as long as a lease lasts (the database silent), so another node may referee them by now. Returns them.
    pub fn let_go_all(&mut self) -> Vec<u64> {
        let games: Vec<u64> = self.rooms.keys().copied().collect();
        for &game in &games {
            self.let_go(game);
        }
        games
    }

    /// A game whose write failed on this node: let go (as a lease lost), and its lease released so that a node
    /// takes it from the store at once (if this node still held it).
    pub(super) fn let_go(&mut self, game: u64) {
        self.lose(&[game]);
        self.write(
            format!("game {game}: releasing its lease"),
            move |s| s.release_leases(Some(game)),
            After::Nothing,
        );
    }
}
