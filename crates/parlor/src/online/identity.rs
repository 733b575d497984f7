//! Who the player is online: a name and a secret token, kept in the configuration directory (`online.json`,
//! readable by its owner only). A new identity has a name and no token: at its first connection the client
//! registers the name and the server issues the token (128 random bits), which is kept here before anything else
//! and brought to every `hello` after. An identity kept before the server issued tokens has one the client made
//! (32 hexadecimal digits from the system's randomness), which goes on working. There is no password.

#[cfg(feature = "terminal")]
use anyhow::{Context, Result, anyhow};
use serde::{Deserialize, Serialize};
#[cfg(feature = "terminal")]
use std::path::{Path, PathBuf};

#[cfg(feature = "terminal")]
/// The file, in the configuration directory, that keeps the name and token.
pub const FILE: &str = "online.json";

/// A player's name and token.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// The name other players see.
    pub name: String,
    /// The secret the server knows the name by.
    pub token: String,
}

#[cfg(feature = "terminal")]
/// The login name made into a valid player name (letters, digits, `_`, `-`), or `player`.
fn default_name() -> String {
    let login = std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_default();
    let name: String = login
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .take(parlor_online::protocol::MAX_NAME_CHARS)
        .collect();
    if name.is_empty() {
        "player".to_string()
    } else {
        name
    }
}

#[cfg(feature = "terminal")]
/// The identity kept in `dir`, made (and kept) if there is none. `name` given replaces the kept name (the token
/// stays). A kept file that cannot be read is an error, never silently replaced: its token is the player's.
pub fn load_or_create(dir: &Path, name: Option<&str>) -> Result<Identity> {
    let path = dir.join(FILE);
    let kept = match std::fs::read_to_string(&path) {
        Ok(text) => Some(
            serde_json::from_str::<Identity>(&text)
                .with_context(|| format!("{} is not a name and token", path.display()))?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    if let Some(n) = name {
        parlor_online::protocol::check_name(n).map_err(|e| anyhow!("--name {n}: {e}"))?;
    }
    let identity = match (kept, name) {
        (Some(id), None) => return Ok(id),
        (Some(id), Some(n)) if id.name == n => return Ok(id),
        (Some(id), Some(n)) => Identity {
            name: n.to_string(),
            token: id.token,
        },
        // No token yet: the server issues it at the first connection.
        (None, n) => Identity {
            name: n.map_or_else(default_name, str::to_string),
            token: String::new(),
        },
    };
    save(&path, &identity)?;
    Ok(identity)
}

#[cfg(feature = "terminal")]
/// Keeps `identity` in `dir` (the token a server issued), replacing the one kept.
pub fn keep(dir: &Path, identity: &Identity) -> Result<()> {
    save(&dir.join(FILE), identity)
}

#[cfg(feature = "terminal")]
/// What keeps an identity whose token the server issued: in `dir`, or nowhere (an error saying so).
pub fn keeper(dir: Option<PathBuf>) -> super::link::Keep {
    Box::new(move |identity: &Identity| match &dir {
        Some(d) => keep(d, identity).map_err(|e| format!("{e:#}")),
        None => {
            Err("no configuration directory to keep the token in: pass --config-dir".to_string())
        }
    })
}

#[cfg(feature = "terminal")]
/// The file, in the configuration directory, that keeps the server the menu's Online entry last connected to.
pub const SERVER_FILE: &str = "online-server.txt";

#[cfg(feature = "terminal")]
/// The identity kept in `dir`, if there is one that reads (the menu's Online entry offers its name; nothing is
/// made or written).
pub fn kept(dir: &Path) -> Option<Identity> {
    let text = std::fs::read_to_string(dir.join(FILE)).ok()?;
    serde_json::from_str(&text).ok()
}

#[cfg(feature = "terminal")]
/// The server the menu's Online entry last connected to from `dir`, if any.
pub fn kept_server(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(dir.join(SERVER_FILE)).ok()?;
    let url = text.trim();
    (!url.is_empty()).then(|| url.to_string())
}

#[cfg(feature = "terminal")]
/// Keeps `url` as the server the menu's Online entry offers next time.
pub fn keep_server(dir: &Path, url: &str) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join(SERVER_FILE);
    std::fs::write(&path, format!("{url}\n")).with_context(|| format!("writing {}", path.display()))
}

#[cfg(feature = "terminal")]
/// The name offered to a player who has none kept: the login name made valid, or `player`.
pub fn offered_name() -> String {
    default_name()
}

#[cfg(feature = "terminal")]
/// Writes the identity to `path` atomically, readable and writable by its owner only.
fn save(path: &Path, identity: &Identity) -> Result<()> {
    let dir = path.parent().map_or_else(PathBuf::new, Path::to_path_buf);
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = path.with_extension("json.tmp");
    let text = serde_json::to_string_pretty(identity)?;
    {
        use std::io::Write;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let mut f = options
            .open(&tmp)
            .with_context(|| format!("writing {}", tmp.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            f.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

#[cfg(all(test, feature = "terminal"))]
mod tests {
    use super::*;

    #[test]
    fn an_identity_is_made_once_kept_private_and_renamed_with_its_token() {
        let dir = tempfile::tempdir().unwrap();
        let new = load_or_create(dir.path(), Some("ann")).unwrap();
        assert_eq!(new.name, "ann");
        assert_eq!(new.token, "", "no token until the server issues one");
        assert_eq!(load_or_create(dir.path(), None).unwrap(), new);
        let a = Identity {
            name: "ann".into(),
            token: "0123456789abcdef0123456789abcdef".into(),
        };
        keeper(Some(dir.path().to_path_buf()))(&a).unwrap();
        assert_eq!(load_or_create(dir.path(), None).unwrap(), a);
        assert!(keeper(None)(&a).is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let b = load_or_create(dir.path(), Some("anna")).unwrap();
        assert_eq!((b.name.as_str(), &b.token), ("anna", &a.token));
        assert!(load_or_create(dir.path(), Some("no spaces")).is_err());
        assert_eq!(kept(dir.path()), Some(b));
    }

    #[test]
    fn the_menus_server_is_kept_beside_the_identity() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(kept(dir.path()), None);
        assert_eq!(kept_server(dir.path()), None);
        keep_server(dir.path(), "ws://example.org:7878").unwrap();
        assert_eq!(
            kept_server(dir.path()).as_deref(),
            Some("ws://example.org:7878")
        );
    }
}
