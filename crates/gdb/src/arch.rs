//! The register layout gdb sees: RV32 integer registers and pc. The baby cores have no FPU
//! state in bhemu's hart model (crates/rv), so the target description has only the core
//! feature; gdb's `org.gnu.gdb.riscv.cpu` numbering is x0-x31 then pc.
use gdbstub::arch::{Arch, Registers};

pub enum Rv32Baby {}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rv32Regs {
    pub x: [u32; 32],
    pub pc: u32,
}

impl Registers for Rv32Regs {
    type ProgramCounter = u32;
    fn pc(&self) -> u32 {
        self.pc
    }
    fn gdb_serialize(&self, mut write_byte: impl FnMut(Option<u8>)) {
        for v in self.x.iter().chain(std::iter::once(&self.pc)) {
            for b in v.to_le_bytes() {
                write_byte(Some(b));
            }
        }
    }
    fn gdb_deserialize(&mut self, bytes: &[u8]) -> Result<(), ()> {
        if bytes.len() < 33 * 4 {
            return Err(());
        }
        let word = |i: usize| {
            let b = &bytes[i * 4..i * 4 + 4];
            u32::from_le_bytes([b[0], b[1], b[2], b[3]])
        };
        for i in 0..32 {
            self.x[i] = word(i);
        }
        self.pc = word(32);
        Ok(())
    }
}

const ABI_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
];

/// gdb's RISC-V target description for an RV32IM hart: feature `org.gnu.gdb.riscv.cpu`, whose
/// registers gdb matches by name (ABI names; x0-x31 then pc).
pub fn target_xml() -> String {
    let mut s = String::from(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n\
         <target version=\"1.0\">\n<architecture>riscv:rv32</architecture>\n\
         <feature name=\"org.gnu.gdb.riscv.cpu\">\n",
    );
    for (i, n) in ABI_NAMES.iter().enumerate() {
        let ty = match i {
            1 => "code_ptr",
            2 | 8 => "data_ptr",
            _ => "int",
        };
        s.push_str(&format!(
            "<reg name=\"{n}\" bitsize=\"32\" type=\"{ty}\" regnum=\"{i}\"/>\n"
        ));
    }
    s.push_str("<reg name=\"pc\" bitsize=\"32\" type=\"code_ptr\" regnum=\"32\"/>\n</feature>\n</target>\n");
    s
}

static XML: std::sync::OnceLock<String> = std::sync::OnceLock::new();

impl Arch for Rv32Baby {
    type Usize = u32;
    type Registers = Rv32Regs;
    type BreakpointKind = usize;
    type RegId = ();
    fn target_description_xml() -> Option<&'static str> {
        Some(XML.get_or_init(target_xml).as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `g` packet is x0-x31 then pc, each 4 bytes little-endian.
    #[test]
    fn register_packet_is_x0_to_x31_then_pc_little_endian() {
        let mut r = Rv32Regs::default();
        r.x[1] = 0x1122_3344;
        r.pc = 0xA080;
        let mut out = Vec::new();
        r.gdb_serialize(|b| out.push(b.unwrap_or(0)));
        assert_eq!(out.len(), 132);
        assert_eq!(&out[4..8], &[0x44, 0x33, 0x22, 0x11]);
        assert_eq!(&out[128..132], &[0x80, 0xA0, 0, 0]);
        let mut back = Rv32Regs::default();
        assert_eq!(back.gdb_deserialize(&out), Ok(()));
        assert_eq!(back, r);
    }

    #[test]
    fn target_xml_names_rv32_core_registers() {
        let x = target_xml();
        assert!(x.contains("<architecture>riscv:rv32</architecture>"));
        assert!(x.contains("org.gnu.gdb.riscv.cpu"));
        assert_eq!(x.matches("<reg ").count(), 33);
        assert!(x.contains("<reg name=\"a0\" bitsize=\"32\" type=\"int\" regnum=\"10\"/>"));
    }
}
