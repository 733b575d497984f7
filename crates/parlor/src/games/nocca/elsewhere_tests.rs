//! Thinking elsewhere (the page's worker, `mid/elsewhere.rs`) played on Nocca Nocca's perfect play: the worker
//! replays a request's moves and thinks as the screen would, and says why when it cannot.

use super::Nocca;
use crate::mid::elsewhere::{Request, think_for};
use crate::mid::game::{Game, Purpose};
use crate::mid::session::{Seed, Session};
use crate::storage::MemoryStore;
use std::sync::atomic::AtomicBool;

#[test]
fn the_worker_replays_the_moves_and_thinks_as_the_screen_would() {
    // A game with a few moves played: the answer from the request equals thinking on the session's position.
    let mut store = MemoryStore::new();
    let context = <Nocca as Game>::Context::default();
    let params = <Nocca as Game>::Params::default();
    let mut session =
        Session::<Nocca>::new_in(params, Seed::from_option(Some(5)), &store, context.clone())
            .unwrap();
    let hint = |state: &<Nocca as Game>::State| {
        let mut t = Nocca::thinker(&params, &context);
        Nocca::think(&mut t, state, Purpose::Hint, &AtomicBool::new(false))
    };
    for _ in 0..3 {
        let mv = hint(session.state()).unwrap();
        session.play(mv, &mut store).unwrap();
    }
    let saved = session.unfinished();
    let r = Request {
        id: 1,
        game: saved.game,
        options: saved.options,
        seed: saved.seed,
        moves: saved.moves,
        purpose: Purpose::Hint,
        pace_ms: None,
    };
    let expected = hint(session.state());
    assert!(expected.is_some());
    let r = Request::from_json(&r.to_json()).unwrap();
    let said = |c: &<Nocca as Game>::Context, s: &<Nocca as Game>::State, m: &_| {
        Nocca::describe_hint(c, s, m)
    };
    let got = think_for::<Nocca>(&r, &context, |_, _| {}, said).unwrap();
    assert_eq!(got.mv, expected.map(|m| m.to_string()));
    // A hint comes with its words, said over the worker's context as the terminal says them.
    let words = expected.map(|m| Nocca::describe_hint(&context, session.state(), &m));
    assert_eq!(got.words, words);
    let mut opponent = r.clone();
    opponent.purpose = Purpose::Opponent;
    assert_eq!(
        think_for::<Nocca>(&opponent, &context, |_, _| {}, said)
            .unwrap()
            .words,
        None
    );
    // No move comes with why, over the worker's context: a perfect level whose table failed there.
    let mut perfect = opponent.clone();
    let params = super::Params {
        level: nocca::Opponent::Perfect,
        ..Nocca::params_from_json(&perfect.options).unwrap()
    };
    perfect.options = Nocca::params_to_json(&params);
    let dims = params.board;
    context.build_failed(dims, "the builder failed");
    let got = think_for::<Nocca>(&perfect, &context, |_, _| {}, said).unwrap();
    assert_eq!(got.mv, None);
    assert_eq!(
        got.words.as_deref(),
        Some(
            format!(
                "the computer cannot play perfectly: the {dims} table could not be made (the builder failed)"
            )
            .as_str()
        )
    );
    // A damaged request says so instead of thinking on a wrong position.
    let mut wrong = r.clone();
    wrong.moves = "zz9".into();
    assert!(think_for::<Nocca>(&wrong, &context, |_, _| {}, said).is_err());
    wrong.game = "another-game".into();
    assert!(think_for::<Nocca>(&wrong, &context, |_, _| {}, said).is_err());
}
