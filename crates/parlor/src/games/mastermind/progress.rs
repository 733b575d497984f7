//! `parlor mastermind solve`: the strategy tree a game keeps in the data directory when there is one, else built with
//! a progress bar on a terminal (measured by CPU time against the estimate, [`crate::games::mastermind::work`]) and
//! a clean stop on Ctrl-C (the engine polls a flag; a second Ctrl-C ends the process at once). A tree built here
//! is kept there too, so games use it.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::games::mastermind::trees::{BuildProgress, tree_file};
use crate::games::mastermind::work::{Work, spoken};
use anyhow::{Result, anyhow};
use mastermind::{SolveError, SolveReport, Strategy, StrategyTree, Variant};

/// Where the tree that was solved came from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Read from this file, kept by a game or an earlier solve.
    Kept(PathBuf),
    /// Built now; kept in this file for games and later solves, or why not.
    Built(Result<PathBuf, String>),
}

/// The tree of `strategy` for `variant`: read from `trees` (the data directory's `trees/`) when a game or an earlier
/// solve kept it there, else built (and kept there). Every secret is replayed against it for the figures.
///
/// On a terminal, stderr shows a bar while building; Ctrl-C stops the build and returns an error saying so, with
/// nothing written anywhere.
pub fn solve_with_progress(
    variant: &Variant,
    strategy: Strategy,
    trees: Option<&Path>,
) -> Result<(SolveReport, Source)> {
    // Only the trees a game keeps: the small ones are built at once, everywhere.
    let file = trees
        .filter(|_| !mastermind::builds_tree_at_once(variant, strategy))
        .map(|d| tree_file(d, variant, strategy));
    if let Some(f) = &file
        && let Ok(tree) = StrategyTree::load(f)
        && tree.variant() == variant
        && tree.strategy() == strategy
        && let Ok(report) = tree.verify()
    {
        return Ok((report, Source::Kept(f.clone())));
    }
    let tree = build(variant, strategy)?;
    let report = tree.verify().map_err(|e| anyhow!("{e}"))?;
    let kept = match &file {
        None => Err("not kept".to_string()),
        Some(f) => f
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| e.to_string())
            .and_then(|()| tree.save(f).map_err(|e| e.to_string()))
            .map(|()| f.clone()),
    };
    Ok((report, Source::Built(kept)))
}

/// The bar's words, short enough for an 80-column line: `40% of the estimate · 1 min 5 s left`.
fn short_text(p: &BuildProgress) -> String {
    match (p.share, p.left) {
        (Some(s), Some(left)) => {
            format!("{:.0}% of the estimate · {} left", 100.0 * s, spoken(left))
        }
        (Some(s), None) => format!("{:.0}% of the estimate · estimating", 100.0 * s),
        (None, _) => format!(
            "past the estimated {} of CPU",
            spoken(std::time::Duration::from_secs_f64(p.estimate))
        ),
    }
}

/// Builds the tree, with the bar and the Ctrl-C stop.
fn build(variant: &Variant, strategy: Strategy) -> Result<StrategyTree> {
    let stop = Arc::new(AtomicBool::new(false));
    let hooks = [
        // A second Ctrl-C (the flag already set) exits at once; the first only sets the flag.
        signal_hook::flag::register_conditional_shutdown(
            signal_hook::consts::SIGINT,
            130,
            Arc::clone(&stop),
        ),
        signal_hook::flag::register(signal_hook::consts::SIGINT, Arc::clone(&stop)),
    ];
    let mut work = Work::start(mastermind::estimated_solve_seconds(variant, strategy));
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(1000);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {msg} {wide_bar} {prefix} · {elapsed_precise} · Ctrl-C stops",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(format!("{strategy} on {variant}"));
        b.set_prefix("estimating");
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        b
    });
    let mut progress = |_: u64, _: u64| {
        work.sample();
        if let Some(b) = &bar {
            let p = BuildProgress {
                share: work.share(),
                left: work.left(),
                estimate: work.estimate,
            };
            b.set_position((p.share.unwrap_or(0.99) * 1000.0) as u64);
            b.set_prefix(short_text(&p));
        }
    };
    let built = StrategyTree::build_cancellable(variant, strategy, &stop, &mut progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    for id in hooks.into_iter().flatten() {
        signal_hook::low_level::unregister(id);
    }
    match built {
        Ok(t) => Ok(t),
        Err(SolveError::Cancelled) => Err(anyhow!(
            "stopped by Ctrl-C before the {strategy} tree was complete"
        )),
        Err(e) => Err(anyhow!("{e}")),
    }
}
