use super::*;
use parlor::storage::Outcome;

fn row(session: &str, moves: &str) -> Unfinished {
    Unfinished {
        game: "slide".into(),
        variant: "4x4".into(),
        options: "{}".into(),
        seed: 7,
        moves: moves.into(),
        score: 4,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: 1000,
        session: session.into(),
        updated_at: 2000,
        row: 0,
        damage: None,
    }
}

fn fresh() -> (Rc<MapPersist>, WebStore) {
    let persist = Rc::new(MapPersist::default());
    let opened = WebStore::open(persist.clone(), 1);
    assert_eq!(opened.notice, None);
    (persist, opened.store)
}

#[test]
fn every_change_is_written_and_read_back_on_the_next_open() {
    let (persist, mut store) = fresh();
    assert!(store.keeps());
    store.save_unfinished(&row("a", "l")).unwrap();
    assert!(store.save_game(&row("a", "l u"), Some("l")).unwrap());
    store.save_unfinished(&row("b", "r")).unwrap();
    let record = row("b", "r").into_record(Outcome::GaveUp);
    assert_eq!(store.finish_game("b", Some("r"), &record).unwrap(), Some(1));
    let text = persist.get(STORE_KEY).unwrap();
    assert!(text.contains("\"format\":\"parlor-store\""), "{text}");

    let again = WebStore::open(persist.clone(), 2);
    assert_eq!(again.notice, None);
    let saved = again.store.unfinished(None).unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].moves, "l u");
    let history = again.store.history(None, 10).unwrap();
    assert_eq!(history.games.len(), 1);
    assert_eq!(history.games[0].result, Outcome::GaveUp);
}

#[test]
fn a_failed_write_is_never_called_kept() {
    let (persist, store) = fresh();
    persist.full.set(true);
    let refused = store.save_unfinished(&row("a", "l")).unwrap_err();
    assert!(refused.to_string().contains("full"), "{refused}");
    assert!(!store.keeps());
    assert!(store.failure().unwrap().contains("full"));
    assert!(
        store.unfinished(None).unwrap().is_empty(),
        "the rows are what is kept"
    );
    persist.full.set(false);
    store.save_unfinished(&row("a", "l u")).unwrap();
    assert!(store.keeps());
    assert!(persist.get(STORE_KEY).unwrap().contains("\"l u\""));
    // A game's next write after a refused one finds the rows its last kept write left ("l u"), and is kept.
    persist.full.set(true);
    assert!(store.save_game(&row("a", "l u d"), Some("l u")).is_err());
    persist.full.set(false);
    assert!(store.save_game(&row("a", "l u d r"), Some("l u")).unwrap());
    assert!(persist.get(STORE_KEY).unwrap().contains("\"l u d r\""));
}

#[test]
fn a_newer_store_is_shown_read_only_and_never_written() {
    let (persist, store) = fresh();
    store.save_unfinished(&row("a", "l")).unwrap();
    let newer = persist
        .get(STORE_KEY)
        .unwrap()
        .replace("\"version\":1", "\"version\":9");
    persist.set(STORE_KEY, &newer).unwrap();
    let opened = WebStore::open(persist.clone(), 2);
    assert!(
        opened
            .notice
            .unwrap()
            .contains("newer Parlor (store version 9")
    );
    let store = opened.store;
    assert!(store.read_only());
    assert!(!store.keeps());
    assert_eq!(
        store.unfinished(None).unwrap().len(),
        1,
        "its games are shown"
    );
    assert!(store.save_unfinished(&row("b", "r")).is_err());
    assert!(store.import(&store.export()).is_err());
    assert_eq!(persist.get(STORE_KEY).unwrap(), newer, "never written");
}

#[test]
fn a_damaged_row_is_set_aside_and_the_rest_plays() {
    let (persist, store) = fresh();
    store.save_unfinished(&row("a", "l")).unwrap();
    let text = persist.get(STORE_KEY).unwrap().replace(
        "\"unfinished\":[",
        "\"unfinished\":[{\"game\":\"slide\",\"seed\":\"x\"},",
    );
    persist.set(STORE_KEY, &text).unwrap();
    let opened = WebStore::open(persist.clone(), 2);
    assert!(
        opened
            .notice
            .unwrap()
            .contains("1 damaged saved row(s) set aside")
    );
    assert_eq!(opened.store.unfinished(None).unwrap().len(), 1);
    assert_eq!(opened.store.set_aside_count().unwrap(), 1);
    let kept = persist.get(STORE_KEY).unwrap();
    assert!(kept.contains("\"seed\":\"x\""), "kept whole: {kept}");
}

#[test]
fn a_text_that_is_no_store_is_kept_aside_and_a_fresh_one_started() {
    let persist = Rc::new(MapPersist::default());
    persist.set(STORE_KEY, "{broken").unwrap();
    let opened = WebStore::open(persist.clone(), 42);
    assert!(opened.notice.unwrap().contains("parlor.store.corrupt-42"));
    assert_eq!(persist.get("parlor.store.corrupt-42").unwrap(), "{broken");
    assert!(opened.store.keeps());
    assert!(opened.store.unfinished(None).unwrap().is_empty());
}

#[test]
fn export_then_import_gives_the_same_store_and_settings() {
    let (persist, mut store) = fresh();
    persist.set(SETTINGS_KEY, "theme = \"light\"\n").unwrap();
    store.save_unfinished(&row("a", "l")).unwrap();
    store.save_unfinished(&row("b", "r")).unwrap();
    store
        .finish_game("b", Some("r"), &row("b", "r").into_record(Outcome::Won))
        .unwrap();
    let text = store.export();

    let (other_persist, other) = fresh();
    let said = other.import(&text).unwrap();
    assert_eq!(
        said,
        "import: 1 finished game added (0 already here), 1 game in progress added (0 already here), 0 \
         set-aside rows added; the settings taken"
    );
    assert_eq!(other.export(), text);
    // Importing it again adds nothing: no game twice.
    let again = other.import(&text).unwrap();
    assert!(
        again.starts_with(
            "import: 0 finished games added (1 already here), 0 games in progress added (1 already here)"
        ),
        "{again}"
    );
    assert_eq!(other.export(), text);
    assert_eq!(
        other_persist.get(SETTINGS_KEY).unwrap(),
        "theme = \"light\"\n"
    );
    assert_eq!(
        other.unfinished(None).unwrap(),
        store.unfinished(None).unwrap()
    );
}

#[test]
fn a_refused_import_changes_nothing() {
    let (persist, store) = fresh();
    store.save_unfinished(&row("a", "l")).unwrap();
    let before = persist.get(STORE_KEY).unwrap();
    assert!(
        store
            .import("hello")
            .unwrap_err()
            .starts_with("refused: not a Parlor store")
    );
    let newer = store.export().replace("\"version\":1", "\"version\":2");
    assert!(store.import(&newer).unwrap_err().contains("newer Parlor"));
    persist.full.set(true);
    let other = store.export().replace("\"l\"", "\"l u\"");
    assert!(
        store
            .import(&other)
            .unwrap_err()
            .contains("could not be kept")
    );
    persist.full.set(false);
    assert_eq!(store.unfinished(None).unwrap()[0].moves, "l");
    assert_eq!(persist.get(STORE_KEY).unwrap(), before);
}

#[test]
fn settings_are_kept_as_the_files_text() {
    let persist: Rc<dyn Persist> = Rc::new(MapPersist::default());
    let keeper = WebKeeper::new(persist.clone());
    let catalog = parlor::registry::catalog();
    let (mut settings, problems) = keeper.load(&catalog);
    assert!(problems.is_empty());
    settings
        .set(parlor::settings::Section::General, "theme", "light")
        .unwrap();
    assert!(keeper.save(&settings).unwrap().contains(SETTINGS_KEY));
    let (back, problems) = keeper.load(&catalog);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(back, settings);
    persist.set(SETTINGS_KEY, "theme = 3\n").unwrap();
    let (_, problems) = keeper.load(&catalog);
    assert_eq!(problems.len(), 1);
    assert!(problems[0].starts_with("line 1:"), "{problems:?}");
}

#[test]
fn an_empty_history_here_is_no_failure() {
    let (_, store) = fresh();
    assert_eq!(
        parlor::mid::record::nothing_to_show(&store),
        "No finished game yet."
    );
}

#[test]
fn a_refusal_is_said_in_a_plain_phrase() {
    assert_eq!(
        plain_refusal("QuotaExceededError"),
        "the browser's storage is full"
    );
    assert_eq!(
        plain_refusal("SecurityError"),
        "the browser blocks this page's storage"
    );
    assert_eq!(plain_refusal(""), "the browser refused to keep it");
    let persist = Rc::new(MapPersist::default());
    persist.full.set(true);
    let opened = WebStore::open(persist, 1);
    assert_eq!(
        opened.notice.as_deref(),
        Some(
            "Games cannot be kept in this browser (the browser's storage is full): nothing is saved."
        )
    );
}

#[test]
fn a_review_is_kept_with_its_game_read_back_after_a_reopen_and_never_for_another_game() {
    let (persist, mut store) = fresh();
    assert_eq!(store.review(1, "engine 1"), None);
    assert!(
        store.save_review(1, "engine 1", "{}").is_err(),
        "no game #1 yet"
    );
    store.save_unfinished(&row("a", "l")).unwrap();
    let record = row("a", "l").into_record(Outcome::GaveUp);
    assert_eq!(store.finish_game("a", Some("l"), &record).unwrap(), Some(1));
    store.save_review(1, "engine 1", "{\"first\":1}").unwrap();
    store.save_review(1, "engine 1", "{\"second\":2}").unwrap();
    let reopened = WebStore::open(persist.clone(), 2).store;
    assert_eq!(
        reopened.review(1, "engine 1").as_deref(),
        Some("{\"second\":2}")
    );
    assert_eq!(reopened.review(1, "engine 2"), None, "another engine's");

    // A store started afresh (its text set aside) numbers its games from 1 again: the old review is not theirs.
    persist
        .map
        .borrow_mut()
        .insert(STORE_KEY.into(), "not a store".into());
    let mut afresh = WebStore::open(persist.clone(), 3).store;
    let mut other = row("b", "r u");
    other.seed = 99;
    afresh.save_unfinished(&other).unwrap();
    let record = other.into_record(Outcome::GaveUp);
    assert_eq!(
        afresh.finish_game("b", Some("r u"), &record).unwrap(),
        Some(1)
    );
    assert_eq!(afresh.review(1, "engine 1"), None);

    // A full storage refuses the review and says so.
    persist.full.set(true);
    let why = afresh.save_review(1, "engine 1", "{}").unwrap_err();
    assert!(format!("{why}").contains("full"), "{why}");
    persist.full.set(false);
    // A damaged reviews text reads as none.
    persist
        .map
        .borrow_mut()
        .insert(REVIEWS_KEY.into(), "{oops".into());
    assert_eq!(afresh.review(1, "engine 1"), None);
    afresh.save_review(1, "engine 1", "{\"third\":3}").unwrap();
    assert_eq!(
        afresh.review(1, "engine 1").as_deref(),
        Some("{\"third\":3}")
    );
}
