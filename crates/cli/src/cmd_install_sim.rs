//! `bhemu install-sim DIR`: put bhemu's `libttsim.so` and the matching `soc_descriptor.yaml`
//! into DIR, so that `tt_umd.create_simulation_tt_device("DIR/libttsim.so")` (or
//! `TT_METAL_SIMULATOR=DIR/libttsim.so`) drives bhemu.
//!
//! ```text
//! bhemu install-sim DIR [--soc FILE] [--lib FILE]
//! ```
//! * The library is the `libttsim.so` built beside the running `bhemu` executable
//!   (`cargo build --release -p bhemu-ttsim-abi -p bhemu-cli` puts both in target/release/),
//!   or `--lib FILE`.
//! * tt-umd reads `soc_descriptor.yaml` from the directory of the library path, under exactly
//!   that name, and takes the architecture from its `arch_name` (docs/tt-umd-sim-interface.md
//!   §7). The file is tt-metal's `blackhole_140_arch.yaml` from the ttnn 0.81.1 wheel, which
//!   `scripts/fetch-ttnn.sh` extracts to `.cache/ttnn/soc/` (searched in the current directory,
//!   then in the source tree bhemu was built from), or `--soc FILE`.
//!
//! Both files are written to a temporary name and renamed, so a process that has the old
//! library mapped keeps a consistent image.
//!
//! tt-metal's own host library (`libtt_metal.so`) needs more than the simulator: a runtime root
//! with its firmware, kernel sources and a compiler for its JIT. `scripts/setup-metal-runtime.sh`
//! prepares one from the ttnn 0.81.1 wheel (docs/tt-metal-on-bhemu.md); `--metal-runtime DIR`
//! checks that DIR is such a runtime and prints the environment that runs a tt-metal program on
//! the installed simulator (slow dispatch).
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::CliError;

/// Where `scripts/fetch-ttnn.sh` puts tt-metal's SoC descriptor, relative to the repository.
const SOC_IN_CACHE: &str = ".cache/ttnn/soc/blackhole_140_arch.yaml";
const LIB_NAME: &str = "libttsim.so";

#[derive(clap::Args)]
pub struct InstallSimArgs {
    /// Directory to install into (created if missing).
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// SoC descriptor to install as soc_descriptor.yaml (default: tt-metal's
    /// blackhole_140_arch.yaml from scripts/fetch-ttnn.sh's cache).
    #[arg(long, value_name = "FILE")]
    pub soc: Option<PathBuf>,
    /// System the library opens as when BHEMU_SYSTEM is unset: p150 (one chip, the default),
    /// p300 or galaxy (docs/multi-chip.md); recorded in DIR/bhemu-system.
    #[arg(long, value_name = "NAME")]
    pub system: Option<String>,
    /// The library to install (default: libttsim.so beside the bhemu executable).
    #[arg(long, value_name = "FILE")]
    pub lib: Option<PathBuf>,
    /// A tt-metal runtime prepared by scripts/setup-metal-runtime.sh: print how to run tt-metal
    /// programs on the installed simulator with it.
    #[arg(long, value_name = "DIR")]
    pub metal_runtime: Option<PathBuf>,
}

/// The files a runtime from scripts/setup-metal-runtime.sh has once complete.
const METAL_RUNTIME_FILES: [&str; 3] = [
    "READY",
    "lib/libtt_metal.so",
    "root/runtime/sfpi/compiler/bin/riscv-tt-elf-g++",
];

/// The environment that runs a tt-metal program against `so` with the runtime at `rt`.
fn metal_env(so: &Path, rt: &Path) -> Result<String, CliError> {
    for f in METAL_RUNTIME_FILES {
        if !rt.join(f).exists() {
            return Err(CliError::new(format!(
                "--metal-runtime {}: no {f}; prepare it with scripts/setup-metal-runtime.sh {}",
                rt.display(),
                rt.display()
            )));
        }
    }
    let rt = rt.canonicalize().unwrap_or_else(|_| rt.to_path_buf());
    Ok(format!(
        "tt-metal: TT_METAL_SIMULATOR={} TT_METAL_RUNTIME_ROOT={} TT_METAL_SLOW_DISPATCH_MODE=1 LD_LIBRARY_PATH={} PROGRAM",
        so.display(),
        rt.join("root").display(),
        rt.join("lib").display()
    ))
}

fn find_lib() -> Result<PathBuf, CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::new(format!("cannot locate the bhemu executable: {e}")))?;
    let dir = exe.parent().unwrap_or(Path::new("."));
    let p = dir.join(LIB_NAME);
    if p.is_file() {
        Ok(p)
    } else {
        Err(CliError::new(format!(
            "{} not found beside the bhemu executable; build it with `cargo build --release -p bhemu-ttsim-abi` (same target directory and profile as bhemu), or pass --lib FILE",
            p.display()
        )))
    }
}

fn find_soc() -> Result<PathBuf, CliError> {
    let here = PathBuf::from(SOC_IN_CACHE);
    let tree = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(SOC_IN_CACHE);
    for p in [&here, &tree] {
        if p.is_file() {
            return Ok(p.clone());
        }
    }
    Err(CliError::new(format!(
        "no SoC descriptor at {} or {}; run scripts/fetch-ttnn.sh (it extracts blackhole_140_arch.yaml from the ttnn wheel) or pass --soc FILE",
        here.display(),
        tree.display()
    )))
}

/// Copies `from` to `dir/name` through a temporary file and a rename.
fn install(from: &Path, dir: &Path, name: &str) -> Result<PathBuf, CliError> {
    let to = dir.join(name);
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    std::fs::copy(from, &tmp).map_err(|e| {
        CliError::new(format!(
            "cannot copy {} to {}: {e}",
            from.display(),
            tmp.display()
        ))
    })?;
    std::fs::rename(&tmp, &to).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        CliError::new(format!(
            "cannot rename {} to {}: {e}",
            tmp.display(),
            to.display()
        ))
    })?;
    Ok(to)
}

/// Records `system` beside the library (`ttsim::installed`); a p150 removes the
/// record, so the directory opens as one chip again.
fn record_system(dir: &Path, system: bhemu_chip::SystemKind) -> Result<(), CliError> {
    let f = dir.join(ttsim::installed::SYSTEM_FILE);
    let r = match system {
        bhemu_chip::SystemKind::P150 if !f.exists() => Ok(()),
        bhemu_chip::SystemKind::P150 => std::fs::remove_file(&f),
        s => std::fs::write(&f, format!("{}\n", s.name())),
    };
    r.map_err(|e| CliError::new(format!("cannot record the system in {}: {e}", f.display())))?;
    if system != bhemu_chip::SystemKind::P150 {
        println!("recorded system {} in {}", system.name(), f.display());
    }
    Ok(())
}

pub fn run(a: InstallSimArgs) -> Result<ExitCode, CliError> {
    let lib = match a.lib {
        Some(p) if p.is_file() => p,
        Some(p) => {
            return Err(CliError::new(format!(
                "--lib {}: no such file",
                p.display()
            )))
        }
        None => find_lib()?,
    };
    let soc = match a.soc {
        Some(p) if p.is_file() => p,
        Some(p) => {
            return Err(CliError::new(format!(
                "--soc {}: no such file",
                p.display()
            )))
        }
        None => find_soc()?,
    };
    // tt-umd takes the architecture from `arch_name` (docs/tt-umd-sim-interface.md §7).
    let text = std::fs::read_to_string(&soc)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", soc.display())))?;
    let arch = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("arch_name:"))
        .map(|v| v.trim().trim_matches(['"', '\'']).to_string());
    match arch.as_deref() {
        Some(v) if v.eq_ignore_ascii_case("blackhole") => {}
        Some(v) => {
            return Err(CliError::new(format!(
                "{}: arch_name is {v}; bhemu's libttsim.so is a Blackhole chip",
                soc.display()
            )))
        }
        None => {
            return Err(CliError::new(format!(
                "{}: no arch_name; not a tt-metal SoC descriptor",
                soc.display()
            )))
        }
    }
    let system = match &a.system {
        Some(n) => bhemu_chip::SystemKind::parse(n)
            .map_err(|e| CliError::new(format!("--system: {}", e.message)))?,
        None => bhemu_chip::SystemKind::P150,
    };
    std::fs::create_dir_all(&a.dir)
        .map_err(|e| CliError::new(format!("cannot create {}: {e}", a.dir.display())))?;
    let so = install(&lib, &a.dir, LIB_NAME)?;
    record_system(&a.dir, system)?;
    let yaml = install(&soc, &a.dir, "soc_descriptor.yaml")?;
    println!("installed {} (from {})", so.display(), lib.display());
    println!("installed {} (from {})", yaml.display(), soc.display());
    println!(
        "use: tt_umd.create_simulation_tt_device(\"{}\")  or  TT_METAL_SIMULATOR={}",
        so.display(),
        so.display()
    );
    match &a.metal_runtime {
        Some(rt) => println!("{}", metal_env(&so, rt)?),
        None => println!(
            "tt-metal (libtt_metal.so): prepare a runtime with scripts/setup-metal-runtime.sh, then pass it as --metal-runtime DIR"
        ),
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metal_runtime_must_be_complete_and_yields_the_tt_metal_environment() {
        let dir = std::env::temp_dir().join(format!("bhemu-metal-rt-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let so = Path::new("/sim/libttsim.so");
        let e = metal_env(so, &dir).unwrap_err().to_string();
        assert!(e.contains("no READY"), "{e}");
        for f in METAL_RUNTIME_FILES {
            let p = dir.join(f);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, b"").unwrap();
        }
        let env = metal_env(so, &dir).unwrap();
        let d = dir.canonicalize().unwrap();
        assert_eq!(
            env,
            format!(
                "tt-metal: TT_METAL_SIMULATOR=/sim/libttsim.so TT_METAL_RUNTIME_ROOT={}/root TT_METAL_SLOW_DISPATCH_MODE=1 LD_LIBRARY_PATH={}/lib PROGRAM",
                d.display(),
                d.display()
            )
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
