//! Development driver: `cargo run -p bhemu-chip --example boot -- DIR [TILES] [MAX_CYCLES]`.
use bhemu_chip::host::{boot, Firmware};
use bhemu_chip::{grid, Chip, ChipConfig, Core};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = args
        .get(1)
        .cloned()
        .unwrap_or_else(|| ".cache/ttnn/firmware/blackhole-140".into());
    let tiles = args.get(2).cloned().unwrap_or_else(|| "1".into());
    let max: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(200_000);
    let fw = match Firmware::load(std::path::Path::new(&dir)) {
        Ok(f) => f,
        Err(e) => return eprintln!("{e}"),
    };
    let cfg = ChipConfig {
        tiles: grid::parse_tiles(&tiles).unwrap_or_default(),
        ..ChipConfig::default()
    };
    let mut chip = match Chip::new(&cfg) {
        Ok(c) => c,
        Err(e) => return eprintln!("{e}"),
    };
    match boot(&mut chip, &fw, max, &mut |_| {}) {
        Ok(r) => {
            println!(
                "finished={} cycles={} wall={:?}",
                r.finished, r.cycles, r.wall
            );
            if let Some(k) = args.get(4) {
                let img = bhemu_chip::elf::ElfImage::read(std::path::Path::new(k))
                    .map_err(|e| e.to_string());
                let kern = img.and_then(|i| {
                    bhemu_chip::host::Kernel::from_elf(&i).map_err(|e| e.to_string())
                });
                match kern {
                    Ok(kern) => {
                        for n in 1..=3 {
                            match bhemu_chip::host::launch(&mut chip, &kern, n, max, &mut |_| {}) {
                                Ok(l) => println!(
                                    "launch {n}: finished={} cycles={} wall={:?}",
                                    l.finished, l.cycles, l.wall
                                ),
                                Err(e) => return eprintln!("launch error: {e}"),
                            }
                        }
                        let t = &chip.tiles()[0];
                        let mut b = [0u8; 36];
                        let _ = t.read_l1(0x30000, &mut b);
                        println!("tile0 out: {:02x?}", b);
                    }
                    Err(e) => eprintln!("{e}"),
                }
            }
            for t in r.tiles.iter().filter(|t| !t.done).take(3) {
                println!(
                    "tile ({},{}) go=0x{:02x} sync=0x{:08x}",
                    t.x, t.y, t.go_signal, t.sync
                );
                for c in &t.cores {
                    println!(
                        "  {:7} {:8} pc=0x{:08x} rel={} last={:x?}",
                        c.core.name(),
                        c.state.name(),
                        c.pc,
                        c.releases,
                        c.last_mmio
                    );
                }
            }
        }
        Err(e) => {
            eprintln!("error: {e}");
            if let Some(t) = chip.tiles().first() {
                for c in Core::ALL {
                    eprintln!(
                        "  {:7} {:8} pc=0x{:08x} last={:x?}",
                        c.name(),
                        t.core_state(c).name(),
                        t.pc(c),
                        t.last_mmio(c)
                    );
                }
            }
        }
    }
}
