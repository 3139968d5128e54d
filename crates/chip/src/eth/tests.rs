use super::*;
use crate::system::SystemKind;

fn u32_at(e: &mut Ethernet, c: u8, addr: u64) -> u32 {
    let mut b = [0u8; 4];
    e.read(c, addr, &mut b).unwrap();
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
    e.read(2, b + 0x3C0, &mut local).unwrap();
    assert_eq!(&local[1..4], &[0, 2, 2]);
    assert_eq!(&local[4..12], &[0x40, 4, 0, 0, 1, 0, 0, 0]);
    assert_eq!(&local[24..28], &[1, 0, 0, 0]);
    let mut remote = [0u8; 28];
    e.read(2, b + 0x3E0, &mut remote).unwrap();
    assert_eq!(&remote[1..4], &[1, 9, 9]);
    assert_eq!(&remote[24..28], &[2, 0, 0, 0]);
    let mut ver = [0u8; 3];
    e.read(2, b + 0x3BC, &mut ver).unwrap();
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
    let (kind, _) = e.read(12, 0, &mut [0u8; 4]).unwrap_err();
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
