//! The `.tsx` examples (docs/wait-gate.md patterns 1-8, a deadlock, a mutex hang), the program format,
//! the runner's JSON, and deadlock / max-cycles reporting.
use bhemu_isa::tensix::assemble;
use bhemu_tensix::program::parse;
use bhemu_tensix::runner::{run, RunOptions, RunResult};
use bhemu_tensix::{Arch, ErrorKind};

fn example(name: &str) -> RunResult {
    let path = format!(
        "{}/../../examples/tensix/{name}.tsx",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let p = parse(Arch::Blackhole, &path, &text).unwrap_or_else(|e| panic!("{e}"));
    run(&p, RunOptions::default())
}

fn w(line: &str) -> u32 {
    assemble(Arch::Blackhole, line).unwrap_or_else(|e| panic!("{line}: {e}"))
}

fn at(r: &RunResult, t: usize, line: &str, n: usize) -> u64 {
    let word = w(line);
    r.dispatched[t]
        .iter()
        .filter(|x| x.1 == word)
        .nth(n)
        .map(|x| x.0)
        .unwrap_or_else(|| panic!("T{t} never ran `{line}` #{n}"))
}

fn ok(r: &RunResult) {
    assert!(r.error.is_none(), "{:?}", r.error);
}

// docs/wait-gate.md pattern 1: ttstallwait 128, 1 holds WRCFG until ThCon is done (+ the lag); the
// packer variant ttstallwait 128, 9 until the packer drained.
#[test]
fn pattern1_wrcfg_waits_for_thcon() {
    let r = example("pattern1");
    ok(&r);
    let add = at(&r, 0, "ttadddmareg 0, 4, 4, 4", 0);
    let sw = at(&r, 0, "ttstallwait 128, 1", 0);
    assert_eq!(sw, add + 3);
    assert_eq!(at(&r, 0, "ttwrcfg 4, 0, 124", 0), sw + 2);
    assert_eq!(at(&r, 0, "ttnop", 0), sw + 3);
    let pacr = at(&r, 2, "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", 0);
    assert_eq!(at(&r, 2, "ttwrcfg 28, 0, 12", 0), pacr + 4 + 1);
}

// docs/wait-gate.md pattern 2: MOVD2A/MOVD2B only after SrcA/SrcB are the Matrix Unit's (C7/C8).
#[test]
fn pattern2_movd2a_waits_for_srca_valid() {
    let r = example("pattern2");
    ok(&r);
    let unp = at(&r, 0, "ttunpacr 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1", 0);
    assert_eq!(at(&r, 1, "ttmovd2a 0, 0, 0, 0, 0", 0), unp + 4 + 1);
    let sdv = at(&r, 2, "ttsetdvalid 2", 0);
    assert_eq!(at(&r, 1, "ttmovd2b 0, 0, 0, 0, 0", 0), sdv + 2);
}

// docs/wait-gate.md pattern 3: UNPACK_TO_DEST — T0 posts sem 2 after Unpacker 0 drains; T1's SEMGET
// (a Sync instruction, caught by B1) waits for the post.
#[test]
fn pattern3_unpack_to_dest_handshake() {
    let r = example("pattern3");
    ok(&r);
    let unp = at(&r, 0, "ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", 0);
    let post = at(&r, 0, "ttsempost 4", 0);
    assert_eq!(post, unp + 4 + 1);
    assert!(at(&r, 1, "ttstallwait 2, 2064", 0) > post);
    assert!(at(&r, 1, "ttsemget 4", 0) > post);
    assert_eq!(r.semaphores[2], (0, 1));
}

// docs/wait-gate.md pattern 4: math -> pack through semaphore 1 (Max 2): pack of tile k starts only
// after math posted tile k; math of tile k+2 starts only after pack freed tile k; math posts
// only after the Matrix Unit drained, pack frees only after the packer drained.
#[test]
fn pattern4_math_pack_double_buffering() {
    let r = example("pattern4");
    ok(&r);
    let mv = |k| at(&r, 1, "ttmvmul 3, 0, 0, 0", k);
    let post = |k| at(&r, 1, "ttsempost 2", k);
    let pack0 = |k| at(&r, 2, "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0", 3 * k);
    let pack_last = |k| at(&r, 2, "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", k);
    let get = |k| at(&r, 2, "ttsemget 2", k);
    for k in 0..4 {
        assert!(
            post(k) > mv(k) + 5,
            "tile {k}: SEMPOST after the MVMUL drained"
        );
        assert!(pack0(k) > post(k), "tile {k}: pack after math posted");
        assert!(
            get(k) > pack_last(k) + 4,
            "tile {k}: SEMGET after the packer drained"
        );
    }
    for k in 2..4 {
        assert!(
            mv(k) > get(k - 2),
            "tile {k}: math waits for pack to free tile {}",
            k - 2
        );
    }
    // Double buffering: math ran ahead — tile 1's math finished before tile 0 was packed.
    assert!(post(1) < get(0));
    // The SEMWAIT on max really held math (tile 2 waited beyond the lag).
    let sw2 = at(&r, 1, "ttsemwait 322, 2, 2", 2);
    assert!(mv(2) > sw2 + 2);
    assert_eq!(r.semaphores[1], (0, 2));
}

// docs/wait-gate.md pattern 5: reconfigure the packer only after it drained (ttstallwait 128, 8).
#[test]
fn pattern5_wait_for_packer_before_reconfig() {
    let r = example("pattern5");
    ok(&r);
    let pacr = at(&r, 2, "ttpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", 0);
    assert_eq!(at(&r, 2, "ttwrcfg 28, 0, 12", 0), pacr + 4 + 1);
    let sw = at(&r, 2, "ttstallwait 128, 9", 0);
    assert_eq!(at(&r, 2, "ttwrcfg 28, 0, 12", 1), sw + 2);
}

// docs/wait-gate.md pattern 6: SETC16 (Dst flip) waits for FPU and SFPU (ttstallwait 128, 2064).
#[test]
fn pattern6_dest_flip_waits_for_fpu_and_sfpu() {
    let r = example("pattern6");
    ok(&r);
    let mv = at(&r, 1, "ttmovd2a 0, 0, 0, 0, 0", 0);
    let sfp = at(&r, 1, "ttsfpmad 0, 0, 0, 0, 0", 0);
    let c16 = at(&r, 1, "ttsetc16 0, 0", 0);
    assert!(c16 > mv + 2 && c16 > sfp + 2);
    assert_eq!(c16, at(&r, 1, "ttstallwait 128, 2064", 0) + 2);
}

// docs/wait-gate.md pattern 7: ttstallwait 8, 1024 with no RISC-V write pending costs only the lag;
// ttstallwait 32, 6 holds ThCon until both unpackers drained.
#[test]
fn pattern7_unpacker_waits_for_trisc_cfg() {
    let r = example("pattern7");
    ok(&r);
    let sw = at(&r, 0, "ttstallwait 8, 1024", 0);
    let unp = at(&r, 0, "ttunpacr 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1", 0);
    assert_eq!(unp, sw + 2);
    assert_eq!(at(&r, 0, "ttsetdmareg 0, 0, 0, 4", 0), unp + 4 + 1);
}

// docs/wait-gate.md pattern 8: SEMPOST only once FPU and SFPU are done; SETC16 after the last SFPU op.
#[test]
fn pattern8_post_after_math_and_sfpu() {
    let r = example("pattern8");
    ok(&r);
    let sfp0 = at(&r, 1, "ttsfpmad 0, 0, 0, 0, 0", 0);
    let post = at(&r, 1, "ttsempost 2", 0);
    assert!(post > sfp0 + 2);
    let sfp1 = at(&r, 1, "ttsfpmad 0, 0, 0, 0, 0", 1);
    assert!(at(&r, 1, "ttsetc16 0, 0", 0) > sfp1 + 2);
    assert_eq!(r.semaphores[1], (1, 2));
}

// deadlock detection lists each thread's blocking instruction (disassembled) and the
// condition it waits on.
#[test]
fn deadlock_reports_threads() {
    let r = example("deadlock");
    let e = r.error.clone().expect("deadlock");
    assert_eq!(e.kind, ErrorKind::Deadlock);
    assert_eq!(e.threads.len(), 2);
    assert_eq!((e.threads[0].thread, e.threads[1].thread), (0, 2));
    assert!(
        e.threads[0].waiting_on.starts_with("ttsempost 16"),
        "{}",
        e.threads[0].waiting_on
    );
    assert!(
        e.threads[0].waiting_on.contains("STALL_ON_ZERO")
            && e.threads[0].waiting_on.contains("sem3=0/1")
    );
    assert!(e.threads[1].waiting_on.contains("sem4=0/1"));
    let j = r.to_json();
    assert_eq!(j["error"]["kind"], "deadlock");
    assert_eq!(j["error"]["threads"][1]["thread"], 2);
}

// A deadlock on a full FIFO: the pusher can never push again, and that is reported too.
#[test]
fn deadlock_with_full_fifo() {
    let mut text = String::from("[t0]\nttsemwait 511, 1, 1\n");
    for _ in 0..40 {
        text.push_str("ttnop\n");
    }
    let p = parse(Arch::Blackhole, "full.tsx", &text).unwrap();
    let r = run(&p, RunOptions::default());
    let e = r.error.expect("deadlock");
    assert_eq!(e.kind, ErrorKind::Deadlock);
    assert!(e.threads[0].waiting_on.starts_with("ttnop"));
}

// docs/mutexes.md: the invalid-index example is reported as a hang naming thread, index, instruction.
#[test]
fn mutex_hang_example_is_reported() {
    let r = example("mutex_hang");
    let e = r.error.clone().expect("hang");
    assert_eq!(
        (e.kind, e.thread, e.word),
        (ErrorKind::Hang, Some(1), Some(w("ttatgetm 1")))
    );
    assert_eq!(r.to_json()["error"]["kind"], "hang");
    assert_eq!(r.mutexes[0], (0, Some(1)));
}

// the cycle limit is its own error kind.
#[test]
fn max_cycles_is_an_error_kind() {
    let p = parse(Arch::Blackhole, "x.tsx", "[t0]\nttnop\nttnop\nttnop\n").unwrap();
    let r = run(
        &p,
        RunOptions {
            max_cycles: 2,
            ..RunOptions::default()
        },
    );
    assert_eq!(r.error.map(|e| e.kind), Some(ErrorKind::MaxCycles));
}

// The spec: the JSON object's shape.
#[test]
fn json_shape() {
    let p = parse(
        Arch::Blackhole,
        "x.tsx",
        "sem 1 init 0 max 2\n[t1]\nttatgetm 2\n.word 0x02000000\n",
    )
    .unwrap();
    let r = run(&p, RunOptions::default());
    let j = r.to_json();
    assert_eq!(j["cycles"], r.cycles);
    assert_eq!(j["threads"].as_array().map(|a| a.len()), Some(3));
    assert_eq!(j["threads"][1]["thread"], 1);
    assert_eq!(j["threads"][1]["dispatched"][1]["word"], "0x02000000");
    assert_eq!(j["threads"][1]["dispatched"][1]["insn"], "ttnop");
    assert_eq!(j["threads"][1]["dispatched"][0]["cycle"], 1);
    assert_eq!(j["semaphores"][1]["max"], 2);
    assert_eq!(j["semaphores"].as_array().map(|a| a.len()), Some(8));
    assert_eq!(j["mutexes"]["2"], 1);
    assert!(j["mutexes"]["0"].is_null());
    assert!(j["mutexes"].get("1").is_none());
    assert!(j["error"].is_null());
}

// The spec: parse errors name the file, the line and the reason.
#[test]
fn parse_errors_name_file_line_reason() {
    let cases = [
        ("ttnop\n", 1, "section"),
        ("[t0]\n\nttbogus 1\n", 3, "cannot assemble"),
        ("[t3]\n", 1, "unknown section"),
        ("sem 9 init 0 max 1\n", 1, "not 0-7"),
        ("sem 1 init 16 max 1\n", 1, "not 0-15"),
        ("[t1]\nmopcfg 9 = 1\n", 2, "MopCfg index"),
        ("[t1]\n.word 0x1_0000_0000\n", 2, "32-bit"),
    ];
    for (text, line, reason) in cases {
        let e = parse(Arch::Blackhole, "prog.tsx", text).expect_err(text);
        assert_eq!(e.kind, ErrorKind::Invalid);
        assert!(
            e.message.starts_with(&format!("prog.tsx:{line}: ")),
            "{}",
            e.message
        );
        assert!(e.message.contains(reason), "{}", e.message);
    }
}

// The spec: mopcfg lines program MopCfg before cycle 0; comments are ignored.
#[test]
fn program_mopcfg_and_comments() {
    let text = "[t0]  # unpack thread\nmopcfg 0 = 1\nmopcfg 1 = 2   # inner\nmopcfg 2 = 0x02000000\nmopcfg 3 = 0x02000000\nmopcfg 4 = 0x02000000\nmopcfg 5 = 0x8f000000\nmopcfg 6 = 0x02000000\nmopcfg 7 = 0x60000000\nttmop 1, 0, 0\n";
    let p = parse(Arch::Blackhole, "m.tsx", text).unwrap();
    let r = run(&p, RunOptions::default());
    assert!(r.error.is_none());
    assert_eq!(r.words(0), vec![0x8f00_0000, 0x6000_0000]);
}

// Determinism (docs/execution-model.md EM-2): the same program gives the same log and cycle count.
#[test]
fn runs_are_deterministic() {
    let a = example("pattern4");
    let b = example("pattern4");
    assert_eq!(a.dispatched, b.dispatched);
    assert_eq!(a.cycles, b.cycles);
}
