//! Unit tests of the packer's rules that need no coprocessor.
use super::*;

#[test]
fn packer_edge_mask_zeroes_columns_by_tile_row() {
    // Row 0 uses mask set 0 (only column 0), rows 1-15 set 1 (every column); two rows per
    // plane, so the third row of 16 datums is row 0 again.
    let edges = EdgeMasks {
        masks: [0x0001, 0xffff, 0, 0],
        mapping: 0x5555_5554,
        rows_per_plane: 2,
    };
    let mut pos = (0, 0);
    let kept: Vec<bool> = (0..48).map(|i| edges.keeps(&mut pos, i)).collect();
    for (i, k) in kept.iter().enumerate() {
        let want = match i / 16 {
            1 => true,
            _ => i % 16 == 0,
        };
        assert_eq!(*k, want, "datum {i}");
    }
    assert_eq!(pos, (0, 1));
    // The column is the datum's place in the instruction, not in the tile position.
    let mut pos = (3, 0);
    assert!(edges.keeps(&mut pos, 0));
    assert!(!edges.keeps(&mut pos, 1));
}
