//! The settings in plain mode: the menu's `o` lists every setting with a number; typing a number asks the new value
//! (checked as on the full screen), which is saved at once.

use super::Io;
use crate::settings::file;
use anyhow::Result;

/// Saves the settings and says whether it worked.
fn save(io: &mut Io) -> Result<()> {
    let saved = io
        .config_dir
        .as_ref()
        .map(|dir| file::save(&io.settings, dir));
    match saved {
        Some(Ok(said)) => io.say(format!("{}.", crate::mid::capitalised(&said))),
        Some(Err(why)) => io.say(format!("NOT saved: {why}. The change lasts until Parlor closes.")),
        None => io.say(
            "NOT saved: no configuration directory (pass --config-dir). The change lasts until Parlor closes.",
        ),
    }
}

/// Lists the settings and changes the ones the player picks, until an empty line (or the end of input: `false`).
pub fn run(io: &mut Io) -> Result<bool> {
    loop {
        let rows = io.settings.rows();
        match &io.config_dir {
            Some(dir) => io.say(format!(
                "Settings (kept in {}):",
                dir.join(file::FILE).display()
            ))?,
            None => io.say("Settings (no configuration directory: kept for this run only):")?,
        }
        let mut section = None;
        for (i, r) in rows.iter().enumerate() {
            if section != Some(r.section) {
                section = Some(r.section);
                io.say(format!("  {}", r.heading))?;
            }
            io.say(format!(
                "  {:>3}  {}: {}  [{}]",
                i + 1,
                r.label,
                r.shown,
                r.range
            ))?;
        }
        let Some(answer) = io.ask("setting to change (its number; Enter or q goes back)> ")? else {
            return Ok(false);
        };
        if answer.is_empty() || answer.eq_ignore_ascii_case("q") {
            return Ok(true);
        }
        let Some(row) = answer
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| rows.get(i))
        else {
            io.say(format!(
                "'{answer}' is not a setting's number (1 to {})",
                rows.len()
            ))?;
            continue;
        };
        io.say(&row.help)?;
        let Some(value) = io.ask(&format!("{} ({}) [{}]> ", row.label, row.range, row.shown))?
        else {
            return Ok(false);
        };
        if value.is_empty() || super::setup::is_back(&value) {
            io.say("Unchanged.")?;
            continue;
        }
        match io.settings.set(row.section, row.key, &value) {
            Ok(()) => save(io)?,
            Err(why) => io.say(format!("Not changed: {why}."))?,
        }
    }
}
