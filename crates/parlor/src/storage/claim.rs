//! Claims on games in progress: a game is played by one process at a time.
//!
//! A [`Claim`] is whatever the storage holds to keep a game to one player; the core only keeps it while the game
//! is played and hands it back ([`super::Storage::release_claim`]) when the game ends.
//!
//! The SQLite store's claim is an exclusive lock on a small file in the data directory's `claims/` folder, named
//! after the play session. The operating system drops the lock when the process ends, however it ends (quit,
//! crash, `kill -9`), so a claim never outlives its player and there is nothing to clean up. A database in memory
//! has no data directory and nobody to share with: its claims always succeed.

#[cfg(feature = "terminal")]
use super::Store;
#[cfg(feature = "terminal")]
use std::fs::{File, OpenOptions, TryLockError};
use std::path::PathBuf;

/// A game in progress held by this program; dropping it lets others take the game.
pub struct Claim {
    /// What holds the game (the terminal's locked file), released when dropped; `None` when nobody else could
    /// take it (a database in memory).
    hold: Option<Box<dyn std::any::Any + Send>>,
    /// Where it is, for messages and tests.
    path: Option<PathBuf>,
}

impl std::fmt::Debug for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Claim")
            .field("held", &self.hold.is_some())
            .field("path", &self.path)
            .finish()
    }
}

/// Why a game could not be claimed.
#[derive(Debug)]
pub enum ClaimError {
    /// Another running `parlor` is playing it.
    Taken,
    /// The claims folder or the lock file could not be used (a read-only data directory, a file in the folder's
    /// place): where, and why.
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for ClaimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClaimError::Taken => f.write_str("another Parlor is playing this game"),
            ClaimError::Io(path, e) => {
                write!(f, "could not claim the game in {}: {e}", path.display())
            }
        }
    }
}

impl Claim {
    /// A claim held by `hold` (dropped when the claim is), found at `path` if it is a file.
    pub fn new(hold: Box<dyn std::any::Any + Send>, path: Option<PathBuf>) -> Claim {
        Claim {
            hold: Some(hold),
            path,
        }
    }

    /// A claim that holds nothing: where nobody else can take the game.
    pub fn unshared() -> Claim {
        Claim {
            hold: None,
            path: None,
        }
    }

    /// The lock file's path (`None` for a database in memory).
    pub fn path(&self) -> Option<&std::path::Path> {
        self.path.as_deref()
    }
}

/// The lock file of play session `session` in the claims folder `folder`. Session ids are made of hex digits,
/// digits and dashes; anything else is replaced, so a damaged row can never name a path outside the folder.
#[cfg(feature = "terminal")]
fn lock_path(folder: &std::path::Path, session: &str) -> PathBuf {
    let name: String = session
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    folder.join(format!("{name}.lock"))
}

/// A locked file: unlocked when dropped.
#[cfg(feature = "terminal")]
struct Locked(File);

#[cfg(feature = "terminal")]
impl Drop for Locked {
    fn drop(&mut self) {
        let _ = self.0.unlock();
    }
}

#[cfg(feature = "terminal")]
impl Store {
    /// The SQLite store's claim on the game of play session `session`: a locked file in the data directory.
    pub(super) fn lock(&self, session: &str) -> Result<Claim, ClaimError> {
        let Some(dir) = self.dir.as_deref() else {
            return Ok(Claim::unshared());
        };
        let folder = dir.join("claims");
        let io = |path: &std::path::Path| {
            let path = path.to_path_buf();
            move |e| ClaimError::Io(path, e)
        };
        std::fs::create_dir_all(&folder).map_err(io(&folder))?;
        let path = lock_path(&folder, session);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io(&path))?;
        match file.try_lock() {
            Ok(()) => Ok(Claim::new(Box::new(Locked(file)), Some(path))),
            Err(TryLockError::WouldBlock) => Err(ClaimError::Taken),
            Err(TryLockError::Error(e)) => Err(ClaimError::Io(path, e)),
        }
    }

    /// Whether another process holds the claim on the game of play session `session` now (its lock file is
    /// locked). Looking creates nothing: no lock file, no claim. A file that cannot be opened or locked for another
    /// reason says nothing (taking the game up will say what is wrong).
    pub(super) fn held(&self, session: &str) -> bool {
        let Some(dir) = self.dir.as_deref() else {
            return false;
        };
        let path = lock_path(&dir.join("claims"), session);
        let Ok(file) = OpenOptions::new().write(true).open(&path) else {
            return false;
        };
        match file.try_lock() {
            Ok(()) => {
                let _ = file.unlock();
                false
            }
            Err(TryLockError::WouldBlock) => true,
            Err(TryLockError::Error(_)) => false,
        }
    }

    /// Forgets the lock file of a finished game (called while its claim is still held).
    pub(super) fn unlock(&self, claim: Claim) {
        if let Some(path) = claim.path.clone() {
            let _ = std::fs::remove_file(path);
        }
        drop(claim);
    }
}

#[cfg(test)]
#[cfg(feature = "terminal")]
mod tests {
    use super::*;
    use crate::storage::Storage;

    #[test]
    fn a_game_is_claimed_once_until_its_claim_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let a = Store::open(dir.path()).unwrap().store;
        let b = Store::open(dir.path()).unwrap().store;
        let claim = a.claim("s-1").unwrap();
        assert!(matches!(b.claim("s-1"), Err(ClaimError::Taken)));
        assert!(b.held_elsewhere("s-1"), "held by another claim");
        assert!(!b.held_elsewhere("s-2"), "never claimed");
        assert!(
            !dir.path().join("claims/s-2.lock").exists(),
            "looking creates nothing"
        );
        assert!(b.claim("s-2").is_ok(), "other games stay free");
        drop(claim);
        assert!(b.claim("s-1").is_ok());
    }

    #[test]
    fn odd_session_names_stay_inside_the_claims_folder() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path()).unwrap().store;
        let claim = store.claim("../../etc/x").unwrap();
        let path = claim.path().unwrap();
        assert!(path.starts_with(dir.path().join("claims")), "{path:?}");
    }
}
