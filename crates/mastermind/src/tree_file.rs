//! Strategy trees on disk: a compact binary form with a checksum, written atomically, so that a tree
//! built once (the optimal Bulls and Cows tree takes minutes) is a lookup afterwards.
//!
//! Layout, little-endian: the magic `PMMTREE1`; the variant (colours, pegs, guesses as `u32`, secret
//! repeats, guess repeats, palette); the strategy (its index in [`FILE_ORDER`]); the node count (`u32`);
//! per node the guess's pegs, secrets (`u32`), total (`u64`), max (`u32`), solves (0/1), the child count
//! and per child its feedback class (`black * (pegs + 1) + white`) and node index (`u32`); last the
//! 64-bit FNV-1a hash of everything before it.
//!
//! [`StrategyTree::save`] writes to a temporary file in the same directory, syncs it and renames it over
//! the target, so the target is either absent, the old tree or the whole new one. [`StrategyTree::load`]
//! checks the magic, the checksum, every index (children come after their parent, so the tree has no
//! loops) and then replays every secret ([`StrategyTree::verify`]): a truncated, corrupted or foreign
//! file is an error, never a wrong tree.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use thiserror::Error;

use crate::code::Code;
use crate::feedback::Feedback;
use crate::solve::SolveError;
use crate::strategy::Strategy;
use crate::tree::{StrategyTree, TreeNode};
use crate::variant::{Palette, Variant};

const MAGIC: &[u8; 8] = b"PMMTREE1";

/// The strategies by their number in a tree file. Number 0 is the sorted-parts rule, which files of earlier
/// versions wrote as `knuth` (it was that strategy's rule then): such a file reads as the tree it is, and a kept
/// `knuth` tree of an earlier version is not taken for one of Knuth's published rule, which has a number of its own.
const FILE_ORDER: [Strategy; 7] = [
    Strategy::KnuthSorted,
    Strategy::ExpectedSize,
    Strategy::Entropy,
    Strategy::MostParts,
    Strategy::Optimal,
    Strategy::Best,
    Strategy::Knuth,
];

/// Why a tree file could not be read or written.
#[derive(Debug, Error)]
pub enum TreeFileError {
    /// Reading or writing the file failed.
    #[error("tree file {path}: {source}")]
    Io {
        /// the file
        path: PathBuf,
        /// the system error
        source: std::io::Error,
    },
    /// The bytes are not a complete, intact tree file.
    #[error("not a valid tree file: {0}")]
    Invalid(String),
    /// The file holds a tree for another variant or strategy.
    #[error("the tree file is for {found}, not {wanted}")]
    Other {
        /// what the file holds
        found: String,
        /// what was asked for
        wanted: String,
    },
    /// Building the tree failed or was cancelled, or the tree does not replay correctly.
    #[error("{0}")]
    Solve(#[from] SolveError),
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// A reader over a byte slice that reports truncation as an error.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Result<&[u8], TreeFileError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| TreeFileError::Invalid("truncated".into()))?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, TreeFileError> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<u32, TreeFileError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self) -> Result<u64, TreeFileError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

impl StrategyTree {
    /// The tree in the file format (see the module documentation of `tree_file`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let v = self.variant();
        let mut out = Vec::with_capacity(16 + self.nodes().len() * 32);
        out.extend_from_slice(MAGIC);
        out.push(v.colours());
        out.push(v.pegs());
        out.extend_from_slice(&v.guesses().to_le_bytes());
        out.push(u8::from(v.secret_repeats()));
        out.push(u8::from(v.guess_repeats()));
        out.push(match v.palette() {
            Palette::Colours => 0,
            Palette::Digits => 1,
        });
        let strategy = FILE_ORDER
            .iter()
            .position(|&s| s == self.strategy())
            .unwrap_or(0);
        out.push(strategy as u8);
        out.extend_from_slice(&(self.nodes().len() as u32).to_le_bytes());
        for n in self.nodes() {
            out.extend_from_slice(n.guess.pegs());
            out.extend_from_slice(&n.secrets.to_le_bytes());
            out.extend_from_slice(&n.total.to_le_bytes());
            out.extend_from_slice(&n.max.to_le_bytes());
            out.push(u8::from(n.solves));
            out.push(n.children.len() as u8);
            for &(fb, child) in &n.children {
                out.push(fb.class(v.pegs()) as u8);
                out.extend_from_slice(&child.to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a tree written by [`StrategyTree::to_bytes`], checking its checksum and structure and then
    /// replaying every secret against it.
    pub fn from_bytes(bytes: &[u8]) -> Result<StrategyTree, TreeFileError> {
        let invalid = |s: &str| TreeFileError::Invalid(s.into());
        if bytes.len() < MAGIC.len() + 8 || &bytes[..MAGIC.len()] != MAGIC {
            return Err(invalid("no tree-file header"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut stored = [0u8; 8];
        stored.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(stored) {
            return Err(invalid("checksum mismatch (truncated or corrupted)"));
        }
        let mut r = Reader {
            bytes: body,
            at: MAGIC.len(),
        };
        let colours = r.u8()?;
        let pegs = r.u8()?;
        let guesses = r.u32()?;
        let sr = r.u8()? != 0;
        let gr = r.u8()? != 0;
        let palette = match r.u8()? {
            0 => Palette::Colours,
            1 => Palette::Digits,
            _ => return Err(invalid("unknown palette")),
        };
        let variant = Variant::custom(u32::from(colours), u32::from(pegs), guesses, sr, gr)
            .map_err(|e| TreeFileError::Invalid(e.to_string()))?
            .with_palette(palette);
        let strategy = *FILE_ORDER
            .get(usize::from(r.u8()?))
            .ok_or_else(|| invalid("unknown strategy"))?;
        let count = r.u32()? as usize;
        if count == 0 || count > body.len() {
            return Err(invalid("bad node count"));
        }
        let mut nodes = Vec::with_capacity(count);
        for id in 0..count {
            let guess = Code::from_pegs(r.take(usize::from(pegs))?)
                .filter(|c| variant.validate_guess(c).is_ok())
                .ok_or_else(|| invalid("bad guess"))?;
            let secrets = r.u32()?;
            let total = r.u64()?;
            let max = r.u32()?;
            let solves = r.u8()? != 0;
            let kids = r.u8()?;
            let mut children = Vec::with_capacity(usize::from(kids));
            for _ in 0..kids {
                let class = usize::from(r.u8()?);
                if class >= usize::from(pegs + 1) * usize::from(pegs + 1) {
                    return Err(invalid("bad feedback"));
                }
                let child = r.u32()?;
                if child as usize <= id || child as usize >= count {
                    return Err(invalid("bad child index"));
                }
                children.push((Feedback::from_class(class, pegs), child));
            }
            nodes.push(TreeNode {
                guess,
                secrets,
                total,
                max,
                solves,
                children,
            });
        }
        if r.at != body.len() {
            return Err(invalid("trailing bytes"));
        }
        let tree = StrategyTree::from_nodes(variant, strategy, nodes);
        tree.verify()?;
        Ok(tree)
    }

    /// Writes the tree to `path` atomically (temporary file in the same directory, synced, renamed).
    pub fn save(&self, path: &Path) -> Result<(), TreeFileError> {
        let io = |source| TreeFileError::Io {
            path: path.to_path_buf(),
            source,
        };
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(io)?;
        let name = path
            .file_name()
            .map_or_else(|| "tree".into(), |n| n.to_string_lossy().into_owned());
        let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
        let write = || -> std::io::Result<()> {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&self.to_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        };
        write().map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            io(e)
        })
    }

    /// Reads and checks a tree file (see [`StrategyTree::from_bytes`]).
    pub fn load(path: &Path) -> Result<StrategyTree, TreeFileError> {
        let bytes = std::fs::read(path).map_err(|source| TreeFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        StrategyTree::from_bytes(&bytes)
    }

    /// The tree of `strategy` for `variant` from the file at `path` if it holds that tree intact;
    /// otherwise builds it (calling `progress(done, total)`, stopping with [`SolveError::Cancelled`] when
    /// `cancel` is set), verifies it and saves it atomically. Returns the tree and whether it was built.
    ///
    /// A cancelled or failed build writes nothing, so a later call never mistakes a partial build for a
    /// finished one; an unreadable file is rebuilt and replaced.
    pub fn load_or_build(
        variant: &Variant,
        strategy: Strategy,
        path: &Path,
        cancel: &AtomicBool,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<(StrategyTree, bool), TreeFileError> {
        if let Ok(tree) = StrategyTree::load(path)
            && tree.variant() == variant
            && tree.strategy() == strategy
        {
            return Ok((tree, false));
        }
        let tree = StrategyTree::build_cancellable(variant, strategy, cancel, progress)?;
        tree.verify()?;
        tree.save(path)?;
        Ok((tree, true))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mm-tree-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn round_trip_and_lookup() {
        let tree = StrategyTree::build(&Variant::SEED, Strategy::Knuth).unwrap();
        let back = StrategyTree::from_bytes(&tree.to_bytes()).unwrap();
        assert_eq!(back.nodes(), tree.nodes());
        assert_eq!(back.variant(), tree.variant());
        assert_eq!(back.strategy(), Strategy::Knuth);
        let bc = StrategyTree::build(&Variant::BULLS_COWS, Strategy::MostParts).unwrap();
        let back = StrategyTree::from_bytes(&bc.to_bytes()).unwrap();
        assert_eq!(back.variant().palette(), Palette::Digits);
        assert_eq!(back.claimed(), bc.claimed());
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_is_refused() {
        let bytes = StrategyTree::build(
            &Variant::custom(3, 3, 10, true, true).unwrap(),
            Strategy::Knuth,
        )
        .unwrap()
        .to_bytes();
        for len in 0..bytes.len() {
            assert!(StrategyTree::from_bytes(&bytes[..len]).is_err(), "{len}");
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(StrategyTree::from_bytes(&b).is_err(), "{i}");
        }
    }

    #[test]
    fn cancelled_build_leaves_no_file_and_a_later_build_completes() {
        let dir = tmpdir("cancel");
        let path = dir.join("classic-optimal.pmt");
        let stop = AtomicBool::new(true);
        let r = StrategyTree::load_or_build(
            &Variant::CLASSIC,
            Strategy::Optimal,
            &path,
            &stop,
            &mut |_, _| {},
        );
        assert!(matches!(
            r,
            Err(TreeFileError::Solve(SolveError::Cancelled))
        ));
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            0,
            "no temp file left"
        );
        // A stray partial file (as a crash mid-write of a non-atomic writer would leave) is rebuilt.
        std::fs::write(&path, &b"PMMTREE1 partial"[..]).unwrap();
        let go = AtomicBool::new(false);
        let (tree, built) = StrategyTree::load_or_build(
            &Variant::SEED,
            Strategy::Optimal,
            &path,
            &go,
            &mut |_, _| {},
        )
        .unwrap();
        assert!(built);
        assert_eq!(tree.claimed().total, 1435);
        let (again, built) = StrategyTree::load_or_build(
            &Variant::SEED,
            Strategy::Optimal,
            &path,
            &go,
            &mut |_, _| {},
        )
        .unwrap();
        assert!(!built);
        assert_eq!(again.nodes(), tree.nodes());
        // Another strategy asked of the same file: rebuilt, not confused.
        let (k, built) = StrategyTree::load_or_build(
            &Variant::SEED,
            Strategy::Knuth,
            &path,
            &go,
            &mut |_, _| {},
        )
        .unwrap();
        assert!(built);
        assert_eq!(k.strategy(), Strategy::Knuth);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
