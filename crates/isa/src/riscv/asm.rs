//! The few pseudo-instructions hand-assembled test programs and bhemu's own workloads are
//! written in (`li`, `sw`/`lw` at offset 0, `j .`), built from [`Insn`] so that they go through
//! the one encoder ([`super::encode`]) the disassembler is checked against.
use super::{encode, ImmOp, Insn, LoadOp, StoreOp};

/// `li rd, v` as `lui rd, hi; addi rd, rd, lo`: any 32-bit value.
pub fn li(rd: u8, v: u32) -> Vec<Insn> {
    let lo = ((v as i32) << 20) >> 20;
    vec![
        Insn::Lui {
            rd,
            imm: v.wrapping_sub(lo as u32),
        },
        addi(rd, rd, lo),
    ]
}

/// `addi rd, rs1, imm`.
pub fn addi(rd: u8, rs1: u8, imm: i32) -> Insn {
    Insn::OpImm {
        op: ImmOp::Addi,
        rd,
        rs1,
        imm,
    }
}

/// `sw rs2, 0(rs1)`.
pub fn sw(rs2: u8, rs1: u8) -> Insn {
    Insn::Store {
        op: StoreOp::Sw,
        rs1,
        rs2,
        offset: 0,
    }
}

/// `lw rd, 0(rs1)`.
pub fn lw(rd: u8, rs1: u8) -> Insn {
    Insn::Load {
        op: LoadOp::Lw,
        rd,
        rs1,
        offset: 0,
    }
}

/// `j .`: spin.
pub fn spin() -> Insn {
    Insn::Jal { rd: 0, offset: 0 }
}

/// The program's bytes, little-endian.
pub fn bytes(p: &[Insn]) -> Vec<u8> {
    p.iter().flat_map(|i| encode(i).to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::riscv::decode;

    #[test]
    fn li_builds_any_value_from_lui_and_addi() {
        for v in [
            0u32,
            1,
            0x7FF,
            0x800,
            0xFFF,
            0x1234_5800,
            0xFFB2_0148,
            u32::MAX,
        ] {
            let p = li(5, v);
            // lui puts its immediate as is; addi's sign-extended 12 bits complete it.
            let (Insn::Lui { imm: hi, .. }, Insn::OpImm { imm: lo, .. }) = (p[0], p[1]) else {
                panic!("{p:?}");
            };
            assert_eq!(hi.wrapping_add(lo as u32), v, "{v:#x}");
            assert_eq!(hi & 0xFFF, 0);
            assert!((-2048..2048).contains(&lo));
        }
        let b = bytes(&[sw(6, 7), lw(5, 7), spin()]);
        let words: Vec<Insn> = b
            .chunks(4)
            .map(|w| decode(u32::from_le_bytes([w[0], w[1], w[2], w[3]])))
            .collect();
        assert_eq!(words, vec![sw(6, 7), lw(5, 7), spin()]);
    }
}
