//! [`Pool`]: a [`Store`] run on threads of its own, asked by channel. One thread holds the writer and does every
//! write, one after another in the order they were asked (so a game's progress and its end are written in the
//! order they happened); reader threads, each with a reader of the store ([`Store::reader`]), share the reads.
//! An async caller awaits its answer on a oneshot channel; the hub, which never waits, asks for a write with what
//! to do once it is done ([`Pool::write_then`]).

use super::{Store, StoreError};
use crate::metrics::Metrics;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::oneshot;

/// One call on a store, run on its thread.
type Job = Box<dyn FnOnce(&mut dyn Store) + Send>;

/// How many reader threads a pool starts (when its store has readers).
pub const READERS: usize = 2;

/// A store on its threads: cheap to clone, each clone asking the same threads. The threads end once every clone
/// is dropped, after the calls already asked.
#[derive(Clone, Debug)]
pub struct Pool {
    writer: mpsc::Sender<Job>,
    /// The readers' shared queue, or none: reads go to the writer.
    reader: Option<mpsc::Sender<Job>>,
}

impl Pool {
    /// Starts `store` as the writer on a thread of its own and, if it has readers, [`READERS`] reader threads.
    pub fn start(store: Box<dyn Store>) -> Result<Pool, StoreError> {
        Pool::start_measured(store, None)
    }

    /// [`Pool::start`], each call's time on its thread counted in `calls` if given.
    pub fn start_measured(
        store: Box<dyn Store>,
        calls: Option<Arc<Metrics>>,
    ) -> Result<Pool, StoreError> {
        let mut readers = Vec::new();
        for _ in 0..READERS {
            match store.reader()? {
                Some(r) => readers.push(r),
                None => break,
            }
        }
        let (writer, jobs) = mpsc::channel::<Job>();
        spawn(
            "parlor-store-writer".into(),
            store,
            Arc::new(Mutex::new(jobs)),
            calls.clone(),
        )?;
        let reader = if readers.is_empty() {
            None
        } else {
            let (reader, jobs) = mpsc::channel::<Job>();
            let jobs = Arc::new(Mutex::new(jobs));
            for (i, r) in readers.into_iter().enumerate() {
                spawn(
                    format!("parlor-store-reader-{i}"),
                    r,
                    Arc::clone(&jobs),
                    calls.clone(),
                )?;
            }
            Some(reader)
        };
        Ok(Pool { writer, reader })
    }

    /// Runs `call` on the writer, after every write asked before, and answers with what it returns.
    pub async fn write<R, F>(&self, call: F) -> Result<R, StoreError>
    where
        R: Send + 'static,
        F: FnOnce(&mut dyn Store) -> Result<R, StoreError> + Send + 'static,
    {
        ask(&self.writer, call).await
    }

    /// Runs `call` on a reader (on the writer if the store has none): it sees every write finished before it.
    pub async fn read<R, F>(&self, call: F) -> Result<R, StoreError>
    where
        R: Send + 'static,
        F: FnOnce(&mut dyn Store) -> Result<R, StoreError> + Send + 'static,
    {
        ask(self.reader.as_ref().unwrap_or(&self.writer), call).await
    }

    /// Asks for `call` on the writer without waiting: `then` is given its result on the writer's thread once it is
    /// done (or [`StoreError::Stopped`], at once, if the writer has stopped).
    pub fn write_then<F, T>(&self, call: F, then: T)
    where
        F: FnOnce(&mut dyn Store) -> Result<(), StoreError> + Send + 'static,
        T: FnOnce(Result<(), StoreError>) + Send + 'static,
    {
        // Shared with the job, so that it is still here to be told if the job cannot be sent.
        let then = Arc::new(Mutex::new(Some(then)));
        let theirs = Arc::clone(&then);
        let job: Job = Box::new(move |store| {
            let result = call(store);
            if let Some(then) = take(&theirs) {
                then(result);
            }
        });
        if self.writer.send(job).is_err()
            && let Some(then) = take(&then)
        {
            then(Err(StoreError::Stopped));
        }
    }

    /// Runs `call` on the writer's thread and waits for it, blocking this thread: only for starting up and for
    /// tests, never from an async task.
    pub fn write_blocking<R, F>(&self, call: F) -> Result<R, StoreError>
    where
        R: Send + 'static,
        F: FnOnce(&mut dyn Store) -> Result<R, StoreError> + Send + 'static,
    {
        let (tx, rx) = std::sync::mpsc::channel();
        self.writer
            .send(Box::new(move |store| {
                let _ = tx.send(call(store));
            }))
            .map_err(|_| StoreError::Stopped)?;
        rx.recv().map_err(|_| StoreError::Stopped)?
    }

    /// Waits until every write asked before is done.
    pub async fn flush(&self) -> Result<(), StoreError> {
        self.write(|_| Ok(())).await
    }
}

fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().unwrap_or_else(|e| e.into_inner()).take()
}

/// Sends `call` to the thread behind `jobs` and awaits its answer.
async fn ask<R, F>(jobs: &mpsc::Sender<Job>, call: F) -> Result<R, StoreError>
where
    R: Send + 'static,
    F: FnOnce(&mut dyn Store) -> Result<R, StoreError> + Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    jobs.send(Box::new(move |store| {
        let _ = tx.send(call(store));
    }))
    .map_err(|_| StoreError::Stopped)?;
    rx.await.map_err(|_| StoreError::Stopped)?
}

/// Starts a thread running the jobs of `jobs` on `store` until every sender is gone.
fn spawn(
    name: String,
    mut store: Box<dyn Store>,
    jobs: Arc<Mutex<mpsc::Receiver<Job>>>,
    calls: Option<Arc<Metrics>>,
) -> Result<(), StoreError> {
    std::thread::Builder::new()
        .name(name.clone())
        .spawn(move || {
            loop {
                // The lock is held only while taking a job, so that the readers share one queue.
                let job = {
                    let jobs = jobs.lock().unwrap_or_else(|e| e.into_inner());
                    jobs.recv()
                };
                let Ok(job) = job else { break };
                // A call that panics is logged and answers nothing (its caller hears `Stopped`); the thread goes on.
                let store = store.as_mut();
                let began = Instant::now();
                if std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || job(store)))
                    .is_err()
                {
                    tracing::error!("a call on the store panicked");
                }
                if let Some(m) = &calls {
                    m.store_calls.observe(began.elapsed());
                }
            }
        })
        .map(|_| ())
        .map_err(|source| StoreError::Io {
            what: format!("starting the thread {name}"),
            source,
        })
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::store::{QueuedPlayer, SqliteStore};

    fn seat(i: u64) -> QueuedPlayer {
        QueuedPlayer {
            name: format!("p{i:02}"),
            board: "4x4".into(),
            clock: None,
            joined_unix_ms: i,
        }
    }

    #[tokio::test]
    async fn writes_are_done_in_the_order_asked_and_reads_see_every_write_done() {
        let dir = tempfile::tempdir().unwrap();
        let pool = Pool::start(Box::new(SqliteStore::open(dir.path()).unwrap())).unwrap();
        assert!(pool.reader.is_some(), "SQLite has readers");
        let (tx, rx) = std::sync::mpsc::channel();
        for i in 0..40 {
            let tx = tx.clone();
            pool.write_then(
                move |s| s.queue_put(&seat(i)),
                move |r| {
                    let _ = tx.send((i, r.is_ok()));
                },
            );
        }
        pool.flush().await.unwrap();
        let done: Vec<(u64, bool)> = rx.try_iter().collect();
        assert_eq!(done, (0..40).map(|i| (i, true)).collect::<Vec<_>>());
        let kept = pool.read(|s| s.queue()).await.unwrap();
        assert_eq!(kept, (0..40).map(seat).collect::<Vec<_>>());
        // A failing call answers its error; the writer goes on.
        let refused = pool
            .write(|s| {
                s.finish_game(
                    7,
                    "",
                    parlor_online::referee::GameResult {
                        winner: None,
                        reason: parlor_online::protocol::EndReason::Aborted,
                    },
                    "",
                )
            })
            .await;
        assert!(
            matches!(refused, Err(StoreError::NotInPlay(7))),
            "{refused:?}"
        );
        assert_eq!(pool.write(|s| s.last_game_id()).await.unwrap(), 0);
    }
}
