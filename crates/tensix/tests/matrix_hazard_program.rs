//! The Dst read-after-write checker through the whole coprocessor: "After issuing an
//! instruction which writes to `Dst`, then for the next four cycles, the aligned 8x16 block of
//! `Dst` containing that write cannot be read" (tt-isa-documentation:
//! BlackholeA0/TensixTile/TensixCoprocessor/Dst.md). Programs based on
//! examples/tensix/dst_hazard.tsx write Dst with ELWADD or MVMUL and read it with SFPLOAD,
//! with or without `STALLWAIT(STALL_SFPU, MATH)` between them.
use bhemu_isa::tensix::assemble;
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, RunOptions, RunResult};
use bhemu_tensix::Arch;

const EXAMPLE: &str = "examples/tensix/dst_hazard.tsx";

fn example_text() -> String {
    let path = format!("{}/../../{EXAMPLE}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The example with thread 1's three lines replaced by `t1`.
fn with_t1(t1: &str) -> String {
    let text = example_text();
    let start = text.find("[t1]").unwrap_or_else(|| panic!("no [t1]"));
    let end = text.find("dump").unwrap_or_else(|| panic!("no dump"));
    format!("{}[t1]\n{t1}\n{}", &text[..start], &text[end..])
}

fn run_text(text: &str, check: bool) -> RunResult {
    let p = parse(Arch::Blackhole, EXAMPLE, text).unwrap_or_else(|e| panic!("{e}"));
    let r = run(
        &p,
        RunOptions {
            check_hazards: check,
            ..RunOptions::default()
        },
    );
    assert!(r.error.is_none(), "{:?}", r.error);
    r
}

fn w(line: &str) -> u32 {
    assemble(Arch::Blackhole, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

/// The dispatch cycle of `word` on thread 1.
fn cycle_of(r: &RunResult, word: u32) -> u64 {
    r.dispatched[1]
        .iter()
        .find(|&&(_, x)| x == word)
        .map(|&(c, _)| c)
        .unwrap_or_else(|| panic!("{word:#x} not dispatched"))
}

fn assert_one_hazard(r: &RunResult, writer: &str, reader: &str) {
    assert_eq!(r.hazards.len(), 1, "{:?}", r.hazards);
    let h = &r.hazards[0];
    let (ww, rw) = (w(writer), w(reader));
    assert_eq!((h.writer.word, h.reader.word), (ww, rw));
    assert_eq!((h.writer.thread, h.reader.thread), (1, 1));
    assert_eq!(
        (h.writer.cycle, h.reader.cycle),
        (cycle_of(r, ww), cycle_of(r, rw))
    );
    assert!(h.distance() >= 1 && h.distance() <= 4, "{h}");
    assert_eq!(h.block_row, 0);
    let text = h.to_string();
    for part in [writer, reader, "T1", &format!("cycle {}", h.writer.cycle)] {
        assert!(text.contains(part), "{part} not in {text}");
    }
    // The JSON field names both instructions too.
    let j = r.to_json();
    assert_eq!(j["hazards"][0]["writer"]["insn"], writer);
    assert_eq!(j["hazards"][0]["reader"]["insn"], reader);
    assert_eq!(j["hazards"][0]["reader"]["cycle"], h.reader.cycle);
}

#[test]
fn sfpload_inside_the_write_shadow_of_elwadd_is_one_hazard() {
    let r = run_text(&example_text(), true);
    assert_one_hazard(&r, "ttelwadd 0, 0, 0, 0, 0", "ttsfpload 0, 2, 0, 0");
}

#[test]
fn sfpload_inside_the_write_shadow_of_mvmul_is_one_hazard() {
    let r = run_text(&with_t1("ttmvmul 0, 0, 0, 0\nttsfpload 0, 2, 0, 4"), true);
    assert_one_hazard(&r, "ttmvmul 0, 0, 0, 0", "ttsfpload 0, 2, 0, 4");
}

#[test]
fn stallwait_sfpu_on_math_removes_the_hazard() {
    for writer in ["ttelwadd 0, 0, 0, 0, 0", "ttmvmul 0, 0, 0, 0"] {
        let t1 = format!("{writer}\nttstallwait 256, 16\nttsfpload 0, 2, 0, 0");
        let r = run_text(&with_t1(&t1), true);
        assert!(r.hazards.is_empty(), "{writer}: {:?}", r.hazards);
        let gap = cycle_of(&r, w("ttsfpload 0, 2, 0, 0")) - cycle_of(&r, w(writer));
        assert!(gap > 4, "{writer}: SFPLOAD only {gap} cycles later");
        assert_eq!(r.to_json()["hazards"], serde_json::json!([]));
    }
}

#[test]
fn sfpload_of_another_block_is_no_hazard() {
    // Rows 8..11 are the next 8x16 block; ELWADD wrote rows 0..7 only.
    let r = run_text(
        &with_t1("ttelwadd 0, 0, 0, 0, 0\nttsfpload 0, 2, 0, 8"),
        true,
    );
    assert!(r.hazards.is_empty(), "{:?}", r.hazards);
}

#[test]
fn sfpload_after_the_shadow_is_no_hazard() {
    // Five SFPNOPs (one per cycle) put the SFPLOAD past the four-cycle shadow.
    let t1 = format!(
        "ttelwadd 0, 0, 0, 0, 0\n{}ttsfpload 0, 2, 0, 0",
        "ttsfpnop\n".repeat(5)
    );
    let r = run_text(&with_t1(&t1), true);
    let gap = cycle_of(&r, w("ttsfpload 0, 2, 0, 0")) - cycle_of(&r, w("ttelwadd 0, 0, 0, 0, 0"));
    assert!(gap > 4, "SFPLOAD only {gap} cycles later");
    assert!(r.hazards.is_empty(), "{:?}", r.hazards);
}

#[test]
fn hazards_are_not_reported_unless_asked() {
    let r = run_text(&example_text(), false);
    assert!(r.hazards.is_empty());
}

#[test]
fn fp32_dst_write_shadows_both_halves() {
    // With FP32 Dst (ALU_ACC_CTRL_Fp32_enabled) ELWADD writes Dst32b rows 0..7, stored in
    // DstBits rows 0..7 and 8..15 (Adj32, Dst.md): an FP32 SFPLOAD of Dst32b row 0 is caught.
    let text =
        with_t1("cfg ALU_ACC_CTRL_Fp32_enabled = 1\nttelwadd 0, 0, 0, 0, 0\nttsfpload 0, 3, 0, 0");
    let r = run_text(&text, true);
    assert_eq!(r.hazards.len(), 1, "{:?}", r.hazards);
}
