//! A compact form of a strategy tree: only the guesses, two bytes each, the rest recomputed on reading.
//!
//! Layout (little-endian):
//! - magic `PMCT`, format version `1`;
//! - the variant's preset name (length byte, then ASCII);
//! - the claimed total (`u64`), the most guesses any secret needs (`u8`), the number of guesses stored
//!   (`u32`);
//! - the guesses (`u16`, the index of the code in numeric order), in preorder: a node's guess, then its
//!   children's subtrees in feedback order (the all-black feedback has none). A node reached by a single
//!   secret is not stored: its guess is that secret (nothing does better);
//! - an FNV-1a 64 checksum of everything before it (`u64`).
//!
//! Reading replays the candidates down the tree (splitting them by the feedback of each guess), so every
//! node's secrets, total, depth and children are rebuilt, not trusted; the tree is then checked against
//! its header and replayed against every secret ([`StrategyTree::verify`]).

use thiserror::Error;

use crate::space::Space;
use crate::strategy::Strategy;
use crate::tree::{StrategyTree, TreeNode};
use crate::variant::Variant;

const MAGIC: &[u8; 4] = b"PMCT";
const VERSION: u8 = 1;
/// The deepest tree read (so that damaged bytes cannot recurse without end); far beyond any variant's guesses.
const MAX_DEPTH: usize = 64;

/// Why a compact tree cannot be written or read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CompactError {
    /// The tree or the bytes do not fit the format, or the bytes are damaged.
    #[error("compact tree: {0}")]
    Invalid(String),
}

fn invalid(s: impl Into<String>) -> CompactError {
    CompactError::Invalid(s.into())
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The compact bytes of `tree` (a preset's tree, at most 65,536 codes, every secret replayed first).
pub fn to_compact(tree: &StrategyTree) -> Result<Vec<u8>, CompactError> {
    let variant = *tree.variant();
    let name = variant
        .preset_name()
        .ok_or_else(|| invalid("only a preset's tree is written"))?;
    let report = tree.verify().map_err(|e| invalid(e.to_string()))?;
    let space = Space::shared(variant).ok_or_else(|| invalid("variant too large"))?;
    if space.codes.len() > usize::from(u16::MAX) + 1 {
        return Err(invalid("more codes than two bytes can name"));
    }
    let nodes = tree.nodes();
    let mut body = Vec::new();
    let mut stack = vec![0u32];
    while let Some(id) = stack.pop() {
        let node = &nodes[id as usize];
        if node.secrets == 1 && node.solves && id != 0 {
            continue;
        }
        let g = space
            .index_of(&node.guess)
            .ok_or_else(|| invalid("a guess outside the variant"))?;
        body.extend_from_slice(&(g as u16).to_le_bytes());
        stack.extend(node.children.iter().rev().map(|&(_, c)| c));
    }
    let mut out = Vec::with_capacity(body.len() + 32);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.extend_from_slice(&report.total.to_le_bytes());
    out.push(report.max as u8);
    out.extend_from_slice(&((body.len() / 2) as u32).to_le_bytes());
    out.extend_from_slice(&body);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    Ok(out)
}

/// Reads bytes written by [`to_compact`] as a tree labelled `strategy`: checksum, header, structure
/// (every guess splits its candidates, every stored guess is used), then every secret replayed.
pub fn from_compact(bytes: &[u8], strategy: Strategy) -> Result<StrategyTree, CompactError> {
    if bytes.len() < MAGIC.len() + 2 + 8 || &bytes[..4] != MAGIC {
        return Err(invalid("not a compact tree (bad magic)"));
    }
    let (data, sum) = bytes.split_at(bytes.len() - 8);
    let mut sum_bytes = [0u8; 8];
    sum_bytes.copy_from_slice(sum);
    if fnv1a(data) != u64::from_le_bytes(sum_bytes) {
        return Err(invalid("checksum mismatch (damaged)"));
    }
    if data[4] != VERSION {
        return Err(invalid(format!("format version {} unknown", data[4])));
    }
    let name_len = usize::from(data[5]);
    let rest = &data[6..];
    if rest.len() < name_len + 13 {
        return Err(invalid("truncated header"));
    }
    let name = std::str::from_utf8(&rest[..name_len]).map_err(|_| invalid("bad variant name"))?;
    let variant = Variant::preset(name).map_err(|e| invalid(e.to_string()))?;
    let rest = &rest[name_len..];
    let mut total_bytes = [0u8; 8];
    total_bytes.copy_from_slice(&rest[..8]);
    let total = u64::from_le_bytes(total_bytes);
    let max = u32::from(rest[8]);
    let mut count_bytes = [0u8; 4];
    count_bytes.copy_from_slice(&rest[9..13]);
    let count = u32::from_le_bytes(count_bytes) as usize;
    let body = &rest[13..];
    if body.len() != 2 * count {
        return Err(invalid("the guess count does not match the body"));
    }
    let guesses: Vec<u32> = body
        .chunks_exact(2)
        .map(|c| u32::from(u16::from_le_bytes([c[0], c[1]])))
        .collect();
    let space = Space::shared(variant).ok_or_else(|| invalid("variant too large"))?;
    let mut reader = Rebuild {
        space: &space,
        guesses: &guesses,
        next: 0,
        nodes: Vec::new(),
    };
    reader.node(&space.secrets, 0)?;
    if reader.next != guesses.len() {
        return Err(invalid("guesses left over after the tree"));
    }
    let tree = StrategyTree::from_nodes(variant, strategy, reader.nodes);
    let report = tree.verify().map_err(|e| invalid(e.to_string()))?;
    if report.total != total || report.max != max {
        return Err(invalid(format!(
            "claims total {total} and max {max}, replays {report}"
        )));
    }
    Ok(tree)
}

/// Rebuilds the nodes from the guesses in preorder.
struct Rebuild<'a> {
    space: &'a Space,
    guesses: &'a [u32],
    next: usize,
    nodes: Vec<TreeNode>,
}

impl Rebuild<'_> {
    /// The node for `cands` at `depth` (recursion is at most the tree's depth, [`MAX_DEPTH`] at most).
    fn node(&mut self, cands: &[u32], depth: usize) -> Result<u32, CompactError> {
        let space = self.space;
        if depth > MAX_DEPTH {
            return Err(invalid(format!(
                "the tree is deeper than {MAX_DEPTH} guesses"
            )));
        }
        let id = self.nodes.len() as u32;
        let g = if cands.len() == 1 && depth > 0 {
            cands[0]
        } else {
            let g = *self
                .guesses
                .get(self.next)
                .ok_or_else(|| invalid("truncated: fewer guesses than the tree needs"))?;
            self.next += 1;
            if g as usize >= space.codes.len() || space.guesses.binary_search(&g).is_err() {
                return Err(invalid(format!("guess {g} is not an allowed guess")));
            }
            g
        };
        let groups = space.split(g, cands);
        let solves = cands.contains(&g);
        if groups.len() == 1 && !solves {
            return Err(invalid("a guess that tells nothing"));
        }
        self.nodes.push(TreeNode {
            guess: space.codes[g as usize],
            secrets: cands.len() as u32,
            total: cands.len() as u64,
            max: 1,
            solves,
            children: Vec::new(),
        });
        let mut children = Vec::with_capacity(groups.len());
        let (mut total, mut max) = (cands.len() as u64, 1u32);
        for (class, members) in &groups {
            let child = self.node(members, depth + 1)?;
            let c = &self.nodes[child as usize];
            total += c.total;
            max = max.max(c.max + 1);
            children.push((space.feedback_of(*class), child));
        }
        let node = &mut self.nodes[id as usize];
        node.total = total;
        node.max = max;
        node.children = children;
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_trees_round_trip() {
        for strategy in [Strategy::Knuth, Strategy::Entropy, Strategy::Optimal] {
            let tree = StrategyTree::build(&Variant::CLASSIC, strategy).unwrap();
            let bytes = to_compact(&tree).unwrap();
            let back = from_compact(&bytes, strategy).unwrap();
            assert_eq!(back.verify().unwrap(), tree.verify().unwrap());
            assert_eq!(back.claimed(), tree.claimed(), "{strategy}");
            assert_eq!(back.root_guess(), tree.root_guess());
        }
    }

    #[test]
    fn damage_is_caught() {
        let tree = StrategyTree::build(&Variant::CLASSIC, Strategy::Knuth).unwrap();
        let bytes = to_compact(&tree).unwrap();
        for at in [0, 4, 6, 20, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            assert!(from_compact(&bad, Strategy::Knuth).is_err(), "flip at {at}");
        }
        assert!(from_compact(&bytes[..bytes.len() - 3], Strategy::Knuth).is_err());
        assert!(from_compact(&[], Strategy::Knuth).is_err());
    }

    #[test]
    fn a_checksummed_but_wrong_guess_fails_the_replay() {
        let tree = StrategyTree::build(&Variant::CLASSIC, Strategy::Knuth).unwrap();
        let mut bytes = to_compact(&tree).unwrap();
        // Change the root guess, then fix the checksum: the structure or the claimed total must catch it.
        let n = bytes.len();
        let at = 6 + "classic".len() + 13;
        bytes[at] = bytes[at].wrapping_add(1);
        let sum = fnv1a(&bytes[..n - 8]);
        bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
        assert!(from_compact(&bytes, Strategy::Knuth).is_err());
    }
}
