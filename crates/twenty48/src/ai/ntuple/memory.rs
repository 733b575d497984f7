//! The weight array's allocation: on Linux the kernel is asked to back it with 2 MiB pages (transparent huge pages,
//! `madvise(MADV_HUGEPAGE)`), so that the evaluation's 32 scattered reads into 256 MiB miss the TLB far less often.

use std::sync::atomic::AtomicU32;

/// `n` weights, all with the bit pattern `bits`.
pub fn weights(n: usize, bits: u32) -> Box<[AtomicU32]> {
    let mut v = with_capacity(n);
    v.extend((0..n).map(|_| AtomicU32::new(bits)));
    v.into_boxed_slice()
}

/// An empty vector with room for `n` weights, advised as above (fill it before it is read).
pub fn with_capacity(n: usize) -> Vec<AtomicU32> {
    let v: Vec<AtomicU32> = Vec::with_capacity(n);
    advise_huge_pages(v.as_ptr() as usize, n * std::mem::size_of::<AtomicU32>());
    v
}

#[cfg(target_os = "linux")]
#[allow(unsafe_code)] // One kernel call on memory this module owns, justified below.
fn advise_huge_pages(addr: usize, len: usize) {
    const PAGE: usize = 4096;
    let start = addr.next_multiple_of(PAGE);
    let end = addr + len;
    if end > start {
        // SAFETY: the range lies inside an allocation this function's caller owns and has not yet written; the advice
        // changes only how the kernel backs the pages, never their contents or validity. Failure is harmless (the
        // pages stay 4 KiB), so the result is ignored.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_addr: usize, _len: usize) {}
