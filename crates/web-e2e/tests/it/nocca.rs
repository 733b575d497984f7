//! Nocca Nocca in the page, against the computer: a move by two clicks (the piece, then its target), a move by the
//! cursor keys and a step digit, each answered by the computer, read from the screen; the position found where it
//! was after a reload. The value overlay (`v`) on 4 x 4, its table solved in the worker while keys still redraw,
//! showing the terminal's values.

use crate::common::{number_after, open_item, page, resume, set_setting, title, to_menu};
use parlor_web_e2e::{Key, Session};
use std::time::Duration;

fn start(page: &Session) -> String {
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
fn square_cell(screen: &str, sq: &str) -> (u16, u16) {
    let file = sq.chars().next().unwrap();
    let col = files(screen)
        .into_iter()
        .find(|(f, _)| *f == file)
        .unwrap_or_else(|| panic!("no file {file} on the board:\n{screen}"))
        .1;
    (col, rank_row(screen, &sq[1..]))
}

/// The squares of `rank` whose top piece is black (`B` under the file's letter).
fn blacks_on(screen: &str, rank: &str) -> Vec<String> {
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
fn targets(screen: &str) -> Vec<(char, String)> {
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
fn forward(targets: &[(char, String)]) -> (char, String) {
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

fn wait_reply(page: &Session, plies: u64) -> String {
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

/// How many workers the page has started (`window.parlorWorkerStarts`, index.html).
fn worker_starts(page: &Session) -> f64 {
    page.eval_f64("return window.parlorWorkerStarts").unwrap()
}

#[test]
fn a_think_no_longer_wanted_ends_the_worker_and_a_fresh_one_answers() {
    let Some(page) = page("nocca_cancel", "seed=9") else {
        return;
    };
    let perfect = [
        ("Board", "4x4"),
        ("Computer level", "perfect (solved boards)"),
    ];
    start_with(&page, &perfect);
    assert_eq!(worker_starts(&page), 1.0);
    // A hint on 4 x 4 at the perfect level: the worker solves the board's table first, which takes seconds.
    page.type_text("t").unwrap();
    let thinking = page
        .wait_screen("the computer thinking", Duration::from_secs(5), |s| {
            s.contains("thinking")
        })
        .unwrap();
    assert!(!thinking.contains("hint:"), "{thinking}");
    // Leaving the game forgets the request: the worker thinking about it is ended and a fresh one started.
    to_menu(&page);
    assert_eq!(
        worker_starts(&page),
        2.0,
        "the worker thinking about a forgotten request is replaced"
    );
    // The fresh worker answers the next request (solving the table anew).
    start_with(&page, &perfect);
    page.type_text("t").unwrap();
    let hinted = page
        .wait_screen(
            "the hint from the fresh worker",
            Duration::from_secs(180),
            |s| s.contains("hint:"),
        )
        .unwrap();
    assert_eq!(worker_starts(&page), 2.0, "{hinted}");
    page.screenshot("_answered").unwrap();
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
    let hinted = page
        .wait_screen("the exact hint", limit, |s| s.contains("hint:"))
        .unwrap();
    assert!(
        hinted.contains("(exact)"),
        "the hint says its exact value:\n{hinted}"
    );
    hinted
}

#[test]
fn a_4x4_table_solved_once_is_kept_and_a_damaged_one_is_refused_and_solved_again() {
    let Some(page) = page("nocca_kept", "seed=9") else {
        return;
    };
    let four = &[("Board", "4x4"), ("Computer level", "beginner")];
    start_with(&page, four);
    // First visit: the worker solves the 4x4 table for the hint and keeps it in IndexedDB.
    exact_hint(&page, Duration::from_secs(240));
    wait_kept(&page, "solved", 1.0, Duration::from_secs(60));
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
    let damaged = page
        .eval(
            "return new Promise((ok, no) => {
               const r = indexedDB.open('parlor-kept', 1);
               r.onerror = () => no(String(r.error));
               r.onsuccess = () => {
                 const store = r.result.transaction('kept', 'readwrite').objectStore('kept');
                 const get = store.get('nocca-4x4.table');
                 get.onsuccess = () => {
                   const bytes = new Uint8Array(get.result);
                   bytes[1000] ^= 1;
                   const put = store.put(bytes, 'nocca-4x4.table');
                   put.onsuccess = () => ok(bytes.length);
                   put.onerror = () => no(String(put.error));
                 };
               };
             });",
        )
        .unwrap();
    assert_eq!(
        damaged.as_f64(),
        Some(15_005_948.0),
        "the 4x4 table's bytes"
    );
    page.reload().unwrap();
    wait_kept(&page, "refused", 1.0, Duration::from_secs(60));
    assert_eq!(kept(&page, "loaded"), 0.0);
    let refused = page.eval("return window.parlorKept.events").unwrap();
    assert!(refused.to_string().contains("checksum"), "{refused}");
    start_with(&page, four);
    exact_hint(&page, Duration::from_secs(240));
    wait_kept(&page, "solved", 1.0, Duration::from_secs(60));
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
            |s| s.contains("worker is reading or solving the 4x4 table"),
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
        moved.contains("worker is reading or solving"),
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
    let params = parlor::games::nocca::Params {
        board: "4x4".parse().unwrap(),
        first: nocca::Colour::Black,
        ..Default::default()
    };
    let pos = params.start();
    let table =
        nocca::Table::solve(params.board, &nocca::SolveOptions::default(), &mut |_| {}).unwrap();
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
