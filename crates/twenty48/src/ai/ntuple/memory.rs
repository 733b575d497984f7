//! The weight array's allocation: on Linux the kernel is asked to back it with 2 MiB pages (transparent huge pages,
//! `madvise(MADV_HUGEPAGE)`), so that the evaluation's 32 scattered reads into 256 MiB miss the TLB far less often.

use std::sync::atomic::{AtomicI16, AtomicU32};

use super::network::TUPLE_SIZE;

/// `n` weights, all with the bit pattern `bits`.
pub(crate) fn weights(n: usize, bits: u32) -> Box<[AtomicU32]> {
    let mut v = with_capacity(n);
    v.extend((0..n).map(|_| AtomicU32::new(bits)));
    v.into_boxed_slice()
}

/// `n` weights, all zero, from memory the allocator hands out already zeroed (fresh pages from the kernel for an
/// allocation this large), so that nothing is written until a weight is set: the weights of a sparse file are set
/// one by one on top (advised as [`with_capacity`]).
#[allow(unsafe_code)] // One zeroed allocation owned at once by a box, justified below.
pub(crate) fn zeroed(n: usize) -> Box<[AtomicU32]> {
    if n == 0 {
        return Box::new([]);
    }
    // An array too large for any layout: the plain allocation below reports it as the allocator does.
    let Ok(layout) = std::alloc::Layout::array::<AtomicU32>(n) else {
        return weights(n, 0);
    };
    // SAFETY: the layout has a nonzero size; an all-zero `AtomicU32` is a valid value (0), so the zeroed allocation is
    // `n` initialised atomics, and a box of a slice allocated with exactly this layout by the global allocator may own
    // it.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout) as *mut AtomicU32;
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        advise_huge_pages(p as usize, n * std::mem::size_of::<AtomicU32>());
        Box::from_raw(std::ptr::slice_from_raw_parts_mut(p, n))
    }
}

/// One tuple's table of 16-bit integers ([`super::packed`]), all zero, from memory the allocator hands out already
/// zeroed (fresh pages from the kernel), advised as [`with_capacity`] before anything is written: the pages are zeroed
/// by the kernel when first written, and those of indices never kept are never touched.
#[allow(unsafe_code)] // One zeroed allocation owned at once by a box, justified below.
pub(crate) fn zeroed_table() -> Box<[AtomicI16; TUPLE_SIZE]> {
    let layout = std::alloc::Layout::new::<[AtomicI16; TUPLE_SIZE]>();
    // SAFETY: the layout has a nonzero size; an all-zero `[AtomicI16; N]` is a valid value (zeros), so the zeroed allocation is an
    // initialised array, and a box of that array type allocated with exactly its layout by the global allocator may
    // own it.
    unsafe {
        let p = std::alloc::alloc_zeroed(layout);
        if p.is_null() {
            std::alloc::handle_alloc_error(layout);
        }
        advise_huge_pages(p as usize, layout.size());
        Box::from_raw(p as *mut [AtomicI16; TUPLE_SIZE])
    }
}

/// An empty vector with room for `n` weights, advised as above (fill it before it is read).
pub(crate) fn with_capacity(n: usize) -> Vec<AtomicU32> {
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
