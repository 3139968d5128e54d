//! Chip-level tests: the scheduler and NoC traffic from programs running on tiles.
mod common;
use bhemu_chip::{grid, Chip, ChipConfig, Core, CoreState, ErrorKind};
use bhemu_isa::riscv::{encode, Insn, LoadOp, StoreOp};
use common::{li, T0, T1, T2};

fn store(addr: u32, value: u32) -> Vec<Insn> {
    let mut v = li(T0, addr);
    v.extend(li(T1, value));
    v.push(Insn::Store {
        op: StoreOp::Sw,
        rs1: T0,
        rs2: T1,
        offset: 0,
    });
    v
}
/// Spin while `*addr == 0`... expressed as: t2 = *addr; beq t2, x0, -4.
fn wait_nonzero(addr: u32) -> Vec<Insn> {
    let mut v = li(T0, addr);
    v.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T2,
        rs1: T0,
        offset: 0,
    });
    v.push(Insn::Branch {
        op: bhemu_isa::riscv::BranchOp::Beq,
        rs1: T2,
        rs2: 0,
        offset: -4,
    });
    v
}
fn spin() -> Insn {
    Insn::Jal { rd: 0, offset: 0 }
}
fn bytes(p: &[Insn]) -> Vec<u8> {
    p.iter().flat_map(|i| encode(i).to_le_bytes()).collect()
}

fn chip(tiles: &str) -> Chip {
    let cfg = ChipConfig {
        tiles: grid::parse_tiles(tiles).expect("tiles"),
        ..ChipConfig::default()
    };
    Chip::new(&cfg).expect("chip")
}

const CB0: u32 = 0xFFB2_0000;
const CB1: u32 = 0xFFB2_0800;

/// BRISC of (1,2) writes 16 bytes of L1 to DRAM bank 5 through NoC 0 (command buffer 0), waits
/// for the write ack counter, reads them back into L1 with buffer 1 and waits for the read
/// response counter (docs/blackhole-facts.md §5-6; MemoryMap.md, Counters.md).
fn dram_roundtrip_program() -> Vec<Insn> {
    let dram = (15u32 << 6) | 18; // bank 5 port 0: x 17 + 5/4, y 12 + 3*(5%4)
    let me = (2u32 << 6) | 1;
    let mut p = Vec::new();
    p.extend(store(CB0 + 0x1C, 2 | (1 << 4) | (1 << 7))); // WR | RESP_MARKED | VC_STATIC
    p.extend(store(CB0, 0x2000));
    p.extend(store(CB0 + 0x08, me));
    p.extend(store(CB0 + 0x0C, 0x4_0000));
    p.extend(store(CB0 + 0x14, dram));
    p.extend(store(CB0 + 0x20, 16));
    p.extend(store(CB0 + 0x40, 1));
    p.extend(wait_nonzero(0xFFB2_0204)); // NIU_MST_WR_ACK_RECEIVED
    p.extend(store(CB1 + 0x1C, (1 << 4) | (1 << 7))); // RD | RESP_MARKED | VC_STATIC
    p.extend(store(CB1, 0x4_0000));
    p.extend(store(CB1 + 0x08, dram));
    p.extend(store(CB1 + 0x0C, 0x3000));
    p.extend(store(CB1 + 0x14, me));
    p.extend(store(CB1 + 0x20, 16));
    p.extend(store(CB1 + 0x40, 1));
    p.extend(wait_nonzero(0xFFB2_0208)); // NIU_MST_RD_RESP_RECEIVED
    p.extend(store(0x2100, 1));
    p.push(spin());
    p
}

/// DRAM reads and writes through the NoC from a tile.
#[test]
fn tile_writes_and_reads_dram_through_the_noc() {
    let mut c = chip("1,2");
    let data: Vec<u8> = (0u8..16).map(|i| 0xA0 + i).collect();
    c.write_l1(1, 2, 0, &bytes(&dram_roundtrip_program()))
        .expect("program");
    c.write_l1(1, 2, 0x2000, &data).expect("data");
    c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
    let done = c
        .run_until(2000, |c| {
            c.tile(1, 2).and_then(|t| t.read_l1_u32(0x2100).ok()) == Some(1)
        })
        .expect("run");
    assert!(done);
    let mut d = [0u8; 16];
    c.dram().read(5, 0x4_0000, &mut d).expect("dram");
    assert_eq!(&d[..], &data[..]);
    let mut back = [0u8; 16];
    c.read_l1(1, 2, 0x3000, &mut back).expect("l1");
    assert_eq!(&back[..], &data[..]);
    // Other channels are untouched (channels are separate address spaces, dram.rs).
    c.dram().read(4, 0x4_0000, &mut d).expect("dram");
    assert_eq!(d, [0u8; 16]);
}

/// docs/execution-model.md: deterministic — the same program takes the same number of cycles every
/// run.
#[test]
fn runs_are_deterministic() {
    let mut cycles = Vec::new();
    for _ in 0..2 {
        let mut c = chip("1,2;16,11");
        c.write_l1(1, 2, 0, &bytes(&dram_roundtrip_program()))
            .expect("program");
        c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
        c.run_until(2000, |c| {
            c.tile(1, 2).and_then(|t| t.read_l1_u32(0x2100).ok()) == Some(1)
        })
        .expect("run");
        cycles.push(c.cycle());
        // The other tile never left reset.
        assert_eq!(
            c.tile(16, 11).map(|t| t.core_state(Core::Brisc)),
            Some(CoreState::Reset)
        );
    }
    assert_eq!(cycles[0], cycles[1]);
}

/// Tile to tile: BRISC of (1,2) writes into the L1 of (16,11).
#[test]
fn tile_writes_another_tiles_l1() {
    let mut c = chip("1,2;16,11");
    let me = (2u32 << 6) | 1;
    let other = (11u32 << 6) | 16;
    let mut p = Vec::new();
    p.extend(store(0x2000, 0x1234_5678));
    p.extend(store(CB0 + 0x1C, 2 | (1 << 4) | (1 << 7)));
    p.extend(store(CB0, 0x2000));
    p.extend(store(CB0 + 0x08, me));
    p.extend(store(CB0 + 0x0C, 0x5000));
    p.extend(store(CB0 + 0x14, other));
    p.extend(store(CB0 + 0x20, 16));
    p.extend(store(CB0 + 0x40, 1));
    p.extend(wait_nonzero(0xFFB2_0204));
    p.push(spin());
    c.write_l1(1, 2, 0, &bytes(&p)).expect("program");
    c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
    c.clock(200).expect("run");
    assert_eq!(
        c.tile(16, 11).and_then(|t| t.read_l1_u32(0x5000).ok()),
        Some(0x1234_5678)
    );
}

/// A bad NoC request is a typed NoC error naming the tile.
#[test]
fn noc_error_is_typed() {
    let mut c = chip("1,2");
    let mut p = Vec::new();
    p.extend(store(CB0 + 0x1C, 2 | (1 << 4)));
    p.extend(store(CB0 + 0x14, (5 << 6) | 8)); // (8,5): no node there (x 8 holds CPUs, not modelled)
    p.extend(store(CB0 + 0x20, 16));
    p.extend(store(CB0 + 0x40, 1));
    p.push(spin());
    c.write_l1(1, 2, 0, &bytes(&p)).expect("program");
    c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
    let e = c.clock(200).expect_err("a NoC error");
    assert_eq!(e.kind, ErrorKind::Noc);
    assert_eq!(e.loc.tile, Some((1, 2)));
}

/// A hart blocked forever on an empty mailbox with nothing else running is quiescent: the
/// host driver reports a deadlock instead of spending its whole cycle budget.
#[test]
fn blocked_chip_is_quiescent() {
    let mut c = chip("1,2");
    let mut p = li(T0, 0xFFEC_0000); // B reads its own empty loop-back mailbox
    p.push(Insn::Load {
        op: LoadOp::Lw,
        rd: T1,
        rs1: T0,
        offset: 0,
    });
    p.push(spin());
    c.write_l1(1, 2, 0, &bytes(&p)).expect("program");
    c.write_reg(1, 2, 0xFFB1_21B0, 0x47000).expect("release");
    c.clock(10).expect("run");
    assert_eq!(
        c.tile(1, 2).map(|t| t.core_state(Core::Brisc)),
        Some(CoreState::Stalled)
    );
    assert!(c.quiescent());
}

/// `Chip::host_read`/`host_write` route as a NoC request arriving at the node: DRAM channel 0 by
/// its NOC0 ports (0,0), (0,1) and translated (17,12) (blackhole_140_arch.yaml,
/// docs/blackhole-facts.md §4); NoC 1 (15, 9) is NoC 0 (1, 2) (Coordinates.md); a tile's NIU window
/// `NOC_ID_LOGICAL` (MemoryMap.md); the PCIe tile's NoC-to-host window
/// (docs/tt-umd-sim-interface.md §4).
#[test]
fn host_accesses_route_like_noc_requests() {
    use bhemu_chip::{HostWrite, NocIndex, NOC_HOST_WINDOW};
    let mut chip = Chip::new(&ChipConfig::default()).unwrap();
    assert!(chip.translation_enabled());
    let w = chip.host_write(NocIndex::Noc0, 0, 0, 0x100, &[1, 2, 3, 4]);
    assert_eq!(w, Ok(HostWrite::Done));
    for (x, y) in [(0, 1), (17, 12)] {
        let mut b = [0u8; 4];
        assert!(chip.host_read(NocIndex::Noc0, x, y, 0x100, &mut b).is_ok());
        assert_eq!(b, [1, 2, 3, 4], "({x},{y})");
    }
    assert!(chip.host_write(NocIndex::Noc1, 15, 9, 0x40, &[7]).is_ok());
    let mut b = [0u8; 1];
    assert!(chip.read_l1(1, 2, 0x40, &mut b).is_ok());
    assert_eq!(b, [7]);
    let mut b = [0u8; 4];
    assert!(chip
        .host_read(NocIndex::Noc0, 3, 4, 0xFFB2_0000 + 0x100 + 4 * 0x12, &mut b)
        .is_ok());
    assert_eq!(u32::from_le_bytes(b), (4 << 6) | 3);
    assert_eq!(
        chip.host_write(NocIndex::Noc0, 11, 0, NOC_HOST_WINDOW + 8, &[1]),
        Ok(HostWrite::ToHost { addr: 8 })
    );
    let e = chip.host_read(NocIndex::Noc0, 1, 1, 0, &mut b).unwrap_err(); // Ethernet
    assert_eq!(e.kind, ErrorKind::Unmapped);
    // The ARC tile answers the host (boot status "ready"), but not at addresses it lacks.
    assert_eq!(
        chip.host_read(NocIndex::Noc0, 8, 0, 0x8003_0408, &mut b),
        Ok(())
    );
    assert_eq!(u32::from_le_bytes(b) & 7, 5);
    let e = chip.host_read(NocIndex::Noc0, 8, 0, 0, &mut b).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Unimplemented);
    assert_eq!(e.loc.addr, Some(0));
}
