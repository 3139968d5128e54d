//! `bhemu boot --kernel K --gdb PORT` driven by a real gdb (Debian's `gdb-multiarch`) in batch
//! mode: symbols from the kernel ELF, a breakpoint on `kernel_main`, `info threads` listing the
//! tile's five harts, `next`/`stepi`, `print` of a local, a hardware watchpoint on a global,
//! and the run to completion. The assertions are on gdb's own output.
//!
//! Needs `gdb-multiarch`, `riscv64-unknown-elf-gcc` and the firmware
//! (`scripts/fetch-ttnn.sh`); skips with the reason when one is missing, unless
//! `BHEMU_REQUIRE_TOOLS=1`.
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn skip(reason: &str) {
    if std::env::var("BHEMU_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("BHEMU_REQUIRE_TOOLS=1 but {reason}");
    }
    eprintln!("skipped: {reason}");
}

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
}

/// examples/kernels/debug/gdb_demo.c with debug information, linked like every slow-dispatch
/// kernel (scripts/build-kernels.sh's flags, -g -Og instead of -O2).
fn build_kernel(out: &Path) -> PathBuf {
    let src = root().join("examples/kernels/debug/gdb_demo.c");
    let elf = out.join("gdb_demo.elf");
    let st = Command::new("riscv64-unknown-elf-gcc")
        .args([
            "-march=rv32im_zicsr",
            "-mabi=ilp32",
            "-g",
            "-Og",
            "-ffreestanding",
        ])
        .args([
            "-fno-pic",
            "-nostdlib",
            "-nostartfiles",
            "-Wl,--no-relax",
            "-Wl,-n",
        ])
        .args(["-Wl,--build-id=none", "-Wl,--no-warn-rwx-segments", "-T"])
        .arg(root().join("examples/kernels/link.ld"))
        .arg("-o")
        .arg(&elf)
        .arg(&src)
        .status()
        .expect("run riscv64-unknown-elf-gcc");
    assert!(st.success(), "building {}", src.display());
    elf
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("local addr").port()
}

#[test]
fn gdb_session_breaks_steps_watches_and_runs_to_completion() {
    let firmware = root().join(".cache/ttnn/firmware/blackhole-140");
    if !tool("gdb-multiarch") {
        return skip("gdb-multiarch is not installed (apt-get install gdb-multiarch)");
    }
    if !tool("riscv64-unknown-elf-gcc") {
        return skip("riscv64-unknown-elf-gcc is not installed");
    }
    if !firmware.join("brisc.elf").is_file() {
        return skip("no firmware in .cache/ttnn (run scripts/fetch-ttnn.sh)");
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("gdb-session");
    std::fs::create_dir_all(&out).unwrap();
    let elf = build_kernel(&out);
    let port = free_port();

    let mut bhemu = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .arg("boot")
        .arg("--firmware")
        .arg(&firmware)
        .args(["--tiles", "1", "--kernel"])
        .arg(&elf)
        .args(["--gdb", &port.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start bhemu");
    // Wait until it listens.
    let mut err = BufReader::new(bhemu.stderr.take().unwrap());
    let mut line = String::new();
    loop {
        line.clear();
        if err.read_line(&mut line).unwrap() == 0 {
            panic!(
                "bhemu ended before listening: {:?}",
                bhemu.wait_with_output()
            );
        }
        if line.contains("waiting for gdb") {
            break;
        }
    }

    let script = out.join("session.gdb");
    std::fs::write(
        &script,
        format!(
            "set pagination off\nset confirm off\nfile {}\ntarget remote :{port}\n\
             break kernel_main\ncontinue\ninfo threads\nnext\nnext\nnext\nprint sum\n\
             stepi\nprint $pc\nwatch total\ncontinue\ncontinue\nprint total\ndelete\ncontinue\n",
            elf.display()
        ),
    )
    .unwrap();
    let gdb = Command::new("gdb-multiarch")
        .arg("-batch")
        .arg("-x")
        .arg(&script)
        .output()
        .expect("run gdb-multiarch");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&gdb.stdout),
        String::from_utf8_lossy(&gdb.stderr)
    );
    let rest: String = err
        .lines()
        .map_while(Result::ok)
        .collect::<Vec<_>>()
        .join("\n");
    let bh = bhemu.wait_with_output().expect("bhemu output");
    let bh_out = String::from_utf8_lossy(&bh.stdout).into_owned();
    println!("---- gdb ----\n{text}\n---- bhemu ----\n{bh_out}{rest}");

    // The target description was accepted (RV32 integer registers and pc).
    assert!(
        !text.contains("rejected target-supplied description"),
        "{text}"
    );
    assert!(
        text.contains("Thread 1 hit Breakpoint 1, kernel_main () at "),
        "{text}"
    );
    // One thread per hart of the tile, named by tile and core.
    for (i, core) in ["BRISC", "NCRISC", "TRISC0", "TRISC1", "TRISC2"]
        .iter()
        .enumerate()
    {
        let want = format!("Thread 1.{} (tile (1,2) {core} running)", i + 1);
        assert!(text.contains(&want), "missing `{want}`:\n{text}");
    }
    // `next` three times: the loop header, then through the call of square(1).
    assert!(text.contains("19\t        sum += square(i);"), "{text}");
    assert!(text.contains("20\t        total = sum;"), "{text}");
    assert!(text.contains("$1 = 1\n"), "{text}");
    // `stepi` moved one instruction; $pc is inside kernel_main.
    assert!(text.contains("$2 = (void (*)()) 0x"), "{text}");
    assert!(text.contains("<kernel_main+"), "{text}");
    // The watchpoint fires on each store to `total`: 100 -> 1 (1*1), then 1 -> 5 (+2*2).
    assert!(text.contains("Hardware watchpoint 2: total"), "{text}");
    assert!(text.contains("Old value = 100\nNew value = 1\n"), "{text}");
    assert!(text.contains("Old value = 1\nNew value = 5\n"), "{text}");
    assert!(text.contains("$3 = 5\n"), "{text}");
    assert!(
        text.contains("[Inferior 1 (process 1) exited normally]"),
        "{text}"
    );
    // The launch then completes: 1 + 4 + 9 + 16 = 30 stored, tile DONE.
    assert_eq!(bh.status.code(), Some(0), "{bh_out}{rest}");
    assert!(bh_out.contains("launch 1: 1/1 tiles DONE"), "{bh_out}");
    assert!(rest.contains("gdb session ended (Finished)"), "{rest}");

    // Stopping, stepping and watching do not change the timing: the launch takes as many
    // cycles under gdb (reference schedule) as in a plain run (fast schedule).
    let plain = Command::new(env!("CARGO_BIN_EXE_bhemu"))
        .arg("boot")
        .arg("--firmware")
        .arg(&firmware)
        .args(["--tiles", "1", "--kernel"])
        .arg(&elf)
        .output()
        .expect("run bhemu");
    let plain = String::from_utf8_lossy(&plain.stdout).into_owned();
    let launch_line = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("launch 1:"))
            .map(|l| l.split(", ").next().unwrap_or("").to_string())
    };
    assert_eq!(
        launch_line(&bh_out),
        launch_line(&plain),
        "{bh_out}\n{plain}"
    );
    assert!(launch_line(&plain).is_some(), "{plain}");
}
