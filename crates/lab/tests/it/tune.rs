//! Weight tuning end to end.

use parlor_lab::tune::{TuneConfig, tune};

#[test]
fn tuning_runs_end_to_end() {
    let cfg = TuneConfig {
        iterations: 2,
        games: 1,
        depth: 1,
        max_moves: Some(50),
        ..TuneConfig::default()
    };
    let mut steps = 0;
    let result = tune(&cfg, |_| steps += 1);
    assert_eq!(steps, 3);
    assert_eq!(result.history.len(), 3);
    assert!(result.fitness > 0.0);
    assert!(result.history.iter().all(|s| s.best <= result.fitness));
}
