//! `parlor man`: the manual page (roff), generated from the same clap definitions that parse the command line, with
//! the sections clap does not know: KEYS (from the key table the games share), FILES and ENVIRONMENT.

use super::play::CliLaunch;
use anyhow::{Context, Result};
use clap::Args;
use clap_mangen::Man;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `parlor man`.
#[derive(Debug, Args)]
#[command(
    after_help = "Where to put it: parlor man --dir ~/.local/share/man/man1 (then `man parlor`) writes parlor.1 and \
    the page of every command it names; parlor man > parlor.1 prints parlor.1 alone."
)]
pub struct ManArgs {
    /// Write parlor.1 and one page per command (parlor-GAME.1, ...) into DIR instead of parlor.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Writes the manual page of the command line with `games` to `out`, or every page into `args.dir`.
pub fn run(args: &ManArgs, games: &[&'static dyn CliLaunch], out: &mut dyn Write) -> Result<()> {
    let mut cmd = crate::cli::command(games).disable_help_subcommand(true);
    cmd.build();
    let cmd = with_synopses(cmd);
    match &args.dir {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
            let writing = || format!("writing the manual pages into {}", dir.display());
            for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
                clap_mangen::generate_to(sub.clone(), dir).with_context(writing)?;
            }
            let mut page = Vec::new();
            render(&cmd, games, &mut page)?;
            std::fs::write(dir.join("parlor.1"), page).with_context(writing)?;
        }
        None => {
            render(&cmd, games, out)?;
            out.flush()?;
        }
    }
    Ok(())
}

/// `cmd` and every command under it with a SYNOPSIS that names each option with its value (`[--games N]`), where
/// clap_mangen's own leaves the values out (`[--games]`). A command under another lists its own options, then
/// `[GLOBAL OPTIONS]` for the options every command takes (the OPTIONS section of parlor(1) names them).
fn with_synopses(mut cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for name in names {
        cmd = cmd.mut_subcommand(name, with_synopses);
    }
    let usage = synopsis(&cmd);
    cmd.override_usage(usage)
}

/// The names of an argument's values as the synopsis shows them (`FILE`, `COLS ROWS`): its value names, else its
/// id in capitals.
fn value_names(arg: &clap::Arg) -> String {
    arg.get_value_names()
        .map(|v| {
            v.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| arg.get_id().as_str().to_uppercase())
}

/// One command's synopsis: its name, its options with their values, its arguments, and its commands.
fn synopsis(cmd: &clap::Command) -> String {
    let name = cmd.get_bin_name().unwrap_or_else(|| cmd.get_name());
    let top = !name.contains(' ');
    let mut words = vec![name.to_string()];
    let mut globals = false;
    for arg in cmd.get_arguments() {
        if arg.is_hide_set()
            || arg.is_positional()
            || matches!(
                arg.get_action(),
                clap::ArgAction::Help
                    | clap::ArgAction::HelpShort
                    | clap::ArgAction::HelpLong
                    | clap::ArgAction::Version
            )
        {
            continue;
        }
        if arg.is_global_set() && !top {
            globals = true;
            continue;
        }
        let flag = match (arg.get_long(), arg.get_short()) {
            (Some(long), _) => format!("--{long}"),
            (None, Some(short)) => format!("-{short}"),
            (None, None) => continue,
        };
        let takes = arg.get_num_args().is_some_and(|n| n.takes_values())
            && !matches!(
                arg.get_action(),
                clap::ArgAction::SetTrue | clap::ArgAction::SetFalse | clap::ArgAction::Count
            );
        let value = if takes {
            format!(" {}", value_names(arg))
        } else {
            String::new()
        };
        words.push(if arg.is_required_set() {
            format!("{flag}{value}")
        } else {
            format!("[{flag}{value}]")
        });
    }
    if globals {
        words.push("[GLOBAL OPTIONS]".into());
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let value = value_names(arg);
        words.push(if arg.is_required_set() {
            value
        } else {
            format!("[{value}]")
        });
    }
    if cmd.get_subcommands().any(|s| !s.is_hide_set()) {
        words.push(if cmd.is_subcommand_required_set() {
            "COMMAND".into()
        } else {
            "[COMMAND]".into()
        });
    }
    words.join(" ")
}

/// Escapes text for roff: a backslash, and a line starting with `.` or `'` (a request otherwise).
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// A section of `(term, paragraph)` entries, each a tagged paragraph.
fn section(out: &mut dyn Write, title: &str, entries: &[(String, String)]) -> std::io::Result<()> {
    writeln!(out, ".SH {title}")?;
    for (term, text) in entries {
        writeln!(out, ".TP\n\\fB{}\\fR\n{}", roff(term), roff(text))?;
    }
    Ok(())
}

/// parlor.1: clap's sections, then KEYS, FILES, ENVIRONMENT and VERSION (one line each, never run together).
fn render(
    cmd: &clap::Command,
    games: &[&'static dyn CliLaunch],
    out: &mut dyn Write,
) -> std::io::Result<()> {
    // clap's page up to its VERSION section (which runs the version's lines together), then ours.
    let mut page = Vec::new();
    Man::new(cmd.clone()).render(&mut page)?;
    let page = String::from_utf8_lossy(&page);
    let head = page.split("\n.SH VERSION").next().unwrap_or(&page);
    writeln!(out, "{}", head.trim_end())?;
    writeln!(
        out,
        ".PP\n{}",
        roff(
            "Each command has its own page, parlor-COMMAND(1) (parlor-GAME(1) for each game): parlor man --dir DIR writes \
             them all beside parlor.1."
        )
    )?;

    let mut keys: Vec<(String, String)> = vec![
        (
            "arrows, h j k l, w a s d".into(),
            "Move the cursor, or play the move of that direction where a game has one.".into(),
        ),
        ("Enter".into(), "Choose.".into()),
        (
            "q, Esc".into(),
            "Back (a game in progress is saved).".into(),
        ),
        (
            "?".into(),
            "The help of the screen you are on, from the key table that drives it: every key that works there."
                .into(),
        ),
    ];
    for a in crate::tui::keys::actions::ALL.iter() {
        let names: Vec<String> = a
            .default
            .iter()
            .map(|&k| crate::tui::keys::key_token(k))
            .collect();
        keys.push((
            names.join(", "),
            format!(
                "In a game: {} (the settings file may give it other keys).",
                a.help
            ),
        ));
    }
    section(out, "KEYS", &keys)?;
    writeln!(
        out,
        ".PP\n{}",
        roff(
            "Plain mode (--plain) reads one command per line instead; ? lists them. Every game has keys of its own, \
             shown by ? while playing."
        )
    )?;

    let mut files: Vec<(String, String)> = vec![
        (
            "$PARLOR_DATA_DIR/parlor.db".into(),
            "The database: every finished game and each game in progress (default directory: \
             ~/.local/share/parlor on Linux; parlor data-dir prints it; --data-dir overrides it)."
                .into(),
        ),
        (
            "$PARLOR_DATA_DIR/claims/".into(),
            "A lock file for each game in progress being played.".into(),
        ),
        (
            "$PARLOR_CONFIG_DIR/settings.toml".into(),
            "The settings (default directory: ~/.config/parlor on Linux; --config-dir overrides it); \
             settings.toml.bak keeps a file that had mistakes when Settings rewrote it."
                .into(),
        ),
];
    files.extend(games.iter().flat_map(|g| g.manual().0));
    section(out, "FILES", &files)?;

    let mut env: Vec<(String, String)> = vec![
        (
            "PARLOR_DATA_DIR".into(),
            "The directory of the database (else the XDG data directory).".into(),
        ),
        (
            "PARLOR_CONFIG_DIR".into(),
            "The directory of settings.toml (else the XDG config directory).".into(),
        ),
        ("NO_COLOR".into(), "Set and not empty: no colour.".into()),
        (
            "TERM, COLORTERM".into(),
            "What the terminal shows: TERM=dumb gets plain mode; COLORTERM=truecolor 24-bit colour, a TERM naming \
             256color the xterm 256 colours."
                .into(),
        ),
        (
            "COLORFGBG".into(),
            "The terminal's colours: a light background makes the auto theme light.".into(),
        ),
        (
            "XDG_DATA_HOME, XDG_CONFIG_HOME".into(),
            "Where the data and config directories are when the variables above are not set.".into(),
        ),
    ];
    env.extend(games.iter().flat_map(|g| g.manual().1));
    section(out, "ENVIRONMENT", &env)?;

    writeln!(out, ".SH VERSION")?;
    let version = cmd.get_long_version().or(cmd.get_version()).unwrap_or("");
    let lines: Vec<String> = version
        .lines()
        .enumerate()
        .map(|(i, l)| {
            roff(&if i == 0 {
                format!("parlor {l}")
            } else {
                l.to_string()
            })
        })
        .collect();
    writeln!(out, "{}", lines.join("\n.br\n"))?;
    Ok(())
}
