//! Harts sharing decoded code through a `CodeLibrary` (docs/execution-model.md EM-27): one
//! decoded window per distinct content, the same results as harts decoding on their own, and
//! no hart ever seeing another's writes to its code.
use std::sync::Arc;

use bhemu_isa::riscv::asm::{addi, bytes, li, sw};
use bhemu_isa::riscv::{encode, Insn};
use bhemu_rv::{workload, CodeLibrary, FlatRam, Hart, HartConfig, RunExit};

const BASE: u32 = 0x1000;

fn ram_with(prog: &[Insn]) -> FlatRam {
    let mut ram = FlatRam::new(0, 0x10000);
    ram.load_bytes(BASE, &bytes(prog)).expect("program fits");
    ram
}

fn hart(pc: u32, code: Option<Arc<CodeLibrary>>) -> Hart {
    Hart::new(HartConfig {
        reset_pc: pc,
        code,
        ..HartConfig::default()
    })
}

fn state(h: &Hart) -> Vec<u64> {
    let mut v = Vec::new();
    h.fold_arch_state(&mut |w| v.push(w));
    v
}

fn run_to_ebreak(h: &mut Hart, ram: &mut FlatRam) {
    match h.run(ram, 1_000_000) {
        RunExit::Halted(_) => {}
        other => panic!("did not reach ebreak: {other:?}"),
    }
}

/// `a0 = v; ebreak`.
fn set_a0(v: i32) -> Vec<Insn> {
    vec![addi(10, 0, v), Insn::Ebreak]
}

#[test]
fn em27_harts_holding_the_same_words_share_one_decoded_window() {
    let lib = Arc::new(CodeLibrary::new());
    let prog = set_a0(7);
    let (mut a, mut b) = (hart(BASE, Some(lib.clone())), hart(BASE, Some(lib.clone())));
    let (mut ram_a, mut ram_b) = (ram_with(&prog), ram_with(&prog));
    run_to_ebreak(&mut a, &mut ram_a);
    run_to_ebreak(&mut b, &mut ram_b);
    assert_eq!((a.reg(10), b.reg(10)), (7, 7));
    assert_eq!(lib.windows(), 1, "one decoded copy for both harts");

    // Other words at the same addresses: a window of their own, and their own result.
    let mut c = hart(BASE, Some(lib.clone()));
    let mut ram_c = ram_with(&set_a0(9));
    run_to_ebreak(&mut c, &mut ram_c);
    assert_eq!(c.reg(10), 9);
    assert_eq!(lib.windows(), 2);
}

#[test]
fn em27_sharing_changes_no_register_pc_or_counter() {
    // The hart benchmark's mixed workload: loops, calls, loads and stores, mul/div.
    let words = workload::mixed_integer(3);
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let lib = Arc::new(CodeLibrary::new());
    let mut results = Vec::new();
    for code_library in [None, Some(lib.clone()), Some(lib.clone())] {
        let mut ram = FlatRam::new(0, 1 << 20);
        ram.load_bytes(workload::CODE_BASE, &code).expect("load");
        let mut h = hart(workload::CODE_BASE, code_library);
        let exit = h.run(&mut ram, 5_000_000);
        results.push((format!("{exit:?}"), state(&h), ram.bytes().to_vec()));
    }
    assert_eq!(results[0].0, results[1].0);
    assert!(results[0].1 == results[1].1, "shared vs own decoding");
    assert!(
        results[1].1 == results[2].1,
        "first vs second hart on the window"
    );
    assert!(results[0].2 == results[1].2, "memory");
    assert_eq!(lib.windows(), 1);
}

#[test]
fn em27_a_store_over_shared_code_is_seen_by_the_storing_hart_only() {
    // Overwrites the instruction at `target` with `addi a0, zero, 2`, then runs it.
    let patch = encode(&addi(10, 0, 2));
    let mut prog = li(5, BASE + 4 * 8); // t0 = &target (slot 8)
    prog.extend(li(6, patch)); // t1 = the new instruction
    prog.push(sw(6, 5)); // slot 4
    prog.extend([addi(0, 0, 0), addi(0, 0, 0), addi(0, 0, 0)]); // slots 5..7
    prog.extend(set_a0(1)); // target: slot 8
    assert_eq!(prog.len(), 10);
    let lib = Arc::new(CodeLibrary::new());
    let mut writer = hart(BASE, Some(lib.clone()));
    let mut reader = hart(BASE + 4 * 8, Some(lib.clone()));
    let (mut ram_w, mut ram_r) = (ram_with(&prog), ram_with(&prog));
    // The reader decodes the window first, so the writer adopts the very same copy.
    reader.step(&mut ram_r);
    run_to_ebreak(&mut writer, &mut ram_w);
    assert_eq!(writer.reg(10), 2, "the writer runs what it stored");
    let mut reader = hart(BASE + 4 * 8, Some(lib.clone()));
    run_to_ebreak(&mut reader, &mut ram_r);
    assert_eq!(reader.reg(10), 1, "the other hart's code is untouched");
}

#[test]
fn em27_code_changed_behind_the_harts_back_is_decoded_anew() {
    let lib = Arc::new(CodeLibrary::new());
    let mut h = hart(BASE, Some(lib.clone()));
    let mut ram = ram_with(&set_a0(3));
    run_to_ebreak(&mut h, &mut ram);
    assert_eq!(h.reg(10), 3);
    // A loader writes new code and says so, as a tile does for a NoC or host write.
    ram.load_bytes(BASE, &bytes(&set_a0(4))).expect("fits");
    h.invalidate_code(BASE, 8);
    let mut h2 = hart(BASE, Some(lib.clone()));
    run_to_ebreak(&mut h2, &mut ram);
    assert_eq!(h2.reg(10), 4, "a fresh hart adopts the new words' window");
    h.set_pc(BASE);
    h.resume();
    run_to_ebreak(&mut h, &mut ram);
    assert_eq!(h.reg(10), 4, "the hart that held the old window drops it");
}
