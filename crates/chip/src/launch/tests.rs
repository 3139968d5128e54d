use super::*;

fn kernel(core: Core) -> Arc<KernelImage> {
    Arc::new(KernelImage {
        core,
        file: "k.elf".into(),
        writes: vec![(text_base(core), vec![0; 0x40])],
        functions: vec![(text_base(core), 0x40, "kernel_main".into())],
    })
}

/// `launch_msg_t` fields tt-metal's firmware reads, at the offsets of `dev_msgs.h`
/// (ProgrammableCoreType::COUNT = 4, MaxProcessorsPerCoreType = 5).
#[test]
fn launch_message_fields_for_reader_compute_writer() {
    let mut p = TileProgram {
        x: 1,
        y: 2,
        kernels: vec![
            kernel(Core::Brisc),
            kernel(Core::Ncrisc),
            kernel(Core::Trisc0),
            kernel(Core::Trisc1),
            kernel(Core::Trisc2),
        ],
        ..TileProgram::default()
    };
    p.cbs = vec![
        LocalCb {
            index: 0,
            addr: DATA_BASE,
            pages: 2,
            page_size: 2048,
        },
        LocalCb {
            index: 16,
            addr: DATA_BASE + 4096,
            pages: 2,
            page_size: 2048,
        },
    ];
    let m = launch_message(&p, 9);
    let u32at = |o: usize| u32::from_le_bytes([m[o], m[o + 1], m[o + 2], m[o + 3]]);
    let u16at = |o: usize| u16::from_le_bytes([m[o], m[o + 1]]);
    assert_eq!(u32at(0), 0x2_0000);
    assert_eq!(u16at(16), 0x600);
    assert_eq!(u16at(24), 0x800);
    assert_eq!(u16at(28), 0); // BRISC args
    assert_eq!(u16at(28 + 4 * 4), 0x400); // TRISC2 args
    assert_eq!(m[48], 1);
    assert_eq!(u32at(52), 0x1000); // BRISC text 0x21000
    assert_eq!(u32at(52 + 16), 0x1_1000); // TRISC2 text 0x31000
    assert_eq!(u32at(72), 0x40);
    assert_eq!(
        u64::from_le_bytes(m[96..104].try_into().unwrap()),
        (1 << 0) | (1 << 16)
    );
    assert_eq!(m[106], 64);
    assert_eq!(u32at(108), 9);
    assert_eq!(u32at(112), 0b11111);
}

/// `circular_buffer_init.h`: four words per CB index (address, size, pages, page size).
#[test]
fn local_cb_config_is_four_words_per_index() {
    let p = TileProgram {
        cbs: vec![LocalCb {
            index: 3,
            addr: 0x4_0000,
            pages: 4,
            page_size: 64,
        }],
        args: [vec![7, 8], vec![], vec![], vec![], vec![5]],
        ..TileProgram::default()
    };
    let b = config_block(&p);
    let w = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    assert_eq!((w(0), w(4)), (7, 8));
    assert_eq!(w(0x400), 5);
    let o = 0x800 + 3 * 16;
    assert_eq!(
        (w(o), w(o + 4), w(o + 8), w(o + 12)),
        (0x4_0000, 256, 4, 64)
    );
}

#[test]
fn overlapping_cbs_are_rejected_naming_both() {
    let p = TileProgram {
        x: 3,
        y: 4,
        cbs: vec![
            LocalCb {
                index: 0,
                addr: DATA_BASE,
                pages: 2,
                page_size: 2048,
            },
            LocalCb {
                index: 1,
                addr: DATA_BASE + 2048,
                pages: 1,
                page_size: 2048,
            },
        ],
        ..TileProgram::default()
    };
    let e = p.validate().unwrap_err();
    assert!(e.to_string().contains("CB 1 overlaps CB 0"), "{e}");
}

#[test]
fn stuck_core_names_the_cb_and_its_counters() {
    let wait = CbWait {
        cb: 0,
        for_tiles: true,
        received: 0,
        acked: 0,
    };
    let s = StuckCore {
        x: 1,
        y: 2,
        core: Core::Trisc0,
        pc: 0x29010,
        wait: Some(wait),
        tensix: None,
        function: None,
        note: None,
    };
    assert_eq!(
        s.to_string(),
        "tile (1,2) TRISC0 at pc 0x00029010 waits on CB 0: no tiles pushed (0 in the CB)"
    );
    let full = CbWait {
        cb: 16,
        for_tiles: false,
        received: 0x10002,
        acked: 0,
    };
    let s = StuckCore {
        x: 1,
        y: 2,
        core: Core::Trisc2,
        pc: 0x31000,
        wait: Some(full),
        tensix: Some("T2 at instructions queued in the frontend".into()),
        function: Some("kernel_main".into()),
        note: None,
    };
    assert_eq!(
        s.to_string(),
        "tile (1,2) TRISC2 at pc 0x00031000 in `kernel_main` waits on CB 16: waits for space; 2 pushed, 0 popped (2 in the CB); T2 at instructions queued in the frontend"
    );
}
