//! Every game is recorded exactly once, with the moves actually played, however many `parlor` processes play over
//! one data directory at once (issue 25: a game finished by one process was taken up again by another from a stale
//! list and recorded twice).

use crate::common::{err, out, run};
use parlor::storage::{Storage, Store};
use std::collections::HashSet;
use std::path::Path;

/// The guesses a plain Mastermind run accepted, in order ("Guess 2: BLACK ORANGE RED GREEN (5 6 1 2) -> ...").
fn accepted(text: &str) -> usize {
    text.match_indices("Guess ")
        .filter(|(i, _)| {
            let rest = &text[i + 6..];
            let digits = rest.chars().take_while(char::is_ascii_digit).count();
            digits > 0 && rest[digits..].starts_with(": ")
        })
        .count()
}

/// The game numbers a run said it recorded ("Recorded as game #12 ...").
fn recorded_ids(text: &str) -> Vec<i64> {
    text.match_indices("Recorded as game #")
        .filter_map(|(i, m)| {
            let rest = &text[i + m.len()..];
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            n.parse().ok()
        })
        .collect()
}

/// One process's loop: a guess then quit (the game is left unfinished for anyone to continue), then a guess and
/// give up (finishing the game in progress, whoever started it). Returns the guesses accepted by runs that were
/// not told their game went to another Parlor, those accepted by runs that were, and the games said recorded.
fn worker(dir: &Path, rounds: usize) -> (usize, usize, Vec<i64>) {
    let (mut guesses, mut told, mut ids) = (0, 0, Vec::new());
    for _ in 0..rounds {
        for input in ["RGYU\nq\n", "KORG\nx\ny\n"] {
            let o = run(dir, &["mastermind"], input);
            assert!(o.status.success(), "{}", err(&o));
            let text = out(&o);
            assert!(!text.contains("panicked"), "{text}");
            if text.contains("another Parlor finished, set aside or played on this game") {
                told += accepted(&text);
            } else {
                guesses += accepted(&text);
            }
            ids.extend(recorded_ids(&text));
        }
    }
    (guesses, told, ids)
}

#[test]
fn three_processes_finishing_each_others_games_record_each_once_with_its_moves() {
    let dir = tempfile::tempdir().unwrap();
    let (played, told, kept) = three_processes(dir.path(), 60);
    assert_eq!(told, 0, "with claims, no game is played by two at once");
    assert_eq!(kept, played, "guesses played vs guesses kept");
}

/// With a file where the claims folder should be, no process can tell which games the others are playing: each
/// says so, and the database alone still records every game once.
#[test]
fn without_claims_each_process_says_so_and_every_game_is_still_recorded_once() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("claims"), "not a folder").unwrap();
    let o = run(dir.path(), &["mastermind"], "RGYU\nq\n");
    let text = out(&o);
    assert!(
        text.contains("could not claim the game in") && text.contains("claims: "),
        "{text}"
    );
    let (played, told, kept) = three_processes(dir.path(), 30);
    // A run told that another Parlor played on its game may have had its guesses refused; no other guess is lost.
    assert!(
        played <= kept && kept <= played + told,
        "{played} guesses by runs not told, {told} by runs told, {kept} kept"
    );
}

/// Three processes run [`worker`] over `dir` at once; then every game must be recorded once, each record said once.
/// Returns the guesses played by runs not told they lost their game, by runs told, and the guesses kept (in
/// records and games in progress).
fn three_processes(dir: &Path, rounds: usize) -> (usize, usize, usize) {
    let results: Vec<(usize, usize, Vec<i64>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..3)
            .map(|_| scope.spawn(|| worker(dir, rounds)))
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let store = Store::open(dir).unwrap().store;
    let games = store.history(None, 100_000).unwrap().games;
    let unfinished = store.unfinished(None).unwrap();
    assert_eq!(store.set_aside_count().unwrap(), 0);

    // Each game once: no two records of one game (its seed and start), and every record said once.
    let mut seen = HashSet::new();
    for g in &games {
        assert!(
            seen.insert((g.seed, g.started_at)),
            "game recorded twice: {:?}",
            games
                .iter()
                .filter(|h| (h.seed, h.started_at) == (g.seed, g.started_at))
                .map(|h| &h.moves)
                .collect::<Vec<_>>()
        );
    }
    let said: Vec<i64> = results.iter().flat_map(|r| r.2.clone()).collect();
    let said_set: HashSet<i64> = said.iter().copied().collect();
    assert_eq!(said.len(), said_set.len(), "a record announced twice");
    let ids: HashSet<i64> = games.iter().map(|g| g.id).collect();
    assert_eq!(said_set, ids, "the records are exactly those announced");

    // With the moves played: every guess is in exactly one record or game in progress.
    let played: usize = results.iter().map(|r| r.0).sum();
    let told: usize = results.iter().map(|r| r.1).sum();
    let kept: usize = games
        .iter()
        .map(|g| g.moves.split_whitespace().count())
        .chain(
            unfinished
                .iter()
                .map(|u| u.moves.split_whitespace().count()),
        )
        .sum();
    // Games were continued across processes: some record holds guesses of more than one run.
    assert!(games.iter().any(|g| g.moves.split_whitespace().count() > 1));
    (played, told, kept)
}

/// The full screen tells its player too: a game another process finished meanwhile (no claims to stop it) is
/// neither saved nor recorded again, and the screen says why.
#[test]
fn the_full_screen_says_when_another_process_finished_its_game() {
    use crate::common::pty::{Key, Pty, Spawn};
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("claims"), "not a folder").unwrap();
    // A chosen seed whose first board moves left: a random board may not move the way a fixed key asks.
    let mut p = Pty::spawn(Spawn::new(dir.path(), &["2048", "--seed", "4"]).size(100, 30));
    p.wait_for("Score 0");
    p.press(Key::Left);
    p.wait_for("Moves 1");
    // Another Parlor continues the same game and gives it up: recorded there.
    let o = run(dir.path(), &["2048"], "x\ny\n");
    assert!(out(&o).contains("Recorded as game #1"), "{}", out(&o));
    p.press(Key::Left);
    p.press(Key::Up);
    let screen = p.wait_for("another Parlor finished");
    assert!(screen.contains("not saved"), "{screen}");
    p.press(Key::Char('x'));
    p.wait_for("Give up?");
    p.press(Key::Char('y'));
    let screen = p.wait_for("NOT recorded");
    assert!(screen.contains("another Parlor"), "{screen}");
    let store = Store::open(dir.path()).unwrap().store;
    assert_eq!(store.history(None, 10).unwrap().games.len(), 1);
    assert!(store.unfinished(None).unwrap().is_empty());
}

/// Plain mode says that the game cannot be claimed (a file in the claims folder's place) at the start, before the
/// first move is asked for: for a new game, and for a game taken up again.
#[test]
fn plain_mode_says_the_claim_problem_before_the_first_move() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("claims"), "not a folder").unwrap();
    for (input, continued) in [("q\n", false), ("RGYU\nq\n", false), ("q\n", true)] {
        let o = run(dir.path(), &["mastermind"], input);
        let text = out(&o);
        assert_eq!(text.contains("Continuing your game"), continued, "{text}");
        let warned = text
            .find("Warning: could not claim the game in")
            .unwrap_or_else(|| panic!("no warning: {text}"));
        let asked = text
            .find("Guess 1 of 8")
            .or_else(|| text.find("Guess 2 of 8"))
            .unwrap_or_else(|| panic!("no question: {text}"));
        assert!(warned < asked, "said before the first question: {text}");
    }
}
