//! A distilled table (issue 29's shipping route): the positions of one formation met most often in play, each with the
//! full table's best move and its success probability, in a minimal-size perfect hash of 4 bytes a slot (or only the
//! move, in 2 bytes a slot: a moves-only store).
//!
//! **Layout.** The keys are split into buckets of about [`BUCKET_SIZE`] by a hash; each bucket has a 16-bit *pilot*
//! chosen so that every key of the bucket lands, through a second hash salted by the pilot, on a slot no other key
//! took ([`Store::build`], largest buckets first, as PTHash does). There are `ceil(n / LOAD)` slots. A slot is a
//! `u32`: the success probability in 16 bits (`round(p * 65535)`), the best move in 2 bits, and a 14-bit *check* from
//! a third hash of the key (1 to 16383; 0 marks an empty slot). So a store costs `4 / LOAD + 2 / BUCKET_SIZE` bytes a
//! position (about 4.6), and a position that is not in the store is taken for one that is with probability about
//! 1/16383 (the check alone tells them apart).
//!
//! **Moves only** ([`Store::moves_only`]). Play needs a position's move, and its value only to know that the position
//! is not as good as lost. A moves-only store keeps the positions whose success probability is at least a *floor*,
//! and of each only the move and the check: a slot is a `u16` (the check in the top 14 bits, the move in the low 2), so
//! `2 / LOAD + 2 / BUCKET_SIZE` bytes a position (about 2.6). [`Store::get`] then gives the floor as the value: every
//! stored position's success probability is at least that.
//!
//! **The file** ([`Store::to_bytes`], [`Store::from_bytes`]): magic `P48D`, version (1 with values, 2 moves only), the
//! formation as text, the probability of a 4, the hash seed, the counts, in version 2 the floor (an `f32`), the pilots
//! and the slots (little-endian; 4 bytes a slot in version 1, 2 in version 2), then a [`Checksum`] of every word before
//! it. A store whose checksum, lengths, magic or version is wrong is refused: a damaged store is never read.

use crate::bitboard::Bitboard;
use crate::direction::Direction;
use crate::endgame::checksum::Checksum;
use crate::endgame::formation::Formation;
use crate::endgame::symmetry::{direction_maps, read_in};

/// The magic bytes that open a store.
const MAGIC: [u8; 4] = *b"P48D";
/// The format's version of a store with values.
const VERSION: u32 = 1;
/// The format's version of a moves-only store.
const VERSION_MOVES_ONLY: u32 = 2;
/// The mean number of keys a bucket.
pub const BUCKET_SIZE: usize = 4;
/// Keys per slot.
pub const LOAD: f64 = 0.97;
/// The largest pilot tried.
const MAX_PILOT: u32 = u16::MAX as u32;

/// Why a store was refused or could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The bytes are not a store of this version, or are cut short or damaged.
    #[error("not a sound endgame store ({0})")]
    Refused(&'static str),
    /// No hash seed among those tried placed every key (never seen; more than a few keys repeated?).
    #[error("no perfect hash found for {0} keys")]
    NoHash(usize),
}

/// One position to store: the formation's key, the table's best move from it, and its success probability.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Entry {
    /// The position's key ([`Formation::key`]).
    pub key: u64,
    /// The table's best move.
    pub dir: Direction,
    /// The success probability with that move.
    pub value: f32,
}

/// A distilled table: see the module documentation.
#[derive(Debug, Clone, PartialEq)]
pub struct Store {
    formation: Formation,
    four_chance: f64,
    seed: u64,
    pilots: Vec<u16>,
    /// Version 1: check, move and value (`check << 18 | move << 16 | value`); moves only: `check << 2 | move`.
    slots: Vec<u32>,
    len: usize,
    /// `Some(floor)` for a moves-only store: every stored position succeeds with at least this probability.
    floor: Option<f32>,
    /// For each symmetry, the real direction of each of the formation's ([`direction_maps`]); not stored.
    maps: [[Direction; 4]; 8],
}

#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[inline]
fn reduce(h: u64, n: usize) -> usize {
    ((h as u128 * n as u128) >> 64) as usize
}

impl Store {
    /// A store of `entries` (keys distinct) of `formation`'s table built with a probability of a 4 of `four_chance`.
    pub fn build(
        formation: Formation,
        four_chance: f64,
        entries: &[Entry],
    ) -> Result<Store, StoreError> {
        let n = entries.len();
        let buckets = n.div_ceil(BUCKET_SIZE).max(1);
        let slots = ((n as f64 / LOAD).ceil() as usize).max(1);
        for attempt in 0..8u64 {
            let seed = mix(0x5EED_0000 + attempt);
            if let Some(store) =
                Store::try_build(&formation, four_chance, entries, seed, buckets, slots)
            {
                return Ok(store);
            }
        }
        Err(StoreError::NoHash(n))
    }

    fn try_build(
        formation: &Formation,
        four_chance: f64,
        entries: &[Entry],
        seed: u64,
        buckets: usize,
        slots: usize,
    ) -> Option<Store> {
        let mut by_bucket: Vec<Vec<usize>> = vec![Vec::new(); buckets];
        for (i, e) in entries.iter().enumerate() {
            by_bucket[reduce(mix(e.key ^ seed), buckets)].push(i);
        }
        let mut order: Vec<usize> = (0..buckets).collect();
        order.sort_by_key(|&b| std::cmp::Reverse(by_bucket[b].len()));
        let mut store = Store {
            formation: formation.clone(),
            four_chance,
            seed,
            pilots: vec![0; buckets],
            slots: vec![0; slots],
            len: entries.len(),
            floor: None,
            maps: direction_maps(),
        };
        let mut taken = vec![false; slots];
        let mut places = Vec::with_capacity(16);
        for b in order {
            let keys = &by_bucket[b];
            if keys.is_empty() {
                break;
            }
            let mut found = false;
            for pilot in 0..=MAX_PILOT {
                places.clear();
                let ok = keys.iter().all(|&i| {
                    let s = store.slot_of(entries[i].key, pilot as u16);
                    let free = !taken[s] && !places.contains(&s);
                    places.push(s);
                    free
                });
                if ok {
                    for (&i, &s) in keys.iter().zip(&places) {
                        taken[s] = true;
                        store.slots[s] = store.packed(&entries[i]);
                    }
                    store.pilots[b] = pilot as u16;
                    found = true;
                    break;
                }
            }
            if !found {
                return None;
            }
        }
        Some(store)
    }

    #[inline]
    fn bucket_of(&self, key: u64) -> usize {
        reduce(mix(key ^ self.seed), self.pilots.len())
    }

    #[inline]
    fn slot_of(&self, key: u64, pilot: u16) -> usize {
        let h = mix(key ^ self.seed) ^ mix(pilot as u64 ^ 0xA5A5_5A5A_0F0F_F0F0);
        reduce(mix(h), self.slots.len())
    }

    #[inline]
    fn check_of(&self, key: u64) -> u32 {
        let h = mix(key.wrapping_add(self.seed).rotate_left(17) ^ 0x1234_5678_9ABC_DEF1);
        ((h >> 50) as u32 % 16383) + 1
    }

    fn packed(&self, e: &Entry) -> u32 {
        let v = (e.value.clamp(0.0, 1.0) * 65535.0).round() as u32;
        self.check_of(e.key) << 18 | (e.dir.index() as u32) << 16 | v
    }

    /// The stored move and success probability of a key, if the store holds it (or, with probability about 1/16383,
    /// if a key it does not hold shares a slot's check). A moves-only store gives its floor as the probability (the
    /// position's is at least that).
    pub fn get(&self, key: u64) -> Option<(Direction, f32)> {
        let pilot = self.pilots[self.bucket_of(key)];
        let slot = self.slots[self.slot_of(key, pilot)];
        match self.floor {
            None => (slot >> 18 == self.check_of(key)).then(|| {
                (
                    Direction::ALL[((slot >> 16) & 3) as usize],
                    (slot & 0xFFFF) as f32 / 65535.0,
                )
            }),
            Some(floor) => (slot >> 2 == self.check_of(key))
                .then(|| (Direction::ALL[(slot & 3) as usize], floor)),
        }
    }

    /// This store as a moves-only store (see the module documentation): the positions whose success probability is at
    /// least `floor`, each with its move and check in the same slot as here (the hash is unchanged, so no key is
    /// needed); the others' slots are emptied. A moves-only store has no values left to choose by: it is returned as
    /// it is, with its own floor.
    pub fn moves_only(&self, floor: f32) -> Store {
        if self.floor.is_some() {
            return self.clone();
        }
        let least = (floor.clamp(0.0, 1.0) * 65535.0).ceil() as u32;
        let slots: Vec<u32> = self
            .slots
            .iter()
            .map(|&s| match s != 0 && s & 0xFFFF >= least {
                true => ((s >> 18) << 2) | ((s >> 16) & 3),
                false => 0,
            })
            .collect();
        Store {
            len: slots.iter().filter(|&&s| s != 0).count(),
            slots,
            floor: Some(floor.clamp(0.0, 1.0)),
            ..self.clone()
        }
    }

    /// `Some(floor)` for a moves-only store ([`Store::moves_only`]), `None` for a store with values.
    pub fn floor(&self) -> Option<f32> {
        self.floor
    }

    /// The stored move on a real board (a capped bitboard) and its success probability, when the board matches the
    /// formation under a symmetry and the store holds it (the first symmetry that does), as
    /// the lab's table advisor does with the full table.
    pub fn advise(&self, board: Bitboard) -> Option<(Direction, f32)> {
        (0..8).find_map(|k| {
            let (b, false) = read_in(&self.formation, board, k)? else {
                return None;
            };
            let (d, v) = self.get(self.formation.key(b))?;
            Some((self.maps[k][d.index()], v))
        })
    }

    /// The formation.
    pub fn formation(&self) -> &Formation {
        &self.formation
    }

    /// The number of positions stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the store holds no position.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The probability of a 4 of the table the store was taken from.
    pub fn four_chance(&self) -> f64 {
        self.four_chance
    }

    /// The store as a file (see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let name = self.formation.to_string();
        let mut out =
            Vec::with_capacity(64 + name.len() + 2 * self.pilots.len() + 4 * self.slots.len());
        out.extend_from_slice(&MAGIC);
        let version = if self.floor.is_some() {
            VERSION_MOVES_ONLY
        } else {
            VERSION
        };
        out.extend_from_slice(&version.to_le_bytes());
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&self.four_chance.to_le_bytes());
        out.extend_from_slice(&self.seed.to_le_bytes());
        out.extend_from_slice(&(self.len as u64).to_le_bytes());
        out.extend_from_slice(&(self.pilots.len() as u64).to_le_bytes());
        out.extend_from_slice(&(self.slots.len() as u64).to_le_bytes());
        if let Some(floor) = self.floor {
            out.extend_from_slice(&floor.to_le_bytes());
        }
        for p in &self.pilots {
            out.extend_from_slice(&p.to_le_bytes());
        }
        for &s in &self.slots {
            match self.floor {
                // A moves-only slot is 16 bits.
                Some(_) => out.extend_from_slice(&(s as u16).to_le_bytes()),
                None => out.extend_from_slice(&s.to_le_bytes()),
            }
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// A store read from [`Store::to_bytes`]'s bytes, refused when anything in them is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Store, StoreError> {
        let refused = StoreError::Refused;
        if bytes.len() < 8 {
            return Err(refused("too short"));
        }
        let body = verified(bytes).ok_or(refused("checksum"))?;
        let mut r = Reader::new(body);
        if r.take(4)? != MAGIC {
            return Err(refused("magic"));
        }
        let moves_only = match r.u32()? {
            VERSION => false,
            VERSION_MOVES_ONLY => true,
            _ => return Err(refused("version")),
        };
        let name_len = r.u32()? as usize;
        let name = std::str::from_utf8(r.take(name_len)?).map_err(|_| refused("formation"))?;
        let (picture, target) = name.split_once(' ').ok_or(refused("formation"))?;
        let target = target.parse().map_err(|_| refused("formation"))?;
        let formation = Formation::parse(picture, target).map_err(|_| refused("formation"))?;
        let four_chance = f64::from_bits(r.u64()?);
        let seed = r.u64()?;
        let len = r.u64()? as usize;
        let (np, ns) = (r.u64()? as usize, r.u64()? as usize);
        if np == 0 || ns == 0 || len > ns {
            return Err(refused("counts"));
        }
        let floor = if moves_only {
            let floor = f32::from_bits(r.u32()?);
            if !(0.0..=1.0).contains(&floor) {
                return Err(refused("floor"));
            }
            Some(floor)
        } else {
            None
        };
        let slot_bytes = if moves_only { 2 } else { 4 };
        let rest = body.len() - r.at;
        if np
            .checked_mul(2)
            .and_then(|p| ns.checked_mul(slot_bytes).and_then(|s| p.checked_add(s)))
            != Some(rest)
        {
            return Err(refused("length"));
        }
        let pilots = (0..np).map(|_| r.u16()).collect::<Result<Vec<_>, _>>()?;
        let slots = (0..ns)
            .map(|_| match moves_only {
                true => r.u16().map(u32::from),
                false => r.u32(),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if slots.iter().filter(|&&s| s != 0).count() != len {
            return Err(refused("counts"));
        }
        Ok(Store {
            formation,
            four_chance,
            seed,
            pilots,
            slots,
            len,
            floor,
            maps: direction_maps(),
        })
    }
}

/// The checksum of a store's bytes: [`Checksum`] over 8-byte words (the last one padded with zeros) and the length.
pub(crate) fn checksum(bytes: &[u8]) -> u64 {
    let mut h = Checksum::new();
    for chunk in bytes.chunks(8) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h.add(u64::from_le_bytes(w));
    }
    h.add(bytes.len() as u64);
    h.finish()
}

/// The bytes before the last eight, when those eight are their [`checksum`] (little-endian); `None` otherwise, or when
/// there are fewer than eight bytes.
pub(crate) fn verified(bytes: &[u8]) -> Option<&[u8]> {
    let (body, tail) = bytes.split_at(bytes.len().checked_sub(8)?);
    (checksum(body).to_le_bytes() == tail).then_some(body)
}

/// A field that runs past the end of the bytes being read.
pub(crate) struct CutShort;

impl From<CutShort> for StoreError {
    fn from(_: CutShort) -> StoreError {
        StoreError::Refused("cut short")
    }
}

/// Reads little-endian fields in order (a store's).
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `bytes`.
    pub(crate) fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], CutShort> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or(CutShort)?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    pub(crate) fn u16(&mut self) -> Result<u16, CutShort> {
        let mut w = [0u8; 2];
        w.copy_from_slice(self.take(2)?);
        Ok(u16::from_le_bytes(w))
    }

    pub(crate) fn u32(&mut self) -> Result<u32, CutShort> {
        let mut w = [0u8; 4];
        w.copy_from_slice(self.take(4)?);
        Ok(u32::from_le_bytes(w))
    }

    pub(crate) fn u64(&mut self) -> Result<u64, CutShort> {
        let mut w = [0u8; 8];
        w.copy_from_slice(self.take(8)?);
        Ok(u64::from_le_bytes(w))
    }
}
