//! The play screen thinking elsewhere (issue 27, step 6): with a place to think installed (the browser's worker),
//! the computer's thinking leaves as a request of data, the answer comes back as a move in notation, and an answer
//! to a position since changed is dropped.

use crate::common::app::{app, press, screen, session};
use nocca::Move;
use parlor::games::nocca::{Nocca, Params, Tables};
use parlor::input::KeyCode;
use parlor::mid::elsewhere::{Answer, Elsewhere, Request, think_for};
use parlor::mid::game::Purpose;
use parlor::mid::session::Session;
use parlor::storage::Store;
use parlor::tui::game::TuiGame;
use parlor::tui::menu::MenuView;
use parlor::tui::play::PlayView;
use std::collections::HashMap;
use std::sync::Mutex;

/// A worker in the test's own thread: it keeps the requests (as the JSON that crosses), answers them when told,
/// and notes the requests forgotten. It answers a forgotten request anyway, as a worker busy with it would.
#[derive(Default)]
struct Worker {
    asked: Mutex<Vec<String>>,
    answers: Mutex<HashMap<u64, Answer>>,
    forgotten: Mutex<Vec<u64>>,
    tables: Tables,
}

impl Elsewhere for Worker {
    fn ask(&self, request: &Request) -> bool {
        self.asked.lock().unwrap().push(request.to_json());
        true
    }

    fn answer(&self, id: u64) -> Option<Answer> {
        self.answers.lock().unwrap().remove(&id)
    }

    fn forget(&self, id: u64) {
        self.forgotten.lock().unwrap().push(id);
    }
}

impl Worker {
    /// Answers every request asked so far (as the page's worker does: read from JSON, replayed, thought).
    fn serve(&self) -> Vec<Request> {
        let asked: Vec<String> = self.asked.lock().unwrap().drain(..).collect();
        let mut served = vec![];
        for text in asked {
            let r = Request::from_json(&text).unwrap();
            // The worker's own tables (the screen's are not asked): a hint's words are said over them.
            let answer = think_for::<Nocca>(&r, &self.tables, |_, _| {}, Nocca::hint_text)
                .map_err(|e| e.to_string());
            self.answers.lock().unwrap().insert(r.id, answer);
            served.push(r);
        }
        served
    }
}

fn worker() -> &'static Worker {
    Box::leak(Box::new(Worker::default()))
}

fn app_with(session: Session<Nocca>, store: Store, by: &'static Worker) -> parlor::tui::app::App {
    app(
        vec![
            Box::new(MenuView::new(None)),
            Box::new(PlayView::new(session).thinking_elsewhere(Some(by))),
        ],
        store,
    )
}

#[test]
fn the_computer_answers_through_the_worker_and_the_screen_waits_for_it() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Nocca>(Params::default(), 5, &store);
    s.play("c1k".parse::<Move>().unwrap(), &mut store).unwrap();
    let by = worker();
    let mut app = app_with(s, store, by);
    app.tick();
    // Asked, not answered: the screen says the computer thinks, and keeps answering keys meanwhile.
    let screen1 = screen(&mut app, 80, 24);
    assert!(screen1.contains("computer thinking"), "{screen1}");
    press(&mut app, KeyCode::Char('?'));
    press(&mut app, KeyCode::Esc);
    let served = by.serve();
    assert_eq!(served.len(), 1);
    assert_eq!(
        (served[0].game.as_str(), served[0].moves.as_str()),
        ("nocca", "c1k")
    );
    assert_eq!(served[0].purpose, Purpose::Opponent);
    app.tick();
    let after = screen(&mut app, 80, 24);
    assert!(after.contains("the computer played"), "{after}");
    assert!(!after.contains("computer thinking"), "{after}");
    assert!(
        by.asked.lock().unwrap().is_empty(),
        "nothing more to ask on the player's turn"
    );
}

#[test]
fn an_answer_to_a_position_since_taken_back_is_dropped() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Nocca>(Params::default(), 5, &store);
    for m in ["c1k", "c6j"] {
        s.play(m.parse::<Move>().unwrap(), &mut store).unwrap();
    }
    let by = worker();
    let mut app = app_with(s, store, by);
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(by.asked.lock().unwrap().len(), 1, "the hint is asked");
    press(&mut app, KeyCode::Char('u'));
    let taken = screen(&mut app, 80, 24);
    assert!(taken.contains("undo: took back"), "{taken}");
    // The undo forgot the request; its answer still comes (the worker was busy with it) and is dropped.
    let served = by.serve();
    assert_eq!(by.forgotten.lock().unwrap().as_slice(), &[served[0].id]);
    assert!(by.answers.lock().unwrap().contains_key(&served[0].id));
    app.tick();
    let s = screen(&mut app, 80, 24);
    assert!(!s.contains("hint:"), "{s}");
    assert!(s.contains("undo: took back"), "{s}");
}

#[test]
fn a_hint_comes_back_as_the_move_thought_on_the_same_position() {
    let mut store = Store::in_memory().unwrap();
    let mut s = session::<Nocca>(Params::default(), 5, &store);
    for m in ["c1k", "c6j"] {
        s.play(m.parse::<Move>().unwrap(), &mut store).unwrap();
    }
    let by = worker();
    let mut app = app_with(s, store, by);
    press(&mut app, KeyCode::Char('t'));
    let served = by.serve();
    assert_eq!(served[0].purpose, Purpose::Hint);
    assert_eq!(served[0].moves, "c1k c6j");
    app.tick();
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("hint:"), "{s}");
}

#[test]
fn a_hint_is_said_in_the_workers_words_from_the_workers_table() {
    // On 3x3 the worker solves its own table; the screen's context never holds it, yet the hint shows the exact
    // value, as the terminal's does.
    let store = Store::in_memory().unwrap();
    let params = Params {
        board: "3x3".parse().unwrap(),
        ..Params::default()
    };
    let s = session::<Nocca>(params, 5, &store);
    assert!(s.context().ready(params.board).is_none());
    let by = worker();
    let mut app = app_with(s, store, by);
    press(&mut app, KeyCode::Char('t'));
    let served = by.serve();
    assert_eq!(served[0].purpose, Purpose::Hint);
    app.tick();
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("hint:"), "{s}");
    assert!(s.contains("(exact)"), "{s}");
}
