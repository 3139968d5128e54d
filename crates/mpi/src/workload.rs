//! What `bhemu-mpi` runs on every chip of a system, and what it reports per chip.
//!
//! Every BRISC counts down a loop whose length depends on its tile and chip, stores the cycle
//! it finished at and a flag, and spins; meanwhile each chip's host sends 64 bytes (depending
//! on chip and channel) from every linked Ethernet channel to the peer's L1 through TX queue 0
//! (docs/multi-chip.md MC-6). The chips then run a fixed number of cycles; each chip's report
//! is its cycle, its state digest, how many tiles finished, and how many of the payloads due
//! at its channels arrived intact.
use std::fmt;
use std::ops::Range;

use bhemu_chip::eth::{
    channel_translated, TXQ_BASE, TXQ_CMD, TXQ_DEST_ADDR, TXQ_SIZE, TXQ_START_ADDR,
};
use bhemu_chip::system::lockstep::{self, Exchange};
use bhemu_chip::system::Wires;
use bhemu_chip::{grid, Chip, ChipConfig, ChipError, NocIndex, SystemKind};
use bhemu_isa::riscv::asm::{addi, bytes, li, spin, sw};
use bhemu_isa::riscv::{BranchOp, CsrOp, Insn};

/// Where each BRISC stores the cycle it finished at, and its done flag.
const STAMP: u32 = 0x30000;
const DONE: u32 = 0x30004;
/// Where a payload lies in the sending Ethernet tile's L1, and where it lands in the peer's.
const SRC: u32 = 0x4_0000;
const DST: u32 = 0x5_0000;
const PAYLOAD: usize = 64;

const T0: u8 = 5;
const T1: u8 = 6;
const T2: u8 = 7;

/// BRISC program of tile `tile` of chip `chip`.
pub fn program(tile: usize, chip: u32) -> Vec<u8> {
    let n = 200 + 37 * ((tile as u32 * 7 + chip * 13) % 50);
    let mut p = li(T0, n);
    p.push(addi(T0, T0, -1));
    p.push(Insn::Branch {
        op: BranchOp::Bne,
        rs1: T0,
        rs2: 0,
        offset: -4,
    });
    p.push(Insn::Csr {
        op: CsrOp::Rs,
        rd: T1,
        csr: 0xB00,
        src: 0,
    });
    p.extend(li(T2, STAMP));
    p.push(sw(T1, T2));
    p.extend(li(T1, 1));
    p.extend(li(T2, DONE));
    p.push(sw(T1, T2));
    p.push(spin());
    bytes(&p)
}

/// The bytes chip `chip` sends from its channel `channel`.
pub fn payload(chip: u32, channel: u8) -> Vec<u8> {
    (0..PAYLOAD as u32)
        .map(|b| (b.wrapping_mul(7) ^ (chip * 31 + u32::from(channel) * 5)) as u8)
        .collect()
}

/// Chip `chip` of `system` with `tiles` (as `--tiles` takes them), its tiles on `threads`
/// host threads: programs loaded, BRISCs released, a send queued on every linked channel.
pub fn build(
    system: SystemKind,
    chip: u32,
    tiles: &str,
    threads: usize,
) -> Result<Chip, ChipError> {
    let member = system.member(chip)?;
    let mut c = Chip::new(&ChipConfig {
        tiles: grid::parse_tiles(tiles)?,
        member: member.clone(),
        ..ChipConfig::default()
    })?;
    c.set_threads(threads);
    let xy: Vec<(u8, u8)> = c.tiles().iter().map(|t| (t.node().x, t.node().y)).collect();
    for (i, &(x, y)) in xy.iter().enumerate() {
        c.write_l1(x, y, 0, &program(i, chip))?;
        c.write_reg(x, y, 0xFFB1_21B0, 0x47000)?;
    }
    for (ch, peer) in member.peers.iter().enumerate() {
        if peer.is_some() {
            let ch = ch as u8;
            let (x, y) = channel_translated(ch);
            let (x, y) = (u32::from(x), u32::from(y));
            c.host_write(NocIndex::Noc0, x, y, u64::from(SRC), &payload(chip, ch))?;
            for (reg, v) in [
                (TXQ_START_ADDR, SRC),
                (TXQ_SIZE, PAYLOAD as u32),
                (TXQ_DEST_ADDR, DST),
                (TXQ_CMD, 2),
            ] {
                c.host_write(NocIndex::Noc0, x, y, TXQ_BASE + reg, &v.to_le_bytes())?;
            }
        }
    }
    Ok(c)
}

/// One chip's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub chip: u32,
    pub cycle: u64,
    pub digest: u64,
    pub tiles_done: usize,
    pub tiles: usize,
    pub arrived: usize,
    pub links: usize,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "chip {}: cycle {}, {}/{} tiles done, {}/{} link payloads arrived, digest {:016x}",
            self.chip,
            self.cycle,
            self.tiles_done,
            self.tiles,
            self.arrived,
            self.links,
            self.digest
        )
    }
}

/// Chip `chip`'s report after its run.
pub fn outcome(system: SystemKind, chip: u32, c: &mut Chip) -> Result<Outcome, ChipError> {
    let member = system.member(chip)?;
    let tiles_done = c
        .tiles()
        .iter()
        .filter(|t| t.read_l1_u32(DONE).ok() == Some(1))
        .count();
    let mut arrived = 0;
    let mut links = 0;
    for (ch, peer) in member.peers.iter().enumerate() {
        let Some(peer) = peer else { continue };
        links += 1;
        let (x, y) = channel_translated(ch as u8);
        let mut got = vec![0u8; PAYLOAD];
        c.host_read(
            NocIndex::Noc0,
            u32::from(x),
            u32::from(y),
            u64::from(DST),
            &mut got,
        )?;
        if got == payload(peer.port.chip, peer.port.channel) {
            arrived += 1;
        }
    }
    Ok(Outcome {
        chip,
        cycle: c.cycle(),
        digest: c.digest()?.total(),
        tiles_done,
        tiles: c.tiles().len(),
        arrived,
        links,
    })
}

/// Builds the chips `ids` of `system`, runs them `cycles` cycles in lockstep with the rest of
/// the system (through `x`), and reports each.
pub fn run(
    system: SystemKind,
    ids: Range<usize>,
    tiles: &str,
    threads: usize,
    cycles: u64,
    x: &mut impl Exchange,
) -> Result<Vec<Outcome>, ChipError> {
    let (chip_threads, tile_threads) = lockstep::share_threads(threads, ids.len());
    let mut chips = ids
        .clone()
        .map(|i| build(system, i as u32, tiles, tile_threads))
        .collect::<Result<Vec<Chip>, ChipError>>()?;
    let ids: Vec<u32> = ids.map(|i| i as u32).collect();
    let end = vec![cycles; chips.len()];
    let mut wires = Wires::new(system);
    lockstep::run_shared(&mut wires, &mut chips, &ids, &end, chip_threads, x)?;
    chips
        .iter_mut()
        .zip(&ids)
        .map(|(c, &i)| outcome(system, i, c))
        .collect()
}
