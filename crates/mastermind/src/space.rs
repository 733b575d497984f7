//! The code space of a variant as the solvers see it: all codes by index, packed, with a feedback table
//! when it fits, shared through a cache.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::code::Code;
use crate::feedback::{Feedback, FeedbackTable, PackedCode};
use crate::heuristic::EntropyTable;
use crate::kinds::Kinds;
use crate::variant::Variant;

/// Largest number of codes for which the solvers enumerate the space.
pub(crate) const MAX_SPACE: u64 = 1 << 16;
/// Largest number of codes for which a full feedback table is built (n * n bytes).
const TABLE_LIMIT: usize = 6000;

/// Every code that is a possible secret or an allowed guess, in numeric order, with per-code data.
pub(crate) struct Space {
    pub variant: Variant,
    pub codes: Vec<Code>,
    pub packed: Vec<PackedCode>,
    /// Indices of the possible secrets.
    pub secrets: Vec<u32>,
    /// Indices of the allowed guesses.
    pub guesses: Vec<u32>,
    /// The feedback table, built on first use by the exact searches (spaces up to 6000 codes).
    table: OnceLock<Option<FeedbackTable>>,
    /// Number of feedback classes, `(pegs + 1)^2`.
    pub nclass: usize,
    /// The class of the all-black feedback.
    pub win_class: u8,
    /// Per code, the set of its colours as bits.
    pub colour_mask: Vec<u16>,
    /// Every colour of the variant as bits.
    pub colour_mask_all: u16,
    /// The codes by colour-count kind (for spaces without a table), built on first use.
    kinds: OnceLock<Kinds>,
    /// The entropy score's table, built on first use.
    entropy: OnceLock<EntropyTable>,
}

impl Space {
    /// Builds the space, or `None` when the variant has more than [`MAX_SPACE`] codes.
    pub fn new(variant: Variant) -> Option<Space> {
        if variant.code_space_size() > MAX_SPACE {
            return None;
        }
        let codes: Vec<Code> = (0..variant.code_space_size())
            .filter_map(|i| variant.code_at(i))
            .filter(|c| variant.validate_secret(c).is_ok() || variant.validate_guess(c).is_ok())
            .collect();
        let packed = codes.iter().map(PackedCode::new).collect();
        let secrets = (0..codes.len() as u32)
            .filter(|&i| variant.validate_secret(&codes[i as usize]).is_ok())
            .collect();
        let guesses = (0..codes.len() as u32)
            .filter(|&i| variant.validate_guess(&codes[i as usize]).is_ok())
            .collect();
        let p = usize::from(variant.pegs());
        let colour_mask = codes
            .iter()
            .map(|c| c.pegs().iter().fold(0u16, |m, &x| m | 1 << x))
            .collect();
        Some(Space {
            colour_mask,
            colour_mask_all: (1u16 << variant.colours()) - 1,
            variant,
            codes,
            packed,
            secrets,
            guesses,
            table: OnceLock::new(),
            nclass: (p + 1) * (p + 1),
            win_class: Feedback::win(variant.pegs()).class(variant.pegs()) as u8,
            kinds: OnceLock::new(),
            entropy: OnceLock::new(),
        })
    }

    /// The entropy score's table for this space's codes (built once, then shared by every chooser).
    pub fn entropy_table(&self) -> &EntropyTable {
        self.entropy
            .get_or_init(|| EntropyTable::new(self.codes.len()))
    }

    /// The shared space of a variant (built once per variant and kept).
    pub fn shared(variant: Variant) -> Option<Arc<Space>> {
        static CACHE: OnceLock<Mutex<HashMap<Variant, Arc<Space>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
        if let Some(s) = cache.lock().ok()?.get(&variant) {
            return Some(Arc::clone(s));
        }
        let space = Arc::new(Space::new(variant)?);
        if let Ok(mut map) = cache.lock() {
            map.entry(variant).or_insert_with(|| Arc::clone(&space));
        }
        Some(space)
    }

    /// The feedback table (built on first use), if the space is small enough for one.
    fn table(&self) -> Option<&FeedbackTable> {
        self.table
            .get_or_init(|| {
                (self.codes.len() <= TABLE_LIMIT).then(|| FeedbackTable::new(&self.codes))
            })
            .as_ref()
    }

    /// The codes by colour-count kind (built on first use).
    pub fn kinds(&self) -> &Kinds {
        self.kinds.get_or_init(|| Kinds::new(&self.packed))
    }

    /// Index of a code, if it is in the space.
    pub fn index_of(&self, code: &Code) -> Option<u32> {
        self.codes.binary_search(code).ok().map(|i| i as u32)
    }

    /// The feedback class of guess `g` against secret `s`.
    #[inline(always)]
    pub fn class(&self, g: u32, s: u32) -> u8 {
        match self.table.get().and_then(Option::as_ref) {
            Some(t) => t.class(g as usize, s as usize),
            None => self.packed[g as usize].class(&self.packed[s as usize]),
        }
    }

    /// The table row of guess `g` (the optimal search only runs on spaces with a table).
    #[inline(always)]
    pub fn row(&self, g: u32) -> &[u8] {
        match self.table() {
            Some(t) => t.row(g as usize),
            None => &[],
        }
    }

    /// Counts the candidates per feedback class of guess `g` into `counts` (cleared first).
    #[inline]
    pub fn counts(&self, g: u32, cands: &[u32], counts: &mut [u32]) {
        counts[..self.nclass].fill(0);
        match self.table() {
            Some(t) => {
                let row = t.row(g as usize);
                for &s in cands {
                    counts[usize::from(row[s as usize])] += 1;
                }
            }
            None => {
                let pg = self.packed[g as usize];
                for &s in cands {
                    counts[usize::from(pg.class(&self.packed[s as usize]))] += 1;
                }
            }
        }
    }

    /// Fills `out` with the class of guess `g` for each candidate.
    #[inline]
    pub fn classes(&self, g: u32, cands: &[u32], out: &mut Vec<u8>) {
        out.clear();
        match self.table() {
            Some(t) => {
                let row = t.row(g as usize);
                out.extend(cands.iter().map(|&s| row[s as usize]));
            }
            None => {
                let pg = self.packed[g as usize];
                out.extend(cands.iter().map(|&s| pg.class(&self.packed[s as usize])));
            }
        }
    }

    /// Splits `cands` by the class of guess `g`: returns the (class, members) groups in class order,
    /// the all-black class excluded.
    pub fn split(&self, g: u32, cands: &[u32]) -> Vec<(u8, Vec<u32>)> {
        let mut groups: Vec<Vec<u32>> = vec![Vec::new(); self.nclass];
        for &s in cands {
            groups[usize::from(self.class(g, s))].push(s);
        }
        groups
            .into_iter()
            .enumerate()
            .filter(|(c, m)| !m.is_empty() && *c as u8 != self.win_class)
            .map(|(c, m)| (c as u8, m))
            .collect()
    }

    /// The feedback of a class.
    pub fn feedback_of(&self, class: u8) -> Feedback {
        Feedback::from_class(usize::from(class), self.variant.pegs())
    }
}
