//! The Vector Unit (SFPU) against Tenstorrent's reference simulator, cell by cell: every SFP*
//! instruction with every value of its mode field (and, where the reference reads it, the
//! configuration that decides the mode: SFPLOAD/SFPSTORE's SrcB format, SFPSWAP's LaneConfig),
//! on random register files drawn over the whole encoding space (exponents 0 and 255,
//! denormals, NaN and infinity patterns, signed zeros, zero and all-ones mantissas, near-equal
//! exponents and near-cancelling multiply-adds, random lane predication and flag stacks).
//! The reference's own Tensix model executes each word through
//! `scripts/reference-tensix.sh`'s generator; this test loads the state before into bhemu's
//! unit, executes the same word and compares the whole state after — every LReg of every lane,
//! LaneFlags, the flag stack, LaneConfig, the PRNG, SFPLOADMACRO's configuration and the Dst
//! rows — bit for bit (docs/sfpu-reference.md). Cells the reference refuses are listed, not
//! compared. Without the generator the test says so and passes.
//!
//! `BHEMU_SFPU_LANES` (lane results per cell, default 100000), `BHEMU_SFPU_SEED` (default 1),
//! `BHEMU_SFPU_FILTER` (only cells whose "INSN MODE" contains it), `BHEMU_SFPU_GEN` (the
//! generator's path), `BHEMU_SFPU_TABLE=1` (print the table of cells).
mod reference_common;
use reference_common::{conclude, env_or, generator, start, Outcome, Words};
use std::io::Read;

use bhemu_tensix::sfpu::{
    FlagEntry, LoadMacroConfig, SfpuContext, SfpuState, SrcbFormat, VectorUnit,
};
use bhemu_tensix::state::{DestAccessCfg, Dst};

/// The state the generator exchanges (its header comment gives the layout). `stack` entries
/// at and above `sp` are not architectural and are cleared before comparing.
#[derive(Clone, PartialEq, Eq)]
struct State {
    l: [[u32; 32]; 16],
    cc_en: u32,
    cc: u32,
    sp: u32,
    en_stack: [u32; 8],
    stack: [u32; 8],
    lane_config: u32,
    prng: [u32; 32],
    tmpl: [u32; 4],
    seq: [u32; 4],
    misc: u32,
    dst: Option<Box<[[u16; 16]; 32]>>,
}

impl State {
    fn read<R: Read>(w: &mut Words<R>, with_dst: bool) -> State {
        let mut flat = vec![0u32; 16 * 32];
        w.fill(&mut flat);
        let mut l = [[0u32; 32]; 16];
        for (r, row) in l.iter_mut().enumerate() {
            row.copy_from_slice(&flat[r * 32..r * 32 + 32]);
        }
        let (cc_en, cc, sp) = (w.next(), w.next(), w.next());
        let mut en_stack = [0u32; 8];
        w.fill(&mut en_stack);
        let mut stack = [0u32; 8];
        w.fill(&mut stack);
        let lane_config = w.next();
        let mut prng = [0u32; 32];
        w.fill(&mut prng);
        let mut tmpl = [0u32; 4];
        w.fill(&mut tmpl);
        let mut seq = [0u32; 4];
        w.fill(&mut seq);
        let misc = w.next();
        let dst = with_dst.then(|| {
            let mut d = Box::new([[0u16; 16]; 32]);
            let mut flat = vec![0u32; 32 * 8];
            w.fill(&mut flat);
            for (row, words) in d.iter_mut().zip(flat.chunks_exact(8)) {
                for (k, v) in words.iter().enumerate() {
                    row[2 * k] = *v as u16;
                    row[2 * k + 1] = (*v >> 16) as u16;
                }
            }
            d
        });
        State {
            l,
            cc_en,
            cc,
            sp,
            en_stack,
            stack,
            lane_config,
            prng,
            tmpl,
            seq,
            misc,
            dst,
        }
    }

    /// bhemu's unit and `Dst` in this state. The reference keeps one predication enable and one
    /// LaneConfig for all lanes and one SFPLOADMACRO configuration; bhemu keeps them per lane,
    /// so every lane gets the same.
    fn load(&self, vu: &mut VectorUnit, dst: &mut Dst) {
        let mut st = SfpuState::new();
        st.lreg[..16].copy_from_slice(&self.l);
        st.lreg[16] = [0; 32];
        st.lane_flags = self.cc;
        st.use_lane_flags = if self.cc_en != 0 { u32::MAX } else { 0 };
        for lane in 0..32 {
            st.flag_depth[lane] = self.sp as u8;
            for i in 0..8 {
                st.flag_stack[lane][i] = FlagEntry {
                    lane_flags: (self.stack[i] >> lane) & 1 != 0,
                    use_lane_flags: self.en_stack[i] != 0,
                };
            }
            st.lane_config[lane] = self.lane_config;
            st.prng[lane] = self.prng[lane];
            st.load_macro[lane] = LoadMacroConfig {
                template: self.tmpl,
                sequence: self.seq,
                misc: self.misc,
            };
        }
        vu.state = st;
        if let Some(d) = &self.dst {
            dst.bits_mut()[..32].copy_from_slice(&d[..]);
        }
    }

    /// bhemu's unit as this state; per-lane copies that differ between lanes are reported in
    /// `odd` (the reference has one value for all lanes).
    fn from_unit(vu: &VectorUnit, dst: &Dst, with_dst: bool, odd: &mut Vec<String>) -> State {
        let st = &vu.state;
        let mut l = [[0u32; 32]; 16];
        l.copy_from_slice(&st.lreg[..16]);
        let cc_en = match st.use_lane_flags {
            0 => 0,
            u32::MAX => 1,
            m => {
                odd.push(format!(
                    "UseLaneFlagsForLaneEnable differs between lanes: {m:#010x}"
                ));
                1
            }
        };
        let sp = st.flag_depth[0] as u32;
        if st.flag_depth.iter().any(|&d| d as u32 != sp) {
            odd.push(format!(
                "flag stack depths differ between lanes: {:?}",
                st.flag_depth
            ));
        }
        let (mut en_stack, mut stack) = ([0u32; 8], [0u32; 8]);
        for i in 0..(sp as usize).min(8) {
            let en = st.flag_stack[0][i].use_lane_flags;
            en_stack[i] = en as u32;
            for lane in 0..32 {
                let e = st.flag_stack[lane][i];
                if e.use_lane_flags != en {
                    odd.push(format!(
                        "flag stack entry {i}: UseLaneFlags differs between lanes"
                    ));
                }
                stack[i] |= (e.lane_flags as u32) << lane;
            }
        }
        let lane_config = st.lane_config[0];
        if st.lane_config.iter().any(|&c| c != lane_config) {
            odd.push(format!(
                "LaneConfig differs between lanes: {:x?}",
                st.lane_config
            ));
        }
        let lm = st.load_macro[0];
        if st.load_macro.iter().any(|m| *m != lm) {
            odd.push("LoadMacroConfig differs between lanes".into());
        }
        let dst = with_dst.then(|| {
            let mut d = Box::new([[0u16; 16]; 32]);
            d.copy_from_slice(&dst.bits()[..32]);
            d
        });
        State {
            l,
            cc_en,
            cc: st.lane_flags,
            sp,
            en_stack,
            stack,
            lane_config,
            prng: st.prng,
            tmpl: lm.template,
            seq: lm.sequence,
            misc: lm.misc,
            dst,
        }
    }

    fn clear_stale_stack(&mut self) {
        for i in (self.sp as usize).min(8)..8 {
            self.en_stack[i] = 0;
            self.stack[i] = 0;
        }
    }

    /// Differences to `want`, each with the lanes it touches.
    fn diff(&self, want: &State) -> Vec<(u32, String)> {
        let mut out = Vec::new();
        for r in 0..16 {
            for lane in 0..32 {
                let (g, x) = (self.l[r][lane], want.l[r][lane]);
                if g != x {
                    out.push((
                        1 << lane,
                        format!("LReg[{r}] lane {lane}: bhemu {g:#010x}, reference {x:#010x}"),
                    ));
                }
            }
        }
        let mut word = |name: &str, g: u32, x: u32, lanes: u32| {
            if g != x {
                out.push((
                    lanes,
                    format!("{name}: bhemu {g:#010x}, reference {x:#010x}"),
                ));
            }
        };
        word("UseLaneFlags (cc_en)", self.cc_en, want.cc_en, u32::MAX);
        word("LaneFlags (cc)", self.cc, want.cc, self.cc ^ want.cc);
        word("flag stack depth", self.sp, want.sp, u32::MAX);
        for i in 0..8 {
            word(
                &format!("flag stack[{i}].UseLaneFlags"),
                self.en_stack[i],
                want.en_stack[i],
                u32::MAX,
            );
            word(
                &format!("flag stack[{i}].LaneFlags"),
                self.stack[i],
                want.stack[i],
                self.stack[i] ^ want.stack[i],
            );
        }
        word("LaneConfig", self.lane_config, want.lane_config, u32::MAX);
        for lane in 0..32 {
            word(
                &format!("PRNG lane {lane}"),
                self.prng[lane],
                want.prng[lane],
                1 << lane,
            );
        }
        for i in 0..4 {
            word(
                &format!("InstructionTemplate[{i}]"),
                self.tmpl[i],
                want.tmpl[i],
                u32::MAX,
            );
            word(
                &format!("Sequence[{i}]"),
                self.seq[i],
                want.seq[i],
                u32::MAX,
            );
        }
        word("Misc", self.misc, want.misc, u32::MAX);
        if let (Some(g), Some(x)) = (&self.dst, &want.dst) {
            for row in 0..32 {
                for col in 0..16 {
                    if g[row][col] != x[row][col] {
                        out.push((
                            1 << ((row & 3) * 8 + col / 2),
                            format!(
                                "Dst row {row} col {col}: bhemu {:#06x}, reference {:#06x}",
                                g[row][col], x[row][col]
                            ),
                        ));
                    }
                }
            }
        }
        out
    }
}

struct CellResult {
    insn: String,
    mode: String,
    results: u64,
    different: u64,
    skipped: u32,
    skip_reason: String,
}

#[test]
fn vector_unit_equals_the_reference_in_every_cell() {
    let Some(gen) = generator("BHEMU_SFPU_GEN", ".cache/reference/sfpu/gen") else {
        eprintln!(
            "skipped: no SFPU generator (scripts/reference-tensix.sh builds it from the ttsim source)"
        );
        return;
    };
    let seed = env_or("BHEMU_SFPU_SEED", "1");
    let lanes = env_or("BHEMU_SFPU_LANES", "100000");
    let filter = env_or("BHEMU_SFPU_FILTER", "");
    let (mut child, mut w) = start(&gen, &[seed, lanes, filter.clone()]);

    let mut vu = VectorUnit::new();
    let mut dst = Dst::new();
    let mut compared: Vec<CellResult> = Vec::new();
    let mut refused: Vec<(String, String, String)> = Vec::new();
    let mut reports = 0;
    while let Some(magic) = w.try_next() {
        assert_eq!(magic, 0x5FB0_CE11, "generator stream out of step");
        let (insn, mode) = (w.string(), w.string());
        if w.next() == 1 {
            let reason = w.string();
            refused.push((insn, mode, reason));
            continue;
        }
        let flags = w.next();
        let with_dst = flags & 1 != 0;
        let srcb = match (flags >> 4) & 3 {
            2 => SrcbFormat::Fp16,
            3 => SrcbFormat::Fp32,
            _ => SrcbFormat::Bf16,
        };
        let mut cell = CellResult {
            insn,
            mode,
            results: 0,
            different: 0,
            skipped: 0,
            skip_reason: String::new(),
        };
        loop {
            let m = w.next();
            if m == 0xE4EC_00FF {
                cell.skipped = w.next();
                cell.skip_reason = w.string();
                break;
            }
            assert_eq!(m, 0xE4EC_0001, "generator stream out of step");
            let word = w.next();
            let before = State::read(&mut w, with_dst);
            let mut want = State::read(&mut w, with_dst);
            before.load(&mut vu, &mut dst);
            let mut ctx = SfpuContext {
                dst: &mut dst,
                dst_cfg: DestAccessCfg::default(),
                addr: word & 0x3ff,
                srcb_format: srcb,
            };
            let mut odd = Vec::new();
            let mut diffs = match vu.execute(word, &mut ctx) {
                Ok(()) => {
                    let mut got = State::from_unit(&vu, &dst, with_dst, &mut odd);
                    got.clear_stale_stack();
                    want.clear_stale_stack();
                    got.diff(&want)
                }
                Err(e) => vec![(u32::MAX, format!("bhemu refused: {e}"))],
            };
            diffs.extend(odd.into_iter().map(|o| (u32::MAX, o)));
            cell.results += 32;
            let lanes_off = diffs.iter().fold(0u32, |m, (l, _)| m | l);
            cell.different += lanes_off.count_ones() as u64;
            if !diffs.is_empty() && reports < 12 {
                reports += 1;
                let lane = lanes_off.trailing_zeros().min(31) as usize;
                let inputs: Vec<String> = (0..16)
                    .map(|r| format!("L{r}={:#010x}", before.l[r][lane]))
                    .collect();
                eprintln!(
                    "MISMATCH {} {}: word {word:#010x}; lane {lane} before: {} cc_en={} cc={} sp={}\n  {}",
                    cell.insn,
                    cell.mode,
                    inputs.join(" "),
                    before.cc_en,
                    (before.cc >> lane) & 1,
                    before.sp,
                    diffs
                        .iter()
                        .take(8)
                        .map(|(_, d)| d.as_str())
                        .collect::<Vec<_>>()
                        .join("\n  ")
                );
            }
        }
        compared.push(cell);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "generator failed: {status}");

    let table = std::env::var("BHEMU_SFPU_TABLE").is_ok_and(|v| v == "1");
    if table {
        println!("| instruction | mode | results | different |");
        println!("|---|---|---|---|");
        for c in &compared {
            println!(
                "| {} | {} | {} | {} |",
                c.insn, c.mode, c.results, c.different
            );
        }
        println!("\n| instruction | mode | reference's reason |");
        println!("|---|---|---|");
        for (i, m, r) in &refused {
            println!("| {i} | {m} | {r} |");
        }
    }
    let outcomes: Vec<Outcome> = compared
        .into_iter()
        .map(|c| Outcome {
            name: format!("{} {}", c.insn, c.mode),
            results: c.results,
            different: c.different,
            skipped: c.skipped,
            skip_reason: c.skip_reason,
        })
        .collect();
    conclude(
        "lane results",
        "BHEMU_SFPU_FILTER",
        &filter,
        &outcomes,
        refused.len(),
    );
}
