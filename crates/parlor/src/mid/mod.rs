//! The mid end: the one interface every game implements, and what all of them share.
//!
//! [`game::Game`] is the interface every game implements (its parameters, state, moves, status, score, ranking and
//! thinking); [`session::Session`] is the mid end that does autosave, claims, undo, assistance marks and recording
//! for all of them; [`jobs::Job`] runs the computer's thinking off the UI (through [`crate::host::Runner`]);
//! [`record`] rebuilds finished games for replays; [`Contexts`] holds each game's [`game::Game::Context`] for a run
//! (what it keeps beside its games, such as strategy trees), made once at the program's top. The front ends (`tui`,
//! `plain`) are generic over the interface, and the games themselves (one folder each, under `games/`, above the
//! front ends whose traits they implement) are handed to them by the top, from the registry: nothing here names one.

pub mod coach;
pub mod elsewhere;
pub mod error;
pub mod game;
pub mod jobs;
pub mod kept;
pub mod puzzle;
pub mod record;
pub mod review;
pub mod session;
pub mod settings;
pub mod stats;

use std::any::Any;
use std::marker::PhantomData;
use std::sync::Arc;

/// Every game's context ([`game::Game::Context`]) for one program run, made once at the top from the data directory
/// and handed to the front ends, which give each session its game's. Cloning shares them.
#[derive(Clone, Default)]
pub struct Contexts(Vec<(&'static str, Arc<dyn Any + Send + Sync>)>);

impl Contexts {
    /// The contexts of `games` for a run whose data directory is `data_dir`.
    pub fn new<T: AnyGame + ?Sized>(games: &[&T], data_dir: Option<&std::path::Path>) -> Contexts {
        Contexts(
            games
                .iter()
                .map(|g| (g.id(), g.context(data_dir)))
                .collect(),
        )
    }

    /// Game `G`'s context (its default if `G` has none here: nothing kept on disk).
    pub fn of<G: game::Game>(&self) -> G::Context {
        self.0
            .iter()
            .find(|(id, _)| *id == G::ID)
            .and_then(|(_, c)| c.downcast_ref::<G::Context>())
            .cloned()
            .unwrap_or_default()
    }
}

/// The names of `games`, for messages (`a, b or c`).
pub fn names<T: AnyGame + ?Sized>(games: &[&T]) -> String {
    let ids: Vec<&str> = games.iter().map(|g| g.id()).collect();
    match ids.split_last() {
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// One sentence of help saying something of every game in `games`: `{title} {verb} {what}` joined by `; `, then a
/// full stop (`A ranks points; B ranks wins by fewest guesses.`).
pub fn each_game<T: AnyGame + ?Sized>(
    games: &[&T],
    verb: &str,
    what: impl Fn(&T) -> &'static str,
) -> String {
    let parts: Vec<String> = games
        .iter()
        .map(|g| format!("{} {verb} {}", g.title(), what(g)))
        .collect();
    format!("{}.", parts.join("; "))
}

/// A game type as a value: the registry holds one per game, and each front end implements its own object-safe
/// view of a game (the menu's launcher, the plain loop, the command line) for every `Entry<G>`.
pub struct Entry<G>(PhantomData<fn() -> G>);

impl<G> Entry<G> {
    /// The entry of game `G`.
    pub const fn new() -> Entry<G> {
        Entry(PhantomData)
    }
}

impl<G> Default for Entry<G> {
    fn default() -> Self {
        Entry::new()
    }
}

/// The parameters written as `json`, or the defaults when there are none or they cannot be read.
pub fn params_or_default<G: game::Game>(json: Option<&str>) -> G::Params {
    json.and_then(|j| G::params_from_json(j).ok())
        .unwrap_or_default()
}

/// The game of a given name among `games` (the registry, or any front end's view of it).
pub fn find<'a, T: AnyGame + ?Sized>(games: &[&'a T], id: &str) -> Option<&'a T> {
    games.iter().copied().find(|g| g.id() == id)
}

/// Any game, as lists and records see it: what the front ends' launchers share.
pub trait AnyGame: Sync {
    /// The game's name in the database and on the command line.
    fn id(&self) -> &'static str;
    /// Its name for people.
    fn title(&self) -> &'static str;
    /// One line for menus.
    fn blurb(&self) -> &'static str;
    /// Its engine crate's name and version ([`game::Game::ENGINE`]).
    fn engine(&self) -> (&'static str, &'static str);
    /// How its best scores rank, in words ([`game::Game::RANKS`]).
    fn ranks(&self) -> &'static str;
    /// What its statistics chart, in words ([`game::Game::CHARTS`]).
    fn charts_help(&self) -> &'static str;
    /// The game's context for a run with this data directory ([`game::Game::context`]), to keep in [`Contexts`].
    fn context(&self, data_dir: Option<&std::path::Path>) -> Arc<dyn Any + Send + Sync>;
    /// Its rules, one paragraph each.
    fn rules(&self) -> &'static [&'static str];
    /// How a record's variant ranks (from its saved parameters; the default parameters' if unreadable).
    fn ranking(&self, options: &str) -> game::Ranking;
    /// A saved game's progress line ("score 1234 · 20 moves"), or why it cannot be read or played in its context
    /// among `contexts` ([`game::Game::playable`]: it would not be taken up).
    fn progress(
        &self,
        saved: &crate::storage::Unfinished,
        contexts: &Contexts,
    ) -> Result<String, error::Error>;
    /// The name of the score ("score", "guesses", "plies").
    fn score_name(&self) -> &'static str;
    /// The charts the statistics show for a variant (from its saved parameters; the defaults' if unreadable).
    fn charts(&self, options: &str) -> Vec<stats::Chart>;
    /// A finished game's [`game::Game::peak`], rebuilt from its record; `None` if it has none or cannot be rebuilt.
    fn peak(&self, record: &crate::storage::GameRecord) -> Option<i64>;
    /// The review of a finished game, rebuilt from its record, in its game's context among `contexts`
    /// ([`game::Game::review`]): `None` when the game has no reviewer; a damaged record is an error, never a panic.
    fn review(
        &self,
        record: &crate::storage::GameRecord,
        contexts: &Contexts,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<review::Review, error::Error>>;
    /// The judgement of move `mv` (in the game's notation) tried after the first `before` moves of `record`, a
    /// finished game, in its game's context among `contexts` ([`game::Game::judge`]: a puzzle's answer, as data for
    /// a face that judges elsewhere). `None` when the game has no reviewer; a damaged record, a `before` past its
    /// moves or a move that cannot be played there is an error that says why, never a panic.
    fn judge(
        &self,
        record: &crate::storage::GameRecord,
        before: usize,
        mv: &str,
        contexts: &Contexts,
    ) -> Option<Result<review::Reviewed, error::Error>>;
    /// The game's settings, in the order its setup form shows them.
    fn settings(&self) -> &'static [settings::Setting];
    /// Parameters made from setting values (key, value), set in the table's order on the defaults: the
    /// defaults a player keeps in the settings file. A refused value is left out and reported, and so are
    /// parameters that cannot be played in the game's context among `contexts` ([`game::Game::check_in`]).
    fn params_from(&self, values: &[(String, String)], contexts: &Contexts) -> ParamsFrom;
}

/// Parameters made from setting values ([`AnyGame::params_from`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ParamsFrom {
    /// The parameters, as JSON.
    pub json: String,
    /// The value of every setting that applies to them (free text left out), in table order.
    pub values: Vec<(&'static str, String)>,
    /// The values refused: (key, why).
    pub refused: Vec<(String, String)>,
}

impl<G: game::Game> AnyGame for Entry<G> {
    fn id(&self) -> &'static str {
        G::ID
    }

    fn title(&self) -> &'static str {
        G::TITLE
    }

    fn blurb(&self) -> &'static str {
        G::BLURB
    }

    fn engine(&self) -> (&'static str, &'static str) {
        G::ENGINE
    }

    fn ranks(&self) -> &'static str {
        G::RANKS
    }

    fn charts_help(&self) -> &'static str {
        G::CHARTS
    }

    fn context(&self, data_dir: Option<&std::path::Path>) -> Arc<dyn Any + Send + Sync> {
        Arc::new(G::context(data_dir))
    }

    fn rules(&self) -> &'static [&'static str] {
        G::rules()
    }

    fn ranking(&self, options: &str) -> game::Ranking {
        G::ranking(&params_or_default::<G>(Some(options)))
    }

    fn progress(
        &self,
        saved: &crate::storage::Unfinished,
        contexts: &Contexts,
    ) -> Result<String, error::Error> {
        if let Some(why) = &saved.damage {
            return Err(error::Error::Record(why.clone()));
        }
        let r = session::rebuild::<G>(&saved.game, &saved.options, saved.seed, &saved.moves)?;
        G::playable(&r.params, &contexts.of::<G>())?;
        Ok(G::progress(&r.state))
    }

    fn score_name(&self) -> &'static str {
        G::score_name()
    }

    fn settings(&self) -> &'static [settings::Setting] {
        G::settings()
    }

    fn params_from(&self, values: &[(String, String)], contexts: &Contexts) -> ParamsFrom {
        let mut params = G::Params::default();
        let mut refused = Vec::new();
        for s in G::settings() {
            let Some((_, v)) = values.iter().find(|(k, _)| k == s.key) else {
                continue;
            };
            if G::get(&params, s.key) == *v {
                continue;
            }
            if let Err(why) = G::set(&mut params, s.key, v) {
                refused.push((s.key.to_string(), why.to_string()));
            }
        }
        if let Err(why) = G::check_in(&params, &contexts.of::<G>()) {
            refused.push((String::new(), why.to_string()));
            params = G::Params::default();
        }
        let values = G::settings()
            .iter()
            .filter(|s| s.kind != settings::Kind::Text && G::applies(&params, s.key))
            .map(|s| (s.key, G::get(&params, s.key)))
            .collect();
        ParamsFrom {
            json: G::params_to_json(&params),
            values,
            refused,
        }
    }

    fn charts(&self, options: &str) -> Vec<stats::Chart> {
        G::charts(&params_or_default::<G>(Some(options)))
    }

    fn review(
        &self,
        r: &crate::storage::GameRecord,
        contexts: &Contexts,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Result<review::Review, error::Error>> {
        let rebuilt = match session::rebuild::<G>(&r.game, &r.options, r.seed, &r.moves) {
            Ok(rebuilt) => rebuilt,
            Err(e) => {
                return Some(Err(error::Error::Record(format!(
                    "game #{} cannot be reviewed: {e}",
                    r.id
                ))));
            }
        };
        let review = G::review(
            &contexts.of::<G>(),
            &rebuilt.params,
            &rebuilt.start,
            &rebuilt.moves,
            progress,
        )?;
        // The review names its game by the record's number, as the database and `parlor history` do.
        Some(review.map(|mut review| {
            review.game = r.id.to_string();
            review
        }))
    }

    fn judge(
        &self,
        r: &crate::storage::GameRecord,
        before: usize,
        mv: &str,
        contexts: &Contexts,
    ) -> Option<Result<review::Reviewed, error::Error>> {
        let judged = || -> Result<Option<Result<review::Reviewed, error::Error>>, error::Error> {
            let rebuilt = session::rebuild::<G>(&r.game, &r.options, r.seed, &r.moves)?;
            let played = rebuilt.moves.get(..before).ok_or_else(|| {
                error::Error::Move(format!(
                    "game #{} has {} moves, not {before}",
                    r.id,
                    rebuilt.moves.len()
                ))
            })?;
            let mut at = rebuilt.start.clone();
            for m in played {
                G::apply(&mut at, m)?;
            }
            let tried = G::parse_move(&at, mv)?;
            let mut probe = at;
            G::apply(&mut probe, &tried)?;
            Ok(G::judge(
                &contexts.of::<G>(),
                &rebuilt.params,
                &rebuilt.start,
                played,
                &tried,
            ))
        };
        match judged() {
            Ok(j) => j,
            Err(e) => Some(Err(e)),
        }
    }

    fn peak(&self, r: &crate::storage::GameRecord) -> Option<i64> {
        let rebuilt = session::rebuild::<G>(&r.game, &r.options, r.seed, &r.moves).ok()?;
        G::peak(&rebuilt.state)
    }
}

/// What Parlor is, for the menu's help.
pub const ABOUT: &[&str] = &[
    "Parlor is a suite of classic thinking games. Every game in progress is saved after each move; choose \
     Continue to pick it up again.",
    "Keys: arrows, vim's h j k l and w a s d move everywhere; Enter chooses; q or Esc goes back; ? opens the help \
     of the screen you are on. In every game u undoes, t gives a hint, x gives up, r starts a new game and q goes \
     back to the menu. Glyphs and letters carry every meaning, so the games play the same without colour \
     (NO_COLOR is respected).",
    "Undo, hints and autoplay are allowed but mark a game as assisted: it stays in the history, not in the best \
     scores. So does a game played from a chosen seed (--seed), which anyone could replay.",
];

/// `s` with its first letter in capitals ("score" -> "Score").
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A session id that is unique across processes: time, instance ([`crate::host::Entropy`], the process id in the
/// terminal) and a counter.
pub fn new_session_id() -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let nanos = crate::host::clock().unix_nanos();
    format!(
        "{nanos:x}-{}-{}",
        crate::host::entropy().instance(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    )
}

/// A seed for a game started without `--seed`: the clock's nanoseconds and the instance, mixed.
pub fn fresh_seed() -> u64 {
    let nanos = crate::host::clock().unix_nanos() as u64;
    // SplitMix64 finaliser, so that seeds taken close together look unrelated; kept below 2^53 for JSON readers.
    let mut z = nanos ^ crate::host::entropy().instance().rotate_left(32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) >> 11
}
