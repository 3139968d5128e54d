//! Loads the built `libttsim.so` with `dlopen`, as tt-umd does (docs/tt-umd-sim-interface.md
//! §1), and drives every symbol: the tt-umd open sequence and TLB-window round trips, then
//! misuse (calls before init and after exit, unaligned config offsets, addresses outside every
//! BAR, sizes running off a BAR, null pointers, unwinding DMA callbacks). The process must
//! survive and get the answers documented in docs/libttsim-abi.md.
//!
//! The library is a process-wide singleton, so the tests take `SERIAL` and each leaves it exited.
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, OnceLock};

// The few libc functions needed (glibc ≥ 2.34 has them in libc itself).
extern "C" {
    fn dlopen(filename: *const c_char, flag: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlclose(handle: *mut c_void) -> c_int;
    fn dlerror() -> *mut c_char;
}
const RTLD_LAZY: c_int = 1;
const RTLD_NOW: c_int = 2;

type DmaRd = unsafe extern "C-unwind" fn(u64, *mut c_void, u32);
type DmaWr = unsafe extern "C-unwind" fn(u64, *const c_void, u32);

/// The ten symbols with their C signatures (docs/tt-umd-sim-interface.md).
#[derive(Clone, Copy)]
struct Lib {
    init: extern "C" fn(),
    exit: extern "C" fn(),
    set_callbacks: extern "C" fn(Option<DmaRd>, Option<DmaWr>),
    cfg_rd: extern "C" fn(u32, u32) -> u32,
    cfg_wr: extern "C" fn(u32, u32, u32),
    mem_rd: unsafe extern "C-unwind" fn(u64, *mut c_void, u32),
    mem_wr: unsafe extern "C-unwind" fn(u64, *const c_void, u32),
    tile_rd: unsafe extern "C-unwind" fn(u32, u32, u64, *mut c_void, u32),
    tile_wr: unsafe extern "C-unwind" fn(u32, u32, u64, *const c_void, u32),
    clock: extern "C-unwind" fn(u32),
}

/// What the library answered before anyone called `libttsim_init` (recorded at first load).
struct BeforeInit {
    cfg0: u32,
    mem: [u8; 4],
    tile: [u8; 4],
}

struct Loaded {
    lib: Lib,
    before: BeforeInit,
}

static SERIAL: Mutex<()> = Mutex::new(());
static LOADED: OnceLock<Loaded> = OnceLock::new();

// tt-umd's view of the chip (docs/tt-umd-sim-interface.md §2, §3).
const TLB_CFG: u64 = 0x1FC0_0000;
const NIU_CFG_0: u64 = 0x1FD0_4100;
const WIN: u64 = 2 << 20;

/// The built library: `current_exe()` is `<target>/<profile>/deps/abi_misuse-…`, the cdylib is
/// `<target>/<profile>/libttsim.so` (also in `deps/`).
fn so_path() -> PathBuf {
    let exe = std::env::current_exe().expect("current_exe");
    let deps = exe.parent().expect("deps dir");
    let profile = deps.parent().expect("profile dir");
    for p in [profile.join("libttsim.so"), deps.join("libttsim.so")] {
        if p.exists() {
            return p;
        }
    }
    panic!("libttsim.so not found beside {}", deps.display());
}

fn dl_error() -> String {
    let e = unsafe { dlerror() };
    if e.is_null() {
        "?".into()
    } else {
        unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
    }
}

fn sym<T: Copy>(h: *mut c_void, name: &str) -> T {
    let c = CString::new(name).unwrap();
    let p = unsafe { dlsym(h, c.as_ptr()) };
    assert!(!p.is_null(), "missing symbol {name}: {}", dl_error());
    assert_eq!(std::mem::size_of::<T>(), std::mem::size_of::<*mut c_void>());
    unsafe { std::mem::transmute_copy::<*mut c_void, T>(&p) }
}

fn load() -> Loaded {
    let path = CString::new(so_path().to_str().unwrap()).unwrap();
    // §1.3: tt-umd probes with RTLD_LAZY, finds no multichip symbols, closes, opens again.
    let probe = unsafe { dlopen(path.as_ptr(), RTLD_LAZY) };
    assert!(!probe.is_null(), "dlopen: {}", dl_error());
    for name in [
        "libttsim_create_device_by_id",
        "libttsim_select_device_by_id",
    ] {
        let c = CString::new(name).unwrap();
        assert!(
            unsafe { dlsym(probe, c.as_ptr()) }.is_null(),
            "{name} must not be exported (§1.3)"
        );
    }
    assert_eq!(unsafe { dlclose(probe) }, 0);
    let h = unsafe { dlopen(path.as_ptr(), RTLD_NOW) };
    assert!(!h.is_null(), "dlopen: {}", dl_error());
    let lib = Lib {
        init: sym(h, "libttsim_init"),
        exit: sym(h, "libttsim_exit"),
        cfg_rd: sym(h, "libttsim_pci_config_rd32"),
        mem_rd: sym(h, "libttsim_pci_mem_rd_bytes"),
        mem_wr: sym(h, "libttsim_pci_mem_wr_bytes"),
        tile_rd: sym(h, "libttsim_tile_rd_bytes"),
        tile_wr: sym(h, "libttsim_tile_wr_bytes"),
        clock: sym(h, "libttsim_clock"),
        set_callbacks: sym(h, "libttsim_set_pci_dma_mem_callbacks"),
        cfg_wr: sym(h, "libttsim_pci_config_wr32"),
    };
    // Before any init: every call is answered, none crashes.
    let mut mem = [0u8; 4];
    let mut tile = [0u8; 4];
    let cfg0 = (lib.cfg_rd)(0, 0);
    unsafe {
        (lib.mem_rd)(0xC000_0000, mem.as_mut_ptr().cast(), 4);
        (lib.mem_wr)(0xC000_0000, mem.as_ptr().cast(), 4);
        (lib.tile_rd)(1, 2, 0, tile.as_mut_ptr().cast(), 4);
        (lib.tile_wr)(1, 2, 0, tile.as_ptr().cast(), 4);
    }
    (lib.cfg_wr)(0, 0x10, 0xFFFF_FFFF);
    (lib.clock)(5);
    (lib.exit)();
    Loaded {
        lib,
        before: BeforeInit { cfg0, mem, tile },
    }
}

fn setup() -> (MutexGuard<'static, ()>, Lib) {
    let g = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let l = LOADED.get_or_init(load);
    (g, l.lib)
}

impl Lib {
    fn bar(&self, lo: u32) -> u64 {
        (u64::from((self.cfg_rd)(0, lo)) | u64::from((self.cfg_rd)(0, lo + 4)) << 32) & !0xF
    }
    fn rd(&self, paddr: u64, n: usize) -> Vec<u8> {
        let mut b = vec![0x55u8; n];
        unsafe { (self.mem_rd)(paddr, b.as_mut_ptr().cast(), n as u32) };
        b
    }
    fn wr(&self, paddr: u64, data: &[u8]) {
        unsafe { (self.mem_wr)(paddr, data.as_ptr().cast(), data.len() as u32) };
    }
    fn rd32(&self, paddr: u64) -> u32 {
        u32::from_le_bytes(self.rd(paddr, 4).try_into().unwrap())
    }
    fn wr32(&self, paddr: u64, v: u32) {
        self.wr(paddr, &v.to_le_bytes());
    }
    fn tile_read(&self, x: u32, y: u32, addr: u64, n: usize) -> Vec<u8> {
        let mut b = vec![0x55u8; n];
        unsafe { (self.tile_rd)(x, y, addr, b.as_mut_ptr().cast(), n as u32) };
        b
    }
    fn tile_write(&self, x: u32, y: u32, addr: u64, data: &[u8]) {
        unsafe { (self.tile_wr)(x, y, addr, data.as_ptr().cast(), data.len() as u32) };
    }
    /// Exit until no open remains (init/exit nest, §1.5).
    fn exit_all(&self) {
        for _ in 0..4 {
            (self.exit)();
        }
    }
}

/// tt-umd's open (§1.4): scan, vendor/device, BARs, TLB 0 cleared, NIU_CFG_0, iATU region 5.
/// Returns (BAR0, BAR2).
fn umd_open(l: &Lib) -> (u64, u64) {
    (l.init)();
    let present: Vec<u32> = (0..32)
        .map(|d| d << 3)
        .filter(|&bdf| (l.cfg_rd)(bdf, 0) != 0xFFFF_FFFF)
        .collect();
    assert_eq!(present, vec![0], "one endpoint on bus 0");
    assert_eq!((l.cfg_rd)(0, 0) & 0xFFFF, 0x1E52);
    assert_eq!((l.cfg_rd)(0, 0) >> 16, 0xB140);
    let bar0 = l.bar(0x10);
    let bar4 = l.bar(0x20);
    assert_ne!(bar0, bar4);
    for o in [0, 4, 8] {
        l.wr32(bar0 + TLB_CFG + o, 0);
    }
    assert_eq!(l.bar(0x10), bar0);
    let niu = l.rd32(bar0 + NIU_CFG_0);
    assert_eq!(
        niu & (1 << 14),
        1 << 14,
        "the chip routes with NoC coordinate translation on"
    );
    let bar2 = l.bar(0x18);
    program_iatu(l, bar2, 5, 0, 0xFFFD_FFFF, 0);
    (bar0, bar2)
}

/// §4: +4 ← 0, +0, +8, +C, +10, +14, +18, +4 ← 0x8000_0000, each a 4-byte write.
fn program_iatu(l: &Lib, bar2: u64, r: u64, base: u64, limit: u64, target: u64) {
    let reg = bar2 + 0x1000 + r * 0x200;
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
        l.wr32(reg + o, v);
    }
}

/// §3.3 entry words of a 2 MiB window for tile (x, y) at `addr` (mcast, ordering, static_vc 0).
fn entry_2m(x: u32, y: u32, addr: u64, noc: u32) -> [u32; 3] {
    let lo = addr / WIN;
    [
        lo as u32,
        (lo >> 32) as u32 & 0x7FF | x << 11 | y << 17,
        noc << 3,
    ]
}

/// TLB 0 programmed with three separate 4-byte writes at +0, +4, +8 (§3.3).
fn program_tlb0(l: &Lib, bar0: u64, x: u32, y: u32, addr: u64) {
    for (i, w) in entry_2m(x, y, addr, 0).into_iter().enumerate() {
        l.wr32(bar0 + TLB_CFG + 4 * i as u64, w);
    }
}

/// tt-umd's `noc_write` (§3.4, §6): per chunk that stays inside one window, program TLB 0 and
/// write. No clock.
fn umd_noc_write(l: &Lib, bar0: u64, x: u32, y: u32, addr: u64, data: &[u8]) {
    let mut done = 0;
    while done < data.len() {
        let a = addr + done as u64;
        let n = ((WIN - a % WIN) as usize).min(data.len() - done);
        program_tlb0(l, bar0, x, y, a);
        l.wr(bar0 + a % WIN, &data[done..done + n]);
        done += n;
    }
}

/// tt-umd's `noc_read`: chunks as above, then exactly one `clock(1)` (§6).
fn umd_noc_read(l: &Lib, bar0: u64, x: u32, y: u32, addr: u64, n: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let a = addr + out.len() as u64;
        let k = ((WIN - a % WIN) as usize).min(n - out.len());
        program_tlb0(l, bar0, x, y, a);
        out.extend(l.rd(bar0 + a % WIN, k));
    }
    (l.clock)(1);
    out
}

#[test]
fn symbols_called_before_init_answer_all_ones() {
    let (_g, l) = setup();
    let b = &LOADED.get().unwrap().before;
    assert_eq!(b.cfg0, 0xFFFF_FFFF);
    assert_eq!(b.mem, [0xFF; 4]);
    assert_eq!(b.tile, [0xFF; 4]);
    // The first init after all that still starts a healthy chip.
    (l.init)();
    assert_eq!((l.cfg_rd)(0, 0), 0xB140_1E52);
    l.exit_all();
}

#[test]
fn symbols_called_after_exit_answer_all_ones() {
    let (_g, l) = setup();
    let (bar0, _) = umd_open(&l);
    program_tlb0(&l, bar0, 1, 2, 0);
    l.wr32(bar0 + 0x40, 0x1234_5678);
    l.exit_all();
    assert_eq!((l.cfg_rd)(0, 0), 0xFFFF_FFFF);
    assert_eq!(l.rd(bar0 + 0x40, 4), [0xFF; 4]);
    assert_eq!(l.tile_read(1, 2, 0x40, 4), [0xFF; 4]);
    l.wr32(bar0 + 0x40, 1);
    l.tile_write(1, 2, 0x40, &[1]);
    (l.cfg_wr)(0, 4, 0);
    (l.clock)(1);
    (l.exit)();
    // Re-init after exit gives a fresh chip.
    (l.init)();
    assert_eq!(l.tile_read(1, 2, 0x40, 4), [0; 4]);
    l.exit_all();
}

/// tt-umd 0.9.14 data paths through TLB 0 into the chip (§3.4, §5, §6).
#[test]
fn tlb_window_round_trips_as_tt_umd_does_them() {
    let (_g, l) = setup();
    let trace = std::env::temp_dir().join(format!("bhemu-abi-trace-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&trace);
    std::env::set_var("BHEMU_TRACE_FILE", &trace);
    let (bar0, _) = umd_open(&l);
    std::env::remove_var("BHEMU_TRACE_FILE");

    // noc_write32 / noc_read32 at an unaligned address: a 4-byte access at window offset 0x401.
    umd_noc_write(&l, bar0, 1, 2, 0x401, &0xDEAD_BEEFu32.to_le_bytes());
    assert_eq!(
        umd_noc_read(&l, bar0, 1, 2, 0x401, 4),
        0xDEAD_BEEFu32.to_le_bytes()
    );
    // A 5-byte write at 0x403 arrives as one 5-byte write.
    umd_noc_write(&l, bar0, 1, 2, 0x403, &[1, 2, 3, 4, 5]);
    assert_eq!(
        umd_noc_read(&l, bar0, 1, 2, 0x401, 8),
        [0xEF, 0xBE, 1, 2, 3, 4, 5, 0]
    );
    // 16 bytes at DRAM 0x1F_FFF8 cross a window end: two chunks, TLB 0 re-programmed between.
    let data: Vec<u8> = (0..16).collect();
    umd_noc_write(&l, bar0, 0, 0, 0x1F_FFF8, &data);
    assert_eq!(umd_noc_read(&l, bar0, 0, 0, 0x1F_FFF8, 16), data);
    assert_eq!(
        l.tile_read(0, 0, 0x20_0000, 8),
        data[8..],
        "second chunk at local offset 1"
    );
    // 3 MiB at 0x10 of a DRAM node: chunks of 2 097 136 and 1 048 592 bytes.
    let big: Vec<u8> = (0..3u32 << 20).map(|i| (i % 251) as u8).collect();
    umd_noc_write(&l, bar0, 9, 6, 0x10, &big);
    assert!(umd_noc_read(&l, bar0, 9, 6, 0x10, big.len()) == big);
    // Soft reset 0xFFB1_21B0 through local offset 0x7FD, read-modify-write (§5). BRISC starts
    // at L1 0 once released, and the reads below clock the chip: park it on `jal x0, 0`.
    umd_noc_write(&l, bar0, 1, 2, 0, &0x0000_006Fu32.to_le_bytes());
    umd_noc_write(&l, bar0, 1, 2, 0xFFB1_21B0, &0x47800u32.to_le_bytes());
    let old = u32::from_le_bytes(
        umd_noc_read(&l, bar0, 1, 2, 0xFFB1_21B0, 4)
            .try_into()
            .unwrap(),
    );
    umd_noc_write(&l, bar0, 1, 2, 0xFFB1_21B0, &(old & !0x800).to_le_bytes());
    assert_eq!(
        umd_noc_read(&l, bar0, 1, 2, 0xFFB1_21B0, 4),
        0x47000u32.to_le_bytes()
    );
    assert_eq!(words_of_entry0(&l, bar0), entry_2m(1, 2, 0xFFB1_21B0, 0));
    assert_eq!(entry_2m(1, 2, 0xFFB1_21B0, 0)[0], 0x7FD);
    // NOC1 through noc_sel: (1,2) on NoC 0 is (15,9) on NoC 1.
    for (i, w) in entry_2m(15, 9, 0, 1).into_iter().enumerate() {
        l.wr32(bar0 + TLB_CFG + 4 * i as u64, w);
    }
    assert_eq!(l.rd(bar0 + 0x401, 2), [0xEF, 0xBE]);
    // The trace: one line per call, reads carry data, time advanced only by the clock calls.
    l.exit_all();
    let t = std::fs::read_to_string(&trace).unwrap();
    let _ = std::fs::remove_file(&trace);
    let clocks = t.lines().filter(|s| s.contains(" clock n=1")).count();
    assert_eq!(clocks, 6, "one clock(1) per noc_read");
    assert!(t
        .lines()
        .any(|s| s.contains("pci_config_rd32 bdf=0x0 offset=0x0 -> 0xb1401e52")));
    let last_clock = t.lines().rfind(|s| s.contains(" clock n=1")).unwrap();
    assert!(
        last_clock.contains("cycle=5 "),
        "the 6th clock starts at cycle 5: {last_clock}"
    );
}

fn words_of_entry0(l: &Lib, bar0: u64) -> [u32; 3] {
    [
        l.rd32(bar0 + TLB_CFG),
        l.rd32(bar0 + TLB_CFG + 4),
        l.rd32(bar0 + TLB_CFG + 8),
    ]
}

/// A single access across a window end is split: each piece goes through its own window.
#[test]
fn access_crossing_a_window_end_is_split_across_windows() {
    let (_g, l) = setup();
    let (bar0, _) = umd_open(&l);
    // Entry 1 → DRAM channel 0 at translated (17,12), 10 MiB (beyond any L1).
    for (i, w) in entry_2m(17, 12, 0x20_0000 * 5, 0).into_iter().enumerate() {
        l.wr(bar0 + TLB_CFG + 12 + 4 * i as u64, &w.to_le_bytes()); // entry 1
    }
    // Entry 0 → DRAM channel 4 at (18,12): window 0's last bytes lie beyond any L1 too.
    program_tlb0(&l, bar0, 18, 12, 0);
    // Entry 1's last word written as two unaligned halves (byte-granular latching).
    let w2 = entry_2m(17, 12, 0x20_0000 * 5, 0)[2].to_le_bytes();
    l.wr(bar0 + TLB_CFG + 12 + 8, &w2[..1]);
    l.wr(bar0 + TLB_CFG + 12 + 9, &w2[1..]);
    l.wr(bar0 + WIN - 3, &[1, 2, 3, 4, 5, 6]);
    assert_eq!(l.tile_read(18, 12, WIN - 3, 3), [1, 2, 3]);
    assert_eq!(l.tile_read(17, 12, 0x20_0000 * 5, 3), [4, 5, 6]);
    assert_eq!(l.rd(bar0 + WIN - 3, 6), [1, 2, 3, 4, 5, 6]);
    l.exit_all();
}

#[test]
fn unaligned_or_out_of_range_config_offsets_read_all_ones_without_faulting() {
    let (_g, l) = setup();
    (l.init)();
    for off in [1, 2, 3, 0x11, 0x13, 0xFFF] {
        assert_eq!((l.cfg_rd)(0, off), 0xFFFF_FFFF, "offset {off:#x}");
    }
    assert_eq!((l.cfg_rd)(0, 0x1000), 0xFFFF_FFFF);
    assert_eq!((l.cfg_rd)(0, u32::MAX), 0xFFFF_FFFF);
    assert_eq!(
        (l.cfg_rd)(0xFFFF_FFFF, 0),
        0xFFFF_FFFF,
        "no device at that BDF"
    );
    (l.cfg_wr)(0, 0x12, 0xFFFF_FFFF); // unaligned write: ignored
    (l.cfg_wr)(0, 0, 0); // IDs are read-only
    assert_eq!((l.cfg_rd)(0, 0), 0xB140_1E52, "the device did not fault");
    // BAR sizing through pci_config_wr32: all-ones in, size mask out, base restored.
    let bar0 = l.bar(0x10);
    (l.cfg_wr)(0, 0x10, 0xFFFF_FFFF);
    (l.cfg_wr)(0, 0x14, 0xFFFF_FFFF);
    let mask = l.bar(0x10);
    assert_eq!(!mask + 1, 512 << 20);
    (l.cfg_wr)(0, 0x10, bar0 as u32);
    (l.cfg_wr)(0, 0x14, (bar0 >> 32) as u32);
    assert_eq!(l.bar(0x10), bar0);
    l.exit_all();
}

#[test]
fn address_outside_every_bar_faults_the_device_until_reinit() {
    let (_g, l) = setup();
    let (bar0, _) = umd_open(&l);
    program_tlb0(&l, bar0, 1, 2, 0);
    l.wr32(bar0, 0xAB);
    assert_eq!(l.rd(0x10, 4), [0xFF; 4]);
    // From now on: all-ones everywhere, writes dropped, clock ignored, no crash.
    assert_eq!(l.rd32(bar0), 0xFFFF_FFFF);
    assert_eq!((l.cfg_rd)(0, 0), 0xFFFF_FFFF);
    assert_eq!(l.tile_read(1, 2, 0, 4), [0xFF; 4]);
    l.wr32(bar0, 1);
    (l.clock)(10);
    // exit + init recovers with a fresh chip.
    l.exit_all();
    (l.init)();
    assert_eq!((l.cfg_rd)(0, 0), 0xB140_1E52);
    l.exit_all();
    // A write outside every BAR faults too.
    let (bar0, _) = umd_open(&l);
    l.wr32(u64::MAX - 1, 5);
    assert_eq!(l.rd32(bar0 + TLB_CFG), 0xFFFF_FFFF);
    l.exit_all();
}

#[test]
fn access_running_off_the_end_of_a_bar_faults() {
    let (_g, l) = setup();
    let (_, bar2) = umd_open(&l);
    assert_eq!(l.rd(bar2 + (1 << 20) - 2, 4), [0xFF; 4]);
    assert_eq!((l.cfg_rd)(0, 0), 0xFFFF_FFFF, "faulted");
    l.exit_all();
    // Off the last 2 MiB window (201) into the unmodelled hole of BAR0: strict mode faults.
    let (bar0, _) = umd_open(&l);
    assert_eq!(l.rd(bar0 + 202 * WIN - 2, 4), [0xFF; 4]);
    assert_eq!((l.cfg_rd)(0, 0), 0xFFFF_FFFF, "faulted");
    l.exit_all();
}

#[test]
fn null_pointers_with_size_are_ignored_and_size_zero_is_a_no_op() {
    let (_g, l) = setup();
    let (bar0, _) = umd_open(&l);
    program_tlb0(&l, bar0, 1, 2, 0);
    l.wr32(bar0 + 8, 0x0102_0304);
    unsafe {
        (l.mem_rd)(bar0, std::ptr::null_mut(), 4);
        (l.mem_wr)(bar0 + 8, std::ptr::null(), 4);
        (l.tile_rd)(1, 2, 8, std::ptr::null_mut(), 4);
        (l.tile_wr)(1, 2, 8, std::ptr::null(), 4);
        (l.mem_rd)(bar0, std::ptr::null_mut(), 0);
        (l.mem_wr)(0x10, std::ptr::null(), 0); // size 0: not even the address is checked
        (l.tile_rd)(99, 99, 0, std::ptr::null_mut(), 0);
    }
    assert_eq!(
        l.rd32(bar0 + 8),
        0x0102_0304,
        "nothing faulted, nothing was written"
    );
    (l.set_callbacks)(None, None);
    l.exit_all();
}

static HOST_WRITES: Mutex<Vec<(u64, Vec<u8>)>> = Mutex::new(Vec::new());

unsafe extern "C-unwind" fn host_wr(paddr: u64, src: *const c_void, size: u32) {
    let data = std::slice::from_raw_parts(src.cast::<u8>(), size as usize).to_vec();
    HOST_WRITES.lock().unwrap().push((paddr, data));
}
unsafe extern "C-unwind" fn host_rd(_paddr: u64, dst: *mut c_void, size: u32) {
    std::slice::from_raw_parts_mut(dst.cast::<u8>(), size as usize).fill(0x11);
}
/// A callback that unwinds with an exception foreign to the library (this test binary's Rust
/// panic is as foreign to the `.so`'s own runtime as a C++ exception is): §9's hazard.
unsafe extern "C-unwind" fn host_wr_throws(_paddr: u64, _src: *const c_void, _size: u32) {
    std::panic::panic_any("write_buffer: Hugepages are not allocated ch: 0");
}

/// §4, §9: DMA goes through the enabled iATU region; an unwinding callback returns to the
/// caller through the library without killing the process, and the device stays usable.
#[test]
fn dma_callbacks_route_through_the_iatu_and_may_unwind() {
    let (_g, l) = setup();
    HOST_WRITES.lock().unwrap().clear();
    (l.set_callbacks)(Some(host_rd), Some(host_wr));
    let (bar0, bar2) = umd_open(&l);
    program_iatu(&l, bar2, 1, 0x4000_0000, 0x7FFF_FFFF, 0x4000_0000);
    // Host writes looped back into PCIe tile (2,0)'s NoC-to-host window (2⁶⁰ + off) go to host
    // memory through the iATU.
    l.tile_write(2, 0, (1 << 60) + 0x4000_0010, &[1, 2, 3]);
    l.tile_write(2, 0, (1 << 60) + 0x20, &[4]);
    assert_eq!(
        *HOST_WRITES.lock().unwrap(),
        vec![(0x4000_0010, vec![1, 2, 3]), (0x20, vec![4])]
    );
    // Callbacks replaced after init (§1.5), now one that throws.
    (l.set_callbacks)(Some(host_rd), Some(host_wr_throws));
    let r = std::panic::catch_unwind(|| l.tile_write(2, 0, (1 << 60) + 0x30, &[5]));
    assert!(
        r.is_err(),
        "the callback's exception must come back to the caller"
    );
    // The process lives, the library is not poisoned, the device is not faulted.
    program_tlb0(&l, bar0, 1, 2, 0);
    l.wr32(bar0 + 0x10, 77);
    assert_eq!(l.rd32(bar0 + 0x10), 77);
    assert_eq!((l.cfg_rd)(0, 0), 0xB140_1E52);
    l.exit_all();
}

/// §1.5: two devices on one path — init twice, callbacks set again while running, exit twice.
#[test]
fn double_init_and_double_exit_are_tolerated() {
    let (_g, l) = setup();
    let (bar0, _) = umd_open(&l);
    program_tlb0(&l, bar0, 1, 2, 0);
    l.wr32(bar0 + 0x80, 42);
    (l.set_callbacks)(Some(host_rd), Some(host_wr));
    let (bar0b, _) = umd_open(&l);
    assert_eq!(bar0b, bar0);
    program_tlb0(&l, bar0, 1, 2, 0);
    assert_eq!(l.rd32(bar0 + 0x80), 42, "the second open shares the chip");
    (l.exit)();
    assert_eq!(l.rd32(bar0 + 0x80), 42, "the first device is still open");
    (l.exit)();
    assert_eq!(l.rd32(bar0 + 0x80), 0xFFFF_FFFF, "both closed");
    (l.exit)();
    (l.exit)();
}
