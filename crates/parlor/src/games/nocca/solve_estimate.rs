//! What solving a Nocca board costs, stated before a solve starts, and whether this machine can hold it.
//!
//! The figures come from the measured solves in `crates/nocca/BENCHMARKS.md` ("4x5 and the larger boards"): one
//! byte per index slot in memory (plus small tables), a table file of one byte per slot and a checkpoint as large
//! beside it while solving, and CPU time per slot growing with the board (3x4 0.20 µs, 4x4 0.31 µs, 4x5 0.34 µs
//! measured; 5x5 0.4-0.6 µs and 6x5 0.5-1.0 µs estimated): 4x5 took 707 s of CPU, about 6 minutes on 2 idle cores,
//! 2.1 GB of memory, and 2.1 GB of disk for the table (4.2 GB while solving).
//!
//! A solve may take at most half of the machine's memory and must fit in what is available when it starts; the
//! table and its checkpoint must fit on the data directory's disk. On a 24 GB machine that allows up to 4x5; 5x5
//! (14.8 GB) and 6x5 (74 GB) are refused before anything is allocated.

use crate::figures::count;
use nocca::{Dims, Table};
use std::path::Path;

/// The cost of solving one board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The board.
    pub dims: Dims,
    /// Memory while solving, in bytes.
    pub memory: u64,
    /// Disk while solving (the table and its checkpoint), in bytes.
    pub disk: u64,
    /// The table file kept afterwards, in bytes.
    pub table: u64,
    /// CPU time, in seconds: the low and high ends of the estimate.
    pub cpu: (f64, f64),
}

/// The estimate for `dims`.
pub fn estimate(dims: Dims) -> Estimate {
    let slots = Table::size_of(dims);
    // CPU per slot in microseconds (BENCHMARKS.md): measured up to 4x5, estimated beyond.
    let per_slot = match slots {
        0..=20_000_000 => (0.20, 0.31),
        20_000_001..=2_100_000_000 => (0.34, 0.34),
        2_100_000_001..=15_000_000_000 => (0.4, 0.6),
        _ => (0.5, 1.0),
    };
    let table = Table::file_len(dims);
    Estimate {
        dims,
        memory: slots + slots / 100 + 10_000_000,
        disk: 2 * table,
        table,
        cpu: (
            slots as f64 * per_slot.0 / 1e6,
            slots as f64 * per_slot.1 / 1e6,
        ),
    }
}

/// A size in bytes as people read it ("15 MB", "2.1 GB", "74 GB").
pub fn bytes(b: u64) -> String {
    let b = b as f64;
    if b >= 10e9 {
        format!("{:.0} GB", b / 1e9)
    } else if b >= 1e9 {
        format!("{:.1} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.0} MB", b / 1e6)
    } else {
        format!("{:.0} kB", (b / 1e3).max(1.0))
    }
}

/// A duration in seconds as people read it ("under a second", "5 s", "12 min", "2.5 h").
pub fn duration(s: f64) -> String {
    if s < 1.0 {
        "under a second".into()
    } else if s < 90.0 {
        format!("{s:.0} s")
    } else if s < 5400.0 {
        format!("{:.0} min", s / 60.0)
    } else {
        format!("{:.1} h", s / 3600.0)
    }
}

impl Estimate {
    /// One line stating the estimate, with the wall time on `cores` idle cores.
    pub fn describe(&self, cores: usize) -> String {
        let (lo, hi) = self.cpu;
        let cores = cores.max(1) as f64;
        // "about 5 s", but "under a second" alone: a bound is no estimate to be about.
        let about = |s: f64| {
            if s < 1.0 {
                duration(s)
            } else {
                format!("about {}", duration(s))
            }
        };
        let time = if duration(lo) == duration(hi) {
            format!(
                "{} of CPU ({} on {})",
                about(hi),
                about(hi / cores),
                count(cores as u64, "idle core")
            )
        } else {
            format!(
                "{} to {} of CPU ({} to {} on {})",
                duration(lo),
                duration(hi),
                duration(lo / cores),
                duration(hi / cores),
                count(cores as u64, "idle core")
            )
        };
        format!(
            "solving {}: about {} of memory, {} of disk while solving (a {} table, and a checkpoint as large until \
             it is done), {time}",
            self.dims,
            bytes(self.memory),
            bytes(self.disk),
            bytes(self.table),
        )
    }

    /// Whether this machine can hold the solve: `Err` says why not. `memory` is (total, available) and `disk` the
    /// free space where the table goes, each when known (an unknown figure refuses nothing).
    pub fn fits(
        &self,
        memory: (Option<u64>, Option<u64>),
        disk: Option<u64>,
    ) -> Result<(), String> {
        if let Some(total) = memory.0
            && self.memory > total / 2
        {
            return Err(format!(
                "it needs about {} of memory, more than half of this machine's {}",
                bytes(self.memory),
                bytes(total)
            ));
        }
        if let Some(available) = memory.1
            && self.memory > available
        {
            return Err(format!(
                "it needs about {} of memory, and only {} is available now",
                bytes(self.memory),
                bytes(available)
            ));
        }
        if let Some(free) = disk
            && self.disk > free
        {
            return Err(format!(
                "it needs about {} of disk while solving, and only {} is free there",
                bytes(self.disk),
                bytes(free)
            ));
        }
        Ok(())
    }
}

/// (total, available) memory of this machine in bytes (Linux), each if known.
pub fn machine_memory() -> (Option<u64>, Option<u64>) {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let field = |name: &str| -> Option<u64> {
        let line = info.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    (field("MemTotal:"), field("MemAvailable:"))
}

/// Free space in bytes on the file system holding `dir` (or its nearest existing parent), if known.
pub fn free_disk(dir: &Path) -> Option<u64> {
    let mut at = Some(dir);
    while let Some(d) = at {
        if d.exists() {
            return statvfs_free(d);
        }
        at = d.parent();
    }
    None
}

#[cfg(unix)]
fn statvfs_free(dir: &Path) -> Option<u64> {
    let s = rustix::fs::statvfs(dir).ok()?;
    Some(s.f_bavail.saturating_mul(s.f_frsize))
}

#[cfg(not(unix))]
fn statvfs_free(_dir: &Path) -> Option<u64> {
    None
}

/// Whether this machine can solve `dims` with its tables in `table_dir`: `Err` says why not.
pub fn machine_fits(dims: Dims, table_dir: &Path) -> Result<(), String> {
    estimate(dims).fits(machine_memory(), free_disk(table_dir))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(r: usize, c: usize) -> Dims {
        Dims::new(r, c).unwrap()
    }

    /// The figures of BENCHMARKS.md ("4x5 and the larger boards").
    #[test]
    fn estimates_match_the_measured_and_estimated_figures() {
        let e = estimate(d(4, 5));
        assert_eq!(bytes(e.memory), "2.1 GB");
        assert_eq!(bytes(e.table), "2.1 GB");
        assert_eq!(bytes(e.disk), "4.2 GB");
        assert!((e.cpu.1 - 707.0).abs() < 5.0, "{:?}", e.cpu);
        assert_eq!(bytes(estimate(d(5, 5)).memory), "15 GB");
        assert_eq!(bytes(estimate(d(6, 5)).table), "74 GB");
        assert_eq!(bytes(estimate(d(4, 4)).table), "15 MB");
    }

    #[test]
    fn a_24_gb_machine_holds_4x5_and_refuses_5x5_and_6x5() {
        let gb = 1_000_000_000u64;
        let machine = (Some(25 * gb), Some(23 * gb));
        let disk = Some(60 * gb);
        assert!(estimate(d(4, 5)).fits(machine, disk).is_ok());
        let why = estimate(d(5, 5)).fits(machine, disk).unwrap_err();
        assert!(why.contains("more than half"), "{why}");
        assert!(estimate(d(6, 5)).fits(machine, disk).is_err());
        // Memory available now, and disk, refuse too.
        assert!(
            estimate(d(4, 5))
                .fits((Some(25 * gb), Some(gb)), disk)
                .unwrap_err()
                .contains("available now")
        );
        assert!(
            estimate(d(4, 5))
                .fits(machine, Some(gb))
                .unwrap_err()
                .contains("disk")
        );
        // Unknown figures refuse nothing.
        assert!(estimate(d(6, 5)).fits((None, None), None).is_ok());
    }
}
