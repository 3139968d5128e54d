use super::*;

#[test]
fn mc1_unknown_system_is_refused_naming_the_choices() {
    let e = SystemKind::parse("p301").unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidInput);
    assert_eq!(
        e.message,
        "unknown system 'p301': choose p150, p300 or galaxy"
    );
    assert_eq!(SystemKind::parse(" P300 "), Ok(SystemKind::P300));
    assert_eq!(SystemKind::parse("galaxy"), Ok(SystemKind::Galaxy));
}

#[test]
fn mc1_p150_is_one_chip_without_links_and_its_member_is_the_default() {
    assert_eq!(SystemKind::default(), SystemKind::P150);
    assert_eq!(SystemKind::P150.chips(), 1);
    assert!(SystemKind::P150.links().is_empty());
    assert_eq!(SystemKind::P150.member(0), Ok(Member::default()));
    // p150 board: type 0x40 in bits 36-55.
    assert_eq!(Member::default().board_id, 0x400_0000_0001);
    assert_eq!(Member::default().enabled_eth, 0);
}

#[test]
fn mc4_p300_links_join_channels_2_3_of_chip_0_to_9_8_of_chip_1() {
    let m0 = SystemKind::P300.member(0).unwrap();
    let m1 = SystemKind::P300.member(1).unwrap();
    let peer = |m: &Member, c: usize| m.peers[c].map(|p| (p.port.chip, p.port.channel));
    assert_eq!(peer(&m0, 2), Some((1, 9)));
    assert_eq!(peer(&m0, 3), Some((1, 8)));
    assert_eq!(peer(&m1, 9), Some((0, 2)));
    assert_eq!(peer(&m1, 8), Some((0, 3)));
    let linked = |m: &Member| m.peers.iter().filter(|p| p.is_some()).count();
    assert_eq!((linked(&m0), linked(&m1)), (2, 2));
    assert_eq!((m0.asic_location, m1.asic_location), (0, 1));
    assert_eq!(m0.board_id, 0x440_0000_0001);
    assert_eq!((m0.pcie_usage, m1.pcie_usage), (1, 4));
    assert_eq!(m0.enabled_eth, 0x0FFF);
}

#[test]
fn mc7_a_chip_the_system_lacks_is_refused_naming_it() {
    let e = SystemKind::P300.member(2).unwrap_err();
    assert_eq!(e.message, "chip 2: a p300 has chips 0 to 1");
    let bad = [Link {
        a: Port {
            chip: 0,
            channel: 2,
        },
        b: Port {
            chip: 5,
            channel: 9,
        },
    }];
    let e = check_links(SystemKind::P300, &bad).unwrap_err();
    assert_eq!(e.message, "link to chip 5 channel 9: a p300 has no chip 5");
}

#[test]
fn mc8_galaxy_is_an_8x4_mesh_with_two_channels_per_neighbour() {
    let links = SystemKind::Galaxy.links();
    // 8 rows x 3 east-west pairs + 7 x 4 north-south pairs, two channels each.
    assert_eq!(links.len(), 2 * (8 * 3 + 7 * 4));
    assert_eq!(check_links(SystemKind::Galaxy, &links), Ok(()));
    let degree = |chip: u32| {
        links
            .iter()
            .filter(|l| l.a.chip == chip || l.b.chip == chip)
            .count()
    };
    assert_eq!(degree(0), 4); // corner: east and south
    assert_eq!(degree(1), 6); // top edge
    assert_eq!(degree(5), 8); // interior
                              // Chip 5 (row 1, column 1): north to chip 1, east to 6, west to 4, south to 9.
    let m = SystemKind::Galaxy.member(5).unwrap();
    let to = |c: usize| m.peers[c].map(|p| (p.port.chip, p.port.channel));
    assert_eq!(to(0), Some((1, 6)));
    assert_eq!(to(1), Some((1, 7)));
    assert_eq!(to(2), Some((6, 4)));
    assert_eq!(to(4), Some((4, 2)));
    assert_eq!(to(6), Some((9, 0)));
    assert_eq!(m.board_id >> 36, 0x47);
}
