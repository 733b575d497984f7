//! The coach at work: a finished game's review read back from the store where it is kept, else made in the
//! background ([`super::jobs::Job`]) with its progress told, and kept once done. Every face that offers a review
//! goes through here ([`Coach`]), and so does `parlor review` ([`kept`], [`keep`]).

use super::jobs::{Job, Poll};
use super::review::Review;
use super::{AnyGame, Contexts};
use crate::storage::{GameRecord, Storage};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The engine a review of `game` is kept under: its engine crate's `name version` (a new version reviews again).
pub fn engine_of<T: AnyGame + ?Sized>(game: &T) -> String {
    let (name, version) = game.engine();
    format!("{name} {version}")
}

/// The review of finished game `id` by `engine` kept in `store`, if one is kept and readable in this Parlor's
/// schema (a damaged or newer one is not, nor one of an older schema, which lacks what this one says: the game is
/// reviewed again, and the new review replaces it).
pub fn kept(store: &dyn Storage, engine: &str, id: i64) -> Option<Review> {
    store
        .review(id, engine)
        .and_then(|json| Review::from_json(&json).ok())
        .filter(|r| r.schema == super::review::SCHEMA)
}

/// Keeps `review` of finished game `id` by `engine` in `store`; `None` when it is kept, else why not (a read-only
/// database, a store that keeps no reviews, a write that failed).
pub fn keep(store: &dyn Storage, engine: &str, id: i64, review: &Review) -> Option<String> {
    if store.read_only() {
        return Some(format!("the database {} is read-only", store.location()));
    }
    store
        .save_review(id, engine, &review.to_json())
        .err()
        .map(|e| format!("{e:#}"))
}

/// A review of `record`, a finished game of `game`, made now by its reviewer in its context among `contexts`
/// (`progress(done, of)` told each move); why not, when it cannot be (the game has no reviewer, the record is damaged).
pub fn make<T: AnyGame + ?Sized>(
    game: &T,
    record: &GameRecord,
    contexts: &Contexts,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Review, String> {
    match game.review(record, contexts, progress) {
        Some(Ok(review)) => Ok(review),
        Some(Err(e)) => Err(e.to_string()),
        None => Err(format!("{} games have no reviewer", game.title())),
    }
}

/// The review of `record`, a finished game of `game`, on this thread: the one kept in `store` by this engine
/// version, else one made now ([`make`]) and kept ([`keep`]). Returns it with why it is not kept, when it could not
/// be.
pub fn review_now<T: AnyGame + ?Sized>(
    game: &T,
    record: &GameRecord,
    store: &dyn Storage,
    contexts: &Contexts,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<(Review, Option<String>), String> {
    let engine = engine_of(game);
    if let Some(review) = kept(store, &engine, record.id) {
        return Ok((review, None));
    }
    let review = make(game, record, contexts, progress)?;
    let not_kept = keep(store, &engine, record.id, &review);
    Ok((review, not_kept))
}

/// How far a review made in the background has come: moves done, of how many.
#[derive(Debug, Default)]
pub struct Progress {
    done: AtomicUsize,
    of: AtomicUsize,
}

impl Progress {
    /// Tells how far the review has come: `done` moves of `of` (a review made elsewhere, as its worker says it).
    pub fn tell(&self, done: usize, of: usize) {
        self.done.store(done, Ordering::Relaxed);
        self.of.store(of, Ordering::Relaxed);
    }

    /// How far the review has come: moves done, of how many.
    pub fn now(&self) -> (usize, usize) {
        (
            self.done.load(Ordering::Relaxed),
            self.of.load(Ordering::Relaxed),
        )
    }
}

/// The review of one finished game, as a face shows it: being made, ready, or refused with why.
pub enum Coach {
    /// Being made in the background.
    Working {
        /// The work.
        job: Job<Result<Review, String>>,
        /// How far it has come.
        progress: Arc<Progress>,
        /// The engine it is kept under.
        engine: String,
        /// The finished game's number.
        id: i64,
    },
    /// Made, or read back.
    Ready {
        /// The review.
        review: Review,
        /// Why it is not kept with the game, when it could not be.
        not_kept: Option<String>,
    },
    /// The game cannot be reviewed here: why.
    Failed(String),
}

impl Coach {
    /// The review of `record`, a finished game of `game`: the one kept in `store` by this engine version, else one
    /// made now in the background in the game's context among `contexts` ([`Coach::poll`] collects it).
    pub fn start<T: AnyGame + ?Sized + 'static>(
        game: &'static T,
        record: &GameRecord,
        store: &dyn Storage,
        contexts: &Contexts,
    ) -> Coach {
        let (owned, contexts) = (record.clone(), contexts.clone());
        Coach::start_with(game, record, store, move |told| {
            Job::spawn(move |_stop| {
                make(game, &owned, &contexts, &mut |done, of| told.tell(done, of))
            })
        })
    }

    /// The review of `record`, a finished game of `game`: the one kept in `store` by this engine version, else the
    /// one `work` makes (given the progress to tell; a browser hands it to its worker, [`Job::handed`]).
    pub fn start_with<T: AnyGame + ?Sized>(
        game: &T,
        record: &GameRecord,
        store: &dyn Storage,
        work: impl FnOnce(Arc<Progress>) -> Job<Result<Review, String>>,
    ) -> Coach {
        let engine = engine_of(game);
        if let Some(review) = kept(store, &engine, record.id) {
            return Coach::Ready {
                review,
                not_kept: None,
            };
        }
        let progress = Arc::new(Progress::default());
        progress.tell(0, record.moves.split_whitespace().count());
        let job = work(Arc::clone(&progress));
        let id = record.id;
        Coach::Working {
            job,
            progress,
            engine,
            id,
        }
    }

    /// Collects the review if its work has finished, and keeps it in `store`; returns whether anything changed.
    pub fn poll(&mut self, store: &dyn Storage) -> bool {
        let Coach::Working {
            job, engine, id, ..
        } = self
        else {
            return false;
        };
        let next = match job.poll() {
            Poll::Running => return false,
            Poll::Lost => Coach::Failed("the review stopped before its end".into()),
            Poll::Done(Err(why)) => Coach::Failed(why),
            Poll::Done(Ok(review)) => Coach::Ready {
                not_kept: keep(store, engine, *id, &review),
                review,
            },
        };
        *self = next;
        true
    }

    /// Whether the review is still being made.
    pub fn working(&self) -> bool {
        matches!(self, Coach::Working { .. })
    }

    /// The finished game's number, while its review is being made.
    pub fn working_on(&self) -> Option<i64> {
        match self {
            Coach::Working { id, .. } => Some(*id),
            _ => None,
        }
    }

    /// The review, once it is ready.
    pub fn review(&self) -> Option<&Review> {
        match self {
            Coach::Ready { review, .. } => Some(review),
            _ => None,
        }
    }

    /// The review's one line for an end screen: how far the work has come (`reviewing 3 of 40 moves…`), the
    /// summary once ready ([`Review::summary`]), or why there is none.
    pub fn line(&self) -> String {
        match self {
            Coach::Working { progress, .. } => {
                let (done, of) = progress.now();
                format!("reviewing {done} of {of} moves…")
            }
            Coach::Ready { review, .. } => review.summary(),
            Coach::Failed(why) => format!("no review: {why}"),
        }
    }
}

/// Reviews still being made for faces that were left (a review screen closed, an end screen left, before the review
/// was done): each goes on in the background and is kept once done, and a face that opens the same game's review
/// again takes it back instead of starting another. Those still at work when the program leaves are dropped (made
/// again at the next review).
#[derive(Default)]
pub struct Reviews(Vec<Coach>);

impl Reviews {
    /// Goes on with `coach` in the background, if it is still at work (one made or refused needs nothing more).
    pub fn keep_on(&mut self, coach: Coach) {
        if coach.working() {
            self.0.push(coach);
        }
    }

    /// The review of finished game `id` still being made here, taken back.
    pub fn take(&mut self, id: i64) -> Option<Coach> {
        let i = self.0.iter().position(|c| c.working_on() == Some(id))?;
        Some(self.0.swap_remove(i))
    }

    /// Collects the reviews whose work finished, each kept in `store`.
    pub fn poll(&mut self, store: &dyn Storage) {
        self.0.retain_mut(|c| {
            c.poll(store);
            c.working()
        });
    }

    /// Whether no review is at work here.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
