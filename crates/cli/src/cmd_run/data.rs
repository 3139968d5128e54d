//! Buffer data of `bhemu run`: element encodings, seeded random inputs, the bytes each input
//! buffer starts with.
use super::*;

/// f32 → bf16 with round-to-nearest-even (NaN kept quiet).
pub(super) fn f32_to_bf16(v: f32) -> u16 {
    let b = v.to_bits();
    if v.is_nan() {
        return ((b >> 16) | 0x40) as u16;
    }
    let round = 0x7FFF + ((b >> 16) & 1);
    (b.wrapping_add(round) >> 16) as u16
}

pub(super) fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits(u32::from(h) << 16)
}

/// IEEE half → f32 (exact).
pub(super) fn fp16_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0f32 } else { 1.0 };
    let (e, m) = (i32::from((h >> 10) & 0x1f), f32::from(h & 0x3ff));
    match e {
        0 => sign * m * (2.0f32).powi(-24),
        31 if m == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        _ => sign * (1.0 + m / 1024.0) * (2.0f32).powi(e - 15),
    }
}

/// f32 → IEEE half, round to nearest even (overflow to infinity, NaN kept quiet).
pub(super) fn f32_to_fp16(v: f32) -> u16 {
    let b = v.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    if v.is_nan() {
        return sign | 0x7e00;
    }
    let a = v.abs();
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    // Scale so that the half's last mantissa bit has weight 1, then round to even.
    let e = if a == 0.0 {
        -14
    } else {
        (a.log2().floor() as i32).max(-14)
    };
    let ulp = (2.0f64).powi(e - 10);
    let q = (f64::from(a) / ulp).round_ties_even();
    let bits = if q >= 2048.0 {
        // Rounded up into the next binade.
        (((e + 1 + 15) as u16) << 10) | ((q / 2.0) as u16 & 0x3ff)
    } else if q >= 1024.0 {
        (((e + 15) as u16) << 10) | (q as u16 & 0x3ff)
    } else {
        q as u16 // denormal (e is -14)
    };
    sign | bits
}

/// Datum `j` (0..1024, face by face, row by row) of the BFP tile `tile`: its exponent byte and
/// its sign-and-magnitude bits.
pub(super) fn bfp_datum(f: Format, tile: &[u8], j: usize) -> Option<(u8, u8)> {
    let exp = *tile.get(j / 16)?;
    let man = match f {
        Format::Bfp4b => (tile.get(64 + j / 2)? >> ((j % 2) * 4)) & 0xf,
        _ => *tile.get(64 + j)?,
    };
    Some((exp, man))
}

/// Element `i` of `bytes` in `f`: its bits (a BFP datum as `exponent << 8 | datum`) and its
/// value; `None` past the end.
pub(crate) fn datum(f: Format, bytes: &[u8], i: usize) -> Option<(u32, f64)> {
    if f.is_bfp() {
        let tb = f.bytes();
        let tile = bytes.get((i / 1024) * tb..(i / 1024 + 1) * tb)?;
        let (exp, man) = bfp_datum(f, tile, i % 1024)?;
        let (sign_bit, frac_bits) = if f == Format::Bfp4b {
            (8u8, 2)
        } else {
            (0x80, 6)
        };
        let mag = f64::from(man & (sign_bit - 1)) / f64::from(1u32 << frac_bits);
        let v = mag * (2.0f64).powi(i32::from(exp) - 127);
        let v = if man & sign_bit != 0 { -v } else { v };
        return Some((u32::from(exp) << 8 | u32::from(man), v));
    }
    let b = bytes.get(i * f.bytes()..(i + 1) * f.bytes())?;
    let mut w = [0u8; 4];
    w[..b.len()].copy_from_slice(b);
    let bits = u32::from_le_bytes(w);
    let v = match f {
        Format::Bf16 => f64::from(bf16_to_f32(bits as u16)),
        Format::Fp16 => f64::from(fp16_to_f32(bits as u16)),
        Format::Fp32 => f64::from(f32::from_bits(bits)),
        Format::U32 | Format::U8 => f64::from(bits),
        Format::I32 => f64::from(bits as i32),
        Format::Bfp8b | Format::Bfp4b => 0.0,
    };
    Some((bits, v))
}

/// Element `i` of `bytes` in `f` as f64 (0 past the end).
pub(super) fn element(f: Format, bytes: &[u8], i: usize) -> f64 {
    datum(f, bytes, i).map_or(0.0, |d| d.1)
}

/// The 32 bits of element `i` for a 4-byte format, else its value as an int32.
pub(super) fn raw32(f: Format, bytes: &[u8], i: usize) -> u32 {
    if f.bytes() == 4 {
        let b = &bytes[i * 4..i * 4 + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    } else {
        element(f, bytes, i) as i32 as u32
    }
}

/// `v` appended in `f`; the block-float formats are not encoded element by element (`values`
/// refuses them), they append nothing.
pub(super) fn encode(f: Format, v: f64, out: &mut Vec<u8>) {
    match f {
        Format::Bf16 => out.extend_from_slice(&f32_to_bf16(v as f32).to_le_bytes()),
        Format::Fp16 => out.extend_from_slice(&f32_to_fp16(v as f32).to_le_bytes()),
        Format::Fp32 => out.extend_from_slice(&(v as f32).to_le_bytes()),
        Format::U32 => out.extend_from_slice(&(v as u32).to_le_bytes()),
        Format::U8 => out.push(v as u8),
        Format::I32 => out.extend_from_slice(&(v as i32).to_le_bytes()),
        Format::Bfp8b | Format::Bfp4b => {}
    }
}

/// xorshift32 from a seed.
pub(super) fn xorshift(seed: u32) -> impl FnMut() -> u32 {
    let mut s = seed.wrapping_mul(0x9E37_79B9) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        s
    }
}

/// Seeded inputs: floats uniform in [-2, 2) (BFP: exponents 126-128 with random datums),
/// integers uniform over their range (xorshift32). With `bits` (the `random_bits` option),
/// raw patterns over the whole encoding instead ([`random_bits`]), `bits` being the seed that
/// the inputs of one run share.
pub(super) fn random_data(f: Format, seed: u32, n_bytes: usize, bits: Option<u32>) -> Vec<u8> {
    if let Some(shared) = bits {
        return random_bits(f, seed, shared, n_bytes);
    }
    let mut next = xorshift(seed);
    let mut out = Vec::with_capacity(n_bytes);
    while out.len() < n_bytes {
        let r = next();
        match f {
            Format::Bf16 | Format::Fp16 | Format::Fp32 => encode(
                f,
                f64::from(r >> 8) / f64::from(1u32 << 24) * 4.0 - 2.0,
                &mut out,
            ),
            Format::U32 | Format::I32 => out.extend_from_slice(&r.to_le_bytes()),
            Format::U8 => out.push(r as u8),
            Format::Bfp8b | Format::Bfp4b => {
                if out.len() % f.bytes() < 64 {
                    out.push(126 + (r % 3) as u8);
                } else {
                    out.push(r as u8);
                }
            }
        }
    }
    out.truncate(n_bytes);
    out
}

/// An exponent over the whole range `0..=emax`, the extremes and their neighbours often.
fn any_exponent(r: u32, emax: u32) -> u32 {
    match r % 8 {
        0 => 0,
        1 => emax,
        2 => 1,
        3 => emax - 1,
        _ => (r >> 3) % (emax + 1),
    }
}

/// The `random_bits` inputs: raw bit patterns over the whole encoding of `f` (every exponent
/// including 0 and the maximum, so zeros of both signs, denormals, infinities and NaNs, and
/// mantissas random, zero or all ones). Most elements take an exponent within 2 of a base
/// exponent drawn per 16 elements from `shared`, the same for every input of a run, so the
/// operands of an element-wise op and the datums of a BFP block have near-equal exponents and
/// alignment rounding is exercised. Integer formats are uniform over their bits anyway.
pub(super) fn random_bits(f: Format, seed: u32, shared: u32, n_bytes: usize) -> Vec<u8> {
    let (ebits, mbits) = match f {
        Format::Bf16 => (8, 7),
        Format::Fp16 => (5, 10),
        Format::Fp32 => (8, 23),
        Format::Bfp8b | Format::Bfp4b => (8, 0),
        Format::U32 | Format::I32 | Format::U8 => return random_data(f, seed, n_bytes, None),
    };
    let emax = (1u32 << ebits) - 1;
    let mut next = xorshift(seed);
    let mut base_next = xorshift(shared ^ 0x5bd1_e995);
    let mut base = 0u32;
    let mut exponent = |i: usize, r: u32| {
        if i.is_multiple_of(16) {
            base = any_exponent(base_next(), emax);
        }
        match r % 16 {
            0 => 0,
            1 => emax,
            2 | 3 => (r >> 4) % (emax + 1),
            _ => (base + (r >> 4) % 5).saturating_sub(2).min(emax),
        }
    };
    let mut out = Vec::with_capacity(n_bytes);
    let mut i = 0usize;
    while out.len() < n_bytes {
        let (r, m) = (next(), next());
        if f.is_bfp() {
            let at = out.len() % f.bytes();
            if at < 64 {
                // Exponent `at` of the tile heads datums 16 * at onwards.
                out.push(exponent(at * 16, r) as u8);
            } else {
                out.push(m as u8);
            }
            continue;
        }
        let mask = (1u32 << mbits) - 1;
        let man = match (m >> 28) % 8 {
            0 => 0,
            1 => mask,
            2 => 1,
            _ => m & mask,
        };
        let w = (r >> 31) << (ebits + mbits) | exponent(i, r) << mbits | man;
        match f {
            Format::Fp32 => out.extend_from_slice(&w.to_le_bytes()),
            _ => out.extend_from_slice(&(w as u16).to_le_bytes()),
        }
        i += 1;
    }
    out.truncate(n_bytes);
    out
}

/// A buffer's bytes on every tile.
pub(super) fn input_bytes(
    b: &Buffer,
    i: usize,
    f: Format,
    base: &Path,
) -> Result<Vec<u8>, CliError> {
    let field = format!("input[{i}] ({})", b.name);
    let n = b.pages as usize * b.page_size as usize;
    let given = [b.random.is_some(), b.values.is_some(), b.file.is_some()];
    if given.iter().filter(|g| **g).count() != 1 {
        return Err(CliError::new(format!(
            "{field}: give exactly one of random, values, file"
        )));
    }
    if b.random_bits && b.random.is_none() {
        return Err(CliError::new(format!(
            "{field}: random_bits needs random = SEED"
        )));
    }
    if let Some(seed) = b.random {
        return Ok(random_data(f, seed, n, b.random_bits.then_some(seed)));
    }
    if let Some(v) = &b.values {
        if f.is_bfp() {
            return Err(CliError::new(format!(
                "{field}: values cannot be given in a block-float format; use random or file"
            )));
        }
        let mut out = Vec::new();
        for x in v.iter().cycle().take(n / f.bytes()) {
            encode(f, *x, &mut out);
        }
        out.resize(n, 0);
        return Ok(out);
    }
    let path = base.join(b.file.as_deref().unwrap_or(Path::new("")));
    let data = std::fs::read(&path)
        .map_err(|e| CliError::new(format!("{field}.file: {}: {e}", path.display())))?;
    if data.len() != n {
        return Err(CliError::new(format!(
            "{field}.file: {} has {} bytes, pages × page_size is {n}",
            path.display(),
            data.len()
        )));
    }
    Ok(data)
}
