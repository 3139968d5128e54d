//! The C ABI's entry points driven as a host would drive them: life cycle, bad pointers,
//! faults, logging and the knobs (unit tests of `ffi`).
//! The singleton is process-wide: these tests take `SERIAL` so they never overlap.
use super::*;
use crate::backend::{MemoryBackend, NOC_HOST_WINDOW};
use crate::config::{BAR0_BASE, BAR2_BASE};
use crate::iatu::IATU_STRIDE;
use std::sync::atomic::{AtomicU32, Ordering};

static SERIAL: Mutex<()> = Mutex::new(());
/// Host memory of the fake host: 64 KiB at host address 0x1_0000_0000.
static HOST: Mutex<Vec<u8>> = Mutex::new(Vec::new());
const HOST_BASE: u64 = 0x1_0000_0000;
static RD_CALLS: AtomicU32 = AtomicU32::new(0);

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|p| p.into_inner())
}

unsafe extern "C-unwind" fn host_rd(paddr: u64, dst: *mut c_void, size: u32) {
    RD_CALLS.fetch_add(1, Ordering::SeqCst);
    let h = HOST.lock().unwrap();
    let o = (paddr - HOST_BASE) as usize;
    std::slice::from_raw_parts_mut(dst.cast::<u8>(), size as usize)
        .copy_from_slice(&h[o..o + size as usize]);
}
unsafe extern "C-unwind" fn host_wr(paddr: u64, src: *const c_void, size: u32) {
    let mut h = HOST.lock().unwrap();
    let o = (paddr - HOST_BASE) as usize;
    h[o..o + size as usize]
        .copy_from_slice(std::slice::from_raw_parts(src.cast::<u8>(), size as usize));
}
/// Stands in for a C++ handler that throws (docs/tt-umd-sim-interface.md §9).
unsafe extern "C-unwind" fn host_rd_throws(_paddr: u64, _dst: *mut c_void, _size: u32) {
    std::panic::panic_any("host read handler threw");
}

fn wr32(paddr: u64, v: u32) {
    unsafe { libttsim_pci_mem_wr_bytes(paddr, v.to_le_bytes().as_ptr().cast(), 4) };
}

/// §4 write order for region r: +4 ← 0, +0, +8, +C, +10, +14, +18, +4 ← REGION_EN.
fn program_iatu(r: u64, base: u64, limit: u64, target: u64) {
    let reg = BAR2_BASE + 0x1000 + r * IATU_STRIDE;
    for (o, v) in [
        (4, 0),
        (0, 0),
        (8, base as u32),
        (0xC, (base >> 32) as u32),
        (0x10, limit as u32),
        (0x14, target as u32),
        (0x18, (target >> 32) as u32),
        (4, 0x8000_0000),
    ] {
        wr32(reg + o, v);
    }
}

fn tile_rd(x: u32, y: u32, addr: u64, n: usize) -> Vec<u8> {
    let mut b = vec![0u8; n];
    unsafe { libttsim_tile_rd_bytes(x, y, addr, b.as_mut_ptr().cast(), n as u32) };
    b
}

fn reset_host() {
    *HOST.lock().unwrap() = (0..65536u32).map(|i| (i * 7) as u8).collect();
}

/// §4/§9: chip accesses at NoC 2⁶⁰ + off go to the enabled region with base ≤ off ≤ limit
/// and reach the callback at target + (off − base).
#[test]
fn dma_callbacks_are_routed_through_the_iatu() {
    let _s = serial();
    reset_host();
    let mut mb = MemoryBackend::new(&BackendConfig::default());
    mb.schedule_host_read(1, 2, 0x100, 0x4000_0010, 8);
    libttsim_set_pci_dma_mem_callbacks(Some(host_rd), Some(host_wr));
    init_with_backend(Box::new(mb));
    program_iatu(1, 0x4000_0000, 0x7FFF_FFFF, HOST_BASE);
    libttsim_clock(1);
    assert!(!is_faulted());
    let want: Vec<u8> = HOST.lock().unwrap()[0x10..0x18].to_vec();
    assert_eq!(tile_rd(1, 2, 0x100, 8), want);
    // A host-initiated write into the PCIe tile's NoC-to-host window is forwarded as DMA.
    let data = [1u8, 2, 3, 4, 5];
    unsafe { libttsim_tile_wr_bytes(2, 0, NOC_HOST_WINDOW + 0x4000_0020, data.as_ptr().cast(), 5) };
    assert_eq!(&HOST.lock().unwrap()[0x20..0x25], &data);
    libttsim_exit();
}

/// §9: with no enabled region the callbacks are never called; strict mode faults.
#[test]
fn dma_outside_every_region_faults_in_strict_mode_without_calling_back() {
    let _s = serial();
    reset_host();
    RD_CALLS.store(0, Ordering::SeqCst);
    let mut mb = MemoryBackend::new(&BackendConfig::default());
    mb.schedule_host_read(1, 2, 0x100, 0x10, 4);
    libttsim_set_pci_dma_mem_callbacks(Some(host_rd), Some(host_wr));
    init_with_backend(Box::new(mb));
    libttsim_clock(1);
    assert!(is_faulted());
    assert_eq!(RD_CALLS.load(Ordering::SeqCst), 0);
    assert_eq!(tile_rd(1, 2, 0x100, 4), vec![0xFF; 4]);
    libttsim_exit();
}

/// The C++-exception decision: a callback that unwinds goes straight back to the caller of
/// the entry point; no lock is poisoned, the device is not faulted, and the read that was
/// left hanging is answered with all-ones at the next call.
#[test]
fn unwinding_callback_reaches_the_caller_and_the_device_recovers() {
    let _s = serial();
    reset_host();
    let mut mb = MemoryBackend::new(&BackendConfig::default());
    mb.schedule_host_read(1, 2, 0x200, 0x10, 4);
    libttsim_set_pci_dma_mem_callbacks(Some(host_rd_throws), Some(host_wr));
    init_with_backend(Box::new(mb));
    program_iatu(5, 0, 0xFFFD_FFFF, HOST_BASE);
    let r = std::panic::catch_unwind(|| libttsim_clock(3));
    assert!(r.is_err(), "the callback's unwind must reach the caller");
    assert!(!ABI.is_poisoned());
    assert_eq!(tile_rd(1, 2, 0x200, 4), vec![0xFF; 4]);
    assert!(!is_faulted());
    assert_eq!(with_backend(|b| b.cycle()), Some(3));
    libttsim_exit();
}

/// §1.5: init twice shares the chip, exit twice ends it, exit when not running is a no-op.
#[test]
fn init_and_exit_nest_and_extra_exit_is_a_no_op() {
    let _s = serial();
    libttsim_init();
    wr32(BAR0_BASE + 0x1FC0_0004, 0x0004_0800); // TLB 0 → (1,2)
    wr32(BAR0_BASE + 0x40, 0xCAFE);
    libttsim_init();
    assert_eq!(
        tile_rd(1, 2, 0x40, 2),
        vec![0xFE, 0xCA],
        "second init keeps the running chip"
    );
    libttsim_exit();
    assert_eq!(tile_rd(1, 2, 0x40, 2), vec![0xFE, 0xCA], "one open remains");
    libttsim_exit();
    assert_eq!(tile_rd(1, 2, 0x40, 2), vec![0xFF, 0xFF], "exited");
    libttsim_exit();
    libttsim_init();
    assert_eq!(
        tile_rd(1, 2, 0x40, 2),
        vec![0, 0],
        "re-init starts a fresh chip"
    );
    libttsim_exit();
}

/// A faulted device reads all-ones; init while faulted restarts it.
#[test]
fn init_restarts_a_faulted_device() {
    let _s = serial();
    libttsim_init();
    let mut b = [0u8; 4];
    unsafe { libttsim_pci_mem_rd_bytes(0x10, b.as_mut_ptr().cast(), 4) };
    assert!(is_faulted());
    assert_eq!(libttsim_pci_config_rd32(0, 0), u32::MAX);
    libttsim_init();
    assert!(!is_faulted());
    assert_eq!(libttsim_pci_config_rd32(0, 0), 0xB140_1E52);
    libttsim_exit();
    libttsim_exit();
}

/// `BHEMU_CYCLES_PER_CLOCK=k`: each `libttsim_clock(n)` runs n × k device cycles; unset, one
/// cycle per clock as the reference simulator (docs/libttsim-abi.md "Cycles per clock").
#[test]
fn cycles_per_clock_scales_every_clock_call() {
    let _s = serial();
    let cycles_of = |n: u32| {
        libttsim_init();
        let before = with_system(|s| s.cycle()).expect("running");
        libttsim_clock(n);
        let after = with_system(|s| s.cycle()).expect("running");
        libttsim_exit();
        after - before
    };
    std::env::set_var("BHEMU_CYCLES_PER_CLOCK", "1000");
    let scaled = cycles_of(3);
    std::env::remove_var("BHEMU_CYCLES_PER_CLOCK");
    let plain = cycles_of(3);
    assert_eq!((scaled, plain), (3000, 3));
}
