//! The sparse weights file: the network that is compiled into the program (issue 29).
//!
//! A trained network holds 4 x 2^24 weights (28 million of them not zero in the network of 2,879,000 games), but play
//! reads few of them: a depth-2 search along 1,000 greedy games reads 11.6 million weight positions, and greedy
//! games of the network read about 4 million in 400 games, a further game looking up a position outside those in
//! about 0.3% of its lookups (`BENCHMARKS.md`). A sparse file keeps only chosen positions (those play read, see
//! `parlor-lab compact`), each weight rounded to a multiple of its tuple's step, and leaves every other weight at zero.
//!
//! Layout of format 3 (integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `P48SPARS` |
//! | 4 | format version (3) |
//! | 4, 4 | number of tuples, cells per tuple |
//! | tuples x cells | the cells of each tuple (must be [`TUPLES`]) |
//! | 8 | self-play games the network was trained on |
//! | 4 x tuples | each tuple's step (`f32`, positive): a weight is its integer times the step |
//! | 4 x tuples | each tuple's number of weights kept (not zero) |
//! | tuples | for each tuple in turn: the frequencies of its positions' symbols, then of its values' ([`SYMBOLS`] `u16` each, summing to 2^12; [`super::rans`]), then its [`CHUNKS`] chunks of 2^20 indices in turn |
//! | 4 | CRC-32 (IEEE) of every byte before it |
//!
//! A chunk is the number of weights it keeps, the lengths in bytes of its four parts (`u32` each), then the parts:
//! the positions coded (rANS bytes, then extra bits), for each weight kept in rising index order the number of
//! indices skipped since the previous one kept in the chunk (since the chunk's first index less one at its start),
//! then the values coded, for each weight kept its integer (not zero, at most 16 bits) zigzag-coded. The chunks are
//! coded apart so that play decodes each one when it first reads it ([`super::packed`]): loading checks the CRC and
//! every count and length, and decodes nothing.
//!
//! Format 2 (read too, decoded whole at load) had no chunks: each tuple's two streams, each its frequencies, the
//! lengths of its rANS bytes and its extra bits, and those bytes; decoding them took 0.17 s of processor time, and the
//! tables' pages another 0.01-0.4 s (the compiled-in file's integers re-coded from format 2 to 3 losslessly:
//! 14,561,644 bytes to 14,562,200). Format 1 (read too) held the same two sequences as LEB128 varints in
//! two zlib streams (`8, 8` bytes of their lengths after the counts, then the streams): 13.9 MB where format 2 takes
//! 13.2 MB at the same step.
//!
//! A weight index is the tuple's six exponents, the first cell in the lowest nibble (see
//! [`super::network::tuple_index`]); the network read back has one stage, every weight not kept at zero, and is held
//! in the read-only [`super::packed`] form. Reading checks the CRC first, then every count and length: a damaged file
//! is refused, never half read (and a chunk whose streams do not end with its last weight, which only a fault of the
//! writer could make once the CRC matches, is reported by [`Packed::fill_all`]; a test fills every chunk of the
//! compiled-in file).

use std::io::Read;
#[cfg(test)]
use std::io::Write;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

#[cfg(test)]
use flate2::Compression;
use flate2::read::ZlibDecoder;
#[cfg(test)]
use flate2::write::ZlibEncoder;

use super::file::WeightsFileError;
use super::network::{Network, TUPLE_LEN, TUPLE_SIZE, TUPLES};
use super::packed::{Builder, CHUNK_BITS, CHUNKS, Packed};
use super::rans::{self, SYMBOLS};

/// Why the bytes of a sparse file, or one of its chunks, were refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Damage {
    /// What is wrong, in words (the reason of [`WeightsFileError::Invalid`]).
    #[error("{0}")]
    Bad(String),
    /// No thread could be started for a tuple's decoding (the browser): the tuples are decoded on this one instead.
    #[error("no thread to decode on")]
    NoThread,
}

impl From<String> for Damage {
    fn from(reason: String) -> Damage {
        Damage::Bad(reason)
    }
}

impl From<&str> for Damage {
    fn from(reason: &str) -> Damage {
        Damage::Bad(reason.to_string())
    }
}

/// The first bytes of a sparse weights file.
pub(crate) const SPARSE_MAGIC: &[u8; 8] = b"P48SPARS";
/// The sparse format's version written (each tuple's chunks coded apart, decoded when play first reads them).
pub(crate) const SPARSE_VERSION: u32 = 3;
/// The older version that is read too (each tuple's weights one pair of rANS streams, decoded at load).
pub(crate) const SPARSE_VERSION_WHOLE: u32 = 2;
/// The older version that is read too (zlib streams).
pub(crate) const SPARSE_VERSION_ZLIB: u32 = 1;
/// The largest integer of a weight (its step times it): the read-only form holds 16 bits.
pub(crate) const MAX_STEPS: i64 = i16::MAX as i64;

/// Bytes of the header before the steps.
const FIXED_HEADER: usize = 8 + 4 + 4 + 4 + TUPLES.len() * TUPLE_LEN + 8;

#[cfg(test)]
fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The kept weights of each tuple: the gaps between their indices and their zigzag-coded integers (see the module).
fn kept_weights(
    net: &Network,
    keep: &dyn Fn(usize) -> bool,
    steps: &[f32; 4],
) -> [(Vec<u32>, Vec<u32>); 4] {
    assert_eq!(net.stages(), 1, "a sparse file holds one stage");
    std::array::from_fn(|t| {
        let step = steps[t];
        let (mut gaps, mut values) = (Vec::new(), Vec::new());
        let mut last: i64 = -1;
        for i in 0..TUPLE_SIZE {
            let index = t * TUPLE_SIZE + i;
            if !keep(index) {
                continue;
            }
            let q = ((net.weight(index) / step).round() as i64).clamp(-MAX_STEPS, MAX_STEPS);
            if q == 0 {
                continue;
            }
            gaps.push((i as i64 - last - 1) as u32);
            values.push(((q << 1) ^ (q >> 63)) as u32);
            last = i as i64;
        }
        (gaps, values)
    })
}

/// The header up to the counts (format `version`).
fn header(
    net: &Network,
    version: u32,
    steps: &[f32; 4],
    kept: &[(Vec<u32>, Vec<u32>); 4],
) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(SPARSE_MAGIC);
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(TUPLES.len() as u32).to_le_bytes());
    out.extend_from_slice(&(TUPLE_LEN as u32).to_le_bytes());
    for t in TUPLES {
        out.extend_from_slice(&t);
    }
    out.extend_from_slice(&net.games().to_le_bytes());
    for s in steps {
        out.extend_from_slice(&s.to_le_bytes());
    }
    for (gaps, _) in kept {
        out.extend_from_slice(&(gaps.len() as u32).to_le_bytes());
    }
    out
}

#[cfg(test)]
fn put_coded(out: &mut Vec<u8>, c: &rans::Coded) {
    for f in c.freqs {
        out.extend_from_slice(&f.to_le_bytes());
    }
    out.extend_from_slice(&(c.bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(&(c.extra.len() as u32).to_le_bytes());
    out.extend_from_slice(&c.bytes);
    out.extend_from_slice(&c.extra);
}

/// The network as the bytes of a sparse file (format 3): the weights at the indices for which `keep` is true, each
/// rounded to a multiple of `steps[tuple]` (a weight that rounds to zero is left out, one of more than `MAX_STEPS`
/// steps is held at that many). The network must have one stage.
pub fn encode_sparse(net: &Network, keep: &dyn Fn(usize) -> bool, steps: &[f32; 4]) -> Vec<u8> {
    let kept = kept_weights(net, keep, steps);
    let mut out = header(net, SPARSE_VERSION, steps, &kept);
    for (gaps, values) in &kept {
        // Each chunk's gaps count from the chunk's first index; the frequencies are the tuple's, stored once.
        let mut chunks: Vec<(Vec<u32>, Vec<u32>)> = vec![(Vec::new(), Vec::new()); CHUNKS];
        let mut next = 0usize;
        for (&gap, &z) in gaps.iter().zip(values) {
            let i = next + gap as usize;
            let c = i >> CHUNK_BITS;
            chunks[c].0.push((i - (c << CHUNK_BITS).max(next)) as u32);
            chunks[c].1.push(z);
            next = i + 1;
        }
        let all_gaps: Vec<u32> = chunks.iter().flat_map(|c| c.0.iter().copied()).collect();
        let (gf, vf) = (
            rans::frequencies_of(&all_gaps),
            rans::frequencies_of(values),
        );
        for f in gf.iter().chain(&vf) {
            out.extend_from_slice(&f.to_le_bytes());
        }
        for (gaps, values) in &chunks {
            let (g, v) = (rans::encode_with(gaps, &gf), rans::encode_with(values, &vf));
            let lens = [g.bytes.len(), g.extra.len(), v.bytes.len(), v.extra.len()];
            out.extend_from_slice(&(gaps.len() as u32).to_le_bytes());
            for n in lens {
                out.extend_from_slice(&(n as u32).to_le_bytes());
            }
            for part in [&g.bytes, &g.extra, &v.bytes, &v.extra] {
                out.extend_from_slice(part);
            }
        }
    }
    sealed(out)
}

#[cfg(test)]
/// [`encode_sparse`] in the older format 2 (one pair of streams a tuple, decoded whole at load), which is still read.
pub(crate) fn encode_sparse_whole(
    net: &Network,
    keep: &dyn Fn(usize) -> bool,
    steps: &[f32; 4],
) -> Vec<u8> {
    let kept = kept_weights(net, keep, steps);
    let mut out = header(net, SPARSE_VERSION_WHOLE, steps, &kept);
    for (gaps, values) in &kept {
        put_coded(&mut out, &rans::encode(gaps));
        put_coded(&mut out, &rans::encode(values));
    }
    sealed(out)
}

#[cfg(test)]
/// [`encode_sparse`] in the older format 1 (zlib streams of LEB128 varints), which is still read.
pub(crate) fn encode_sparse_zlib(
    net: &Network,
    keep: &dyn Fn(usize) -> bool,
    steps: &[f32; 4],
) -> Vec<u8> {
    let kept = kept_weights(net, keep, steps);
    let (mut positions, mut values) = (Vec::new(), Vec::new());
    for (g, v) in &kept {
        for (&g, &v) in g.iter().zip(v) {
            put_varint(&mut positions, u64::from(g));
            put_varint(&mut values, u64::from(v));
        }
    }
    let zip = |data: &[u8]| {
        let mut z = ZlibEncoder::new(Vec::new(), Compression::new(9));
        // Writing to a Vec cannot fail.
        let _ = z.write_all(data);
        z.finish().unwrap_or_default()
    };
    let (positions, values) = (zip(&positions), zip(&values));
    let mut out = header(net, SPARSE_VERSION_ZLIB, steps, &kept);
    out.extend_from_slice(&(positions.len() as u64).to_le_bytes());
    out.extend_from_slice(&(values.len() as u64).to_le_bytes());
    out.extend_from_slice(&positions);
    out.extend_from_slice(&values);
    sealed(out)
}

/// A sparse file's bytes `out` with their CRC-32 appended, as every format ends.
fn sealed(mut out: Vec<u8>) -> Vec<u8> {
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The CRC-32 (IEEE, as zlib's `crc32`) of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(bytes);
    c.sum()
}

/// Whether `bytes` begin as a sparse weights file.
pub(crate) fn is_sparse(bytes: &[u8]) -> bool {
    bytes.starts_with(SPARSE_MAGIC)
}

/// A cursor over a byte slice that reports truncation as a reason.
struct Bytes<'a>(&'a [u8]);

impl<'a> Bytes<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], Damage> {
        if self.0.len() < n {
            return Err(Damage::from(format!("truncated ({what})")));
        }
        let (head, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(head)
    }
    fn u32(&mut self, what: &str) -> Result<u32, Damage> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn u64(&mut self, what: &str) -> Result<u64, Damage> {
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
fn inflate(data: &[u8], what: &str) -> Result<Vec<u8>, Damage> {
    let mut out = Vec::with_capacity(data.len() * 3);
    let mut z = ZlibDecoder::new(data);
    z.read_to_end(&mut out)
        .map_err(|e| format!("damaged {what} ({e})"))?;
    if z.total_in() != data.len() as u64 {
        return Err(Damage::from(format!("bytes after the {what}")));
    }
    Ok(out)
}

/// Reads a network from the bytes of a sparse file (`name` is used in messages).
pub fn load_sparse_bytes(bytes: &[u8], name: &str) -> Result<Network, WeightsFileError> {
    decode(bytes, None).map_err(|damage| WeightsFileError::Invalid {
        path: PathBuf::from(name),
        reason: damage.to_string(),
    })
}

/// [`load_sparse_bytes`] of bytes that live as long as the program (the compiled-in file): a file of format 3 is
/// decoded from them chunk by chunk as play reads it, without a copy.
pub(crate) fn load_sparse_static(
    bytes: &'static [u8],
    name: &str,
) -> Result<Network, WeightsFileError> {
    decode(bytes, Some(bytes)).map_err(|damage| WeightsFileError::Invalid {
        path: PathBuf::from(name),
        reason: damage.to_string(),
    })
}

/// The bytes of a file of format 3, kept for the chunks decoded later.
enum Source {
    /// The program's own bytes.
    Static(&'static [u8]),
    /// A copy.
    Shared(Arc<[u8]>),
}

impl Source {
    fn bytes(&self) -> &[u8] {
        match self {
            Source::Static(b) => b,
            Source::Shared(b) => b,
        }
    }
}

/// Where one chunk of a tuple is in a file of format 3.
struct ChunkAt {
    /// Weights kept in it.
    count: usize,
    /// Its positions' rANS bytes and extra bits, its values' rANS bytes and extra bits.
    parts: [Range<usize>; 4],
}

/// One tuple of a file of format 3: its positions' and values' frequencies, and where each chunk is.
struct TupleAt {
    positions: [u16; SYMBOLS],
    values: [u16; SYMBOLS],
    chunks: Vec<ChunkAt>,
}

/// Reads a sparse file; `whole`, the same bytes when they live as long as the program (else a file of format 3 is
/// copied, to be decoded chunk by chunk later).
fn decode(bytes: &[u8], whole: Option<&'static [u8]>) -> Result<Network, Damage> {
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
        return Err(Damage::from(format!(
            "damaged: CRC-32 {computed:08x}, the file says {stored:08x}"
        )));
    }
    let mut r = Bytes(body);
    r.take(SPARSE_MAGIC.len(), "magic")?;
    let version = r.u32("version")?;
    if ![SPARSE_VERSION_ZLIB, SPARSE_VERSION_WHOLE, SPARSE_VERSION].contains(&version) {
        return Err(Damage::from(format!(
            "sparse format version {version}, this program reads {SPARSE_VERSION_ZLIB} to {SPARSE_VERSION}"
        )));
    }
    let (count, len) = (r.u32("header")?, r.u32("header")?);
    if count as usize != TUPLES.len() || len as usize != TUPLE_LEN {
        return Err(Damage::from(format!(
            "a network of {count} tuples of {len} cells, this program uses {} of {TUPLE_LEN}",
            TUPLES.len()
        )));
    }
    for t in TUPLES {
        let cells = r.take(TUPLE_LEN, "tuples")?;
        if cells != t {
            return Err(Damage::from(format!(
                "tuple {cells:?}, this program uses {t:?}"
            )));
        }
    }
    let games = r.u64("header")?;
    let mut steps = [0f32; 4];
    for s in &mut steps {
        *s = f32::from_bits(r.u32("steps")?);
        if !(s.is_finite() && *s > 0.0) {
            return Err(Damage::from(format!("a tuple's step is {s}")));
        }
    }
    let mut kept = [0usize; 4];
    for k in &mut kept {
        *k = r.u32("counts")? as usize;
        if *k > TUPLE_SIZE {
            return Err(Damage::from(format!(
                "{k} weights kept in a tuple of {TUPLE_SIZE}"
            )));
        }
    }
    if version == SPARSE_VERSION {
        let layout = chunk_layout(&mut r, bytes, &kept)?;
        let source = match whole {
            Some(b) => Source::Static(b),
            None => Source::Shared(Arc::from(bytes)),
        };
        let fill: super::packed::Fill = Box::new(move |t, c, put| {
            let tuple = layout.get(t).ok_or("no such tuple")?;
            let chunk = tuple.chunks.get(c).ok_or("no such chunk")?;
            decode_chunk(t, c, source.bytes(), tuple, chunk, put)
        });
        return Ok(Network::from_packed(Packed::lazy(fill, kept, steps), games));
    }
    let mut tuples: [Builder; 4] = std::array::from_fn(|t| Builder::new(kept[t]));
    if version == SPARSE_VERSION_ZLIB {
        decode_zlib(&mut r, &kept, &mut tuples)?;
    } else {
        let mut streams = Vec::with_capacity(4);
        for _ in 0..4 {
            streams.push((
                take_coded(&mut r, "positions")?,
                take_coded(&mut r, "values")?,
            ));
        }
        if !r.0.is_empty() {
            return Err("bytes after the last stream".into());
        }
        // The tuples are decoded side by side, each on a thread of its own where there are threads.
        let results: Vec<Result<(), Damage>> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            let mut done = Vec::new();
            for (t, ((b, (g, v)), &n)) in tuples.iter_mut().zip(&streams).zip(&kept).enumerate() {
                let work = move || decode_tuple(t, n, g, v, b);
                match std::thread::Builder::new().spawn_scoped(scope, work) {
                    Ok(h) => handles.push(h),
                    Err(_) => done.push(Err(Damage::NoThread)),
                }
            }
            let joined = handles.into_iter().map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a decoding thread failed".into()))
            });
            joined.chain(done).collect()
        });
        if results.iter().any(|r| matches!(r, Err(Damage::NoThread))) {
            // No threads here (the browser): one tuple after the other.
            for (t, ((b, (g, v)), &n)) in tuples.iter_mut().zip(&streams).zip(&kept).enumerate() {
                *b = Builder::new(n);
                decode_tuple(t, n, g, v, b)?;
            }
        } else {
            results.into_iter().collect::<Result<Vec<()>, Damage>>()?;
        }
    }
    Ok(Network::from_packed(Packed::new(tuples, steps), games))
}

/// Where each tuple's chunks are in a file of format 3 (`r` at the first tuple's frequencies, `bytes` the whole file),
/// every count and length checked: the chunks' counts must sum to the tuple's, each must fit its chunk, and each
/// stream must hold a state in whole words.
fn chunk_layout(
    r: &mut Bytes<'_>,
    bytes: &[u8],
    kept: &[usize; 4],
) -> Result<Vec<TupleAt>, Damage> {
    let offset = |part: &[u8]| part.as_ptr() as usize - bytes.as_ptr() as usize;
    let mut layout = Vec::with_capacity(4);
    for (t, &n) in kept.iter().enumerate() {
        let mut freqs = [[0u16; SYMBOLS]; 2];
        for f in freqs.iter_mut().flatten() {
            let b = r.take(2, "frequencies")?;
            *f = u16::from_le_bytes([b[0], b[1]]);
        }
        if freqs
            .iter()
            .any(|f| f.iter().map(|&x| u32::from(x)).sum::<u32>() != rans::SCALE)
        {
            return Err(Damage::from(format!("damaged frequencies of tuple {t}")));
        }
        let mut chunks = Vec::with_capacity(CHUNKS);
        for c in 0..CHUNKS {
            let count = r.u32("chunks")? as usize;
            if count > 1 << CHUNK_BITS {
                return Err(Damage::from(format!(
                    "{count} weights in chunk {c} of tuple {t}"
                )));
            }
            let mut lens = [0usize; 4];
            for l in &mut lens {
                *l = r.u32("chunks")? as usize;
            }
            if [lens[0], lens[2]].iter().any(|&l| l < 4 || l % 2 != 0) {
                return Err(Damage::from(format!(
                    "damaged streams in chunk {c} of tuple {t}"
                )));
            }
            let mut parts: [Range<usize>; 4] = std::array::from_fn(|_| 0..0);
            for (p, &l) in parts.iter_mut().zip(&lens) {
                let part = r.take(l, "chunks")?;
                *p = offset(part)..offset(part) + l;
            }
            chunks.push(ChunkAt { count, parts });
        }
        let total: usize = chunks.iter().map(|c| c.count).sum();
        if total != n {
            return Err(Damage::from(format!(
                "the chunks of tuple {t} hold {total} weights, the counts say {n}"
            )));
        }
        let [positions, values] = freqs;
        layout.push(TupleAt {
            positions,
            values,
            chunks,
        });
    }
    if !r.0.is_empty() {
        return Err("bytes after the last stream".into());
    }
    Ok(layout)
}

/// Decodes chunk `c` of tuple `t` (format 3) from the file's `bytes`, giving each weight to `put`.
fn decode_chunk(
    t: usize,
    c: usize,
    bytes: &[u8],
    tuple: &TupleAt,
    chunk: &ChunkAt,
    put: &mut dyn FnMut(usize, i16),
) -> Result<(), Damage> {
    let part = |k: usize| bytes.get(chunk.parts[k].clone()).unwrap_or(&[]);
    let mut g =
        rans::Decoder::new(&tuple.positions, part(0), part(1)).ok_or("damaged positions")?;
    let mut v = rans::Decoder::new(&tuple.values, part(2), part(3)).ok_or("damaged values")?;
    let (start, end) = ((c as u64) << CHUNK_BITS, (c as u64 + 1) << CHUNK_BITS);
    let mut next = start;
    for _ in 0..chunk.count {
        let i = next + u64::from(g.read());
        if i >= end {
            return Err(Damage::from(format!(
                "tuple {t}: a position past its chunk {c}"
            )));
        }
        let z = v.read();
        let q = i64::from(z >> 1) ^ -i64::from(z & 1);
        let q = i16::try_from(q).map_err(|_| format!("tuple {t}: a weight of {q} steps"))?;
        put(i as usize, q);
        next = i + 1;
    }
    if !g.finished() || !v.finished() {
        return Err(Damage::from(format!(
            "the streams of tuple {t}, chunk {c}, do not end with its last weight"
        )));
    }
    Ok(())
}

/// Decodes tuple `t`'s `n` weights from its coded positions and values into `out`.
fn decode_tuple(
    t: usize,
    n: usize,
    positions: &CodedParts<'_>,
    values: &CodedParts<'_>,
    out: &mut Builder,
) -> Result<(), Damage> {
    let (((gf, gb), ge), ((vf, vb), ve)) = (positions, values);
    let mut g = rans::Decoder::new(gf, gb, ge).ok_or("damaged positions")?;
    let mut v = rans::Decoder::new(vf, vb, ve).ok_or("damaged values")?;
    let mut next = 0u64;
    for _ in 0..n {
        let (gap, z) = (g.read(), v.read());
        let i = next + u64::from(gap);
        let q = i64::from(z >> 1) ^ -i64::from(z & 1);
        out.push(usize::try_from(i).unwrap_or(usize::MAX), q)
            .map_err(|e| format!("tuple {t}: {e}"))?;
        next = i + 1;
    }
    if !g.finished() || !v.finished() {
        return Err(Damage::from(format!(
            "the streams of tuple {t} do not end with its last weight"
        )));
    }
    Ok(())
}

/// A coded stream's frequencies and rANS bytes, and its extra bits.
type CodedParts<'a> = (([u16; SYMBOLS], &'a [u8]), &'a [u8]);

fn take_coded<'a>(r: &mut Bytes<'a>, what: &str) -> Result<CodedParts<'a>, Damage> {
    let mut freqs = [0u16; SYMBOLS];
    for f in &mut freqs {
        let b = r.take(2, what)?;
        *f = u16::from_le_bytes([b[0], b[1]]);
    }
    let (n, e) = (r.u32(what)? as usize, r.u32(what)? as usize);
    let bytes = r.take(n, what)?;
    let extra = r.take(e, what)?;
    Ok(((freqs, bytes), extra))
}

/// The weights of a format-1 file (two zlib streams of varints) into `out`.
fn decode_zlib(r: &mut Bytes<'_>, kept: &[usize; 4], out: &mut [Builder; 4]) -> Result<(), Damage> {
    let (plen, vlen) = (r.u64("header")?, r.u64("header")?);
    if plen.checked_add(vlen) != Some(r.0.len() as u64) {
        return Err(Damage::from(format!(
            "streams of {plen} and {vlen} bytes announced, {} present",
            r.0.len()
        )));
    }
    let positions = inflate(r.take(plen as usize, "positions")?, "positions")?;
    let values = inflate(r.take(vlen as usize, "values")?, "values")?;
    let (mut pa, mut va) = (0usize, 0usize);
    for (t, &n) in kept.iter().enumerate() {
        let mut next = 0u64;
        for _ in 0..n {
            let gap = get_varint(&positions, &mut pa).ok_or("truncated positions")?;
            let z = get_varint(&values, &mut va).ok_or("truncated values")?;
            let i = next.checked_add(gap).filter(|&i| i < TUPLE_SIZE as u64);
            let i = i.ok_or("a position past the end of its tuple")? as usize;
            let q = ((z >> 1) as i64) ^ -((z & 1) as i64);
            out[t].push(i, q).map_err(|e| format!("tuple {t}: {e}"))?;
            next = i as u64 + 1;
        }
    }
    if pa != positions.len() || va != values.len() {
        return Err("more weights than the counts announce".into());
    }
    Ok(())
}
