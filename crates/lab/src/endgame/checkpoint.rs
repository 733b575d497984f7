//! Layers on disk: one file per layer's positions (`states-SSSSS.bin`) and one per layer's values
//! (`values-SSSSS.bin`), `SSSSS` the free tiles' sum.
//!
//! A file is a header (magic `P48E`, kind, format version, the formation's fingerprint, the sum, the count), the
//! payload (keys as little-endian `u64`, values as little-endian `f32`) and a checksum of everything before it. It is
//! written to a `.tmp` file, synced, renamed over the final name and the folder synced, so a killed build leaves
//! either the whole file or none. A file whose checksum, fingerprint, kind, sum or length is wrong is refused (and the
//! build computes that layer again): nothing damaged is trusted.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use twenty48::endgame::checksum::Checksum;

/// The magic bytes that open every layer file.
const MAGIC: [u8; 4] = *b"P48E";
/// The file format's version.
const VERSION: u8 = 1;
/// Header length in bytes: magic, kind, version, two spare bytes, fingerprint, sum, count.
const HEADER: usize = 4 + 1 + 1 + 2 + 8 + 4 + 8;

/// What a layer file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A layer's position keys, sorted.
    States = 1,
    /// A layer's success probabilities, in the order of its keys.
    Values = 2,
}

impl Kind {
    fn prefix(self) -> &'static str {
        match self {
            Kind::States => "states",
            Kind::Values => "values",
        }
    }
}

/// A checkpoint that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The failure.
        source: io::Error,
    },
    /// The file is damaged or belongs to another formation, layer or kind.
    #[error("{path}: refused ({why})")]
    Refused {
        /// The file.
        path: PathBuf,
        /// What was wrong.
        why: &'static str,
    },
}

/// The path of a layer file in `dir`.
pub fn path(dir: &Path, kind: Kind, sum: u32) -> PathBuf {
    dir.join(format!("{}-{sum:05}.bin", kind.prefix()))
}

fn io_err(path: &Path) -> impl Fn(io::Error) -> CheckpointError + '_ {
    move |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes one layer file atomically (temporary file, sync, rename, sync the folder); `payload` writes the items and
/// adds each to the checksum.
fn write_file(
    dir: &Path,
    kind: Kind,
    fingerprint: u64,
    sum: u32,
    count: u64,
    payload: &mut dyn FnMut(&mut dyn Write, &mut Checksum) -> io::Result<()>,
) -> Result<PathBuf, CheckpointError> {
    let final_path = path(dir, kind, sum);
    let tmp = final_path.with_extension("tmp");
    let err = io_err(&tmp);
    let file = File::create(&tmp).map_err(&err)?;
    let mut w = BufWriter::with_capacity(1 << 20, file);
    let mut header = Vec::with_capacity(HEADER);
    header.extend_from_slice(&MAGIC);
    header.extend_from_slice(&[kind as u8, VERSION, 0, 0]);
    header.extend_from_slice(&fingerprint.to_le_bytes());
    header.extend_from_slice(&sum.to_le_bytes());
    header.extend_from_slice(&count.to_le_bytes());
    let mut check = Checksum::new();
    for chunk in header.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        check.add(u64::from_le_bytes(word));
    }
    w.write_all(&header).map_err(&err)?;
    payload(&mut w, &mut check).map_err(&err)?;
    w.write_all(&check.finish().to_le_bytes()).map_err(&err)?;
    // The file is closed at the end of this block, before the rename.
    {
        let file = w.into_inner().map_err(|e| err(e.into_error()))?;
        file.sync_all().map_err(&err)?;
    }
    fs::rename(&tmp, &final_path).map_err(io_err(&final_path))?;
    if let Ok(d) = File::open(dir) {
        // Makes the rename durable; a folder that cannot be opened or synced leaves only that guarantee weaker.
        let _ = d.sync_all();
    }
    Ok(final_path)
}

/// Writes a layer's sorted keys.
pub fn write_states(
    dir: &Path,
    fingerprint: u64,
    sum: u32,
    keys: &[u64],
) -> Result<PathBuf, CheckpointError> {
    write_file(
        dir,
        Kind::States,
        fingerprint,
        sum,
        keys.len() as u64,
        &mut |w, check| {
            for &k in keys {
                check.add(k);
                w.write_all(&k.to_le_bytes())?;
            }
            Ok(())
        },
    )
}

/// Writes a layer's values.
pub fn write_values(
    dir: &Path,
    fingerprint: u64,
    sum: u32,
    values: &[f32],
) -> Result<PathBuf, CheckpointError> {
    write_file(
        dir,
        Kind::Values,
        fingerprint,
        sum,
        values.len() as u64,
        &mut |w, check| {
            for &v in values {
                check.add(v.to_bits() as u64);
                w.write_all(&v.to_le_bytes())?;
            }
            Ok(())
        },
    )
}

/// Reads a layer file: `None` when it does not exist, an error when it is damaged or not this formation's.
fn read_file<T>(
    dir: &Path,
    kind: Kind,
    fingerprint: u64,
    sum: u32,
    width: usize,
    decode: impl Fn(&[u8]) -> (T, u64),
) -> Result<Option<Vec<T>>, CheckpointError> {
    let p = path(dir, kind, sum);
    let file = match File::open(&p) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_err(&p)(e)),
    };
    let refuse = |why| CheckpointError::Refused {
        path: p.clone(),
        why,
    };
    let len = file.metadata().map_err(io_err(&p))?.len();
    let mut r = BufReader::with_capacity(1 << 20, file);
    let mut header = [0u8; HEADER];
    r.read_exact(&mut header)
        .map_err(|_| refuse("shorter than its header"))?;
    let mut check = Checksum::new();
    for chunk in header.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        check.add(u64::from_le_bytes(word));
    }
    let field = |a: usize, b: usize| &header[a..b];
    if field(0, 4) != MAGIC {
        return Err(refuse("not a layer file"));
    }
    if header[4] != kind as u8 || header[5] != VERSION {
        return Err(refuse("another kind or format version"));
    }
    let word = |a: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&header[a..a + 8]);
        u64::from_le_bytes(w)
    };
    if word(8) != fingerprint {
        return Err(refuse("another formation or target"));
    }
    let mut s = [0u8; 4];
    s.copy_from_slice(field(16, 20));
    if u32::from_le_bytes(s) != sum {
        return Err(refuse("another layer"));
    }
    let count = word(20);
    if len != HEADER as u64 + count * width as u64 + 8 {
        return Err(refuse("wrong length"));
    }
    let mut out = Vec::with_capacity(count as usize);
    let mut buf = vec![0u8; width * 65536];
    let mut left = count as usize;
    while left > 0 {
        let n = left.min(65536);
        r.read_exact(&mut buf[..n * width]).map_err(io_err(&p))?;
        for item in buf[..n * width].chunks_exact(width) {
            let (v, w) = decode(item);
            check.add(w);
            out.push(v);
        }
        left -= n;
    }
    let mut tail = [0u8; 8];
    r.read_exact(&mut tail).map_err(io_err(&p))?;
    if u64::from_le_bytes(tail) != check.finish() {
        return Err(refuse("checksum mismatch"));
    }
    Ok(Some(out))
}

/// Reads a layer's keys (`None` when the file does not exist).
pub fn read_states(
    dir: &Path,
    fingerprint: u64,
    sum: u32,
) -> Result<Option<Vec<u64>>, CheckpointError> {
    read_file(dir, Kind::States, fingerprint, sum, 8, |b| {
        let mut w = [0u8; 8];
        w.copy_from_slice(b);
        let k = u64::from_le_bytes(w);
        (k, k)
    })
}

/// Reads a layer's values (`None` when the file does not exist).
pub fn read_values(
    dir: &Path,
    fingerprint: u64,
    sum: u32,
) -> Result<Option<Vec<f32>>, CheckpointError> {
    read_file(dir, Kind::Values, fingerprint, sum, 4, |b| {
        let mut w = [0u8; 4];
        w.copy_from_slice(b);
        let v = f32::from_le_bytes(w);
        (v, v.to_bits() as u64)
    })
}
