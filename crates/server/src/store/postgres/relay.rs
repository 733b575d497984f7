//! What nodes on one database tell each other ([`crate::nodes`]), through PostgreSQL's LISTEN/NOTIFY: a game's
//! new events kept (notified by the writing transaction, so delivered on its commit only), a game started (so
//! that a player paired from another node's queue is told), a move passed to a game's referee (kept in
//! `forwarded_moves`, then notified) and the lobby's notices ([`crate::nodes::NOTICES`]). Each node listens on a connection and thread of its
//! own ([`listen`]); each time it starts to listen (at the start, or with a connection made again) the node is
//! told it may have missed news ([`News::Missed`]).

use super::{PgUrl, Result, connect};
use crate::nodes::{EVENTS, MOVES, NOTICES, News, STARTED};
use crate::store::{Action, Forwarded, StoreError};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, Statement, Transaction};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How long the listener waits for news before it looks whether it is still wanted.
const POLL: Duration = Duration::from_millis(500);

/// Starts the listener thread: news to `news` until it is closed.
pub(super) fn listen(url: &PgUrl, news: UnboundedSender<News>) -> Result<()> {
    let url = url.clone();
    std::thread::Builder::new()
        .name("parlor-listen".into())
        .spawn(move || {
            // Bounded by `news`: the loop ends once the server has stopped listening.
            while !news.is_closed() {
                if let Err(e) = listen_once(&url, &news) {
                    tracing::error!("listening to the other nodes: {e}");
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        })
        .map(|_| ())
        .map_err(|source| StoreError::Io {
            what: "starting the thread parlor-listen".into(),
            source,
        })
}

/// One connection's listening, until it fails or `news` is closed.
fn listen_once(url: &PgUrl, news: &UnboundedSender<News>) -> Result<()> {
    let mut client = connect(url, false)?;
    client.batch_execute(&format!(
        "LISTEN {EVENTS}; LISTEN {MOVES}; LISTEN {STARTED}; LISTEN {NOTICES}"
    ))?;
    // Whatever was said before this connection listened (at the start, or while it was being made again) is read
    // from the store.
    let _ = news.send(News::Missed);
    while !news.is_closed() {
        let mut notifications = client.notifications();
        let mut heard = notifications.timeout_iter(POLL);
        while let Some(n) = heard.next()? {
            if n.channel() == NOTICES {
                if news.send(News::Notice(n.payload().to_string())).is_err() {
                    return Ok(());
                }
                continue;
            }
            let Ok(game) = n.payload().parse::<u64>() else {
                continue;
            };
            let said = match n.channel() {
                MOVES => News::Moves(game),
                STARTED => News::Started(game),
                _ => News::Events(game),
            };
            if news.send(said).is_err() {
                return Ok(());
            }
        }
    }
    Ok(())
}

/// The keeping of a player's action for a game's referee ([`forward`]).
pub(super) const FORWARD: &str =
    "INSERT INTO forwarded_moves (game, name, kind, seq, mv) VALUES ($1, $2, $3, $4, $5)";

/// The taking of the actions kept for a game's referee ([`take`]).
pub(super) const TAKE: &str =
    "WITH taken AS (DELETE FROM forwarded_moves WHERE game = $1 RETURNING id, name, kind, seq, mv)
     SELECT name, kind, seq, mv FROM taken ORDER BY id";

/// Keeps a player's action for `game`'s referee and tells it, with [`FORWARD`] and
/// [`NOTIFY`](super::lease::NOTIFY) prepared.
pub(super) fn forward(
    db: &mut Client,
    [insert, notify]: [&Statement; 2],
    game: u64,
    f: &Forwarded,
) -> Result<()> {
    let mut tx = db.transaction()?;
    let (seq, mv) = match &f.action {
        Action::Move { seq, mv } => (Some(i64::try_from(*seq)?), Some(mv.as_str())),
        _ => (None, None),
    };
    tx.execute(
        insert,
        &[&i64::try_from(game)?, &f.name, &f.action.kind(), &seq, &mv],
    )?;
    tx.execute(notify, &[&MOVES, &game.to_string()])?;
    tx.commit()?;
    Ok(())
}

/// Takes the actions kept for `game`'s referee, oldest first, in the transaction that checked the lease, with
/// [`TAKE`] prepared as `take`.
pub(super) fn take(
    tx: &mut Transaction<'_>,
    take: &Statement,
    game: u64,
) -> Result<Vec<Forwarded>> {
    let rows = tx.query(take, &[&i64::try_from(game)?])?;
    let mut taken = Vec::new();
    for r in &rows {
        let name: String = r.try_get(0)?;
        let kind: String = r.try_get(1)?;
        let action = match (
            kind.as_str(),
            r.try_get::<_, Option<i64>>(2)?,
            r.try_get(3)?,
        ) {
            ("move", Some(seq), Some(mv)) => Action::Move {
                seq: u64::try_from(seq)?,
                mv,
            },
            ("resign", _, _) => Action::Resign,
            ("here", _, _) => Action::Here,
            ("gone", _, _) => Action::Gone,
            _ => {
                tracing::error!(game, name, kind, "an action passed on does not read");
                continue;
            }
        };
        taken.push(Forwarded { name, action });
    }
    Ok(taken)
}
