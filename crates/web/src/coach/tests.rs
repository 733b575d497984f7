//! The reviewer's asks and answers as data, for every game of the registry; a hand-checked review and puzzle of a
//! real game are in `crate::games::coach_tests`.

use super::*;
use parlor::storage::Outcome;

/// A finished game of `game` with `moves` (seed 4, its default parameters).
fn record(game: &str, moves: &str) -> GameRecord {
    let contexts = Contexts::new(&parlor::registry::any(), None);
    let options = parlor::registry::find(game)
        .map(|g| g.params_from(&[], &contexts).json)
        .unwrap_or_default();
    GameRecord {
        id: 5,
        result: Outcome::GaveUp,
        ended_at: 1000,
        game: game.into(),
        variant: "v".into(),
        options,
        seed: 4,
        moves: moves.into(),
        score: 0,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: 900,
    }
}

#[test]
fn an_ask_reads_back_from_its_json_and_a_damaged_one_is_refused_with_why() {
    let r = record("anything", "a b");
    for ask in [
        Ask::Review(r.clone()),
        Ask::Judge {
            record: r.clone(),
            before: 1,
            mv: "c".into(),
        },
    ] {
        assert_eq!(ask_from_json(&ask_json(9, &ask)), Ok((9, ask)));
    }
    for bad in [
        "{oops",
        "{}",
        r#"{"id": 3}"#,
        r#"{"id": 3, "review": {"id": 1}}"#,
        r#"{"id": 3, "judge": {"before": 1}}"#,
    ] {
        assert!(ask_from_json(bad).is_err(), "{bad}");
        let (id, answered) = answer_from_json(&answer(bad, &mut |_, _| {})).unwrap();
        assert_eq!(id, 0);
        assert!(
            matches!(answered, Answered::Review(Err(_))),
            "{bad}: {answered:?}"
        );
    }
}

#[test]
fn a_game_the_registry_does_not_know_or_a_damaged_record_is_answered_with_why() {
    let (_, answered) = answer_from_json(&answer(
        &ask_json(2, &Ask::Review(record("chess", "e4"))),
        &mut |_, _| {},
    ))
    .unwrap();
    assert_eq!(
        answered,
        Answered::Review(Err("this page cannot review a game of chess".into()))
    );
    for g in parlor::registry::any() {
        let damaged = record(g.id(), "zz9! zz9!");
        let (id, answered) = answer_from_json(&answer(
            &ask_json(3, &Ask::Review(damaged.clone())),
            &mut |_, _| {},
        ))
        .unwrap();
        assert_eq!(id, 3);
        assert!(
            matches!(&answered, Answered::Review(Err(why)) if why.contains("cannot be reviewed")),
            "{}: {answered:?}",
            g.id()
        );
        let ask = Ask::Judge {
            record: record(g.id(), ""),
            before: 3,
            mv: "zz9!".into(),
        };
        let (_, answered) = answer_from_json(&answer(&ask_json(4, &ask), &mut |_, _| {})).unwrap();
        assert!(
            matches!(&answered, Answered::Judged(Err(why)) if why.contains("cannot be judged")),
            "{}: a position past the game's moves: {answered:?}",
            g.id()
        );
    }
}
