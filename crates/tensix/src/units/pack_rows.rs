//! The packer's row path: a PACR whose datums all take the same plain road — no edge mask
//! drops any, no ReLU, no L1 accumulation, an output of whole bytes that is not BFP — is
//! converted datum by datum with the very stage functions of the general path
//! ([`early`], [`late_value`]) but written straight into the data stream's gathered bytes, once
//! L1 is known to hold the whole run (one check instead of one per datum).
//!
//! Why: the per-datum road — edge-mask lookup, the late conversion's dispatch, the gather's
//! checks for each datum — was the largest share of a streamed packer's host time (callgrind,
//! the add stream: ≈ 290 host instructions per datum packed). Whether the plain road applies
//! depends on the configuration alone: the early conversion and the late conversion's pair are
//! chosen by formats, never by a datum's value, so one trial conversion of a zero tells. When
//! anything is off the road, [`pack`] changes nothing and says so, and the general path packs.
//! `packer_row_path_gives_what_the_datum_path_gives` proves both give the same L1 and state.
use super::pack::{late_value, EdgeMasks, LateCfg};
use super::pack_stages::{early, EarlyCfg};
use super::Ctx;
use crate::state::DestAccessCfg;

/// One PACR's datums: interface `k` (of `interfaces`) reads `num` datums from `Dst` index
/// `src + intf_stride * k` on, and the interfaces' runs follow one another in the stream.
#[derive(Clone, Copy)]
pub(super) struct Run<'a> {
    pub src: u32,
    pub num: u32,
    pub intf_stride: u32,
    pub interfaces: &'a [u32],
    pub zero_write: bool,
    /// `STACC_RELU_ApplyRelu`: any mode but 0 is off the plain road.
    pub relu_mode: u32,
    pub early: EarlyCfg,
    pub late: LateCfg,
    pub dcfg: DestAccessCfg,
}

impl Run<'_> {
    /// The `Dst` index of each datum, in stream order (both paths read them so).
    pub(super) fn indices(&self) -> impl Iterator<Item = u32> + '_ {
        self.interfaces
            .iter()
            .flat_map(move |&k| (0..self.num).map(move |i| self.src + self.intf_stride * k + i))
    }
}

/// Packs `run` on the plain road into the data stream's gathered bytes (see the module
/// documentation). `false`, having changed nothing, when the road does not apply: the
/// caller's general path then packs the same datums.
pub(super) fn pack(ctx: &mut Ctx, edges: &EdgeMasks, run: &Run) -> bool {
    if run.relu_mode != 0 || run.late.l1_acc || run.late.bfp.is_some() || !edges.keep_all() {
        return false;
    }
    let Some(width) = early(run.early, 0)
        .ok()
        .and_then(|m| late_value(run.late, m.narrowed()))
        .map(|(_, bits)| bits / 8)
    else {
        return false;
    };
    let count = run.interfaces.len() as u32 * run.num;
    let st = &ctx.state.packers[0];
    let Some(addr) = st.data_addr else {
        return false;
    };
    let len = count * width;
    let continues = st.pending.is_empty() || st.pending_at + st.pending.len() as u32 == addr;
    if count == 0
        || st.partial != (0, 0)
        || !continues
        || addr.checked_add(len).is_none()
        || !ctx.mem.holds(addr, len as usize)
    {
        return false;
    }
    let mut bytes = std::mem::take(&mut ctx.state.packers[0].pending);
    let old = bytes.len();
    bytes.resize(old + len as usize, 0);
    let out = bytes.get_mut(old..).unwrap_or(&mut []);
    let done = crate::matrix::lanes::in_lanes(
        #[inline(always)]
        || convert_as(ctx, run, width, out),
    );
    let st = &mut ctx.state.packers[0];
    if !done {
        bytes.truncate(old);
        st.pending = bytes;
        return false;
    }
    st.held_to = if old == 0 {
        addr + len
    } else {
        st.held_to.max(addr + len)
    };
    if old == 0 {
        st.pending_at = addr;
    }
    st.pending = bytes;
    st.data_addr = Some(addr + len);
    edges.step(&mut st.edge_pos, count);
    true
}

/// [`convert`] with the configuration's formats as constants for the pairs streams use most
/// (16-bit `Dst` to BF16 or FP16; 32-bit `Dst` to FP32 or BF16), so that the compiler folds
/// the stage functions' choice of conversion out of the datum loop; any other pair runs the
/// same functions choosing per datum.
#[inline(always)]
fn convert_as(ctx: &Ctx, run: &Run, width: u32, out: &mut [u8]) -> bool {
    use crate::formats::DataFormat::{Bf16, Fp16, Fp32};
    let (e, l) = (run.early, run.late);
    let with = |read32, inter, out_fmt| Run {
        early: EarlyCfg { read32, inter, ..e },
        late: LateCfg { out_fmt, ..l },
        ..*run
    };
    match (e.read32, e.inter, l.out_fmt, width) {
        (false, Bf16, Bf16, 2) => convert::<2>(ctx, &with(false, Bf16, Bf16), out),
        (false, Fp16, Fp16, 2) => convert::<2>(ctx, &with(false, Fp16, Fp16), out),
        (true, Fp32, Fp32, 4) => convert::<4>(ctx, &with(true, Fp32, Fp32), out),
        (true, Fp32, Bf16, 2) => convert::<2>(ctx, &with(true, Fp32, Bf16), out),
        (true, Bf16, Bf16, 2) => convert::<2>(ctx, &with(true, Bf16, Bf16), out),
        (_, _, _, 1) => convert::<1>(ctx, run, out),
        (_, _, _, 2) => convert::<2>(ctx, run, out),
        (_, _, _, 4) => convert::<4>(ctx, run, out),
        _ => false,
    }
}

/// Every datum of `run`, read from `Dst`, converted early then late, as `W` little-endian
/// bytes each into `out`. `false` if any datum left the plain road (not expected: the road is
/// the configuration's), `out` then to be dropped.
///
/// The datums of one interface are consecutive `Dst` indices: they are walked a row (16
/// columns) at a time, so that each row's place in `DstBits` is worked out once, not per datum,
/// and all sixteen words of the row are converted side by side, with no exit between them, so
/// that the loop compiles to vector code (the road is the configuration's, so a word outside
/// the run converts exactly as one inside; only the run's are written). Converted one datum at
/// a time into the next output chunk, the add stream's packs cost ≈ 16 host instructions a datum
/// here (callgrind).
#[inline(always)]
fn convert<const W: usize>(ctx: &Ctx, run: &Run, out: &mut [u8]) -> bool {
    let dst = &ctx.state.dst;
    let mut at = 0usize;
    for &k in run.interfaces {
        let mut idx = run.src.wrapping_add(run.intf_stride.wrapping_mul(k));
        let mut left = run.num;
        while left > 0 {
            let i = idx & 0x3fff;
            let (row, col) = (i >> 4, (i & 15) as usize);
            let n = left.min(16 - col as u32) as usize;
            let words = if run.zero_write {
                [0u32; 16]
            } else if run.early.read32 {
                dst.read32_row(row, run.dcfg)
            } else {
                dst.read16_row(row, run.dcfg).map(u32::from)
            };
            let mut values = [0u32; 16];
            let mut off_road = false;
            for (v, &raw) in values.iter_mut().zip(&words) {
                match early(run.early, raw)
                    .ok()
                    .and_then(|m| late_value(run.late, m.narrowed()))
                {
                    Some((value, _)) => *v = value,
                    None => off_road = true,
                }
            }
            let Some(bytes) = out.get_mut(at..at + n * W) else {
                return false;
            };
            if off_road {
                return false;
            }
            for (c, v) in bytes.chunks_exact_mut(W).zip(&values[col..col + n]) {
                c.copy_from_slice(&v.to_le_bytes()[..W]);
            }
            at += n * W;
            idx = idx.wrapping_add(n as u32);
            left -= n as u32;
        }
    }
    true
}
