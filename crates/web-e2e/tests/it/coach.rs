//! The coach on the graphical face, by touch (a phone, 390x844) and by a desktop's clicks (1280x800): a game with a
//! known blunder played by taps (the Nocca Nocca 3x3 game for two `c1y c3b b1h`, whose ply 3 throws a win in 7 away,
//! best b1k or a1u: the app's hand-checked review, crates/parlor/tests/it/review.rs), given up; its review made in
//! the page's reviewer worker, its summary on the end screen, opened from there and from History by taps, the
//! blunder marked; kept after a reload (read back, no reviewer started); its puzzle solved by taps. A 2048 and a
//! Mastermind game, each finished by taps, reviewed from their end screens. Every new screen passes faces.rs's
//! layout checks (nothing past the viewport, no overlapping targets, every target at least 44 x 44).

use crate::faces::{check, click, faces, tap_to, text, wait};
use parlor_web_e2e::Session;
use std::time::Duration;

/// The sizes of the coach's tests: a phone in portrait with touch, a desktop.
const SIZES: &[(u32, u32, bool)] = &[(390, 844, true), (1280, 800, false)];

/// Sets a setup's select `key` to `value`.
fn choose(s: &Session, key: &str, value: &str) {
    let ok = s
        .eval_with(
            "const e = document.querySelector('select[data-set=\"' + arguments[0] + '\"]'); if (!e) return false; \
             e.value = arguments[1]; e.dispatchEvent(new Event('change', {bubbles: true})); return e.value === arguments[1];",
            vec![key.into(), value.into()],
        )
        .unwrap();
    assert_eq!(ok, serde_json::Value::Bool(true), "{key} = {value}");
}

/// Taps a Nocca piece on `from`, then its target `to` (squares by name: `c1`, `b2`).
fn tap_move(s: &Session, from: &str, to: &str) {
    s.tap(&format!("[aria-label^=\"Select {from}:\"]")).unwrap();
    wait(
        s,
        "the targets",
        &format!("return !!document.querySelector('[aria-label^=\"Move to {to}\"]');"),
    );
    s.tap(&format!("[aria-label^=\"Move to {to}\"]")).unwrap();
}

/// The number of plies shown played (the store's game in progress).
fn plies(s: &Session) -> usize {
    s.eval(
        "const t = localStorage.getItem('parlor.store'); if (!t) return 0; const u = JSON.parse(t).unfinished || []; \
         return u.length ? u[0].moves.split(' ').filter((m) => m).length : 0;",
    )
    .unwrap()
    .as_u64()
    .unwrap_or(0) as usize
}

/// The hand-checked game played by taps on a two-player 3x3 board, then given up: the end screen is shown.
fn play_the_blunder(s: &Session) {
    tap_to(s, "setup:2", "select[data-set=\"mode\"]");
    choose(s, "mode", "two");
    choose(s, "board", "3x3");
    tap_to(s, "start:2", "[aria-label^=\"Select c1:\"]");
    for (n, (from, to)) in [("c1", "b2"), ("c3", "b2"), ("b1", "a1")]
        .iter()
        .enumerate()
    {
        tap_move(s, from, to);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while plies(s) < n + 1 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert_eq!(plies(s), n + 1, "ply {} played", n + 1);
        // A finger lifts between one tap and the next.
        std::thread::sleep(Duration::from_millis(300));
    }
    s.tap("[data-act=\"giveup\"]").unwrap();
    tap_to(s, "yes", "#ending");
}

/// Waits for the review's summary on the screen (`#coach`, on the end screen or the review screen).
fn wait_summary(s: &Session, summary: &str) {
    wait(
        s,
        "the review's summary",
        &format!(
            "const e = document.querySelector('#coach'); return !!e && e.textContent.includes({summary:?});"
        ),
    );
}

#[test]
fn a_blunder_is_reviewed_from_the_end_screen_and_history_kept_and_its_puzzle_solved() {
    let Some(s) = faces("coach_blunder") else {
        return;
    };
    for (round, &(w, h, phone)) in SIZES.iter().enumerate() {
        let size = (w, h);
        s.emulate(w, h, phone).unwrap();
        play_the_blunder(&s);
        // The end screen: the summary, made in the reviewer worker, and a Review button.
        wait_summary(&s, "1 blunder: move 3");
        assert_eq!(
            s.eval("return window.parlorReviewerStarts;").unwrap(),
            serde_json::Value::from(1),
            "the review was made in the reviewer worker (one for the visit)"
        );
        check(&s, "coach-end", size, false);
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, "review", "#summary");
        assert_eq!(text(&s, "#summary"), "1 blunder: move 3");
        assert_eq!(text(&s, "#mark"), "?? blunder", "the worst move is shown");
        let detail = text(&s, "#detail");
        assert!(
            detail.contains("win in 7 → loss in 4") && detail.contains("best: b1k, a1u"),
            "{detail}"
        );
        assert!(
            text(&s, "#accuracy").contains("black 50.0%, white 100.0%"),
            "{}",
            text(&s, "#accuracy")
        );
        check(&s, "coach-review", size, true);
        // A move before, then the marked move again through its button.
        std::thread::sleep(Duration::from_millis(300));
        s.tap("[data-act=\"v:prev\"]").unwrap();
        wait(
            &s,
            "the move before",
            "return document.querySelector('#detail').textContent.startsWith('Move 2');",
        );
        std::thread::sleep(Duration::from_millis(300));
        s.tap(".marks-nav [data-act^=\"v:sel:\"]").unwrap();
        wait(
            &s,
            "the marked move",
            "return document.querySelector('#mark').textContent === '?? blunder';",
        );
        // Back to the end screen, then the menu; the history's Review opens it again.
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, "v:back", "#ending");
        std::thread::sleep(Duration::from_millis(300));
        s.tap(".end [data-act=\"menu\"]").unwrap();
        wait(
            &s,
            "the menu",
            "return !!document.querySelector('[data-act=\"history\"]');",
        );
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, "history", "[data-act^=\"review:\"]");
        check(&s, "coach-history", size, true);
        let id = (round + 1).to_string();
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, &format!("review:{id}"), "#summary");
        assert_eq!(text(&s, "#summary"), "1 blunder: move 3");

        // Kept with the game: after a reload the review is read back from the store, no reviewer started.
        s.reload().unwrap();
        s.wait_ready().unwrap();
        tap_to(&s, "history", &format!("[data-act=\"review:{id}\"]"));
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, &format!("review:{id}"), "#summary");
        assert_eq!(text(&s, "#summary"), "1 blunder: move 3");
        assert_eq!(
            s.eval("return window.parlorReviewerStarts;").unwrap(),
            serde_json::Value::from(0),
            "read back: no reviewer worker started after the reload"
        );
        let kept = s
            .eval("return localStorage.getItem('parlor.reviews') || '';")
            .unwrap();
        assert!(
            kept.as_str().unwrap_or_default().contains("blunder"),
            "kept in the page's storage: {kept}"
        );

        // The puzzle: the blunder again is a wrong try, a best move by taps solves it.
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, "v:learn", "#puzzle");
        assert!(
            text(&s, "#puzzle").starts_with("Puzzle 1 of 1 · move 3 · black to move"),
            "{}",
            text(&s, "#puzzle")
        );
        check(&s, "coach-puzzle", size, false);
        tap_move(&s, "b1", "a1");
        wait(
            &s,
            "the wrong try judged",
            "return document.querySelector('#line').textContent.includes('Try again: 1 try left.');",
        );
        std::thread::sleep(Duration::from_millis(300));
        tap_move(&s, "b1", "b2");
        wait(
            &s,
            "the puzzle solved",
            "return document.querySelector('#line').textContent.includes('Solved at the second try.');",
        );
        assert_eq!(text(&s, "#tally"), "1 of 1 solved");
        check(&s, "coach-solved", size, false);
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, "z:back", "#summary");
        std::thread::sleep(Duration::from_millis(300));
        tap_to(&s, "menu", "[data-act=\"setup:2\"]");
    }
}

#[test]
fn a_2048_and_a_mastermind_game_are_reviewed_from_their_end_screens() {
    let Some(s) = faces("coach_each") else {
        return;
    };
    s.emulate(390, 844, true).unwrap();
    // 2048: a few swipes, given up.
    tap_to(&s, "setup:0", "[data-act=\"start:0\"]");
    tap_to(&s, "start:0", ".b2048");
    let board = s.centre("#board").unwrap();
    for (dx, dy) in [(-120.0, 0.0), (0.0, -120.0), (120.0, 0.0), (0.0, 120.0)] {
        s.swipe(board, (dx, dy)).unwrap();
    }
    wait(
        &s,
        "slides",
        "return /^Move \\d+: /.test(document.querySelector('#line').textContent);",
    );
    std::thread::sleep(Duration::from_millis(400));
    s.tap("[data-act=\"giveup\"]").unwrap();
    tap_to(&s, "yes", "#ending");
    wait(
        &s,
        "the 2048 review",
        "const e = document.querySelector('#coach'); return !!e && !e.textContent.startsWith('reviewing') && !e.textContent.startsWith('no review');",
    );
    std::thread::sleep(Duration::from_millis(300));
    tap_to(&s, "review", "#summary");
    let moves = s
        .eval("return document.querySelectorAll('#moves li').length;")
        .unwrap()
        .as_u64()
        .unwrap_or(0);
    assert!(moves >= 1, "every slide listed: {moves}");
    check(&s, "coach-2048", (390, 844), true);
    std::thread::sleep(Duration::from_millis(300));
    tap_to(&s, "menu", "[data-act=\"setup:1\"]");

    // Mastermind: one guess by taps, given up.
    std::thread::sleep(Duration::from_millis(300));
    tap_to(&s, "setup:1", "[data-act=\"start:1\"]");
    tap_to(&s, "start:1", "[data-act=\"b:c:0\"]");
    for c in ["b:c:0", "b:c:0", "b:c:1", "b:c:1"] {
        s.tap(&format!("[data-act=\"{c}\"]")).unwrap();
    }
    s.tap("[data-act=\"b:submit\"]").unwrap();
    wait(
        &s,
        "the guess's answer",
        "return document.querySelectorAll('.mm li.guess:not(.empty)').length === 1;",
    );
    std::thread::sleep(Duration::from_millis(300));
    s.tap("[data-act=\"giveup\"]").unwrap();
    tap_to(&s, "yes", "#ending");
    wait(
        &s,
        "the Mastermind review",
        "const e = document.querySelector('#coach'); return !!e && !e.textContent.startsWith('reviewing') && !e.textContent.startsWith('no review');",
    );
    std::thread::sleep(Duration::from_millis(300));
    tap_to(&s, "review", "#summary");
    assert!(
        text(&s, "#moves").contains("1. "),
        "the guess is listed: {}",
        text(&s, "#moves")
    );
    check(&s, "coach-mastermind", (390, 844), true);
}

#[test]
fn the_coach_screens_fit_every_phone_and_desktop_size() {
    let Some(s) = faces("coach_fit") else {
        return;
    };
    s.emulate(360, 780, true).unwrap();
    play_the_blunder(&s);
    wait_summary(&s, "1 blunder: move 3");
    // Past the time in which a script's click right after a tap is taken for the tap's own click.
    std::thread::sleep(Duration::from_millis(1000));
    for &(w, h, phone) in crate::faces::SIZES {
        s.emulate(w, h, phone).unwrap();
        let size = (w, h);
        check(&s, "coach-end", size, false);
        click(&s, "review");
        wait(
            &s,
            "the review",
            "return !!document.querySelector('#summary');",
        );
        check(&s, "coach-review", size, true);
        click(&s, "v:learn");
        wait(
            &s,
            "the puzzle",
            "return !!document.querySelector('#puzzle');",
        );
        check(&s, "coach-puzzle", size, false);
        click(&s, "z:back");
        wait(
            &s,
            "the review",
            "return !!document.querySelector('#summary');",
        );
        click(&s, "v:back");
        wait(&s, "the end", "return !!document.querySelector('#ending');");
    }
    click(&s, "menu");
    wait(
        &s,
        "the menu",
        "return !!document.querySelector('[data-act=\"history\"]');",
    );
    for &(w, h, phone) in crate::faces::SIZES {
        s.emulate(w, h, phone).unwrap();
        click(&s, "history");
        wait(
            &s,
            "the history",
            "return !!document.querySelector('[data-act^=\"review:\"]');",
        );
        check(&s, "coach-history", (w, h), true);
        click(&s, "menu");
        wait(
            &s,
            "the menu",
            "return !!document.querySelector('[data-act=\"history\"]');",
        );
    }
}

/// A finished two-player Nocca Nocca game on the standard 6x5 board of up to `plies` plies, each the legal move at a
/// fixed index of the list (no goal move, so that it goes on), given up: the store text that holds it alone.
fn long_nocca_store(plies: usize) -> (String, usize) {
    use parlor::games::nocca::{Mode, Nocca, Params};
    use parlor::mid::game::{Game, Status};
    let params = Params {
        mode: Mode::Two,
        ..Default::default()
    };
    let mut state = Nocca::new_game(&params, 1).unwrap();
    let mut moves = Vec::new();
    for ply in 0..plies {
        if !matches!(Nocca::status(&state), Status::Playing(_)) {
            break;
        }
        let pos = *state.position();
        let legal: Vec<nocca::Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| !pos.is_goal_move(m))
            .collect();
        let Some(&mv) = legal.get((ply * 7 + 3) % legal.len().max(1)) else {
            break;
        };
        let mut next = state.clone();
        Nocca::apply(&mut next, &mv).unwrap();
        if !matches!(Nocca::status(&next), Status::Playing(_)) {
            // A move that ends the game (a repetition) is left out: the game is given up before it.
            break;
        }
        state = next;
        moves.push(mv.to_string());
    }
    let record = parlor::storage::GameRecord {
        id: 1,
        result: parlor::storage::Outcome::GaveUp,
        ended_at: 1_700_000_100_000,
        game: Nocca::ID.into(),
        variant: Nocca::variant(&params),
        options: Nocca::params_to_json(&params),
        seed: 1,
        moves: moves.join(" "),
        score: moves.len() as i64,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: 1_700_000_000_000,
    };
    let dump = parlor::storage::dump::Dump {
        unfinished: Vec::new(),
        games: vec![record],
        set_aside: Vec::new(),
        settings: None,
    };
    (parlor::storage::dump::write(&dump), moves.len())
}

#[test]
fn a_long_review_shows_its_progress_while_the_page_answers_taps_and_goes_on_when_left() {
    let Some(s) = faces("coach_progress") else {
        return;
    };
    s.emulate(390, 844, true).unwrap();
    let (store, n) = long_nocca_store(160);
    assert!(n >= 60, "a long game: {n} plies");
    s.eval_with(
        "localStorage.setItem('parlor.store', arguments[0]); return true;",
        vec![store.into()],
    )
    .unwrap();
    s.reload().unwrap();
    s.wait_ready().unwrap();
    tap_to(&s, "history", "[data-act=\"review:1\"]");
    std::thread::sleep(Duration::from_millis(300));
    tap_to(&s, "review:1", "#coach");
    // The progress, redrawn while the reviewer works: the page's thread is free meanwhile.
    let of = format!(" of {n} moves…");
    let mut seen: Vec<String> = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while seen.len() < 2 && std::time::Instant::now() < deadline {
        let line = text(&s, "#coach");
        if line.starts_with("reviewing ")
            && line.ends_with(&of)
            && !line.starts_with("reviewing 0 ")
        {
            if !seen.contains(&line) {
                seen.push(line);
            }
        } else if !line.starts_with("reviewing ") {
            panic!(
                "the review ended before two steps of its progress were seen: {line:?} after {seen:?}"
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(seen.len(), 2, "two steps of the progress: {seen:?}");
    // Taps are taken meanwhile: back to the history and the menu, and the review again, still the same one.
    s.tap("[data-act=\"v:back\"]").unwrap();
    wait(
        &s,
        "the history while the review is made",
        "return !!document.querySelector('[data-act=\"review:1\"]');",
    );
    std::thread::sleep(Duration::from_millis(300));
    tap_to(&s, "review:1", "#coach");
    wait(
        &s,
        "the review's end",
        "return !!document.querySelector('#summary');",
    );
    assert_eq!(
        s.eval("return window.parlorReviewerStarts;").unwrap(),
        serde_json::Value::from(1),
        "one review, made once"
    );
    let listed = s
        .eval("return document.querySelectorAll('#moves li').length;")
        .unwrap();
    assert_eq!(listed, serde_json::Value::from(n), "every ply listed");
    let kept = s
        .eval("return localStorage.getItem('parlor.reviews') || '';")
        .unwrap();
    assert!(
        kept.as_str()
            .unwrap_or_default()
            .contains("estimate: search at depth"),
        "kept once done: {kept}"
    );
}
