//! The debugger API on hand-encoded programs (encodings from the RISC-V unprivileged ISA's
//! base opcode map, written out here rather than produced by the assembler under test).
use super::*;
use crate::chip::ChipConfig;
use crate::host::{SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN};
use bhemu_noc::NodeId;

const ADDI_X5_X0_7: u32 = 0x0070_0293;
const LUI_X6_0X30: u32 = 0x0003_0337; // x6 = 0x30000
const SW_X5_0_X6: u32 = 0x0053_2023;
const LW_X7_0_X6: u32 = 0x0003_2383;
const ADDI_X5_X5_1: u32 = 0x0012_8293;
const JAL_X0_0: u32 = 0x0000_006F;
const JAL_X0_MINUS4: u32 = 0xFFDF_F06F; // jal x0, -4
const EBREAK: u32 = 0x0010_0073;

/// x5 = 7; *0x30000 = x5; x7 = *0x30000; x5 += 1; spin.
const PROGRAM: [u32; 6] = [
    ADDI_X5_X0_7,
    LUI_X6_0X30,
    SW_X5_0_X6,
    LW_X7_0_X6,
    ADDI_X5_X5_1,
    JAL_X0_0,
];

fn brisc(x: u8, y: u8) -> HartRef {
    HartRef {
        x,
        y,
        core: Core::Brisc,
    }
}

/// A chip with `tiles`, each BRISC running `prog` from L1 0.
fn chip_with(tiles: &[(u8, u8)], prog: &[u32], schedule: Schedule) -> Chip {
    let mut chip = Chip::new(&ChipConfig {
        tiles: tiles.iter().map(|&(x, y)| NodeId::new(x, y)).collect(),
        ..ChipConfig::default()
    })
    .unwrap();
    chip.set_schedule(schedule).unwrap();
    for &(x, y) in tiles {
        let bytes: Vec<u8> = prog.iter().flat_map(|w| w.to_le_bytes()).collect();
        chip.write_l1(x, y, 0, &bytes).unwrap();
        chip.write_reg(x, y, SOFT_RESET_ADDR, SOFT_RESET_BRISC_RUN)
            .unwrap();
    }
    chip
}

fn never(_: &Chip) -> bool {
    false
}

/// The cycle at which a plain reference-schedule run first shows BRISC of (1,2) at `pc`.
fn reference_cycle_at(pc: u32) -> u64 {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    while chip.tile(1, 2).unwrap().pc(Core::Brisc) != pc {
        chip.tick().unwrap();
        assert!(chip.cycle() < 1000, "never reached 0x{pc:x}");
    }
    chip.cycle()
}

#[test]
fn breakpoint_stops_at_exact_pc_and_cycle() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Fast);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    assert!(d.add_breakpoint(0x0C));
    let stop = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    let cycle = reference_cycle_at(0x0C);
    assert_eq!(
        stop,
        DebugStop::Breakpoint {
            hart: brisc(1, 2),
            pc: 0x0C,
            cycle
        }
    );
    assert_eq!(chip.cycle(), cycle);
    let t = chip.tile(1, 2).unwrap();
    // addi, lui and sw retired; lw not yet.
    assert_eq!(t.hart(Core::Brisc).instret(), 3);
    assert_eq!(t.hart(Core::Brisc).reg(5), 7);
    assert_eq!(t.hart(Core::Brisc).reg(7), 0);
}

#[test]
fn continue_from_a_breakpoint_executes_it() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    d.add_breakpoint(0x0C);
    d.add_breakpoint(0x10);
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert!(matches!(s, DebugStop::Breakpoint { pc: 0x0C, .. }), "{s:?}");
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert!(matches!(s, DebugStop::Breakpoint { pc: 0x10, .. }), "{s:?}");
    assert_eq!(chip.tile(1, 2).unwrap().hart(Core::Brisc).reg(7), 7);
}

#[test]
fn step_retires_exactly_one_instruction() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let h = brisc(1, 2);
    let mut d = Debugger::attach(&mut chip, vec![h]).unwrap();
    for n in 1..=4u64 {
        let s = d.run(&mut chip, Resume::Step(h), 1000, &mut never);
        assert_eq!(s, DebugStop::Stepped { hart: h });
        let hart = chip.tile(1, 2).unwrap().hart(Core::Brisc);
        assert_eq!(hart.instret(), n);
        assert_eq!(hart.pc(), 4 * n as u32);
    }
}

#[test]
fn memory_read_equals_l1_content() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    d.add_breakpoint(0x10);
    d.run(&mut chip, Resume::Continue, 1000, &mut never);
    let t = chip.tile(1, 2).unwrap();
    let mut got = [0u8; 4];
    read_memory(t, Core::Brisc, 0x30000, &mut got).unwrap();
    assert_eq!(u32::from_le_bytes(got), 7);
    assert_eq!(t.read_l1_u32(0x30000).unwrap(), 7);
    let mut code = [0u8; 24];
    read_memory(t, Core::Brisc, 0, &mut code).unwrap();
    let want: Vec<u8> = PROGRAM.iter().flat_map(|w| w.to_le_bytes()).collect();
    assert_eq!(code.to_vec(), want);
}

#[test]
fn memory_read_of_mmio_is_refused() {
    let chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let t = chip.tile(1, 2).unwrap();
    let mut b = [0u8; 4];
    let e = read_memory(t, Core::Brisc, 0xFFB1_21B0, &mut b).unwrap_err();
    assert!(e.message.contains("0xffb121b0"), "{}", e.message);
    assert!(
        e.message.contains("only L1 and local data RAM"),
        "{}",
        e.message
    );
}

#[test]
fn memory_write_replaces_code_the_hart_then_executes() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let h = brisc(1, 2);
    let mut d = Debugger::attach(&mut chip, vec![h]).unwrap();
    d.run(&mut chip, Resume::Step(h), 1000, &mut never);
    // Replace `lui x6, 0x30` by `ebreak`.
    let t = chip.tile_mut(1, 2).unwrap();
    write_memory(t, Core::Brisc, 4, &EBREAK.to_le_bytes()).unwrap();
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert_eq!(s, DebugStop::Halted { hart: h });
    // The hart took the new word: x6 was never loaded by the overwritten `lui`.
    assert_eq!(chip.tile(1, 2).unwrap().hart(Core::Brisc).reg(6), 0);
    assert_eq!(chip.tile(1, 2).unwrap().hart(Core::Brisc).instret(), 2);
}

#[test]
fn write_watchpoint_stops_after_the_store() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    d.add_watchpoint(0x30000, 4, WatchKind::Write);
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert_eq!(
        s,
        DebugStop::Watchpoint {
            hart: brisc(1, 2),
            addr: 0x30000,
            kind: WatchKind::Write
        }
    );
    let t = chip.tile(1, 2).unwrap();
    assert_eq!(t.pc(Core::Brisc), 0x0C);
    assert_eq!(t.read_l1_u32(0x30000).unwrap(), 7);
}

#[test]
fn read_watchpoint_stops_after_the_load() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    // A byte inside the watched word is enough.
    d.add_watchpoint(0x30002, 1, WatchKind::Read);
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert_eq!(
        s,
        DebugStop::Watchpoint {
            hart: brisc(1, 2),
            addr: 0x30002,
            kind: WatchKind::Read
        }
    );
    let t = chip.tile(1, 2).unwrap();
    assert_eq!(t.pc(Core::Brisc), 0x10);
    assert_eq!(t.hart(Core::Brisc).reg(7), 7);
    assert!(d.remove_watchpoint(0x30002, 1, WatchKind::Read));
    assert_eq!(
        d.run(&mut chip, Resume::Continue, 50, &mut never),
        DebugStop::CycleLimit
    );
}

#[test]
fn access_watchpoint_sees_the_store_first() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    d.add_watchpoint(0x30000, 4, WatchKind::Access);
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert!(
        matches!(
            s,
            DebugStop::Watchpoint {
                kind: WatchKind::Access,
                ..
            }
        ),
        "{s:?}"
    );
    assert_eq!(chip.tile(1, 2).unwrap().pc(Core::Brisc), 0x0C);
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    assert!(
        matches!(
            s,
            DebugStop::Watchpoint {
                kind: WatchKind::Access,
                ..
            }
        ),
        "{s:?}"
    );
    assert_eq!(chip.tile(1, 2).unwrap().pc(Core::Brisc), 0x10);
}

/// All-stop: a breakpoint on one tile stops the whole chip, so an undebugged tile's hart is
/// exactly where a plain reference run has it at the same cycle.
#[test]
fn chip_stops_all_cores() {
    // Tile (2,2) counts x5 up forever: addi x5, x5, 1; jal x0, -4.
    let tiles = [(1, 2), (2, 2)];
    let mut chip = chip_with(&tiles, &PROGRAM, Schedule::Reference);
    let counter = [ADDI_X5_X5_1, JAL_X0_MINUS4];
    let bytes: Vec<u8> = counter.iter().flat_map(|w| w.to_le_bytes()).collect();
    chip.write_l1(2, 2, 0, &bytes).unwrap();
    let mut reference = chip_with(&tiles, &PROGRAM, Schedule::Reference);
    reference.write_l1(2, 2, 0, &bytes).unwrap();

    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    d.add_breakpoint(0x10);
    let s = d.run(&mut chip, Resume::Continue, 1000, &mut never);
    let DebugStop::Breakpoint { cycle, .. } = s else {
        panic!("{s:?}");
    };
    reference.clock(cycle).unwrap();
    let (a, b) = (chip.tile(2, 2).unwrap(), reference.tile(2, 2).unwrap());
    assert_eq!(a.hart(Core::Brisc).instret(), b.hart(Core::Brisc).instret());
    assert_eq!(a.hart(Core::Brisc).reg(5), b.hart(Core::Brisc).reg(5));
    assert_eq!(a.pc(Core::Brisc), b.pc(Core::Brisc));
    assert!(a.hart(Core::Brisc).reg(5) > 0);
}

#[test]
fn em26_attach_uses_the_reference_schedule_and_detach_restores_it() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Fast);
    chip.clock(100).unwrap();
    let d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    assert_eq!(chip.schedule(), Schedule::Reference);
    d.detach(&mut chip).unwrap();
    assert_eq!(chip.schedule(), Schedule::Fast);
}

#[test]
fn attach_to_a_missing_tile_is_an_error() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let e = Debugger::attach(&mut chip, vec![brisc(3, 3)])
        .err()
        .unwrap();
    assert!(e.message.contains("(3,3)"), "{}", e.message);
}

#[test]
fn done_condition_ends_the_run() {
    let mut chip = chip_with(&[(1, 2)], &PROGRAM, Schedule::Reference);
    let mut d = Debugger::attach(&mut chip, vec![brisc(1, 2)]).unwrap();
    let mut done = |c: &Chip| c.tile(1, 2).map(|t| t.pc(Core::Brisc)) == Some(0x14);
    assert_eq!(
        d.run(&mut chip, Resume::Continue, 1000, &mut done),
        DebugStop::Done
    );
}
