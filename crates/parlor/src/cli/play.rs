//! `parlor GAME [settings]`: the command line's side of the game interface. The flags are made from each game's
//! setting table (so `--help` lists every setting with its range, checked where it is parsed), and one rule decides
//! between continuing and starting a game, for every game:
//!
//! - without `--seed` or `--new`, the newest game in progress of that game whose settings agree with the flags given
//!   is continued (a game another Parlor is playing is skipped);
//! - otherwise, or when there is none, a new game starts at once with the flags given and the defaults elsewhere.

use super::env::Env;
use crate::mid::session::{ResumeError, Seed, Session};
use crate::mid::settings::Kind;
use crate::mid::{AnyGame, Entry};
use crate::plain::game::PlainGame;
use crate::storage::{GameRecord, Storage, Store};
use crate::tui::game::TuiGame;
use anyhow::{Result, anyhow};
use clap::{Arg, ArgAction, ArgMatches, Command, FromArgMatches, Subcommand};

/// What a game adds for the command line: its analysis commands.
pub trait CliGame: TuiGame + PlainGame {
    /// The analysis commands (`parlor GAME COMMAND`).
    type Analysis: Subcommand;
    /// `--help`'s paragraph for `parlor GAME`.
    const ABOUT: &'static str;
    /// The values a shell completes for an option of an analysis command (`cmd`: the command's name, `id`: the
    /// option's), where it takes one of a list, checked as the list says; `None` for the others.
    fn values(_cmd: &str, _id: &str) -> Option<clap::builder::ValueParser> {
        None
    }
    /// The manual page's FILES entries of what the game keeps or reads (name, paragraph).
    const FILES: &'static [(&'static str, &'static str)] = &[];
    /// The manual page's ENVIRONMENT entries of the variables the game reads (name, paragraph).
    const ENVIRONMENT: &'static [(&'static str, &'static str)] = &[];
    /// Runs one analysis command.
    fn analyse(command: &Self::Analysis, env: &Env) -> Result<()>;
}

/// Any game, as the command line sees it.
pub trait CliLaunch: AnyGame {
    /// `parlor GAME`: its flags and its analysis commands.
    fn command(&self) -> Command;
    /// Runs `parlor GAME ...`.
    fn run(&self, matches: &ArgMatches, env: &Env) -> Result<()>;
    /// The game's entries of the manual page's FILES and ENVIRONMENT sections ([`CliGame::FILES`]).
    fn manual(&self) -> (ManEntries, ManEntries);
    /// `parlor practise ID MOVE`: a practice game from the position before move `number` of `record`, a finished
    /// game of this game read from `store` ([`Session::practise_in`]), played in the front end the environment
    /// calls for; an error says why it cannot start there.
    fn practise(&self, env: &Env, store: Store, record: &GameRecord, number: usize) -> Result<()>;
}

/// Entries of a manual page's section: (term, paragraph).
pub type ManEntries = Vec<(String, String)>;

/// The flags of `parlor GAME` that every game has, beside its settings.
fn common_flags(cmd: Command) -> Command {
    cmd.arg(
        Arg::new("seed")
            .long("seed")
            .value_name("N")
            .value_parser(clap::value_parser!(u64))
            .help("Seed for every random choice (0 to 2^64-1): the same seed and moves give the same game. A game \
                   from a chosen seed is kept out of the best scores."),
    )
    .arg(
        Arg::new("new")
            .long("new")
            .action(ArgAction::SetTrue)
            .help("Start a new game even if one of these settings is in progress (it stays under Continue)."),
    )
}

/// The values a shell completes for a setting's flag: its choices, yes and no, or every number of a short range.
fn completions(s: &crate::mid::settings::Setting) -> Vec<String> {
    match s.kind {
        Kind::Choice(list) => list.iter().map(|(v, _)| v.to_string()).collect(),
        Kind::Toggle => vec!["yes".into(), "no".into()],
        Kind::Number { min, max } if max - min <= 30 => {
            (min..=max).map(|n| n.to_string()).collect()
        }
        Kind::Number { .. } | Kind::Decimal { .. } | Kind::Text => Vec::new(),
    }
}

impl<G: CliGame> CliLaunch for Entry<G> {
    fn command(&self) -> Command {
        let mut cmd = Command::new(G::ID).args_conflicts_with_subcommands(true);
        for s in G::settings() {
            let setting = *s;
            let mut arg = Arg::new(s.key)
                .long(s.key)
                .value_name(match s.kind {
                    Kind::Choice(_) => "CHOICE",
                    Kind::Number { .. } | Kind::Decimal { .. } => "N",
                    Kind::Toggle => "yes|no",
                    Kind::Text => "TEXT",
                })
                .help(format!("{} [{}]", s.help, s.range()))
                .value_parser(super::values::Listed::new(
                    move |v: &str| setting.check(v).map_err(|e| e.to_string()),
                    completions(s),
                ))
                .hide_possible_values(true);
            if let Kind::Choice(list) = s.kind {
                arg = arg.hide_possible_values(true).long_help(format!(
                    "{}\nOne of: {}",
                    s.help,
                    list.iter()
                        // A label that starts with the value is shown alone (`seed (6 colours, ...)`, not
                        // `seed (seed (6 colours, ...))`).
                        .map(|(v, l)| if l.starts_with(&format!("{v} (")) {
                            l.to_string()
                        } else {
                            format!("{v} ({l})")
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            cmd = cmd.arg(arg);
        }
        let cmd = G::Analysis::augment_subcommands(common_flags(cmd))
            .about(format!("Play {}, or run its analysis commands", G::TITLE))
            .long_about(G::ABOUT);
        super::values::with_values(cmd, &G::values)
    }

    fn manual(&self) -> (ManEntries, ManEntries) {
        let owned = |list: &[(&str, &str)]| {
            list.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        };
        (owned(G::FILES), owned(G::ENVIRONMENT))
    }

    fn practise(&self, env: &Env, store: Store, record: &GameRecord, number: usize) -> Result<()> {
        let id = record.id;
        let session = Session::<G>::practise_in(record, number, &store, env.contexts.of::<G>())
            .map_err(|e| anyhow!("no practice from move {number} of game #{id}: {e}"))?;
        let note = format!(
            "Practice from move {number} of game #{id}: recorded as practice, never as a scored game."
        );
        play_in(env, session, store, vec![note])
    }

    fn run(&self, matches: &ArgMatches, env: &Env) -> Result<()> {
        if matches.subcommand().is_some() {
            let analysis = G::Analysis::from_arg_matches(matches).map_err(|e| anyhow!("{e}"))?;
            return G::analyse(&analysis, env);
        }
        let given: Vec<(&'static str, String)> = G::settings()
            .iter()
            .filter_map(|s| matches.get_one::<String>(s.key).map(|v| (s.key, v.clone())))
            .collect();
        // The settings' defaults, then the flags given (a flag wins).
        let mut params = crate::mid::params_or_default::<G>(env.settings.game_json(G::ID));
        for (key, value) in &given {
            G::set(&mut params, key, value).map_err(|e| anyhow!("--{key}: {e}"))?;
        }
        G::check_in(&params, &env.contexts.of::<G>()).map_err(|e| anyhow!("{e}"))?;
        let seed = matches.get_one::<u64>("seed").copied();
        let fresh = seed.is_some() || matches.get_flag("new");
        play::<G>(env, params, &given, seed, fresh)
    }
}

/// Continues or starts a game (the module's rule), then plays it in the front end the environment calls for.
fn play<G: CliGame>(
    env: &Env,
    params: G::Params,
    given: &[(&'static str, String)],
    seed: Option<u64>,
    fresh: bool,
) -> Result<()> {
    let opened = env.open_store()?;
    let mut store = opened.store;
    let mut notes: Vec<String> = opened.notice.into_iter().collect();
    let mut session = None;
    if !fresh {
        for saved in store.unfinished(Some(G::ID))? {
            // A game whose parameters cannot be read is not skipped: resuming it sets it aside below.
            if let Ok(theirs) = G::params_from_json(&saved.options) {
                // The saved game agrees when setting each given flag on its parameters changes nothing.
                let agrees = given.iter().all(|(k, v)| {
                    let mut p = theirs.clone();
                    G::set(&mut p, k, v).is_ok() && p == theirs
                });
                if !agrees {
                    continue;
                }
            }
            match Session::<G>::resume_in(&saved, &store, env.contexts.of::<G>()) {
                Ok(s) => {
                    notes.push("Continuing your game in progress (--new starts another).".into());
                    session = Some(s);
                    break;
                }
                Err(ResumeError::Taken) => notes.push(
                    "A game in progress is being played in another Parlor: a new game starts."
                        .into(),
                ),
                Err(e @ (ResumeError::Gone | ResumeError::Unavailable(_))) => {
                    notes.push(format!("A game in progress could not be continued: {e}."))
                }
                Err(ResumeError::Damaged(why)) => {
                    let _ = store.set_aside(&saved, &why);
                    notes.push(format!(
                        "A damaged saved game was set aside ({why}); it is kept in the database."
                    ));
                }
            }
        }
    }
    let session = match session {
        Some(s) => s,
        None => Session::<G>::new_in(
            params,
            Seed::from_option(seed),
            &store,
            env.contexts.of::<G>(),
        )
        .map_err(|e| anyhow!("{e}"))?,
    };
    play_in(env, session, store, notes)
}

/// Plays `session` in the front end the environment calls for, `notes` said first.
fn play_in<G: CliGame>(
    env: &Env,
    session: Session<G>,
    mut store: Store,
    mut notes: Vec<String>,
) -> Result<()> {
    notes.extend(env.settings_notice());
    if env.plain {
        env.with_plain_io(|io| {
            for n in &notes {
                io.say(format!("Note: {n}"))?;
            }
            crate::plain::play::play(io, session, &mut store)?;
            Ok(())
        })
    } else {
        // The notes are said on the play screen itself, first thing (a game held by another Parlor, a new game
        // started instead), as plain mode says them before the board.
        let notice = (!notes.is_empty()).then(|| notes.join(" "));
        let view: Box<dyn crate::tui::View> =
            Box::new(crate::tui::play::PlayView::new(session).with_message(notice));
        let menu: Box<dyn crate::tui::View> = Box::new(crate::tui::menu::MenuView::new(None));
        env.run_tui(vec![menu, view], store)
    }
}
