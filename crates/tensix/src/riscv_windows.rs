//! The RISC-V views of the coprocessor's state: `Config`/`ThreadConfig` at `TENSIX_CFG_BASE`,
//! the GPRs at `REGFILE_BASE` and `Dst` at `0xFFBD_8000`. The tile decodes the address and
//! passes the offset into the window; these functions read and write the same
//! [`TensixState`](crate::TensixState) the backend units use.
//!
//! Pages (tt-isa-documentation): BlackholeA0/TensixTile/TensixCoprocessor/
//! BackendConfiguration.md (layout: `Config[2][CFG_STATE_SIZE*4]`, then
//! `ConfigDualWrite[CFG_STATE_SIZE*4]`, then `ThreadConfig[3][THD_STATE_SIZE]` of
//! `{uint16_t Value, Padding}`; RISC-V writes to `Config` are `sw` only, `ThreadConfig` is
//! read-only), WormholeB0/TensixTile/TensixCoprocessor/ScalarUnit.md (GPRs),
//! BlackholeA0/TensixTile/TensixCoprocessor/Dst.md ("RISCV access to Dst": `Load32`,
//! `Load16`, `Load8`, `Store32`, `Store16`, `Store8`).
use crate::coprocessor::Coprocessor;
use crate::state::cfg_fields::{self as f, THD_STATE_SIZE};
use crate::state::{CfgField, CFG_WORDS, GPRS};

/// Bytes of `Config[2]` + `ConfigDualWrite` + `ThreadConfig[3]` in the window.
const CONFIG_BYTES: u32 = 4 * CFG_WORDS as u32;
const DUAL_BASE: u32 = 2 * CONFIG_BYTES;
const THREAD_BASE: u32 = 3 * CONFIG_BYTES;
const THREAD_BYTES: u32 = 3 * 4 * THD_STATE_SIZE as u32;

/// The `width`-byte field at byte offset `off & 3` of `word`.
fn extract(word: u32, off: u32, width: u32) -> u32 {
    let shift = 8 * (off & 3);
    match width {
        1 => (word >> shift) & 0xff,
        2 => (word >> shift) & 0xffff,
        _ => word,
    }
}

fn aligned(off: u32, width: u32) -> Result<(), String> {
    if !matches!(width, 1 | 2 | 4) || !off.is_multiple_of(width) {
        return Err(format!(
            "{width}-byte access at offset {off:#x} is not naturally aligned"
        ));
    }
    Ok(())
}

impl Coprocessor {
    /// A load from the configuration window (`lw`/`lh`/`lhu`/`lb`/`lbu`).
    pub fn cfg_window_read(&self, off: u32, width: u32) -> Result<u32, String> {
        aligned(off, width)?;
        let cfg = &self.state().cfg;
        let word = if off < DUAL_BASE {
            cfg.word(
                (off / CONFIG_BYTES) as usize,
                ((off % CONFIG_BYTES) / 4) as usize,
            )
        } else if off < THREAD_BASE {
            // ConfigDualWrite reads as Config[0].
            cfg.word(0, ((off - DUAL_BASE) / 4) as usize)
        } else if off < THREAD_BASE + THREAD_BYTES {
            let i = ((off - THREAD_BASE) / 4) as usize;
            cfg.thread_word(i / THD_STATE_SIZE, i % THD_STATE_SIZE)
                .map(u32::from)
        } else {
            None
        };
        word.map(|w| extract(w, off, width)).ok_or_else(|| {
            format!("offset {off:#x} is past ThreadConfig in the configuration window")
        })
    }

    /// A store to the configuration window: `sw` to `Config[i][j]` (with the global-word and
    /// `STATE_RESET_EN` rules) or to `ConfigDualWrite[j]`; anything else is an error.
    pub fn cfg_window_write(&mut self, off: u32, width: u32, value: u32) -> Result<(), String> {
        if width != 4 {
            return Err("RISC-V writes to Config are `sw` only".into());
        }
        aligned(off, width)?;
        let cfg = &mut self.state_mut().cfg;
        if off < DUAL_BASE {
            let (s, j) = (
                (off / CONFIG_BYTES) as usize,
                ((off % CONFIG_BYTES) / 4) as usize,
            );
            cfg.write_word(s, j, value);
            Ok(())
        } else if off < THREAD_BASE {
            let j = ((off - DUAL_BASE) / 4) as usize;
            cfg.write_word(0, j, value);
            cfg.write_word(1, j, value);
            Ok(())
        } else if off < THREAD_BASE + THREAD_BYTES {
            Err("ThreadConfig cannot be written by RISC-V stores (use SETC16)".into())
        } else {
            Err(format!(
                "offset {off:#x} is past ThreadConfig in the configuration window"
            ))
        }
    }

    /// A load from the GPR window: `GPRs[3][64]` flattened, from `thread`'s first GPR
    /// (RISCV B sees all three threads from thread 0).
    pub fn gpr_window_read(&self, thread: usize, off: u32, width: u32) -> Result<u32, String> {
        aligned(off, width)?;
        let i = thread * GPRS + (off / 4) as usize;
        let g = &self.state().gprs;
        g.get(i / GPRS)
            .and_then(|t| t.get(i % GPRS))
            .map(|&w| extract(w, off, width))
            .ok_or_else(|| format!("GPR window offset {off:#x} is past the GPRs"))
    }

    /// A store to the GPR window; narrower stores merge into the word.
    pub fn gpr_window_write(
        &mut self,
        thread: usize,
        off: u32,
        width: u32,
        value: u32,
    ) -> Result<(), String> {
        aligned(off, width)?;
        let i = thread * GPRS + (off / 4) as usize;
        let g = &mut self.state_mut().gprs;
        let w = g
            .get_mut(i / GPRS)
            .and_then(|t| t.get_mut(i % GPRS))
            .ok_or_else(|| format!("GPR window offset {off:#x} is past the GPRs"))?;
        let shift = 8 * (off & 3);
        let mask = match width {
            1 => 0xff << shift,
            2 => 0xffff << shift,
            _ => u32::MAX,
        };
        *w = (*w & !mask) | ((value << shift) & mask);
        Ok(())
    }

    /// `RISC_DEST_ACCESS_CTRL_SEC[thread].{fmt, no_swizzle, unsigned_int}` in the thread's
    /// configuration state.
    fn dst_access(&self, thread: usize) -> Result<(u32, bool, bool), String> {
        let (fmt, ns, ui): (CfgField, CfgField, CfgField) = match thread {
            0 => (
                f::RISC_DEST_ACCESS_CTRL_SEC0_fmt,
                f::RISC_DEST_ACCESS_CTRL_SEC0_no_swizzle,
                f::RISC_DEST_ACCESS_CTRL_SEC0_unsigned_int,
            ),
            1 => (
                f::RISC_DEST_ACCESS_CTRL_SEC1_fmt,
                f::RISC_DEST_ACCESS_CTRL_SEC1_no_swizzle,
                f::RISC_DEST_ACCESS_CTRL_SEC1_unsigned_int,
            ),
            2 => (
                f::RISC_DEST_ACCESS_CTRL_SEC2_fmt,
                f::RISC_DEST_ACCESS_CTRL_SEC2_no_swizzle,
                f::RISC_DEST_ACCESS_CTRL_SEC2_unsigned_int,
            ),
            _ => return Err(format!("Dst is mapped for T0-T2 only (thread {thread})")),
        };
        let c = &self.state().cfg;
        Ok((
            c.get(thread, fmt),
            c.get(thread, ns) != 0,
            c.get(thread, ui) != 0,
        ))
    }

    /// Element size in bytes of the Dst window for `fmt` (Dst.md table; >= 6 reserved).
    fn dst_elem(fmt: u32) -> Result<u32, String> {
        match fmt {
            0 | 1 => Ok(4),
            2..=4 => Ok(2),
            5 => Ok(1),
            _ => Err(format!(
                "RISC_DEST_ACCESS_CTRL fmt {fmt} is reserved (undefined behaviour)"
            )),
        }
    }

    /// A load from the `Dst` window by TRISC `thread` (Dst.md `Load32`/`Load16`/`Load8`).
    /// T0 and T1 access one element at a time; T2 may load several, split into elements.
    pub fn dst_window_read(&self, thread: usize, off: u32, width: u32) -> Result<u32, String> {
        aligned(off, width)?;
        let (fmt, no_swizzle, unsigned_int) = self.dst_access(thread)?;
        let elem = Self::dst_elem(fmt)?;
        if width != elem && (thread != 2 || width < elem) {
            return Err(format!(
                "{width}-byte load from Dst with fmt {fmt} ({elem}-byte elements): undefined behaviour"
            ));
        }
        let mut out = 0u32;
        for k in 0..width / elem {
            let v = self.dst_load_elem(off + k * elem, fmt, no_swizzle, unsigned_int, thread)?;
            out |= v << (8 * elem * k);
        }
        Ok(out)
    }

    fn dst_load_elem(
        &self,
        off: u32,
        fmt: u32,
        no_swizzle: bool,
        unsigned_int: bool,
        thread: usize,
    ) -> Result<u32, String> {
        let st = self.state();
        let cfg = st.dest_access_cfg(thread);
        match fmt {
            0 | 1 => {
                let a = off / 4;
                let mut v = st.dst.read32(a / 16, (a % 16) as usize, cfg);
                if !no_swizzle {
                    v = (v & 0x8000_ffff) | ((v & 0x7f00_0000) >> 8) | ((v & 0x00ff_0000) << 7);
                }
                if fmt == 1 && !no_swizzle && v >= 0x8000_0000 {
                    v = (v & 0x7fff_ffff).wrapping_neg();
                }
                Ok(v)
            }
            2..=4 => {
                let a = off / 2;
                let mut v = st.dst.read16(a / 16, (a % 16) as usize, cfg);
                match fmt {
                    2 if !no_swizzle => {
                        v = (v & 0x8000) | ((v & 0x7fe0) >> 5) | ((v & 0x001f) << 10)
                    }
                    3 if !no_swizzle => {
                        v = (v & 0x8000) | ((v & 0x7f00) >> 8) | ((v & 0x00ff) << 7)
                    }
                    4 if !(no_swizzle || unsigned_int || v < 0x8000) => {
                        v = (v & 0x7fff).wrapping_neg()
                    }
                    _ => {}
                }
                Ok(v as u32)
            }
            _ => {
                let v = st.dst.read16(off / 16, (off % 16) as usize, cfg);
                if no_swizzle || unsigned_int {
                    Ok(((v >> 5) & 0xff) as u32)
                } else {
                    let mag = ((v >> 5) & 0x7f) as u8;
                    Ok(if v & 0x8000 != 0 {
                        mag.wrapping_neg()
                    } else {
                        mag
                    } as u32)
                }
            }
        }
    }

    /// A store to the `Dst` window by TRISC `thread` (Dst.md `Store32`/`Store16`/`Store8`).
    pub fn dst_window_write(
        &mut self,
        thread: usize,
        off: u32,
        width: u32,
        value: u32,
    ) -> Result<(), String> {
        aligned(off, width)?;
        let (fmt, no_swizzle, unsigned_int) = self.dst_access(thread)?;
        let elem = Self::dst_elem(fmt)?;
        if width != elem && (thread != 2 || width < elem) {
            return Err(format!(
                "{width}-byte store to Dst with fmt {fmt} ({elem}-byte elements): undefined behaviour"
            ));
        }
        for k in 0..width / elem {
            let v = if elem == 4 {
                value
            } else {
                (value >> (8 * elem * k)) & ((1 << (8 * elem)) - 1)
            };
            self.dst_store_elem(off + k * elem, v, fmt, no_swizzle, unsigned_int, thread);
        }
        Ok(())
    }

    fn dst_store_elem(
        &mut self,
        off: u32,
        value: u32,
        fmt: u32,
        no_swizzle: bool,
        unsigned_int: bool,
        thread: usize,
    ) {
        let cfg = self.state().dest_access_cfg(thread);
        let st = self.state_mut();
        match fmt {
            0 | 1 => {
                let mut v = value;
                if fmt == 1 && !no_swizzle && v >= 0x8000_0000 {
                    v = 0x8000_0000 | v.wrapping_add((v == 0x8000_0000) as u32).wrapping_neg();
                }
                if !no_swizzle {
                    v = (v & 0x8000_ffff) | ((v & 0x7f80_0000) >> 7) | ((v & 0x007f_0000) << 8);
                }
                let a = off / 4;
                st.dst.write32(a / 16, (a % 16) as usize, v, cfg);
            }
            2..=4 => {
                let mut v = value as u16;
                match fmt {
                    2 if !no_swizzle => {
                        v = (v & 0x8000) | ((v & 0x7c00) >> 10) | ((v & 0x03ff) << 5)
                    }
                    3 if !no_swizzle => {
                        v = (v & 0x8000) | ((v & 0x7f80) >> 7) | ((v & 0x007f) << 8)
                    }
                    4 if !(no_swizzle || unsigned_int || v < 0x8000) => {
                        v = 0x8000 | v.wrapping_add((v == 0x8000) as u16).wrapping_neg()
                    }
                    _ => {}
                }
                let a = off / 2;
                st.dst.write16(a / 16, (a % 16) as usize, v, cfg);
            }
            _ => {
                let b = value as u8;
                let v16 = if no_swizzle || unsigned_int || b < 0x80 {
                    ((b as u16) << 5) | if b != 0 { 16 } else { 0 }
                } else {
                    // Dst.md: "Meant to be conversion from two's complement to
                    // sign-magnitude, but isn't."
                    let mag = (0x180u16 - b as u16 - (b == 0x80) as u16) & 0xff;
                    0x8000 | (mag << 5) | 16
                };
                st.dst.write16(off / 16, (off % 16) as usize, v16, cfg);
            }
        }
    }
}
