//! Nocca Nocca in the page, against the computer: a move by two clicks (the piece, then its target), a move by the
//! cursor keys and a step digit, each answered by the computer, read from the screen; the position found where it
//! was after a reload. The value overlay (`v`) on 4 x 4, its table solved by the page's builder worker while keys
//! still redraw, showing the terminal's values; a think stopped during that solve does not restart it.

use crate::common::{
    damage_kept, new_4x4_perfect_computer_first, number_after, open_item, page, resume,
    set_setting, title, to_menu,
};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

pub(crate) fn start(page: &Session) -> String {
    start_with(page, &[("Computer level", "beginner")])
}

/// A new game against the computer, you black and moving first, with `settings` set first (name, value).
fn start_with(page: &Session, settings: &[(&str, &str)]) -> String {
    let setup = open_item(page, "New game: Nocca Nocca");
    assert!(title(&setup).contains("new game of Nocca Nocca"), "{setup}");
    // Against the computer at its quickest level, you playing black and moving first.
    set_setting(page, "Players", "against the computer");
    for (name, value) in settings {
        set_setting(page, name, value);
    }
    set_setting(page, "Your colour", "black");
    let setup = set_setting(page, "Moves first", "black");
    if settings.iter().all(|(name, _)| *name != "Board") {
        assert!(setup.contains("◀ 6x5 ▶"), "the standard board: {setup}");
    }
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen(
        "a new Nocca game, black to move",
        Duration::from_secs(10),
        |s| title(s).contains("Nocca") && black_to_move(s),
    )
    .unwrap()
}

/// The board's files and the column of each one's letter under the board (`    a       b       c ...`).
fn files(screen: &str) -> Vec<(char, u16)> {
    let line = screen
        .lines()
        .find(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.len() >= 3
                && words
                    .iter()
                    .enumerate()
                    .all(|(i, w)| *w == ((b'a' + i as u8) as char).to_string())
        })
        .unwrap_or_else(|| panic!("no file letters under the board:\n{screen}"));
    line.chars()
        .enumerate()
        .filter(|(_, c)| c.is_ascii_lowercase())
        .map(|(i, c)| (c, i as u16))
        .collect()
}

/// The screen row of rank `rank`'s label (`  2 │ ...`).
fn rank_row(screen: &str, rank: &str) -> u16 {
    screen
        .lines()
        .position(|l| {
            l.trim_start()
                .strip_prefix(rank)
                .is_some_and(|rest| rest.starts_with(" │") || rest.starts_with(" ┃"))
        })
        .unwrap_or_else(|| panic!("no rank {rank} on the board:\n{screen}")) as u16
}

/// The (column, row) of the centre of square `sq` (such as `b2`): its file letter's column, its rank's row.
pub(crate) fn square_cell(screen: &str, sq: &str) -> (u16, u16) {
    let file = sq.chars().next().unwrap();
    let col = files(screen)
        .into_iter()
        .find(|(f, _)| *f == file)
        .unwrap_or_else(|| panic!("no file {file} on the board:\n{screen}"))
        .1;
    (col, rank_row(screen, &sq[1..]))
}

/// The squares of `rank` whose top piece is black (`B` under the file's letter).
pub(crate) fn blacks_on(screen: &str, rank: &str) -> Vec<String> {
    let row = rank_row(screen, rank);
    let line: Vec<char> = screen
        .lines()
        .nth(usize::from(row))
        .unwrap()
        .chars()
        .collect();
    files(screen)
        .into_iter()
        .filter(|(_, col)| line.get(usize::from(*col)) == Some(&'B'))
        .map(|(f, _)| format!("{f}{rank}"))
        .collect()
}

/// The step targets the status line offers once a piece is selected: `b1 selected: 1 a2 · 2 b2 · 3 c2`.
pub(crate) fn targets(screen: &str) -> Vec<(char, String)> {
    let Some(line) = screen.lines().find(|l| l.contains("selected:")) else {
        return Vec::new();
    };
    let list = line.split("selected:").nth(1).unwrap_or("");
    list.split('·')
        .filter_map(|t| {
            let mut w = t.split_whitespace();
            let digit = w.next()?.chars().next()?;
            let sq = w.next()?.to_string();
            digit.is_ascii_digit().then_some((digit, sq))
        })
        .collect()
}

/// The target furthest up the board (towards Black's goal).
pub(crate) fn forward(targets: &[(char, String)]) -> (char, String) {
    targets
        .iter()
        .max_by_key(|(_, sq)| sq[1..].parse::<u32>().unwrap_or(0))
        .cloned()
        .unwrap()
}

/// Black (you, against the computer) is to move: `Black (you) to move`.
fn black_to_move(screen: &str) -> bool {
    screen.contains("Black (you) to move") || screen.contains("Black to move")
}

pub(crate) fn wait_reply(page: &Session, plies: u64) -> String {
    page.wait_screen(
        &format!("the computer's reply (Plies {plies}, Black to move)"),
        Duration::from_secs(60),
        |s| number_after(s, "Plies") == Some(plies) && black_to_move(s),
    )
    .unwrap()
}

#[test]
fn moves_by_clicks_and_by_keys_are_answered_by_the_computer() {
    let Some(page) = page("nocca_play", "seed=9") else {
        return;
    };
    let screen = start(&page);
    assert_eq!(number_after(&screen, "Plies"), Some(0), "{screen}");

    // Move 1: click a black piece on rank 1, then its furthest-forward target.
    let pieces = blacks_on(&screen, "1");
    assert!(!pieces.is_empty(), "no black piece on rank 1:\n{screen}");
    let (col, row) = square_cell(&screen, &pieces[0]);
    page.click_cell(col, row).unwrap();
    let selected = page
        .wait_screen("the clicked piece selected", Duration::from_secs(5), |s| {
            s.contains("selected:")
        })
        .unwrap();
    let (_, to) = forward(&targets(&selected));
    let (col, row) = square_cell(&selected, &to);
    page.click_cell(col, row).unwrap();
    let screen = wait_reply(&page, 2);
    assert!(
        screen.contains(&format!("{}→{to}", pieces[0])) || screen.contains(&to),
        "{screen}"
    );

    // Move 2: keys. The cursor stands where the last click was; Enter selects the piece there, a digit steps.
    page.press(&[Key::Enter]).unwrap();
    let selected = page
        .wait_screen(
            "the piece under the cursor selected by Enter",
            Duration::from_secs(5),
            |s| s.contains("selected:"),
        )
        .unwrap();
    let (digit, to2) = forward(&targets(&selected));
    page.type_text(&digit.to_string()).unwrap();
    let screen = wait_reply(&page, 4);
    assert!(screen.contains(&to2), "{screen}");
    assert!(
        !page.announce().unwrap().trim().is_empty(),
        "#announce names the moves"
    );
    page.screenshot("").unwrap();

    page.reload().unwrap();
    let back = resume(&page, "Nocca");
    assert_eq!(number_after(&back, "Plies"), Some(4), "{back}");
    // The pieces, without the cursor's brackets (where the cursor stands is not part of the game).
    let board = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.contains('│'))
            .map(|l| l.replace(['[', ']'], " ").trim().to_string())
            .collect()
    };
    assert_eq!(
        board(&back),
        board(&screen),
        "the position after the reload:\n{back}\nbefore:\n{screen}"
    );
    assert!(black_to_move(&back), "{back}");
}

/// How many workers the page has started (`window.parlorWorkerStarts`, index.html): one more each time a think is
/// stopped by ending its worker.
fn worker_starts(page: &Session) -> f64 {
    page.eval_f64("return window.parlorWorkerStarts").unwrap()
}

/// How many builder workers the page has started (`window.parlorBuilderStarts`, index.html).
fn builder_starts(page: &Session) -> f64 {
    page.eval_f64("return window.parlorBuilderStarts").unwrap()
}

/// The key the 4 x 4 table is built, handed over and kept under.
const TABLE: &str = "nocca-4x4.table";

/// The workers' events (`window.parlorKept.events`, index.html) that are `event` on the 4 x 4 table.
fn table_events(page: &Session, event: &str) -> Vec<serde_json::Value> {
    let events = page.eval("return window.parlorKept.events").unwrap();
    events.as_array().map_or(Vec::new(), |a| {
        a.iter()
            .filter(|e| e["key"] == TABLE && e["event"] == event)
            .cloned()
            .collect()
    })
}

/// A new 4 x 4 game against the perfect computer, which moves first (you white, black first): its first move
/// needs the board's table.
fn start_perfect_computer_first(page: &Session) -> String {
    new_4x4_perfect_computer_first(page);
    page.wait_screen(
        "a new 4x4 game, the computer to move",
        Duration::from_secs(10),
        |s| title(s).contains("Nocca") && s.contains("Black (computer) to move"),
    )
    .unwrap()
}

/// The 4 x 4 table is solved by the page's builder worker: the perfect computer's first move waits for it (the
/// status line saying how far the solve has got, the page answering keys); the player leaves part way, which ends
/// the thinking worker but not the solve; a new game's fresh worker waits for the same solve (not started again),
/// gets the table when it is done and plays the table's move.
#[test]
fn a_think_stopped_during_the_4x4_solve_does_not_restart_it_and_the_perfect_move_is_the_tables() {
    let Some(page) = page("nocca_stopped_solve", "seed=9") else {
        return;
    };
    start_perfect_computer_first(&page);
    let t0 = std::time::Instant::now();
    let solving = page
        .wait_screen(
            "the solve's progress on the status line",
            Duration::from_secs(60),
            |s| s.contains("solving the 4x4 table: ply"),
        )
        .unwrap();
    // (`computer thinking…` follows on the status line, past the test's `seed 9 (not ranked)`.)
    assert!(solving.contains("Black (computer) to move"), "{solving}");
    assert_eq!(table_events(&page, "building").len(), 1);
    assert_eq!(table_events(&page, "waiting").len(), 1);
    assert_eq!(worker_starts(&page), 1.0);
    // A key while the computer waits is drawn at once: the page never waits for the solve.
    let n = draws(&page);
    page.type_text("?").unwrap();
    page.wait_change(&solving, Duration::from_secs(5)).unwrap();
    assert!(draws(&page) > n, "the key redrew the page");
    page.press(&[Key::Escape]).unwrap();

    // Part way through the solve, the player leaves: the thinking worker is ended, the builder goes on.
    to_menu(&page);
    let stopped_at = t0.elapsed();
    assert_eq!(
        worker_starts(&page),
        2.0,
        "the thinking worker was replaced"
    );
    assert_eq!(builder_starts(&page), 1.0);
    assert!(
        table_events(&page, "solved").is_empty(),
        "stopped before the table was solved ({stopped_at:?})"
    );

    // A new game: the fresh worker waits for the same solve, which the page does not start again.
    start_perfect_computer_first(&page);
    let played = page
        .wait_screen(
            "the perfect computer's first move",
            Duration::from_secs(300),
            |s| s.contains("White (you) to move") && number_after(s, "Plies") == Some(1),
        )
        .unwrap();
    let waited = t0.elapsed();
    wait_kept(&page, "solved", 1.0, Duration::from_secs(30));
    let events = page.eval("return window.parlorKept.events").unwrap();
    println!("stopped at {stopped_at:?}; played at {waited:?}; events: {events}");
    assert_eq!(
        table_events(&page, "building").len(),
        1,
        "asked once: {events}"
    );
    assert_eq!(
        table_events(&page, "began").len(),
        1,
        "solved once: {events}"
    );
    assert_eq!(
        table_events(&page, "solved").len(),
        1,
        "kept once: {events}"
    );
    assert_eq!(table_events(&page, "waiting").len(), 2, "{events}");
    assert_eq!(table_events(&page, "resumed").len(), 1, "{events}");
    assert_eq!(builder_starts(&page), 1.0);
    assert_eq!(worker_starts(&page), 2.0);
    // One solve's time from the first ask to the table: the stop did not make it start over.
    let solved = &table_events(&page, "solved")[0];
    let (ms, wall_ms) = (
        solved["ms"].as_f64().unwrap(),
        solved["wallMs"].as_f64().unwrap(),
    );
    println!("the builder's solve: {ms:.0} ms; asked to handed over: {wall_ms:.0} ms");
    assert!(wall_ms < ms + 5000.0, "{wall_ms} ms for a {ms} ms solve");
    assert!(
        stopped_at.as_secs_f64() * 1000.0 < wall_ms,
        "the stop came part way through the solve"
    );
    page.screenshot("_stopped_solve").unwrap();

    // The move is the table's: one of the best moves from the start (natively solved), not any legal move.
    let (params, pos, table) = solved_4x4_start();
    let name = |m: &nocca::Move| parlor::games::nocca::screen::square_move(*m, params.board);
    let best: Vec<String> = table.best_moves(&pos).unwrap().iter().map(name).collect();
    let legal: Vec<String> = pos.legal_moves().iter().map(name).collect();
    assert!(
        best.len() < legal.len(),
        "some move is worse: {best:?} of {legal:?}"
    );
    let last = played
        .split("last ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .unwrap_or_else(|| panic!("no last move on the status line:\n{played}"));
    assert!(
        best.iter().any(|b| b == last),
        "the computer played {last}; the table's best: {best:?}\n{played}"
    );

    // The next hint is exact at once: the fresh worker holds the table.
    exact_hint(&page, Duration::from_secs(30));
}

/// `window.parlorKept[what]` (index.html): how many kept tables the page's workers loaded, solved or refused.
fn kept(page: &Session, what: &str) -> f64 {
    page.eval_f64(&format!("return window.parlorKept.{what}"))
        .unwrap()
}

/// Waits until `window.parlorKept[what]` reaches `n`.
fn wait_kept(page: &Session, what: &str, n: f64, limit: Duration) {
    let deadline = std::time::Instant::now() + limit;
    while kept(page, what) < n {
        let events = page.eval("return window.parlorKept.events").unwrap();
        assert!(
            std::time::Instant::now() < deadline,
            "waited {limit:?} for parlorKept.{what} = {n}; events: {events}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A hint asked on the game shown, with the exact value from the worker's table.
fn exact_hint(page: &Session, limit: Duration) -> String {
    page.type_text("t").unwrap();
    page.wait_screen("the exact hint", limit, |s| {
        s.contains("hint:") && s.contains("(exact)")
    })
    .unwrap()
}

/// A hint asked while the builder solves the 4 x 4 table: a search's move, which says so; then, once the table is
/// solved and kept, an exact one.
fn searched_then_exact_hint(page: &Session) -> String {
    page.type_text("t").unwrap();
    let searched = page
        .wait_screen("a search's hint meanwhile", Duration::from_secs(30), |s| {
            s.contains("hint:")
        })
        .unwrap();
    assert!(
        searched.contains("The 4x4 table is being solved") && searched.contains("meanwhile"),
        "{searched}"
    );
    assert!(!searched.contains("(exact)"), "{searched}");
    wait_kept(page, "solved", 1.0, Duration::from_secs(300));
    exact_hint(page, Duration::from_secs(30))
}

#[test]
fn a_4x4_table_solved_once_is_kept_and_a_damaged_one_is_refused_and_solved_again() {
    let Some(page) = page("nocca_kept", "seed=9") else {
        return;
    };
    let four = &[("Board", "4x4"), ("Computer level", "beginner")];
    start_with(&page, four);
    // First visit: the builder solves the 4x4 table for the hint (a search's meanwhile), the worker keeps it in
    // IndexedDB.
    searched_then_exact_hint(&page);
    assert_eq!(kept(&page, "loaded"), 0.0);
    let solved = page.eval("return window.parlorKept.events").unwrap();
    println!("first visit: {solved}");

    // The next visit: the new worker reads the kept table at its start; the hint comes from it, no solve.
    page.reload().unwrap();
    wait_kept(&page, "loaded", 1.0, Duration::from_secs(60));
    // (A game with no move played is not kept: a new one on the same board.)
    start_with(&page, four);
    exact_hint(&page, Duration::from_secs(30));
    assert_eq!(kept(&page, "solved"), 0.0, "no solve on the next visit");
    let loaded = page.eval("return window.parlorKept.events").unwrap();
    println!("next visit: {loaded}");
    page.screenshot("_kept").unwrap();

    // A damaged entry (one byte of the table flipped here, through IndexedDB) is refused, deleted and solved again.
    let damaged = damage_kept(&page, "nocca-4x4.table", "1000");
    assert_eq!(damaged, 15_005_948.0, "the 4x4 table's bytes");
    page.reload().unwrap();
    wait_kept(&page, "refused", 1.0, Duration::from_secs(60));
    assert_eq!(kept(&page, "loaded"), 0.0);
    let refused = page.eval("return window.parlorKept.events").unwrap();
    assert!(refused.to_string().contains("checksum"), "{refused}");
    start_with(&page, four);
    searched_then_exact_hint(&page);
    println!(
        "damaged: {refused}; then {}",
        page.eval("return window.parlorKept.events").unwrap()
    );
}

/// How many times the page has drawn its screen (`parlorDraws`, read through the page's module).
fn draws(page: &Session) -> f64 {
    page.eval("return import('./parlor_web.js').then((m) => m.parlorDraws());")
        .unwrap()
        .as_f64()
        .unwrap()
}

/// The overlay's words under the board as one line: from `to move:` on, the screen's lines joined (they wrap).
fn overlay_text(screen: &str) -> String {
    let from = screen
        .find(" to move:")
        .and_then(|at| screen[..at].rfind(['\n']).map(|l| l + 1))
        .unwrap_or(0);
    screen[from..]
        .lines()
        .map(str::trim)
        .take_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn values_on_4x4_come_from_the_worker_while_keys_still_redraw_and_equal_the_terminals() {
    let Some(page) = page("nocca_values", "seed=9") else {
        return;
    };
    let four = &[("Board", "4x4"), ("Computer level", "beginner")];
    start_with(&page, four);
    page.type_text("v").unwrap();
    let solving = page
        .wait_screen(
            "the overlay waiting for the worker",
            Duration::from_secs(10),
            |s| s.contains("solving the 4x4 table"),
        )
        .unwrap();
    // While the worker solves, a key (the cursor moved) is handled and redrawn at once on the page.
    let n = draws(&page);
    let t0 = std::time::Instant::now();
    page.press(&[Key::Right]).unwrap();
    let moved = page.wait_change(&solving, Duration::from_secs(5)).unwrap();
    let key_ms = t0.elapsed().as_millis();
    assert!(draws(&page) > n, "the key redrew the page");
    assert!(
        moved.contains("solving the 4x4 table"),
        "still solving when the key was drawn:\n{moved}"
    );
    assert_eq!(kept(&page, "solved"), 0.0, "{moved}");
    println!(
        "a key during the solve: drawn within {key_ms} ms (draws {n} -> {})",
        draws(&page)
    );
    page.press(&[Key::Left]).unwrap();
    let shown = page
        .wait_screen(
            "the values from the worker",
            Duration::from_secs(300),
            |s| s.contains("to move:") && s.contains("Each piece"),
        )
        .unwrap();
    page.screenshot("_values").unwrap();
    let events = page.eval("return window.parlorKept.events").unwrap();
    println!("values shown; events: {events}");
    assert!(events.to_string().contains("\"gave\""), "{events}");

    // The same position natively: the terminal's overlay words.
    let (_, pos, table) = solved_4x4_start();
    let exact = parlor::games::nocca::exact_in(&table, &pos).unwrap();
    let want = parlor::games::nocca::screen::listing(&exact, &pos).replace('\u{a0}', " ");
    let got = overlay_text(&shown).replace('\u{a0}', " ");
    let squash = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(squash(&got), squash(&want), "{shown}");

    // Hidden and shown again: no second solve or fetch (the page holds the table now).
    let gave = |page: &Session| {
        page.eval("return window.parlorKept.events.filter((e) => e.event === 'gave').length")
            .unwrap()
            .as_f64()
            .unwrap()
    };
    assert_eq!(gave(&page), 1.0);
    page.type_text("v").unwrap();
    page.wait_screen("the values hidden", Duration::from_secs(5), |s| {
        !s.contains("Each piece")
    })
    .unwrap();
    page.type_text("v").unwrap();
    page.wait_screen("the values shown again", Duration::from_secs(5), |s| {
        s.contains("Each piece")
    })
    .unwrap();
    assert_eq!(gave(&page), 1.0);
    assert!(kept(&page, "solved") <= 1.0);
}

/// The start of a 4 x 4 game with black first (the games above), and its table solved natively: what the page's
/// perfect moves and values are checked against.
fn solved_4x4_start() -> (parlor::games::nocca::Params, nocca::Position, nocca::Table) {
    let params = parlor::games::nocca::Params {
        board: "4x4".parse().unwrap(),
        first: nocca::Colour::Black,
        ..Default::default()
    };
    let pos = params.start();
    let table =
        nocca::Table::solve(params.board, &nocca::SolveOptions::default(), &mut |_| {}).unwrap();
    (params, pos, table)
}
