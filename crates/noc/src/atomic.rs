//! NoC atomic operations (tt-isa-documentation `BlackholeA0/NoC/Atomics.md`).
//!
//! Every atomic acts on the aligned 16-byte line containing `NOC_TARG_ADDR_LO` in the L1 of the
//! receiving Tensix (or Ethernet) tile. Its result is the 32-bit word at `NOC_TARG_ADDR_LO` read
//! *before* the operation, returned to `NOC_RET_ADDR` when the request is non-posted. Opcode is
//! `NOC_AT_LEN_BE` bits 12–15; the operand fields below come from the page's bit diagrams.
use crate::NocError;

/// The Zaamo operations available through the NoC (opcode 0xA with bit 11 set; Op in bits 8–10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmoOp {
    Add,
    Xor,
    Or,
    And,
    Min,
    Max,
    MinU,
    MaxU,
}

/// A decoded atomic request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomicOp {
    /// Opcode 1 (`NOC_AT_INS_INCR_GET`): Ofs bits 0–1, IntWidth bits 2–6; adds `NOC_AT_DATA`
    /// within the low IntWidth+1 bits of the word.
    Increment { ofs: u8, int_width: u8, incr: u32 },
    /// Opcode 4 (`NOC_AT_INS_CAS`): Ofs bits 0–1, CmpVal bits 2–5, SetVal bits 6–9 (4-bit
    /// immediates).
    CompareSwap { ofs: u8, cmp: u8, set: u8 },
    /// Opcode 3 (`NOC_AT_INS_SWAP`): Mask bits 2–9 select 16-bit halves of the line; even halves
    /// get the low half of `NOC_AT_DATA`, odd halves the high half.
    SwapMask { mask: u8, data: u32 },
    /// Opcodes 6 (Ofs bits 0–1, bit 2 set), 7 (Ofs bits 2–3) and 0xA with bits 8–11 = 3 (Ofs bits
    /// 0–1): store `NOC_AT_DATA` to word Ofs.
    SwapIndex { ofs: u8, data: u32 },
    /// Opcode 0xA with bit 11 set: a Zaamo op on word Ofs (bits 0–1).
    Amo { ofs: u8, op: AmoOp, data: u32 },
    /// Opcode 9 (`NOC_AT_INS_ACC`): parallel addition over the whole line, format Fmt (bits 0–3).
    Accumulate { fmt: u8, data: u32 },
}

impl AtomicOp {
    /// Decodes `NOC_AT_LEN_BE` (low 32 bits) and `NOC_AT_DATA`.
    pub fn decode(len_be: u32, data: u32) -> Result<Self, NocError> {
        let ofs01 = (len_be & 3) as u8;
        let bad = || Err(NocError::BadAtomic { len_be });
        match (len_be >> 12) & 0xF {
            0x1 => Ok(AtomicOp::Increment {
                ofs: ofs01,
                int_width: ((len_be >> 2) & 0x1F) as u8,
                incr: data,
            }),
            0x3 => Ok(AtomicOp::SwapMask {
                mask: ((len_be >> 2) & 0xFF) as u8,
                data,
            }),
            0x4 => Ok(AtomicOp::CompareSwap {
                ofs: ofs01,
                cmp: ((len_be >> 2) & 0xF) as u8,
                set: ((len_be >> 6) & 0xF) as u8,
            }),
            0x6 if len_be & 4 != 0 => Ok(AtomicOp::SwapIndex { ofs: ofs01, data }),
            0x7 => Ok(AtomicOp::SwapIndex {
                ofs: ((len_be >> 2) & 3) as u8,
                data,
            }),
            0x9 => {
                let fmt = (len_be & 0xF) as u8;
                match fmt {
                    0 | 1 | 2 | 4 | 7 | 8 | 9 | 10 | 12 | 13 | 15 => {
                        Ok(AtomicOp::Accumulate { fmt, data })
                    }
                    _ => bad(),
                }
            }
            0xA if len_be & 0x800 != 0 => {
                let op = match (len_be >> 8) & 7 {
                    0 => AmoOp::Add,
                    1 => AmoOp::Xor,
                    2 => AmoOp::Or,
                    3 => AmoOp::And,
                    4 => AmoOp::Min,
                    5 => AmoOp::Max,
                    6 => AmoOp::MinU,
                    _ => AmoOp::MaxU,
                };
                Ok(AtomicOp::Amo {
                    ofs: ofs01,
                    op,
                    data,
                })
            }
            0xA if (len_be >> 8) & 0xF == 3 => Ok(AtomicOp::SwapIndex { ofs: ofs01, data }),
            _ => bad(),
        }
    }

    /// Performs the operation on `line` (the 16-byte aligned L1 line holding the target) and
    /// returns the result word: the word at index `targ_word` (`(NOC_TARG_ADDR_LO >> 2) & 3`)
    /// before the operation. Accumulate's result is undefined on hardware; bhemu returns the
    /// same pre-operation word. Errors: accumulate formats whose rounding is undocumented.
    pub fn apply(&self, line: &mut [u8; 16], targ_word: usize) -> Result<u32, NocError> {
        let word = |l: &[u8; 16], i: usize| {
            let i = (i & 3) * 4;
            u32::from_le_bytes([l[i], l[i + 1], l[i + 2], l[i + 3]])
        };
        let set = |l: &mut [u8; 16], i: usize, v: u32| {
            let i = (i & 3) * 4;
            l[i..i + 4].copy_from_slice(&v.to_le_bytes());
        };
        let result = word(line, targ_word);
        match *self {
            AtomicOp::Increment {
                ofs,
                int_width,
                incr,
            } => {
                let i = ofs as usize;
                let orig = word(line, i);
                let mask = (2u64 << int_width).wrapping_sub(1) as u32;
                let inc = orig.wrapping_add(incr);
                set(line, i, (inc & mask) | (orig & !mask));
            }
            AtomicOp::CompareSwap { ofs, cmp, set: sv } => {
                let i = ofs as usize;
                if word(line, i) == cmp as u32 {
                    set(line, i, sv as u32);
                }
            }
            AtomicOp::SwapMask { mask, data } => {
                let halves = [data as u16, (data >> 16) as u16];
                for h in 0..8 {
                    if mask & (1 << h) != 0 {
                        line[2 * h..2 * h + 2].copy_from_slice(&halves[h & 1].to_le_bytes());
                    }
                }
            }
            AtomicOp::SwapIndex { ofs, data } => set(line, ofs as usize, data),
            AtomicOp::Amo { ofs, op, data } => {
                let i = ofs as usize;
                let o = word(line, i);
                let v = match op {
                    AmoOp::Add => o.wrapping_add(data),
                    AmoOp::Xor => o ^ data,
                    AmoOp::Or => o | data,
                    AmoOp::And => o & data,
                    AmoOp::Min => (o as i32).min(data as i32) as u32,
                    AmoOp::Max => (o as i32).max(data as i32) as u32,
                    AmoOp::MinU => o.min(data),
                    AmoOp::MaxU => o.max(data),
                };
                set(line, i, v);
            }
            AtomicOp::Accumulate { fmt, data } => match fmt {
                // 4x u32, wrapping.
                4 | 12 | 13 => {
                    for i in 0..4 {
                        set(line, i, word(line, i).wrapping_add(data));
                    }
                }
                // 16x u8: fmt 7 saturating, fmt 15 wrapping.
                7 | 15 => {
                    let d = data.to_le_bytes();
                    for (i, b) in line.iter_mut().enumerate() {
                        *b = if fmt == 7 {
                            b.saturating_add(d[i & 3])
                        } else {
                            b.wrapping_add(d[i & 3])
                        };
                    }
                }
                // 4x fp32 with denormals flushed on input and output.
                0 | 8 => {
                    let ftz = |v: f32| {
                        if v.is_subnormal() {
                            0.0f32.copysign(v)
                        } else {
                            v
                        }
                    };
                    let d = ftz(f32::from_bits(data));
                    for i in 0..4 {
                        let v = ftz(ftz(f32::from_bits(word(line, i))) + d);
                        set(line, i, v.to_bits());
                    }
                }
                _ => {
                    return Err(NocError::Unsupported {
                        what: "NoC atomic accumulate in fp16/bf16 (rounding undocumented)",
                    })
                }
            },
        }
        Ok(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regs::atomic::*;

    fn line(words: [u32; 4]) -> [u8; 16] {
        let mut l = [0u8; 16];
        for (i, w) in words.iter().enumerate() {
            l[i * 4..i * 4 + 4].copy_from_slice(&w.to_le_bytes());
        }
        l
    }
    fn words(l: &[u8; 16]) -> [u32; 4] {
        let mut w = [0u32; 4];
        for (i, x) in w.iter_mut().enumerate() {
            *x = u32::from_le_bytes(l[i * 4..i * 4 + 4].try_into().unwrap());
        }
        w
    }

    /// Atomics.md "Atomic increment": the firmware's encoding (noc_fast_atomic_increment).
    #[test]
    fn increment_full_width_returns_original() {
        let len_be = noc_at_ins(NOC_AT_INS_INCR_GET) | noc_at_wrap(31) | noc_at_ind_32(2);
        let op = AtomicOp::decode(len_be, 5).unwrap();
        let mut l = line([1, 2, 0xFFFF_FFFE, 4]);
        assert_eq!(op.apply(&mut l, 2).unwrap(), 0xFFFF_FFFE);
        assert_eq!(words(&l), [1, 2, 3, 4]);
    }

    /// Atomics.md: IntWidth < 31 increments only the low IntWidth+1 bits.
    #[test]
    fn increment_narrow_width_wraps_within_field() {
        let op = AtomicOp::decode(noc_at_ins(1) | noc_at_wrap(7), 1).unwrap();
        let mut l = line([0xABCD_12FF, 0, 0, 0]);
        op.apply(&mut l, 0).unwrap();
        assert_eq!(words(&l)[0], 0xABCD_1200);
    }

    /// Atomics.md "Atomic compare and swap": 4-bit compare and set values.
    #[test]
    fn compare_and_swap() {
        let op = AtomicOp::decode(noc_at_ins(NOC_AT_INS_CAS) | 1 | (3 << 2) | (9 << 6), 0).unwrap();
        let mut l = line([0, 3, 0, 0]);
        assert_eq!(op.apply(&mut l, 1).unwrap(), 3);
        assert_eq!(words(&l)[1], 9);
        assert_eq!(op.apply(&mut l, 1).unwrap(), 9);
        assert_eq!(words(&l)[1], 9);
    }

    /// Atomics.md "Atomic swap, mask variant".
    #[test]
    fn swap_mask_writes_selected_halves() {
        let op = AtomicOp::decode(
            noc_at_ins(NOC_AT_INS_SWAP) | (0b1000_0001 << 2),
            0xBBBB_AAAA,
        )
        .unwrap();
        let mut l = line([0x1111_1111; 4]);
        op.apply(&mut l, 0).unwrap();
        assert_eq!(
            words(&l),
            [0x1111_AAAA, 0x1111_1111, 0x1111_1111, 0xBBBB_1111]
        );
    }

    /// Atomics.md "Atomic swap, index variant" (three encodings).
    #[test]
    fn swap_index_variants() {
        for (len_be, ofs) in [
            (noc_at_ins(6) | 4 | 3, 3usize),
            (noc_at_ins(7) | (2 << 2), 2),
            (noc_at_ins(0xA) | (3 << 8) | 1, 1),
        ] {
            let op = AtomicOp::decode(len_be, 0x77).unwrap();
            let mut l = line([9, 9, 9, 9]);
            assert_eq!(op.apply(&mut l, ofs).unwrap(), 9);
            assert_eq!(words(&l)[ofs], 0x77);
        }
    }

    /// Atomics.md "Zaamo operations".
    #[test]
    fn zaamo_ops() {
        let cases = [
            (0u32, 10u32, 3u32, 13u32),
            (1, 0b1100, 0b1010, 0b0110),
            (2, 0b1100, 0b1010, 0b1110),
            (3, 0b1100, 0b1010, 0b1000),
            (4, (-5i32) as u32, 3, (-5i32) as u32),
            (5, (-5i32) as u32, 3, 3),
            (6, (-5i32) as u32, 3, 3),
            (7, (-5i32) as u32, 3, (-5i32) as u32),
        ];
        for (op, orig, data, want) in cases {
            let a = AtomicOp::decode(noc_at_ins(0xA) | 0x800 | (op << 8), data).unwrap();
            let mut l = line([orig, 0, 0, 0]);
            assert_eq!(a.apply(&mut l, 0).unwrap(), orig);
            assert_eq!(words(&l)[0], want, "op {op}");
        }
    }

    /// Atomics.md "Parallel addition": integer and fp32 formats.
    #[test]
    fn accumulate_formats() {
        let a = AtomicOp::decode(noc_at_ins(9) | 4, 2).unwrap();
        let mut l = line([1, 2, 3, u32::MAX]);
        a.apply(&mut l, 0).unwrap();
        assert_eq!(words(&l), [3, 4, 5, 1]);
        let a = AtomicOp::decode(noc_at_ins(9) | 7, 0x0000_00FF).unwrap();
        let mut l = line([0x0102_0304; 4]);
        a.apply(&mut l, 0).unwrap();
        assert_eq!(words(&l)[0], 0x0102_03FF);
        let a = AtomicOp::decode(noc_at_ins(9), 1.5f32.to_bits()).unwrap();
        let mut l = line([1.0f32.to_bits(); 4]);
        a.apply(&mut l, 0).unwrap();
        assert_eq!(f32::from_bits(words(&l)[3]), 2.5);
        let a = AtomicOp::decode(noc_at_ins(9) | 2, 0).unwrap();
        assert!(matches!(
            a.apply(&mut l, 0),
            Err(NocError::Unsupported { .. })
        ));
    }

    #[test]
    fn undefined_encodings_are_errors() {
        for len_be in [
            0u32,
            noc_at_ins(2),
            noc_at_ins(5),
            noc_at_ins(6),
            noc_at_ins(9) | 3,
        ] {
            assert_eq!(
                AtomicOp::decode(len_be, 0),
                Err(NocError::BadAtomic { len_be })
            );
        }
    }
}
