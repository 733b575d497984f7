//! Nocca Nocca behind the game interface: parameters and their old JSON, variants, undo, results, refusals, the
//! board's layouts and the key table (issue 9, defect 8), and the best scores after a loss (defect 5).

use crate::common::*;
use nocca::{Colour, Dims, Dir, Level, Move, Position};
use parlor::games::nocca::board::{CELL_W, Layout, MARGIN, Marks, digit};
use parlor::games::nocca::screen::bindings;
use parlor::games::nocca::{Mode, Nocca, Params};
use parlor::input::KeyCode;
use parlor::mid::error::Error;
use parlor::mid::game::{Game, Outcome, Status, Turn};
use parlor::mid::session::{Seed, Session};
use parlor::storage::{Storage, Store};
use parlor::tui::keys::clashes;
use parlor::tui::theme::Theme;

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn seed(v: u64) -> Seed {
    Seed {
        value: v,
        chosen: false,
    }
}

/// A game that Black wins in the goal after 11 plies.
const GOAL_GAME: &str = "c1k c6j c2k c5h c3k b5j c4k a6n c5k e6j c6k";

#[test]
fn params_read_the_old_json_and_write_it_unchanged_on_the_standard_board() {
    let old = r#"{"mode":"computer","level":"expert","human":"white","first":"white"}"#;
    let p = Nocca::params_from_json(old).unwrap();
    assert_eq!(p.board, Dims::STANDARD);
    assert_eq!(p.level, Level::Expert);
    assert_eq!(Nocca::params_to_json(&p), old);
    assert_eq!(Nocca::variant(&p), "vs expert");
    let small = Params {
        board: Dims::new(4, 4).unwrap(),
        ..p
    };
    let j = Nocca::params_to_json(&small);
    assert!(j.contains(r#""board":"4x4""#), "{j}");
    assert_eq!(Nocca::params_from_json(&j).unwrap(), small);
    assert_eq!(Nocca::variant(&small), "vs expert 4x4");
    let two = Params {
        mode: Mode::Two,
        board: Dims::new(3, 5).unwrap(),
        ..p
    };
    assert_eq!(Nocca::variant(&two), "two players 3x5");
    assert!(Nocca::params_from_json(&old.replace("expert", "god")).is_err());
    assert!(Nocca::params_from_json(&j.replace("4x4", "9x9")).is_err());
    assert!(Nocca::params_from_json("{").is_err());
    assert!(Nocca::params_from_json("[]").is_err());
}

#[test]
fn settings_refuse_values_out_of_range_and_leave_the_params_alone() {
    let mut p = Params::default();
    for (k, v) in [
        ("board", "7x5"),
        ("board", "2x3"),
        ("board", "x"),
        ("level", "god"),
        ("mode", "three"),
        ("colour", "red"),
        ("nothing", "1"),
    ] {
        assert!(Nocca::set(&mut p, k, v).is_err(), "{k}={v}");
    }
    assert_eq!(p, Params::default());
    Nocca::set(&mut p, "board", "3x4").unwrap();
    Nocca::set(&mut p, "colour", "White").unwrap();
    assert_eq!(Nocca::get(&p, "board"), "3x4");
    assert_eq!(p.human, Colour::White);
    // Every default value is one of its setting's values, and every board of the engine is offered.
    for s in Nocca::settings() {
        let v = Nocca::get(&Params::default(), s.key);
        assert!(s.check(&v).is_ok(), "{}: {v}", s.key);
    }
    let board = Nocca::settings().iter().find(|s| s.key == "board").unwrap();
    for r in 3..=6 {
        for c in 3..=5 {
            let mut q = Params::default();
            Nocca::set(&mut q, "board", &format!("{r}x{c}")).unwrap();
            assert_eq!(q.board, Dims::new(r, c).unwrap());
        }
    }
    assert_eq!(board.range().split(", ").count(), 12);
    // The level applies to the computer only, the colour against it only.
    let two = Params {
        mode: Mode::Two,
        ..Params::default()
    };
    assert!(!Nocca::applies(&two, "level") && !Nocca::applies(&two, "colour"));
    assert!(Nocca::applies(&Params::default(), "colour"));
}

#[test]
fn undo_against_the_computer_takes_back_a_pair_and_resume_rebuilds() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::<Nocca>::new(Params::default(), seed(5), &store).unwrap();
    assert!(s.undo(&mut store).is_err());
    for m in ["c1k", "c6j", "a1k", "a6j"] {
        s.play(mv(m), &mut store).unwrap();
    }
    assert_eq!(s.undo(&mut store), Ok(2));
    assert_eq!(s.state().game.record(), "c1k c6j");
    assert!(s.assisted());
    let saved = store.unfinished(Some("nocca")).unwrap();
    assert_eq!(saved[0].moves, "c1k c6j");
    assert_eq!(saved[0].score, 2);
    let r = Session::<Nocca>::resume(&saved[0], &store).unwrap();
    assert_eq!(r.state().position(), s.state().position());
    assert!(r.assisted());
    // Defect 5: the Continue line counts plies and says whose turn it is.
    assert_eq!(Nocca::progress(r.state()), "ply 2 · Black to move");
}

#[test]
fn undo_depth_follows_whose_turn_it_is() {
    let computer_first = Params {
        first: Colour::White,
        ..Params::default()
    };
    let mut st = Nocca::new_game(&computer_first, 1).unwrap();
    assert_eq!(Nocca::status(&st), Status::Playing(Turn::Computer));
    Nocca::apply(&mut st, &mv("c6j")).unwrap();
    assert_eq!(Nocca::status(&st), Status::Playing(Turn::Player));
    assert_eq!(Nocca::undo_depth(&st, 1), 0, "only the computer moved");
    Nocca::apply(&mut st, &mv("c1k")).unwrap();
    assert_eq!(Nocca::undo_depth(&st, 2), 1, "the computer is to answer");
    Nocca::apply(&mut st, &mv("c5j")).unwrap();
    assert_eq!(Nocca::undo_depth(&st, 3), 2);
    let watch = Params {
        mode: Mode::Watch,
        ..Params::default()
    };
    let mut w = Nocca::new_game(&watch, 1).unwrap();
    assert_eq!(Nocca::status(&w), Status::Playing(Turn::Computer));
    Nocca::apply(&mut w, &mv("c1k")).unwrap();
    assert_eq!(Nocca::undo_depth(&w, 1), 0);
    assert!(!Nocca::can_think(&watch) && !Nocca::can_autoplay(&watch));
    let two = Params {
        mode: Mode::Two,
        ..Params::default()
    };
    let mut t = Nocca::new_game(&two, 1).unwrap();
    Nocca::apply(&mut t, &mv("c1k")).unwrap();
    assert_eq!(Nocca::status(&t), Status::Playing(Turn::Player));
    assert_eq!(Nocca::undo_depth(&t, 1), 1);
}

fn played(p: &Params) -> parlor::games::nocca::State {
    let mut st = Nocca::new_game(p, 1).unwrap();
    let list = Nocca::parse_moves(&st, GOAL_GAME).unwrap();
    for m in &list {
        Nocca::apply(&mut st, m).unwrap();
    }
    st
}

#[test]
fn a_goal_is_won_or_lost_against_the_computer_and_done_between_two_players() {
    let two = played(&Params {
        mode: Mode::Two,
        ..Params::default()
    });
    assert_eq!(Nocca::status(&two), Status::Over(Outcome::Done));
    assert_eq!(
        Nocca::ending(&two, Outcome::Done),
        "Black reached the goal in 11 plies"
    );
    assert_eq!(Nocca::score(&two), 11);
    let watch = played(&Params {
        mode: Mode::Watch,
        ..Params::default()
    });
    assert_eq!(Nocca::status(&watch), Status::Over(Outcome::Done));
    let vs = played(&Params::default());
    assert_eq!(Nocca::status(&vs), Status::Over(Outcome::Won));
    assert_eq!(
        Nocca::ending(&vs, Outcome::Won),
        "Black reached the goal in 11 plies: you won!"
    );
    let as_white = played(&Params {
        human: Colour::White,
        ..Params::default()
    });
    assert_eq!(Nocca::status(&as_white), Status::Over(Outcome::Lost));
    assert_eq!(
        Nocca::ending(&as_white, Outcome::Lost),
        "Black reached the goal in 11 plies: you lost"
    );
    let start = Nocca::new_game(&Params::default(), 1).unwrap();
    assert_eq!(
        Nocca::ending(&start, Outcome::GaveUp),
        "Given up after 0 plies"
    );
    // Between two players, the one to move gave up: the ending names them.
    let two = Nocca::new_game(
        &Params {
            mode: Mode::Two,
            ..Params::default()
        },
        1,
    )
    .unwrap();
    assert_eq!(
        Nocca::ending(&two, Outcome::GaveUp),
        "Black gave up after 0 plies"
    );
}

#[test]
fn refused_moves_say_why_and_leave_the_state_alone() {
    let mut st = Nocca::new_game(&Params::default(), 1).unwrap();
    assert!(Nocca::parse_move(&st, "zz").is_err());
    assert!(Nocca::parse_move(&st, "").is_err());
    assert_eq!(
        Nocca::apply(&mut st, &mv("c3k")).unwrap_err(),
        Error::Move("c3 is empty".into())
    );
    assert_eq!(
        Nocca::apply(&mut st, &mv("c6j")).unwrap_err(),
        Error::Move("the piece on c6 is white's".into())
    );
    assert_eq!(
        Nocca::apply(&mut st, &mv("a1h")).unwrap_err(),
        Error::Move("a1h would leave the board over the side edge".into())
    );
    assert_eq!(st.game.ply(), 0);
    let small = Params {
        board: Dims::new(3, 3).unwrap(),
        ..Params::default()
    };
    let st3 = Nocca::new_game(&small, 1).unwrap();
    assert!(
        Nocca::parse_move(&st3, "e1k")
            .unwrap_err()
            .message()
            .contains("not on the 3x3 board")
    );
    // The from-to form reads as the same move.
    assert_eq!(Nocca::parse_move(&st, "c1-c2").unwrap(), mv("c1k"));
}

#[test]
fn the_computer_answers_with_a_legal_move_and_a_hint_is_one_too() {
    let p = Params {
        level: Level::Beginner.into(),
        first: Colour::White,
        board: Dims::new(4, 4).unwrap(),
        ..Params::default()
    };
    let st = Nocca::new_game(&p, 3).unwrap();
    let mut t = Nocca::thinker(&p, &Default::default());
    let stop = std::sync::atomic::AtomicBool::new(false);
    use parlor::mid::game::Purpose;
    let m = Nocca::think(&mut t, &st, Purpose::Opponent, &stop).unwrap();
    assert!(st.position().is_legal(m), "{m}");
    let h = Nocca::think(&mut t, &st, Purpose::Hint, &stop).unwrap();
    assert!(st.position().is_legal(h), "{h}");
}

#[test]
fn hits_find_the_squares_and_goals_of_both_layouts() {
    let d = Dims::STANDARD;
    for layout in [Layout::compact(d), Layout::fitting(d, 100)] {
        let (_, h) = layout.size();
        let x = MARGIN + 1 + 2 * (CELL_W + 1) + 2; // inside column c
        assert_eq!(layout.hit(x, 0), Some((6, 2)));
        assert_eq!(layout.hit(x, h - 1), Some((-1, 2)));
        assert_eq!(layout.hit(x, 2), Some((5, 2)), "the top row");
        assert_eq!(layout.hit(x, 1), None, "the top rule");
        assert_eq!(layout.hit(1, 2), None, "the row numbers");
        let pos = Position::start(d);
        assert_eq!(
            layout.lines(&pos, &Marks::default(), &Theme::MONO).len(),
            h as usize
        );
    }
    let full = Layout::fitting(d, 100);
    let x = MARGIN + 1;
    assert_eq!(full.hit(x, 12), Some((0, 0)), "row 1 of the full board");
    assert_eq!(Layout::compact(d).hit(x, 7), Some((0, 0)));
    assert_eq!(Layout::fitting(d, 15), Layout::compact(d));
}

#[test]
fn digits_follow_a_number_pad() {
    for d in Dir::ALL {
        let (dr, dc) = d.delta();
        let n = digit(d).to_digit(10).unwrap() as i32;
        // Number-pad rows: 7 8 9 on top (up), 1 2 3 at the bottom (down).
        assert_eq!((n - 1) / 3 - 1, dr, "{d}");
        assert_eq!((n - 1) % 3 - 1, dc, "{d}");
    }
}

/// Every key of the play screen's common table (see `tui::play`).
const COMMON: &[KeyCode] = &[
    KeyCode::Char('u'),
    KeyCode::Char('t'),
    KeyCode::Char('p'),
    KeyCode::Char('+'),
    KeyCode::Char('='),
    KeyCode::Char('-'),
    KeyCode::Char('x'),
    KeyCode::Char('r'),
    KeyCode::Char('q'),
    KeyCode::Char('Q'),
    KeyCode::Esc,
    KeyCode::Char('?'),
];

#[test]
fn no_key_is_bound_twice_nor_taken_from_the_common_table() {
    // Issue 9, defect 8: `u` was both undo and a diagonal step, and Esc did not quit.
    for mode in [Mode::Two, Mode::Computer, Mode::Watch] {
        let table = bindings(&Params {
            mode,
            ..Params::default()
        });
        assert!(clashes(table).is_empty(), "{mode:?}: {:?}", clashes(table));
        for b in table {
            for k in b.keys {
                assert!(!COMMON.contains(k), "{k:?} is a common key");
            }
        }
    }
}

#[test]
fn scores_list_the_variant_after_an_unassisted_loss() {
    // Issue 9, defect 5: `parlor scores --game nocca` said "no unassisted game" after an unassisted loss.
    let dir = tempfile::tempdir().unwrap();
    {
        let mut store = Store::open(dir.path()).unwrap().store;
        let as_white = Params {
            human: Colour::White,
            ..Params::default()
        };
        let mut s = Session::<Nocca>::new(as_white, seed(9), &store).unwrap();
        for m in GOAL_GAME.split(' ') {
            s.play(mv(m), &mut store).unwrap();
        }
        let end = s.ended().unwrap();
        assert_eq!(end.outcome, Outcome::Lost);
        assert_eq!(end.unranked, Some("only wins rank"));
        assert!(!s.assisted());
    }
    let o = run(dir.path(), &["scores", "--game", "nocca"], "");
    let text = out(&o);
    assert!(o.status.success(), "{}", err(&o));
    assert!(text.contains("Nocca Nocca vs casual"), "{text}");
    assert!(!text.contains("no unassisted game"), "{text}");
    assert!(text.contains("lost games stay out"), "{text}");
    let h = run(dir.path(), &["history", "--json"], "");
    let v: serde_json::Value = serde_json::from_str(&out(&h)).unwrap();
    assert_eq!(v[0]["result"], "lost");
    assert_eq!(v[0]["score"], 11);
    assert_eq!(v[0]["assisted"], false);
}

#[test]
fn an_unassisted_win_against_the_computer_ranks_by_fewest_plies() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::<Nocca>::new(Params::default(), seed(1), &store).unwrap();
    for m in GOAL_GAME.split(' ') {
        s.play(mv(m), &mut store).unwrap();
    }
    let end = s.ended().unwrap().clone();
    assert_eq!(end.outcome, Outcome::Won);
    assert_eq!(end.rank, Some(1));
    assert_eq!(end.text, "Black reached the goal in 11 plies: you won!");
    let rec = store.game(end.id.unwrap()).unwrap().unwrap();
    assert_eq!(rec.variant, "vs casual");
    assert_eq!(rec.score, 11);
    assert!(store.unfinished(None).unwrap().is_empty());
    assert_eq!(Nocca::progress(s.state()), "ply 11 · Black wins by goal");
}

#[test]
fn odd_text_is_refused_with_a_reason_never_a_panic() {
    use parlor::plain::game::{Parsed, PlainGame};
    let st = Nocca::new_game(&Params::default(), 1).unwrap();
    let odd = [
        "",
        " ",
        "-",
        "c",
        "c1",
        "ä1k",
        "c1-",
        "c1--c2",
        "zz9",
        "c1-c9",
        "c1 ☃",
        "k",
        "u",
        "c1 kk",
        "a0k",
        "f1k",
        "c1-a3",
        "\u{0}",
        &"x".repeat(5000),
    ];
    for text in odd {
        let _ = Nocca::parse_move(&st, text);
        for partial in [None, Some("c1"), Some("zz"), Some("")] {
            match Nocca::read(&st, text, partial) {
                Parsed::Refused(why) => assert!(!why.is_empty(), "{text:?}"),
                Parsed::Ask(q) => assert!(q.contains("which direction?"), "{text:?}"),
                Parsed::Move(m) => assert!(st.position().is_legal(m), "{text:?}"),
            }
        }
    }
    assert!(Nocca::parse_moves(&st, "c1k c1k").is_err());
    assert_eq!(Nocca::parse_moves(&st, " c1k  c6j ").unwrap().len(), 2);
    assert_eq!(Nocca::read(&st, "k", Some("c1")), Parsed::Move(mv("c1k")));
    assert_eq!(Nocca::read(&st, "d2", Some("c1")), Parsed::Move(mv("c1u")));
    assert_eq!(Nocca::read(&st, "C1 K", None), Parsed::Move(mv("c1k")));
}

#[test]
fn a_record_written_by_the_old_parlor_replays() {
    use parlor::mid::record::Replay;
    use parlor::storage::GameRecord;
    let record = GameRecord {
        id: 7,
        game: "nocca".into(),
        variant: "vs strong".into(),
        options: r#"{"mode":"computer","level":"strong","human":"white","first":"black"}"#.into(),
        seed: 42,
        moves: GOAL_GAME.into(),
        score: 11,
        result: Outcome::Lost,
        assisted: false,
        seeded: false,
        practice: false,
        started_at: 0,
        ended_at: 0,
    };
    let mut replay = Replay::<Nocca>::new(&record).unwrap();
    assert_eq!(replay.len(), 11);
    assert_eq!(replay.params.level, Level::Strong);
    let end = replay.position(11).clone();
    assert_eq!(Nocca::status(&end), Status::Over(Outcome::Lost));
    let damaged = GameRecord {
        moves: "c1k c1k".into(),
        ..record.clone()
    };
    assert!(Replay::<Nocca>::new(&damaged).is_err());
    let bad_options = GameRecord {
        options: "{".into(),
        ..record
    };
    assert!(Replay::<Nocca>::new(&bad_options).is_err());
}
