//! Zobrist keys from a fixed seed (computed at compile time), so hashes are the same on every machine.

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn make_keys() -> ([[[u64; 64]; 2]; 3], u64) {
    let mut keys = [[[0u64; 64]; 2]; 3];
    let mut state = 0x4E6F_6363_614E_6F63; // "NoccaNoc"
    let mut level = 0;
    while level < 3 {
        let mut colour = 0;
        while colour < 2 {
            let mut sq = 0;
            while sq < 64 {
                let (s, v) = splitmix(state);
                state = s;
                keys[level][colour][sq] = v;
                sq += 1;
            }
            colour += 1;
        }
        level += 1;
    }
    let (_, side) = splitmix(state);
    (keys, side)
}

const KEYS: ([[[u64; 64]; 2]; 3], u64) = make_keys();

/// Key of a piece of `colour` (0 black, 1 white) at stack `level` (0 = bottom) on bit index `sq`.
#[inline]
pub(crate) const fn piece(level: usize, colour: usize, sq: u32) -> u64 {
    KEYS.0[level][colour][sq as usize]
}

/// Key toggled when White is to move.
pub(crate) const SIDE: u64 = KEYS.1;
