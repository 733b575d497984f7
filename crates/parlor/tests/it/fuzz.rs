//! Fuzz targets (issue 10): every parser, resuming a saved game from arbitrary text, and the plain play loop fed
//! arbitrary bytes. Inputs come from a seeded ChaCha generator (mutations of valid texts, random tokens, random
//! bytes), so a failure names its input and reproduces.
//!
//! The budget is `PARLOR_FUZZ_INPUTS` inputs per target (a small default, so the test command stays quick); the long
//! campaign is `PARLOR_FUZZ_INPUTS=100000 cargo test --release -p parlor --test it -- fuzz:: --nocapture`, which
//! prints how many inputs each target ran. `PARLOR_FUZZ_SEED` changes the generator's seed.

use parlor::games::mastermind::Mastermind;
use parlor::games::nocca::Nocca;
use parlor::games::twenty48::Twenty48;
use parlor::mid::game::{Game, Purpose};
use parlor::mid::session::{Session, rebuild};
use parlor::storage::{Storage, Store, Unfinished};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

/// Inputs per target.
fn budget(default: u64) -> u64 {
    std::env::var("PARLOR_FUZZ_INPUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn rng(target: &str) -> ChaCha8Rng {
    let seed: u64 = std::env::var("PARLOR_FUZZ_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    // One stream per target, so targets do not share inputs.
    r.set_stream(
        target
            .bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))),
    );
    r
}

/// Runs `f` on `n` inputs from `make`; a panic fails the test naming the input.
fn fuzz<T: std::fmt::Debug>(
    target: &str,
    n: u64,
    mut make: impl FnMut(&mut ChaCha8Rng) -> T,
    mut f: impl FnMut(&T),
) {
    let mut r = rng(target);
    for i in 0..n {
        let input = make(&mut r);
        if catch_unwind(AssertUnwindSafe(|| f(&input))).is_err() {
            panic!("{target}: input {i} panicked: {input:?}");
        }
    }
    eprintln!("fuzz target {target}: {n} inputs, no panic");
}

fn below(r: &mut ChaCha8Rng, n: usize) -> usize {
    (r.next_u64() % n.max(1) as u64) as usize
}

/// Pieces that parsers meet: separators, signs, huge and odd numbers, letters of every game, Unicode.
const TOKENS: &[&str] = &[
    "",
    " ",
    "  ",
    ",",
    "/",
    ":",
    "-",
    "+",
    "x",
    ".",
    "\t",
    "\u{0}",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "16",
    "64",
    "99",
    "255",
    "256",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "-9223372036854775808",
    "1e309",
    "NaN",
    "inf",
    "0.5",
    "1.0",
    "L",
    "R",
    "U",
    "D",
    "l",
    "r",
    "u",
    "d",
    "left",
    "up",
    "w",
    "a",
    "s",
    "h",
    "j",
    "k",
    "RGYB",
    "RRGG",
    "1234",
    "0123",
    "code:",
    "code:RGYU",
    "a1",
    "b1u",
    "c5y",
    "e6",
    "f1n",
    "z9",
    "b",
    "bb",
    "w",
    "ww",
    "bw",
    "-,-,-",
    "/",
    "true",
    "false",
    "null",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "{}",
    "{\"size\":4}",
    "{\"size\":99}",
    "{\"target\":2048}",
    "é",
    "ß",
    "日本",
    "🂡",
    "\u{202e}",
    "\u{fffd}",
];

/// Random tokens joined.
fn tokens(r: &mut ChaCha8Rng) -> String {
    let n = below(r, 8);
    (0..n)
        .map(|_| TOKENS[below(r, TOKENS.len())])
        .collect::<Vec<_>>()
        .join(if below(r, 2) == 0 { "" } else { " " })
}

/// `valid` with one to four random edits: cut, insert a token or a byte, duplicate, swap, change a character.
fn mutate(r: &mut ChaCha8Rng, valid: &str) -> String {
    let mut chars: Vec<char> = valid.chars().collect();
    for _ in 0..1 + below(r, 4) {
        let at = below(r, chars.len() + 1);
        match below(r, 6) {
            0 if !chars.is_empty() => {
                let end = (at + below(r, 8)).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 => {
                let t = TOKENS[below(r, TOKENS.len())];
                chars.splice(at..at, t.chars());
            }
            2 => chars.insert(at, char::from_u32(below(r, 0x3000) as u32).unwrap_or('?')),
            3 if !chars.is_empty() => {
                let from = below(r, chars.len());
                let end = (from + below(r, 12)).min(chars.len());
                let piece: Vec<char> = chars[from..end].to_vec();
                chars.splice(at..at, piece);
            }
            4 if chars.len() > 1 => {
                let b = below(r, chars.len());
                let a = at.min(chars.len() - 1);
                chars.swap(a, b);
            }
            _ if !chars.is_empty() => {
                let i = at.min(chars.len() - 1);
                chars[i] =
                    char::from(b"0123456789,/-: abcdefghijklmnopqrstuvwxyzRGYBUOKW"[below(r, 48)]);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// A text for a parser: a mutated valid one most of the time, else random tokens or random bytes made text.
fn text(r: &mut ChaCha8Rng, valid: &[String]) -> String {
    match below(r, 10) {
        0..=5 if !valid.is_empty() => {
            let i = below(r, valid.len());
            mutate(r, &valid[i])
        }
        6..=7 => tokens(r),
        _ => {
            let bytes: Vec<u8> = (0..below(r, 40)).map(|_| r.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

/// Moves of a game played by its own computer player from `params` and `seed`, `n` at most (valid move texts to
/// mutate), with the position before them. Computed once per game, parameters and seed for every target.
fn played<G: Game>(params: &G::Params, seed: u64, n: usize) -> (G::State, Vec<String>) {
    static CACHE: Mutex<BTreeMap<String, Vec<String>>> = Mutex::new(BTreeMap::new());
    let start = G::new_game(params, seed).expect("a valid game");
    let key = format!("{} {} {seed} {n}", G::ID, G::params_to_json(params));
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let moves = cache.entry(key).or_insert_with(|| {
        let mut state = start.clone();
        let mut thinker = G::thinker(params, &Default::default());
        let stop = AtomicBool::new(false);
        let mut moves = Vec::new();
        for _ in 0..n {
            if !matches!(G::status(&state), parlor::mid::game::Status::Playing(_)) {
                break;
            }
            // The opponent's thinking is the level's (quick at the lowest level); a hint where it has none.
            let Some(mv) = G::think(&mut thinker, &state, Purpose::Opponent, &stop)
                .or_else(|| G::think(&mut thinker, &state, Purpose::Hint, &stop))
            else {
                break;
            };
            G::apply(&mut state, &mv).expect("the computer's move is legal");
            moves.push(mv.to_string());
        }
        moves
    });
    (start, moves.clone())
}

/// The parameters each game is fuzzed with: every choice of every setting, one at a time, from the defaults. The
/// computer plays at its quickest level (when the game has levels: the level changes how it plays, not what a move
/// is), so that the valid moves to mutate come quickly.
fn params_set<G: Game>() -> Vec<G::Params> {
    let quick = |p: &mut G::Params| {
        if let Some(level) = G::settings().iter().find(|s| s.key == "level")
            && let parlor::mid::settings::Kind::Choice(list) = level.kind
        {
            let _ = G::set(p, "level", list[0].0);
        }
    };
    let mut base = G::Params::default();
    quick(&mut base);
    let mut all = vec![base.clone()];
    for s in G::settings() {
        if let parlor::mid::settings::Kind::Choice(list) = s.kind {
            for (value, _) in list {
                let mut p = base.clone();
                if G::set(&mut p, s.key, value).is_ok() {
                    quick(&mut p);
                }
                if G::check(&p).is_ok() && !all.contains(&p) {
                    all.push(p);
                }
            }
        }
    }
    all
}

/// Move texts parsed and applied to a position in the middle of a game: a refused move leaves it untouched.
fn moves_target<G: Game>(n: u64) {
    for (k, params) in params_set::<G>().into_iter().enumerate() {
        let (start, mut valid) = played::<G>(&params, 7 + k as u64, 12);
        valid.truncate(6);
        let mut mid = start.clone();
        for m in &valid[..valid.len() / 2] {
            let mv = G::parse_move(&mid, m).expect("a printed move parses");
            G::apply(&mut mid, &mv).expect("legal");
        }
        let per = (n / 4).max(1);
        fuzz(
            &format!("{} moves #{k}", G::ID),
            per,
            |r| text(r, &valid),
            |t| {
                if let Ok(mv) = G::parse_move(&mid, t) {
                    let mut s = mid.clone();
                    let before = (G::moves_made(&s), G::score(&s), G::progress(&s));
                    if G::apply(&mut s, &mv).is_err() {
                        assert_eq!(before, (G::moves_made(&s), G::score(&s), G::progress(&s)));
                    }
                    // A move prints as text that parses back to itself.
                    assert_eq!(G::parse_move(&mid, &mv.to_string()).ok(), Some(mv));
                }
            },
        );
    }
}

/// A saved game rebuilt from arbitrary parameters and move text, directly and through a session's resume.
fn resume_target<G: Game>(n: u64) {
    let params = params_set::<G>();
    let valid: Vec<(String, String)> = params
        .iter()
        .enumerate()
        .map(|(k, p)| {
            (
                G::params_to_json(p),
                played::<G>(p, 7 + k as u64, 12).1.join(" "),
            )
        })
        .collect();
    let options: Vec<String> = valid.iter().map(|v| v.0.clone()).collect();
    let moves: Vec<String> = valid.iter().map(|v| v.1.clone()).collect();
    let store = Store::in_memory().unwrap();
    fuzz(
        &format!("{} resume", G::ID),
        n,
        |r| {
            let k = below(r, valid.len());
            let o = if below(r, 3) == 0 {
                text(r, &options)
            } else {
                valid[k].0.clone()
            };
            let m = if below(r, 4) == 0 {
                valid[k].1.clone()
            } else {
                text(r, &moves)
            };
            (o, r.next_u64() % 1000, m)
        },
        |(o, seed, m)| {
            let direct = rebuild::<G>(G::ID, o, *seed, m);
            let u = Unfinished {
                session: "fuzz".into(),
                game: G::ID.into(),
                variant: "?".into(),
                options: o.clone(),
                seed: *seed,
                moves: m.clone(),
                score: 0,
                assisted: false,
                started_at: 0,
                updated_at: 0,
                seeded: false,
                practice: false,
                row: 0,
                damage: None,
            };
            // Taking a game up reads its row again: the row is saved first.
            store.save_unfinished(&u).unwrap();
            let resumed = Session::<G>::resume(&u, &store);
            match (direct, resumed) {
                (Ok(d), Ok(s)) => assert_eq!(d.moves.len(), s.moves().len()),
                (Err(_), Err(_)) => {}
                // A saved game that is already over is damaged: it is not taken up.
                (Ok(d), Err(_)) => assert!(
                    matches!(G::status(&d.state), parlor::mid::game::Status::Over(_)),
                    "resume refused a game that rebuilds and is not over"
                ),
                (Err(e), Ok(_)) => panic!("resume took up a game that does not rebuild: {e}"),
            }
        },
    );
}

/// Every setting of a game set to arbitrary values, then checked and started.
fn settings_target<G: Game>(n: u64) {
    let mut valid = Vec::new();
    for s in G::settings() {
        valid.push(G::get(&G::Params::default(), s.key));
        if let parlor::mid::settings::Kind::Choice(list) = s.kind {
            valid.extend(list.iter().map(|(v, _)| v.to_string()));
        }
    }
    fuzz(
        &format!("{} settings", G::ID),
        n,
        |r| {
            let edits: Vec<(usize, String)> = (0..1 + below(r, 4))
                .map(|_| (below(r, G::settings().len()), text(r, &valid)))
                .collect();
            edits
        },
        |edits| {
            let mut p = G::Params::default();
            for (i, v) in edits {
                let s = &G::settings()[*i];
                let before = p.clone();
                if G::set(&mut p, s.key, v).is_err() {
                    assert_eq!(
                        p, before,
                        "a refused value leaves the parameters as they were"
                    );
                }
            }
            if G::check(&p).is_ok() {
                // Saved and read back, the parameters are the same game: the same saved text and the same variant
                // (Mastermind reads a custom variant equal to a preset back as the preset, by design).
                let json = G::params_to_json(&p);
                let back = G::params_from_json(&json).expect("saved parameters read back");
                assert_eq!(G::params_to_json(&back), json, "parameters round-trip");
                assert_eq!(G::variant(&back), G::variant(&p));
                let _ = G::new_game(&p, 3);
            }
        },
    );
}

/// The targets name each game: they must name every registered game, so that a new one fails here until it is
/// fuzzed too.
#[test]
fn every_registered_game_is_fuzzed() {
    assert_eq!(
        registered(),
        [Twenty48::ID, Mastermind::ID, Nocca::ID],
        "fuzz each registered game"
    );
}

/// The registered games' ids, in menu order.
fn registered() -> Vec<&'static str> {
    parlor::registry::GAMES
        .iter()
        .map(|&g| parlor::mid::AnyGame::id(g))
        .collect()
}

#[test]
fn game_moves() {
    let n = budget(2_000);
    moves_target::<Twenty48>(n);
    moves_target::<Mastermind>(n);
    moves_target::<Nocca>(n);
}

#[test]
fn saved_games_resumed_from_arbitrary_text() {
    let n = budget(1_500);
    resume_target::<Twenty48>(n);
    resume_target::<Mastermind>(n);
    resume_target::<Nocca>(n);
}

#[test]
fn game_settings() {
    let n = budget(2_000);
    settings_target::<Twenty48>(n);
    settings_target::<Mastermind>(n);
    settings_target::<Nocca>(n);
}

#[test]
fn engine_notations() {
    let n = budget(5_000);
    let boards = vec![
        "0,0,0,0/0,2,0,0/0,0,4,0/0,0,0,2".to_string(),
        "2,4/8,16".to_string(),
        "9223372036854775808,9223372036854775808,0/0,0,0/0,0,0".to_string(),
    ];
    fuzz(
        "2048 board",
        n,
        |r| text(r, &boards),
        |t| {
            if let Ok(b) = t.parse::<twenty48::Board>() {
                for d in [
                    twenty48::Direction::Left,
                    twenty48::Direction::Right,
                    twenty48::Direction::Up,
                    twenty48::Direction::Down,
                ] {
                    let _ = b.slide(d);
                }
            }
        },
    );
    let actions = vec![
        "L R U D".to_string(),
        "LLRR".to_string(),
        "left,up".to_string(),
    ];
    fuzz(
        "2048 actions",
        n,
        |r| text(r, &actions),
        |t| {
            let _ = twenty48::parse_actions(t);
            let _ = t.parse::<twenty48::Direction>();
        },
    );
    let variants = vec![
        "classic".to_string(),
        "super".to_string(),
        "bulls-cows".to_string(),
        "custom-6-4-10-yy".to_string(),
        "custom-8-5-12-nn".to_string(),
    ];
    let codes = vec![
        "RGYB".to_string(),
        "1 3 6 5".to_string(),
        "0123".to_string(),
        "red green".to_string(),
    ];
    fuzz(
        "mastermind variant and code",
        n,
        |r| (text(r, &variants), text(r, &codes)),
        |(v, c)| {
            let variant = v.parse::<mastermind::Variant>().unwrap_or_default();
            let _ = v.parse::<mastermind::Strategy>();
            let _ = variant.parse_pegs(c);
            let _ = variant.parse_code(c);
            let _ = variant.parse_secret(c);
            let _ = mastermind::Feedback::parse(c, variant.pegs());
        },
    );
    let positions = vec![
        nocca::Position::start(nocca::Dims::STANDARD).to_string(),
        "-,bb,b,-/-,-,-,b/-,-,w,-/w,-,w,w b".to_string(),
        "b1u".to_string(),
        "4x5".to_string(),
    ];
    fuzz(
        "nocca notation",
        n,
        |r| text(r, &positions),
        |t| {
            if let Ok(p) = t.parse::<nocca::Position>() {
                let _ = p
                    .to_string()
                    .parse::<nocca::Position>()
                    .expect("a printed position parses");
            }
            let _ = t.parse::<nocca::Move>();
            let _ = t.parse::<nocca::Dims>();
            let _ = t.parse::<nocca::Square>();
            let _ = t.parse::<nocca::Level>();
        },
    );
}

/// Command lines from the real argument table: flags with arbitrary values, in any order.
#[test]
fn command_lines() {
    let n = budget(3_000);
    let words: Vec<String> = [
        "2048",
        "mastermind",
        "nocca",
        "history",
        "scores",
        "replay",
        "stats",
        "solve",
        "slide",
        "auto",
        "perft",
        "match",
        "bench",
        "feedback",
        "--size",
        "--target",
        "--four-chance",
        "--seed",
        "--variant",
        "--colours",
        "--pegs",
        "--guesses",
        "--role",
        "--level",
        "--board",
        "--first",
        "--mode",
        "--json",
        "--limit",
        "--game",
        "--delay-ms",
        "--depth",
        "--games",
        "--strategy",
        "--no-limit",
        "--position",
        "--plain",
        "--no-color",
        "--new",
        "--eval",
        "--ms-per-move",
        "--threads",
        "-h",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    fuzz(
        "command line",
        n,
        |r| {
            let k = 1 + below(r, 7);
            let mut args = vec!["parlor".to_string()];
            for _ in 0..k {
                args.push(if below(r, 2) == 0 {
                    words[below(r, words.len())].clone()
                } else {
                    text(r, &words)
                });
            }
            args
        },
        |args| {
            // Only the parse: running would play, solve or print help.
            let _ = parlor::terminal_app::command().try_get_matches_from(args);
        },
    );
}

/// The plain play loop fed arbitrary lines (invalid UTF-8, huge numbers, every command word), in memory.
fn plain_target<G: parlor::plain::game::PlainGame>(n: u64, params: G::Params) {
    let words: Vec<String> = [
        "u",
        "t",
        "x",
        "y",
        "n",
        "r",
        "?",
        "help",
        "q",
        "a",
        "w",
        "s",
        "d",
        "left",
        "RGYB",
        "1234",
        "b1u",
        "c2y",
        "p 1",
        "p 2",
        "p 0",
        "p 99999999999999999999",
        "p -1",
        "bogus",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    fuzz(
        &format!("{} plain lines", G::ID),
        n,
        |r| {
            let mut input = Vec::new();
            for _ in 0..below(r, 12) {
                if below(r, 6) == 0 {
                    input.extend((0..below(r, 20)).map(|_| r.next_u64() as u8));
                } else {
                    input.extend(text(r, &words).into_bytes());
                }
                input.push(b'\n');
            }
            input
        },
        |input| {
            let mut store = Store::in_memory().unwrap();
            let mut reader = std::io::Cursor::new(input.clone());
            let mut out = Vec::new();
            let mut io = parlor::plain::Io::new(&mut reader, &mut out);
            parlor::plain::play::start::<G>(&mut io, params.clone(), Some(5), &mut store)
                .expect("plain play ends cleanly");
        },
    );
}

#[test]
fn plain_lines() {
    let n = budget(300);
    plain_target::<Twenty48>(n, Default::default());
    plain_target::<Mastermind>(n, Default::default());
    let mut quick = <Nocca as Game>::Params::default();
    Nocca::set(&mut quick, "level", "beginner").unwrap();
    plain_target::<Nocca>(n, quick);
}

/// The settings file: arbitrary text (mutations of the file Parlor writes) is read without a panic, every mistake
/// names a line of the text, and what is read is written back as a file that reads without a mistake.
#[test]
fn settings_files() {
    let n = budget(3_000);
    let written = parlor::settings::file::render(&parlor::registry::settings());
    let valid = vec![
        written,
        "theme = \"dark\"\n[keys]\nundo = [\"z\"]\n[2048]\ntarget = 512\n".to_string(),
        "animations = false\nautoplay-ms = 99999999999\n[nocca]\nlevel = \"perfect\"\n".to_string(),
    ];
    fuzz(
        "settings file",
        n,
        |r| text(r, &valid),
        |t| {
            let (settings, problems) =
                parlor::settings::file::parse(t, &parlor::registry::catalog());
            let lines = t.lines().count().max(1);
            for (line, why) in &problems {
                assert!(*line <= lines + 1, "line {line} of {lines}: {why}");
            }
            let again = parlor::settings::file::render(&settings);
            let (back, problems) =
                parlor::settings::file::parse(&again, &parlor::registry::catalog());
            assert!(problems.is_empty(), "{problems:?} in\n{again}");
            assert_eq!(parlor::settings::file::render(&back), again);
        },
    );
}
