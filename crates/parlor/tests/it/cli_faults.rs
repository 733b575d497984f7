//! Issue 50, the command line's part: figures that are true (intervals, plurals, counts of codes), one notation per
//! game, and the faults a new user met (a FIFO for settings.toml, a closed pipe, a damaged finished game replayed,
//! global options mixed into a command's own, man pages' synopses without values), each driven through the binary.

use crate::common::{err, out, parlor, run};
use std::io::Read;
use std::path::Path;
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

/// Runs `parlor ARGS` with `input`, killed after `limit` (a hang is a failure, not a test that never ends).
fn run_within(dir: &Path, args: &[&str], input: &str, limit: Duration) -> Output {
    let mut child = parlor(dir, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn parlor");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = stdin.write_all(input.as_bytes());
    }
    let start = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let o = child.wait_with_output().expect("output");
            panic!(
                "parlor {args:?} still running after {limit:?}: {}{}",
                out(&o),
                err(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Makes a FIFO at `path` (the system's `mkfifo`).
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo");
    assert!(made.success());
}

#[test]
fn a_fifo_at_settings_toml_is_refused_with_a_clear_note_and_every_command_goes_on() {
    let data = tempfile::tempdir().unwrap();
    let config = tempfile::tempdir().unwrap();
    let fifo = config.path().join("settings.toml");
    mkfifo(&fifo);
    let config_arg = config.path().to_str().unwrap();
    let o = run_within(
        data.path(),
        &["--config-dir", config_arg, "settings"],
        "",
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        err(&o).contains(
            "cannot be read (it is a FIFO, not a regular file): using the default settings"
        ),
        "{}",
        err(&o)
    );
    // The defaults are printed, as with no file.
    assert!(out(&o).contains("theme"), "{}", out(&o));
    // A game goes on with the defaults.
    let o = run_within(
        data.path(),
        &["--config-dir", config_arg, "2048", "--seed", "3"],
        "a\nq\n",
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).contains("Game saved."), "{}", out(&o));
    assert!(
        out(&o).contains("it is a FIFO"),
        "the note is shown: {}",
        out(&o)
    );
    // A directory in its place is refused the same way.
    let other = tempfile::tempdir().unwrap();
    std::fs::create_dir(other.path().join("settings.toml")).unwrap();
    let o = run_within(
        data.path(),
        &["--config-dir", other.path().to_str().unwrap(), "settings"],
        "",
        Duration::from_secs(30),
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        err(&o).contains("it is a directory, not a regular file"),
        "{}",
        err(&o)
    );
}

/// A reader that stops reading (`| head -3`) ends the command quietly with status 0, for every command that writes
/// to standard output; Parlor's choice: the output that was wanted was read, so the command succeeded.
#[test]
fn a_closed_pipe_ends_every_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["man"][..],
        &["completions", "bash"],
        &["nocca", "perft", "3", "--divide"],
        &[
            "mastermind",
            "solve",
            "--variant",
            "classic",
            "--strategy",
            "knuth",
        ],
        &["history"],
    ] {
        let mut child = parlor(dir.path(), args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn parlor");
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(status.success(), "{args:?}: {status:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // Through a shell, as a user types it.
    let bin = env!("CARGO_BIN_EXE_parlor");
    for line in [
        format!("'{bin}' man | head -3"),
        format!("'{bin}' completions bash | head -2"),
        format!("'{bin}' nocca perft 2 --divide | head -20"),
    ] {
        // bash's pipefail: the status is parlor's, not head's.
        let o = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("set -o pipefail; {line}"))
            .env("PARLOR_DATA_DIR", dir.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{line}: {}", err(&o));
        assert!(err(&o).is_empty(), "{line}: {}", err(&o));
        assert!(!out(&o).is_empty(), "{line}");
    }
}

#[test]
fn replaying_a_damaged_finished_game_says_which_and_that_it_is_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let done = run(
        dir.path(),
        &["2048", "--size", "3", "--seed", "9"],
        &crate::common::cycle_moves(300),
    );
    assert!(out(&done).contains("Recorded as game #1"), "{}", out(&done));
    rusqlite::Connection::open(dir.path().join(parlor::storage::DB_FILE))
        .unwrap()
        .execute_batch("UPDATE games SET score = 'lots'")
        .unwrap();
    let o = run(dir.path(), &["replay", "1"], "");
    assert!(!o.status.success());
    let e = err(&o);
    assert!(
        e.contains("game #1 is damaged (a score that is not a number) and cannot be replayed: it is set aside"),
        "{e}"
    );
    assert!(
        !e.contains("Conversion") && !e.contains("conversion"),
        "{e}"
    );
    // The history says the same of it.
    let h = run(dir.path(), &["history"], "");
    assert!(
        out(&h).contains("1 damaged finished game left out (a score that is not a number)"),
        "{}",
        out(&h)
    );
}

#[test]
fn a_replay_says_on_its_last_move_how_the_game_ended() {
    let dir = tempfile::tempdir().unwrap();
    let done = run(
        dir.path(),
        &["2048", "--size", "3", "--seed", "9"],
        &crate::common::cycle_moves(300),
    );
    assert!(out(&done).contains("Recorded as game #1"), "{}", out(&done));
    let o = run(dir.path(), &["replay", "1"], "");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let last = text
        .lines()
        .rev()
        .find(|l| {
            l.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u32>().is_ok())
        })
        .expect("a move line");
    assert!(
        last.contains(" · lost · Game over: no move left (best tile"),
        "{last}"
    );
    // Only the last move says it.
    assert_eq!(text.matches(" · lost · Game over").count(), 1, "{text}");
}

#[test]
fn a_short_match_has_a_true_interval_and_counts_in_words() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["nocca", "match", "--a", "1", "--b", "1", "--games", "2"];
    let o = run(dir.path(), &[&args[..], &["--json"]].concat(), "");
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let (lo, hi) = (
        v["ci95"][0].as_f64().unwrap(),
        v["ci95"][1].as_f64().unwrap(),
    );
    // Two games say little: Wilson's interval is wide, never a point.
    assert!(hi - lo > 0.5, "{v}");
    let score = v["score"].as_f64().unwrap();
    assert!(lo <= score && score <= hi, "{v}");
    let text = out(&run(dir.path(), &args, ""));
    let word = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    for (key, one, many) in [
        ("a_wins", "win", "wins"),
        ("b_wins", "loss", "losses"),
        ("draws", "draw", "draws"),
    ] {
        let said = word(v[key].as_u64().unwrap(), one, many);
        assert!(text.contains(&said), "{said}: {text}");
    }
    assert!(text.contains("in 2 games"), "{text}");
}

#[test]
fn a_variant_too_large_for_the_computer_is_told_with_true_figures() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &[
            "mastermind",
            "--colours",
            "10",
            "--pegs",
            "8",
            "--secret-repeats",
            "no",
            "--guess-repeats",
            "no",
        ],
        "t\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        text.contains(
            "the computer would search all 100,000,000 rows of 8 pegs in 10 colours (1,814,400 of them possible \
             codes), more than its limit of 65,536"
        ),
        "{text}"
    );
    assert!(!text.contains("100000000"), "{text}");
}

#[test]
fn a_small_nocca_board_names_its_own_columns_and_rows() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(
        dir.path(),
        &["nocca", "--board", "3x3", "--mode", "two", "--new"],
        "z9\nd1\nq\n",
    );
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("columns a-c, rows 1-3"), "{text}");
    assert!(!text.contains("a-e"), "{text}");
    assert!(!text.contains("1-6"), "{text}");
}

#[test]
fn a_commands_help_lists_the_global_options_apart() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(dir.path(), &["nocca", "match", "--help"], "");
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let (own, global) = text
        .split_once("Global options:")
        .unwrap_or_else(|| panic!("no global heading: {text}"));
    assert!(own.contains("--games"), "{text}");
    for flag in ["--data-dir", "--config-dir", "--plain", "--theme"] {
        assert!(
            !own.contains(flag),
            "{flag} among the command's own: {text}"
        );
        assert!(global.contains(flag), "{flag}: {text}");
    }
}

#[test]
fn the_manual_pages_synopses_show_the_options_values() {
    let dir = tempfile::tempdir().unwrap();
    let pages = dir.path().join("man");
    let o = run(dir.path(), &["man", "--dir", pages.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", err(&o));
    let page = std::fs::read_to_string(pages.join("parlor-nocca-match.1")).unwrap();
    let synopsis = page
        .split(".SH SYNOPSIS")
        .nth(1)
        .and_then(|s| s.split(".SH").next())
        .unwrap_or_else(|| panic!("no synopsis: {page}"));
    for shown in [
        r"\-\-a A \-\-b B",
        r"[\-\-games GAMES]",
        r"[\-\-seed SEED]",
        r"[\-\-json]",
        "[GLOBAL OPTIONS]",
    ] {
        assert!(synopsis.contains(shown), "{shown}: {synopsis}");
    }
    let top = out(&run(dir.path(), &["man"], ""));
    let synopsis = top.split(".SH SYNOPSIS").nth(1).unwrap_or_default();
    assert!(synopsis.contains(r"[\-\-data\-dir DIR]"), "{synopsis}");
}
