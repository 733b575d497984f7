//! The weights file: a small header and the weights compressed with zlib (pure-Rust `miniz_oxide` through `flate2`).
//!
//! Layout (integers little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `P48NTUPL` |
//! | 4 | format version (3; version 1 files, which lack the planes and stage fields and always hold 4 planes, and version 2 files, which lack the stage field, are still read as networks of one stage) |
//! | 4, 4 | number of tuples, cells per tuple |
//! | tuples x cells | the cells of each tuple (must be [`TUPLES`]) |
//! | 8 | self-play games the network was trained on |
//! | 4 | planes: 4 (exact `f32` weights), or 3 or 2 (compact: each weight rounded to its 24 or 16 high bits, a 15- or 7-bit mantissa), or 16 (fixed point: each weight an `i16` times its table's scale) |
//! | 4, k | the number k of stage thresholds (0 for one stage), then the k thresholds, one byte each (exponents of the largest tile, rising: see [`Network::staged`]) |
//! | 4 x tables | fixed point only: each table's scale (`f32`; a table is one tuple's weights in one stage, tuples within stages), written as the largest size of the tuple's weights over all stages / 32767 |
//! | 8 | length of the compressed payload |
//! | payload | zlib stream (its Adler-32 checks the data) of the weights (stage 0's first; in a fixed-point file each later stage's `i16` values as their wrapping difference from stage 0's, zero where a stage kept the weights it was promoted with) in blocks of [`BLOCK`]: each block's `f32` bit patterns as byte planes, the low bytes first, then the next, and so on up to the high bytes (weights close in value share their high bytes, which then compress well); a compact file leaves out the low planes, read back as zeros; a fixed-point file holds each block's `i16` values as two planes, low bytes first |
//!
//! Training checkpoints are exact ([`save`]); the network that ships with Parlor is compact ([`save_compact`]):
//! a weight's relative error is at most 2^-16, about 0.3 points on the largest weight, and the file is about a third
//! smaller (the 64 MiB cap of issue 12).
//!
//! Files are written to a temporary file beside the target, flushed, then renamed over it, so a reader (or a crash)
//! never sees half a file.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicU32;

use flate2::Compression;
use flate2::read::ZlibDecoder;
use flate2::write::ZlibEncoder;

use super::network::{MAX_STAGES, Network, TUPLE_LEN, TUPLE_SIZE, TUPLES, WEIGHTS, check_stages};

/// The file's first bytes.
pub(crate) const MAGIC: &[u8; 8] = b"P48NTUPL";
/// The format version written (versions 1 and 2 are read too).
pub(crate) const VERSION: u32 = 3;
/// Weights per byte-plane block.
pub(crate) const BLOCK: usize = 1 << 16;

/// Why a weights file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum WeightsFileError {
    /// The file could not be opened, read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file is not a Parlor 2048 weights file, or it is damaged.
    #[error("{path}: not a valid 2048 weights file: {reason}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> WeightsFileError + '_ {
    move |source| WeightsFileError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes the network to `path` exactly and atomically (temporary file `path.tmp`, then rename). `level` is the zlib
/// level 0..=9 (1 is fast and already good on these weights).
pub fn save(net: &Network, path: &Path, level: u32) -> Result<(), WeightsFileError> {
    write_atomically(path, &encode(net, level))
}

/// Writes the network to `path` compact, with `planes` byte planes (3: weights rounded to 24 bits; 2: to 16 bits,
/// the bfloat16 format), at zlib level 9, atomically: the form in which a network ships. `planes` outside 2..=4 is
/// taken as the nearest of them.
pub fn save_compact(net: &Network, path: &Path, planes: usize) -> Result<(), WeightsFileError> {
    write_atomically(path, &encode_planes(net, 9, planes.clamp(2, 4)))
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), WeightsFileError> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let write = || -> std::io::Result<()> {
        let mut f = BufWriter::new(File::create(&tmp)?);
        f.write_all(bytes)?;
        let f = f.into_inner().map_err(|e| e.into_error())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    };
    write().map_err(io(path))
}

/// The network as the bytes of an exact weights file.
pub(crate) fn encode(net: &Network, level: u32) -> Vec<u8> {
    encode_planes(net, level, 4)
}

/// The planes field of a fixed-point file.
pub(crate) const FIXED16: u32 = 16;

/// Writes the network to `path` in 16-bit fixed point (each weight rounded to a multiple of its tuple's scale, the
/// largest weight's size / 32767: an error of at most half a scale, under a point for weights up to 65,000), zlib
/// level 9, atomically.
pub fn save_fixed16(net: &Network, path: &Path) -> Result<(), WeightsFileError> {
    write_atomically(path, &encode_fixed16(net))
}

/// Each table's fixed-point scale: the largest size of its tuple's weights over every stage / 32767 (1 for a tuple of
/// zeros). The stages of a tuple share one scale, so that a weight a stage copied from another and never changed
/// has the same `i16` in both, and its difference (what a file of several stages holds) is zero.
fn fixed16_scales(net: &Network) -> Vec<f32> {
    let per = TUPLE_SIZE;
    let tuple_scale: Vec<f32> = (0..TUPLES.len())
        .map(|t| {
            let max = (0..net.stages())
                .flat_map(|s| {
                    let first = s * WEIGHTS + t * per;
                    first..first + per
                })
                .map(|i| net.weight(i).abs())
                .fold(0f32, f32::max);
            if max > 0.0 { max / 32767.0 } else { 1.0 }
        })
        .collect();
    (0..net.len() / per)
        .map(|table| tuple_scale[table % TUPLES.len()])
        .collect()
}

/// The network as the bytes of a fixed-point weights file.
fn encode_fixed16(net: &Network) -> Vec<u8> {
    let scales = fixed16_scales(net);
    let per = TUPLE_SIZE;
    let total = net.len();
    let mut payload = ZlibEncoder::new(Vec::new(), Compression::new(9));
    let mut planes = vec![0u8; 2 * BLOCK];
    let mut start = 0;
    while start < total {
        let n = (total - start).min(BLOCK);
        for k in 0..n {
            let i = start + k;
            let quantise = |i: usize| {
                (net.weight(i) / scales[i / per])
                    .round()
                    .clamp(-32767.0, 32767.0) as i16
            };
            let q = if i < WEIGHTS {
                quantise(i)
            } else {
                quantise(i).wrapping_sub(quantise(i % WEIGHTS))
            };
            let [lo, hi] = q.to_le_bytes();
            planes[k] = lo;
            planes[n + k] = hi;
        }
        // Writing to a Vec cannot fail.
        let _ = payload.write_all(&planes[..2 * n]);
        start += n;
    }
    let payload = payload.finish().unwrap_or_default();
    let mut out = header(net, FIXED16);
    for scale in &scales {
        out.extend_from_slice(&scale.to_le_bytes());
    }
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The header up to and including the planes field.
fn header(net: &Network, planes: u32) -> Vec<u8> {
    let mut out = Vec::with_capacity(128);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(TUPLES.len() as u32).to_le_bytes());
    out.extend_from_slice(&(TUPLE_LEN as u32).to_le_bytes());
    for t in TUPLES {
        out.extend_from_slice(&t);
    }
    out.extend_from_slice(&net.games().to_le_bytes());
    out.extend_from_slice(&planes.to_le_bytes());
    out.extend_from_slice(&(net.stage_from().len() as u32).to_le_bytes());
    out.extend_from_slice(net.stage_from());
    out
}

/// A weight's bits rounded to the nearest value whose `bytes` low bytes are zero (ties away from zero in magnitude; a
/// weight that would round past the largest finite `f32` is cut instead).
fn round_dropping(bits: u32, bytes: usize) -> u32 {
    if bytes == 0 {
        return bits;
    }
    let mask = (1u32 << (8 * bytes)) - 1;
    let rounded = bits.wrapping_add(1 << (8 * bytes - 1)) & !mask;
    if f32::from_bits(rounded).is_finite() && (rounded ^ bits) & 0x8000_0000 == 0 {
        rounded
    } else {
        bits & !mask
    }
}

/// The network as the bytes of a weights file with `planes` byte planes (4 exact, 3 compact).
fn encode_planes(net: &Network, level: u32, planes_kept: usize) -> Vec<u8> {
    let skip = 4 - planes_kept;
    let mut payload = ZlibEncoder::new(Vec::new(), Compression::new(level.min(9)));
    let mut bits = net.bits();
    let mut planes = vec![0u8; 4 * BLOCK];
    let mut left = net.len();
    while left > 0 {
        let n = left.min(BLOCK);
        for k in 0..n {
            let w = round_dropping(bits.next().unwrap_or(0), skip);
            for (p, byte) in w.to_le_bytes().into_iter().enumerate().skip(skip) {
                planes[(p - skip) * n + k] = byte;
            }
        }
        // Writing to a Vec cannot fail.
        let _ = payload.write_all(&planes[..planes_kept * n]);
        left -= n;
    }
    let payload = payload.finish().unwrap_or_default();
    let mut out = header(net, planes_kept as u32);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&payload);
    out
}

/// The largest weights file there can be: the header, and the weights of a network of [`MAX_STAGES`] stages as exact
/// `f32`s with zlib's worst-case growth (a few bytes per 16 KiB block), with room to spare. A larger file is not a
/// weights file and is not read.
pub(crate) const MAX_FILE_BYTES: u64 = (WEIGHTS * MAX_STAGES * 4) as u64 / 100 * 101 + (1 << 20);

/// Opens a weights file for reading: only a regular file, at most [`MAX_FILE_BYTES`] long. Anything else (a FIFO,
/// which would wait for a writer for good, a device, a folder) is refused at once with the reason, never waited on.
fn open_regular(path: &Path) -> Result<(File, u64), WeightsFileError> {
    let not_regular = |what: &str| WeightsFileError::Invalid {
        path: path.to_path_buf(),
        reason: format!("it is {what}, not a regular file: only regular files are read"),
    };
    let kind = |t: std::fs::FileType| {
        if t.is_dir() {
            "a folder"
        } else {
            "a FIFO, socket or device"
        }
    };
    let meta = std::fs::metadata(path).map_err(io(path))?;
    if !meta.is_file() {
        return Err(not_regular(kind(meta.file_type())));
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // Should the path become a FIFO between the check and the opening, opening it does not wait for a writer.
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let f = options.open(path).map_err(io(path))?;
    let meta = f.metadata().map_err(io(path))?;
    if !meta.is_file() {
        return Err(not_regular(kind(meta.file_type())));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(WeightsFileError::Invalid {
            path: path.to_path_buf(),
            reason: format!(
                "{} bytes, more than any weights file can hold ({MAX_FILE_BYTES} bytes)",
                meta.len()
            ),
        });
    }
    Ok((f, meta.len()))
}

/// Reads a network written by [`save`]: a regular file only, of a bounded size (the header and the exact weights of a network of four stages).
/// A sparse file (the compiled-in network's format) is read too, recognised by its magic bytes.
pub fn load(path: &Path) -> Result<Network, WeightsFileError> {
    let (f, len) = open_regular(path)?;
    let mut r = BufReader::with_capacity(1 << 20, f.take(len));
    let mut head = [0u8; 8];
    let got = r.read(&mut head).map_err(io(path))?;
    if got == head.len() && &head == super::sparse::SPARSE_MAGIC {
        let mut bytes = head.to_vec();
        r.read_to_end(&mut bytes).map_err(io(path))?;
        return super::sparse::load_sparse_bytes(&bytes, &path.display().to_string());
    }
    let r = std::io::Cursor::new(head[..got].to_vec()).chain(r);
    decode(r, len).map_err(|e| match e {
        DecodeError::Io(source) => WeightsFileError::Io {
            path: path.to_path_buf(),
            source,
        },
        DecodeError::Invalid(reason) => WeightsFileError::Invalid {
            path: path.to_path_buf(),
            reason,
        },
    })
}

/// Reads a network from the bytes of a weights file (`name` is used in messages), sparse (the compiled-in network's format) or not.
pub fn load_bytes(bytes: &[u8], name: &str) -> Result<Network, WeightsFileError> {
    if super::sparse::is_sparse(bytes) {
        return super::sparse::load_sparse_bytes(bytes, name);
    }
    decode(bytes, bytes.len() as u64).map_err(|e| WeightsFileError::Invalid {
        path: PathBuf::from(name),
        reason: match e {
            DecodeError::Io(e) => e.to_string(),
            DecodeError::Invalid(r) => r,
        },
    })
}

enum DecodeError {
    Io(std::io::Error),
    Invalid(String),
}

fn invalid(s: impl Into<String>) -> DecodeError {
    DecodeError::Invalid(s.into())
}

/// Reads exactly `buf.len()` bytes; a short read is a truncated file.
fn read_exact(r: &mut impl Read, buf: &mut [u8], what: &str) -> Result<(), DecodeError> {
    r.read_exact(buf).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            invalid(format!("truncated ({what})"))
        } else {
            DecodeError::Io(e)
        }
    })
}

fn read_u32(r: &mut impl Read, what: &str) -> Result<u32, DecodeError> {
    let mut b = [0u8; 4];
    read_exact(r, &mut b, what)?;
    Ok(u32::from_le_bytes(b))
}

fn read_u64(r: &mut impl Read, what: &str) -> Result<u64, DecodeError> {
    let mut b = [0u8; 8];
    read_exact(r, &mut b, what)?;
    Ok(u64::from_le_bytes(b))
}

fn decode(mut r: impl Read, total: u64) -> Result<Network, DecodeError> {
    let mut magic = [0u8; 8];
    read_exact(&mut r, &mut magic, "magic")?;
    if &magic != MAGIC {
        return Err(invalid("wrong magic bytes"));
    }
    let version = read_u32(&mut r, "version")?;
    if !(1..=VERSION).contains(&version) {
        return Err(invalid(format!(
            "format version {version}, this program reads 1 to {VERSION}"
        )));
    }
    let (count, len) = (read_u32(&mut r, "header")?, read_u32(&mut r, "header")?);
    if count as usize != TUPLES.len() || len as usize != TUPLE_LEN {
        return Err(invalid(format!(
            "a network of {count} tuples of {len} cells, this program uses {} of {TUPLE_LEN}",
            TUPLES.len()
        )));
    }
    for t in TUPLES {
        let mut cells = [0u8; TUPLE_LEN];
        read_exact(&mut r, &mut cells, "tuples")?;
        if cells != t {
            return Err(invalid(format!("tuple {cells:?}, this program uses {t:?}")));
        }
    }
    let games = read_u64(&mut r, "header")?;
    let kept = if version == 1 {
        4
    } else {
        read_u32(&mut r, "header")?
    };
    let fixed = kept == FIXED16;
    if !fixed && !(2..=4).contains(&kept) {
        return Err(invalid(format!("{kept} byte planes, not 2, 3, 4 or 16")));
    }
    let mut stage_from = Vec::new();
    if version >= 3 {
        let k = read_u32(&mut r, "header")?;
        if k as usize >= super::network::MAX_STAGES {
            return Err(invalid(format!("{k} stage thresholds")));
        }
        stage_from = vec![0u8; k as usize];
        read_exact(&mut r, &mut stage_from, "stages")?;
        check_stages(&stage_from).map_err(|e| invalid(e.to_string()))?;
    }
    let weights_len = WEIGHTS * (stage_from.len() + 1);
    let mut scales = Vec::new();
    if fixed {
        for _ in 0..weights_len / TUPLE_SIZE {
            let scale = f32::from_bits(read_u32(&mut r, "scales")?);
            if !(scale.is_finite() && scale > 0.0) {
                return Err(invalid(format!("a tuple's scale is {scale}")));
            }
            scales.push(scale);
        }
    }
    let kept = if fixed { 2 } else { kept as usize };
    let skip = 4 - kept;
    let payload = read_u64(&mut r, "header")?;
    let planes_field = match version {
        1 => 0,
        2 => 4,
        _ => 8 + stage_from.len(),
    } + 4 * scales.len();
    let header = (MAGIC.len() + 3 * 4 + TUPLES.len() * TUPLE_LEN + 16 + planes_field) as u64;
    if header.checked_add(payload) != Some(total) {
        return Err(invalid(format!(
            "payload of {payload} bytes announced, {} present",
            total.saturating_sub(header)
        )));
    }
    let mut z = ZlibDecoder::new(r.take(payload));
    let mut weights: Vec<AtomicU32> = super::memory::with_capacity(weights_len);
    let mut planes = vec![0u8; 4 * BLOCK];
    let mut left = weights_len;
    let per = TUPLE_SIZE;
    // A fixed-point file of several stages holds each later stage as its difference from stage 0.
    let staged = fixed && !stage_from.is_empty();
    let mut first_stage: Vec<i16> = Vec::with_capacity(if staged { WEIGHTS } else { 0 });
    let damaged = |e: std::io::Error| invalid(format!("damaged weights ({e})"));
    while left > 0 {
        let n = left.min(BLOCK);
        z.read_exact(&mut planes[..kept * n]).map_err(damaged)?;
        for k in 0..n {
            let bits = if fixed {
                let i = weights.len();
                let mut q = i16::from_le_bytes([planes[k], planes[n + k]]);
                if staged {
                    if i < WEIGHTS {
                        first_stage.push(q);
                    } else {
                        q = q.wrapping_add(first_stage[i % WEIGHTS]);
                    }
                }
                (f32::from(q) * scales[i / per]).to_bits()
            } else {
                let mut w = [0u8; 4];
                for (p, byte) in w.iter_mut().enumerate().skip(skip) {
                    *byte = planes[(p - skip) * n + k];
                }
                u32::from_le_bytes(w)
            };
            weights.push(AtomicU32::new(bits));
        }
        left -= n;
    }
    // The stream must end here, and its checksum must match (read to the end to check it).
    let mut rest = Vec::new();
    z.read_to_end(&mut rest).map_err(damaged)?;
    if !rest.is_empty() {
        return Err(invalid("more weights than the network holds"));
    }
    if z.total_in() != payload {
        return Err(invalid("bytes after the compressed weights"));
    }
    if let Some(bad) = weights
        .iter()
        .position(|w| !f32::from_bits(w.load(std::sync::atomic::Ordering::Relaxed)).is_finite())
    {
        return Err(invalid(format!("weight {bad} is not a finite number")));
    }
    Ok(Network::from_weights(
        weights.into_boxed_slice(),
        games,
        &stage_from,
    ))
}

#[cfg(test)]
mod reading_tests {
    use super::*;

    fn refused(path: &Path) -> String {
        match load(path) {
            Err(e @ WeightsFileError::Invalid { .. }) => e.to_string(),
            other => panic!("not refused as invalid: {:?}", other.map(|_| ())),
        }
    }

    #[test]
    #[allow(unsafe_code)] // mkfifo, to make a FIFO to refuse
    fn only_regular_files_of_a_bounded_size_are_read() {
        let dir = std::env::temp_dir().join(format!("p48-reading-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(refused(&dir).contains("a folder, not a regular file"));
        // A sparse file one byte over the bound: refused before anything is read.
        let big = dir.join("big.p48");
        File::create(&big)
            .unwrap()
            .set_len(MAX_FILE_BYTES + 1)
            .unwrap();
        assert!(refused(&big).contains("more than any weights file can hold"));
        #[cfg(target_os = "linux")]
        {
            let fifo = dir.join("fifo.p48");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: mkfifo reads a NUL-terminated path.
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            assert!(refused(&fifo).contains("a FIFO, socket or device, not a regular file"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
