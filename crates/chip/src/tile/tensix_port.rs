//! What the coprocessor's units reach of their tile: L1 for the unpackers, packers and ThCon's
//! L1 instructions, and the MMIO registers `STOREREG` / `LOADREG` address
//! (tt-isa-documentation WormholeB0/TensixTile/TensixCoprocessor/{STOREREG,LOADREG}.md:
//! `0xFFB1_1000..0xFFC0_0000`). Of that window bhemu models the TDMA-RISC registers and the
//! NoC overlay stream registers, where tt-llk keeps the circular-buffer counters; any other
//! register there is an error naming its address, never a silent drop.
use super::l1::L1;
use super::memory_map::{DEBUG_REGS_BASE, MOP_CFG_BASE, OVERLAY_BASE, TDMA_BASE};
use super::misc_regs::RegFile;
use super::overlay::Overlay;

/// The tile's parts the coprocessor borrows for one step.
pub(crate) struct TensixPort<'a> {
    pub l1: &'a mut L1,
    pub overlay: &'a mut Overlay,
    pub tdma: &'a mut RegFile,
}

impl bhemu_tensix::TensixMemory for TensixPort<'_> {
    fn read(&mut self, addr: u32, buf: &mut [u8]) -> Result<(), String> {
        bhemu_tensix::TensixMemory::read(self.l1, addr, buf)
    }

    fn holds(&self, addr: u32, len: usize) -> bool {
        self.l1.contains(u64::from(addr), len)
    }

    fn write(&mut self, addr: u32, data: &[u8]) -> Result<(), String> {
        bhemu_tensix::TensixMemory::write(self.l1, addr, data)
    }

    fn write_reg(&mut self, addr: u32, value: u32) -> Result<(), String> {
        match addr {
            a if (TDMA_BASE..DEBUG_REGS_BASE).contains(&a) => {
                if self.tdma.write(a - TDMA_BASE, 4, value) {
                    Ok(())
                } else {
                    Err(format!("TDMA-RISC register {a:#x} does not exist"))
                }
            }
            a if (OVERLAY_BASE..MOP_CFG_BASE).contains(&a) => self.overlay.write(a - OVERLAY_BASE, value),
            a => Err(format!(
                "register write at {a:#x}: only the TDMA-RISC and NoC overlay registers are modelled for STOREREG"
            )),
        }
    }

    fn read_reg(&mut self, addr: u32) -> Result<u32, String> {
        match addr {
            a if (TDMA_BASE..DEBUG_REGS_BASE).contains(&a) => self
                .tdma
                .read(a - TDMA_BASE, 4)
                .ok_or_else(|| format!("TDMA-RISC register {a:#x} does not exist")),
            a if (OVERLAY_BASE..MOP_CFG_BASE).contains(&a) => self.overlay.read(a - OVERLAY_BASE),
            a => Err(format!(
                "register read at {a:#x}: only the TDMA-RISC and NoC overlay registers are modelled for LOADREG"
            )),
        }
    }
}
