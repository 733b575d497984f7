//! Late-game starting positions for training (a form of Jaśkowski's carousel shaping): greedy self-play reaches
//! 16384 in about one game of a hundred, so the weights of the late game learn from little. Training therefore keeps
//! a pool of positions its own games passed through once they held a large tile, and starts a share of its games
//! from one of them ([`super::TrainConfig::restart`]). Games started that way add their own later positions too, so
//! the pool moves on toward the tiles the network has not mastered yet.
//!
//! The pool is a ring of at most [`Starts::capacity`] boards. It is saved beside a training checkpoint
//! (`FILE.starts`, written atomically) and resumed with it, so that a run stopped and resumed with one thread is the
//! same as one run. Layout (little-endian): magic `P48START`, the game count it goes with (`u64`), the ring's next
//! slot (`u64`), the number of boards (`u64`), the boards (`u64` each), then the 64-bit FNV-1a hash of all before it.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::file::WeightsFileError;
use crate::bitboard::Bitboard;

const MAGIC: &[u8; 8] = b"P48START";

/// The pool's size in training: 100,000 boards (800 KB on disk).
pub const POOL_CAPACITY: usize = 100_000;

/// A ring of starting positions shared by the training threads.
#[derive(Debug)]
pub struct Starts {
    capacity: usize,
    ring: Mutex<Ring>,
}

#[derive(Debug, Default, Clone, PartialEq)]
struct Ring {
    boards: Vec<Bitboard>,
    next: usize,
}

impl Starts {
    /// An empty pool of at most `capacity` boards (at least 1).
    pub(crate) fn new(capacity: usize) -> Starts {
        Starts {
            capacity: capacity.max(1),
            ring: Mutex::new(Ring::default()),
        }
    }

    /// Boards in the pool now.
    pub fn len(&self) -> usize {
        self.ring.lock().map_or(0, |r| r.boards.len())
    }

    /// True when the pool holds no board.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Adds a board, over the oldest once the pool is full.
    pub fn push(&self, b: Bitboard) {
        if let Ok(mut r) = self.ring.lock() {
            if r.boards.len() < self.capacity {
                r.boards.push(b);
            } else {
                let next = r.next;
                r.boards[next] = b;
            }
            r.next = (r.next + 1) % self.capacity;
        }
    }

    /// The board at `draw` modulo the pool's size, `None` when it is empty.
    pub fn pick(&self, draw: u64) -> Option<Bitboard> {
        let r = self.ring.lock().ok()?;
        let n = r.boards.len() as u64;
        (n > 0).then(|| r.boards[(draw % n) as usize])
    }

    #[cfg(test)]
    /// True when both pools hold the same boards in the same slots.
    pub(crate) fn same_as(&self, other: &Starts) -> bool {
        match (self.ring.lock(), other.ring.lock()) {
            (Ok(a), Ok(b)) => *a == *b && self.capacity == other.capacity,
            _ => false,
        }
    }

    /// The file that holds the pool of the checkpoint `path`.
    pub(crate) fn path(path: &Path) -> PathBuf {
        let mut p = path.as_os_str().to_owned();
        p.push(".starts");
        PathBuf::from(p)
    }

    /// Writes the pool beside the checkpoint `path` atomically, stamped with `games`.
    pub(crate) fn save(&self, path: &Path, games: u64) -> Result<(), WeightsFileError> {
        let target = Starts::path(path);
        let ring = self.ring.lock().map(|r| r.clone()).unwrap_or_default();
        let mut bytes = Vec::with_capacity(40 + 8 * ring.boards.len());
        bytes.extend_from_slice(MAGIC);
        for n in [games, ring.next as u64, ring.boards.len() as u64] {
            bytes.extend_from_slice(&n.to_le_bytes());
        }
        for b in &ring.boards {
            bytes.extend_from_slice(&b.to_le_bytes());
        }
        bytes.extend_from_slice(&fnv1a(&bytes).to_le_bytes());
        let mut tmp = target.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let write = || -> std::io::Result<()> {
            std::fs::write(&tmp, &bytes)?;
            std::fs::File::open(&tmp)?.sync_all()?;
            std::fs::rename(&tmp, &target)
        };
        write().map_err(|source| WeightsFileError::Io {
            path: target.clone(),
            source,
        })
    }

    /// Reads the pool saved beside the checkpoint `path` for a network trained on `games` games, into a pool of
    /// `capacity` boards. `Ok(None)` when there is none or it belongs to another game count; an error when the file
    /// is damaged or holds more boards than `capacity`.
    pub fn load(
        path: &Path,
        games: u64,
        capacity: usize,
    ) -> Result<Option<Starts>, WeightsFileError> {
        let file = Starts::path(path);
        let bytes = match std::fs::read(&file) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(WeightsFileError::Io { path: file, source }),
        };
        let invalid = |reason: &str| WeightsFileError::Invalid {
            path: file.clone(),
            reason: reason.to_string(),
        };
        if bytes.len() < 40 || &bytes[..8] != MAGIC {
            return Err(invalid("not a pool of starting positions"));
        }
        let (body, hash) = bytes.split_at(bytes.len() - 8);
        if hash != fnv1a(body).to_le_bytes() {
            return Err(invalid("checksum mismatch"));
        }
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&body[8 + 8 * i..16 + 8 * i]);
            u64::from_le_bytes(w)
        };
        let (saved_games, next, len) = (word(0), word(1), word(2));
        if len.checked_mul(8).and_then(|n| n.checked_add(32)) != Some(body.len() as u64) {
            return Err(invalid("wrong length"));
        }
        let capacity = capacity.max(1);
        if len as usize > capacity || next as usize >= capacity {
            return Err(invalid("more boards than the pool holds"));
        }
        if saved_games != games {
            return Ok(None);
        }
        let boards = (0..len as usize).map(|i| word(3 + i)).collect();
        Ok(Some(Starts {
            capacity,
            ring: Mutex::new(Ring {
                boards,
                next: next as usize,
            }),
        }))
    }
}

/// The 64-bit FNV-1a hash.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
