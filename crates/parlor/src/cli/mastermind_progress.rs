//! `parlor mastermind solve`: building the strategy tree with a progress bar on a terminal and a clean stop
//! on Ctrl-C (the engine polls a flag; a second Ctrl-C ends the process at once).

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use anyhow::{Result, anyhow};
use mastermind::{SolveError, SolveReport, Strategy, StrategyTree, Variant};

/// Builds `strategy`'s tree for `variant`, replays every secret against it and returns the figures.
///
/// On a terminal, stderr shows a bar of the engine's progress (secrets settled, elapsed time, estimate);
/// Ctrl-C stops the search and returns an error saying so, with nothing written anywhere.
pub fn solve_with_progress(variant: &Variant, strategy: Strategy) -> Result<SolveReport> {
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
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(variant.secret_count());
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {msg} {bar:40} {percent:>3}% · {elapsed_precise} · eta {eta} (Ctrl-C stops)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b.set_message(format!("{strategy} on {variant}"));
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        b
    });
    let mut progress = |done: u64, total: u64| {
        if let Some(b) = &bar {
            b.set_length(total.max(1));
            b.set_position(done.min(total));
        }
    };
    let built = StrategyTree::build_cancellable(variant, strategy, &stop, &mut progress);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    for id in hooks.into_iter().flatten() {
        signal_hook::low_level::unregister(id);
    }
    match built.and_then(|t| t.verify()) {
        Ok(r) => Ok(r),
        Err(SolveError::Cancelled) => Err(anyhow!(
            "stopped by Ctrl-C before the {strategy} tree was complete"
        )),
        Err(e) => Err(anyhow!("{e}")),
    }
}
