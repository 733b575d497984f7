//! Mastermind behind the one game interface: parameters in the old JSON, both roles, the old move notation, the
//! computer as codemaker's opponent, contradictions and corrections; the full-screen key tables.

use mastermind::{Feedback, Strategy, Variant, feedback};
use parlor::games::mastermind::screen::Cmd;
use parlor::games::mastermind::*;
use parlor::input::KeyCode;
use parlor::mid::game::{Game, Outcome, Purpose, Ranking, Status, Turn};
use parlor::mid::session::{Seed, Session};
use parlor::storage::{Storage, Store};
use parlor::tui::game::TuiGame;
use parlor::tui::keys::clashes;
use std::sync::atomic::AtomicBool;

fn seed(v: u64) -> Seed {
    Seed {
        value: v,
        chosen: false,
    }
}

fn maker(variant: Variant) -> Params {
    let mut p = Params::of(variant, Role::Maker);
    p.strategy = Some(Strategy::Knuth);
    p
}

#[test]
fn params_round_trip_through_json_in_the_old_format() {
    let mut p = Params::of(Variant::CLASSIC, Role::Maker);
    p.secret = Some(Variant::CLASSIC.parse_code("1 1 2 3").unwrap());
    let json = Mastermind::params_to_json(&p);
    assert_eq!(
        json,
        r#"{"variant":"classic","role":"maker","strategy":"optimal","secret":"RRGY"}"#
    );
    assert_eq!(Mastermind::params_from_json(&json).unwrap(), p);
    assert_eq!(Mastermind::variant(&p), "classic (maker)");
    let c = Params::of(
        Variant::custom(7, 3, 9, false, true).unwrap(),
        Role::Breaker,
    );
    assert_eq!(
        Mastermind::params_from_json(&Mastermind::params_to_json(&c)).unwrap(),
        c
    );
    // Written by the old version.
    let old = r#"{"variant":"custom-4-3-8-ny","role":"breaker","strategy":"knuth"}"#;
    let o = Mastermind::params_from_json(old).unwrap();
    assert_eq!(o.strategy, Some(Strategy::Knuth));
    assert_eq!(
        Mastermind::variant(&o),
        "custom 4 colours, 3 pegs, 8 guesses, no repeats in the secret"
    );
    for bad in [
        "",
        "{",
        r#"{"variant":"huge"}"#,
        r#"{"variant":"seed","strategy":"lucky"}"#,
        r#"{"variant":"seed","role":"maker","secret":"RRRR"}"#,
        r#"{"variant":"custom-10-8-20-ny","role":"maker"}"#,
    ] {
        assert!(Mastermind::params_from_json(bad).is_err(), "{bad}");
    }
}

#[test]
fn settings_make_custom_variants_and_keep_the_default_strategy() {
    let mut p = Params::default();
    assert_eq!(Mastermind::get(&p, "strategy"), "optimal");
    Mastermind::set(&mut p, "variant", "super").unwrap();
    // Issue 30: Super's default is the best tree kept in the engine (it was entropy).
    assert_eq!(Mastermind::get(&p, "strategy"), "best");
    assert!(!Mastermind::applies(&p, "colours"));
    Mastermind::set(&mut p, "colours", "7").unwrap();
    assert_eq!(Mastermind::get(&p, "variant"), "custom");
    assert!(Mastermind::applies(&p, "colours"));
    assert_eq!((p.colours, p.pegs, p.guesses), (7, 5, 12));
    assert!(Mastermind::set(&mut p, "colours", "11").is_err());
    assert!(Mastermind::set(&mut p, "guesses", "31").is_err());
    assert_eq!(p.colours, 7);
    Mastermind::set(&mut p, "strategy", "knuth").unwrap();
    assert_eq!(p.strategy, Some(Strategy::Knuth));
    Mastermind::set(&mut p, "variant", "seed").unwrap();
    assert_eq!(Mastermind::get(&p, "strategy"), "knuth");
    Mastermind::set(&mut p, "strategy", "optimal").unwrap();
    assert_eq!(p.strategy, None, "the default is not a choice");
}

#[test]
fn defect_11_check_refuses_a_codemaker_variant_too_large_for_the_computer() {
    let mut p = Params::default();
    for (k, v) in [
        ("variant", "custom"),
        ("colours", "10"),
        ("pegs", "8"),
        ("guesses", "20"),
        ("role", "maker"),
    ] {
        Mastermind::set(&mut p, k, v).unwrap();
    }
    let e = Mastermind::check(&p).unwrap_err();
    assert!(
        e.message()
            .contains("all 100,000,000 rows of 8 pegs in 10 colours (1,814,400 of them possible codes), more than its limit of 65,536"),
        "{e}"
    );
    Mastermind::set(&mut p, "role", "breaker").unwrap();
    assert!(Mastermind::check(&p).is_ok());
    assert!(!Mastermind::can_think(&p));
}

#[test]
fn defect_12_custom_variants_have_readable_names() {
    let v = Variant::custom(10, 8, 20, false, true).unwrap();
    let name = variant_name(&v);
    assert_eq!(
        name,
        "custom 10 colours, 8 pegs, 20 guesses, no repeats in the secret"
    );
    assert!(!name.contains("-ny"));
    assert_eq!(
        codes_fit(1, "every answer"),
        "1 code still fits every answer"
    );
    assert_eq!(
        codes_fit(2, "every answer"),
        "2 codes still fit every answer"
    );
}

#[test]
fn a_breaker_game_autosaves_and_resumes() {
    let mut store = Store::in_memory().unwrap();
    let mut s = Session::<Mastermind>::new(Params::default(), seed(5), &store).unwrap();
    let state = s.state().clone();
    assert!(Mastermind::parse_move(&state, "RGY").is_err());
    for t in ["RGYU", "RYOK"] {
        let mv = Mastermind::parse_move(s.state(), t).unwrap();
        s.play(mv, &mut store).unwrap();
    }
    let saved = store.unfinished(Some("mastermind")).unwrap();
    assert_eq!(saved.len(), 1);
    assert_eq!(saved[0].moves, "RGYU RYOK");
    assert_eq!(saved[0].variant, "seed");
    let r = Session::<Mastermind>::resume(&saved[0], &store).unwrap();
    assert_eq!(r.state().history(), s.state().history());
    assert_eq!(r.state().revealed(), s.state().revealed());
}

#[test]
fn a_breaker_wins_with_the_secret_and_ranks_by_fewest_guesses() {
    let p = Params::default();
    let mut st = Mastermind::new_game(&p, 9).unwrap();
    let secret = st.revealed().unwrap();
    let mv = Move::new(Play::Guess(secret), st.variant);
    Mastermind::apply(&mut st, &mv).unwrap();
    assert_eq!(Mastermind::status(&st), Status::Over(Outcome::Won));
    assert_eq!(Mastermind::score(&st), 1);
    assert_eq!(Mastermind::ranking(&p), Ranking::FewestToWin);
    assert_eq!(
        Mastermind::ending(&st, Outcome::Won),
        "You cracked the code in 1 guess"
    );
}

#[test]
fn maker_moves_print_and_parse_in_the_old_notation() {
    let p = maker(Variant::CLASSIC);
    let st = Mastermind::new_game(&p, 0).unwrap();
    for t in ["RRGG:12", "fix3:21", "code:RGYU"] {
        let mv = Mastermind::parse_move(&st, t).unwrap();
        assert_eq!(mv.to_string(), t);
    }
    for bad in ["RRGG:1", "RRGG", "RRGG:55", "fix:21", "fix0:21", "code:RG"] {
        assert!(Mastermind::parse_move(&st, bad).is_err(), "{bad}");
    }
}

#[test]
fn a_typed_code_hands_the_turn_to_the_computer_which_finds_it() {
    let p = maker(Variant::SEED);
    let mut st = Mastermind::new_game(&p, 0).unwrap();
    assert_eq!(Mastermind::status(&st), Status::Playing(Turn::Player));
    let code = Variant::SEED.parse_secret("KOGR").unwrap();
    Mastermind::apply(&mut st, &Move::new(Play::Secret(code), Variant::SEED)).unwrap();
    assert_eq!(Mastermind::status(&st), Status::Playing(Turn::Computer));
    let stop = AtomicBool::new(false);
    let mut n = 0;
    while Mastermind::status(&st) == Status::Playing(Turn::Computer) {
        let mv = Mastermind::think(&mut Default::default(), &st, Purpose::Opponent, &stop).unwrap();
        Mastermind::apply(&mut st, &mv).unwrap();
        n += 1;
        assert!(n <= 8);
    }
    assert_eq!(Mastermind::status(&st), Status::Over(Outcome::Done));
    assert_eq!(st.revealed(), Some(code));
    assert!(Mastermind::ending(&st, Outcome::Done).starts_with("The computer found your code in"));
    assert_eq!(Mastermind::ranking(&p), Ranking::Unranked);
    // A wrong answer to a typed code is refused.
    let mut st = Mastermind::new_game(&p, 0).unwrap();
    Mastermind::apply(&mut st, &Move::new(Play::Secret(code), Variant::SEED)).unwrap();
    let g = st.next_guess().unwrap();
    let right = feedback(code, g);
    let answer = Feedback::new((right.black + 1) % 3, 0, 4).unwrap();
    let wrong = Move::new(Play::Answer { guess: g, answer }, Variant::SEED);
    assert!(Mastermind::apply(&mut st, &wrong).is_err());
}

#[test]
fn contradictions_are_refused_and_named_and_a_fix_is_a_move() {
    let v = Variant::CLASSIC;
    let p = maker(v);
    let a = |t: &str| Mastermind::parse_move(&Mastermind::new_game(&p, 0).unwrap(), t).unwrap();
    let mut st = Mastermind::new_game(&p, 0).unwrap();
    Mastermind::apply(&mut st, &a("RRGG:00")).unwrap();
    let bad = a("RRYY:30");
    let suspects = contradiction(&st, &bad).unwrap();
    assert_eq!(suspects, vec![0]);
    let e = Mastermind::apply(&mut st, &bad).unwrap_err();
    assert!(
        e.message().contains("would fit if answer 1 were wrong"),
        "{e}"
    );
    assert_eq!(st.history().len(), 1);
    Mastermind::apply(&mut st, &a("fix1:10")).unwrap();
    Mastermind::apply(&mut st, &a("RRYY:30")).unwrap();
    assert_eq!(st.history().len(), 2);
    assert_eq!(Mastermind::moves_made(&st), 2);
    assert_eq!(
        Mastermind::status(&st),
        Status::Playing(Turn::Player),
        "answered by hand"
    );
}

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
fn key_tables_bind_no_key_twice_nor_a_common_key() {
    for role in [Role::Breaker, Role::Maker] {
        let table = Mastermind::bindings(&Params::of(Variant::CLASSIC, role));
        assert!(clashes(table).is_empty());
        for b in table {
            for k in b.keys {
                assert!(!COMMON.contains(k), "{k:?} is a key of the play screen");
            }
        }
    }
}

#[test]
fn defect_1_up_and_down_are_bound_once_in_the_codemaker_table() {
    let maker = Mastermind::bindings(&Params::of(Variant::CLASSIC, Role::Maker));
    let up: Vec<_> = maker
        .iter()
        .filter(|b| b.keys.contains(&KeyCode::Up))
        .collect();
    assert_eq!(up.len(), 1);
    assert_eq!(up[0].cmd, Cmd::Up);
    let down: Vec<_> = maker
        .iter()
        .filter(|b| b.keys.contains(&KeyCode::Down))
        .collect();
    assert_eq!(down.len(), 1);
    assert_eq!(down[0].cmd, Cmd::Down);
}

#[test]
fn records_written_by_the_old_version_still_load() {
    use parlor::mid::session::rebuild;
    // Codebreaker: compact symbols, the secret from the seed.
    let v = Variant::CLASSIC;
    let secret = mastermind::secret_from_seed(&v, 8);
    let moves = format!("RRGG {}", symbols(&v, &secret));
    let r = rebuild::<Mastermind>(
        "mastermind",
        r#"{"variant":"classic","role":"breaker","strategy":"optimal"}"#,
        8,
        &moves,
    )
    .unwrap();
    assert_eq!(Mastermind::status(&r.state), Status::Over(Outcome::Won));
    // Codemaker answered by hand (seed 0), and with a typed code kept in the options.
    let maker = r#"{"variant":"classic","role":"maker","strategy":"knuth"}"#;
    let r = rebuild::<Mastermind>("mastermind", maker, 0, "RRGG:10 RRYU:30").unwrap();
    assert_eq!(r.state.history().len(), 2);
    assert_eq!(Mastermind::status(&r.state), Status::Playing(Turn::Player));
    let typed = r#"{"variant":"seed","role":"maker","strategy":"knuth","secret":"KOGR"}"#;
    let code = Variant::SEED.parse_secret("KOGR").unwrap();
    let g = Variant::SEED.parse_pegs("RGYU").unwrap();
    let fb = feedback(code, g);
    let r = rebuild::<Mastermind>(
        "mastermind",
        typed,
        0,
        &format!("RGYU:{}{}", fb.black, fb.white),
    )
    .unwrap();
    assert_eq!(
        Mastermind::status(&r.state),
        Status::Playing(Turn::Computer)
    );
    // An answer the typed code does not give is damage, not a panic.
    assert!(rebuild::<Mastermind>("mastermind", typed, 0, "RGYU:40").is_err());
    assert!(rebuild::<Mastermind>("mastermind", maker, 0, "RRGG:1x").is_err());
}

/// A small deterministic generator (SplitMix64) for the randomised checks below.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[test]
fn random_games_print_parse_and_replay_identically_in_both_roles() {
    let stop = AtomicBool::new(false);
    let mut rng = 7u64;
    for (variant, strategy) in [
        (Variant::SEED, Strategy::Knuth),
        (Variant::CLASSIC, Strategy::Entropy),
        (
            Variant::custom(4, 3, 6, false, true).unwrap(),
            Strategy::MostParts,
        ),
    ] {
        for _ in 0..20 {
            // Codebreaker: random guesses until the game ends; every move prints and parses back.
            let p = Params::of(variant, Role::Breaker);
            let seed = next(&mut rng);
            let mut st = Mastermind::new_game(&p, seed).unwrap();
            let mut text = Vec::new();
            while Mastermind::status(&st) == Status::Playing(Turn::Player) {
                let pegs: Vec<u8> = (0..variant.pegs())
                    .map(|_| (next(&mut rng) % u64::from(variant.colours())) as u8)
                    .collect();
                let code = mastermind::Code::from_pegs(&pegs).unwrap();
                let mv = Move::new(Play::Guess(code), variant);
                assert_eq!(Mastermind::parse_move(&st, &mv.to_string()).unwrap(), mv);
                if Mastermind::apply(&mut st, &mv).is_ok() {
                    text.push(mv.to_string());
                }
            }
            let again = parlor::mid::session::rebuild::<Mastermind>(
                "mastermind",
                &Mastermind::params_to_json(&p),
                seed,
                &text.join(" "),
            )
            .unwrap();
            assert_eq!(again.state.history(), st.history());
            // Codemaker with a typed code: the computer always ends the game, within the guesses allowed.
            let mut p = Params::of(variant, Role::Maker);
            p.strategy = Some(strategy);
            let mut st = Mastermind::new_game(&p, 0).unwrap();
            let secret = st.revealed();
            assert!(secret.is_none());
            let code = mastermind::secret_from_seed(&variant, next(&mut rng));
            Mastermind::apply(&mut st, &Move::new(Play::Secret(code), variant)).unwrap();
            while Mastermind::status(&st) == Status::Playing(Turn::Computer) {
                let mv = Mastermind::think(&mut Default::default(), &st, Purpose::Opponent, &stop)
                    .unwrap();
                assert_eq!(Mastermind::parse_move(&st, &mv.to_string()).unwrap(), mv);
                Mastermind::apply(&mut st, &mv).unwrap();
            }
            assert_eq!(Mastermind::status(&st), Status::Over(Outcome::Done));
            assert!(st.found() || st.out_of_guesses());
            assert!(st.history().len() <= variant.guesses() as usize);
            if st.found() {
                assert_eq!(st.revealed(), Some(code));
            }
        }
    }
}
