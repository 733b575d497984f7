//! Installable and offline: after one visit, with the static server stopped, the page loads from its service
//! worker and plays (the menu, a game in progress, a new game of each game); Chromium finds no installability error
//! (`Page.getInstallabilityErrors` through the DevTools protocol); an update waits beside the running build and
//! is taken at the next load, the game in progress going on.

use crate::common::{MENU_FIRST, feedbacks, number_after, open_item, page, resume, to_menu};
use crate::{mastermind, nocca, twenty48};
use parlor_web_e2e::{Key, Session};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// Runs `body` (a function body that may `await`) in the page and gives what it returned.
fn eval_async(page: &Session, body: &str) -> Value {
    page.eval(&format!("return (async () => {{ {body} }})();"))
        .unwrap()
}

/// Waits until the service worker is active, controls the page and keeps the page's files in its cache; gives the
/// cache's name.
fn wait_offline_ready(page: &Session) -> String {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let v = eval_async(
            page,
            "const reg = await navigator.serviceWorker.getRegistration(); \
                 if (!reg || !reg.active || !navigator.serviceWorker.controller) return null; \
                 const keys = (await caches.keys()).filter(k => k.startsWith('parlor-')); \
                 if (keys.length !== 1) return null; \
                 const kept = await (await caches.open(keys[0])).keys(); \
                 return kept.length >= 9 ? keys[0] : null;",
        );
        if let Value::String(cache) = v {
            return cache;
        }
        assert!(
            Instant::now() < deadline,
            "the service worker did not keep the page within 60 s"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Plays one 2048 slide (any direction that moves); gives the moves made.
fn slide(page: &Session) -> u64 {
    let before = number_after(&page.screen().unwrap(), "Moves").unwrap();
    for key in [Key::Left, Key::Up, Key::Right, Key::Down] {
        page.press(&[key]).unwrap();
        if page
            .wait_screen("a slide", Duration::from_secs(5), |s| {
                number_after(s, "Moves") == Some(before + 1)
            })
            .is_ok()
        {
            std::thread::sleep(Duration::from_millis(300));
            return before + 1;
        }
    }
    panic!("no slide moved the board");
}

/// One Nocca move by clicks (a black piece of rank 1 to its furthest target), answered by the computer.
fn nocca_move(page: &Session) {
    let screen = nocca::start(page);
    let pieces = nocca::blacks_on(&screen, "1");
    let (col, row) = nocca::square_cell(&screen, &pieces[0]);
    page.click_cell(col, row).unwrap();
    let selected = page
        .wait_screen("a piece selected", Duration::from_secs(5), |s| {
            s.contains("selected:")
        })
        .unwrap();
    let (_, to) = nocca::forward(&nocca::targets(&selected));
    let (col, row) = nocca::square_cell(&selected, &to);
    page.click_cell(col, row).unwrap();
    nocca::wait_reply(page, 2);
}

#[test]
fn after_one_visit_the_page_opens_and_plays_with_no_network() {
    let Some(page) = page("offline", "seed=3") else {
        return;
    };
    let cache = wait_offline_ready(&page);
    assert!(cache.len() > "parlor-".len(), "{cache}");
    let installability = page.cdp("Page.getInstallabilityErrors", json!({})).unwrap();
    assert_eq!(
        installability["installabilityErrors"],
        json!([]),
        "Chromium's installability errors: {installability}"
    );
    let manifest = page.cdp("Page.getAppManifest", json!({})).unwrap();
    assert_eq!(manifest["errors"], json!([]), "{manifest}");

    twenty48::start(&page);
    slide(&page);
    let moves = slide(&page);
    to_menu(&page);

    page.stop_server();
    let served = page.server().hits().len();
    page.reload().unwrap();
    let menu = page.wait_text("Continue 2048").unwrap();
    page.screenshot("_menu").unwrap();
    assert!(menu.contains("New game: Nocca Nocca"), "{menu}");
    let resumed = resume(&page, "2048");
    assert_eq!(number_after(&resumed, "Moves"), Some(moves), "{resumed}");
    slide(&page);
    to_menu(&page);

    twenty48::start(&page);
    slide(&page);
    to_menu(&page);
    mastermind::start(&page);
    page.type_text("RGYU").unwrap();
    page.press(&[Key::Enter]).unwrap();
    page.wait_screen("a Mastermind guess scored", Duration::from_secs(10), |s| {
        feedbacks(s, 4).len() == 1
    })
    .unwrap();
    to_menu(&page);
    // The computer's reply comes from the page's worker, whose script and wasm come from the cache too.
    nocca_move(&page);
    page.screenshot("_nocca").unwrap();
    assert_eq!(
        page.server().hits().len(),
        served,
        "nothing was served once the server stopped"
    );
}

#[test]
fn an_update_waits_while_a_game_goes_on_and_is_taken_at_the_next_load() {
    let Some(site) = parlor_web_e2e::site_from_env("offline_update").unwrap() else {
        return;
    };
    // A copy of the built page, to be changed as a new build would change it.
    let copy = tempfile::tempdir().unwrap();
    for entry in std::fs::read_dir(&site).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            std::fs::copy(&path, copy.path().join(path.file_name().unwrap())).unwrap();
        }
    }
    let page = Session::start("offline_update", copy.path(), "seed=4").unwrap();
    let old = wait_offline_ready(&page);
    twenty48::start(&page);
    let moves = slide(&page);
    page.eval("window.parlorSameLoad = true; return true;")
        .unwrap();

    // The new build: its page carries a mark, its worker another cache.
    let index = std::fs::read_to_string(copy.path().join("index.html")).unwrap();
    std::fs::write(
        copy.path().join("index.html"),
        index.replace(
            "<head>",
            "<head>\n<meta name=\"parlor-next\" content=\"1\">",
        ),
    )
    .unwrap();
    let sw = std::fs::read_to_string(copy.path().join("sw.js")).unwrap();
    let build = old.trim_start_matches("parlor-");
    std::fs::write(
        copy.path().join("sw.js"),
        sw.replace(build, &format!("{build}-next")),
    )
    .unwrap();
    eval_async(
        &page,
        "const reg = await navigator.serviceWorker.getRegistration(); await reg.update(); return true;",
    );
    let deadline = Instant::now() + Duration::from_secs(30);
    while eval_async(
        &page,
        "const reg = await navigator.serviceWorker.getRegistration(); return !!(reg && reg.waiting);",
    ) != Value::Bool(true)
    {
        assert!(Instant::now() < deadline, "the new build never waited");
        std::thread::sleep(Duration::from_millis(200));
    }
    // The running game goes on, on the same load, from the old build.
    let more = slide(&page);
    assert_eq!(more, moves + 1);
    assert_eq!(
        page.eval("return window.parlorSameLoad === true;").unwrap(),
        Value::Bool(true)
    );
    // The page says that a new version waits (its worker's state change, told a moment after `waiting`).
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let said = page
            .eval_string("return document.getElementById('said').textContent;")
            .unwrap();
        if said.contains("new version") {
            break;
        }
        assert!(Instant::now() < deadline, "the bar said {said:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
    to_menu(&page);

    // The next load takes the new build, and the game is where it was.
    page.reload().unwrap();
    page.wait_text(MENU_FIRST).unwrap();
    let now = wait_offline_ready(&page);
    assert_eq!(now, format!("{old}-next"));
    let new_page = |page: &Session| {
        page.eval("return !!document.querySelector('meta[name=parlor-next]');")
            .unwrap()
            == Value::Bool(true)
    };
    if !new_page(&page) {
        // The page gives the waiting worker 10 s to take over before it starts (index.html); on a machine too
        // busy for that it starts from the old build and the new one, active by now, serves the load after.
        page.reload().unwrap();
        page.wait_text(MENU_FIRST).unwrap();
        assert_eq!(wait_offline_ready(&page), format!("{old}-next"));
    }
    assert!(new_page(&page), "the page is the new build's");
    open_item(&page, "Continue 2048");
    let back = page
        .wait_screen("the game again", Duration::from_secs(10), |s| {
            number_after(s, "Moves").is_some()
        })
        .unwrap();
    assert_eq!(number_after(&back, "Moves"), Some(more), "{back}");
}
