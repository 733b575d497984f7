//! `parlor export` and `parlor import`: the whole store as one file (the format of `storage::dump`, the same a
//! browser's Parlor exports and imports), to move games, scores and settings between a browser and a terminal or
//! between two machines.

use super::env::Env;
use crate::figures::{agree, count, count_as};
use crate::settings;
use crate::storage::dump;
use anyhow::{Context, Result, bail};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

/// `parlor export`.
#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The file to write (standard output when left out or `-`); an existing file is replaced whole, atomically.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

/// `parlor import`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The file to read (`-`: standard input), as `parlor export` or a browser's Export writes it.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// Also take the file's settings, replacing settings.toml (refused, with nothing imported, when they hold a
    /// mistake).
    #[arg(long)]
    pub settings: bool,
}

/// Writes the store and the settings in effect.
pub fn export(args: &ExportArgs, env: &Env) -> Result<()> {
    let store = env.open_store_noting()?;
    let mut all = store.export()?;
    all.settings = Some(settings::file::render(&env.settings));
    let text = dump::write(&all);
    let summary = format!(
        "{}, {}, {}",
        count(all.games.len() as u64, "finished game"),
        count_as(
            all.unfinished.len() as u64,
            "game in progress",
            "games in progress"
        ),
        count(all.set_aside.len() as u64, "set-aside row"),
    );
    match args.file.as_deref() {
        None => writeln!(std::io::stdout().lock(), "{text}")?,
        Some(p) if p.as_os_str() == "-" => writeln!(std::io::stdout().lock(), "{text}")?,
        Some(path) => {
            write_atomically(path, &text)?;
            writeln!(
                std::io::stderr().lock(),
                "parlor: exported {summary} to {}",
                path.display()
            )?;
        }
    }
    Ok(())
}

/// Writes `text` to `path` through a temporary file beside it, renamed over it once written and synced.
fn write_atomically(path: &std::path::Path, text: &str) -> Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = path
        .file_name()
        .context("the export file needs a name")?
        .to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.write_all(b"\n")?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = written {
        let _ = std::fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

/// Adds the file's rows to the store (and, with `--settings`, takes its settings).
pub fn import(args: &ImportArgs, env: &Env) -> Result<()> {
    let text = if args.file.as_os_str() == "-" {
        std::io::read_to_string(std::io::stdin().lock()).context("reading standard input")?
    } else {
        std::fs::read_to_string(&args.file)
            .with_context(|| format!("reading {}", args.file.display()))?
    };
    let loaded = dump::read(&text).map_err(anyhow::Error::msg)?;
    if let Some(v) = loaded.newer {
        bail!(
            "the file is from a newer Parlor (store version {v}; this one reads {}): nothing imported",
            dump::VERSION
        );
    }
    let new_settings = match (args.settings, &loaded.dump.settings) {
        (false, _) => None,
        (true, None) => bail!("the file holds no settings: nothing imported"),
        (true, Some(text)) => {
            let catalog = env.settings.catalog();
            let (s, problems) = settings::file::parse(text, catalog);
            if let Some((line, why)) = problems.first() {
                bail!("the file's settings have a mistake (line {line}: {why}): nothing imported");
            }
            let Some(dir) = &env.config_dir else {
                bail!(
                    "no configuration directory for the settings (pass --config-dir): nothing imported"
                );
            };
            Some((s, dir.clone()))
        }
    };
    let mut store = env.open_store_noting()?;
    let done = store.import(&loaded.dump)?;
    let mut err = std::io::stderr().lock();
    writeln!(err, "parlor: read {}: {done}.", args.file.display())?;
    if loaded.damaged > 0 {
        writeln!(
            err,
            "parlor: {} of the file did not read; {} counted among its set-aside rows above.",
            count(loaded.damaged as u64, "row"),
            agree(loaded.damaged as u64, "it is", "they are")
        )?;
    }
    match new_settings {
        Some((s, dir)) => {
            let said = settings::file::save(&s, &dir).map_err(|e| anyhow::anyhow!("{e:#}"))?;
            writeln!(err, "parlor: the file's settings {said}.")?;
        }
        None if loaded.dump.settings.is_some() => writeln!(
            err,
            "parlor: the file's settings were not applied (yours are kept; --settings takes them)."
        )?,
        None => {}
    }
    Ok(())
}
