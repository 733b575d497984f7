//! The solved table in memory and on disk.
//!
//! File format (little endian): a 48-byte header — magic `NOCCASLV`, format version, kind (table or checkpoint),
//! rows, columns, last completed round (checkpoints), the number of slots and a 64-bit checksum of the header and
//! the data — then one byte per index slot. Files are written to a temporary name and renamed into place, so a
//! reader sees either the old file or the complete new one; a truncated or altered file is rejected
//! ([`TableError`]) and the caller solves the board again.

use std::fs::{self, File};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use super::index::Indexer;
use super::retro::{DECIDED, UNUSED};
use crate::Dims;

const MAGIC: &[u8; 8] = b"NOCCASLV";
const VERSION: u32 = 1;
const HEADER: usize = 48;
const BLOCK: usize = 1 << 20;

/// What a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FileKind {
    /// A finished table.
    Table = 1,
    /// The solver's slots after a round.
    Checkpoint = 2,
}

/// Why a table file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: io::Error,
    },
    /// Not a table of this format.
    #[error("{0}: not a Nocca Nocca table (bad header)")]
    NotATable(PathBuf),
    /// A table of another board or kind.
    #[error("{path}: holds a {found} table, not {wanted}")]
    WrongBoard {
        /// The file.
        path: PathBuf,
        /// What it holds.
        found: String,
        /// What was asked for.
        wanted: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("{0}: truncated or padded (length does not match the header)")]
    Length(PathBuf),
    /// The checksum does not match: the file is damaged.
    #[error("{0}: damaged (checksum mismatch)")]
    Checksum(PathBuf),
}

fn io_err(path: &Path) -> impl FnOnce(io::Error) -> TableError + '_ {
    move |source| TableError::Io {
        path: path.to_path_buf(),
        source,
    }
}

#[inline]
fn mix(h: u64, w: u64) -> u64 {
    (h.rotate_left(5) ^ w).wrapping_mul(0x517C_C1B7_2722_0A95)
}

fn block_hash(bytes: &[u8]) -> u64 {
    let mut h = 0x9E37_79B9_7F4A_7C15u64 ^ bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let mut w = [0u8; 8];
        w.copy_from_slice(c);
        h = mix(h, u64::from_le_bytes(w));
    }
    let mut w = [0u8; 8];
    w[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    mix(h, u64::from_le_bytes(w))
}

fn checksum(header: &[u8; HEADER], data: &[u8]) -> u64 {
    let mut zeroed = *header;
    zeroed[40..48].fill(0);
    let blocks: Vec<u64> = data.par_chunks(BLOCK).map(block_hash).collect();
    blocks.into_iter().fold(block_hash(&zeroed), mix)
}

fn header(dims: Dims, kind: FileKind, round: u32, len: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(kind as u32).to_le_bytes());
    h[16..20].copy_from_slice(&(dims.rows() as u32).to_le_bytes());
    h[20..24].copy_from_slice(&(dims.cols() as u32).to_le_bytes());
    h[24..28].copy_from_slice(&round.to_le_bytes());
    h[32..40].copy_from_slice(&len.to_le_bytes());
    h
}

/// Bytes to write: a plain slice or the solver's atomic slots.
pub(crate) trait Bytes: Sync {
    /// Number of bytes.
    fn count(&self) -> usize;
    /// Copies `out.len()` bytes from `start`.
    fn copy_to(&self, start: usize, out: &mut [u8]);
}

impl Bytes for [u8] {
    fn count(&self) -> usize {
        self.len()
    }
    fn copy_to(&self, start: usize, out: &mut [u8]) {
        out.copy_from_slice(&self[start..start + out.len()]);
    }
}

impl Bytes for [AtomicU8] {
    fn count(&self) -> usize {
        self.len()
    }
    fn copy_to(&self, start: usize, out: &mut [u8]) {
        for (o, s) in out.iter_mut().zip(&self[start..]) {
            *o = s.load(Ordering::Relaxed);
        }
    }
}

/// Writes a file atomically (temporary file, then rename).
pub(crate) fn write(
    path: &Path,
    dims: Dims,
    kind: FileKind,
    round: u32,
    data: &(impl Bytes + ?Sized),
) -> Result<(), TableError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        fs::create_dir_all(dir).map_err(io_err(dir))?;
    }
    let mut tmp_name = path.as_os_str().to_owned();
    tmp_name.push(".tmp");
    let tmp = PathBuf::from(tmp_name);
    let len = data.count();
    let mut h = header(dims, kind, round, len as u64);
    // The checksum needs the data first: hash it block by block as it is copied out.
    let mut hash = {
        let mut z = h;
        z[40..48].fill(0);
        block_hash(&z)
    };
    let file = File::create(&tmp).map_err(io_err(&tmp))?;
    let mut out = BufWriter::with_capacity(BLOCK, file);
    out.write_all(&h).map_err(io_err(&tmp))?;
    let mut buf = vec![0u8; BLOCK * 64];
    let mut start = 0;
    while start < len {
        let n = buf.len().min(len - start);
        let chunk = &mut buf[..n];
        chunk
            .par_chunks_mut(BLOCK)
            .enumerate()
            .for_each(|(i, c)| data.copy_to(start + i * BLOCK, c));
        let hashes: Vec<u64> = chunk.par_chunks(BLOCK).map(block_hash).collect();
        hash = hashes.into_iter().fold(hash, mix);
        out.write_all(chunk).map_err(io_err(&tmp))?;
        start += n;
    }
    h[40..48].copy_from_slice(&hash.to_le_bytes());
    let mut file = out.into_inner().map_err(|e| io_err(&tmp)(e.into_error()))?;
    use std::io::{Seek, SeekFrom};
    file.seek(SeekFrom::Start(0)).map_err(io_err(&tmp))?;
    file.write_all(&h).map_err(io_err(&tmp))?;
    file.sync_all().map_err(io_err(&tmp))?;
    // Closed before the rename (Windows cannot rename an open file).
    #[cfg(not(target_arch = "wasm32"))]
    drop(file);
    fs::rename(&tmp, path).map_err(io_err(path))
}

/// Reads and checks a file of this board and kind: its round and data.
pub(crate) fn read(path: &Path, dims: Dims, kind: FileKind) -> Result<(u32, Vec<u8>), TableError> {
    let file = File::open(path).map_err(io_err(path))?;
    let size = file.metadata().map_err(io_err(path))?.len();
    let mut input = BufReader::with_capacity(BLOCK, file);
    let mut h = [0u8; HEADER];
    if size < HEADER as u64 {
        return Err(TableError::NotATable(path.to_path_buf()));
    }
    input.read_exact(&mut h).map_err(io_err(path))?;
    let len = check_header(&h, size, path, dims, kind)?;
    let mut data = vec![0u8; len as usize];
    input.read_exact(&mut data).map_err(io_err(path))?;
    check_data(&h, data, path)
}

/// Checks a header read from `path` (`size` bytes in all) against the board and kind wanted: the data's length.
fn check_header(
    h: &[u8; HEADER],
    size: u64,
    path: &Path,
    dims: Dims,
    kind: FileKind,
) -> Result<u64, TableError> {
    let u32_at = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    // A newer format (or anything else) is refused, never guessed at.
    if &h[..8] != MAGIC || u32_at(8) != VERSION {
        return Err(TableError::NotATable(path.to_path_buf()));
    }
    let (rows, cols, file_kind) = (u32_at(16), u32_at(20), u32_at(12));
    if rows as usize != dims.rows() || cols as usize != dims.cols() || file_kind != kind as u32 {
        let name = |k: u32| {
            if k == FileKind::Table as u32 {
                "table"
            } else {
                "checkpoint"
            }
        };
        return Err(TableError::WrongBoard {
            path: path.to_path_buf(),
            found: format!("{rows}x{cols} {}", name(file_kind)),
            wanted: format!("{dims} {}", name(kind as u32)),
        });
    }
    let len = u64_at(h, 32);
    let expected = Indexer::new(dims).len();
    if len != expected || size != HEADER as u64 + len {
        return Err(TableError::Length(path.to_path_buf()));
    }
    Ok(len)
}

fn u64_at(h: &[u8; HEADER], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&h[i..i + 8]);
    u64::from_le_bytes(b)
}

/// Checks the data against the header's checksum: the round and the data.
fn check_data(h: &[u8; HEADER], data: Vec<u8>, path: &Path) -> Result<(u32, Vec<u8>), TableError> {
    if checksum(h, &data) != u64_at(h, 40) {
        return Err(TableError::Checksum(path.to_path_buf()));
    }
    Ok((u32::from_le_bytes([h[24], h[25], h[26], h[27]]), data))
}

/// Counts of the positions of a solved board (mirror images counted once; every position is seen with its side to
/// move, the colours turned so that the side to move is "the player").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Positions won by the side to move.
    pub won: u64,
    /// Positions lost by the side to move.
    pub lost: u64,
    /// Drawn positions (neither side can force a result).
    pub drawn: u64,
    /// The longest forced win, in plies.
    pub longest_win: u32,
    /// The longest forced loss, in plies.
    pub longest_loss: u32,
}

impl Counts {
    /// All positions.
    pub fn total(&self) -> u64 {
        self.won + self.lost + self.drawn
    }

    pub(crate) fn of(data: &[u8]) -> Counts {
        data.par_chunks(BLOCK)
            .map(|chunk| {
                let mut c = Counts::default();
                for &b in chunk {
                    match b {
                        UNUSED => {}
                        0 => c.drawn += 1,
                        _ => {
                            let d = (b - DECIDED) as u32;
                            if d % 2 == 1 {
                                c.won += 1;
                                c.longest_win = c.longest_win.max(d);
                            } else {
                                c.lost += 1;
                                c.longest_loss = c.longest_loss.max(d);
                            }
                        }
                    }
                }
                c
            })
            .reduce(Counts::default, |a, b| Counts {
                won: a.won + b.won,
                lost: a.lost + b.lost,
                drawn: a.drawn + b.drawn,
                longest_win: a.longest_win.max(b.longest_win),
                longest_loss: a.longest_loss.max(b.longest_loss),
            })
    }
}

/// The solution of one board: every position's value and distance.
pub struct Table {
    pub(crate) ix: Indexer,
    pub(crate) data: Vec<u8>,
    counts: Counts,
    elapsed: Duration,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("dims", &self.ix.dims())
            .field("counts", &self.counts)
            .finish()
    }
}

impl Table {
    pub(crate) fn from_parts(
        ix: Indexer,
        data: Vec<u8>,
        counts: Counts,
        elapsed: Duration,
    ) -> Table {
        Table {
            ix,
            data,
            counts,
            elapsed,
        }
    }

    /// The board.
    pub fn dims(&self) -> Dims {
        self.ix.dims()
    }

    /// Won, lost and drawn positions.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// Time taken to solve or load the table.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// Bytes of memory the table holds (one per index slot).
    pub fn memory_bytes(&self) -> u64 {
        self.data.len() as u64
    }

    /// Writes the table to `path` atomically, with its checksum.
    pub fn save(&self, path: &Path) -> Result<(), TableError> {
        write(path, self.dims(), FileKind::Table, 0, self.data.as_slice())
    }

    /// Reads a table of board `dims`; a damaged, truncated or foreign file is an error (solve again).
    pub fn load(path: &Path, dims: Dims) -> Result<Table, TableError> {
        let t = web_time::Instant::now();
        let (_, data) = read(path, dims, FileKind::Table)?;
        let counts = Counts::of(&data);
        Ok(Table::from_parts(
            Indexer::new(dims),
            data,
            counts,
            t.elapsed(),
        ))
    }

    /// The table as bytes, exactly as [`Table::save`] writes its file: a versioned header with the board and a
    /// checksum, then one byte per index slot (what a browser keeps in IndexedDB).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut h = header(self.dims(), FileKind::Table, 0, self.data.len() as u64);
        let sum = checksum(&h, &self.data);
        h[40..48].copy_from_slice(&sum.to_le_bytes());
        let mut out = Vec::with_capacity(HEADER + self.data.len());
        out.extend_from_slice(&h);
        out.extend_from_slice(&self.data);
        out
    }

    /// A table of board `dims` read back from [`Table::to_bytes`]; bytes of another board, another (newer)
    /// format version, the wrong length or a wrong checksum are refused. `name` says where the bytes come from in
    /// the error (`IndexedDB nocca-4x4.table`).
    pub fn from_bytes(bytes: &[u8], dims: Dims, name: &str) -> Result<Table, TableError> {
        let t = web_time::Instant::now();
        let path = Path::new(name);
        let Some((h, data)) = bytes.split_first_chunk::<HEADER>() else {
            return Err(TableError::NotATable(path.to_path_buf()));
        };
        check_header(h, bytes.len() as u64, path, dims, FileKind::Table)?;
        let (_, data) = check_data(h, data.to_vec(), path)?;
        let counts = Counts::of(&data);
        Ok(Table::from_parts(
            Indexer::new(dims),
            data,
            counts,
            t.elapsed(),
        ))
    }

    /// Bytes a board's table takes in memory and on disk (one per index slot); solving needs as much memory
    /// again at most for a moment, and a checkpoint file of the same size.
    ///
    /// ```
    /// use nocca::{Dims, Table};
    /// assert_eq!(Table::size_of(Dims::new(4, 4).unwrap()), 15_005_900);
    /// assert_eq!(Table::size_of(Dims::STANDARD), 74_007_674_244);
    /// ```
    pub fn size_of(dims: Dims) -> u64 {
        Indexer::new(dims).len()
    }

    /// The length in bytes of a board's table file (header and data): a file of another length is not a good
    /// table of that board, whatever it holds.
    ///
    /// ```
    /// use nocca::{Dims, Table};
    /// let d = Dims::new(3, 3).unwrap();
    /// assert_eq!(Table::file_len(d), Table::size_of(d) + 48);
    /// ```
    pub fn file_len(dims: Dims) -> u64 {
        HEADER as u64 + Table::size_of(dims)
    }

    /// The file name of a board's table in a directory: `nocca-RxC.table` (its checkpoint: `nocca-RxC.checkpoint`).
    pub fn file_name(dims: Dims) -> String {
        format!("nocca-{dims}.table")
    }
}
