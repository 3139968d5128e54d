//! `.tsx` programs: a text program for the coprocessor alone.
//!
//! ```text
//! # comment
//! sem 1 init 0 max 2          # initial semaphore state, before cycle 0
//! [t1]                        # thread sections: [t0], [t1], [t2]
//! mopcfg 5 = 0x45000404       # this thread's MopCfg[5], before cycle 0
//! ttsemwait 322, 2, 2         # assembly (bhemu_isa::tensix::assemble) ...
//! .word 0x45001234            # ... or a raw 32-bit word
//! ```
//! Data-path lines (Blackhole): state to preload before cycle 0 and what to dump after the
//! run.
//! ```text
//! l1 0x10000 = bf16 [1.0, 2.5, -3]     # values in a format: bf16 fp16 fp32 u8 u16 u32
//! l1 0x10800 = bf16 ramp 0.0 0.5 1024  # START STEP COUNT
//! l1 0x20000 = file input.bin          # raw bytes, path relative to the program
//! cfg ALU_FORMAT_SPEC_REG0_SrcA = 5    # a field of cfg_defines.h (outside a section:
//!                                      # Config state 0; inside [tN]: thread N's view)
//! cfg 64 = 0x04000015                  # a whole Config word by index (e.g. a word of a
//!                                      # 128-bit TileDescriptor)
//! gpr 4 = 0x1234                       # inside [tN]: GPRs[N][4]
//! dst 8 = fp32 [1.5, -2, ...]          # Dst from row 8, 16 values a row: fp32/u32 into
//!                                      # Dst32b, bf16/fp16/u16 into Dst16b, floats in Dst's
//!                                      # own bit layout (Dst.md), as thread 0 addresses them
//! dump l1 0x20000 bf16 1024            # after the run: ADDR FORMAT COUNT
//! dump dst 0..63 bf16                  # Dst rows (Dst16b for bf16/fp16/raw16,
//!                                      # Dst32b for fp32/raw32), as thread 0 addresses them
//! ```
//! Errors name the file, the line and the reason.
use bhemu_isa::tensix::{assemble, Arch};

use crate::error::{ErrorKind, TensixError};
use crate::state::CfgField;

/// An element format for preloads and dumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemFormat {
    Bf16,
    Fp16,
    Fp32,
    U8,
    U16,
    U32,
}

impl ElemFormat {
    fn parse(s: &str) -> Option<ElemFormat> {
        Some(match s {
            "bf16" => ElemFormat::Bf16,
            "fp16" => ElemFormat::Fp16,
            "fp32" => ElemFormat::Fp32,
            "u8" => ElemFormat::U8,
            "u16" => ElemFormat::U16,
            "u32" => ElemFormat::U32,
            _ => return None,
        })
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemFormat::U8 => 1,
            ElemFormat::Bf16 | ElemFormat::Fp16 | ElemFormat::U16 => 2,
            ElemFormat::Fp32 | ElemFormat::U32 => 4,
        }
    }

    /// The spelling in programs and output.
    pub fn name(self) -> &'static str {
        match self {
            ElemFormat::Bf16 => "bf16",
            ElemFormat::Fp16 => "fp16",
            ElemFormat::Fp32 => "fp32",
            ElemFormat::U8 => "u8",
            ElemFormat::U16 => "u16",
            ElemFormat::U32 => "u32",
        }
    }

    /// Encodes one value: floats are rounded to nearest-even by the host's conversion for
    /// fp32, and truncated from that fp32 for bf16 (a number written with at most 8
    /// significant bits is exact); `0x` hex gives the raw bits.
    fn encode(self, tok: &str) -> Option<Vec<u8>> {
        let tok = tok.trim();
        let raw = if tok.starts_with("0x") || tok.starts_with("0X") {
            Some(parse_num(tok)?)
        } else {
            None
        };
        let bits: u64 = match (self, raw) {
            (_, Some(r)) => r,
            (ElemFormat::Fp32, None) => tok.parse::<f32>().ok()?.to_bits() as u64,
            (ElemFormat::Bf16, None) => (tok.parse::<f32>().ok()?.to_bits() >> 16) as u64,
            (ElemFormat::Fp16, None) => f32_to_fp16(tok.parse::<f32>().ok()?)? as u64,
            (_, None) => parse_num(tok)?,
        };
        if self.size() < 8 && bits >> (8 * self.size()) != 0 {
            return None;
        }
        Some(bits.to_le_bytes()[..self.size()].to_vec())
    }
}

/// An exactly representable FP16 (normal or zero) for `f`, else `None`.
fn f32_to_fp16(f: f32) -> Option<u16> {
    if f == 0.0 {
        return Some(if f.is_sign_negative() { 0x8000 } else { 0 });
    }
    let x = f.to_bits();
    let sign = ((x >> 31) as u16) << 15;
    let e = ((x >> 23) & 0xff) as i32 - 127 + 15;
    let m = x & 0x7f_ffff;
    if !(1..=30).contains(&e) || m & 0x1fff != 0 {
        return None;
    }
    Some(sign | ((e as u16) << 10) | (m >> 13) as u16)
}

/// Something to dump after the run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dump {
    L1 {
        addr: u32,
        format: ElemFormat,
        count: usize,
    },
    /// Rows `first..=last` of `Dst16b` (16-bit formats) or `Dst32b` (32-bit ones).
    Dst {
        first: u32,
        last: u32,
        format: ElemFormat,
    },
}

/// A configuration write before cycle 0: the field, the thread whose view is used (`None`:
/// Config state 0) and the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CfgPreload {
    pub field: CfgField,
    pub thread: Option<usize>,
    pub value: u32,
}

/// One thread's part of a program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThreadProgram {
    /// MopCfg writes applied before cycle 0, in order.
    pub mopcfg: Vec<(usize, u32)>,
    /// Words to push, with their source line numbers.
    pub words: Vec<(u32, usize)>,
    /// GPR values before cycle 0.
    pub gprs: Vec<(usize, u32)>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// (index, value, max) applied before cycle 0.
    pub sems: Vec<(usize, u8, u8)>,
    pub threads: [ThreadProgram; 3],
    /// L1 bytes before cycle 0.
    pub l1: Vec<(u32, Vec<u8>)>,
    /// Configuration fields before cycle 0, in order.
    pub cfg: Vec<CfgPreload>,
    /// `Dst` values before cycle 0: first row, format, the values' bytes (little-endian).
    pub dst: Vec<(u32, ElemFormat, Vec<u8>)>,
    /// What to dump after the run.
    pub dumps: Vec<Dump>,
}

fn parse_num(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(&h.replace('_', ""), 16).ok()
    } else {
        s.replace('_', "").parse().ok()
    }
}

fn err(file: &str, line: usize, reason: impl std::fmt::Display) -> TensixError {
    TensixError::new(ErrorKind::Invalid, 0, format!("{file}:{line}: {reason}"))
}

/// Where a line is, for its errors.
#[derive(Clone, Copy)]
struct At<'a> {
    file: &'a str,
    line: usize,
}

impl At<'_> {
    fn err(self, reason: impl std::fmt::Display) -> TensixError {
        err(self.file, self.line, reason)
    }

    /// `text` as a number below `limit`, or `what` named in the error.
    fn number_below(self, text: &str, limit: u64, what: &str) -> Result<u64, TensixError> {
        parse_num(text)
            .filter(|&v| v < limit)
            .ok_or_else(|| self.err(format!("{what} `{}` is not 0-{}", text.trim(), limit - 1)))
    }

    /// `text` as a 32-bit number; `what` (empty, or ending in a space) prefixes the error.
    fn word(self, text: &str, what: &str) -> Result<u32, TensixError> {
        parse_num(text)
            .filter(|&v| v <= u32::MAX as u64)
            .map(|v| v as u32)
            .ok_or_else(|| self.err(format!("{what}`{}` is not a 32-bit number", text.trim())))
    }
}

/// Parse `text` (named `file` in errors) for `arch`.
pub fn parse(arch: Arch, file: &str, text: &str) -> Result<Program, TensixError> {
    let mut p = Program::default();
    let mut current: Option<usize> = None;
    for (n, raw) in text.lines().enumerate() {
        let at = At { file, line: n + 1 };
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(sec) = line.strip_prefix('[') {
            current = Some(parse_section(at, sec)?);
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        let rest = &line[first.len()..];
        match first {
            "l1" => p.l1.push(parse_l1(file, at.line, rest)?),
            "dst" => p.dst.push(parse_dst_preload(at, rest)?),
            "cfg" => p.cfg.push(parse_cfg_preload(at, rest, current)?),
            "dump" => p.dumps.push(parse_dump(file, at.line, rest)?),
            "sem" => p.sems.push(parse_sem(at, line)?),
            _ => {
                let Some(t) = current else {
                    return Err(
                        at.err("instruction or mopcfg before any `[t0]`/`[t1]`/`[t2]` section")
                    );
                };
                let thread = &mut p.threads[t];
                match first {
                    "mopcfg" => {
                        let (i, v) = rest
                            .split_once('=')
                            .ok_or_else(|| at.err("expected `mopcfg I = VALUE`"))?;
                        let i = at.number_below(i, 9, "MopCfg index")?;
                        thread
                            .mopcfg
                            .push((i as usize, at.word(v, "MopCfg value ")?));
                    }
                    "gpr" => {
                        let (i, v) = rest
                            .split_once('=')
                            .ok_or_else(|| at.err("expected `gpr N = VALUE`"))?;
                        let i = at.number_below(i, 64, "GPR index")?;
                        thread.gprs.push((i as usize, at.word(v, "")?));
                    }
                    ".word" => thread.words.push((parse_dot_word(at, rest)?, at.line)),
                    _ => match assemble(arch, line) {
                        Ok(w) => thread.words.push((w, at.line)),
                        Err(e) => return Err(at.err(format!("cannot assemble `{line}`: {e}"))),
                    },
                }
            }
        }
    }
    Ok(p)
}

/// `[t0]`, `[t1]` or `[t2]` (after the `[`): the thread the following lines program.
fn parse_section(at: At, sec: &str) -> Result<usize, TensixError> {
    let name = sec
        .strip_suffix(']')
        .ok_or_else(|| at.err("a section header is `[t0]`, `[t1]` or `[t2]`"))?;
    match name.trim() {
        "t0" | "T0" => Ok(0),
        "t1" | "T1" => Ok(1),
        "t2" | "T2" => Ok(2),
        other => Err(at.err(format!(
            "unknown section `[{other}]` (threads are t0, t1, t2)"
        ))),
    }
}

/// `dst ROW = FORMAT [values]` (after the `dst`): the value syntax of `l1`, the address being a
/// Dst row.
fn parse_dst_preload(at: At, rest: &str) -> Result<(u32, ElemFormat, Vec<u8>), TensixError> {
    let (row, bytes) = parse_l1(at.file, at.line, rest)?;
    let kind = rest
        .split_once('=')
        .map(|(_, r)| r.trim())
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or("");
    let fmt = ElemFormat::parse(kind)
        .filter(|f| *f != ElemFormat::U8)
        .ok_or_else(|| {
            at.err("a Dst preload is `dst ROW = FORMAT [values]` with FORMAT one of bf16 fp16 fp32 u16 u32")
        })?;
    let rows = bytes.len().div_ceil(fmt.size() * crate::state::DST_COLS);
    if row as usize + rows > crate::state::DST_ROWS {
        return Err(at.err(format!("{rows} rows from row {row} leave Dst (1024 rows)")));
    }
    Ok((row, fmt, bytes))
}

/// `cfg NAME = VALUE` or `cfg WORD = VALUE` (after the `cfg`); a ThreadConfig field only inside
/// a thread's section, which it then applies to.
fn parse_cfg_preload(
    at: At,
    rest: &str,
    current: Option<usize>,
) -> Result<CfgPreload, TensixError> {
    let (name, v) = rest
        .split_once('=')
        .ok_or_else(|| at.err("expected `cfg NAME = VALUE`"))?;
    let raw_word = parse_num(name)
        .filter(|&w| (w as usize) < crate::state::CFG_WORDS)
        .map(|w| CfgField {
            name: "word",
            space: crate::state::Space::Config,
            addr32: w as usize,
            shamt: 0,
            mask: u32::MAX,
        });
    let field = raw_word
        .or_else(|| CfgField::by_name(name.trim()))
        .ok_or_else(|| {
            at.err(format!(
                "`{}` is not a field of Blackhole's cfg_defines.h",
                name.trim()
            ))
        })?;
    let value = at.word(v, "")?;
    let width_max = field.mask >> field.shamt;
    if value > width_max {
        return Err(at.err(format!(
            "{value:#x} does not fit {} (at most {width_max:#x})",
            field.name
        )));
    }
    if field.space == crate::state::Space::Thread && current.is_none() {
        return Err(at.err(format!(
            "{} is a ThreadConfig field: set it inside a [tN] section",
            field.name
        )));
    }
    Ok(CfgPreload {
        field,
        thread: current,
        value,
    })
}

/// `sem N init V max M`.
fn parse_sem(at: At, line: &str) -> Result<(usize, u8, u8), TensixError> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    if toks.len() != 6 || toks[2] != "init" || toks[4] != "max" {
        return Err(at.err("expected `sem N init V max M`"));
    }
    let idx = at.number_below(toks[1], 8, "semaphore index")?;
    let v = at.number_below(toks[3], 16, "semaphore value")?;
    let m = at.number_below(toks[5], 16, "semaphore max")?;
    Ok((idx as usize, v as u8, m as u8))
}

/// `.word VALUE` (after the `.word`): one raw instruction word.
fn parse_dot_word(at: At, rest: &str) -> Result<u32, TensixError> {
    let mut words = rest.split_whitespace();
    let v = words
        .next()
        .ok_or_else(|| at.err("`.word` needs a value"))?;
    if words.next().is_some() {
        return Err(at.err("`.word` takes exactly one value"));
    }
    at.word(v, "")
}

/// `l1 ADDR = FMT [..]` / `FMT ramp START STEP COUNT` / `file PATH` (after the `l1`).
fn parse_l1(file: &str, line: usize, rest: &str) -> Result<(u32, Vec<u8>), TensixError> {
    let (addr, rhs) = rest
        .split_once('=')
        .ok_or_else(|| err(file, line, "expected `l1 ADDR = FORMAT [values]`"))?;
    let addr = parse_num(addr)
        .filter(|&a| a <= u32::MAX as u64)
        .ok_or_else(|| err(file, line, format!("`{}` is not an address", addr.trim())))?;
    let rhs = rhs.trim();
    let (kind, body) = rhs.split_once(char::is_whitespace).unwrap_or((rhs, ""));
    if kind == "file" {
        let path = std::path::Path::new(file)
            .parent()
            .unwrap_or(std::path::Path::new("."))
            .join(body.trim());
        let bytes = std::fs::read(&path)
            .map_err(|e| err(file, line, format!("cannot read {}: {e}", path.display())))?;
        return Ok((addr as u32, bytes));
    }
    let fmt = ElemFormat::parse(kind).ok_or_else(|| {
        err(
            file,
            line,
            format!("`{kind}` is not a format (bf16 fp16 fp32 u8 u16 u32) or `file`"),
        )
    })?;
    let body = body.trim();
    let mut bytes = Vec::new();
    if let Some(r) = body.strip_prefix("ramp") {
        let t: Vec<&str> = r.split_whitespace().collect();
        let bad = || err(file, line, "expected `ramp START STEP COUNT`");
        if t.len() != 3 {
            return Err(bad());
        }
        let start: f64 = t[0].parse().map_err(|_| bad())?;
        let step: f64 = t[1].parse().map_err(|_| bad())?;
        let count = parse_num(t[2]).filter(|&c| c <= 1 << 20).ok_or_else(bad)?;
        for i in 0..count {
            let v = start + step * i as f64;
            let tok = format!("{v}");
            let e = fmt.encode(&tok).ok_or_else(|| {
                err(
                    file,
                    line,
                    format!("ramp value {v} is not exact in {}", fmt.name()),
                )
            })?;
            bytes.extend(e);
        }
        return Ok((addr as u32, bytes));
    }
    let inner = body
        .strip_prefix('[')
        .and_then(|b| b.strip_suffix(']'))
        .ok_or_else(|| err(file, line, "values go in brackets: `[1.0, 2.0]`"))?;
    for tok in inner.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        let e = fmt
            .encode(tok)
            .ok_or_else(|| err(file, line, format!("`{tok}` is not a {} value", fmt.name())))?;
        bytes.extend(e);
    }
    Ok((addr as u32, bytes))
}

/// `dump l1 ADDR FMT COUNT` / `dump dst FIRST..LAST FMT` (after the `dump`).
fn parse_dump(file: &str, line: usize, rest: &str) -> Result<Dump, TensixError> {
    let t: Vec<&str> = rest.split_whitespace().collect();
    let fmt = |s: &str| {
        ElemFormat::parse(s).ok_or_else(|| {
            err(
                file,
                line,
                format!("`{s}` is not a format (bf16 fp16 fp32 u8 u16 u32)"),
            )
        })
    };
    match t.as_slice() {
        ["l1", addr, f, count] => Ok(Dump::L1 {
            addr: parse_num(addr)
                .filter(|&a| a <= u32::MAX as u64)
                .ok_or_else(|| err(file, line, format!("`{addr}` is not an address")))?
                as u32,
            format: fmt(f)?,
            count: parse_num(count)
                .filter(|&c| c <= 1 << 20)
                .ok_or_else(|| err(file, line, format!("`{count}` is not a count")))?
                as usize,
        }),
        ["dst", rows, f] => {
            let format = fmt(f)?;
            let (a, b) = rows.split_once("..").unwrap_or((rows, rows));
            let limit = if format.size() == 4 { 512 } else { 1024 };
            let first = parse_num(a).filter(|&v| v < limit);
            let last = parse_num(b).filter(|&v| v < limit);
            match (first, last) {
                (Some(x), Some(y)) if x <= y => Ok(Dump::Dst {
                    first: x as u32,
                    last: y as u32,
                    format,
                }),
                _ => Err(err(
                    file,
                    line,
                    format!("`{rows}` is not a row range FIRST..LAST below {limit}"),
                )),
            }
        }
        _ => Err(err(
            file,
            line,
            "expected `dump l1 ADDR FORMAT COUNT` or `dump dst FIRST..LAST FORMAT`",
        )),
    }
}
