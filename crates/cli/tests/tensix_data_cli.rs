//! `bhemu tensix run` with data: preloads (`l1 ... = bf16 [..]`, `= file`, `cfg`), dumps in
//! the text and `--json` outputs, and errors for bad data lines.
use std::path::Path;
use std::process::Command;

fn bhemu() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bhemu"))
}

fn scratch() -> std::path::PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tensix-data-cli");
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

fn json_of(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[test]
fn json_includes_dumps_of_l1_and_dst() {
    let ex = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/tensix/data/copy_bf16.tsx");
    let out = bhemu()
        .args(["tensix", "run", "--json"])
        .arg(&ex)
        .output()
        .expect("run bhemu");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out);
    let dumps = v["dumps"].as_array().expect("dumps array");
    assert_eq!(dumps.len(), 2);
    assert_eq!(dumps[0]["what"], "l1 0x20000");
    assert_eq!(dumps[0]["format"], "bf16");
    assert_eq!(dumps[0]["bits"][1], "0x3f80");
    assert_eq!(dumps[0]["values"][2], 2.0);
    assert_eq!(dumps[0]["values"][257], -2.0);
    assert_eq!(dumps[1]["what"], "dst 0..127");
}

#[test]
fn file_preload_and_text_dump() {
    let dir = scratch();
    // Two FP32 words 1.5 and -2.0, little-endian.
    let mut bytes = Vec::new();
    bytes.extend(1.5f32.to_le_bytes());
    bytes.extend((-2.0f32).to_le_bytes());
    std::fs::write(dir.join("in.bin"), bytes).expect("write input");
    let prog = dir.join("file.tsx");
    std::fs::write(
        &prog,
        "l1 0x100 = file in.bin\nl1 0x200 = bf16 [1.0, -0.5, 0x7f80]\n\
         dump l1 0x100 fp32 2\ndump l1 0x200 bf16 3\n",
    )
    .expect("write program");
    let out = bhemu()
        .args(["tensix", "run"])
        .arg(&prog)
        .output()
        .expect("run bhemu");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("dump l1 0x100 fp32:\n  1.5(0x3fc00000) -2(0xc0000000)"),
        "{text}"
    );
    assert!(
        text.contains("dump l1 0x200 bf16:\n  1(0x3f80) -0.5(0xbf00) inf(0x7f80)"),
        "{text}"
    );
}

#[test]
fn bad_data_lines_name_file_line_and_reason() {
    let dir = scratch();
    for (body, want) in [
        (
            "cfg NO_SUCH_FIELD = 1\n",
            "not a field of Blackhole's cfg_defines.h",
        ),
        (
            "cfg ALU_FORMAT_SPEC_REG0_SrcA = 16\n",
            "does not fit ALU_FORMAT_SPEC_REG0_SrcA",
        ),
        ("cfg SRCA_SET_SetOvrdWithAddr = 1\n", "ThreadConfig field"),
        ("l1 0x0 = bf16 [1.0, x]\n", "`x` is not a bf16 value"),
        ("l1 0x0 = fp16 [1e-9]\n", "`1e-9` is not a fp16 value"),
        ("dump dst 0..600 fp32\n", "below 512"),
        ("dump l1 0x17fffe u32 1\n", "leave L1"),
    ] {
        let prog = dir.join("bad.tsx");
        std::fs::write(&prog, body).expect("write program");
        let out = bhemu()
            .args(["tensix", "run", "--json"])
            .arg(&prog)
            .output()
            .expect("run");
        assert!(!out.status.success(), "{body}");
        let v = json_of(&out);
        let msg = v["error"]["message"].as_str().unwrap_or("");
        assert!(msg.contains(want), "{body}: {msg}");
        if !body.starts_with("dump l1") {
            assert!(msg.contains("bad.tsx:1:"), "{msg}");
        }
    }
}

/// `bhemu tensix run --trace FILE`: the file is trace-event JSON with T1's SEMWAIT stall of
/// docs/wait-gate.md pattern 4.
#[test]
fn tensix_run_trace_writes_perfetto_json() {
    let file = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("pattern4.trace.json");
    let prog =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/tensix/pattern4.tsx");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .args(["tensix", "run"])
        .arg(&prog)
        .arg("--trace")
        .arg(&file)
        .output()
        .expect("run");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("trace")).expect("JSON");
    let stalls = v["traceEvents"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| e["tid"] == 2)
        .filter(|e| {
            e["name"].as_str().is_some_and(|n| {
                n.starts_with("stall: ttmvmul 3, 0, 0, 0 — blocked by SEMWAIT block 0x142 STALL_ON_MAX on sem1=2/2")
            })
        })
        .count();
    assert!(stalls >= 1, "{v}");
}
