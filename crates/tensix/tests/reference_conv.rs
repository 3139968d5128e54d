//! The unpackers' and the packer's format conversions against Tenstorrent's reference
//! simulator, cell by cell: UNPACR from every L1 format to SrcA / SrcB / `Dst` (with FP8 E4M3,
//! unsigned INT8, forced shared exponents, tilize, transpose and partial faces), and PACR from
//! 16- and 32-bit `Dst` through every intermediate to every L1 format (with `Round_10b_mant`,
//! ReLU 1..3, `Read_unsigned`, L1 accumulation, edge masks and untilize's L1 addressing and
//! read interfaces), on random L1 / `Dst` contents
//! over the whole encoding space. The
//! reference's own Tensix model executes each record through `scripts/reference-tensix.sh`'s
//! generator; this test gives bhemu's state the same configuration words, address counters,
//! L1 window and `Dst` rows, executes the same UNPACR / PACR words through bhemu's units and
//! compares the L1 window, the `Dst` rows and (for an unpack to Src) the whole Src bank, bit for
//! bit (docs/datapath-reference.md). Cells the reference refuses are listed, not compared.
//! Without the generator the test says so and passes.
//!
//! `BHEMU_CONV_DATUMS` (datums per cell, default 100000), `BHEMU_CONV_SEED` (default 1),
//! `BHEMU_CONV_FILTER` (only cells whose "UNIT CONVERSION MODE" contains it),
//! `BHEMU_CONV_GEN` (the generator's path), `BHEMU_CONV_TABLE=1` (print the tables of cells).
mod reference_common;
use reference_common::{
    conclude, env_or, generator, run_words, src_from_reference, start, Outcome, Words,
};
use std::io::Read;

use bhemu_tensix::src_banks::SrcBanks;
use bhemu_tensix::state::{Coord, TensixState};
use bhemu_tensix::FlatL1;

/// The conversion generator's records, on top of the shared word stream.
impl<R: Read> Words<R> {
    fn dst_rows(&mut self) -> Vec<[u16; 16]> {
        let rows = self.next() as usize;
        let mut out = vec![[0u16; 16]; rows];
        for row in out.iter_mut() {
            for k in 0..8 {
                let v = self.next();
                row[2 * k] = v as u16;
                row[2 * k + 1] = (v >> 16) as u16;
            }
        }
        out
    }
}

/// One record: what the generator drew, and the reference's results.
struct Record {
    thread: usize,
    cfg: Vec<(u32, u32)>,
    thr: Vec<(u32, u32)>,
    adc: [u32; 8],
    l1_addr: u32,
    l1_before: Vec<u8>,
    dst_before: Vec<[u16; 16]>,
    words: Vec<u32>,
    l1_after: Vec<u8>,
    dst_after: Vec<[u16; 16]>,
    src_after: Option<Vec<u32>>,
}

impl Record {
    fn read<R: Read>(w: &mut Words<R>, kind: u32) -> Record {
        let thread = w.next() as usize;
        let cfg = w.pairs();
        let thr = w.pairs();
        let mut adc = [0u32; 8];
        for a in adc.iter_mut() {
            *a = w.next();
        }
        let l1_addr = w.next();
        let len = w.next() as usize;
        let l1_before = w.bytes(len);
        let dst_before = w.dst_rows();
        let n = w.next();
        let words = (0..n).map(|_| w.next()).collect();
        let l1_after = w.bytes(len);
        let dst_after = w.dst_rows();
        let src_after = (kind == 0).then(|| (0..64 * 16).map(|_| w.next()).collect());
        Record {
            thread,
            cfg,
            thr,
            adc,
            l1_addr,
            l1_before,
            dst_before,
            words,
            l1_after,
            dst_after,
            src_after,
        }
    }
}

/// Where bhemu keeps each of the record's `Dst` rows: the reference models no
/// `DEST_ACCESS_CFG` remap / swizzle and keeps `Dst` in logical rows (its strided PACR reads
/// logical rows 16 apart), bhemu keeps the hardware's `DstBits` rows through `Adj16` / `Adj32`.
/// With `remap_addrs` or `swizzle_32b` set, the reference's row `p` is bhemu's `Adj16(p)` (a
/// 16-bit `Dst` pack) or, for the two halves of `Dst32b[r]`, `Adj32(r)` and 8 rows on (a 32-bit
/// one); loaded there and compared from there. Otherwise the rows are the same.
fn dst_row_map(rec: &Record) -> Vec<usize> {
    use bhemu_tensix::state::{adj16, adj32, cfg_fields as f, DestAccessCfg, DST_ROWS};
    let field = |fl: bhemu_tensix::state::CfgField| {
        rec.cfg
            .iter()
            .any(|&(a, v)| a as usize == fl.addr32 && v & fl.mask != 0)
    };
    let cfg = DestAccessCfg {
        remap_addrs: field(f::DEST_ACCESS_CFG_remap_addrs),
        swizzle_32b: field(f::DEST_ACCESS_CFG_swizzle_32b),
    };
    let mut map: Vec<usize> = (0..DST_ROWS).collect();
    if field(f::PCK_DEST_RD_CTRL_Read_32b_data) {
        for r in 0..512 {
            let (p, b) = (adj32(r, DestAccessCfg::default()), adj32(r, cfg));
            map[p] = b;
            map[p + 8] = b + 8;
        }
    } else {
        for (p, m) in map.iter_mut().enumerate() {
            *m = adj16(p as u32, cfg);
        }
    }
    map
}

/// Runs the record's words through bhemu's units on a fresh state; the state after, or the
/// error / warnings bhemu reported.
fn run_bhemu(rec: &Record, unit: usize, l1: &mut FlatL1) -> (TensixState, Vec<String>) {
    let mut st = TensixState::new();
    for &(a, v) in &rec.cfg {
        st.cfg
            .write_word(0, a as usize, v)
            .expect("config word in range");
    }
    for &(a, v) in &rec.thr {
        st.cfg
            .write_thread_word(rec.thread, a as usize, v as u16)
            .expect("thread config word in range");
    }
    let chans = if unit == 2 {
        &mut st.adcs[rec.thread].packers
    } else {
        &mut st.adcs[rec.thread].unpacker[unit]
    };
    for (ch, c) in chans.iter_mut().enumerate() {
        for (k, coord) in [Coord::X, Coord::Y, Coord::Z, Coord::W]
            .into_iter()
            .enumerate()
        {
            c.set_both(coord, rec.adc[4 * ch + k]);
        }
    }
    let map = dst_row_map(rec);
    for (p, row) in rec.dst_before.iter().enumerate() {
        st.dst.bits_mut()[map[p]] = *row;
    }
    let a = rec.l1_addr as usize;
    l1.bytes[a..a + rec.l1_before.len()].copy_from_slice(&rec.l1_before);
    let banks = SrcBanks::default();
    let problems = run_words(&mut st, &banks, l1, rec.thread, &rec.words);
    (st, problems)
}

#[test]
fn unpackers_and_packer_equal_the_reference_in_every_cell() {
    let Some(gen) = generator("BHEMU_CONV_GEN", ".cache/reference/conv/gen") else {
        eprintln!(
            "skipped: no conversion generator (scripts/reference-tensix.sh builds it from the ttsim source)"
        );
        return;
    };
    let seed = env_or("BHEMU_CONV_SEED", "1");
    let datums = env_or("BHEMU_CONV_DATUMS", "100000");
    let filter = env_or("BHEMU_CONV_FILTER", "");
    let (mut child, mut w) = start(&gen, &[seed, datums, filter.clone()]);

    let mut l1 = FlatL1::blackhole();
    let mut compared: Vec<Outcome> = Vec::new();
    let mut refused: Vec<(String, String)> = Vec::new();
    let mut reports = 0;
    while let Some(magic) = w.try_next() {
        assert_eq!(magic, 0xC0DE_0C11, "generator stream out of step");
        let (unit, conv, mode) = (w.string(), w.string(), w.string());
        let name = format!("{unit} {conv} {mode}");
        if w.next() == 1 {
            refused.push((name, w.string()));
            continue;
        }
        let kind = w.next();
        let unpacker = w.next() as usize;
        let per_record = u64::from(w.next());
        let adc_unit = if kind == 2 { 2 } else { unpacker };
        let mut cell = Outcome {
            name,
            results: 0,
            different: 0,
            skipped: 0,
            skip_reason: String::new(),
        };
        loop {
            let m = w.next();
            if m == 0xC0DE_00FF {
                cell.skipped = w.next();
                cell.skip_reason = w.string();
                break;
            }
            assert_eq!(m, 0xC0DE_0001, "generator stream out of step");
            let rec = Record::read(&mut w, kind);
            let (st, problems) = run_bhemu(&rec, adc_unit, &mut l1);
            let mut diffs: Vec<String> = problems;
            let mut off = 0u64;
            match kind {
                0 => {
                    let want = rec.src_after.as_ref().unwrap();
                    let src = if unpacker == 1 { &st.src_b } else { &st.src_a };
                    cell.results += per_record;
                    for row in 0..64 {
                        for col in 0..16 {
                            let x = want[row * 16 + col];
                            let (g, e) = (src.read(0, row, col), src_from_reference(x));
                            if g != e || x & 0x1fff != 0 {
                                off += 1;
                                diffs.push(format!(
                                    "Src row {row} col {col}: bhemu {g:#07x}, reference {e:#07x} (as kept: {x:#010x})"
                                ));
                            }
                        }
                    }
                }
                _ => {
                    cell.results += per_record;
                    let a = rec.l1_addr as usize;
                    let got = &l1.bytes[a..a + rec.l1_after.len()];
                    for (i, (g, x)) in got.iter().zip(&rec.l1_after).enumerate() {
                        if g != x {
                            off += 1;
                            diffs.push(format!(
                                "L1 {:#x} (+{i}): bhemu {g:#04x}, reference {x:#04x} (before {:#04x})",
                                a + i,
                                rec.l1_before[i]
                            ));
                        }
                    }
                }
            }
            let map = dst_row_map(&rec);
            for (row, want) in rec.dst_after.iter().enumerate() {
                for (col, (&g, &x)) in st.dst.bits()[map[row]].iter().zip(want).enumerate() {
                    if g != x {
                        off += 1;
                        diffs.push(format!(
                            "Dst row {row} col {col}: bhemu {g:#06x}, reference {x:#06x} (before {:#06x})",
                            rec.dst_before[row][col]
                        ));
                    }
                }
            }
            if !diffs.is_empty() {
                cell.different += off.max(1);
                if reports < 12 {
                    reports += 1;
                    let words: Vec<String> =
                        rec.words.iter().map(|x| format!("{x:#010x}")).collect();
                    let cfg: Vec<String> = rec
                        .cfg
                        .iter()
                        .map(|(a, v)| format!("[{a}]={v:#x}"))
                        .collect();
                    eprintln!(
                        "MISMATCH {}: words {}; config {}; thread config {:?}; ADC {:?}\n  {}",
                        cell.name,
                        words.join(" "),
                        cfg.join(" "),
                        rec.thr,
                        rec.adc,
                        diffs
                            .iter()
                            .take(10)
                            .map(|d| d.as_str())
                            .collect::<Vec<_>>()
                            .join("\n  ")
                    );
                }
            }
        }
        compared.push(cell);
    }
    let status = child.wait().unwrap();
    assert!(status.success(), "generator failed: {status}");

    if std::env::var("BHEMU_CONV_TABLE").is_ok_and(|v| v == "1") {
        println!("| cell | datums | different |");
        println!("|---|---|---|");
        for c in &compared {
            println!("| {} | {} | {} |", c.name, c.results, c.different);
        }
        println!("\n| cell | reference's reason |");
        println!("|---|---|");
        for (n, r) in &refused {
            println!("| {n} | {r} |");
        }
    }
    conclude(
        "datums",
        "BHEMU_CONV_FILTER",
        &filter,
        &compared,
        refused.len(),
    );
}
