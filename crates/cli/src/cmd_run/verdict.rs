//! What `bhemu run` compares an output with: the built-in references (`op(a, b)`), computed
//! independently of the emulator, and the measures of a difference (ulp distance, PCC).
use super::*;

/// A parsed `reference = "op(a, b)"`.
pub(super) struct Reference {
    pub(super) op: String,
    pub(super) operands: Vec<String>,
}

pub(super) fn parse_reference(s: &str, field: &str) -> Result<Reference, CliError> {
    let bad = || {
        CliError::new(format!(
            "{field}: '{s}' is not OP(INPUT[, INPUT]) with OP one of copy, relu, add, sub, mul, matmul, {}", bhemu_refmath::sfpu::OPS.join(", ")
        ))
    };
    let (op, rest) = s.split_once('(').ok_or_else(bad)?;
    let inner = rest.strip_suffix(')').ok_or_else(bad)?;
    let operands: Vec<String> = inner.split(',').map(|x| x.trim().to_string()).collect();
    let arity = match op.trim() {
        "copy" | "relu" => 1,
        op if bhemu_refmath::sfpu::OPS.contains(&op) => 1,
        "add" | "sub" | "mul" | "matmul" => 2,
        _ => return Err(bad()),
    };
    if operands.len() != arity || operands.iter().any(|o| o.is_empty()) {
        return Err(bad());
    }
    Ok(Reference {
        op: op.trim().to_string(),
        operands,
    })
}

/// Index of element (r, c) of a 32x32 tile stored as four 16x16 row-major faces.
pub(super) fn tile_index(r: usize, c: usize) -> usize {
    ((r / 16) * 2 + c / 16) * 256 + (r % 16) * 16 + c % 16
}

/// The reference output for one tile's buffers, computed in f64 from the documented meaning of
/// each op and rounded once into the output format.
pub(super) fn reference_output(
    r: &Reference,
    ins: &[(Format, &[u8])],
    out_f: Format,
    n: usize,
    math: Math,
) -> Vec<u8> {
    let all_bf16 = out_f == Format::Bf16 && ins.iter().all(|(f, _)| *f == Format::Bf16);
    // Only the Matrix Unit's ops take the Matrix Unit's model; copy, relu and the SFPU ops
    // (`bhemu_refmath::sfpu`) are computed below.
    if all_bf16 && matches!(r.op.as_str(), "add" | "sub" | "mul" | "matmul") {
        return matrix_unit_reference(r, ins, n, math);
    }
    let mut out = Vec::with_capacity(n * out_f.bytes());
    let a = |i| element(ins[0].0, ins[0].1, i);
    let b = |i| element(ins[1].0, ins[1].1, i);
    match r.op.as_str() {
        "matmul" => {
            for t in 0..n / 1024 {
                for row in 0..32 {
                    for col in 0..32 {
                        let mut acc = 0.0;
                        for k in 0..32 {
                            acc +=
                                a(t * 1024 + tile_index(row, k)) * b(t * 1024 + tile_index(k, col));
                        }
                        encode(out_f, acc, &mut out);
                    }
                }
                // Re-order this tile's row-major results into faces.
                let start = out.len() - 1024 * out_f.bytes();
                let rm: Vec<u8> = out[start..].to_vec();
                let w = out_f.bytes();
                for row in 0..32 {
                    for col in 0..32 {
                        let dst = start + tile_index(row, col) * w;
                        let src = (row * 32 + col) * w;
                        out[dst..dst + w].copy_from_slice(&rm[src..src + w]);
                    }
                }
            }
        }
        op => {
            for i in 0..n {
                let v = match op {
                    "copy" => a(i),
                    "relu" => a(i).max(0.0),
                    "add" => a(i) + b(i),
                    "sub" => a(i) - b(i),
                    "mul" => a(i) * b(i),
                    // The SFPU's integer ops work on the 32 bits of each datum.
                    other if bhemu_refmath::sfpu::INT_OPS.contains(&other) => {
                        let y = bhemu_refmath::sfpu::int_value(other, raw32(ins[0].0, ins[0].1, i))
                            .unwrap_or(0);
                        if out_f.bytes() == 4 {
                            out.extend_from_slice(&y.to_le_bytes());
                            continue;
                        }
                        f64::from(y as i32)
                    }
                    other => match bhemu_refmath::sfpu::value(other, &a, n, i) {
                        // BF16 bits as the packer writes them (an f64 detour would
                        // quiet a signalling NaN).
                        Some(h) if out_f == Format::Bf16 => {
                            out.extend_from_slice(&bhemu_refmath::sfpu::packed(h).to_le_bytes());
                            continue;
                        }
                        Some(h) => f64::from(f32::from_bits(u32::from(h) << 16)),
                        None => f64::NAN,
                    },
                };
                encode(out_f, v, &mut out);
            }
        }
    }
    out
}

/// `BHEMU_RUN_DUMP=DIR`: each output tile's bytes and its reference are written to
/// `DIR/NAME.TILE.{got,want}.bin` for diagnosing a difference; failures to write are ignored
/// (diagnostics only, the verdict is unaffected).
pub(super) fn dump_for_diagnosis(name: &str, tile: usize, got: &[u8], want: &[u8]) {
    if let Some(dir) = std::env::var_os("BHEMU_RUN_DUMP") {
        let dir = Path::new(&dir);
        let _ = std::fs::write(dir.join(format!("{name}.{tile}.got.bin")), got);
        let _ = std::fs::write(dir.join(format!("{name}.{tile}.want.bin")), want);
    }
}

/// `add`/`sub`/`mul`/`matmul` of bf16 tiles as the Matrix Unit computes them into `Dst` and the
/// packer writes them out (`run_reference`), tile by tile (32x32, four row-major 16x16 faces).
pub(super) fn matrix_unit_reference(
    r: &Reference,
    ins: &[(Format, &[u8])],
    n: usize,
    math: Math,
) -> Vec<u8> {
    let h = |k: usize, i: usize| u16::from_le_bytes([ins[k].1[2 * i], ins[k].1[2 * i + 1]]);
    let mut out = Vec::with_capacity(2 * n);
    if r.op == "matmul" {
        // Each block's operands are read once into row-major BF16 matrices (`in0` M x K
        // rows, `in1` stored by column), instead of once per multiply-add of every datum.
        let [mt, kt, nt] = math.mkn;
        let (rows, inner, cols) = (32 * mt, 32 * kt, 32 * nt);
        let per_block = 1024 * mt * nt;
        for b in 0..n / per_block.max(1) {
            let (a0, b0) = (b * mt * kt * 1024, b * kt * nt * 1024);
            let mut a = vec![0u16; rows * inner];
            let mut bt = vec![0u16; cols * inner];
            for row in 0..rows {
                for x in 0..inner {
                    let i = a0 + ((row / 32) * kt + x / 32) * 1024 + tile_index(row % 32, x % 32);
                    a[row * inner + x] = h(0, i);
                }
            }
            for x in 0..inner {
                for c in 0..cols {
                    let i = b0 + ((x / 32) * nt + c / 32) * 1024 + tile_index(x % 32, c % 32);
                    bt[c * inner + x] = h(1, i);
                }
            }
            // Tile o of the block (row-major M x N), datum e of the tile, in output order.
            for i in 0..per_block {
                let (o, e) = (i / 1024, i % 1024);
                let (tr, tc) = (o / nt, o % nt);
                let (row, col) = ((e / 512) * 16 + (e % 256) / 16, (e / 256 % 2) * 16 + e % 16);
                let (ar, bc) = ((tr * 32 + row) * inner, (tc * 32 + col) * inner);
                let v = model::matmul_datum(
                    math,
                    kt,
                    |k, x| a[ar + 32 * k + x],
                    |k, x| bt[bc + 32 * k + x],
                );
                out.extend_from_slice(&model::pack_to_bf16(v).to_le_bytes());
            }
        }
        return out;
    }
    for i in 0..n {
        let v = match r.op.as_str() {
            "add" => model::elw_add(math, h(0, i), h(1, i), false),
            "sub" => model::elw_add(math, h(0, i), h(1, i), true),
            // "mul": reference_output sends only add, sub, mul and matmul here.
            _ => model::elw_mul(math, h(0, i), h(1, i)),
        };
        out.extend_from_slice(&model::pack_to_bf16(v).to_le_bytes());
    }
    out
}

/// Distance in units of the last place between two values of `f` (bit patterns ordered as
/// sign-magnitude integers).
pub(super) fn ulp_distance(f: Format, a: &[u8], b: &[u8]) -> u64 {
    let ordered = |bits: u64, width: u32| -> i64 {
        let sign = 1u64 << (width - 1);
        if bits & sign != 0 {
            -((bits & (sign - 1)) as i64)
        } else {
            bits as i64
        }
    };
    match f {
        Format::Bf16 => {
            let x = ordered(u64::from(u16::from_le_bytes([a[0], a[1]])), 16);
            let y = ordered(u64::from(u16::from_le_bytes([b[0], b[1]])), 16);
            x.abs_diff(y)
        }
        Format::Fp32 => {
            let x = ordered(u64::from(u32::from_le_bytes([a[0], a[1], a[2], a[3]])), 32);
            let y = ordered(u64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])), 32);
            x.abs_diff(y)
        }
        _ => u64::from(a != b),
    }
}

/// Pearson correlation of two equally long series (1 when both are constant and equal).
pub(super) fn pcc(x: &[f64], y: &[f64]) -> f64 {
    // Over the pairs where both values are finite: NaN and infinity have no place in a
    // correlation; bit-exactness and the ulp distance still judge them.
    let (x, y): (Vec<f64>, Vec<f64>) = x
        .iter()
        .zip(y)
        .filter(|(a, b)| a.is_finite() && b.is_finite())
        .map(|(a, b)| (*a, *b))
        .unzip();
    let n = x.len() as f64;
    if x.is_empty() {
        return 1.0;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(&y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return if x == y { 1.0 } else { 0.0 };
    }
    sxy / (sxx * syy).sqrt()
}

#[derive(serde::Serialize)]
pub(super) struct Verdict {
    pub(super) name: String,
    pub(super) reference: String,
    pub(super) bit_exact: bool,
    pub(super) max_ulp: Option<u64>,
    pub(super) pcc: f64,
    pub(super) mismatched_tiles: usize,
}

/// `f` of every tile's inputs, in tile order, spread over the machine's cores; `None` for the
/// tiles of a thread that panicked.
pub(super) fn per_tile_parallel<T: Send>(
    inputs: &[Vec<Vec<u8>>],
    f: impl Fn(&[Vec<u8>]) -> T + Sync,
) -> Vec<Option<T>> {
    let threads = bhemu_chip::threads::machine_threads().clamp(1, inputs.len().max(1));
    let chunk = inputs.len().div_ceil(threads).max(1);
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = inputs
            .chunks(chunk)
            .map(|part| {
                let h = s.spawn(move || part.iter().map(|t| f(t)).collect::<Vec<T>>());
                (part.len(), h)
            })
            .collect();
        let mut out = Vec::with_capacity(inputs.len());
        for (len, h) in handles {
            match h.join() {
                Ok(v) => out.extend(v.into_iter().map(Some)),
                Err(_) => out.extend(std::iter::repeat_with(|| None).take(len)),
            }
        }
        out
    })
}

/// Every output's verdict against its reference (or file), over all tiles.
pub(super) fn verdicts(c: &Compared) -> Result<Vec<Verdict>, CliError> {
    let Compared {
        p,
        chip,
        layout: l,
        base,
        inputs,
        in_formats,
        out_formats,
        refs,
        math,
    } = *c;
    let mut verdicts = Vec::new();
    for (i, o) in p.output.iter().enumerate() {
        let f = out_formats[i];
        let n_bytes = o.pages as usize * o.page_size as usize;
        let n = f.elements(n_bytes);
        let file_ref = match &o.file {
            Some(file) => Some(
                std::fs::read(base.join(file))
                    .map_err(|e| CliError::new(format!("output[{i}].file: {e}")))?,
            ),
            None => None,
        };
        let (mut exact, mut max_ulp, mut bad_tiles) = (true, 0u64, 0usize);
        let (mut xs, mut ys) = (Vec::new(), Vec::new());
        let mut compared = false;
        // The references of all tiles, computed on the machine's cores: on 140 tiles the
        // independent model costs more host time than the run itself.
        let computed = refs[i].as_ref().map(|rf| {
            per_tile_parallel(inputs, |tile_inputs| {
                let ins: Vec<(Format, &[u8])> = rf
                    .operands
                    .iter()
                    .map(|op| {
                        let j = p.input.iter().position(|b| &b.name == op).unwrap_or(0);
                        (in_formats[j], tile_inputs[j].as_slice())
                    })
                    .collect();
                reference_output(rf, &ins, f, n, math)
            })
        });
        for (ti, _) in inputs.iter().enumerate() {
            let region = DRAM_BASE + l.per_tile * ti as u64;
            let mut got = vec![0u8; n_bytes];
            chip.dram()
                .read(0, region + l.buffers[&o.name].0, &mut got)
                .map_err(|e| CliError::new(format!("output[{i}]: {e}")))?;
            let want = match (&computed, &file_ref) {
                (Some(c), _) => match c.get(ti) {
                    Some(Some(w)) => w.clone(),
                    _ => {
                        return Err(CliError::new(format!(
                            "output[{i}]: computing the reference of tile {ti} failed \
                             (internal error)"
                        )))
                    }
                },
                (None, Some(d)) => d.clone(),
                (None, None) => continue,
            };
            compared = true;
            if want.len() != got.len() {
                return Err(CliError::new(format!(
                    "output[{i}].file: {} bytes, the output has {}",
                    want.len(),
                    got.len()
                )));
            }
            if want != got {
                exact = false;
                bad_tiles += 1;
            }
            dump_for_diagnosis(&o.name, ti, &got, &want);
            for e in 0..n {
                if f.float() {
                    let (a, b) = (&got[e * f.bytes()..], &want[e * f.bytes()..]);
                    max_ulp = max_ulp.max(ulp_distance(f, a, b));
                }
                xs.push(element(f, &got, e));
                ys.push(element(f, &want, e));
            }
        }
        if compared {
            verdicts.push(Verdict {
                name: o.name.clone(),
                reference: o
                    .reference
                    .clone()
                    .or_else(|| o.file.as_ref().map(|f| f.display().to_string()))
                    .unwrap_or_default(),
                bit_exact: exact,
                max_ulp: f.float().then_some(max_ulp),
                pcc: pcc(&xs, &ys),
                mismatched_tiles: bad_tiles,
            });
        }
    }
    Ok(verdicts)
}
