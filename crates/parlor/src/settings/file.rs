//! `settings.toml`: read with every mistake named by its line (the entry falls back to its default, the rest of the
//! file still counts); written with a comment on every setting, through a temporary file and a rename so that a crash
//! never leaves half a file. Saving over a file keeps what the player wrote in it (comments, blank lines, order,
//! entries Parlor does not know): only the values that changed are rewritten, and settings it lacks are added.

use super::keys::{self, actions};
use super::{Catalog, GENERAL, Section, Settings, keys_text};
#[cfg(feature = "terminal")]
use crate::mid::error::Error;
use crate::mid::settings::{Kind, Setting, format_decimal};
#[cfg(feature = "terminal")]
use std::path::Path;
use toml_edit::{Document, DocumentMut, Item, Table, Value};

/// The settings file's name in the configuration directory.
pub const FILE: &str = "settings.toml";

/// What reading the settings gave.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The settings (defaults where the file said nothing usable).
    pub settings: Settings,
    /// One line per mistake, naming the file and the line.
    pub problems: Vec<String>,
}

/// Reads `dir/settings.toml` for the games of `catalog`; a missing file is the defaults, with no problem.
#[cfg(feature = "terminal")]
pub fn load(dir: &Path, catalog: &Catalog) -> Loaded {
    let path = dir.join(FILE);
    match read_regular(&path) {
        Ok(Some(bytes)) => {
            let text = String::from_utf8_lossy(&bytes);
            let (settings, problems) = parse(&text, catalog);
            Loaded {
                settings,
                problems: problems
                    .into_iter()
                    .map(|(line, m)| format!("{} line {line}: {m}", path.display()))
                    .collect(),
            }
        }
        Ok(None) => Loaded {
            settings: Settings::new(catalog),
            problems: Vec::new(),
        },
        Err(e) => Loaded {
            settings: Settings::new(catalog),
            problems: vec![format!(
                "{}: cannot be read ({e}): using the default settings",
                path.display()
            )],
        },
    }
}

/// The bytes of the settings file at `path`, `None` when there is none. Anything but a regular file (or a link to
/// one) is refused before it is opened: reading a FIFO would wait for a writer forever, a device or a socket is not
/// a settings file.
#[cfg(feature = "terminal")]
fn read_regular(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if !meta.is_file() {
        return Err(std::io::Error::other(format!(
            "it is {}, not a regular file",
            file_kind(&meta.file_type())
        )));
    }
    std::fs::read(path).map(Some)
}

/// What a file that is not a regular file is, in words (`a FIFO`, `a directory`).
#[cfg(feature = "terminal")]
fn file_kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

/// The line (from 1) of a byte offset.
fn line_of(text: &str, at: Option<std::ops::Range<usize>>) -> usize {
    let at = at.map_or(0, |r| r.start.min(text.len()));
    text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// How many lines that are not TOML are set aside before the whole file is given up as not TOML.
const MAX_BAD_LINES: usize = 20;

/// The file's text as TOML, keeping what can be kept: each line that is not valid TOML is left out (a broken table
/// header with the entries under it, which would otherwise land in the table above), with a mistake naming it,
/// and the rest is read. `None` (with the mistake) when the file cannot be read as TOML even so.
fn recover(text: &str, problems: &mut Vec<(usize, String)>) -> Option<Document<String>> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let mut first_why = None;
    for _ in 0..=MAX_BAD_LINES {
        let attempt = lines.join("\n");
        let e = match Document::parse(attempt.clone()) {
            Ok(d) => return Some(d),
            Err(e) => e,
        };
        let line = line_of(&attempt, e.span());
        let why = e.message().trim().trim_end_matches('.').to_string();
        first_why.get_or_insert((line, why.clone()));
        let i = line - 1;
        if i >= lines.len() || lines[i].trim().is_empty() {
            break;
        }
        let mut end = i + 1;
        let header = lines[i].trim_start().starts_with('[');
        if header {
            while end < lines.len() && !lines[end].trim_start().starts_with('[') {
                end += 1;
            }
        }
        let what = if header && end > i + 1 {
            format!(
                "lines {line} to {end} are ignored (a table header that is not TOML, and its entries)"
            )
        } else {
            "this line is ignored".to_string()
        };
        problems.push((line, format!("not valid TOML ({why}): {what}")));
        for l in &mut lines[i..end] {
            *l = "";
        }
    }
    // Lines were set aside and still the file is not TOML: none of it is used.
    let (line, why) = first_why.unwrap_or((1, String::new()));
    problems.retain(|(_, m)| !m.starts_with("not valid TOML"));
    problems.push((
        line,
        format!("not valid TOML ({why}): the whole file is ignored until it is fixed; using the default settings"),
    ));
    None
}

/// Reads the file's text for the games of `catalog`: the settings, and (line, mistake) for every entry that was not
/// used.
pub fn parse(text: &str, catalog: &Catalog) -> (Settings, Vec<(usize, String)>) {
    let mut settings = Settings::new(catalog);
    let mut problems = Vec::new();
    let Some(doc) = recover(text, &mut problems) else {
        return (settings, problems);
    };
    // The lines set aside were blanked, never removed, so every line number below is the file's own.
    let text: &str = doc.raw();
    let root = doc.as_table();
    let line = |span| line_of(text, span);
    for (key, item) in root.iter() {
        let key_span = root.key(key).and_then(|k| k.span());
        match key {
            "confirm" => read_table(
                text,
                &mut settings,
                Section::Confirm,
                item,
                key_span,
                &mut problems,
            ),
            "keys" => read_keys(text, &mut settings, item, key_span, &mut problems),
            "games" => match item.as_table_like() {
                Some(table) => {
                    for (id, sub) in table.iter() {
                        let span = table.key(id).and_then(|k| k.span());
                        match catalog.games().iter().position(|g| g.id() == id) {
                            Some(i) => read_table(
                                text,
                                &mut settings,
                                Section::Game(i),
                                sub,
                                span,
                                &mut problems,
                            ),
                            None => problems.push((
                                line(span),
                                format!(
                                    "unknown game '{id}' (known: {}): ignored",
                                    catalog.names()
                                ),
                            )),
                        }
                    }
                }
                None => problems.push((line(key_span), "'games' should be a table: ignored".into())),
            },
            _ => match GENERAL.iter().find(|s| s.key == key) {
                Some(s) => read_value(
                    text,
                    &mut settings,
                    Section::General,
                    s,
                    item,
                    key_span,
                    &mut problems,
                ),
                None => problems.push((
                    line(key_span),
                    format!(
                        "unknown setting '{key}' (known: {}, and the tables [confirm], [keys] and [games.GAME]): \
                         ignored",
                        GENERAL.iter().map(|s| s.key).collect::<Vec<_>>().join(", ")
                    ),
                )),
            },
        }
    }
    (settings, problems)
}

/// The entries of a section's table.
fn read_table(
    text: &str,
    settings: &mut Settings,
    section: Section,
    item: &Item,
    span: Option<std::ops::Range<usize>>,
    problems: &mut Vec<(usize, String)>,
) {
    let name = section.table(settings.catalog());
    let Some(table) = item.as_table_like() else {
        problems.push((
            line_of(text, span),
            format!("'{name}' should be a table: ignored"),
        ));
        return;
    };
    let known: Vec<&'static Setting> = match section {
        Section::Confirm => super::CONFIRM.iter().collect(),
        Section::Game(i) => settings.catalog().games()[i]
            .settings()
            .iter()
            .filter(|s| s.kind != Kind::Text)
            .collect(),
        _ => Vec::new(),
    };
    for (key, value) in table.iter() {
        let key_span = table.key(key).and_then(|k| k.span());
        match known.iter().find(|s| s.key == key) {
            Some(s) => read_value(text, settings, section, s, value, key_span, problems),
            None => problems.push((
                line_of(text, key_span),
                format!(
                    "unknown setting '{key}' in [{name}] (known: {}): ignored",
                    known.iter().map(|s| s.key).collect::<Vec<_>>().join(", ")
                ),
            )),
        }
    }
}

/// What a setting's value should be, for messages.
fn expected(s: &Setting) -> String {
    match s.kind {
        Kind::Toggle => "true or false".into(),
        Kind::Number { min, max } => format!("a whole number from {min} to {max}"),
        Kind::Decimal { min, max, .. } => format!("a number from {min} to {max}"),
        Kind::Choice(_) => format!("one of {}", s.range()),
        Kind::Text => "text".into(),
    }
}

/// A TOML value as the setting's text (`yes`/`no` for a toggle), if it has the right type.
fn as_text(s: &Setting, v: &Value) -> Option<String> {
    match (s.kind, v) {
        (Kind::Toggle, Value::Boolean(b)) => Some(if *b.value() { "yes" } else { "no" }.into()),
        (Kind::Number { .. }, Value::Integer(i)) => Some(i.value().to_string()),
        (Kind::Decimal { .. }, Value::Float(f)) => Some(format_decimal(*f.value())),
        (Kind::Decimal { .. }, Value::Integer(i)) => Some(i.value().to_string()),
        (Kind::Choice(_), Value::String(t)) => Some(t.value().clone()),
        (Kind::Choice(_), Value::Integer(i)) => Some(i.value().to_string()),
        _ => None,
    }
}

/// The name of a TOML value's type, for messages.
fn type_name(item: &Item) -> &'static str {
    match item {
        Item::Value(Value::String(_)) => "text",
        Item::Value(Value::Integer(_)) => "a whole number",
        Item::Value(Value::Float(_)) => "a decimal number",
        Item::Value(Value::Boolean(_)) => "true/false",
        Item::Value(Value::Datetime(_)) => "a date",
        Item::Value(Value::Array(_)) | Item::ArrayOfTables(_) => "a list",
        Item::Value(Value::InlineTable(_)) | Item::Table(_) => "a table",
        Item::None => "nothing",
    }
}

fn read_value(
    text: &str,
    settings: &mut Settings,
    section: Section,
    s: &Setting,
    item: &Item,
    key_span: Option<std::ops::Range<usize>>,
    problems: &mut Vec<(usize, String)>,
) {
    let table = section.table(settings.catalog());
    let name = if table.is_empty() {
        s.key.to_string()
    } else {
        format!("{table}.{}", s.key)
    };
    let line = line_of(text, key_span);
    let default = settings.get(section, s.key).unwrap_or_default();
    let default = file_value(s, &default);
    let Some(value) = item.as_value().and_then(|v| as_text(s, v)) else {
        problems.push((
            line,
            format!(
                "{name} should be {}, not {}: using the default, {default}",
                expected(s),
                type_name(item)
            ),
        ));
        return;
    };
    if let Err(why) = settings.set(section, s.key, &value) {
        problems.push((line, format!("{name}: {why}: using the default, {default}")));
    }
}

fn read_keys(
    text: &str,
    settings: &mut Settings,
    item: &Item,
    span: Option<std::ops::Range<usize>>,
    problems: &mut Vec<(usize, String)>,
) {
    let Some(table) = item.as_table_like() else {
        problems.push((
            line_of(text, span),
            "'keys' should be a table: ignored".into(),
        ));
        return;
    };
    for (name, value) in table.iter() {
        let line = line_of(text, table.key(name).and_then(|k| k.span()));
        let Some(i) = actions::find(name) else {
            problems.push((
                line,
                format!(
                    "unknown command '{name}' in [keys] (known: {}): ignored",
                    actions::ALL
                        .iter()
                        .map(|a| a.name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            ));
            continue;
        };
        let default = keys_text(&settings.keys()[i]);
        let words: Option<Vec<String>> = match value.as_value() {
            Some(Value::String(s)) => Some(vec![s.value().clone()]),
            Some(Value::Array(a)) => a.iter().map(|v| v.as_str().map(str::to_string)).collect(),
            _ => None,
        };
        let Some(words) = words else {
            problems.push((
                line,
                format!(
                    "keys.{name} should be a list of key names such as [\"u\", \"Backspace\"], not {}: \
                     using the default, {default}",
                    type_name(value)
                ),
            ));
            continue;
        };
        let parsed: Result<Vec<_>, String> = words
            .iter()
            .map(|w| keys::parse_key(w, settings.catalog().keys()))
            .collect();
        let result = parsed.and_then(|k| settings.set_keys(i, k));
        if let Err(why) = result {
            problems.push((
                line,
                format!("keys.{name}: {why}: using the default, {default}"),
            ));
        }
    }
}

/// A setting's value as the file writes it: a toggle as true/false, a number bare, anything else quoted.
fn file_value(s: &Setting, value: &str) -> String {
    match s.kind {
        Kind::Toggle => (value == "yes").to_string(),
        Kind::Number { .. } | Kind::Decimal { .. } => value.to_string(),
        _ => format!("\"{}\"", value.replace('\\', "\\\\").replace('"', "\\\"")),
    }
}

/// The whole file for `settings`, with a comment on every entry.
pub fn render(settings: &Settings) -> String {
    let mut out = String::from(
        "# Parlor's settings. Edit by hand, or with Settings in the menu (or `o` in plain mode).\n\
         # A mistake is reported with its line when Parlor starts, and that entry keeps its default.\n",
    );
    for section in settings.sections() {
        out.push('\n');
        let table = section.table(settings.catalog());
        if !table.is_empty() {
            out.push_str(&format!("[{table}]\n"));
        }
        if section == Section::Keys {
            out.push_str(&format!(
                "# Keys of the commands every game shares: a list of key names, each one character (exact case)\n\
                 # or a name. Key names: {}.\n",
                keys::key_names_allowed(settings.catalog().keys()).replacen("one character, or ", "", 1)
            ));
            for (i, a) in actions::ALL.iter().enumerate() {
                let list: Vec<String> = settings.keys()[i]
                    .iter()
                    .map(|&k| {
                        format!(
                            "\"{}\"",
                            keys::key_token(k)
                                .replace('\\', "\\\\")
                                .replace('"', "\\\"")
                        )
                    })
                    .collect();
                out.push_str(&format!(
                    "{} = [{}]  # {}\n",
                    a.name,
                    list.join(", "),
                    a.help
                ));
            }
            continue;
        }
        for (s, value) in settings.entries(section) {
            let range = match s.kind {
                Kind::Toggle => "true or false".to_string(),
                _ => s.range(),
            };
            out.push_str(&format!("# {} [{range}]\n", s.help));
            out.push_str(&format!(
                "{} = {}\n",
                quote_key(s.key),
                file_value(s, &value)
            ));
        }
    }
    out
}

/// The file for `settings` written over `old`: `old` with each value that differs from `settings` replaced (its
/// comments and spacing kept), the settings it lacks added with their comment, and the entries Parlor does not know
/// left out (they were reported as mistakes; `save` keeps the old file as `settings.toml.bak`), all else as it was.
/// `None` when `old` is not valid TOML.
pub fn merge(settings: &Settings, old: &str) -> Option<String> {
    let mut doc: DocumentMut = old.parse().ok()?;
    let fresh: DocumentMut = render(settings).parse().ok()?;
    merge_table(doc.as_table_mut(), fresh.as_table());
    Some(doc.to_string())
}

/// Makes `target` hold `fresh`'s entries (see [`merge`]), recursively.
fn merge_table(target: &mut Table, fresh: &Table) {
    for (name, item) in fresh.iter() {
        let Some((key, _)) = fresh.get_key_value(name) else {
            continue;
        };
        match item {
            Item::Value(v) => set_value(target, key, v),
            Item::Table(t) => match target.get_mut(name).and_then(Item::as_table_mut) {
                Some(sub) => merge_table(sub, t),
                None => {
                    target.insert_formatted(key, item.clone());
                }
            },
            _ => {}
        }
    }
    let unknown: Vec<String> = target
        .iter()
        .filter(|(name, _)| !fresh.contains_key(name))
        .map(|(name, _)| name.to_string())
        .collect();
    for name in unknown {
        target.remove(&name);
    }
}

/// Sets `key` of `table` to `value`: an existing value that reads differently is replaced with its decoration (the
/// spaces and the comment around it) kept; a missing key is added as `key` is formatted (with its comment).
fn set_value(table: &mut Table, key: &toml_edit::Key, value: &Value) {
    let bare = |v: &Value| {
        let mut v = v.clone();
        v.decor_mut().clear();
        v.to_string()
    };
    match table.get_mut(key.get()) {
        Some(Item::Value(old)) => {
            if bare(old) != bare(value) {
                let decor = old.decor().clone();
                *old = value.clone();
                *old.decor_mut() = decor;
            }
        }
        Some(other) => {
            *other = Item::Value(value.clone());
        }
        None => {
            table.insert_formatted(key, Item::Value(value.clone()));
        }
    }
}

/// A key as TOML writes it (bare when it can be).
fn quote_key(k: &str) -> String {
    if k.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        k.to_string()
    } else {
        format!("\"{k}\"")
    }
}

/// Writes `settings` to `dir/settings.toml` atomically (a temporary file in the same directory, then a rename);
/// returns what to tell the player ("saved to PATH", and where an old file with mistakes was kept), or why it could
/// not be written. A file that has mistakes is copied to `settings.toml.bak` first, so that hand edits the new file
/// drops are not lost.
#[cfg(feature = "terminal")]
pub fn save(settings: &Settings, dir: &Path) -> Result<String, Error> {
    use std::io::Write;
    let path = dir.join(FILE);
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Storage(format!("cannot create {}: {e}", dir.display())))?;
    let old = read_regular(&path).map_err(|e| {
        Error::Storage(format!(
            "{} cannot be replaced ({e}): the settings are not saved",
            path.display()
        ))
    })?;
    let mut kept = String::new();
    if let Some(old) = &old
        && !parse(&String::from_utf8_lossy(old), settings.catalog())
            .1
            .is_empty()
    {
        let bak = dir.join(format!("{FILE}.bak"));
        std::fs::write(&bak, old).map_err(|e| {
            Error::Storage(format!(
                "cannot keep the old file as {}: {e}",
                bak.display()
            ))
        })?;
        kept = format!(
            " (the old file, which had mistakes, is kept as {})",
            bak.display()
        );
    }
    let text = old
        .and_then(|old| merge(settings, &String::from_utf8_lossy(&old)))
        .unwrap_or_else(|| render(settings));
    let tmp = dir.join(format!(".{FILE}.{}.tmp", std::process::id()));
    let written = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    })();
    match written {
        Ok(()) => Ok(format!("saved to {}{kept}", path.display())),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(Error::Storage(format!(
                "cannot write {}: {e}",
                path.display()
            )))
        }
    }
}

/// The settings kept in `settings.toml` in a configuration directory (the terminal's [`super::Keeper`]).
#[cfg(feature = "terminal")]
#[derive(Clone, Debug)]
pub struct FileKeeper {
    dir: std::path::PathBuf,
}

#[cfg(feature = "terminal")]
impl FileKeeper {
    /// The settings file in configuration directory `dir`.
    pub fn new(dir: impl Into<std::path::PathBuf>) -> FileKeeper {
        FileKeeper { dir: dir.into() }
    }
}

#[cfg(feature = "terminal")]
impl super::Keeper for FileKeeper {
    fn location(&self) -> String {
        self.dir.join(FILE).display().to_string()
    }

    fn save(&self, settings: &Settings) -> Result<String, Error> {
        save(settings, &self.dir)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_file_reads_back_without_a_problem() {
        let mut s = crate::registry::settings();
        s.set(Section::General, "theme", "light").unwrap();
        s.set(Section::Confirm, "give-up", "no").unwrap();
        s.set(Section::Keys, "undo", "z").unwrap();
        let text = render(&s);
        let (back, problems) = parse(&text, s.catalog());
        assert!(problems.is_empty(), "{problems:?}\n{text}");
        assert_eq!(back, s);
        let (default, problems) = parse(
            &render(&crate::registry::settings()),
            &crate::registry::catalog(),
        );
        assert!(problems.is_empty());
        assert_eq!(default, crate::registry::settings());
    }

    #[test]
    fn saving_over_a_file_keeps_what_the_player_wrote() {
        let old = "# my settings, by hand\n\
                   theme = \"light\"   # light, for the day\n\
                   \n\
                   # faster please\n\
                   autoplay-ms = 50\n\
                   colour = \"red\"  # not a setting\n\
                   \n\
                   [keys]\n\
                   # my undo\n\
                   undo = [\"z\"]\n\
                   \n\
                   [games.2048]\n\
                   size = 5 # bigger\n";
        let (mut s, problems) = parse(old, &crate::registry::catalog());
        assert_eq!(problems.len(), 1, "{problems:?}");
        s.set(Section::General, "theme", "dark").unwrap();
        s.set(Section::Game(0), "size", "6").unwrap(); // games()[0] is 2048
        let text = merge(&s, old).unwrap();
        // The changed values are rewritten in place, their comments kept; the rest is as written.
        assert!(
            text.starts_with("# my settings, by hand\ntheme = \"dark\"   # light, for the day\n"),
            "{text}"
        );
        assert!(
            text.contains("\n# faster please\nautoplay-ms = 50\n"),
            "{text}"
        );
        assert!(text.contains("# my undo\nundo = [\"z\"]"), "{text}");
        assert!(text.contains("[games.2048]\nsize = 6 # bigger\n"), "{text}");
        // The unknown entry is left out (it was a mistake); the settings the file lacked are added, with their
        // comment, and the whole reads back as the settings, with no mistake.
        assert!(!text.contains("colour = \"red\""), "{text}");
        assert!(text.contains("animations = true"), "{text}");
        assert!(text.contains("hint = [\"t\"]"), "{text}");
        let (back, problems) = parse(&text, s.catalog());
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(back, s);
        // Saved again unchanged: the same text.
        assert_eq!(merge(&back, &text).unwrap(), text);
        // Not TOML: no merge (the file is written whole).
        assert!(merge(&s, "theme = [").is_none());
    }

    /// A FIFO (or anything but a regular file) at settings.toml is never opened: reading it would wait for a writer
    /// forever. Loading says so and uses the defaults; saving refuses and leaves it as it is.
    #[cfg(all(unix, feature = "terminal"))]
    #[test]
    fn a_fifo_for_the_file_is_refused_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let loaded = load(dir.path(), &crate::registry::catalog());
        assert_eq!(loaded.settings, crate::registry::settings());
        assert_eq!(loaded.problems.len(), 1, "{:?}", loaded.problems);
        assert!(
            loaded.problems[0].contains("it is a FIFO, not a regular file"),
            "{:?}",
            loaded.problems
        );
        let refused = save(&crate::registry::settings(), dir.path()).unwrap_err();
        assert!(
            format!("{refused:#}").contains("the settings are not saved"),
            "{refused:#}"
        );
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata(&path).unwrap().file_type().is_fifo());
    }

    #[test]
    fn a_mistake_names_its_line_and_keeps_the_rest() {
        let (s, p) = parse(
            "theme = \"light\"\n\nanimations = 3\nautoplay-ms = 50\n",
            &crate::registry::catalog(),
        );
        assert_eq!(s.theme(), crate::settings::ThemeName::Light);
        assert!(s.animations());
        assert_eq!(s.autoplay_ms(), 50);
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].0, 3);
        assert!(p[0].1.contains("true or false"), "{}", p[0].1);
    }
}
