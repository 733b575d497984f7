//! Nocca's tables made elsewhere ([`super::kept`]), as the page's worker uses them: a table wanted once, solved by
//! the builder, taken whole or refused, a perfect move waiting for it and a hint searching meanwhile.

use super::Nocca;
use super::kept::KEPT;
use crate::mid::Contexts;
use crate::mid::elsewhere::{Answer, Request};
use crate::mid::game::{Game, Purpose};
use crate::mid::kept::Kept;

/// A worker's contexts, its slow things left to a builder (as the page's thinking worker has them).
fn worker() -> Contexts {
    let contexts = Contexts::new(&crate::registry::any(), None);
    KEPT.make_elsewhere(&contexts);
    contexts
}

/// A request for the perfect level on `board`.
fn on(board: &str, purpose: Purpose) -> Request {
    let params = super::Params {
        board: board.parse().unwrap(),
        level: nocca::Opponent::Perfect,
        ..Default::default()
    };
    Request {
        id: 1,
        game: Nocca::ID.into(),
        options: Nocca::params_to_json(&params),
        seed: 4,
        moves: String::new(),
        purpose,
        pace_ms: None,
    }
}

fn answer(contexts: &Contexts, r: &Request) -> Answer {
    crate::registry::find(Nocca::ID).unwrap().think(r, contexts)
}

fn words(contexts: &Contexts, r: &Request) -> String {
    answer(contexts, r).unwrap().words.unwrap()
}

/// A board's table is solved by the builder, not by the thinking worker: asked for once, hints searching
/// meanwhile (and saying so, with the solve's progress as heard), the perfect level's move held until the table
/// comes; once taken, the hints are exact and the perfect move is the table's.
#[test]
fn a_table_is_wanted_once_built_elsewhere_and_until_it_comes_hints_search_and_perfect_waits() {
    let c = worker();
    let key = "nocca-3x3.table";
    assert!(KEPT.owns(key) && !KEPT.owns("nocca-3x3.pmt") && !KEPT.owns("chess-3x3.table"));
    let hint = on("3x3", Purpose::Hint);
    let opponent = on("3x3", Purpose::Opponent);
    assert_eq!(KEPT.waits_for(&c, &hint), None, "a hint never waits");
    assert_eq!(KEPT.wanted(&c), None);
    let said = words(&c, &hint);
    assert!(
        said.contains("The 3x3 table is being solved: a search's move meanwhile"),
        "{said}"
    );
    assert!(!said.contains("(exact)"), "{said}");
    assert_eq!(KEPT.wanted(&c).as_deref(), Some(key));
    assert_eq!(KEPT.wanted(&c), None, "wanted once");
    assert_eq!(KEPT.waits_for(&c, &opponent).as_deref(), Some(key));
    assert_eq!(KEPT.wanted(&c), None, "the move waiting does not ask again");
    assert_eq!(KEPT.fetch(&c, key), Ok(None), "the overlay waits too");
    crate::mid::elsewhere::set_progress(key, "ply 5, 60%");
    assert!(words(&c, &hint).contains("being solved (ply 5, 60%)"));
    crate::mid::elsewhere::set_progress(key, "");
    // Another level's move does not wait.
    let mut beginner = opponent.clone();
    beginner.options = beginner.options.replace("perfect", "beginner");
    assert!(
        beginner.options.contains("beginner"),
        "{}",
        beginner.options
    );
    assert_eq!(KEPT.waits_for(&c, &beginner), None);

    // The builder solves it, saying how far it has got; the worker checks and takes it.
    let mut heard = Vec::new();
    let bytes = KEPT.build(key, &mut |p| heard.push(p.to_string())).unwrap();
    assert!(heard.iter().any(|p| p.starts_with("ply ")), "{heard:?}");
    assert!(heard.windows(2).all(|w| w[0] != w[1]), "each change once");
    let mut bad = bytes.clone();
    bad[100] ^= 1;
    assert!(KEPT.take(&c, key, &bad).unwrap_err().contains("checksum"));
    assert_eq!(KEPT.waits_for(&c, &opponent).as_deref(), Some(key));
    assert_eq!(KEPT.take(&c, key, &bytes).unwrap(), "3x3");
    assert_eq!(KEPT.waits_for(&c, &opponent), None);
    assert!(words(&c, &hint).contains("(exact)"));
    assert_eq!(
        KEPT.fetch(&c, key),
        Ok(Some(bytes.clone())),
        "the same table for the overlay"
    );
    // The perfect move is one of the table's best.
    let mv = answer(&c, &opponent)
        .unwrap()
        .mv
        .expect("the perfect level's first move");
    let table = nocca::Table::from_bytes(&bytes, "3x3".parse().unwrap(), "test").unwrap();
    let rebuilt =
        crate::mid::session::rebuild::<Nocca>(Nocca::ID, &opponent.options, opponent.seed, "")
            .unwrap();
    let pos = rebuilt.state.position();
    let best: Vec<String> = table
        .best_moves(pos)
        .unwrap()
        .iter()
        .map(|m| m.to_string())
        .collect();
    assert!(best.contains(&mv), "{mv} is not among the best {best:?}");
    assert!(
        best.len() < pos.legal_moves().len(),
        "some move is worse: the check means something"
    );

    // A fresh worker takes the kept bytes at its start: nothing wanted, nothing waits.
    let fresh = worker();
    assert!(KEPT.take(&fresh, "nocca-3x4.table", &bytes).is_err());
    assert_eq!(KEPT.take(&fresh, key, &bytes).unwrap(), "3x3");
    assert_eq!(KEPT.waits_for(&fresh, &on("3x3", Purpose::Opponent)), None);
    assert!(words(&fresh, &on("3x3", Purpose::Hint)).contains("(exact)"));
    assert_eq!(KEPT.wanted(&fresh), None);
}

#[test]
fn a_failed_solve_stops_the_waiting_and_hints_search_without_saying_it_is_solved() {
    let c = worker();
    let key = "nocca-3x4.table";
    let opponent = on("3x4", Purpose::Opponent);
    assert_eq!(KEPT.waits_for(&c, &opponent).as_deref(), Some(key));
    assert_eq!(KEPT.wanted(&c).as_deref(), Some(key));
    KEPT.build_failed(&c, key, "out of memory");
    assert_eq!(KEPT.waits_for(&c, &opponent), None, "answered now");
    let got = answer(&c, &opponent).unwrap();
    assert_eq!(got.mv, None, "no perfect move without the table");
    assert_eq!(
        got.words.as_deref(),
        Some(
            "the computer cannot play perfectly: the 3x4 table could not be made (its build failed: \
             out of memory)"
        )
    );
    let said = words(&c, &on("3x4", Purpose::Hint));
    assert!(!said.contains("being solved"), "{said}");
    assert!(KEPT.fetch(&c, key).unwrap_err().contains("out of memory"));
    assert_eq!(KEPT.wanted(&c), None, "not asked again");
}

#[test]
fn only_the_small_boards_tables_are_built() {
    assert!(KEPT.build("nocca-6x5.table", &mut |_| {}).is_err());
    assert!(KEPT.build("nocca-9x9.table", &mut |_| {}).is_err());
    assert!(KEPT.fetch(&worker(), "nocca-9x9.table").is_err());
}
