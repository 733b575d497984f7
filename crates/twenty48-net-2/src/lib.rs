//! The second half of the bytes of the 2048 network that `parlor-2048` compiles in (`twenty48-ntuple.p48s`, a sparse
//! weights file). crates.io takes crates of at most 10 MB and the file is 14.6 MB, so it ships as two data crates;
//! `parlor-2048` joins [`PART`] of this crate and of the other into one static at compile time, and checks the
//! joined file's CRC-32 and counts when it first reads it. Nothing else is here: use `parlor-2048`.
#![no_std]

/// Bytes 7,281,100 to the end of `twenty48-ntuple.p48s`.
pub const PART: &[u8] = include_bytes!("../data/twenty48-ntuple.p48s.2");
