//! The sparse weights file: the network that is compiled into the program (issue 29).
//!
//! A trained network holds 4 x 2^24 weights (28 million of them not zero in the network of 2,879,000 games), but play
//! reads few of them: a depth-2 search along 1,000 greedy games reads 11.6 million weight positions, and greedy
//! games of the network read about 4 million in 400 games, a further game looking up a position outside those in
//! about 0.3% of its lookups (`BENCHMARKS.md`). A sparse file keeps only chosen positions (those play read, see the
//! `compact` example), each weight rounded to a multiple of its tuple's step, and leaves every other weight at zero.
//!
//! Layout (integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `P48SPARS` |
//! | 4 | format version (1) |
//! | 4, 4 | number of tuples, cells per tuple |
//! | tuples x cells | the cells of each tuple (must be [`TUPLES`]) |
//! | 8 | self-play games the network was trained on |
//! | 4 x tuples | each tuple's step (`f32`, positive): a weight is its integer times the step |
//! | 4 x tuples | each tuple's number of weights kept (not zero) |
//! | 8, 8 | the lengths of the two compressed streams that follow |
//! | positions | zlib stream: for each tuple in turn, for each weight kept in rising index order, the number of indices skipped since the previous one kept (since -1 at the tuple's start) as an LEB128 varint |
//! | values | zlib stream: for each weight kept, in the same order, its integer (not zero) zigzag-coded as an LEB128 varint |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! A weight index is the tuple's six exponents, the first cell in the lowest nibble (see
//! [`super::network::tuple_index`]); the network read back has one stage and every weight not kept at zero. Reading
//! checks the CRC first, then every count and length: a damaged file is refused, never half read.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::atomic::Ordering::Relaxed;

use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;

use super::file::WeightsFileError;
use super::network::{Network, TUPLE_LEN, TUPLE_SIZE, TUPLES, WEIGHTS};

/// The first bytes of a sparse weights file.
pub const SPARSE_MAGIC: &[u8; 8] = b"P48SPARS";
/// The sparse format's version.
pub const SPARSE_VERSION: u32 = 1;

/// Bytes of the header before the steps.
const FIXED_HEADER: usize = 8 + 4 + 4 + 4 + TUPLES.len() * TUPLE_LEN + 8;

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The network as the bytes of a sparse file: the weights at the indices for which `keep` is true, each rounded to a
/// multiple of `steps[tuple]` (a weight that rounds to zero is left out). The network must have one stage.
pub fn encode_sparse(net: &Network, keep: &dyn Fn(usize) -> bool, steps: &[f32; 4]) -> Vec<u8> {
    assert_eq!(net.stages(), 1, "a sparse file holds one stage");
    let mut positions = Vec::new();
    let mut values = Vec::new();
    let mut kept = [0u32; 4];
    for (t, &step) in steps.iter().enumerate() {
        let mut last: i64 = -1;
        for i in 0..TUPLE_SIZE {
            let index = t * TUPLE_SIZE + i;
            if !keep(index) {
                continue;
            }
            let q = (net.weight(index) / step).round() as i64;
            if q == 0 {
                continue;
            }
            put_varint(&mut positions, (i as i64 - last - 1) as u64);
            put_varint(&mut values, ((q << 1) ^ (q >> 63)) as u64);
            last = i as i64;
            kept[t] += 1;
        }
    }
    let zip = |data: &[u8]| {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::new(9));
        // Writing to a Vec cannot fail.
        let _ = z.write_all(data);
        z.finish().unwrap_or_default()
    };
    let (positions, values) = (zip(&positions), zip(&values));
    let mut out = Vec::with_capacity(positions.len() + values.len() + 128);
    out.extend_from_slice(SPARSE_MAGIC);
    out.extend_from_slice(&SPARSE_VERSION.to_le_bytes());
    out.extend_from_slice(&(TUPLES.len() as u32).to_le_bytes());
    out.extend_from_slice(&(TUPLE_LEN as u32).to_le_bytes());
    for t in TUPLES {
        out.extend_from_slice(&t);
    }
    out.extend_from_slice(&net.games().to_le_bytes());
    for s in steps {
        out.extend_from_slice(&s.to_le_bytes());
    }
    for k in kept {
        out.extend_from_slice(&k.to_le_bytes());
    }
    out.extend_from_slice(&(positions.len() as u64).to_le_bytes());
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&positions);
    out.extend_from_slice(&values);
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The CRC-32 (IEEE, as zlib's `crc32`) of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// Whether `bytes` begin as a sparse weights file.
pub fn is_sparse(bytes: &[u8]) -> bool {
    bytes.starts_with(SPARSE_MAGIC)
}

/// A cursor over a byte slice that reports truncation as a reason.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(format!("truncated ({what})"));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &str) -> Result<u64, String> {
        let b = self.take(8, what)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

/// Reads one LEB128 varint from `data` at `*at` (at most 10 bytes).
#[inline(always)]
fn get_varint(data: &[u8], at: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..70).step_by(7) {
        let byte = *data.get(*at)?;
        *at += 1;
        v |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// Inflates a zlib stream that must hold exactly its bytes (its Adler-32 checked by reading to the end).
fn inflate(data: &[u8], what: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(data.len() * 3);
    let mut z = ZlibDecoder::new(data);
    z.read_to_end(&mut out)
        .map_err(|e| format!("damaged {what} ({e})"))?;
    if z.total_in() != data.len() as u64 {
        return Err(format!("bytes after the {what}"));
    }
    Ok(out)
}

/// Reads a network from the bytes of a sparse file (`name` is used in messages).
pub fn load_sparse_bytes(bytes: &[u8], name: &str) -> Result<Network, WeightsFileError> {
    decode(bytes).map_err(|reason| WeightsFileError::Invalid {
        path: PathBuf::from(name),
        reason,
    })
}

fn decode(bytes: &[u8]) -> Result<Network, String> {
    if !is_sparse(bytes) {
        return Err("wrong magic bytes".into());
    }
    if bytes.len() < FIXED_HEADER + 4 {
        return Err("truncated (header)".into());
    }
    let (body, crc) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
    let computed = crc32(body);
    if stored != computed {
        return Err(format!(
            "damaged: CRC-32 {computed:08x}, the file says {stored:08x}"
        ));
    }
    let mut r = Bytes(body);
    r.take(SPARSE_MAGIC.len(), "magic")?;
    let version = r.u32("version")?;
    if version != SPARSE_VERSION {
        return Err(format!(
            "sparse format version {version}, this program reads {SPARSE_VERSION}"
        ));
    }
    let (count, len) = (r.u32("header")?, r.u32("header")?);
    if count as usize != TUPLES.len() || len as usize != TUPLE_LEN {
        return Err(format!(
            "a network of {count} tuples of {len} cells, this program uses {} of {TUPLE_LEN}",
            TUPLES.len()
        ));
    }
    for t in TUPLES {
        let cells = r.take(TUPLE_LEN, "tuples")?;
        if cells != t {
            return Err(format!("tuple {cells:?}, this program uses {t:?}"));
        }
    }
    let games = r.u64("header")?;
    let mut steps = [0f32; 4];
    for s in &mut steps {
        *s = f32::from_bits(r.u32("steps")?);
        if !(s.is_finite() && *s > 0.0) {
            return Err(format!("a tuple's step is {s}"));
        }
    }
    let mut kept = [0usize; 4];
    for k in &mut kept {
        *k = r.u32("counts")? as usize;
        if *k > TUPLE_SIZE {
            return Err(format!("{k} weights kept in a tuple of {TUPLE_SIZE}"));
        }
    }
    let (plen, vlen) = (r.u64("header")?, r.u64("header")?);
    if plen.checked_add(vlen) != Some(r.0.len() as u64) {
        return Err(format!(
            "streams of {plen} and {vlen} bytes announced, {} present",
            r.0.len()
        ));
    }
    let positions = inflate(r.take(plen as usize, "positions")?, "positions")?;
    let values = inflate(r.take(vlen as usize, "values")?, "values")?;
    let weights = super::memory::zeroed(WEIGHTS);
    let (mut pa, mut va) = (0usize, 0usize);
    for (t, (&n, &step)) in kept.iter().zip(&steps).enumerate() {
        let mut next = 0u64;
        for _ in 0..n {
            let gap = get_varint(&positions, &mut pa).ok_or("truncated positions")?;
            let z = get_varint(&values, &mut va).ok_or("truncated values")?;
            let i = next.checked_add(gap).filter(|&i| i < TUPLE_SIZE as u64);
            let i = i.ok_or("a position past the end of its tuple")? as usize;
            let q = ((z >> 1) as i64) ^ -((z & 1) as i64);
            let w = q as f32 * step;
            if !w.is_finite() {
                return Err(format!("a weight of tuple {t} is {w}"));
            }
            weights[t * TUPLE_SIZE + i].store(w.to_bits(), Relaxed);
            next = i as u64 + 1;
        }
    }
    if pa != positions.len() || va != values.len() {
        return Err("more weights than the counts announce".into());
    }
    Ok(Network::from_weights(weights, games, &[]))
}
