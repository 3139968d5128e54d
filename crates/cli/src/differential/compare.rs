//! Every byte of one output as bhemu and the reference produced it, compared element by
//! element. A mismatch line names the output, the tile that produced it (index and NoC
//! coordinates), the element's place inside its 32x32 tile (four 16x16 faces, row-major:
//! `cmd_run`'s `tile_index`), both values with their bits, and what fed it: the inputs' elements
//! at the same place for element-wise ops, the row of A and the column of B for a matmul.
use crate::cmd_run::{datum, Format};

/// How an output's elements relate to the inputs, for naming what fed a mismatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// Output element i comes from input element i of each operand.
    Elementwise,
    /// Blocks of M x N output tiles from M x K tiles of A and K x N tiles of B (`math.mkn`).
    Matmul { mkn: [usize; 3] },
    /// Nothing known (a reference file, or no reference).
    Unknown,
}

/// One input buffer as both simulators received it.
#[derive(Clone, Copy, Debug)]
pub struct Operand<'a> {
    pub name: &'a str,
    pub format: Format,
    pub bytes: &'a [u8],
}

/// One output buffer of one tile, from both simulators.
#[derive(Clone, Debug)]
pub struct Output<'a> {
    pub name: &'a str,
    pub tile: usize,
    pub xy: (u32, u32),
    pub format: Format,
    pub bhemu: &'a [u8],
    pub reference: &'a [u8],
    pub inputs: Vec<Operand<'a>>,
    pub relation: Relation,
}

/// What a comparison counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub elements: u64,
    pub equal: u64,
    pub different: u64,
    pub bytes: u64,
    pub bytes_different: u64,
}

impl Counts {
    pub fn add(&mut self, o: Counts) {
        self.elements += o.elements;
        self.equal += o.equal;
        self.different += o.different;
        self.bytes += o.bytes;
        self.bytes_different += o.bytes_different;
    }
}

/// (row, column) of datum `j` (0..1024) of a 32x32 tile stored as four row-major 16x16 faces.
pub fn tile_position(j: usize) -> (usize, usize) {
    let face = j / 256;
    ((face / 2) * 16 + (j % 256) / 16, (face % 2) * 16 + j % 16)
}

/// Element `i` of `bytes` in `f`: its bits in hex, then its value (a block-float datum as its
/// shared exponent and its sign-and-magnitude bits).
pub fn show(f: Format, bytes: &[u8], i: usize) -> String {
    let Some((bits, v)) = datum(f, bytes, i) else {
        return "(missing)".to_string();
    };
    match f {
        Format::Bf16 | Format::Fp16 => format!("0x{bits:04x} ({v})"),
        Format::Fp32 => format!("0x{bits:08x} ({v})"),
        Format::U32 | Format::I32 => format!("0x{bits:08x} ({v})"),
        Format::U8 => format!("0x{bits:02x} ({v})"),
        Format::Bfp8b => format!("exp 0x{:02x} datum 0x{:02x} ({v})", bits >> 8, bits & 0xff),
        Format::Bfp4b => format!("exp 0x{:02x} datum 0x{:x} ({v})", bits >> 8, bits & 0xf),
    }
}

/// Where element `i` sits, for a mismatch line.
fn place(f: Format, i: usize) -> String {
    if f.bytes() < 2 {
        return format!("byte {i}");
    }
    let (r, c) = tile_position(i % 1024);
    format!("element {i} (32x32 tile {}, row {r}, col {c})", i / 1024)
}

/// What fed output element `i`.
fn fed_by(o: &Output, i: usize) -> String {
    match o.relation {
        Relation::Elementwise if !o.inputs.is_empty() => o
            .inputs
            .iter()
            .map(|x| format!("{} = {}", x.name, show(x.format, x.bytes, i)))
            .collect::<Vec<_>>()
            .join(", "),
        Relation::Matmul { mkn: [mt, _, nt] } if o.inputs.len() == 2 => {
            let per_block = 1024 * mt * nt;
            let (block, k) = (i / per_block.max(1), i % per_block.max(1));
            let (t, (r, c)) = (k / 1024, tile_position(k % 1024));
            let (row, col) = ((t / nt.max(1)) * 32 + r, (t % nt.max(1)) * 32 + c);
            format!(
                "row {row} of {} and column {col} of {} (block {block})",
                o.inputs[0].name, o.inputs[1].name
            )
        }
        _ => "inputs unknown".to_string(),
    }
}

/// Compares `o` element by element; pushes at most `max_lines` mismatch lines onto `lines`.
/// A length difference is itself reported and its missing elements count as different.
pub fn compare(o: &Output, max_lines: usize, lines: &mut Vec<String>) -> Counts {
    let len = o.bhemu.len().max(o.reference.len());
    let mut c = Counts {
        bytes: len as u64,
        bytes_different: (0..len)
            .filter(|&k| o.bhemu.get(k) != o.reference.get(k))
            .count() as u64,
        ..Counts::default()
    };
    let head = format!("{} of tile {} at ({},{})", o.name, o.tile, o.xy.0, o.xy.1);
    if o.bhemu.len() != o.reference.len() {
        lines.push(format!(
            "{head}: lengths differ, bhemu {} bytes, reference {}",
            o.bhemu.len(),
            o.reference.len()
        ));
    }
    // Elements, counting a partial one at the end.
    let n = if o.format.is_bfp() {
        o.format.elements(len.next_multiple_of(o.format.bytes()))
    } else {
        len.div_ceil(o.format.bytes())
    };
    for i in 0..n {
        let a = datum(o.format, o.bhemu, i).map(|d| d.0);
        let b = datum(o.format, o.reference, i).map(|d| d.0);
        c.elements += 1;
        if a == b && a.is_some() {
            c.equal += 1;
            continue;
        }
        c.different += 1;
        if (c.different as usize) <= max_lines {
            lines.push(format!(
                "{head}: {}: bhemu {} != reference {}; {}",
                place(o.format, i),
                show(o.format, o.bhemu, i),
                show(o.format, o.reference, i),
                fed_by(o, i)
            ));
        }
    }
    c
}

/// The summary line.
pub fn summary(c: &Counts) -> String {
    format!(
        "compared {} elements ({} bytes): {} equal, {} different ({} bytes differ)",
        c.elements, c.bytes, c.equal, c.different, c.bytes_different
    )
}
