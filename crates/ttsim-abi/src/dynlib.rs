//! A `libttsim.so` loaded at run time (`dlopen`/`dlsym`), so that one host program can drive
//! bhemu's library or Tenstorrent's reference simulator through the same C ABI
//! (docs/reference.md). glibc provides `dlopen`, `dlsym` and `dlerror`; they are declared here
//! rather than pulled in through a crate.
//!
//! A library is never closed: the reference simulator is a process-wide singleton that may end
//! the process on its own, and the differential runner gives each library its own process, so
//! unloading would buy nothing and risk running its destructors twice.
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::{Path, PathBuf};

use crate::sim_calls::SimCalls;

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
    fn dlerror() -> *mut c_char;
}

/// `RTLD_NOW`: resolve every symbol at load, so a broken library fails here, not mid-run.
const RTLD_NOW: c_int = 2;
/// `RTLD_LOCAL` is 0: the library's symbols stay out of the global namespace, so bhemu's own
/// exported `libttsim_*` (linked into the same binary) and the loaded ones never mix.
const RTLD_LOCAL: c_int = 0;

/// Why a library could not be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DynLibError {
    #[error("{0}: no such file")]
    Missing(PathBuf),
    #[error("{path}: dlopen failed: {why}")]
    Open { path: PathBuf, why: String },
    #[error("{path}: the library does not export `{symbol}`")]
    Symbol { path: PathBuf, symbol: &'static str },
}

type DmaRd = unsafe extern "C" fn(u64, *mut c_void, u32);
type DmaWr = unsafe extern "C" fn(u64, *const c_void, u32);

/// The entry points of one loaded library.
#[derive(Debug)]
pub struct DynSim {
    path: PathBuf,
    init: unsafe extern "C" fn(),
    exit: unsafe extern "C" fn(),
    config_rd32: unsafe extern "C" fn(u32, u32) -> u32,
    mem_rd: unsafe extern "C" fn(u64, *mut c_void, u32),
    mem_wr: unsafe extern "C" fn(u64, *const c_void, u32),
    clock: unsafe extern "C" fn(u32),
    set_dma: unsafe extern "C" fn(Option<DmaRd>, Option<DmaWr>),
}

/// Host memory as a differential job sees it: none. Reads answer zeros, writes vanish, so a
/// library that DMAs anyway sees the same (empty) host on both sides instead of a null pointer.
unsafe extern "C" fn no_host_rd(_paddr: u64, dst: *mut c_void, size: u32) {
    if !dst.is_null() {
        // SAFETY: the library hands a buffer of `size` writable bytes.
        unsafe { std::ptr::write_bytes(dst.cast::<u8>(), 0, size as usize) };
    }
}

unsafe extern "C" fn no_host_wr(_paddr: u64, _src: *const c_void, _size: u32) {}

fn last_dl_error() -> String {
    // SAFETY: dlerror returns null or a NUL-terminated string owned by libc.
    let p = unsafe { dlerror() };
    if p.is_null() {
        "unknown error".to_string()
    } else {
        // SAFETY: non-null, NUL-terminated (see above).
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

impl DynSim {
    /// Loads `path` and resolves every entry point; nothing is called yet.
    pub fn load(path: &Path) -> Result<DynSim, DynLibError> {
        if !path.is_file() {
            return Err(DynLibError::Missing(path.to_path_buf()));
        }
        // dlopen searches the library path for a name without a slash; a relative path given
        // by the user means the file, so make it explicit.
        let abs = if path.is_absolute() {
            path.to_path_buf()
        } else {
            Path::new(".").join(path)
        };
        let open_err = |why: String| DynLibError::Open {
            path: path.to_path_buf(),
            why,
        };
        let c = CString::new(abs.as_os_str().as_encoded_bytes())
            .map_err(|_| open_err("the path holds a NUL byte".into()))?;
        // SAFETY: `c` is NUL-terminated; loading runs the library's constructors, which is
        // what loading a simulator means.
        let handle = unsafe { dlopen(c.as_ptr(), RTLD_NOW | RTLD_LOCAL) };
        if handle.is_null() {
            return Err(open_err(last_dl_error()));
        }
        let sym = |symbol: &'static str| -> Result<*mut c_void, DynLibError> {
            let name = CString::new(symbol).map_err(|_| DynLibError::Symbol {
                path: path.to_path_buf(),
                symbol,
            })?;
            // SAFETY: `handle` came from dlopen and `name` is NUL-terminated.
            let p = unsafe { dlsym(handle, name.as_ptr()) };
            if p.is_null() {
                Err(DynLibError::Symbol {
                    path: path.to_path_buf(),
                    symbol,
                })
            } else {
                Ok(p)
            }
        };
        // SAFETY (each transmute): the symbol is the C ABI function of that name, whose
        // signature docs/libttsim-abi.md fixes; a data pointer and a function pointer have the
        // same size on every target glibc's dlsym serves.
        unsafe {
            Ok(DynSim {
                path: path.to_path_buf(),
                init: std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(sym(
                    "libttsim_init",
                )?),
                exit: std::mem::transmute::<*mut c_void, unsafe extern "C" fn()>(sym(
                    "libttsim_exit",
                )?),
                config_rd32: std::mem::transmute::<
                    *mut c_void,
                    unsafe extern "C" fn(u32, u32) -> u32,
                >(sym("libttsim_pci_config_rd32")?),
                mem_rd: std::mem::transmute::<
                    *mut c_void,
                    unsafe extern "C" fn(u64, *mut c_void, u32),
                >(sym("libttsim_pci_mem_rd_bytes")?),
                mem_wr: std::mem::transmute::<
                    *mut c_void,
                    unsafe extern "C" fn(u64, *const c_void, u32),
                >(sym("libttsim_pci_mem_wr_bytes")?),
                clock: std::mem::transmute::<*mut c_void, unsafe extern "C" fn(u32)>(sym(
                    "libttsim_clock",
                )?),
                set_dma: std::mem::transmute::<
                    *mut c_void,
                    unsafe extern "C" fn(Option<DmaRd>, Option<DmaWr>),
                >(sym("libttsim_set_pci_dma_mem_callbacks")?),
            })
        }
    }

    /// The file this was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `libttsim_exit()`: stops the simulator (the library stays loaded).
    pub fn exit(&self) {
        // SAFETY: resolved from the library; takes no arguments.
        unsafe { (self.exit)() }
    }
}

impl SimCalls for DynSim {
    fn init(&self) {
        // SAFETY: the callbacks are plain C functions that live as long as the process; the
        // reference wants them set before init.
        unsafe {
            (self.set_dma)(Some(no_host_rd), Some(no_host_wr));
            (self.init)();
        }
    }
    fn pci_config_rd32(&self, bdf: u32, offset: u32) -> u32 {
        // SAFETY: plain values.
        unsafe { (self.config_rd32)(bdf, offset) }
    }
    fn pci_mem_rd(&self, paddr: u64, out: &mut [u8]) {
        // SAFETY: `out` is a live, writable buffer of `out.len()` bytes.
        unsafe { (self.mem_rd)(paddr, out.as_mut_ptr().cast::<c_void>(), out.len() as u32) }
    }
    fn pci_mem_wr(&self, paddr: u64, data: &[u8]) {
        // SAFETY: `data` is a live buffer of `data.len()` bytes.
        unsafe { (self.mem_wr)(paddr, data.as_ptr().cast::<c_void>(), data.len() as u32) }
    }
    fn clock(&self, n: u32) {
        // SAFETY: a plain value.
        unsafe { (self.clock)(n) }
    }
}
