//! Several servers (nodes) on one PostgreSQL database, behind any TCP load balancer (issue 54): a client may reach
//! any node. Each game in play is refereed by one node at a time, which holds its lease in the database
//! ([`LEASE`] long, renewed every [`RENEW`]); every write of a game's progress or end checks the lease in its own
//! transaction, so a node that lost it (paused, cut off from the database) cannot write, and sends nothing it did
//! not write. Every second each node renews its leases, lets go of the games whose lease it lost, takes the leases
//! that ran out or were released (a node killed, or stopped) and rebuilds those games from the store, and reserves
//! more game numbers when its block runs low. A node whose database falls silent (no error, no answer) lets its
//! games go once no renewal has answered for a lease's length (`watch_renewals`). A node stopped (SIGTERM)
//! releases its leases once its last write is done, so another node takes its games at once. SQLite serves one
//! server: none of this runs on it.
//!
//! Players and spectators on a node that does not referee their game are served from what the referee keeps:
//! each write notifies the other nodes (PostgreSQL's LISTEN/NOTIFY, [`News`]), and a node with connections
//! following the game reads its new events from the store and sends them on; a move (or resignation) sent to such
//! a node is checked against the game as last read and passed to the referee through the store
//! ([`crate::store::Store::forward`]).

use crate::Shared;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio::sync::watch;

/// How long a lease lasts after its last renewal: a node gone is taken over within this and one [`RENEW`].
pub const LEASE: Duration = Duration::from_secs(3);

/// How often a node renews its leases and looks for leases to take.
pub const RENEW: Duration = Duration::from_secs(1);

/// The PostgreSQL channel on which a node says a game has new events kept (the game's number as the payload).
pub const EVENTS: &str = "parlor_events";

/// The PostgreSQL channel on which a node says it passed a move to a game's referee (the game's number).
pub const MOVES: &str = "parlor_moves";

/// The PostgreSQL channel on which a node says it started a game or took it over (the game's number): a player of
/// it online on another node (paired through the queue) is told there, and its players following it elsewhere are
/// said there to the new referee.
pub const STARTED: &str = "parlor_started";

/// The PostgreSQL channel of the lobby's notices between nodes (a JSON notice as the payload, `hub/across.rs`): a
/// message for a player online on another node (a challenge, its closing, a rematch offered), a player's answer
/// for the node that holds the challenge or offer (accept, decline, cancel), a player's last connection on a node
/// gone, and a game's away and back for its followers on other nodes.
pub const NOTICES: &str = "parlor_notices";

/// How old a node's last word of a player online (its `presence` row, written every [`RENEW`]) may be for the
/// other nodes to list them: a node killed drops out of the others' lobbies within this and one [`RENEW`].
pub const PRESENCE: Duration = Duration::from_secs(3);

/// What a node hears from the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// A game has new events kept.
    Events(u64),
    /// A move was passed to a game's referee.
    Moves(u64),
    /// A game started, or was taken over.
    Started(u64),
    /// A notice of the lobby's ([`NOTICES`]), as said.
    Notice(String),
    /// News may have been missed (the listening connection was made again): every game followed is read again.
    Missed,
}

/// A node's work every [`RENEW`] until `stop`: renew, let go, take over (and the moves passed to a game taken
/// over are asked for on `news`), pair its queued players, keep its players online and read the other nodes',
/// reserve numbers.
pub(crate) async fn run(
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
    news: UnboundedSender<News>,
) {
    let answered = Arc::new(Mutex::new(Instant::now()));
    let watch = tokio::spawn(watch_renewals(
        Arc::clone(&shared),
        Arc::clone(&answered),
        stop.clone(),
    ));
    let mut every = tokio::time::interval(RENEW);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = stop.changed() => break,
        }
        let renewed = shared.store.write(|s| s.renew_leases()).await;
        if renewed.is_ok() {
            *answered.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        }
        match renewed {
            Ok(lost) if !lost.is_empty() => shared.hub().lose(&lost),
            Ok(_) => {}
            Err(e) => tracing::error!("renewing the leases: {e}"),
        }
        match shared.store.write(|s| s.take_leases()).await {
            Ok(games) if !games.is_empty() => {
                let ids: Vec<u64> = games.iter().map(|g| g.id).collect();
                let now = shared.now_ms();
                shared.hub().adopt(games, now);
                for game in ids {
                    let _ = news.send(News::Moves(game));
                }
            }
            Ok(_) => {}
            Err(e) => tracing::error!("taking the leases run out: {e}"),
        }
        // The queue, paired through the store: every node's queued players, each paired once.
        let seats = shared.hub().seats_to_pair();
        for (name, rating) in seats {
            let (n, now_unix) = (name.clone(), crate::store::now_unix_ms());
            match shared
                .store
                .write(move |s| s.pair_queued(&n, rating, now_unix))
                .await
            {
                Ok(pairing) => {
                    let now = shared.now_ms();
                    shared.hub().paired(&name, pairing, now);
                }
                Err(e) => tracing::error!("pairing {name}: {e}"),
            }
        }
        // Who is online here, kept for the others; who is online there, for the lobby here.
        let mine = shared.hub().present_here();
        match shared.store.write(move |s| s.presence(&mine)).await {
            Ok(others) => shared.hub().present_elsewhere(others),
            Err(e) => tracing::error!("keeping the players online: {e}"),
        }
        if shared.hub().wants_numbers() {
            match shared
                .store
                .write(|s| s.reserve_game_ids(crate::hub::BLOCK))
                .await
            {
                Ok(Some(numbers)) => shared.hub().add_numbers(numbers),
                Ok(None) => {}
                Err(e) => tracing::error!("reserving game numbers: {e}"),
            }
        }
    }
    watch.abort();
}

/// How often [`watch_renewals`] looks.
const WATCH: Duration = Duration::from_millis(250);

/// Until `stop`, apart from [`run`]'s loop: every game refereed here let go ([`crate::hub::Hub::let_go_all`])
/// once no renewal has answered (`answered`: when the last did) for as long as a lease lasts. A database silent
/// rather than refusing (its packets dropped, a call that never returns) holds the loop and every write of this
/// node's up without an error; by then another node may have taken the games, so their players' connections are
/// closed, to connect again and resume where the game is refereed. Nothing is lost: a write held up is fenced by
/// its lease when it arrives, and the leases of the games let go are released once the database answers again.
async fn watch_renewals(
    shared: Arc<Shared>,
    answered: Arc<Mutex<Instant>>,
    mut stop: watch::Receiver<bool>,
) {
    let mut every = tokio::time::interval(WATCH);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = stop.changed() => break,
        }
        let quiet = answered.lock().unwrap_or_else(|e| e.into_inner()).elapsed();
        if quiet >= LEASE {
            let games = shared.hub().let_go_all();
            if !games.is_empty() {
                tracing::error!(
                    games = games.len(),
                    "no renewal of the leases answered for {quiet:?}: every game refereed here let go"
                );
            }
        }
    }
}

/// What a node hears, until `stop`: a game followed here read again and its new events sent on; the moves passed
/// to a game refereed here taken and played. Each game's news is handled in a task of its own, so that a read or
/// write awaited for one game holds up no other; news of a game heard while its task runs is coalesced into one
/// more round of that task (a read then sees every write done before it, so nothing heard is missed).
pub(crate) async fn relay(
    shared: Arc<Shared>,
    mut news: UnboundedReceiver<News>,
    mut stop: watch::Receiver<bool>,
) {
    let busy: Arc<Mutex<HashMap<(u64, Kind), bool>>> = Arc::default();
    loop {
        let heard = tokio::select! {
            Some(heard) = news.recv() => heard,
            _ = stop.changed() => break,
        };
        match heard {
            News::Events(game) => {
                if shared.hub().follows(game) {
                    handle(&shared, &busy, game, Kind::Events);
                }
            }
            News::Moves(game) => handle(&shared, &busy, game, Kind::Moves),
            News::Started(game) => handle(&shared, &busy, game, Kind::Started),
            News::Notice(text) => crate::hub::heard(&shared, &text).await,
            News::Missed => {
                let (followed, refereed) = {
                    let hub = shared.hub();
                    (hub.followed(), hub.refereed())
                };
                for game in followed {
                    handle(&shared, &busy, game, Kind::Events);
                }
                for game in refereed {
                    handle(&shared, &busy, game, Kind::Moves);
                }
            }
        }
    }
}

/// What a piece of news asks of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    /// Read it again and send its new events on.
    Events,
    /// Take the moves passed to it.
    Moves,
    /// It started or was taken over elsewhere.
    Started,
}

/// Does `kind` for `game` in a task of its own, or, if such a task runs, has it do it once more when done.
fn handle(
    shared: &Arc<Shared>,
    busy: &Arc<Mutex<HashMap<(u64, Kind), bool>>>,
    game: u64,
    kind: Kind,
) {
    {
        let mut b = busy.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(again) = b.get_mut(&(game, kind)) {
            *again = true;
            return;
        }
        b.insert((game, kind), false);
    }
    let (shared, busy) = (Arc::clone(shared), Arc::clone(busy));
    tokio::spawn(async move {
        // Bounded: another round only for news heard during this one.
        loop {
            match kind {
                Kind::Events => crate::hub::refresh(&shared, game).await,
                Kind::Moves => crate::hub::take_forwarded(&shared, game).await,
                Kind::Started => crate::hub::started_elsewhere(&shared, game).await,
            }
            let mut b = busy.lock().unwrap_or_else(|e| e.into_inner());
            match b.get_mut(&(game, kind)) {
                Some(again) if *again => *again = false,
                _ => {
                    b.remove(&(game, kind));
                    break;
                }
            }
        }
    });
}
