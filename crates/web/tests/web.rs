//! The crate in a real browser (`wasm-bindgen-test`, headless Chromium through chromedriver; `scripts/web-test.sh`
//! runs them): the store kept in `localStorage`, and the page's app taking a key.

#![cfg(target_arch = "wasm32")]
// Tests may unwrap (clippy.toml allows it in #[test]s, which wasm_bindgen_test functions are not seen as).
#![allow(clippy::unwrap_used)]

use parlor::storage::{Storage, Unfinished};
use parlor_web::store::{Persist, STORE_KEY, WebStore};
use std::rc::Rc;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn row(session: &str, moves: &str) -> Unfinished {
    Unfinished {
        game: "2048".into(),
        variant: "4x4".into(),
        options: "{}".into(),
        seed: 9,
        moves: moves.into(),
        score: 0,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: 1,
        session: session.into(),
        updated_at: 2,
        row: 0,
        damage: None,
    }
}

#[wasm_bindgen_test]
fn the_store_round_trips_through_local_storage() {
    let local = web_sys::window().unwrap().local_storage().unwrap().unwrap();
    local.clear().unwrap();
    let persist: Rc<dyn Persist> = Rc::new(parlor_web::LocalStorage);
    let opened = WebStore::open(persist.clone(), 1);
    assert_eq!(opened.notice, None);
    assert!(opened.store.keeps());
    opened.store.save_unfinished(&row("a", "l u")).unwrap();
    let kept = local.get_item(STORE_KEY).unwrap().unwrap();
    assert!(kept.contains("\"l u\""), "{kept}");
    let again = WebStore::open(persist, 2);
    let saved = again.store.unfinished(None).unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].moves, "l u");
    local.clear().unwrap();
}

#[wasm_bindgen_test]
fn a_key_reaches_the_app_and_changes_the_screen() {
    let window = web_sys::window().unwrap();
    window.local_storage().unwrap().unwrap().clear().unwrap();
    let document = window.document().unwrap();
    let term = document.create_element("div").unwrap();
    term.set_id("term");
    term.set_attribute("style", "width: 800px; height: 480px;")
        .unwrap();
    document.body().unwrap().append_child(&term).unwrap();
    parlor_web::parlor_start().unwrap();
    let menu = parlor_web::parlor_screen();
    assert!(menu.contains("New game: 2048"), "{menu}");
    // Enter opens 2048's setup form; Enter again starts the game.
    assert!(parlor_web::parlor_press("Enter"));
    let setup = parlor_web::parlor_screen();
    assert_ne!(setup, menu);
    assert!(parlor_web::parlor_press("Enter"));
    let board = parlor_web::parlor_screen();
    assert_ne!(board, setup);
    assert!(parlor_web::parlor_press("ArrowLeft") && parlor_web::parlor_press("ArrowUp"));
    let saved = parlor_web::parlor_export();
    assert!(saved.contains("\"unfinished\":[{"), "{saved}");
    assert!(parlor_web::parlor_frame_ms() >= 0.0);
}

/// Mastermind's counting loops have a kernel of their own in WebAssembly's vectors (`crates/mastermind/src/lanes.rs`,
/// built with `+simd128` as the page is; `scripts/web-test.sh` builds these tests so): the classic optimal solve
/// through it totals what the portable code totals natively (5625 guesses over the 1296 secrets, docs/ENGINES.md).
#[wasm_bindgen_test]
// The simd128 check is a constant, but one the build's flags choose: the check is that this build had them.
#[allow(clippy::assertions_on_constants)]
fn the_classic_optimal_solve_totals_the_same_as_natively() {
    assert_eq!(
        parlor_web::games::bench::run("mastermind-optimal"),
        Some(5625)
    );
    assert!(
        cfg!(target_feature = "simd128"),
        "built without +simd128: the page's vector kernel was not the one tested"
    );
}

#[path = "../src/faces/patch_trees.rs"]
mod trees;

/// A screen written over another by the faces' writer (`faces::morph::write`, which parses only the changed element
/// when `faces::patch` finds one) is the page the new screen's HTML parses to, node for node: over random screens and
/// small edits of them, and the cases the writer leaves to the whole write.
#[wasm_bindgen_test]
fn a_screen_written_over_another_is_what_its_html_parses_to() {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    let document = web_sys::window().unwrap().document().unwrap();
    let root = document.create_element("div").unwrap();
    let fresh = document.create_element("div").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut pairs: Vec<(String, String)> = (0..400)
        .map(|_| {
            let old = trees::screen(&mut rng);
            let new = trees::edited(&mut rng, &old);
            (old, new)
        })
        .collect();
    for (old, new) in [
        (
            "<main><p>a<div>b</div></p></main>",
            "<main><p>a<div>c</div></p></main>",
        ),
        (
            "<main><ul><li>a<li>b</li></li></ul></main>",
            "<main><ul><li>a<li>c</li></li></ul></main>",
        ),
        (
            "<main><span>x</span></main>",
            "<main><button>x</button></main>",
        ),
        ("<p>a</p><p>b</p>", "<p>a</p><p>c</p><p>b</p>"),
    ] {
        pairs.push((old.to_string(), new.to_string()));
    }
    let mut parts = 0;
    for (old, new) in &pairs {
        root.set_inner_html(old);
        if parlor_web::faces::morph::write(&document, &root, old, new) {
            parts += 1;
        }
        fresh.set_inner_html(new);
        assert!(
            root.is_equal_node(Some(&fresh)),
            "{old} -> {new}: wrote {}, parses to {}",
            root.inner_html(),
            fresh.inner_html()
        );
    }
    assert!(
        parts > 200,
        "only {parts} of {} written in part",
        pairs.len()
    );
}
