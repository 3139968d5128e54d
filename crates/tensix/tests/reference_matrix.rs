//! The Matrix Unit's instructions against Tenstorrent's reference simulator, cell by cell and
//! instruction by instruction: ELWADD / ELWSUB / ELWMUL with every broadcast, with and without
//! AddDst, each fidelity phase; MVMUL and GAPOOL at each fidelity phase; GMPOOL; MOVA2D, MOVB2D,
//! MOVD2A, MOVD2B, MOVB2A, TRNSPSRCB, ZEROSRC, ZEROACC and GATESRCRST; over BF16 / FP16 / TF32 /
//! INT8 Src banks (their implied formats) and 16- and 32-bit Dst. For each record the generator
//! (`tests/reference/matrix_gen.cpp`, built by `scripts/reference-tensix.sh`) draws the Matrix
//! Unit's SrcA / SrcB banks, a window of Dst rows (some left undefined by ZEROACC), the RWCs,
//! the configuration and the ADDR_MOD the instruction names, runs one instruction word through
//! the reference's own Tensix model and writes the state before and after; this test loads the
//! same state into bhemu, runs the same word through bhemu's units and compares the RWCs, Dst
//! (as a reader sees it: an undefined row reads as zero) with each row's undefined mark, and the
//! Src banks, bit for bit (docs/matrix-unit.md, "Confirmed instruction by instruction"). Cells
//! the reference refuses are listed, not compared. Without the generator the test says so and
//! passes.
//!
//! `BHEMU_MATRIX_DATUMS` (results per cell, default 10000 so that the test suite stays quick;
//! the campaign's counts are `BHEMU_MATRIX_DATUMS=100000`, at which MVMUL and GAPOOL run at least
//! 10,000 instructions per cell, about 8 minutes on 2 cores), `BHEMU_MATRIX_SEED` (default 1), `BHEMU_MATRIX_FILTER` (only
//! cells whose "INSN FORMATS DST MODE" contains it), `BHEMU_MATRIX_GEN` (the generator's path),
//! `BHEMU_MATRIX_TABLE=1` (print the tables of cells).
mod reference_common;
use reference_common::{
    conclude, env_or, generator, run_words, src_from_reference, start, Outcome, Words,
};
use std::io::Read;

use bhemu_tensix::src_banks::{SrcBanks, SrcClient};
use bhemu_tensix::state::{Rwc, TensixState, DST_ROWS};
use bhemu_tensix::FlatL1;

/// One Dst row as the generator sends it: whether it is defined, and its 16 raw halves.
#[derive(Clone, Copy)]
struct Row {
    valid: bool,
    v: [u16; 16],
}

/// The matrix generator's records, on top of the shared word stream.
impl<R: Read> Words<R> {
    fn rows(&mut self, n: usize) -> Vec<Row> {
        (0..n)
            .map(|_| {
                let valid = self.next() != 0;
                let mut v = [0u16; 16];
                for k in 0..8 {
                    let x = self.next();
                    v[2 * k] = x as u16;
                    v[2 * k + 1] = (x >> 16) as u16;
                }
                Row { valid, v }
            })
            .collect()
    }
    fn rwc(&mut self) -> [u32; 7] {
        let mut r = [0u32; 7];
        for x in r.iter_mut() {
            *x = self.next();
        }
        r
    }
    fn bank(&mut self) -> Vec<u32> {
        (0..64 * 16).map(|_| self.next()).collect()
    }
}

struct Record {
    thread: usize,
    cfg: Vec<(u32, u32)>,
    thr: Vec<(u32, u32)>,
    rwc: [u32; 7],
    bank_a: usize,
    bank_b: usize,
    fmt_a: u32,
    fmt_b: u32,
    src_a: Vec<u32>,
    src_b: Vec<u32>,
    win0: usize,
    win: Vec<Row>,
    words: Vec<u32>,
    rwc_after: [u32; 7],
    win_after: Vec<Row>,
    src_after: Option<(Vec<u32>, Vec<u32>)>,
}

impl Record {
    fn read<R: Read>(w: &mut Words<R>, flags: u32) -> Record {
        let thread = w.next() as usize;
        let cfg = w.pairs();
        let thr = w.pairs();
        let rwc = w.rwc();
        let (bank_a, bank_b) = (w.next() as usize, w.next() as usize);
        let (fmt_a, fmt_b) = (w.next(), w.next());
        let (src_a, src_b) = if flags & 2 != 0 {
            (w.bank(), w.bank())
        } else {
            (vec![0; 1024], vec![0; 1024])
        };
        let win0 = w.next() as usize;
        let n = w.next() as usize;
        let win = w.rows(n);
        let k = w.next();
        let words = (0..k).map(|_| w.next()).collect();
        let rwc_after = w.rwc();
        let win_after = w.rows(n);
        let src_after = (flags & 4 != 0).then(|| (w.bank(), w.bank()));
        Record {
            thread,
            cfg,
            thr,
            rwc,
            bank_a,
            bank_b,
            fmt_a,
            fmt_b,
            src_a,
            src_b,
            win0,
            win,
            words,
            rwc_after,
            win_after,
            src_after,
        }
    }
}

fn rwc_words(r: &Rwc) -> [u32; 7] {
    [
        r.src_a as u32,
        r.src_a_cr as u32,
        r.src_b as u32,
        r.src_b_cr as u32,
        r.dst as u32,
        r.dst_cr as u32,
        r.fidelity_phase as u32,
    ]
}

/// Loads the record's state into a fresh bhemu state and runs its words through bhemu's units;
/// the state after, or the error / warnings bhemu reported.
fn run_bhemu(rec: &Record, l1: &mut FlatL1) -> (TensixState, Vec<String>) {
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
    let r = rec.rwc;
    st.rwcs[rec.thread] = Rwc {
        src_a: r[0] as u8,
        src_a_cr: r[1] as u8,
        src_b: r[2] as u8,
        src_b_cr: r[3] as u8,
        dst: r[4] as u16,
        dst_cr: r[5] as u16,
        fidelity_phase: r[6] as u8,
    };
    st.src_a.set_format(rec.bank_a, rec.fmt_a);
    st.src_b.set_format(rec.bank_b, rec.fmt_b);
    for i in 0..64 * 16 {
        st.src_a
            .write(rec.bank_a, i / 16, i % 16, src_from_reference(rec.src_a[i]));
        st.src_b
            .write(rec.bank_b, i / 16, i % 16, src_from_reference(rec.src_b[i]));
    }
    // An undefined row holds zeros in bhemu (ZEROACC writes them) and is marked.
    for (k, row) in rec.win.iter().enumerate() {
        let r = rec.win0 + k;
        st.dst.bits_mut()[r] = if row.valid { row.v } else { [0; 16] };
        st.matrix.undefined.set(r, !row.valid);
    }
    // Both banks of each belong to the Matrix Unit; it works on bank_a / bank_b.
    let banks = SrcBanks {
        a: [SrcClient::MatrixUnit; 2],
        b: [SrcClient::MatrixUnit; 2],
        unpack_a: rec.bank_a ^ 1,
        unpack_b: rec.bank_b ^ 1,
        math_a: rec.bank_a,
        math_b: rec.bank_b,
    };
    let problems = run_words(&mut st, &banks, l1, rec.thread, &rec.words);
    (st, problems)
}

/// The differences between bhemu's state after and the reference's: `(count, descriptions)`.
fn compare(rec: &Record, st: &TensixState, dst32: bool) -> (u64, Vec<String>) {
    let mut off = 0u64;
    let mut d = Vec::new();
    let got_rwc = rwc_words(&st.rwcs[rec.thread]);
    if got_rwc != rec.rwc_after {
        off += 1;
        d.push(format!(
            "RWCs (SrcA, SrcA_Cr, SrcB, SrcB_Cr, Dst, Dst_Cr, Fidelity): bhemu {got_rwc:?}, reference {:?} (before {:?})",
            rec.rwc_after, rec.rwc
        ));
    }
    let bits = st.dst.bits();
    let und = &st.matrix.undefined;
    // Dst as a reader of the cell's view sees it: a 32-bit row is defined by its high half's
    // flag (the reference keeps one per 32-bit row) and reads both halves as zero when undefined.
    for (k, want) in rec.win_after.iter().enumerate() {
        let r = rec.win0 + k;
        let (flag_row, hi) = if dst32 {
            (r & !8, r & 8 == 0)
        } else {
            (r, true)
        };
        let ref_valid = rec.win_after[flag_row - rec.win0].valid;
        let ours_valid = if dst32 {
            !(und.is_undefined(r & !8) || und.is_undefined(r | 8))
        } else {
            !und.is_undefined(r)
        };
        if hi && ref_valid != ours_valid {
            off += 1;
            d.push(format!(
                "Dst row {r}: bhemu {}, reference {} (before {})",
                if ours_valid { "defined" } else { "undefined" },
                if ref_valid { "defined" } else { "undefined" },
                if rec.win[flag_row - rec.win0].valid {
                    "defined"
                } else {
                    "undefined"
                }
            ));
        }
        for (col, &g) in bits[r].iter().enumerate() {
            let x = if ref_valid { want.v[col] } else { 0 };
            if g != x {
                off += 1;
                d.push(format!(
                    "Dst row {r} col {col}: bhemu {g:#06x}, reference {x:#06x} (before {:#06x}{})",
                    rec.win[k].v[col],
                    if rec.win[flag_row - rec.win0].valid {
                        ""
                    } else {
                        ", undefined"
                    }
                ));
            }
        }
    }
    let win = rec.win0..rec.win0 + rec.win.len();
    for r in (0..DST_ROWS).filter(|r| !win.contains(r)) {
        if bits[r] != [0; 16] || und.is_undefined(r) {
            off += 1;
            d.push(format!(
                "Dst row {r} (outside the instruction's rows): bhemu {:04x?}{}",
                bits[r],
                if und.is_undefined(r) {
                    ", undefined"
                } else {
                    ""
                }
            ));
        }
    }
    let (want_a, want_b) = match &rec.src_after {
        Some((a, b)) => (a, b),
        None => (&rec.src_a, &rec.src_b),
    };
    for (name, data, bank, want) in [
        ("SrcA", &st.src_a, rec.bank_a, want_a),
        ("SrcB", &st.src_b, rec.bank_b, want_b),
    ] {
        for (i, &x) in want.iter().enumerate() {
            let (row, col) = (i / 16, i % 16);
            let (g, e) = (data.read(bank, row, col), src_from_reference(x));
            if g != e || x & 0x1fff != 0 {
                off += 1;
                d.push(format!(
                    "{name} row {row} col {col}: bhemu {g:#07x}, reference {e:#07x} (as kept: {x:#010x})"
                ));
            }
        }
        for row in 0..64 {
            for col in 0..16 {
                if data.read(bank ^ 1, row, col) != 0 {
                    off += 1;
                    d.push(format!(
                        "{name} bank {} (not the Matrix Unit's) row {row} col {col} written",
                        bank ^ 1
                    ));
                }
            }
        }
    }
    (off, d)
}

struct CellResult {
    name: String,
    datums: u64,
    insns: u64,
    different: u64,
    skipped: u32,
    skip_reason: String,
}

#[test]
fn matrix_unit_instructions_equal_the_reference_in_every_cell() {
    let Some(gen) = generator("BHEMU_MATRIX_GEN", ".cache/reference/matrix/gen") else {
        eprintln!(
            "skipped: no matrix generator (scripts/reference-tensix.sh builds it from the ttsim source)"
        );
        return;
    };
    let seed = env_or("BHEMU_MATRIX_SEED", "1");
    let datums = env_or("BHEMU_MATRIX_DATUMS", "10000");
    let filter = env_or("BHEMU_MATRIX_FILTER", "");
    let (mut child, mut w) = start(&gen, &[seed, datums, filter.clone()]);

    let mut l1 = FlatL1 { bytes: Vec::new() };
    let mut compared: Vec<CellResult> = Vec::new();
    let mut refused: Vec<(String, String)> = Vec::new();
    let mut reports = 0;
    while let Some(magic) = w.try_next() {
        assert_eq!(magic, 0xC0DE_3A11, "generator stream out of step");
        let (insn, formats, dst, mode) = (w.string(), w.string(), w.string(), w.string());
        let name = format!("{insn} | {formats} | {dst} | {mode}");
        if w.next() == 1 {
            refused.push((name, w.string()));
            continue;
        }
        let flags = w.next();
        let per_record = w.next() as u64;
        let mut cell = CellResult {
            name,
            datums: 0,
            insns: 0,
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
            let rec = Record::read(&mut w, flags);
            let (st, problems) = run_bhemu(&rec, &mut l1);
            cell.datums += per_record;
            cell.insns += rec.words.len() as u64;
            let (off, mut diffs) = compare(&rec, &st, flags & 1 != 0);
            let had_problems = !problems.is_empty();
            diffs.splice(0..0, problems);
            if off > 0 || had_problems {
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
                        "MISMATCH {}: words {}; config {}; thread config {:?}; RWCs {:?}; banks {}/{} formats {}/{}\n  {}",
                        cell.name,
                        words.join(" "),
                        cfg.join(" "),
                        rec.thr,
                        rec.rwc,
                        rec.bank_a,
                        rec.bank_b,
                        rec.fmt_a,
                        rec.fmt_b,
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

    if std::env::var("BHEMU_MATRIX_TABLE").is_ok_and(|v| v == "1") {
        println!("| instruction | formats | Dst | mode | results | instructions | different |");
        println!("|---|---|---|---|---|---|---|");
        for c in &compared {
            println!(
                "| {} | {} | {} | {} |",
                c.name, c.datums, c.insns, c.different
            );
        }
        println!("\n| instruction | formats | Dst | mode | reference's reason |");
        println!("|---|---|---|---|---|");
        for (n, r) in &refused {
            println!("| {n} | {r} |");
        }
    }
    let outcomes: Vec<Outcome> = compared
        .into_iter()
        .map(|c| Outcome {
            name: c.name,
            results: c.datums,
            different: c.different,
            skipped: c.skipped,
            skip_reason: c.skip_reason,
        })
        .collect();
    conclude(
        "results",
        "BHEMU_MATRIX_FILTER",
        &filter,
        &outcomes,
        refused.len(),
    );
}
