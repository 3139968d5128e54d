//! [`ZeroedBytes`]: a large zero-filled byte buffer whose pages the host touches only when the
//! simulation does.
//!
//! Why not `vec![0u8; n]`: that is `calloc`, and glibc serves a large `calloc` from fresh
//! pages only while the size is above its mmap threshold — a threshold that grows whenever the
//! process frees a large mapped block. Inside tt-metal (Python and tt-metal's own buffers come
//! and go before a device opens) the threshold had grown, so every tile's 1.5 MiB L1 came from
//! reused heap memory and was cleared with `memset`: ≈ 210 MB written and faulted in at
//! device open, most of it never read by any kernel. An anonymous private mapping is zero by
//! the operating system's guarantee and costs a page fault only on first touch, whatever the
//! process did before (docs/performance.md, "Device open").
//!
//! Where mapping is not available (another OS, or `mmap` refused) the buffer falls back to a
//! heap allocation: the same bytes, only the slower start.
use std::ops::{Deref, DerefMut};

/// A zero-initialised, fixed-size byte buffer.
pub struct ZeroedBytes {
    inner: Inner,
}

enum Inner {
    Mapped(map::Mapping),
    Heap(Box<[u8]>),
}

impl ZeroedBytes {
    /// `len` zero bytes.
    pub fn new(len: usize) -> Self {
        if let Some(m) = map::Mapping::new(len) {
            return ZeroedBytes {
                inner: Inner::Mapped(m),
            };
        }
        ZeroedBytes {
            inner: Inner::Heap(vec![0u8; len].into_boxed_slice()),
        }
    }

    /// The buffer lives in pages mapped for it alone (not the heap fallback).
    pub fn is_mapped(&self) -> bool {
        !matches!(self.inner, Inner::Heap(_))
    }
}

impl Deref for ZeroedBytes {
    type Target = [u8];
    #[inline(always)]
    fn deref(&self) -> &[u8] {
        match &self.inner {
            Inner::Mapped(m) => m.as_slice(),
            Inner::Heap(b) => b,
        }
    }
}

impl DerefMut for ZeroedBytes {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.inner {
            Inner::Mapped(m) => m.as_mut_slice(),
            Inner::Heap(b) => b,
        }
    }
}

/// Elsewhere nothing is mapped: every buffer takes the heap fallback.
#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
mod map {
    pub enum Mapping {}

    impl Mapping {
        pub fn new(_: usize) -> Option<Self> {
            None
        }
        pub fn as_slice(&self) -> &[u8] {
            match *self {}
        }
        pub fn as_mut_slice(&mut self) -> &mut [u8] {
            match *self {}
        }
    }
}

#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
mod map {
    use std::ffi::c_void;
    use std::ptr::NonNull;

    // Linux's values on x86-64 and AArch64 (asm-generic/mman-common.h).
    const PROT_READ: i32 = 1;
    const PROT_WRITE: i32 = 2;
    const MAP_PRIVATE: i32 = 2;
    const MAP_ANONYMOUS: i32 = 0x20;

    extern "C" {
        fn mmap(
            addr: *mut c_void,
            len: usize,
            prot: i32,
            flags: i32,
            fd: i32,
            off: i64,
        ) -> *mut c_void;
        fn munmap(addr: *mut c_void, len: usize) -> i32;
    }

    /// `len` bytes of anonymous private memory, owned alone.
    pub struct Mapping {
        ptr: NonNull<u8>,
        len: usize,
    }

    // SAFETY: the mapping is owned by this value alone (no aliases), like a `Box<[u8]>`.
    unsafe impl Send for Mapping {}
    // SAFETY: shared access only reads, through `&self`.
    unsafe impl Sync for Mapping {}

    impl Mapping {
        pub fn new(len: usize) -> Option<Self> {
            if len == 0 {
                return None;
            }
            // SAFETY: a fresh anonymous mapping aliases nothing; failure is checked below.
            let p = unsafe {
                mmap(
                    std::ptr::null_mut(),
                    len,
                    PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if p as isize == -1 {
                return None;
            }
            NonNull::new(p.cast::<u8>()).map(|ptr| Mapping { ptr, len })
        }

        #[inline(always)]
        pub fn as_slice(&self) -> &[u8] {
            // SAFETY: `ptr` maps `len` readable bytes for as long as `self` lives.
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
        }

        #[inline(always)]
        pub fn as_mut_slice(&mut self) -> &mut [u8] {
            // SAFETY: as above, writable, and `&mut self` makes this the only access.
            unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the range `new` mapped; no slice outlives `self`.
            unsafe {
                munmap(self.ptr.as_ptr().cast::<c_void>(), self.len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zeroed_buffer_reads_zero_and_keeps_what_is_written() {
        let mut b = ZeroedBytes::new(3 << 19);
        assert_eq!(b.len(), 3 << 19);
        assert!(b.iter().all(|&x| x == 0), "fresh buffer not zero");
        b[0] = 1;
        b[(3 << 19) - 1] = 0xAB;
        b[12345] = 7;
        assert_eq!((b[0], b[12345], b[(3 << 19) - 1]), (1, 7, 0xAB));
        assert_eq!(
            b.iter().filter(|&&x| x != 0).count(),
            3,
            "a write touched other bytes"
        );
    }

    #[cfg(all(
        target_os = "linux",
        any(target_arch = "x86_64", target_arch = "aarch64")
    ))]
    #[test]
    fn a_zeroed_buffer_is_mapped_on_linux() {
        assert!(ZeroedBytes::new(1 << 20).is_mapped());
        assert!(
            !ZeroedBytes::new(0).is_mapped(),
            "an empty buffer needs no mapping"
        );
    }
}
