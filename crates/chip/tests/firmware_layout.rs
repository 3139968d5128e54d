//! The launch path's hard-coded `dev_msgs.h` layout (crates/chip/src/host.rs mailbox addresses,
//! the `launch_msg_t` both `launch_message` functions write) checked against the pre-compiled
//! tt-metal 0.81.1 firmware ELFs: the address `brisc.elf`'s `subordinate_sync` pointer holds,
//! and the offsets and sizes of `mailboxes_t`, `launch_msg_t`, `kernel_config_msg_t` and
//! `go_msg_t` in the firmware's DWARF (read with Debian's `riscv64-unknown-elf-readelf`).
//!
//! Needs the firmware (`scripts/fetch-ttnn.sh`) and binutils-riscv64-unknown-elf; without them
//! the test prints "skipped", unless `BHEMU_REQUIRE_TOOLS=1`, in which case it fails.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use bhemu_chip::elf::ElfImage;
use bhemu_chip::host::{self, Kernel};
use bhemu_chip::launch::{self, KernelImage, LocalCb, TileProgram};
use bhemu_chip::Core;

const READELF: &str = "riscv64-unknown-elf-readelf";

fn require() -> bool {
    std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1")
}

fn skip_or_fail(why: String) {
    assert!(!require(), "BHEMU_REQUIRE_TOOLS=1 but {why}");
    eprintln!("skipped: {why}");
}

fn firmware_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.cache/ttnn/firmware/blackhole-140")
}

/// One DWARF entry of `readelf --debug-dump=info`: nesting depth, tag, attributes by name.
#[derive(Debug, Default)]
struct Die {
    depth: usize,
    offset: String,
    tag: String,
    attrs: BTreeMap<String, String>,
}

impl Die {
    fn name(&self) -> Option<&str> {
        // `(indirect string, offset: 0x1078): launch` or a plain name.
        self.attrs
            .get("DW_AT_name")
            .map(|v| v.rsplit(": ").next().unwrap_or(v).trim())
    }
    fn num(&self, attr: &str) -> Option<u32> {
        let v = self.attrs.get(attr)?.trim();
        v.split_whitespace().next()?.parse().ok()
    }
    /// `DW_AT_type: <0x9d61>` → `9d61`.
    fn type_ref(&self) -> Option<String> {
        let v = self.attrs.get("DW_AT_type")?;
        Some(
            v.trim()
                .trim_start_matches("<0x")
                .trim_end_matches('>')
                .to_string(),
        )
    }
}

fn parse_dies(dump: &str) -> Vec<Die> {
    let mut dies: Vec<Die> = Vec::new();
    for line in dump.lines() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix('<') {
            // " <1><a327>: Abbrev Number: 160 (DW_TAG_structure_type)"
            if let (Some(close), Some(tag_at)) = (rest.find('>'), t.find("(DW_TAG_")) {
                if let (Ok(depth), true) = (
                    rest[..close].parse::<usize>(),
                    rest[close..].starts_with("><"),
                ) {
                    let after = &rest[close + 2..];
                    let offset = after.split('>').next().unwrap_or("").to_string();
                    let tag = t[tag_at + 1..].trim_end_matches(')').to_string();
                    dies.push(Die {
                        depth,
                        offset,
                        tag,
                        ..Die::default()
                    });
                    continue;
                }
            }
            // "    <a32d>   DW_AT_byte_size   : 13440"
            if let (Some(d), Some(at)) = (dies.last_mut(), t.find("DW_AT_")) {
                let field = &t[at..];
                if let Some((k, v)) = field.split_once(':') {
                    d.attrs
                        .entry(k.trim().to_string())
                        .or_insert_with(|| v.trim().to_string());
                }
            }
        }
    }
    dies
}

/// A structure's size and its members' (offset, type) by name, from the first definition.
/// Members of anonymous unions and structures nested in it count at their offset in it.
struct Struct {
    size: u32,
    members: BTreeMap<String, (u32, Option<String>)>,
}

fn find_struct(dies: &[Die], name: &str) -> Option<Struct> {
    let i = dies.iter().position(|d| {
        d.tag == "DW_TAG_structure_type"
            && d.name() == Some(name)
            && d.num("DW_AT_byte_size").is_some()
    })?;
    let depth = dies[i].depth;
    let body: Vec<&Die> = dies[i + 1..]
        .iter()
        .take_while(|d| d.depth > depth)
        .collect();
    // Where a nested anonymous aggregate sits: the location of the member whose type it is.
    let placed = |agg: &str| -> u32 {
        body.iter()
            .find(|d| d.tag == "DW_TAG_member" && d.type_ref().as_deref() == Some(agg))
            .and_then(|d| d.num("DW_AT_data_member_location"))
            .unwrap_or(0)
    };
    let mut open: Vec<(usize, u32)> = Vec::new(); // (depth, offset of that aggregate)
    let mut members = BTreeMap::new();
    for d in &body {
        open.retain(|(dd, _)| *dd < d.depth);
        let outer = open.last().map_or(0, |(_, o)| *o);
        match d.tag.as_str() {
            "DW_TAG_union_type" | "DW_TAG_structure_type" => {
                open.push((d.depth, outer + placed(&d.offset)));
            }
            "DW_TAG_member" => {
                if let Some(n) = d.name() {
                    let off = outer + d.num("DW_AT_data_member_location").unwrap_or(0);
                    members.entry(n.to_string()).or_insert((off, d.type_ref()));
                }
            }
            _ => {}
        }
    }
    Some(Struct {
        size: dies[i].num("DW_AT_byte_size")?,
        members,
    })
}

/// The element count of the array type at `offset` (one dimension).
fn array_len(dies: &[Die], offset: &str) -> Option<u32> {
    let i = dies
        .iter()
        .position(|d| d.offset == offset && d.tag == "DW_TAG_array_type")?;
    let sub = dies
        .get(i + 1)
        .filter(|d| d.tag == "DW_TAG_subrange_type")?;
    sub.num("DW_AT_upper_bound")
        .map(|u| u + 1)
        .or_else(|| sub.num("DW_AT_count"))
}

fn member(s: &Struct, struct_name: &str, m: &str) -> u32 {
    s.members
        .get(m)
        .map(|(o, _)| *o)
        .unwrap_or_else(|| panic!("{struct_name} has no member {m} in the firmware's DWARF"))
}

fn u16_at(m: &[u8], off: u32) -> u16 {
    let o = off as usize;
    u16::from_le_bytes([m[o], m[o + 1]])
}
fn u32_at(m: &[u8], off: u32) -> u32 {
    let o = off as usize;
    u32::from_le_bytes([m[o], m[o + 1], m[o + 2], m[o + 3]])
}

/// host.rs's mailbox addresses and both launch messages' field offsets equal the firmware's
/// own `dev_msgs.h` layout, as its ELFs record it.
#[test]
fn launch_layout_matches_firmware_elf_symbols() {
    let dir = firmware_dir();
    let brisc = dir.join("brisc.elf");
    if !brisc.exists() {
        return skip_or_fail(format!(
            "no firmware at {} (run scripts/fetch-ttnn.sh)",
            dir.display()
        ));
    }
    let dump = match Command::new(READELF)
        .arg("--debug-dump=info")
        .arg(&brisc)
        .output()
    {
        Ok(o) if o.status.success() => String::from_utf8_lossy(&o.stdout).into_owned(),
        _ => {
            return skip_or_fail(format!(
                "{READELF} is missing (apt-get install binutils-riscv64-unknown-elf)"
            ))
        }
    };
    let dies = parse_dies(&dump);
    let mailboxes = find_struct(&dies, "mailboxes_t")
        .unwrap_or_else(|| panic!("no mailboxes_t in {}", brisc.display()));
    let launch_msg =
        find_struct(&dies, "launch_msg_t").unwrap_or_else(|| panic!("no launch_msg_t"));
    let kcfg = find_struct(&dies, "kernel_config_msg_t")
        .unwrap_or_else(|| panic!("no kernel_config_msg_t"));
    let go = find_struct(&dies, "go_msg_t").unwrap_or_else(|| panic!("no go_msg_t"));

    // brisc.cc's `subordinate_sync` pointer is initialised to &mailboxes->subordinate_sync:
    // that fixes where mailboxes_t starts in L1.
    let img = ElfImage::read(&brisc).unwrap_or_else(|e| panic!("{e}"));
    let sym = img
        .symbol("_ZL16subordinate_sync")
        .unwrap_or_else(|| panic!("brisc.elf has no subordinate_sync symbol"));
    let init = img
        .segments
        .iter()
        .find(|s| {
            s.addr <= sym.addr && (sym.addr as u64 + 4) <= s.addr as u64 + s.data.len() as u64
        })
        .map(|s| u32_at(&s.data, sym.addr - s.addr))
        .unwrap_or_else(|| panic!("no initial value of subordinate_sync in brisc.elf"));
    assert_eq!(init, host::SUBORDINATE_SYNC, "SUBORDINATE_SYNC");
    let base = init - member(&mailboxes, "mailboxes_t", "subordinate_sync");

    let field = |m: &str| base + member(&mailboxes, "mailboxes_t", m);
    assert_eq!(
        host::LAUNCH_MSG_RD_PTR,
        field("launch_msg_rd_ptr"),
        "LAUNCH_MSG_RD_PTR"
    );
    assert_eq!(host::LAUNCH_BASE, field("launch"), "LAUNCH_BASE");
    assert_eq!(host::GO_MSG, field("go_messages"), "GO_MSG");
    assert_eq!(
        host::GO_MSG_INDEX,
        field("go_message_index"),
        "GO_MSG_INDEX"
    );
    assert_eq!(
        host::GO_SIGNAL,
        host::GO_MSG + member(&go, "go_msg_t", "signal"),
        "GO_SIGNAL"
    );
    assert_eq!(host::LAUNCH_MSG_SIZE, launch_msg.size, "LAUNCH_MSG_SIZE");
    let launch_ty = mailboxes
        .members
        .get("launch")
        .and_then(|(_, t)| t.clone())
        .unwrap_or_default();
    assert_eq!(
        Some(host::LAUNCH_ENTRIES),
        array_len(&dies, &launch_ty),
        "LAUNCH_ENTRIES"
    );

    // Both launch messages, read back at the firmware's offsets.
    let kc = member(&launch_msg, "launch_msg_t", "kernel_config");
    let at = |m: &str| kc + member(&kcfg, "kernel_config_msg_t", m);
    let k = Kernel {
        image: vec![0; 64],
        text_offset: 0x40,
    };
    let m = host::launch_message(&k, 0x1234_5678);
    assert_eq!(
        u32_at(&m, at("kernel_config_base")),
        host::KERNEL_CONFIG_BASE
    );
    assert_eq!(m[at("mode") as usize], host::DISPATCH_MODE_HOST);
    assert_eq!(u32_at(&m, at("kernel_text_offset")), 0x40);
    assert_eq!(u32_at(&m, at("kernel_text_size")), 64);
    assert_eq!(m[at("min_remote_cb_start_index") as usize], 64);
    assert_eq!(u32_at(&m, at("host_assigned_id")), 0x1234_5678);
    assert_eq!(u32_at(&m, at("enables")), 1);

    let kernels: Vec<Arc<KernelImage>> = Core::ALL
        .iter()
        .map(|&core| {
            Arc::new(KernelImage {
                core,
                file: String::new(),
                writes: vec![(
                    launch::text_base(core),
                    vec![0; 8 + 4 * launch::processor_index(core)],
                )],
                functions: Vec::new(),
            })
        })
        .collect();
    let p = TileProgram {
        x: 1,
        y: 2,
        kernels,
        args: Default::default(),
        cbs: vec![LocalCb {
            index: 3,
            addr: launch::DATA_BASE,
            pages: 1,
            page_size: 2048,
        }],
        semaphores: Vec::new(),
    };
    let m = launch::launch_message(&p, 7);
    assert_eq!(u32_at(&m, at("kernel_config_base")), launch::CONFIG_BASE);
    assert_eq!(u16_at(&m, at("sem_offset")), launch::SEM_OFFSET);
    assert_eq!(u16_at(&m, at("local_cb_offset")), launch::CB_OFFSET);
    assert_eq!(m[at("mode") as usize], host::DISPATCH_MODE_HOST);
    for &core in &Core::ALL {
        let i = launch::processor_index(core) as u32;
        assert_eq!(
            u16_at(&m, at("rta_offset") + 4 * i),
            launch::RTA_OFFSET + launch::RTA_STRIDE * i as u16
        );
        assert_eq!(
            u32_at(&m, at("kernel_text_offset") + 4 * i),
            launch::text_base(core) - launch::CONFIG_BASE,
            "kernel_text_offset[{i}]"
        );
        assert_eq!(
            u32_at(&m, at("kernel_text_size") + 4 * i),
            8 + 4 * i,
            "kernel_text_size[{i}]"
        );
    }
    assert_eq!(u32_at(&m, at("local_cb_mask")), 1 << 3);
    assert_eq!(m[at("min_remote_cb_start_index") as usize], 64);
    assert_eq!(u32_at(&m, at("host_assigned_id")), 7);
    assert_eq!(u32_at(&m, at("enables")), 0x1f);
}
