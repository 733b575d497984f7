//! The solved tables the perfect level and the exact hints read: one per board, loaded or solved once per run on a
//! background [`Job`] and shared by every game of that board.
//!
//! Boards up to 4x4 (3x3, 3x4, 4x3, 4x4) are solved on first use (seconds at most) and the table is written to the
//! data directory's `tables/` so the next Parlor loads it; larger boards are read from there only, once
//! `parlor nocca solve RxC` has written them. Without a data directory (tests drawing screens in memory) the small
//! boards are solved in memory and nothing is written.
//!
//! Which tables are loaded, being made or failed, and where they are kept, is held by a [`Tables`] (Nocca's
//! [`crate::mid::game::Game::Context`], made once at the program's top from the data directory and shared by every
//! session, thinker and screen of the game): there is no process-wide registry.
//!
//! In a browser the thinking worker's tables are solved elsewhere ([`Tables::solve_elsewhere`]): by the page's
//! builder worker, which outlives a thinking worker ended to stop a think. There a table needed is handed out to be
//! solved ([`Tables::take_wanted`]) and never waited for: a hint searches meanwhile and says so
//! ([`Tables::meanwhile`]), and the front end holds a perfect move until the table comes ([`Tables::add_ready`]).

use crate::mid::jobs::{Job, Poll};
use nocca::{Dims, Progress, SolveOptions, Stage, Table};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// What the job loading or solving a board reports while it runs.
#[derive(Clone, Copy, Debug)]
enum Work {
    Loading,
    Solving(Option<Progress>),
}

struct Pending {
    dims: Dims,
    job: Job<Result<Table, String>>,
    work: Arc<Mutex<Work>>,
}

#[derive(Default)]
struct Registry {
    /// Where tables are kept (`DATA/tables`), once the data directory is known.
    dir: Option<PathBuf>,
    ready: Vec<(Dims, Arc<Table>)>,
    failed: Vec<(Dims, String)>,
    pending: Option<Pending>,
    /// Boards whose tables were asked of the place the front end thinks elsewhere (a browser's worker), which solves
    /// or reads them off the page's thread and hands the bytes over ([`crate::mid::elsewhere::give`]).
    fetching: Vec<Dims>,
    /// Whether tables are solved by the front end elsewhere ([`Tables::solve_elsewhere`]).
    elsewhere: bool,
    /// Boards whose tables are needed and not yet handed to the front end to solve ([`Tables::take_wanted`]).
    wanted: Vec<Dims>,
    /// Boards whose tables are being solved elsewhere (wanted or handed out) and have not come yet.
    solving: Vec<Dims>,
}

/// The solved tables of one program run: where they are kept (`DATA/tables`), which are loaded, which is being
/// loaded or solved, and which failed. Cloning shares them (the clones see the same tables and the same job); the
/// default has no data directory: the small boards are solved in memory and nothing is written or read.
#[derive(Clone, Default)]
pub struct Tables(Arc<Mutex<Registry>>);

impl std::fmt::Debug for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Tables").field(&self.registry().dir).finish()
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where solved tables live: `DATA/tables`.
pub fn table_dir(data_dir: &Path) -> PathBuf {
    data_dir.join("tables")
}

/// Whether a board is solved on first use: boards up to 4x4 (at most 15 MB and a few seconds).
pub fn solves_on_first_use(dims: Dims) -> bool {
    dims.rows() <= 4 && dims.cols() <= 4
}

/// The key a board's table is kept and fetched under elsewhere (a browser's IndexedDB and worker): its file name,
/// `nocca-4x4.table`.
pub fn kept_key(dims: Dims) -> String {
    Table::file_name(dims)
}

/// The command that writes a board's table.
pub fn solve_command(dims: Dims) -> String {
    format!("parlor nocca solve {dims}")
}

impl Registry {
    fn file(&self, dims: Dims) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| Table::path_in(d, dims))
    }

    fn find(&self, dims: Dims) -> Option<Arc<Table>> {
        self.ready
            .iter()
            .find(|(d, _)| *d == dims)
            .map(|(_, t)| Arc::clone(t))
    }

    /// Collects the pending job's result if it has finished, and the tables fetched from elsewhere that have come.
    fn poll(&mut self) {
        self.poll_fetched();
        let Some(p) = &self.pending else { return };
        let dims = p.dims;
        match p.job.poll() {
            Poll::Running => return,
            Poll::Done(Ok(t)) => self.ready.push((dims, Arc::new(t))),
            Poll::Done(Err(e)) => self.failed.push((dims, e)),
            Poll::Lost => self
                .failed
                .push((dims, format!("the {dims} table could not be made"))),
        }
        self.pending = None;
    }

    /// Takes the tables asked elsewhere that have come (checked as a kept file is: header, board and checksum).
    fn poll_fetched(&mut self) {
        let mut i = 0;
        while i < self.fetching.len() {
            let dims = self.fetching[i];
            let Some(given) = crate::mid::elsewhere::take_given(&kept_key(dims)) else {
                i += 1;
                continue;
            };
            self.fetching.swap_remove(i);
            let table = given.and_then(|bytes| {
                Table::from_bytes(&bytes, dims, &format!("the worker's {}", kept_key(dims)))
                    .map_err(|e| e.to_string())
            });
            match table {
                Ok(t) if self.find(dims).is_none() => self.ready.push((dims, Arc::new(t))),
                Ok(_) => {}
                Err(why) => self.failed.push((dims, why)),
            }
        }
    }

    fn start(&mut self, dims: Dims) {
        let file = self.file(dims);
        let work = Arc::new(Mutex::new(Work::Loading));
        let shared = Arc::clone(&work);
        let job = Job::spawn(move |_stop: &AtomicBool| make(dims, file.as_deref(), &shared));
        self.pending = Some(Pending { dims, job, work });
    }
}

/// Loads a board's table from `file`, or solves it (boards up to 4x4) and writes it there.
fn make(dims: Dims, file: Option<&Path>, work: &Mutex<Work>) -> Result<Table, String> {
    let mut rejected = None;
    if let Some(path) = file.filter(|p| p.exists()) {
        match Table::load(path, dims) {
            Ok(t) => return Ok(t),
            Err(e) => rejected = Some(e.to_string()),
        }
    }
    if !solves_on_first_use(dims) {
        return Err(match rejected {
            Some(e) => format!("{e}: run `{}` to write it again", solve_command(dims)),
            None => for_the_level(missing(dims, file.and_then(Path::parent))),
        });
    }
    *lock(work) = Work::Solving(None);
    let table = Table::solve(dims, &SolveOptions::default(), &mut |p| {
        *lock(work) = Work::Solving(Some(*p));
    })
    .map_err(|e| format!("solving {dims}: {e}"))?;
    if let Some(path) = file {
        // A table that cannot be written is still good for this run: the board is solved again next time.
        let _ = table.save(path);
    }
    Ok(table)
}

/// Why a board's table is not in the data directory (short enough for the setup form's one line): the command
/// that writes it, or, when this machine cannot hold that solve (6x5 needs about 74 GB), that it cannot be had
/// here (`true`: nobody is sent to a solve that would be refused).
fn missing(dims: Dims, dir: Option<&Path>) -> (String, bool) {
    #[cfg(not(feature = "terminal"))]
    let fits: Result<(), String> = {
        // Without the terminal there is no data directory and no solver command: only the small boards exist.
        let _ = dir;
        Err("no solver here".to_string())
    };
    #[cfg(feature = "terminal")]
    let fits = match dir {
        Some(d) => crate::games::nocca::solve_estimate::machine_fits(dims, d),
        None => crate::games::nocca::solve_estimate::estimate(dims)
            .fits(crate::games::nocca::solve_estimate::machine_memory(), None),
    };
    match fits {
        Ok(()) => (
            format!("no {dims} table; run `{}`", solve_command(dims)),
            false,
        ),
        Err(why) => (
            format!("no {dims} table, and this machine cannot solve {dims}: {why}"),
            true,
        ),
    }
}

impl Tables {
    /// Tables read from and written to `data_dir/tables` (`None`: no data directory; the small boards are solved in
    /// memory, the others cannot be had).
    pub fn new(data_dir: Option<&Path>) -> Tables {
        Tables(Arc::new(Mutex::new(Registry {
            dir: data_dir.map(table_dir),
            ready: Vec::new(),
            failed: Vec::new(),
            pending: None,
            fetching: Vec::new(),
            elsewhere: false,
            wanted: Vec::new(),
            solving: Vec::new(),
        })))
    }

    fn registry(&self) -> MutexGuard<'_, Registry> {
        lock(&self.0)
    }

    /// Whether a board's table can be had: it is loaded, or in the data directory, or the board is solved on first
    /// use. The error says why not and what to run (`true`: it cannot be had on this machine at all).
    fn table(&self, dims: Dims) -> Result<(), (String, bool)> {
        let r = self.registry();
        if r.find(dims).is_some() || solves_on_first_use(dims) {
            return Ok(());
        }
        match r.file(dims).map(|p| std::fs::metadata(p).map(|m| m.len())) {
            Some(Ok(len)) if len == Table::file_len(dims) => Ok(()),
            // A file of the wrong length (truncated, or another board's) is caught here; a damaged one of the right
            // length only when it is read (its checksum).
            Some(Ok(_)) => Err((
                format!("the {dims} table is damaged; run `{}`", solve_command(dims)),
                false,
            )),
            _ => Err(missing(dims, r.dir.as_deref())),
        }
    }

    /// Whether the perfect level and exact hints can be had on a board. The error says what to run,
    /// or to choose another level where the table cannot be had here.
    pub fn available(&self, dims: Dims) -> Result<(), String> {
        self.table(dims).map_err(for_the_level)
    }

    /// Whether exact values can be shown on a board (in any mode: no level is involved), and if not, why.
    pub fn values_available(&self, dims: Dims) -> Result<(), String> {
        self.table(dims).map_err(|(why, _)| why)
    }

    /// A word for a player about to use a board's table that is neither loaded nor saved: it is solved first.
    pub fn first_use(&self, dims: Dims) -> Option<String> {
        let r = self.registry();
        let saved = r.file(dims).is_some_and(|p| p.exists());
        (r.find(dims).is_none() && !saved && solves_on_first_use(dims)).then(|| {
            let kept = if r.dir.is_some() {
                " and kept in the data directory"
            } else {
                ""
            };
            format!("the {dims} table is solved on first use (seconds at most){kept}")
        })
    }

    /// The board's table if it is loaded (non-blocking; collects a finished job).
    pub fn ready(&self, dims: Dims) -> Option<Arc<Table>> {
        let mut r = self.registry();
        r.poll();
        r.find(dims)
    }

    /// Adds a table made elsewhere (a browser's worker reads it from IndexedDB): it is used as if solved here, and
    /// a failure or a job of its board is forgotten. A table of a board already loaded is ignored (`false`).
    pub fn add_ready(&self, table: Table) -> bool {
        let mut r = self.registry();
        r.poll();
        let dims = table.dims();
        if r.find(dims).is_some() {
            return false;
        }
        r.failed.retain(|(d, _)| *d != dims);
        r.fetching.retain(|d| *d != dims);
        r.wanted.retain(|d| *d != dims);
        r.solving.retain(|d| *d != dims);
        if r.pending.as_ref().is_some_and(|p| p.dims == dims) {
            r.pending = None;
        }
        r.ready.push((dims, Arc::new(table)));
        true
    }

    /// Every table loaded, in the order they came (what a browser's worker keeps in IndexedDB once solved).
    pub fn loaded(&self) -> Vec<Arc<Table>> {
        let mut r = self.registry();
        r.poll();
        r.ready.iter().map(|(_, t)| Arc::clone(t)).collect()
    }

    /// Starts loading or solving a board's table in the background if it is available and not yet there. Where the
    /// front end thinks elsewhere (a browser's worker), the table is asked of it instead: the page never solves on
    /// its own thread, and a table the worker already holds (kept, or solved for a hint) is not solved again.
    pub fn prepare(&self, dims: Dims) {
        let mut r = self.registry();
        r.poll();
        if r.find(dims).is_some()
            || r.pending.is_some()
            || r.fetching.contains(&dims)
            || r.solving.contains(&dims)
            || r.failed.iter().any(|(d, _)| *d == dims)
        {
            return;
        }
        if r.elsewhere && solves_on_first_use(dims) {
            r.wanted.push(dims);
            r.solving.push(dims);
            return;
        }
        if r.dir.is_none()
            && solves_on_first_use(dims)
            && crate::mid::elsewhere::fetch(&kept_key(dims))
        {
            r.fetching.push(dims);
            return;
        }
        let on_disk = r.file(dims).is_some_and(|p| p.exists());
        if on_disk || solves_on_first_use(dims) {
            r.start(dims);
        }
    }

    /// The board's table, waiting for it to be loaded or solved (on a background job; `stop` gives up waiting).
    pub fn get(&self, dims: Dims, stop: &AtomicBool) -> Result<Arc<Table>, String> {
        loop {
            {
                let mut r = self.registry();
                r.poll();
                if let Some(t) = r.find(dims) {
                    return Ok(t);
                }
                if let Some((_, e)) = r.failed.iter().find(|(d, _)| *d == dims) {
                    return Err(e.clone());
                }
            }
            self.available(dims)?;
            self.prepare(dims);
            if self.solving_elsewhere(dims) {
                // Nothing here can make it come sooner: the caller goes on without it (a search meanwhile).
                return Err(format!(
                    "the {dims} table is being solved in the background"
                ));
            }
            if stop.load(Ordering::Relaxed) {
                return Err("stopped".into());
            }
            crate::host::runner().pause(10);
        }
    }

    /// What is being done for a board's table, for a status line: `solving the 4x4 table: ply 7, 40%`.
    pub fn status(&self, dims: Dims) -> Option<String> {
        let mut r = self.registry();
        r.poll();
        if r.find(dims).is_none()
            && let Some(p) = crate::mid::elsewhere::progress(&kept_key(dims))
        {
            return Some(format!("solving the {dims} table: {p}"));
        }
        if r.solving.contains(&dims) {
            return Some(format!("the {dims} table is waiting to be solved…"));
        }
        if r.fetching.contains(&dims) {
            return Some(format!(
                "the worker is reading or solving the {dims} table (a first solve takes seconds)…"
            ));
        }
        let p = r.pending.as_ref().filter(|p| p.dims == dims)?;
        Some(match *lock(&p.work) {
            Work::Loading => format!("loading the {dims} table…"),
            Work::Solving(None) => format!("solving the {dims} table (first use)…"),
            Work::Solving(Some(pr)) => {
                format!(
                    "solving the {dims} table (first use): {}",
                    progress_text(&pr)
                )
            }
        })
    }

    /// From now on, the small boards' tables are solved by the front end elsewhere (a browser's page hands them to
    /// its builder worker, so that a think stopped by ending the thinking worker does not stop the solve). A table
    /// needed is marked wanted ([`Tables::take_wanted`]) and [`Tables::get`] no longer waits for it (the hints
    /// search meanwhile) until the front end gives it ([`Tables::add_ready`]) or says why it could not
    /// ([`Tables::build_failed`]).
    pub fn solve_elsewhere(&self) {
        self.registry().elsewhere = true;
    }

    /// A board whose table was needed since the last call, for the front end to solve elsewhere (each once).
    pub fn take_wanted(&self) -> Option<Dims> {
        let mut r = self.registry();
        (!r.wanted.is_empty()).then(|| r.wanted.remove(0))
    }

    /// Whether the tables are solved by the front end elsewhere ([`Tables::solve_elsewhere`]; never in the
    /// terminal).
    pub fn solved_elsewhere(&self) -> bool {
        self.registry().elsewhere
    }

    /// Whether a board's table is being solved elsewhere and has not come yet.
    pub fn solving_elsewhere(&self, dims: Dims) -> bool {
        self.registry().solving.contains(&dims)
    }

    /// The front end could not solve a board's table elsewhere (`why`): the perfect level and the values say so.
    pub fn build_failed(&self, dims: Dims, why: &str) {
        let mut r = self.registry();
        r.wanted.retain(|d| *d != dims);
        r.solving.retain(|d| *d != dims);
        r.failed.retain(|(d, _)| *d != dims);
        r.failed.push((dims, why.to_string()));
    }

    /// Why a board's table could not be made (loaded, solved here or elsewhere), if it could not.
    pub fn failure(&self, dims: Dims) -> Option<String> {
        let mut r = self.registry();
        r.poll();
        r.failed
            .iter()
            .find(|(d, _)| *d == dims)
            .map(|(_, why)| why.clone())
    }

    /// What a hint found by a search says while the board's table is being solved elsewhere: that it is, how far
    /// it has got, and that the move is a search's meanwhile; `None` when no table is being solved elsewhere.
    pub fn meanwhile(&self, dims: Dims) -> Option<String> {
        if !self.solving_elsewhere(dims) {
            return None;
        }
        let so_far = crate::mid::elsewhere::progress(&kept_key(dims))
            .map(|p| format!(" ({p})"))
            .unwrap_or_default();
        Some(format!(
            "the {dims} table is being solved{so_far}: a search's move meanwhile"
        ))
    }
}

/// How far a solve has got, in words: `ply 7, 40%` (the stage, and the share of its work done).
pub fn progress_text(p: &Progress) -> String {
    let stage = match p.stage {
        Stage::Resume => "resuming".to_string(),
        Stage::Init => "counting moves".to_string(),
        Stage::Round(d) => format!("ply {d}"),
        Stage::Checkpoint => "checkpoint".to_string(),
    };
    let pct = (p.done * 100).checked_div(p.total).unwrap_or(0);
    format!("{stage}, {pct}%")
}

/// Why a table cannot be had, said of the perfect level: with the advice to choose another where it never can be.
fn for_the_level((why, never): (String, bool)) -> String {
    format!(
        "perfect level: {why}{}",
        if never { "; choose another level" } else { "" }
    )
}

#[cfg(test)]
#[cfg(feature = "terminal")]
mod tests {
    use super::*;
    use crate::games::nocca::{Nocca, Params};
    use crate::mid::game::Game;
    use crate::mid::session::{ResumeError, Seed, Session};
    use crate::mid::{AnyGame, Contexts, Entry};
    use crate::storage::{Storage, Store};

    /// A table added from elsewhere is used as if solved here (no solve), once per board, and is listed as loaded.
    #[test]
    fn a_table_added_from_elsewhere_is_used_without_solving() {
        let dims: Dims = "3x3".parse().unwrap();
        let solved = Table::solve(dims, &SolveOptions::default(), &mut |_| {}).unwrap();
        let back = Table::from_bytes(&solved.to_bytes(), dims, "kept").unwrap();
        let tables = Tables::default();
        assert!(tables.ready(dims).is_none());
        assert!(tables.first_use(dims).is_some());
        assert!(tables.add_ready(back));
        assert!(tables.ready(dims).is_some());
        assert!(tables.first_use(dims).is_none());
        assert!(tables.status(dims).is_none());
        assert!(!tables.add_ready(Table::from_bytes(&solved.to_bytes(), dims, "kept").unwrap()));
        let loaded = tables.loaded();
        assert_eq!(loaded.len(), 1);
        assert_eq!(loaded[0].counts(), solved.counts());
        let stop = AtomicBool::new(false);
        assert_eq!(tables.get(dims, &stop).unwrap().counts(), solved.counts());
    }

    /// Solved elsewhere (a browser's builder worker): a table needed is wanted once and never waited for or solved
    /// here; meanwhile the status and a hint say it is being solved (with its progress as heard), a hint is a
    /// search's and the perfect level has no move; the table given is used from then on; a failure is said.
    #[test]
    fn a_table_solved_elsewhere_is_wanted_once_never_waited_for_and_used_once_given() {
        let dims: Dims = "4x3".parse().unwrap();
        let key = kept_key(dims);
        let tables = Tables::default();
        assert!(!tables.solved_elsewhere(), "the terminal solves here");
        tables.solve_elsewhere();
        assert!(tables.solved_elsewhere());
        let stop = AtomicBool::new(false);
        let why = tables.get(dims, &stop).unwrap_err();
        assert!(why.contains("being solved in the background"), "{why}");
        assert!(tables.registry().pending.is_none(), "nothing solved here");
        assert!(tables.solving_elsewhere(dims));
        assert_eq!(tables.take_wanted(), Some(dims));
        tables.prepare(dims);
        assert!(tables.get(dims, &stop).is_err());
        assert_eq!(tables.take_wanted(), None, "wanted once");
        let status = tables.status(dims).unwrap();
        assert!(status.contains("waiting to be solved"), "{status}");
        assert_eq!(
            tables.meanwhile(dims).as_deref(),
            Some("the 4x3 table is being solved: a search's move meanwhile")
        );
        crate::mid::elsewhere::set_progress(&key, "ply 9, 50%");
        assert_eq!(
            tables.status(dims).as_deref(),
            Some("solving the 4x3 table: ply 9, 50%")
        );
        assert!(tables.meanwhile(dims).unwrap().contains("(ply 9, 50%)"));
        crate::mid::elsewhere::set_progress(&key, "");

        // Meanwhile a hint is a search's move, and the perfect level has none (the front end holds its request).
        let params = Params {
            level: nocca::Opponent::Perfect,
            board: dims,
            ..Params::default()
        };
        let state = Nocca::new_game(&params, 5).unwrap();
        let mut t = Nocca::thinker(&params, &tables);
        let hint = Nocca::think(&mut t, &state, crate::mid::game::Purpose::Hint, &stop);
        assert!(hint.is_some(), "a search's hint");
        let said = Nocca::describe_hint(&tables, &state, &hint.unwrap());
        assert!(said.contains("a search's move meanwhile"), "{said}");
        assert_eq!(
            Nocca::think(&mut t, &state, crate::mid::game::Purpose::Opponent, &stop),
            None
        );

        let solved = Table::solve(dims, &SolveOptions::default(), &mut |_| {}).unwrap();
        assert!(tables.add_ready(Table::from_bytes(&solved.to_bytes(), dims, "given").unwrap()));
        assert!(!tables.solving_elsewhere(dims));
        assert!(tables.status(dims).is_none());
        assert!(tables.meanwhile(dims).is_none());
        assert_eq!(tables.get(dims, &stop).unwrap().counts(), solved.counts());
        let perfect = Nocca::think(&mut t, &state, crate::mid::game::Purpose::Opponent, &stop);
        let best = solved.best_moves(state.position()).unwrap();
        assert!(
            best.contains(&perfect.unwrap()),
            "{perfect:?} not in {best:?}"
        );
        let said = Nocca::describe_hint(&tables, &state, &perfect.unwrap());
        assert!(said.contains("(exact)"), "{said}");

        // A failure elsewhere is said, and the table is not asked for again.
        let three: Dims = "3x3".parse().unwrap();
        tables.prepare(three);
        tables.build_failed(three, "the builder failed");
        assert_eq!(tables.take_wanted(), None);
        assert_eq!(
            tables.get(three, &stop).unwrap_err(),
            "the builder failed".to_string()
        );
        assert!(!tables.solving_elsewhere(three));
        assert!(tables.meanwhile(three).is_none());
    }

    /// A table asked of the worker is taken when its bytes come (checked), and a damaged one is a failure that says
    /// why; meanwhile the status says the worker has it in hand.
    #[test]
    fn a_table_fetched_from_elsewhere_is_taken_when_it_comes_and_checked() {
        let dims: Dims = "3x3".parse().unwrap();
        let solved = Table::solve(dims, &SolveOptions::default(), &mut |_| {}).unwrap();
        let tables = Tables::default();
        tables.registry().fetching.push(dims);
        assert!(tables.ready(dims).is_none());
        let status = tables.status(dims).unwrap();
        assert!(
            status.contains("worker") && status.contains("3x3"),
            "{status}"
        );
        // (No place elsewhere is installed in this test: a second prepare neither asks again nor solves here.)
        tables.prepare(dims);
        assert!(tables.registry().pending.is_none());
        crate::mid::elsewhere::give(&kept_key(dims), Ok(solved.to_bytes()));
        let got = tables.ready(dims).expect("taken when it came");
        assert_eq!(got.counts(), solved.counts());
        assert!(tables.status(dims).is_none());

        let four: Dims = "3x4".parse().unwrap();
        tables.registry().fetching.push(four);
        let mut bad = solved.to_bytes();
        bad[60] ^= 1;
        crate::mid::elsewhere::give(&kept_key(four), Ok(bad));
        assert!(tables.ready(four).is_none());
        let why = tables.registry().failed[0].1.clone();
        assert!(why.contains("worker's nocca-3x4.table"), "{why}");
    }

    /// Each run's tables are its own (no process-wide registry): a table in one data directory is seen by the
    /// tables of that directory only. A perfect game starts only where its table can be had, and a saved one whose
    /// table has gone since is not taken up (damaged: it is set aside) and its Continue line says why.
    #[test]
    fn the_tables_are_the_runs_and_a_perfect_game_needs_its_table() {
        let dir = tempfile::tempdir().unwrap();
        let dims: Dims = "4x5".parse().unwrap();
        let tables = Tables::new(Some(dir.path()));
        let elsewhere = Tables::default();
        assert!(tables.available(dims).is_err());
        std::fs::create_dir_all(table_dir(dir.path())).unwrap();
        let file = Table::path_in(&table_dir(dir.path()), dims);
        std::fs::File::create(&file)
            .unwrap()
            .set_len(Table::file_len(dims))
            .unwrap();
        assert_eq!(tables.available(dims), Ok(()));
        assert!(elsewhere.available(dims).is_err());
        assert!(tables.clone().available(dims).is_ok());

        let params = Params {
            level: nocca::Opponent::Perfect,
            board: dims,
            ..Params::default()
        };
        assert!(Nocca::check(&params).is_ok());
        assert!(Nocca::check_in(&params, &elsewhere).is_err());
        let mut store = Store::in_memory().unwrap();
        assert!(
            Session::<Nocca>::new_in(params, Seed::from_option(Some(1)), &store, elsewhere)
                .is_err()
        );
        let mut s =
            Session::<Nocca>::new_in(params, Seed::from_option(Some(1)), &store, tables.clone())
                .unwrap();
        s.play("b1k".parse().unwrap(), &mut store).unwrap();
        drop(s);
        let saved = store.unfinished(Some("nocca")).unwrap();
        let entry = Entry::<Nocca>::new();
        let contexts = Contexts::new(&[&entry], Some(dir.path()));
        assert_eq!(
            entry.progress(&saved[0], &contexts),
            Ok("ply 1 · White to move".to_string())
        );
        drop(Session::<Nocca>::resume_in(&saved[0], &store, tables.clone()).unwrap());

        std::fs::remove_file(&file).unwrap();
        let why = entry
            .progress(&saved[0], &contexts)
            .unwrap_err()
            .to_string();
        assert!(why.contains("no 4x5 table"), "{why}");
        match Session::<Nocca>::resume_in(&saved[0], &store, tables) {
            Err(ResumeError::Damaged(why)) => assert!(why.contains("no 4x5 table"), "{why}"),
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("taken up without its table"),
        }
    }
}
