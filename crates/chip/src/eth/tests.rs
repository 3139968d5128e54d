use super::*;
use crate::system::SystemKind;

fn u32_at(e: &mut Ethernet, c: u8, addr: u64) -> u32 {
    let mut b = [0u8; 4];
    e.read(c, addr, &mut b, 7).unwrap();
    u32::from_le_bytes(b)
}

fn wr(e: &mut Ethernet, c: u8, addr: u64, v: u32) -> Result<(), Refusal> {
    e.write(c, addr, &v.to_le_bytes(), 7)
}

#[test]
fn channel_coordinates_follow_the_alternating_row_1_order() {
    // tt-umd's Blackhole ETH_CORES_NOC0, channel by channel.
    let want = [
        (1, 1),
        (16, 1),
        (2, 1),
        (15, 1),
        (3, 1),
        (14, 1),
        (4, 1),
        (13, 1),
        (5, 1),
        (12, 1),
        (6, 1),
        (11, 1),
        (7, 1),
        (10, 1),
    ];
    let got: Vec<_> = (0..14).map(channel_noc0).collect();
    assert_eq!(got, want);
    assert_eq!(channel_translated(9), (29, 25));
}

#[test]
fn mc5_a_linked_channel_reports_a_trained_link_and_both_ends() {
    let mut e = Ethernet::new(&SystemKind::P300.member(0).unwrap());
    let b = boot_results::BASE as u64;
    assert_eq!(u32_at(&mut e, 2, b), 0xC0DE_A000);
    assert_eq!(u32_at(&mut e, 2, b + 4), 1);
    assert_eq!(u32_at(&mut e, 2, b + 8), 2);
    assert_eq!(u32_at(&mut e, 2, b + 0x204), 1);
    let mut local = [0u8; 28];
    e.read(2, b + 0x3C0, &mut local, 7).unwrap();
    assert_eq!(&local[1..4], &[0, 2, 2]);
    assert_eq!(&local[4..12], &[0x40, 4, 0, 0, 1, 0, 0, 0]);
    assert_eq!(&local[24..28], &[1, 0, 0, 0]);
    let mut remote = [0u8; 28];
    e.read(2, b + 0x3E0, &mut remote, 7).unwrap();
    assert_eq!(&remote[1..4], &[1, 9, 9]);
    assert_eq!(&remote[24..28], &[2, 0, 0, 0]);
    let mut ver = [0u8; 3];
    e.read(2, b + 0x3BC, &mut ver, 7).unwrap();
    assert_eq!(ver, [0, 6, 1]);
    // Core 0 released for the active firmware on a linked channel.
    assert_eq!(u32_at(&mut e, 2, SOFT_RESET), 0x1000);
}

#[test]
fn mc5_an_unlinked_channel_reports_port_down_and_a_harvested_one_is_absent() {
    let mut e = Ethernet::new(&SystemKind::P300.member(0).unwrap());
    let b = boot_results::BASE as u64;
    assert_eq!(u32_at(&mut e, 0, b), 0xC0DE_A000);
    assert_eq!(u32_at(&mut e, 0, b + 4), 2);
    assert_eq!(u32_at(&mut e, 0, SOFT_RESET), 0x1800);
    assert!(!e.present(12));
    let (kind, _) = e.read(12, 0, &mut [0u8; 4], 7).unwrap_err();
    assert_eq!(kind, ErrorKind::Unmapped);
    assert!(!Ethernet::new(&crate::system::Member::default()).present(0));
}

#[test]
fn mc6_data_command_takes_the_l1_bytes_into_the_outbox() {
    let mut e = Ethernet::new(&SystemKind::P300.member(0).unwrap());
    let data: Vec<u8> = (0..64u8).collect();
    e.write(2, 0x1000, &data, 0).unwrap();
    let q = TXQ_BASE; // queue 0
    wr(&mut e, 2, q + TXQ_START_ADDR, 0x1000).unwrap();
    wr(&mut e, 2, q + TXQ_SIZE, 64).unwrap();
    wr(&mut e, 2, q + TXQ_DEST_ADDR, 0x2000).unwrap();
    wr(&mut e, 2, q + TXQ_CMD, CMD_SEND_DATA).unwrap();
    assert_eq!(u32_at(&mut e, 2, q + TXQ_CMD), 0);
    let mut out = Vec::new();
    e.take_sends(&mut out);
    assert_eq!(
        out,
        vec![Send {
            channel: 2,
            cycle: 7,
            payload: Payload::Data {
                dest: 0x2000,
                bytes: data
            }
        }]
    );
    assert!(!e.sends_pending());
}

#[test]
fn mc6_register_command_sends_the_remote_data_word() {
    let mut e = Ethernet::new(&SystemKind::P300.member(1).unwrap());
    let q = TXQ_BASE + TXQ_STRIDE; // queue 1
    wr(&mut e, 9, q + TXQ_DEST_ADDR, 0x3000).unwrap();
    wr(&mut e, 9, q + TXQ_REMOTE_REG_DATA, 0xABCD).unwrap();
    wr(&mut e, 9, q + TXQ_CMD, CMD_WRITE_REG).unwrap();
    let mut out = Vec::new();
    e.take_sends(&mut out);
    assert_eq!(
        out[0].payload,
        Payload::Reg {
            dest: 0x3000,
            value: 0xABCD
        }
    );
    e.deliver(9, &out[0].payload, 0).unwrap();
    assert_eq!(u32_at(&mut e, 9, 0x3000), 0xABCD);
}

#[test]
fn mc7_a_command_on_an_unlinked_channel_names_chip_tile_and_register() {
    let mut e = Ethernet::new(&SystemKind::P300.member(0).unwrap());
    let (kind, m) = wr(&mut e, 0, TXQ_BASE + TXQ_CMD, CMD_SEND_DATA).unwrap_err();
    assert_eq!(kind, ErrorKind::InvalidInput);
    assert_eq!(
        m,
        "chip 0 Ethernet channel 0 (NOC0 (1,1)) register 0xffb90004 (ETH_TXQ_CMD) = 2: the channel has no link"
    );
    let (kind, _) = wr(&mut e, 2, TXQ_BASE + TXQ_START_ADDR, 8)
        .and_then(|()| wr(&mut e, 2, TXQ_BASE + TXQ_CMD, CMD_SEND_DATA))
        .unwrap_err();
    assert_eq!(kind, ErrorKind::AccessRule);
    assert!(!e.sends_pending());
}

// ---- MC-13: the Ethernet cores --------------------------------------------------------------

mod cores {
    use super::*;
    use bhemu_isa::riscv::asm::{bytes, li, lw, spin, sw};
    use bhemu_isa::riscv::Insn;

    const T0: u8 = 5;
    const T1: u8 = 6;
    const T2: u8 = 7;
    const PROGRAM: u32 = 0x2_0000;

    /// `*(u32 *)addr = v` through T1, T2.
    fn store(addr: u32, v: u32) -> Vec<Insn> {
        let mut p = li(T1, v);
        p.extend(li(T2, addr));
        p.push(sw(T1, T2));
        p
    }

    /// `T0 = *(u32 *)addr`.
    fn load(addr: u32) -> Vec<Insn> {
        let mut p = li(T2, addr);
        p.push(lw(T0, T2));
        p
    }

    /// `*(u32 *)addr = T0` through T2.
    fn save_t0(addr: u32) -> Vec<Insn> {
        let mut p = li(T2, addr);
        p.push(sw(T0, T2));
        p
    }

    fn word(e: &mut Ethernet, c: u8, addr: u64, now: u64) -> u32 {
        let mut b = [0u8; 4];
        e.read(c, addr, &mut b, now).unwrap();
        u32::from_le_bytes(b)
    }

    fn p300_chip0() -> Ethernet {
        Ethernet::new(&SystemKind::P300.member(0).unwrap())
    }

    /// Loads `p` at [`PROGRAM`] of channel `c` and releases ERISC1 there at cycle `now`.
    fn run_erisc1(e: &mut Ethernet, c: u8, p: &[Insn], now: u64) {
        e.write(c, u64::from(PROGRAM), &bytes(p), now).unwrap();
        e.write(c, RESET_PC[1], &PROGRAM.to_le_bytes(), now)
            .unwrap();
        // ERISC0 stays with the base firmware (bit 11 clear), ERISC1 is released.
        e.write(c, SOFT_RESET, &0u32.to_le_bytes(), now).unwrap();
    }

    #[test]
    fn mc13_erisc1_starts_at_its_reset_pc_when_released_and_holds_when_reset() {
        let mut e = p300_chip0();
        assert_eq!(e.core(2, 1).map(EthCore::state), Some(EthCoreState::Held));
        assert_eq!(
            e.core(2, 0).map(EthCore::state),
            Some(EthCoreState::BaseFirmware)
        );
        let mut p = store(0x3_0000, 0xCAFE);
        p.push(spin());
        run_erisc1(&mut e, 2, &p, 0);
        assert_eq!(
            word(&mut e, 2, 0x3_0000, 0),
            0,
            "nothing runs before its cycles pass"
        );
        e.advance(100).unwrap();
        let mut b = [0u8; 4];
        e.read(2, 0x3_0000, &mut b, 100).unwrap();
        assert_eq!(u32::from_le_bytes(b), 0xCAFE);
        let spin_pc = PROGRAM + 4 * (p.len() as u32 - 1);
        assert_eq!(e.core(2, 1).map(EthCore::pc), Some(spin_pc));
        // Bit 12 set again: held, and the pc stays where it was.
        e.write(2, SOFT_RESET, &0x1000u32.to_le_bytes(), 100)
            .unwrap();
        assert_eq!(e.core(2, 1).map(EthCore::state), Some(EthCoreState::Held));
        e.advance(200).unwrap();
        assert_eq!(e.core(2, 1).map(EthCore::pc), Some(spin_pc));
    }

    #[test]
    fn mc13_a_core_reads_the_ptp_timer_and_sends_over_its_link() {
        let mut e = p300_chip0();
        e.advance(10_000).unwrap();
        let src = 0x4_0000u32;
        e.write(2, u64::from(src), &[0x5A; 16], 10_000).unwrap();
        let mut p = load(u32::try_from(PTP_TIMER_LO).unwrap());
        let ptp_at = p.len() as u64 - 1;
        p.extend(save_t0(0x3_0000));
        let q = u32::try_from(TXQ_BASE).unwrap();
        p.extend(store(q + TXQ_START_ADDR as u32, src));
        p.extend(store(q + TXQ_SIZE as u32, 16));
        p.extend(store(q + TXQ_DEST_ADDR as u32, 0x5_0000));
        p.extend(store(q + TXQ_CMD as u32, CMD_SEND_DATA));
        let cmd_at = p.len() as u64 - 1;
        p.push(spin());
        run_erisc1(&mut e, 2, &p, 10_000);
        e.advance(10_100).unwrap();
        // The load ran at cycle 10 000 + its index; PTP ticks are 27 cycles (20 ns).
        assert_eq!(
            u64::from(word(&mut e, 2, 0x3_0000, 10_100)),
            (10_000 + ptp_at) / 27
        );
        let mut sent = Vec::new();
        e.take_sends(&mut sent);
        assert_eq!(
            sent,
            vec![Send {
                channel: 2,
                cycle: 10_000 + cmd_at,
                payload: Payload::Data {
                    dest: 0x5_0000,
                    bytes: vec![0x5A; 16]
                },
            }]
        );
    }

    #[test]
    fn mc13_release_core_starts_erisc0_and_its_return_goes_back_to_the_base_firmware() {
        let mut e = p300_chip0();
        let mut p = store(0x3_0008, 0x600D);
        p.push(Insn::Jalr {
            rd: 0,
            rs1: 1,
            offset: 0,
        });
        e.write(2, u64::from(PROGRAM), &bytes(&p), 0).unwrap();
        e.write(2, 0x7D004, &PROGRAM.to_le_bytes(), 0).unwrap();
        e.write(2, 0x7D000, &0xCA11_0002u32.to_le_bytes(), 0)
            .unwrap();
        assert_eq!(word(&mut e, 2, 0x7D000, 0), 0xD0E5_0002, "answered done");
        assert_eq!(word(&mut e, 2, 0x7D004, 0), 0, "arguments cleared");
        assert_eq!(
            e.core(2, 0).map(EthCore::state),
            Some(EthCoreState::Running)
        );
        assert_eq!(
            e.core(2, 0).map(|k| k.reg(2)),
            Some(0xFFB0_2000),
            "sp at the top of local memory"
        );
        e.advance(50).unwrap();
        let mut b = [0u8; 4];
        e.read(2, 0x3_0008, &mut b, 50).unwrap();
        assert_eq!(u32::from_le_bytes(b), 0x600D);
        assert_eq!(
            e.core(2, 0).map(EthCore::state),
            Some(EthCoreState::BaseFirmware)
        );
        // Another call the stand-in does not answer is refused by name.
        let (kind, m) = e
            .write(2, 0x7D010, &0xCA11_0006u32.to_le_bytes(), 50)
            .unwrap_err();
        assert_eq!(kind, ErrorKind::Unimplemented);
        assert!(
            m.contains("message 0xca110006") && m.contains("RELEASE_CORE"),
            "{m}"
        );
    }

    #[test]
    fn mc13_a_core_reads_the_wall_clock_and_keeps_its_custom_csrs() {
        let mut e = p300_chip0();
        e.advance(5_000).unwrap();
        let mut p = load(0xFFB1_21F0);
        let at = p.len() as u64 - 1;
        p.extend(save_t0(0x3_0000));
        // csrw 0x7c0, t0 (the wall clock's low word); csrr t1, 0x7c0
        p.push(Insn::Csr {
            op: bhemu_isa::riscv::CsrOp::Rw,
            rd: 0,
            csr: 0x7C0,
            src: T0,
        });
        p.push(Insn::Csr {
            op: bhemu_isa::riscv::CsrOp::Rs,
            rd: T1,
            csr: 0x7C0,
            src: 0,
        });
        p.extend(li(T2, 0x3_0004));
        p.push(sw(T1, T2));
        p.push(spin());
        run_erisc1(&mut e, 2, &p, 5_000);
        e.advance(5_100).unwrap();
        assert_eq!(
            u64::from(word(&mut e, 2, 0x3_0000, 5_100)),
            5_000 + at,
            "the chip cycle"
        );
        assert_eq!(
            u64::from(word(&mut e, 2, 0x3_0004, 5_100)),
            5_000 + at,
            "0x7c0 reads back"
        );
    }

    #[test]
    fn mc13_a_core_reads_its_nius_and_a_request_is_refused_by_name() {
        let mut e = p300_chip0();
        // NOC_ID_LOGICAL of NoC 0 (translated (22, 25)) and NOC_NODE_ID of NoC 1 (raw NoC 0
        // (2, 1) mirrored on the 17 x 12 grid: (14, 10)).
        let mut p = load(0xFFB2_0148);
        p.extend(save_t0(0x3_0000));
        p.extend(load(0xFFB3_0044));
        p.extend(save_t0(0x3_0004));
        // NOC_CMD_CTRL of NoC 0 command buffer 0 = 1: issue.
        p.extend(store(0xFFB2_0040, 1));
        let issue_pc = PROGRAM + 4 * (p.len() as u32 - 1);
        run_erisc1(&mut e, 2, &p, 0);
        let (c, (kind, m)) = e.advance(100).unwrap_err();
        assert_eq!(word(&mut e, 2, 0x3_0000, 100), 22 | 25 << 6);
        let node1 = word(&mut e, 2, 0x3_0004, 100);
        assert_eq!((node1 & 0x3F, node1 >> 6 & 0x3F), (14, 10));
        assert_eq!((c, kind), (2, ErrorKind::Unimplemented));
        assert!(
            m.starts_with(&format!("ERISC1 at pc {issue_pc:#010x}")),
            "{m}"
        );
        assert!(m.contains("NoC 0 command buffer 0 issued a request"), "{m}");
    }

    #[test]
    fn mc13_the_base_firmware_api_table_points_at_functions_that_return() {
        let mut e = p300_chip0();
        let table = boot_results::API_TABLE as u64;
        for f in 0..boot_results::API_FUNCTIONS as u64 {
            let target = word(&mut e, 2, table + 4 * f, 0);
            assert_eq!(
                word(&mut e, 2, u64::from(target), 0),
                0x8067,
                "entry {f}: ret"
            );
        }
        // A kernel calls eth_link_status_check (entry 2) and goes on.
        let mut p = load(table as u32 + 8);
        p.push(Insn::Jalr {
            rd: 1,
            rs1: T0,
            offset: 0,
        });
        p.extend(store(0x3_000C, 0x1));
        p.push(spin());
        run_erisc1(&mut e, 2, &p, 0);
        e.advance(100).unwrap();
        assert_eq!(word(&mut e, 2, 0x3_000C, 100), 1, "back from the call");
    }

    #[test]
    fn mc13_an_access_bhemu_does_not_model_faults_naming_core_pc_and_address() {
        let mut e = p300_chip0();
        let p = load(0xFFB9_800C);
        let pc = PROGRAM + 4 * (p.len() as u32 - 1);
        run_erisc1(&mut e, 2, &p, 0);
        let (c, (kind, m)) = e.advance(10).unwrap_err();
        eprintln!("{m}");
        assert_eq!(c, 2);
        assert_eq!(kind, ErrorKind::Exception);
        assert!(m.starts_with(&format!("ERISC1 at pc {pc:#010x}")), "{m}");
        assert!(m.contains("0xffb9800c"), "{m}");
        assert_eq!(
            e.core(2, 1).map(EthCore::state),
            Some(EthCoreState::Faulted)
        );
    }
}
