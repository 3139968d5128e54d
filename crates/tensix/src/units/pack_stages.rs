//! The packer's per-datum stages before the late conversion: the early conversion of a datum
//! read from `Dst` to the intermediate format, then ReLU on the intermediate value. The bit
//! rules are in `crate::formats::pack_conv`; which rule applies to which (Dst width,
//! intermediate format) pair, and the ReLU modes, are restated in `docs/tensix-datapath.md`
//! ("Packer conversions", "Packer ReLU").
use crate::formats::pack_conv::{
    early_bf16, early_bf16_to_fp16, early_fp16_to_bfp8a, early_fp32_to_bf16, early_fp32_to_bfp8,
    early_fp32_to_wide_fp16, early_int32_to_int8, wide_fp16_to_fp16,
};
use crate::formats::{fp32_to_tf32_round, read_dst_bf16, read_dst_fp16, read_dst_fp32, DataFormat};

/// A datum between the early and late conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Mid {
    /// IEEE FP32 bits (also INT32 sign-magnitude).
    B32(u32),
    /// IEEE BF16 / INT16 bits.
    B16(u16),
    /// IEEE FP16 bits (an FP16 or BFP8a intermediate).
    F16(u16),
    /// Blackhole's FP16 intermediate from a 32-bit `Dst` read: 19 bits, FP32's exponent with
    /// FP16's mantissa ([`early_fp32_to_wide_fp16`]); narrowed to FP16 after ReLU.
    WideF16(u32),
    /// An INT8 datum (sign-magnitude, or unsigned).
    B8(u8),
}

impl Mid {
    /// After ReLU: the wide FP16 value narrowed to FP16; the others unchanged.
    #[inline(always)] // per datum
    pub(super) fn narrowed(self) -> Mid {
        match self {
            Mid::WideF16(v) => Mid::F16(wide_fp16_to_fp16(v)),
            m => m,
        }
    }
}

/// What the early conversion reads from the packer's configuration.
#[derive(Clone, Copy, Debug)]
pub(super) struct EarlyCfg {
    /// `PCK_DEST_RD_CTRL_Read_32b_data`: read `Dst32b`, else `Dst16b`.
    pub read32: bool,
    /// `PCK_DEST_RD_CTRL_Round_10b_mant`.
    pub round10: bool,
    /// `PCK_DEST_RD_CTRL_Read_int8` (raw read, no rounding).
    pub read_raw: bool,
    /// `PCK_DEST_RD_CTRL_Read_unsigned`.
    pub unsigned: bool,
    /// `IntermediateFormat`.
    pub inter: DataFormat,
}

/// The early conversion of one datum read from `Dst` (`raw` is `Dst16b` in the low 16 bits
/// or `Dst32b` as stored). `Err` names a pair that is not modelled.
#[inline(always)] // per datum
pub(super) fn early(c: EarlyCfg, raw: u32) -> Result<Mid, String> {
    use DataFormat::*;
    if c.read32 {
        if c.inter == Int16 {
            // The upper half of the stored 32-bit datum, undecoded.
            return Ok(Mid::B16((raw >> 16) as u16));
        }
        let x = read_dst_fp32(raw);
        return Ok(match c.inter {
            // INT32 shares FP32's arrangement in Dst32b (Dst.md: Dst32 INT32 diagram, and
            // RISCV `Load32`'s one conversion for both), undone before the identity.
            Int32 => Mid::B32(x),
            Fp32 if !c.round10 || c.read_raw => Mid::B32(x),
            Tf32 if c.read_raw => Mid::B32(x),
            Fp32 | Tf32 => Mid::B32(fp32_to_tf32_round(x)),
            Bf16 | Bfp8 if c.read_raw => Mid::B16((x >> 16) as u16),
            Bf16 => Mid::B16(early_fp32_to_bf16(x)),
            Bfp8 => Mid::B16(early_fp32_to_bfp8(x)),
            Fp16 => Mid::WideF16(early_fp32_to_wide_fp16(x)),
            Int8 => Mid::B8(early_int32_to_int8(x, c.unsigned)),
            o => return Err(format!("early conversion FP32 to {} is", o.name())),
        });
    }
    let v = raw as u16;
    Ok(match c.inter {
        Fp16 if c.round10 => Mid::F16(early_bf16_to_fp16(read_dst_bf16(v))),
        Bf16 | Bfp8 if c.read_raw => Mid::B16(read_dst_bf16(v)),
        Bf16 => {
            // "Rounding or identity": BF16 to BF16 rounding flushes denormals and turns NaN
            // into infinity.
            Mid::B16(early_bf16(read_dst_bf16(v), false))
        }
        Bfp8 => Mid::B16(early_bf16(read_dst_bf16(v), true)),
        Fp16 if c.read_raw => Mid::F16(read_dst_fp16(v)),
        Fp16 => {
            let h = read_dst_fp16(v);
            Mid::F16(if h & 0x7c00 == 0 { 0 } else { h })
        }
        Bfp8a => Mid::F16(early_fp16_to_bfp8a(read_dst_fp16(v))),
        Int16 => Mid::B16(v),
        o => {
            return Err(format!(
                "early conversion of 16-bit Dst data to {} is",
                o.name()
            ))
        }
    })
}

/// What a datum the edge masks drop enters the late conversion as: zero bits, unconverted, of
/// the intermediate format's width (the width [`early`] gives that intermediate), not of the
/// `Dst` read's: an INT16 intermediate read from 32-bit `Dst` is a 16-bit zero, an FP16 one an
/// FP16 zero. Established with the reference simulator (docs/datapath-reference.md, "Rules
/// fixed").
#[inline(always)] // per masked datum
pub(super) fn masked_zero(c: EarlyCfg) -> Mid {
    use DataFormat::*;
    match c.inter {
        Fp32 | Tf32 | Int32 => Mid::B32(0),
        Fp16 | Bfp8a => Mid::F16(0),
        Int8 => Mid::B8(0),
        _ => Mid::B16(0),
    }
}

/// ReLU (`STACC_RELU_ApplyRelu`): 1 zeroes negative values; 2 also zeroes values not above the
/// threshold; 3 zeroes negative values and clamps values above the threshold to it. The
/// threshold (`STACC_RELU_ReluThreshold`) is a 16-bit value in the intermediate format's own
/// encoding (BF16 or FP16 bits; for an FP32 intermediate the upper half of FP32), compared as
/// an unsigned bit pattern once the sign is gone. `Err` names what is not modelled.
pub(super) fn relu(mode: u32, threshold: u32, inter: DataFormat, m: Mid) -> Result<Mid, String> {
    use DataFormat::*;
    if mode == 0 {
        return Ok(m);
    }
    if mode > 3 {
        return Err(format!("ReLU mode {mode} is"));
    }
    let clamp = |v: u32, sign: u32, thr: u32| -> u32 {
        if v & sign != 0 || (mode == 2 && v <= thr) {
            0
        } else if mode == 3 && v > thr {
            thr
        } else {
            v
        }
    };
    Ok(match (inter, m) {
        // The wide FP16 value: sign at bit 18, 3 more exponent bits than FP16's threshold.
        (Fp16, Mid::WideF16(v)) => Mid::WideF16(clamp(v, 1 << 18, threshold << 3)),
        (Fp16 | Bfp8a, Mid::F16(h)) => Mid::F16(clamp(u32::from(h), 0x8000, threshold) as u16),
        (Bf16 | Bfp8, Mid::B16(h)) => Mid::B16(clamp(u32::from(h), 0x8000, threshold) as u16),
        (Int32, Mid::B32(x)) if mode == 1 => Mid::B32(if x & 0x8000_0000 != 0 { 0 } else { x }),
        (Fp32, Mid::B32(x)) => {
            let thr = threshold << 16;
            let v = if x & 0x8000_0000 != 0 || (mode == 2 && x <= thr) {
                0
            } else if mode == 3 && (x >> 13) > (thr >> 13) {
                thr
            } else {
                x
            };
            Mid::B32(v)
        }
        (i, _) => {
            return Err(format!(
                "ReLU mode {mode} on a {} intermediate is",
                i.name()
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relu_zero_mode_clears_negative_values_only() {
        let bf = DataFormat::Bf16;
        assert_eq!(relu(1, 0, bf, Mid::B16(0xbf80)), Ok(Mid::B16(0)));
        assert_eq!(relu(1, 0, bf, Mid::B16(0x3f80)), Ok(Mid::B16(0x3f80)));
        assert_eq!(relu(0, 0, bf, Mid::B16(0xbf80)), Ok(Mid::B16(0xbf80)));
    }

    #[test]
    fn relu_min_threshold_zeroes_values_not_above_it() {
        let bf = DataFormat::Bf16;
        // Threshold 1.0 in BF16.
        assert_eq!(relu(2, 0x3f80, bf, Mid::B16(0x3f80)), Ok(Mid::B16(0)));
        assert_eq!(relu(2, 0x3f80, bf, Mid::B16(0x3f81)), Ok(Mid::B16(0x3f81)));
    }

    #[test]
    fn relu_max_threshold_clamps_values_above_it() {
        let f16 = DataFormat::Fp16;
        // Threshold 1.0 in FP16.
        assert_eq!(relu(3, 0x3c00, f16, Mid::F16(0x4000)), Ok(Mid::F16(0x3c00)));
        assert_eq!(relu(3, 0x3c00, f16, Mid::F16(0x3800)), Ok(Mid::F16(0x3800)));
        assert_eq!(relu(3, 0x3c00, f16, Mid::F16(0xb800)), Ok(Mid::F16(0)));
    }

    #[test]
    fn relu_on_the_wide_fp16_value_scales_the_threshold() {
        let f16 = DataFormat::Fp16;
        // 2.0 as the wide value has exponent field 128. The FP16 threshold's bits are shifted
        // left by 3 and compared with the wide value's bits as they are.
        let two = 128u32 << 10;
        let m = relu(3, 0x3c00, f16, Mid::WideF16(two)).unwrap();
        assert_eq!(m, Mid::WideF16(0x3c00 << 3));
        assert_eq!(
            relu(1, 0, f16, Mid::WideF16((1 << 18) | two)),
            Ok(Mid::WideF16(0))
        );
    }

    #[test]
    fn relu_on_fp32_compares_the_upper_bits() {
        let fp = DataFormat::Fp32;
        // Threshold BF16 1.0 -> 0x3f800000; 0x3f800fff is not above it at 19 bits.
        assert_eq!(
            relu(3, 0x3f80, fp, Mid::B32(0x3f80_0fff)),
            Ok(Mid::B32(0x3f80_0fff))
        );
        assert_eq!(
            relu(3, 0x3f80, fp, Mid::B32(0x3f80_2000)),
            Ok(Mid::B32(0x3f80_0000))
        );
        assert_eq!(relu(2, 0x3f80, fp, Mid::B32(0x3f80_0000)), Ok(Mid::B32(0)));
    }
}
