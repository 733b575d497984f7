//! Background jobs: the one way Parlor runs long work (the computer's thinking, a solver) off the UI thread.
//!
//! A [`Job`] runs a closure through the installed [`crate::host::Runner`] (the terminal: on its own thread; a
//! machine without threads: at once) and hands back its result once; the front end polls it between key
//! presses. Dropping a job (or [`Job::cancel`]) raises its stop flag, which the work checks to finish early; its
//! result is then thrown away.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};

/// Work running in the background.
pub struct Job<T> {
    rx: Receiver<T>,
    stop: Arc<AtomicBool>,
}

/// What polling a job found.
#[derive(Debug, PartialEq, Eq)]
pub enum Poll<T> {
    /// Still running.
    Running,
    /// Finished with this result (given once).
    Done(T),
    /// The work panicked or was already collected.
    Lost,
}

impl<T: Send + 'static> Job<T> {
    /// Starts `work` through the installed runner ([`crate::host::runner`]); it receives the stop flag.
    pub fn spawn(work: impl FnOnce(&AtomicBool) -> T + Send + 'static) -> Job<T> {
        Job::spawn_on(crate::host::runner(), work)
    }

    /// Starts `work` through `runner`; it receives the stop flag.
    pub fn spawn_on(
        runner: &dyn crate::host::Runner,
        work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
    ) -> Job<T> {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        runner.run(Box::new(move || {
            let result = work(&flag);
            let _ = tx.send(result);
        }));
        Job { rx, stop }
    }

    /// A job whose work is done elsewhere (a browser's worker, which answers later as data): its result is handed
    /// in through the [`Hand`] returned with it. A hand dropped without giving is a lost job ([`Poll::Lost`]).
    pub fn handed() -> (Job<T>, Hand<T>) {
        let (tx, rx) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let hand = Hand {
            tx,
            stop: Arc::clone(&stop),
        };
        (Job { rx, stop }, hand)
    }

    /// The result, if the work has finished.
    pub fn poll(&self) -> Poll<T> {
        match self.rx.try_recv() {
            Ok(v) => Poll::Done(v),
            Err(TryRecvError::Empty) => Poll::Running,
            Err(TryRecvError::Disconnected) => Poll::Lost,
        }
    }

    /// Waits for the result (plain mode, tests).
    pub fn wait(self) -> Option<T> {
        self.rx.recv().ok()
    }

    /// Asks the work to stop early.
    pub fn cancel(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Where the result of a job done elsewhere is handed in ([`Job::handed`]).
pub struct Hand<T> {
    tx: mpsc::Sender<T>,
    stop: Arc<AtomicBool>,
}

impl<T> Hand<T> {
    /// Hands in the result; `false` when the job is no longer wanted (dropped or cancelled: it is thrown away).
    pub fn give(self, result: T) -> bool {
        !self.stopped() && self.tx.send(result).is_ok()
    }

    /// Whether the job is no longer wanted (dropped or cancelled).
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

impl<T> Drop for Job<T> {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_hands_back_its_result_once() {
        let job = Job::spawn(|_| 6 * 7);
        let mut got = None;
        for _ in 0..1000 {
            match job.poll() {
                Poll::Done(v) => {
                    got = Some(v);
                    break;
                }
                Poll::Running => std::thread::sleep(std::time::Duration::from_millis(1)),
                Poll::Lost => break,
            }
        }
        assert_eq!(got, Some(42));
        assert_eq!(job.poll(), Poll::Lost);
    }

    #[test]
    fn a_job_run_at_once_is_done_at_its_first_poll() {
        let job = Job::spawn_on(&crate::host::RunNow, |_| "done");
        assert_eq!(job.poll(), Poll::Done("done"));
    }

    #[test]
    fn a_handed_job_is_done_once_its_hand_gives_and_lost_when_the_hand_is_dropped() {
        let (job, hand) = Job::<u32>::handed();
        assert_eq!(job.poll(), Poll::Running);
        assert!(!hand.stopped());
        assert!(hand.give(7));
        assert_eq!(job.poll(), Poll::Done(7));

        let (job, hand) = Job::<u32>::handed();
        drop(hand);
        assert_eq!(job.poll(), Poll::Lost);

        let (job, hand) = Job::<u32>::handed();
        job.cancel();
        assert!(hand.stopped());
        assert!(!hand.give(1), "a cancelled job takes no result");
        let (job, hand) = Job::<u32>::handed();
        drop(job);
        assert!(hand.stopped());
        assert!(!hand.give(1), "a dropped job takes no result");
    }

    #[test]
    #[cfg(feature = "terminal")]
    fn cancelling_raises_the_stop_flag() {
        let job = Job::spawn(|stop| {
            while !stop.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            "stopped"
        });
        job.cancel();
        assert_eq!(job.wait(), Some("stopped"));
    }
}
