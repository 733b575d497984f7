//! Strategy trees built in the background and kept: a tree the breaker does not build at once (the optimal tree of
//! Bulls and Cows, about a minute or two of CPU; the entropy tree of Super Mastermind, about 16 s) is built once, on a
//! background thread, the first time the computer needs it (a hint, or its guess as the codemaker's opponent),
//! verified by replaying every secret, and written atomically to the data directory's `trees/VARIANT-STRATEGY.pmt`;
//! every later Parlor reads it in milliseconds, and every guess is then a lookup. Until it is ready the computer
//! works the guess out on the spot: a heuristic plays the same strategy (only slower), while optimal plays a heuristic
//! meanwhile and the hint says how far the build has got. A build stopped midway (Parlor quits) writes nothing, and a
//! damaged file is built again.
//!
//! Trees estimated over [`BUILD_LIMIT_SECONDS`] of CPU are never built here, and nothing is built without a data
//! directory (tests that play in memory): the computer works every guess out on the spot there.
//!
//! What is being built, and where trees are kept, is held by a [`Trees`] (the game's context, made once at the
//! program's top from the data directory and shared by every session, thinker and screen of the game): there is
//! no process-wide registry.

use super::work::{Work, spoken};
use mastermind::{
    Strategy, StrategyTree, Variant, builds_tree_at_once, estimated_solve_seconds, known_tree,
    remember_tree,
};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// The longest optimal build (estimated CPU seconds) started in the background: 10 minutes.
pub const BUILD_LIMIT_SECONDS: f64 = 600.0;

/// Where a strategy tree stands in this process.
#[derive(Clone, Debug, PartialEq)]
pub enum TreeState {
    /// Not needed: the breaker builds this tree itself at once.
    NotNeeded,
    /// Ready: guesses are lookups.
    Ready,
    /// Being built (or read); how far it has got.
    Building(BuildProgress),
    /// Too large to build here (estimated over [`BUILD_LIMIT_SECONDS`]).
    TooLarge,
    /// Not built: there is no data directory to keep it in.
    Nowhere,
    /// The build failed; why.
    Failed(String),
}

struct Build {
    variant: Variant,
    strategy: Strategy,
    work: Arc<Mutex<Work>>,
}

/// How far a background build has got, measured ([`super::work`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BuildProgress {
    /// The share of the estimated CPU time spent (0 to 0.99); `None` past the estimate.
    pub share: Option<f64>,
    /// The wall time left, at the recent CPU rate; `None` until there is a rate, or past the estimate.
    pub left: Option<std::time::Duration>,
    /// The CPU seconds such a build is estimated to take.
    pub estimate: f64,
}

impl BuildProgress {
    fn of(work: &Mutex<Work>) -> BuildProgress {
        let w = work.lock().unwrap_or_else(|e| e.into_inner());
        BuildProgress {
            share: w.share(),
            left: w.left(),
            estimate: w.estimate,
        }
    }
}

#[derive(Default)]
struct Registry {
    /// `DATA/trees`, once the data directory is known.
    dir: Option<PathBuf>,
    building: Vec<Build>,
    failed: Vec<((Variant, Strategy), String)>,
    /// Trees whose kept file [`warm`] has started reading.
    warming: Vec<(Variant, Strategy)>,
    /// Whether trees are built and kept by the front end elsewhere ([`Trees::build_elsewhere`]).
    elsewhere: bool,
    /// Trees needed and not yet handed to the front end to build ([`Trees::take_wanted`]).
    wanted: Vec<(Variant, Strategy)>,
}

/// The trees of one program run: where they are kept (`DATA/trees`), which are being built or read, and which
/// failed. Cloning shares them (the clones see the same builds); the default has no data directory, so it builds
/// nothing.
#[derive(Clone, Default)]
pub struct Trees(Arc<Mutex<Registry>>);

impl std::fmt::Debug for Trees {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Trees").field(&self.registry().dir).finish()
    }
}

/// The file that keeps the tree of `strategy` for `variant` in `dir`.
pub fn tree_file(dir: &Path, variant: &Variant, strategy: Strategy) -> PathBuf {
    dir.join(tree_key(variant, strategy))
}

/// The name the tree of `strategy` for `variant` is kept under: its file's name, `bulls-cows-optimal.pmt` (also
/// its key in a browser's IndexedDB).
pub fn tree_key(variant: &Variant, strategy: Strategy) -> String {
    format!("{variant}-{strategy}.pmt")
}

/// The variant and strategy a key of [`tree_key`] names, if it is one.
pub fn key_tree(key: &str) -> Option<(Variant, Strategy)> {
    let stem = key.strip_suffix(".pmt")?;
    Strategy::ALL.into_iter().find_map(|s| {
        let variant = stem
            .strip_suffix(&format!("-{s}"))?
            .parse::<Variant>()
            .ok()?;
        (tree_key(&variant, s) == key).then_some((variant, s))
    })
}

impl Trees {
    /// Trees read from and written to `data_dir/trees` (`None`: no data directory, no tree is built).
    pub fn new(data_dir: Option<&Path>) -> Trees {
        Trees(Arc::new(Mutex::new(Registry {
            dir: data_dir.map(|d| d.join("trees")),
            building: Vec::new(),
            failed: Vec::new(),
            warming: Vec::new(),
            elsewhere: false,
            wanted: Vec::new(),
        })))
    }

    /// From now on, trees are built and kept by the front end elsewhere (a browser's worker: another worker builds the tree and the
    /// page keeps its bytes in IndexedDB). A tree needed is marked wanted ([`Trees::take_wanted`]) and said to be
    /// built meanwhile (a heuristic plays), until the front end gives it ([`Trees::add_built`]) or says why it
    /// could not ([`Trees::build_failed`]). Nothing is read from or written to a directory.
    pub fn build_elsewhere(&self) {
        self.registry().elsewhere = true;
    }

    /// A tree needed since the last call, for the front end to build elsewhere (each once).
    pub fn take_wanted(&self) -> Option<(Variant, Strategy)> {
        let mut r = self.registry();
        (!r.wanted.is_empty()).then(|| r.wanted.remove(0))
    }

    /// A tree built or kept elsewhere, already checked ([`StrategyTree::from_bytes`] replays every secret): every
    /// breaker of its variant and strategy plays from it from now on, and a build of it is no longer waited for.
    pub fn add_built(&self, tree: StrategyTree) {
        let key = (*tree.variant(), tree.strategy());
        remember_tree(Arc::new(tree));
        let mut r = self.registry();
        r.building.retain(|b| (b.variant, b.strategy) != key);
        r.failed.retain(|(k, _)| *k != key);
        r.wanted.retain(|k| *k != key);
    }

    /// The front end could not build the tree of `strategy` for `variant` elsewhere: the hints say why.
    pub fn build_failed(&self, variant: &Variant, strategy: Strategy, why: &str) {
        let key = (*variant, strategy);
        let mut r = self.registry();
        r.building.retain(|b| (b.variant, b.strategy) != key);
        r.wanted.retain(|k| *k != key);
        r.failed.push((key, why.to_string()));
    }

    fn registry(&self) -> MutexGuard<'_, Registry> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Where the tree of `strategy` for `variant` stands, starting its build in the background when it is needed and
    /// not yet started. Cheap when the tree is ready (one lookup).
    pub fn ensure(&self, variant: &Variant, strategy: Strategy) -> TreeState {
        if builds_tree_at_once(variant, strategy) {
            return TreeState::NotNeeded;
        }
        if known_tree(variant, strategy).is_some() {
            return TreeState::Ready;
        }
        let key = (*variant, strategy);
        let mut r = self.registry();
        if let Some(b) = r.building.iter().find(|b| (b.variant, b.strategy) == key) {
            return TreeState::Building(BuildProgress::of(&b.work));
        }
        if let Some((_, why)) = r.failed.iter().find(|(k, _)| *k == key) {
            return TreeState::Failed(why.clone());
        }
        if estimated_solve_seconds(variant, strategy) > BUILD_LIMIT_SECONDS {
            return TreeState::TooLarge;
        }
        if r.elsewhere {
            let work = Arc::new(Mutex::new(Work::start(estimated_solve_seconds(
                variant, strategy,
            ))));
            let first = BuildProgress::of(&work);
            r.building.push(Build {
                variant: *variant,
                strategy,
                work,
            });
            r.wanted.push(key);
            return TreeState::Building(first);
        }
        let Some(file) = r.dir.as_ref().map(|d| tree_file(d, variant, strategy)) else {
            return TreeState::Nowhere;
        };
        // A tree kept by an earlier run is read at once (milliseconds, every secret replayed); a damaged or foreign
        // file is built again in the background.
        if let Some(tree) = read_kept(&file, variant, strategy) {
            remember_tree(Arc::new(tree));
            return TreeState::Ready;
        }
        let work = Arc::new(Mutex::new(Work::start(estimated_solve_seconds(
            variant, strategy,
        ))));
        r.building.push(Build {
            variant: *variant,
            strategy,
            work: Arc::clone(&work),
        });
        let first = BuildProgress::of(&work);
        let v = *variant;
        let shared = self.clone();
        // Released first: where work runs at once (no threads), the build itself takes the registry.
        drop(r);
        crate::host::runner().run(Box::new(move || {
            let built = make(&v, strategy, &file, &work);
            // Known before it stops being built, so that no call in between starts a second build.
            let failed = match built {
                Ok(tree) => {
                    remember_tree(Arc::new(tree));
                    None
                }
                Err(why) => Some(why),
            };
            let mut r = shared.registry();
            if let Some(why) = failed {
                r.failed.push(((v, strategy), why));
            }
            r.building
                .retain(|b| (b.variant, b.strategy) != (v, strategy));
        }));
        TreeState::Building(first)
    }

    /// Starts reading the kept tree of `strategy` for `variant` on a background thread (once per process), so that the
    /// first hint finds it ready (reading and checking Super Mastermind's takes about 20 ms); never starts a build, so
    /// that merely opening a game (or replaying one) costs nothing more.
    pub fn warm(&self, variant: &Variant, strategy: Strategy) {
        if builds_tree_at_once(variant, strategy) || known_tree(variant, strategy).is_some() {
            return;
        }
        let key = (*variant, strategy);
        let file = {
            let mut r = self.registry();
            let Some(dir) = r.dir.as_ref() else { return };
            let file = tree_file(dir, variant, strategy);
            if r.warming.contains(&key) || !file.exists() {
                return;
            }
            r.warming.push(key);
            file
        };
        let v = *variant;
        crate::host::runner().run(Box::new(move || {
            if let Some(tree) = read_kept(&file, &v, strategy) {
                remember_tree(Arc::new(tree));
            }
        }));
    }

    /// How far the tree of `variant` and `strategy` has got if it is being built now, without starting a build (the
    /// screens show it while it goes on).
    pub fn building(&self, variant: &Variant, strategy: Strategy) -> Option<BuildProgress> {
        let key = (*variant, strategy);
        self.registry()
            .building
            .iter()
            .find(|b| (b.variant, b.strategy) == key)
            .map(|b| BuildProgress::of(&b.work))
    }
}

/// The tree kept in `file` if it is whole (checksum, every secret replayed) and is `strategy`'s for `variant`.
fn read_kept(file: &Path, variant: &Variant, strategy: Strategy) -> Option<StrategyTree> {
    StrategyTree::load(file)
        .ok()
        .filter(|t| t.variant() == variant && t.strategy() == strategy)
}

/// Builds, verifies and writes the tree to `file` (reading it instead if another Parlor wrote it meanwhile).
fn make(
    variant: &Variant,
    strategy: Strategy,
    file: &Path,
    work: &Mutex<Work>,
) -> Result<StrategyTree, String> {
    let never = AtomicBool::new(false);
    // The engine calls this every 100 ms or so: a sample of the CPU time spent, for the share and the time left.
    let mut progress = |_: u64, _: u64| {
        work.lock().unwrap_or_else(|e| e.into_inner()).sample();
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    StrategyTree::load_or_build(variant, strategy, file, &never, &mut progress)
        .map(|(tree, _)| tree)
        .map_err(|e| e.to_string())
}

/// How far a build has got, in words: `about 40% of its estimated CPU time, about 1 min 5 s left`.
pub fn building_text(p: &BuildProgress) -> String {
    match (p.share, p.left) {
        (Some(s), Some(left)) => format!(
            "about {:.0}% of its estimated CPU time, about {} left",
            100.0 * s,
            spoken(left)
        ),
        (Some(s), None) => format!(
            "about {:.0}% of its estimated CPU time; estimating the time left",
            100.0 * s
        ),
        (None, _) => format!(
            "taking longer than the estimated {} of CPU time",
            spoken(std::time::Duration::from_secs_f64(p.estimate))
        ),
    }
}

/// What a hint of `strategy` adds about its tree: only optimal's hint differs (a heuristic plays the same guesses
/// with or without its tree): a heuristic's guess until its tree is ready, then that it comes from the tree (on
/// the variants whose optimal tree is built in the background and kept; the small ones build it at once and say
/// nothing).
pub fn hint_note(strategy: Strategy, state: &TreeState) -> Option<String> {
    if strategy != Strategy::Optimal {
        return None;
    }
    match state {
        TreeState::Building(p) => Some(format!(
            "optimal tree being built ({}): a heuristic guess meanwhile",
            building_text(p)
        )),
        TreeState::TooLarge => Some("optimal is too slow here: a heuristic guess".into()),
        TreeState::Nowhere => {
            Some("no data directory to keep an optimal tree: a heuristic guess".into())
        }
        TreeState::Failed(why) => Some(format!("no optimal tree ({why}): a heuristic guess")),
        // A tree built in the background (not one every breaker builds at once): the hint says it is the tree's.
        TreeState::Ready => Some("from the optimal tree".into()),
        TreeState::NotNeeded => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tree_key_names_its_variant_and_strategy_and_nothing_else() {
        let bulls: Variant = "bulls-cows".parse().unwrap();
        for (variant, strategy) in [
            (bulls, Strategy::Optimal),
            (Variant::SEED, Strategy::MostParts),
            ("custom-8-4-10-nn".parse().unwrap(), Strategy::ExpectedSize),
        ] {
            let key = tree_key(&variant, strategy);
            assert_eq!(key_tree(&key), Some((variant, strategy)), "{key}");
        }
        assert_eq!(
            tree_key(&bulls, Strategy::Optimal),
            "bulls-cows-optimal.pmt"
        );
        for not in [
            "bulls-cows-optimal",
            "bulls-cows-fastest.pmt",
            "cows-optimal.pmt",
            "nocca-4x4.table",
        ] {
            assert_eq!(key_tree(not), None, "{not}");
        }
    }

    /// Built elsewhere: the first need marks the tree wanted (once) and the hint is a heuristic's meanwhile; the tree
    /// given back makes the hints the tree's, and a failure is said.
    #[test]
    fn a_tree_built_elsewhere_is_wanted_once_then_used_when_given() {
        // A variant of its own in this process (trees given are remembered process-wide).
        let v: Variant = "custom-7-4-9-nn".parse().unwrap();
        let trees = Trees::default();
        trees.build_elsewhere();
        assert_eq!(trees.take_wanted(), None);
        let state = trees.ensure(&v, Strategy::Optimal);
        assert!(matches!(state, TreeState::Building(_)), "{state:?}");
        let note = hint_note(Strategy::Optimal, &state).unwrap();
        assert!(note.contains("a heuristic guess meanwhile"), "{note}");
        assert!(matches!(
            trees.clone().ensure(&v, Strategy::Optimal),
            TreeState::Building(_)
        ));
        assert_eq!(trees.take_wanted(), Some((v, Strategy::Optimal)));
        assert_eq!(trees.take_wanted(), None, "wanted once");
        assert!(trees.building(&v, Strategy::Optimal).is_some());

        let built = StrategyTree::build(&v, Strategy::Optimal).unwrap();
        let back = StrategyTree::from_bytes(&built.to_bytes()).unwrap();
        trees.add_built(back);
        assert_eq!(trees.ensure(&v, Strategy::Optimal), TreeState::Ready);
        assert!(trees.building(&v, Strategy::Optimal).is_none());
        assert_eq!(
            hint_note(Strategy::Optimal, &TreeState::Ready).as_deref(),
            Some("from the optimal tree")
        );
        assert_eq!(hint_note(Strategy::Entropy, &TreeState::Ready), None);

        let other: Variant = "custom-7-4-8-nn".parse().unwrap();
        let trees = Trees::default();
        trees.build_elsewhere();
        trees.ensure(&other, Strategy::Optimal);
        trees.build_failed(&other, Strategy::Optimal, "out of memory");
        assert_eq!(trees.take_wanted(), None);
        assert_eq!(
            trees.ensure(&other, Strategy::Optimal),
            TreeState::Failed("out of memory".into())
        );
    }
}
