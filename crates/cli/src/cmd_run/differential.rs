//! `bhemu run PROGRAM.toml --reference PATH/libttsim.so`: the kit program on bhemu's
//! `libttsim.so` and on the reference simulator through `crate::differential`, with the same
//! bytes on both — the layout, kernel images, kernel-config block and launch message of
//! [`prepare`] and `launch::tile_writes`, the program's own seeded inputs — and every output
//! byte compared.
//!
//! Exit status: 0 every output byte equal; 1 some differ; 4 the reference refuses (never a
//! pass); 2 bhemu's run failed or bad input.
use crate::differential::compare::{self, Counts, Operand, Output, Relation};
use crate::differential::job::{hex, unhex, Job, L1Write, Op, Place, TileLoad};
use crate::differential::{own_library, run_both, Runs};

use super::*;

const EXIT_REFERENCE_REFUSES: u8 = 4;
/// Mismatch lines printed per output and tile.
const MAX_LINES: usize = 8;
/// `NOC_NODE_ID` of NoC 0's NIU (docs/blackhole-facts.md §5): the tile's raw x in bits 0-5,
/// raw y in 6-11. Read on both simulators to check that a program's tile is the same
/// physical tile on each.
const NOC_NODE_ID: u64 = 0xFFB2_0044;

/// The job that boots the program's tiles, feeds its inputs, launches it, waits and reads
/// every output of every tile back (named `OUTPUT@TILE`).
pub(super) fn job(pp: &Prepared) -> Job {
    let tiles: Vec<(u32, u32)> = pp
        .coords
        .iter()
        .map(|&(x, y)| (u32::from(x), u32::from(y)))
        .collect();
    let mut ops = vec![Op::Boot {
        firmware: pp.p.firmware.display().to_string(),
        tiles: tiles.clone(),
        budget: pp.p.max_cycles,
    }];
    for (ti, mine) in pp.inputs.iter().enumerate() {
        for (i, data) in mine.iter().enumerate() {
            ops.push(Op::Write {
                at: Place::Dram { bank: 0 },
                addr: pp.l.input_addr(ti, &pp.p.input[i].name),
                hex: hex(data),
            });
        }
    }
    let loads = pp
        .programs
        .iter()
        .map(|tp| TileLoad {
            x: u32::from(tp.x),
            y: u32::from(tp.y),
            // Host id 1, as `execute`'s launch.
            writes: launch::tile_writes(tp, 1)
                .into_iter()
                .map(|(addr, d)| L1Write { addr, hex: hex(&d) })
                .collect(),
        })
        .collect();
    ops.push(Op::Launch { tiles: loads });
    ops.push(Op::Wait {
        tiles,
        budget: pp.p.max_cycles,
    });
    for ti in 0..pp.coords.len() {
        for o in &pp.p.output {
            ops.push(Op::Read {
                name: format!("{}@{ti}", o.name),
                at: Place::Dram { bank: 0 },
                addr: pp.l.input_addr(ti, &o.name),
                len: (u64::from(o.pages) * u64::from(o.page_size)) as usize,
            });
        }
    }
    Job { ops }
}

/// A job that only reads every tile's `NOC_NODE_ID`.
fn identity_job(coords: &[(u8, u8)]) -> Job {
    let ops = coords
        .iter()
        .map(|&(x, y)| Op::Read {
            name: format!("({x},{y})"),
            at: Place::Tile {
                x: u32::from(x),
                y: u32::from(y),
            },
            addr: NOC_NODE_ID,
            len: 4,
        })
        .collect();
    Job { ops }
}

/// The (x, y) each side's `NOC_NODE_ID` names, per tile.
fn node_ids(a: &crate::differential::job::Answer) -> Vec<Option<(u32, u32)>> {
    a.reads
        .iter()
        .map(|r| {
            let b = unhex(&r.hex).ok()?;
            let w = u32::from_le_bytes([*b.first()?, *b.get(1)?, *b.get(2)?, *b.get(3)?]);
            Some((w & 63, (w >> 6) & 63))
        })
        .collect()
}

/// Checks that every tile of the program answers as the same physical tile on both.
fn check_tiles(coords: &[(u8, u8)], bhemu: &Path, reference: &Path) -> Result<String, CliError> {
    match run_both(&identity_job(coords), bhemu, reference, &[]).map_err(CliError::new)? {
        Runs::Both { bhemu, reference } => {
            let (b, r) = (node_ids(&bhemu), node_ids(&reference));
            for (i, &(x, y)) in coords.iter().enumerate() {
                let want = Some((u32::from(x), u32::from(y)));
                let (bi, ri) = (b.get(i).copied().flatten(), r.get(i).copied().flatten());
                if bi != want || ri != want {
                    return Err(CliError::new(format!(
                        "tile ({x},{y}) is not the same physical tile on both: NOC_NODE_ID names {bi:?} on bhemu, {ri:?} on the reference"
                    )));
                }
            }
            Ok(format!(
                "tiles: each of the {} answers with its own NOC_NODE_ID on both",
                coords.len()
            ))
        }
        Runs::ReferenceRefuses { message, .. } => Ok(format!(
            "tiles: not checked, the reference refuses to read NOC_NODE_ID: {message}"
        )),
        Runs::BhemuFailed(e) => Err(CliError::new(format!(
            "bhemu failed reading NOC_NODE_ID: {e}"
        ))),
    }
}

/// How output `o`'s elements relate to the inputs, and which inputs feed it.
fn relation(pp: &Prepared, oi: usize) -> (Relation, Vec<usize>) {
    let Some(r) = &pp.refs[oi] else {
        return (Relation::Unknown, Vec::new());
    };
    let ins = r
        .operands
        .iter()
        .filter_map(|n| pp.p.input.iter().position(|b| &b.name == n))
        .collect();
    let rel = if r.op == "matmul" {
        Relation::Matmul { mkn: pp.math.mkn }
    } else {
        Relation::Elementwise
    };
    (rel, ins)
}

pub(super) fn run(a: &RunArgs, reference: &Path) -> Result<ExitCode, CliError> {
    if !reference.is_file() {
        return Err(CliError::new(format!(
            "--reference {}: no such file (scripts/build-reference.sh builds one)",
            reference.display()
        )));
    }
    let pp = prepare(a)?;
    let own = match &a.bhemu_lib {
        Some(p) => p.clone(),
        None => own_library().map_err(CliError::new)?,
    };
    println!(
        "{}: {} tile(s), {}",
        a.program.display(),
        pp.coords.len(),
        pp.names.join(" ")
    );
    println!("bhemu:     {}", own.display());
    println!("reference: {}", reference.display());
    println!("{}", check_tiles(&pp.coords, &own, reference)?);
    // `--threads` reaches bhemu's library through its environment (docs/libttsim-abi.md).
    let threads: Vec<(&str, &str)> = a
        .threads
        .as_deref()
        .map(|t| ("BHEMU_THREADS", t))
        .into_iter()
        .collect();
    let (bhemu, refr) = match run_both(&job(&pp), &own, reference, &threads)
        .map_err(CliError::new)?
    {
        Runs::Both { bhemu, reference } => (bhemu, reference),
        Runs::ReferenceRefuses { message, bhemu } => {
            // The worker's own errors (a poll budget spent, a bad firmware path) are not the
            // library refusing; they are named as such, and still never pass.
            match message.strip_prefix("bhemu: sim-worker: ") {
                Some(m) => {
                    println!("reference did not finish (the worker's error, not a refusal): {m}")
                }
                None => println!("reference refuses: {message}"),
            }
            match bhemu {
                Ok(b) => println!(
                    "bhemu: finished (boot {} clocks, run {} clocks); nothing compared",
                    b.boot_clocks, b.run_clocks
                ),
                Err(e) => println!("bhemu: failed too: {e}"),
            }
            return Ok(ExitCode::from(EXIT_REFERENCE_REFUSES));
        }
        Runs::BhemuFailed(e) => return Err(CliError::new(format!("bhemu failed: {e}"))),
    };
    for (who, x) in [("bhemu", &bhemu), ("reference", &refr)] {
        println!(
            "{who}: boot {} clocks in {:.3} s, run {} clocks in {:.3} s (host time through the client)",
            x.boot_clocks,
            x.boot_us as f64 / 1e6,
            x.run_clocks,
            x.run_us as f64 / 1e6
        );
    }
    let ratio = |b: u64, r: u64| {
        if r == 0 {
            "-".to_string()
        } else {
            format!("{:.2}", b as f64 / r as f64)
        }
    };
    println!(
        "host time bhemu / reference: boot {}, run {}",
        ratio(bhemu.boot_us, refr.boot_us),
        ratio(bhemu.run_us, refr.run_us)
    );
    let bytes_of =
        |ans: &crate::differential::job::Answer, name: &str| -> Result<Vec<u8>, CliError> {
            let r = ans
                .reads
                .iter()
                .find(|r| r.name == name)
                .ok_or_else(|| CliError::new(format!("no read named {name} in an answer")))?;
            unhex(&r.hex).map_err(|e| CliError::new(format!("{name}: {e}")))
        };
    let mut total = Counts::default();
    for (oi, o) in pp.p.output.iter().enumerate() {
        let (rel, ins) = relation(&pp, oi);
        let mut counts = Counts::default();
        let mut lines = Vec::new();
        for (ti, &(x, y)) in pp.coords.iter().enumerate() {
            let name = format!("{}@{ti}", o.name);
            let (b, r) = (bytes_of(&bhemu, &name)?, bytes_of(&refr, &name)?);
            let out = Output {
                name: &o.name,
                tile: ti,
                xy: (u32::from(x), u32::from(y)),
                format: pp.out_formats[oi],
                bhemu: &b,
                reference: &r,
                inputs: ins
                    .iter()
                    .map(|&j| Operand {
                        name: &pp.p.input[j].name,
                        format: pp.in_formats[j],
                        bytes: &pp.inputs[ti][j],
                    })
                    .collect(),
                relation: rel,
            };
            counts.add(compare::compare(&out, MAX_LINES, &mut lines));
        }
        for l in &lines {
            println!("  {l}");
        }
        if counts.different as usize > lines.len() {
            println!("  ... and more");
        }
        println!("output {}: {}", o.name, compare::summary(&counts));
        total.add(counts);
    }
    println!("total: {}", compare::summary(&total));
    Ok(if total.different == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_MISMATCH)
    })
}
