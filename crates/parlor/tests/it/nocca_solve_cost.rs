//! What a Nocca solve costs is said before it starts, a solve this machine cannot hold is refused, progress is
//! shown, and a long perft shows its progress and stops on Ctrl-C (issue 25, item 5).

use crate::common::{err, out, parlor, run};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// This machine's memory in GB (Linux), if known.
fn memory_gb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    Some(line.split_whitespace().nth(1)?.parse::<u64>().ok()? / 1_000_000)
}

#[test]
fn a_solve_states_its_cost_first_shows_progress_then_loads_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["nocca", "solve", "3x3", "--json"], "");
    assert!(o.status.success(), "{}", err(&o));
    let e = err(&o);
    let first = e.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("parlor: solving 3x3: about ")
            && first.contains("of memory")
            && first.contains("of disk")
            && first.contains("of CPU"),
        "{e}"
    );
    assert!(
        e.contains("parlor: 3x3 ply 1 ("),
        "progress, one line a stage: {e}"
    );
    serde_json::from_str::<serde_json::Value>(&out(&o)).expect("stdout stays JSON");
    let o = run(dir.path(), &["nocca", "solve", "3x3"], "");
    assert!(
        err(&o).starts_with("parlor: loading the 3x3 table ("),
        "{}",
        err(&o)
    );
}

#[test]
fn a_solve_this_machine_cannot_hold_is_refused_at_once_with_its_cost() {
    // 5x5 needs about 15 GB of memory, 6x5 about 75 GB: refused where that is more than half the machine's memory.
    let Some(gb) = memory_gb() else {
        eprintln!("no /proc/meminfo: the refusal is checked by the estimate's unit tests only");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (board, need) in [("5x5", 30), ("6x5", 150)] {
        if gb >= need {
            eprintln!("{gb} GB of memory: {board} fits here, not checked");
            continue;
        }
        let started = Instant::now();
        let o = run(dir.path(), &["nocca", "solve", board], "");
        assert!(!o.status.success());
        let e = err(&o);
        assert!(
            e.contains(&format!("parlor: solving {board}: about ")),
            "{e}"
        );
        assert!(
            e.contains(&format!("{board} is not solved here: it needs about"))
                && e.contains("more than half of this machine's"),
            "{e}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "refused at once"
        );
        assert!(
            !dir.path()
                .join("tables")
                .join(format!("nocca-{board}.checkpoint"))
                .exists()
        );
    }
    // The perfect level on 6x5 does not send the player to that refused solve.
    if gb < 150 {
        let o = run(dir.path(), &["nocca", "--level", "perfect"], "q\n");
        let e = err(&o);
        assert!(
            e.contains("this machine cannot solve 6x5")
                && !e.contains("run `parlor nocca solve 6x5`"),
            "{e}"
        );
    }
}

#[test]
fn a_long_perft_shows_its_progress_and_gives_the_same_count() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["nocca", "perft", "7", "--board", "3x3", "--json"],
        "",
    );
    assert!(o.status.success(), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("parlor: perft 7: 1 of "), "{e}");
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    // The count without progress (depth 6 shows none) agrees with the sum of depth 6 split by first move.
    let o6 = run(
        dir.path(),
        &[
            "nocca", "perft", "6", "--board", "3x3", "--divide", "--json",
        ],
        "",
    );
    assert!(err(&o6).is_empty(), "{}", err(&o6));
    let v6: serde_json::Value = serde_json::from_str(&out(&o6)).unwrap();
    let sum: u64 = v6["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, v6["nodes"].as_u64().unwrap());
    assert!(v["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn ctrl_c_stops_a_long_perft_and_says_how_far_it_got() {
    let dir = tempfile::tempdir().unwrap();
    // Depth 12 of the standard board would take days.
    let child = parlor(dir.path(), &["nocca", "perft", "12"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let sent = Instant::now();
    // SAFETY: kill has no memory effects.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let o = child.wait_with_output().unwrap();
    assert!(sent.elapsed() < Duration::from_secs(10), "stopped promptly");
    assert!(!o.status.success());
    let e = err(&o);
    assert!(
        e.contains("perft 12 stopped after") && e.contains("sequences counted so far"),
        "{e}"
    );
}
