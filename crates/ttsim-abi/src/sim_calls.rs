//! Where a host client's calls go: the five entry points a tt-umd-style client needs, as a
//! trait, so that [`crate::umd_client::UmdClient`] can drive bhemu's own statically linked
//! functions ([`Linked`]) or any `libttsim.so` loaded at run time ([`crate::dynlib::DynSim`])
//! — the reference simulator included — with the same boot, launch and poll code.
//!
//! The client is generic over the trait (monomorphized), so the linked path costs what the
//! direct calls cost: no indirect call on the hot polling path.
use std::ffi::c_void;

use crate::ffi::{
    libttsim_clock, libttsim_init, libttsim_pci_config_rd32, libttsim_pci_mem_rd_bytes,
    libttsim_pci_mem_wr_bytes,
};

/// The part of the simulator C ABI (docs/libttsim-abi.md) a host client calls.
pub trait SimCalls {
    /// `libttsim_init()`.
    fn init(&self);
    /// `libttsim_pci_config_rd32(bdf, offset)`.
    fn pci_config_rd32(&self, bdf: u32, offset: u32) -> u32;
    /// `libttsim_pci_mem_rd_bytes(paddr, out, out.len())`.
    fn pci_mem_rd(&self, paddr: u64, out: &mut [u8]);
    /// `libttsim_pci_mem_wr_bytes(paddr, data, data.len())`.
    fn pci_mem_wr(&self, paddr: u64, data: &[u8]);
    /// `libttsim_clock(n)`.
    fn clock(&self, n: u32);
}

/// bhemu's own exported functions, linked into this binary.
#[derive(Clone, Copy, Debug, Default)]
pub struct Linked;

impl SimCalls for Linked {
    #[inline]
    fn init(&self) {
        libttsim_init();
    }
    #[inline]
    fn pci_config_rd32(&self, bdf: u32, offset: u32) -> u32 {
        libttsim_pci_config_rd32(bdf, offset)
    }
    #[inline]
    fn pci_mem_rd(&self, paddr: u64, out: &mut [u8]) {
        // SAFETY: `out` is a live, writable buffer of `out.len()` bytes.
        unsafe {
            libttsim_pci_mem_rd_bytes(paddr, out.as_mut_ptr().cast::<c_void>(), out.len() as u32)
        };
    }
    #[inline]
    fn pci_mem_wr(&self, paddr: u64, data: &[u8]) {
        // SAFETY: `data` is a live buffer of `data.len()` bytes.
        unsafe {
            libttsim_pci_mem_wr_bytes(paddr, data.as_ptr().cast::<c_void>(), data.len() as u32)
        };
    }
    #[inline]
    fn clock(&self, n: u32) {
        libttsim_clock(n);
    }
}
